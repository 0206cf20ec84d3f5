//! Reading the files a user names (books, weights, ProbCut tables, games): every read has a
//! size bound and a type check, so that no name (`/dev/zero`, a 1 GB sparse file, a FIFO
//! without a writer, a directory) makes a read grow without end or wait for ever.
//!
//! A regular file is refused before it is opened when it is larger than the bound of its
//! [`FileKind`]; a pipe (a FIFO, `/dev/stdin` fed by a pipe, `<(...)`) is read as it comes,
//! up to the same bound and until a deadline; devices, directories and sockets are refused.
//! On Unix the file is opened non-blocking, so that opening a FIFO never waits for a writer.
//! Text has a leading UTF-8 byte-order mark removed. On WebAssembly there are no files: the
//! page passes bytes.

use std::fmt;
use std::io::Read;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

/// What a file is read as, and the most bytes such a file may hold.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FileKind {
    /// What the file is, as messages name it ("book file").
    pub what: &'static str,
    /// The most bytes it may hold.
    pub max_bytes: u64,
}

const MIB: u64 = 1024 * 1024;

impl FileKind {
    /// An opening book (the built-in one is under 3 MiB).
    pub const BOOK: FileKind = FileKind {
        what: "book file",
        max_bytes: 1024 * MIB,
    };
    /// Pattern weights of any board size (the built-in 8x8 ones are under 6 MiB).
    pub const WEIGHTS: FileKind = FileKind {
        what: "weights file",
        max_bytes: 256 * MIB,
    };
    /// A ProbCut table (the built-in one is 16 KiB).
    pub const PROBCUT: FileKind = FileKind {
        what: "ProbCut table",
        max_bytes: 4 * MIB,
    };
    /// Games as text: transcripts one a line, board strings, GGF; or a WTHOR database.
    pub const GAMES: FileKind = FileKind {
        what: "game file",
        max_bytes: 64 * MIB,
    };
}

/// How long a pipe is waited on for its next bytes, unless the caller says otherwise.
pub const PIPE_WAIT: Duration = Duration::from_secs(10);

/// Why a file could not be read. Every message names the file and what it was read as.
#[derive(Debug)]
pub enum FileError {
    /// The file could not be opened or read.
    Io(PathBuf, FileKind, std::io::Error),
    /// The name is not a regular file or a pipe; `found` says what it is ("a directory").
    NotAFile(PathBuf, FileKind, &'static str),
    /// The file holds more than its kind's bound.
    TooLarge(PathBuf, FileKind),
    /// A pipe did not end within the time allowed (one deadline for the whole read).
    Late(PathBuf, FileKind, Duration),
    /// The file was read as text and is not UTF-8.
    NotText(PathBuf, FileKind),
}

impl FileError {
    /// The file the error is about.
    pub fn path(&self) -> &Path {
        match self {
            FileError::Io(path, ..)
            | FileError::NotAFile(path, ..)
            | FileError::TooLarge(path, _)
            | FileError::Late(path, ..)
            | FileError::NotText(path, _) => path,
        }
    }

    /// What was wrong, without the file's name.
    pub fn reason(&self) -> String {
        match self {
            FileError::Io(_, _, e) => e.to_string(),
            FileError::NotAFile(_, _, found) => {
                format!("{found}, not a regular file or a pipe")
            }
            FileError::TooLarge(_, kind) => format!(
                "larger than {}, the most a {} may hold",
                shown_bytes(kind.max_bytes),
                kind.what
            ),
            FileError::Late(_, _, waited) => format!(
                "a pipe that did not end within {:.1} s",
                waited.as_secs_f64()
            ),
            FileError::NotText(..) => "not text (invalid UTF-8)".to_string(),
        }
    }
}

fn shown_bytes(bytes: u64) -> String {
    if bytes.is_multiple_of(MIB) {
        format!("{} MiB", bytes / MIB)
    } else if bytes.is_multiple_of(1024) {
        format!("{} KiB", bytes / 1024)
    } else {
        format!("{bytes} bytes")
    }
}

impl fmt::Display for FileError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let kind = match self {
            FileError::Io(_, kind, _)
            | FileError::NotAFile(_, kind, _)
            | FileError::TooLarge(_, kind)
            | FileError::Late(_, kind, _)
            | FileError::NotText(_, kind) => kind,
        };
        write!(
            f,
            "cannot read {} {}: {}",
            kind.what,
            self.path().display(),
            self.reason()
        )
    }
}

