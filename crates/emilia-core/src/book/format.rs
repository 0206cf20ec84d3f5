//! The book file.
//!
//! Layout (little endian), in the frame of [`emilia_codec::frame`] (magic `EMILIABK`, version 1):
//!
//! | bytes | field |
//! |---|---|
//! | 4 | number of positions |
//! | … | body: the positions in ascending key order |
//!
//! Each position:
//!
//! | bytes | field |
//! |---|---|
//! | 8 | discs of the side to move, normalised ([`Key`]): bit 0 = a1, bit 63 = h8 |
//! | 8 | discs of the other side |
//! | 4 | games that reached it |
//! | 4 | the leaf: a move |
//! | 1 | number of links `n` |
//! | 4 `n` | the links: a move each |
//!
//! A move is its square (1 byte, a1 = 0, in the normalised orientation), its value for the
//! side to move (2 bytes, signed, hundredths of a disc) and its backing (1 byte: 0 not
//! scored, 1 to 60 the depth of the search, 255 exact). The leaf's square is 64 when every
//! legal move is a link and 255 while it is not searched.
//!
//! Reading checks everything a damaged file could break: magic, version, lengths,
//! checksum, keys in order and normalised, discs that do not overlap, moves that are legal,
//! links that lead to positions of the book.

use std::fmt;
use std::path::{Path, PathBuf};

use super::{next_key, Backing, Book, BookMove, Key, Leaf, Node};
use crate::frame::{u32_at, u64_at, Frame, FrameError};

/// The book file's frame.
const FRAME: Frame = Frame {
    magic: b"EMILIABK",
    version: 1,
    fields: 4,
};
use super::layout::{FILE_HEADER_LEN, MOVE_LEN, NODE_LEN};
/// Leaf square: every legal move is a link.
const NO_LEAF: u8 = 64;
/// Leaf square: not searched yet.
const UNSCORED_LEAF: u8 = 255;
/// Backing byte of an exact value.
const EXACT: u8 = 255;

/// Why a book file was refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum BookError {
    /// Refused by its frame: truncated, padded, foreign, of another version or damaged.
    Frame(FrameError),
    /// The body is inconsistent: position number (1-based) and what is wrong.
    Corrupt(usize, String),
}

impl fmt::Display for BookError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            BookError::Frame(e) => f.write_str(&e.describe("book")),
            BookError::Corrupt(position, what) => {
                write!(f, "book file is damaged: position {position}: {what}")
            }
        }
    }
}

impl std::error::Error for BookError {}

/// Why a book file could not be read or written, or the built-in book not be used.
#[derive(Debug)]
pub enum BookFileError {
    /// The file could not be read (the error names it).
    Read(crate::files::FileError),
    /// The file was read but refused.
    Refused(PathBuf, BookError),
    /// The file (its temporary copy, named here) could not be written.
    Write(PathBuf, std::io::Error),
    /// The temporary copy could not be renamed to the file: from, to and why.
    Rename(PathBuf, PathBuf, std::io::Error),
    /// The book built into the program was refused.
    BuiltIn(BookError),
}

impl fmt::Display for BookFileError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            BookFileError::Read(e) => write!(f, "{e}"),
            BookFileError::Refused(path, e) => write!(f, "book file {}: {e}", path.display()),
            BookFileError::Write(path, e) => {
                write!(f, "cannot write book file {}: {e}", path.display())
            }
            BookFileError::Rename(from, to, e) => {
                write!(
                    f,
                    "cannot rename {} to {}: {e}",
                    from.display(),
                    to.display()
                )
            }
            BookFileError::BuiltIn(e) => write!(f, "built-in book: {e}"),
        }
    }
}

impl std::error::Error for BookFileError {}

fn backing_byte(backing: Backing) -> u8 {
    match backing {
        Backing::Unscored => 0,
        Backing::Depth(d) => d.clamp(1, 60),
        Backing::Exact => EXACT,
    }
}

fn push_move(out: &mut Vec<u8>, square: u8, m: &BookMove) {
    out.push(square);
    out.extend_from_slice(&m.value.to_le_bytes());
    out.push(backing_byte(m.backing));
}

