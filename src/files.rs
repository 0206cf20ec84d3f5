//! Files named on a command line: inputs, where a directory stands for the files of one
//! kind in it, and outputs, written whole or not at all.

use anyhow::{bail, Context, Result};
use emilia_core::files::FileKind;
use std::io::Write;
use std::path::{Path, PathBuf};

/// The kinds of file the program reads beside the core's ([`FileKind`]), each with its
/// bound; every file is read through `emilia_core::files`, which checks the bound and the
/// type.
const MIB: u64 = 1024 * 1024;
/// Openings, one transcript a line (the XOT list is 5 KB).
pub(crate) const OPENINGS: FileKind = FileKind {
    what: "openings file",
    max_bytes: 16 * MIB,
};
/// Positions to solve or learn from: OBF, endgame lists, exact positions.
pub(crate) const POSITIONS: FileKind = FileKind {
    what: "positions file",
    max_bytes: 512 * MIB,
};
/// Games for training and the book builder: self-play chunks, transcripts, GGF.
pub(crate) const TRAINING_GAMES: FileKind = FileKind {
    what: "games file",
    max_bytes: 2048 * MIB,
};
/// A board file of `emilia move`: a 12x12 board with generous comments fits many times.
pub(crate) const BOARD: FileKind = FileKind {
    what: "board file",
    max_bytes: 64 * 1024,
};

/// The temporary name `path` is written under before it is renamed: in the same folder (a
/// rename across file systems would copy), and the same for every run, so that a run after
/// a killed one replaces the killed one's leftover.
pub(crate) fn temporary_name(path: &Path) -> PathBuf {
    let mut name = path.as_os_str().to_owned();
    name.push(".partial");
    PathBuf::from(name)
}

/// Writes `bytes` to `path` through [`temporary_name`], flushed to the disk and then
/// renamed over `path`: a process killed or a machine lost at any moment leaves either no
/// file at `path` (or the earlier one) or the whole new one, never a part of it.
pub(crate) fn write_whole(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    let temporary = temporary_name(path);
    let written = std::fs::File::create(&temporary).and_then(|mut file| {
        file.write_all(bytes)?;
        file.sync_all()
    });
    if let Err(e) = written.and_then(|()| std::fs::rename(&temporary, path)) {
        let _ = std::fs::remove_file(&temporary);
        return Err(e);
    }
    Ok(())
}

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

#[cfg(test)]
mod tests {
    use super::*;

    fn scratch(name: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("emilia-files-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        dir
    }

    fn names(dir: &Path) -> Vec<String> {
        let mut names: Vec<String> = std::fs::read_dir(dir)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        names.sort();
        names
    }

    #[test]
    fn write_whole_replaces_a_killed_runs_leftover_and_leaves_no_temporary() {
        let dir = scratch("whole");
        let path = dir.join("out.weights");
        // What a run killed while writing leaves behind.
        std::fs::write(temporary_name(&path), b"half of a fi").unwrap();
        write_whole(&path, b"first").unwrap();
        assert_eq!(std::fs::read(&path).unwrap(), b"first");
        write_whole(&path, b"second, longer").unwrap();
        assert_eq!(std::fs::read(&path).unwrap(), b"second, longer");
        assert_eq!(names(&dir), ["out.weights"]);
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn write_whole_that_fails_leaves_the_earlier_file_and_no_temporary() {
        let dir = scratch("fails");
        // The rename fails: a directory is in the way.
        let path = dir.join("taken");
        std::fs::create_dir(&path).unwrap();
        std::fs::write(path.join("inside"), b"kept").unwrap();
        assert!(write_whole(&path, b"new").is_err());
        assert_eq!(std::fs::read(path.join("inside")).unwrap(), b"kept");
        assert_eq!(names(&dir), ["taken"]);
        // The temporary file cannot be created: nothing appears.
        let missing = dir.join("no-such-folder").join("out");
        assert!(write_whole(&missing, b"new").is_err());
        assert_eq!(names(&dir), ["taken"]);
        let _ = std::fs::remove_dir_all(&dir);
    }
}
