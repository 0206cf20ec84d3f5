//! A book as play uses it: the file's body looked up in place, a position found by binary
//! search over where each position starts. The built-in book's index is made by the build
//! script, so starting the engine reads nothing of the book: a lookup touches a few pages
//! of it, however large it is.

use std::borrow::Cow;
use std::sync::{Arc, OnceLock};

use super::format::{body_of, node_at};
use super::{choose_among, layout, scores_of, Book, BookScore, Key, Node};
use crate::board::Board8;
use crate::rng::Rng;

/// Where each position of the built-in book starts, u32 little endian (see `build.rs`).
#[cfg(not(all(target_arch = "wasm32", target_os = "unknown")))]
static EMBEDDED_INDEX: &[u8] = include_bytes!(concat!(env!("OUT_DIR"), "/emilia-book-index.bin"));

/// A book's file body and where each of its positions starts.
#[derive(Clone, Debug)]
pub struct PackedBook {
    body: Cow<'static, [u8]>,
    offsets: Cow<'static, [u32]>,
}

impl PackedBook {
    /// The book built into the binary, as it is stored in it.
    #[cfg(not(all(target_arch = "wasm32", target_os = "unknown")))]
    pub fn embedded() -> Arc<PackedBook> {
        static SHARED: OnceLock<Arc<PackedBook>> = OnceLock::new();
        SHARED
            .get_or_init(|| {
                let offsets = EMBEDDED_INDEX
                    .chunks_exact(4)
                    .map(|b| u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
                    .collect::<Vec<u32>>();
                Arc::new(PackedBook {
                    body: Cow::Borrowed(body_of(super::EMBEDDED_BOOK)),
                    offsets: Cow::Owned(offsets),
                })
            })
            .clone()
    }

    /// The book the embedder supplied (`platform::supply_file`), indexed at its first use;
    /// an empty book until it is supplied, or when it is refused.
    #[cfg(all(target_arch = "wasm32", target_os = "unknown"))]
    pub fn embedded() -> Arc<PackedBook> {
        static SHARED: OnceLock<Arc<PackedBook>> = OnceLock::new();
        let empty = || Arc::new(PackedBook::new(&Book::new()));
        if let Some(book) = SHARED.get() {
            return book.clone();
        }
        let Some(bytes) = super::built_in_book() else {
            return empty();
        };
        SHARED
            .get_or_init(|| match PackedBook::from_file_bytes(bytes) {
                Some(book) => Arc::new(book),
                None => {
                    log::error!("the supplied book is damaged: playing without it");
                    empty()
                }
            })
            .clone()
    }

    /// The book of a book file's bytes, looked up in place, when its frame (checksum
    /// included) and the positions of its body agree.
    #[cfg(all(target_arch = "wasm32", target_os = "unknown"))]
    fn from_file_bytes(bytes: &'static [u8]) -> Option<PackedBook> {
        let (count, body) = super::format::open(bytes).ok()?;
        let offsets = layout::offsets(body, count)?;
        Some(PackedBook {
            body: Cow::Borrowed(body),
            offsets: Cow::Owned(offsets),
        })
    }

    /// `book`, packed.
    pub fn new(book: &Book) -> PackedBook {
        let bytes = super::format::encode(book);
        let body = body_of(&bytes).to_vec();
        let offsets = layout::offsets(&body, book.len()).expect("an encoded book is whole");
        PackedBook {
            body: Cow::Owned(body),
            offsets: Cow::Owned(offsets),
        }
    }

    /// The position with key `key`.
    pub fn node(&self, key: &Key) -> Option<Node> {
        let key_at = |at: u32| {
            let at = at as usize;
            let word = |i: usize| u64::from_le_bytes(self.body[i..i + 8].try_into().expect("8"));
            Key {
                player: word(at),
                opponent: word(at + 8),
            }
        };
        let found = self
            .offsets
            .binary_search_by(|&at| key_at(at).cmp(key))
            .ok()?;
        Some(node_at(&self.body, self.offsets[found] as usize).1)
    }

    /// The book's moves in `board`, best first (see [`Book::scores`]).
    pub fn scores(&self, board: &Board8) -> Option<Vec<BookScore>> {
        scores_of(board, |key| self.node(key).map(Cow::Owned))
    }

    /// A move to play in `board`: one of the book's moves within `margin` hundredths of a
    /// disc of the best, chosen at random with `rng` ([`choose_among`]).
    pub fn choose(&self, board: &Board8, margin: i32, rng: &mut Rng) -> Option<BookScore> {
        choose_among(&self.scores(board)?, margin, rng)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_packed_built_in_book_answers_as_the_read_one() {
        let book = Book::embedded().unwrap();
        let packed = PackedBook::embedded();
        assert_eq!(packed.offsets.len(), book.len());
        for (i, (key, node)) in book.nodes().enumerate() {
            assert_eq!(packed.node(key).as_ref(), Some(node));
            // In every orientation, as play asks.
            let k = i % crate::eval::pattern::symmetry::COUNT;
            let board = Board8 {
                player: crate::eval::pattern::symmetry::bits(k, key.player),
                opponent: crate::eval::pattern::symmetry::bits(k, key.opponent),
            };
            assert_eq!(packed.scores(&board), book.scores(&board));
        }
        let missing = Key {
            player: 1,
            opponent: 2,
        };
        assert_eq!(packed.node(&missing), None);
        let again = PackedBook::new(&book);
        assert_eq!(again.offsets.len(), book.len());
        for (key, node) in book.nodes().take(100) {
            assert_eq!(again.node(key).as_ref(), Some(node));
        }
    }
}