/// The file's bytes for `book`.
pub fn encode(book: &Book) -> Vec<u8> {
    let mut body = Vec::new();
    let keys = book.sorted_keys();
    for key in &keys {
        let node = book.node(key).expect("key from the book");
        body.extend_from_slice(&key.player.to_le_bytes());
        body.extend_from_slice(&key.opponent.to_le_bytes());
        body.extend_from_slice(&node.games.to_le_bytes());
        let unscored = BookMove {
            square: 0,
            value: 0,
            backing: Backing::Unscored,
        };
        match &node.leaf {
            Leaf::Unscored => push_move(&mut body, UNSCORED_LEAF, &unscored),
            Leaf::Nothing => push_move(&mut body, NO_LEAF, &unscored),
            Leaf::Move(m) => push_move(&mut body, m.square, m),
        }
        body.push(node.links.len() as u8);
        for link in &node.links {
            push_move(&mut body, link.square, link);
        }
    }
    FRAME.wrap(&(keys.len() as u32).to_le_bytes(), &body)
}

/// Reads a move at `at`; `None` for the backing byte's value when it is no valid backing.
fn read_move(bytes: &[u8], at: usize) -> (u8, i16, Option<Backing>) {
    let value = i16::from_le_bytes([bytes[at + 1], bytes[at + 2]]);
    let backing = match bytes[at + 3] {
        0 => Some(Backing::Unscored),
        d @ 1..=60 => Some(Backing::Depth(d)),
        EXACT => Some(Backing::Exact),
        _ => None,
    };
    (bytes[at], value, backing)
}

/// The position at `at` of a body already checked, and its key. A backing out of range
/// (which a checked body does not have) reads as unscored.
pub(crate) fn node_at(body: &[u8], at: usize) -> (Key, Node) {
    let key = Key {
        player: u64_at(body, at),
        opponent: u64_at(body, at + 8),
    };
    let read = |at: usize| {
        let (square, value, backing) = read_move(body, at);
        BookMove {
            square,
            value,
            backing: backing.unwrap_or(Backing::Unscored),
        }
    };
    let leaf = read(at + 20);
    let leaf = match leaf.square {
        UNSCORED_LEAF => Leaf::Unscored,
        NO_LEAF => Leaf::Nothing,
        _ => Leaf::Move(leaf),
    };
    let links = body[at + NODE_LEN - 1] as usize;
    let node = Node {
        games: u32_at(body, at + 16),
        links: (0..links)
            .map(|i| read(at + NODE_LEN + i * MOVE_LEN))
            .collect(),
        leaf,
    };
    (key, node)
}

/// The body of a file's bytes, unchecked: for the built-in book, which the tests check.
pub(crate) fn body_of(bytes: &[u8]) -> &[u8] {
    &bytes[FILE_HEADER_LEN.min(bytes.len())..]
}

/// The number of positions and the body of a file's bytes, checked by the file's frame
/// (its length, kind, version and checksum) only.
#[cfg(all(target_arch = "wasm32", target_os = "unknown"))]
pub(crate) fn open(bytes: &[u8]) -> Result<(usize, &[u8]), BookError> {
    let (fields, body) = FRAME.open(bytes).map_err(BookError::Frame)?;
    Ok((u32_at(fields, 0) as usize, body))
}

