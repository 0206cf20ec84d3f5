//! Input files named on a command line, where a directory stands for the files of one kind
//! in it.

use anyhow::{bail, Context, Result};
use std::path::PathBuf;

/// Files named by `paths`: files as given, directories searched (not recursively) for files
/// whose extension is `extension` (in any case), in name order so that runs are
/// reproducible. A directory without such a file is an error (`kind` names them in it).
pub(crate) fn named_files(paths: &[PathBuf], extension: &str, kind: &str) -> Result<Vec<PathBuf>> {
    let mut files = Vec::new();
    for path in paths {
        if path.is_dir() {
            let mut found: Vec<PathBuf> = std::fs::read_dir(path)
                .with_context(|| format!("cannot list {}", path.display()))?
                .filter_map(|entry| entry.ok().map(|e| e.path()))
                .filter(|p| {
                    p.extension()
                        .is_some_and(|e| e.eq_ignore_ascii_case(extension))
                })
                .collect();
            found.sort();
            if found.is_empty() {
                bail!("no {kind} in {}", path.display());
            }
            files.extend(found);
        } else {
            files.push(path.clone());
        }
    }
    Ok(files)
}