impl std::error::Error for FileError {}

/// For readers whose error holds an `io::Error`: a failed read keeps its own error, the
/// other refusals become one with the reason as its message.
impl From<FileError> for std::io::Error {
    fn from(e: FileError) -> std::io::Error {
        match e {
            FileError::Io(_, _, e) => e,
            e => std::io::Error::other(e.reason()),
        }
    }
}

/// The bytes of the file at `path`, read as a `kind`; a pipe is waited on for at most
/// [`PIPE_WAIT`].
pub fn read_bytes(path: &Path, kind: FileKind) -> Result<Vec<u8>, FileError> {
    read_bytes_by(path, kind, Instant::now() + PIPE_WAIT)
}

/// The text of the file at `path`, read as a `kind`, without a leading byte-order mark; a
/// pipe is waited on for at most [`PIPE_WAIT`].
pub fn read_text(path: &Path, kind: FileKind) -> Result<String, FileError> {
    read_text_by(path, kind, Instant::now() + PIPE_WAIT)
}

/// [`read_text`] with a pipe read until `deadline` at the latest.
pub fn read_text_by(path: &Path, kind: FileKind, deadline: Instant) -> Result<String, FileError> {
    let bytes = read_bytes_by(path, kind, deadline)?;
    let text = String::from_utf8(bytes).map_err(|_| FileError::NotText(path.into(), kind))?;
    Ok(match text.strip_prefix('\u{feff}') {
        Some(rest) => rest.to_string(),
        None => text,
    })
}

/// `text` without a leading UTF-8 byte-order mark, for text that came by other ways than a
/// file (a protocol line, bytes from a page).
pub fn without_bom(text: &str) -> &str {
    text.strip_prefix('\u{feff}').unwrap_or(text)
}

/// [`read_bytes`] with a pipe read until `deadline` at the latest.
pub fn read_bytes_by(path: &Path, kind: FileKind, deadline: Instant) -> Result<Vec<u8>, FileError> {
    let io = |e| FileError::Io(path.into(), kind, e);
    // The type before opening: a device or a directory is refused without being opened.
    let before = std::fs::metadata(path).map_err(io)?;
    check_type(path, kind, &before)?;
    let mut file = open(path).map_err(io)?;
    // Again on what was opened: the name may have been replaced in between.
    let opened = file.metadata().map_err(io)?;
    check_type(path, kind, &opened)?;
    let waited = deadline.saturating_duration_since(Instant::now());
    // A FIFO opened without waiting reads as ended until its writer comes: wait for it.
    if is_fifo(&opened) && !wait_readable(&file, deadline) {
        return Err(FileError::Late(path.into(), kind, waited));
    }
    let mut bytes = Vec::new();
    let mut chunk = [0u8; 64 * 1024];
    loop {
        match file.read(&mut chunk) {
            Ok(0) => return Ok(bytes),
            Ok(read) => {
                if (bytes.len() + read) as u64 > kind.max_bytes {
                    return Err(FileError::TooLarge(path.into(), kind));
                }
                bytes.extend_from_slice(&chunk[..read]);
            }
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
            Err(e) if e.kind() == std::io::ErrorKind::WouldBlock => {
                if !wait_readable(&file, deadline) {
                    return Err(FileError::Late(path.into(), kind, waited));
                }
            }
            Err(e) => return Err(io(e)),
        }
    }
}

/// Refuses what is neither a regular file of at most the bound nor a pipe.
fn check_type(path: &Path, kind: FileKind, meta: &std::fs::Metadata) -> Result<(), FileError> {
    let file_type = meta.file_type();
    if file_type.is_file() {
        if meta.len() > kind.max_bytes {
            return Err(FileError::TooLarge(path.into(), kind));
        }
        return Ok(());
    }
    let found = if file_type.is_dir() {
        "a directory"
    } else {
        match special_type(&file_type) {
            Some(found) => found,
            None => return Ok(()),
        }
    };
    Err(FileError::NotAFile(path.into(), kind, found))
}