/// Reads and checks a file's bytes.
pub fn decode(bytes: &[u8]) -> Result<Book, BookError> {
    let (fields, body) = FRAME.open(bytes).map_err(BookError::Frame)?;
    let count = u32_at(fields, 0) as usize;
    let mut book = Book::new();
    let mut at = 0;
    let mut previous: Option<Key> = None;
    for number in 1..=count {
        let corrupt = |what: String| BookError::Corrupt(number, what);
        if body.len() < at + NODE_LEN {
            return Err(corrupt("the body ends inside it".into()));
        }
        let key = Key {
            player: u64_at(body, at),
            opponent: u64_at(body, at + 8),
        };
        if key.player & key.opponent != 0 {
            return Err(corrupt("a square holds discs of both sides".into()));
        }
        if Key::of(&key.board()).0 != key {
            return Err(corrupt("the position is not normalised".into()));
        }
        if previous.is_some_and(|p| p >= key) {
            return Err(corrupt("positions out of order".into()));
        }
        previous = Some(key);
        let board = key.board();
        let legal = board.move_mask();
        let games = u32_at(body, at + 16);
        let check = |square: u8, backing: Option<Backing>, what: &str| {
            if square >= 64 || legal >> square & 1 == 0 {
                return Err(corrupt(format!("{what} {square} is not a legal move")));
            }
            backing.ok_or_else(|| corrupt(format!("{what} has an invalid backing")))
        };
        let (square, value, backing) = read_move(body, at + 20);
        let marker = |leaf: Leaf| {
            if value == 0 && backing == Some(Backing::Unscored) {
                Ok(leaf)
            } else {
                Err(corrupt(
                    "a leaf without a move has a value or backing".into(),
                ))
            }
        };
        let leaf = match square {
            UNSCORED_LEAF => marker(Leaf::Unscored)?,
            NO_LEAF => marker(Leaf::Nothing)?,
            _ => Leaf::Move(BookMove {
                square,
                value,
                backing: check(square, backing, "leaf move")?,
            }),
        };
        let links = body[at + 24] as usize;
        at += NODE_LEN;
        if body.len() < at + links * MOVE_LEN {
            return Err(corrupt("the body ends inside its links".into()));
        }
        let mut node = Node {
            games,
            links: Vec::with_capacity(links),
            leaf,
        };
        for _ in 0..links {
            let (square, value, backing) = read_move(body, at);
            let backing = check(square, backing, "link")?;
            node.links.push(BookMove {
                square,
                value,
                backing,
            });
            at += MOVE_LEN;
        }
        if node.moves().any(|m| m.value.unsigned_abs() > 6400) {
            return Err(corrupt("a value beyond 64 discs".into()));
        }
        book.nodes.insert(key, node);
    }
    if at != body.len() {
        return Err(BookError::Corrupt(
            count,
            format!("{} bytes after the last position", body.len() - at),
        ));
    }
    // Every link must lead to a position of the book.
    for (number, key) in book.sorted_keys().iter().enumerate() {
        let node = &book.nodes[key];
        for link in &node.links {
            let child = next_key(&key.board(), link.square as usize);
            if !child.is_some_and(|c| book.nodes.contains_key(&c)) {
                return Err(BookError::Corrupt(
                    number + 1,
                    format!("link {} leads out of the book", link.square),
                ));
            }
        }
    }
    Ok(book)
}

/// Reads and checks the book file at `path`.
pub fn read(path: &Path) -> Result<Book, BookFileError> {
    let bytes = crate::files::read_bytes(path, crate::files::FileKind::BOOK)
        .map_err(BookFileError::Read)?;
    decode(&bytes).map_err(|e| BookFileError::Refused(path.to_path_buf(), e))
}