/// What a file that is neither a regular file nor a directory is, or `None` for a pipe.
#[cfg(unix)]
fn special_type(file_type: &std::fs::FileType) -> Option<&'static str> {
    use std::os::unix::fs::FileTypeExt;
    if file_type.is_fifo() {
        None
    } else if file_type.is_char_device() {
        Some("a character device")
    } else if file_type.is_block_device() {
        Some("a block device")
    } else if file_type.is_socket() {
        Some("a socket")
    } else {
        Some("not a file")
    }
}

#[cfg(not(unix))]
fn special_type(_: &std::fs::FileType) -> Option<&'static str> {
    Some("not a file")
}

/// Opens for reading; on Unix without waiting (a FIFO's open waits for a writer otherwise).
#[cfg(unix)]
fn open(path: &Path) -> std::io::Result<std::fs::File> {
    use std::os::unix::fs::OpenOptionsExt;
    std::fs::OpenOptions::new()
        .read(true)
        .custom_flags(libc::O_NONBLOCK)
        .open(path)
}

#[cfg(not(unix))]
fn open(path: &Path) -> std::io::Result<std::fs::File> {
    std::fs::File::open(path)
}

/// Waits until `file` has bytes or its writer has gone, or `deadline` passes; false if
/// it passed.
#[cfg(unix)]
fn wait_readable(file: &std::fs::File, deadline: Instant) -> bool {
    use std::os::fd::AsRawFd;
    loop {
        let left = deadline.saturating_duration_since(Instant::now());
        if left.is_zero() {
            return false;
        }
        let mut ready = libc::pollfd {
            fd: file.as_raw_fd(),
            events: libc::POLLIN,
            revents: 0,
        };
        let wait = libc::c_int::try_from(left.as_millis() + 1).unwrap_or(libc::c_int::MAX);
        // SAFETY: one valid pollfd for a descriptor that `file` keeps open.
        if unsafe { libc::poll(&mut ready, 1, wait) } > 0 && ready.revents != 0 {
            return true;
        }
    }
}

/// Whether `meta` is a FIFO or a pipe's.
#[cfg(unix)]
fn is_fifo(meta: &std::fs::Metadata) -> bool {
    use std::os::unix::fs::FileTypeExt;
    meta.file_type().is_fifo()
}

#[cfg(not(unix))]
fn is_fifo(_: &std::fs::Metadata) -> bool {
    false
}

#[cfg(not(unix))]
fn wait_readable(_: &std::fs::File, _: Instant) -> bool {
    false
}

#[cfg(test)]
mod tests {
    use super::*;

    fn scratch(name: &str) -> PathBuf {
        let dir =
            std::env::temp_dir().join(format!("emilia-core-files-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        dir
    }

    const SMALL: FileKind = FileKind {
        what: "test file",
        max_bytes: 16,
    };

    #[test]
    fn a_file_within_the_bound_is_read_and_its_bom_dropped() {
        let dir = scratch("within");
        let path = dir.join("a.txt");
        std::fs::write(&path, "\u{feff}f5d6").unwrap();
        assert_eq!(read_text(&path, SMALL).unwrap(), "f5d6");
        assert_eq!(read_bytes(&path, SMALL).unwrap().len(), 7);
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn a_file_over_the_bound_is_refused_naming_it_and_the_bound() {
        let dir = scratch("over");
        let path = dir.join("big");
        let file = std::fs::File::create(&path).unwrap();
        // Sparse: refused from its size, without reading a byte.
        file.set_len(1 << 40).unwrap();
        let e = read_bytes(&path, SMALL).unwrap_err();
        assert!(matches!(e, FileError::TooLarge(..)), "{e}");
        let message = e.to_string();
        assert!(
            message.contains("big") && message.contains("16 bytes"),
            "{message}"
        );
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn directories_and_devices_are_refused() {
        let dir = scratch("types");
        let e = read_bytes(&dir, SMALL).unwrap_err();
        assert!(e.to_string().contains("a directory"), "{e}");
        #[cfg(unix)]
        {
            let e = read_bytes(Path::new("/dev/zero"), FileKind::BOOK).unwrap_err();
            assert!(e.to_string().contains("character device"), "{e}");
        }
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn text_that_is_not_utf8_is_refused() {
        let dir = scratch("text");
        let path = dir.join("b");
        std::fs::write(&path, [0xff, 0xfe, 0x00]).unwrap();
        assert!(matches!(
            read_text(&path, SMALL),
            Err(FileError::NotText(..))
        ));
        let _ = std::fs::remove_dir_all(&dir);
    }
}