/// Writes `book` to `path` through a temporary file renamed over it, so that the file is
/// whole at every moment, even if the process is killed while writing.
pub fn write(book: &Book, path: &Path) -> Result<(), BookFileError> {
    let mut temporary = path.as_os_str().to_owned();
    temporary.push(".partial");
    let temporary = PathBuf::from(temporary);
    std::fs::write(&temporary, encode(book))
        .map_err(|e| BookFileError::Write(temporary.clone(), e))?;
    std::fs::rename(&temporary, path)
        .map_err(|e| BookFileError::Rename(temporary, path.to_path_buf(), e))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::{Board, Board8};

    fn sample() -> Book {
        let mut book = Book::new();
        let (start, k) = Key::of(&Board8::START);
        let first = symmetry_square(k, Board8::START.moves().next().unwrap());
        book.add_link(&start, first);
        book.entry(start).leaf = Leaf::Nothing;
        book.entry(start).games = 12;
        let child = next_key(&start.board(), first).unwrap();
        let board = child.board();
        let mut moves = board.moves();
        let node = book.entry(child);
        node.games = 7;
        node.leaf = Leaf::Move(BookMove {
            square: moves.next().unwrap() as u8,
            value: -123,
            backing: Backing::Exact,
        });
        book.negamax();
        book
    }

    fn symmetry_square(k: usize, square: usize) -> usize {
        crate::eval::pattern::symmetry::square(k, square)
    }

    #[test]
    fn books_survive_a_round_trip() {
        let book = sample();
        assert_eq!(decode(&encode(&book)), Ok(book));
        assert_eq!(decode(&encode(&Book::new())), Ok(Book::new()));
    }

    #[test]
    fn damaged_files_are_refused_with_the_reason() {
        let bytes = encode(&sample());
        assert!(matches!(
            decode(&bytes[..10]),
            Err(BookError::Frame(FrameError::Truncated { .. }))
        ));
        assert!(matches!(
            decode(&bytes[..bytes.len() - 1]),
            Err(BookError::Frame(FrameError::Truncated { .. }))
        ));
        let mut longer = bytes.clone();
        longer.push(0);
        assert_eq!(
            decode(&longer),
            Err(BookError::Frame(FrameError::TrailingBytes(1)))
        );
        let mut magic = bytes.clone();
        magic[0] = b'X';
        assert_eq!(decode(&magic), Err(BookError::Frame(FrameError::BadMagic)));
        assert_eq!(
            decode(b"(;GM[Othello]"),
            Err(BookError::Frame(FrameError::BadMagic))
        );
        let mut version = bytes.clone();
        version[8] = 2;
        assert_eq!(
            decode(&version),
            Err(BookError::Frame(FrameError::Version {
                found: 2,
                supported: 1
            }))
        );
        assert!(decode(&version)
            .unwrap_err()
            .to_string()
            .contains("version 2 is not supported"));
        for at in [24, bytes.len() / 2, bytes.len() - 1] {
            let mut flipped = bytes.clone();
            flipped[at] ^= 0x10;
            let err = decode(&flipped).unwrap_err();
            assert!(
                matches!(err, BookError::Frame(FrameError::Checksum { .. })),
                "{err}"
            );
            assert!(err.to_string().contains("damaged"));
        }
    }

    #[test]
    fn inconsistent_bodies_are_refused_even_with_a_good_checksum() {
        let book = sample();
        let reencode = |mutate: &dyn Fn(&mut Vec<u8>)| {
            let bytes = encode(&book);
            let (fields, body) = FRAME.open(&bytes).unwrap();
            let mut body = body.to_vec();
            mutate(&mut body);
            decode(&FRAME.wrap(fields, &body)).unwrap_err().to_string()
        };
        // A square owned by both sides.
        let err = reencode(&|b| {
            let player = b[0..8].to_vec();
            b[8..16].copy_from_slice(&player);
        });
        assert!(err.contains("both sides"), "{err}");
        // A leaf on an occupied square.
        let err = reencode(&|b| {
            let first_disc = u64_at(b, 0).trailing_zeros() as u8;
            b[20] = first_disc;
        });
        assert!(err.contains("not a legal move"), "{err}");
        // A backing byte out of range.
        let err = reencode(&|b| b[23] = 99);
        assert!(err.contains("invalid backing"), "{err}");
        // The two positions swapped: out of order.
        let err = reencode(&|b| {
            let first_len = NODE_LEN + b[24] as usize * MOVE_LEN;
            let (a, rest) = b.split_at(first_len);
            *b = [rest, a].concat();
        });
        assert!(err.contains("out of order"), "{err}");
    }

    #[test]
    fn writing_replaces_the_file_whole() {
        let dir = std::env::temp_dir().join(format!("emilia-book-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("test.book");
        write(&sample(), &path).unwrap();
        assert_eq!(read(&path).unwrap(), sample());
        assert!(!dir.join("test.book.partial").exists());
        let err = read(&dir.join("missing.book")).unwrap_err();
        assert!(
            format!("{err:#}").contains("cannot read book file"),
            "{err:#}"
        );
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
