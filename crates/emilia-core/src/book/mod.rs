//! The opening book: 8x8 positions that enough games reached, each with the moves examined
//! there and a search-backed value for each, so that the first moves of a game are played
//! at once, with values that deep searches settled beforehand.
//!
//! A position is stored once for its eight symmetric images, under its [`Key`]. At each
//! position the book keeps its *links*, the moves that lead to other positions of the book,
//! and its *leaf*: the best of the other moves, as a search found it. A link's value is the
//! value of the position it leads to, seen from this side; a position's value is that of
//! its best move ([`Book::negamax`]). [`format`](mod@format) reads and writes the file,
//! [`packed`] is the compact form play reads. The `emilia` program builds, scores and
//! checks books.

pub mod format;
use emilia_codec::book_layout as layout;
pub mod packed;

use std::borrow::Cow;
use std::collections::HashMap;
use std::sync::{Arc, OnceLock};

use crate::board::{Board, Board8};
use crate::eval::pattern::symmetry;
use crate::rng::Rng;

/// The book built into the binary (made by `emilia book build` and `deepen`; see the
/// README).
#[cfg(not(all(target_arch = "wasm32", target_os = "unknown")))]
static EMBEDDED_BOOK: &[u8] =
    include_bytes!(concat!(env!("CARGO_MANIFEST_DIR"), "/weights/emilia.book"));

/// The built-in book file: inside a native program; on WebAssembly, the file the embedder
/// supplied (`platform::supply_file`), if it has.
fn built_in_book() -> Option<&'static [u8]> {
    #[cfg(not(all(target_arch = "wasm32", target_os = "unknown")))]
    return Some(EMBEDDED_BOOK);
    #[cfg(all(target_arch = "wasm32", target_os = "unknown"))]
    crate::platform::supplied_file("emilia.book")
}

/// What a value rests on: nothing yet, a search to some depth, or an exact solve. Ordered
/// from weakest to strongest.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Backing {
    /// Not scored yet.
    Unscored,
    /// A search of this many plies.
    Depth(u8),
    /// An exact solve to the end of the game.
    Exact,
}

impl Backing {
    /// The backing one ply further from the end: a search one ply deeper.
    pub fn deeper(self) -> Backing {
        match self {
            Backing::Depth(d) => Backing::Depth(d.saturating_add(1).min(60)),
            other => other,
        }
    }
}

impl std::fmt::Display for Backing {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Backing::Unscored => write!(f, "unscored"),
            Backing::Depth(d) => write!(f, "depth {d}"),
            Backing::Exact => write!(f, "exact"),
        }
    }
}

/// One examined move of a book position, in the position's normalised orientation.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BookMove {
    /// The square, a1 = 0, in the orientation of the position's [`Key`].
    pub square: u8,
    /// Its value for the side to move, hundredths of a disc.
    pub value: i16,
    /// What the value rests on.
    pub backing: Backing,
}

/// The best move of a position that is not a link.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Leaf {
    /// Not searched yet (or no longer valid since a link was added).
    Unscored,
    /// Every legal move is a link: there is nothing else to search.
    Nothing,
    /// The best other move, with its value.
    Move(BookMove),
}

/// A book position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Node {
    /// Games that reached the position.
    pub games: u32,
    /// Moves to other book positions; values from those positions.
    pub links: Vec<BookMove>,
    /// The best other move.
    pub leaf: Leaf,
}

impl Node {
    /// A position no game has reached yet, with nothing scored.
    pub fn new() -> Node {
        Node {
            games: 0,
            links: Vec::new(),
            leaf: Leaf::Unscored,
        }
    }

    /// Every examined move: the links, then the leaf.
    pub fn moves(&self) -> impl Iterator<Item = &BookMove> {
        self.links.iter().chain(match &self.leaf {
            Leaf::Move(m) => Some(m),
            _ => None,
        })
    }

    /// The position's value (its best move's) and the weakest backing among its moves;
    /// `None` until every move, the leaf included, is scored.
    pub fn value(&self) -> Option<(i16, Backing)> {
        if self.leaf == Leaf::Unscored {
            return None;
        }
        let mut best: Option<i16> = None;
        let mut backing = Backing::Exact;
        for m in self.moves() {
            if m.backing == Backing::Unscored {
                return None;
            }
            best = Some(best.map_or(m.value, |b| b.max(m.value)));
            backing = backing.min(m.backing);
        }
        best.map(|b| (b, backing))
    }
}

impl Default for Node {
    fn default() -> Node {
        Node::new()
    }
}

/// A position normalised over the board's eight symmetries: of the images of (player,
/// opponent), the smallest pair. Positions that are images of each other share a key.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Key {
    /// Discs of the side to move, in the normalised orientation.
    pub player: u64,
    /// Discs of the other side.
    pub opponent: u64,
}

impl Key {
    /// The key of `board` and the symmetry that maps `board` onto it.
    pub fn of(board: &Board8) -> (Key, usize) {
        let mut best = (board.player, board.opponent, 0);
        for k in 1..symmetry::COUNT {
            let image = (
                symmetry::bits(k, board.player),
                symmetry::bits(k, board.opponent),
            );
            if image < (best.0, best.1) {
                best = (image.0, image.1, k);
            }
        }
        (
            Key {
                player: best.0,
                opponent: best.1,
            },
            best.2,
        )
    }

    /// The board in the normalised orientation.
    pub fn board(&self) -> Board8 {
        Board8 {
            player: self.player,
            opponent: self.opponent,
        }
    }
}

/// One of `count` parts into which a book's positions are split by a hash of their key, so
/// that separate processes or machines can score the parts: `index` of `count`, from 0.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Shard {
    /// Which part, 0 to `count - 1`.
    pub index: u32,
    /// Number of parts.
    pub count: u32,
}

impl Shard {
    /// The whole book, as one part.
    pub const WHOLE: Shard = Shard { index: 0, count: 1 };

    /// Whether the position `key` belongs to this part.
    pub fn contains(&self, key: &Key) -> bool {
        key.board().hash_key() % self.count as u64 == self.index as u64
    }
}

impl std::str::FromStr for Shard {
    type Err = BadShard;

    /// `i/N`: part `i` (from 0) of `N`.
    fn from_str(text: &str) -> Result<Shard, BadShard> {
        let bad = || BadShard(text.to_string());
        let (index, count) = text.split_once('/').ok_or_else(bad)?;
        let index: u32 = index.trim().parse().map_err(|_| bad())?;
        let count: u32 = count.trim().parse().map_err(|_| bad())?;
        if index >= count {
            return Err(bad());
        }
        Ok(Shard { index, count })
    }
}

/// A shard written otherwise than `i/N` with `0 <= i < N`: the text given.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BadShard(pub String);

impl std::fmt::Display for BadShard {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "shard '{}' is not i/N with 0 <= i < N", self.0)
    }
}

impl std::error::Error for BadShard {}

impl std::fmt::Display for Shard {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}/{}", self.index, self.count)
    }
}

/// Where a move leads, as the book sees it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Next {
    /// A position whose side to move has a move; `same_mover` when the opponent had to
    /// pass, so that its value counts for the side that moved.
    Position {
        /// The position.
        board: Board8,
        /// Whether the side that moved is to move again.
        same_mover: bool,
    },
    /// The game is over: the final disc difference for the side that moved.
    End(i32),
}

/// Where the legal move on `square` of `board` leads.
pub fn next(board: &Board8, square: usize) -> Next {
    let after = board.play(square);
    if after.has_moves() {
        return Next::Position {
            board: after,
            same_mover: false,
        };
    }
    let passed = after.pass();
    if passed.has_moves() {
        Next::Position {
            board: passed,
            same_mover: true,
        }
    } else {
        Next::End(-after.final_score())
    }
}

/// The key a move leads to, or `None` when the game ends with it.
pub fn next_key(board: &Board8, square: usize) -> Option<Key> {
    match next(board, square) {
        Next::Position { board, .. } => Some(Key::of(&board).0),
        Next::End(_) => None,
    }
}

/// A book move in the coordinates of the position asked about.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BookScore {
    /// The square, a1 = 0.
    pub square: usize,
    /// Its value for the side to move, hundredths of a disc.
    pub value: i32,
    /// What the value rests on.
    pub backing: Backing,
    /// Games that reached the position the move leads to, when it is in the book.
    pub games: u32,
}

/// An opening book.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Book {
    nodes: HashMap<Key, Node>,
}

impl Book {
    /// An empty book.
    pub fn new() -> Book {
        Book::default()
    }

    /// The book built into the binary, decoded once per process.
    pub fn embedded() -> Result<Arc<Book>, format::BookFileError> {
        static SHARED: OnceLock<Result<Arc<Book>, format::BookError>> = OnceLock::new();
        let Some(bytes) = built_in_book() else {
            let missing = "the book was not supplied (platform::supply_file)".to_string();
            return Err(format::BookFileError::BuiltIn(format::BookError::Corrupt(
                0, missing,
            )));
        };
        SHARED
            .get_or_init(|| format::decode(bytes).map(Arc::new))
            .clone()
            .map_err(format::BookFileError::BuiltIn)
    }

    /// Number of positions.
    pub fn len(&self) -> usize {
        self.nodes.len()
    }

    /// Whether the book has no position.
    pub fn is_empty(&self) -> bool {
        self.nodes.is_empty()
    }

    /// The position with key `key`.
    pub fn node(&self, key: &Key) -> Option<&Node> {
        self.nodes.get(key)
    }

    /// The position with key `key`, to change it.
    pub fn node_mut(&mut self, key: &Key) -> Option<&mut Node> {
        self.nodes.get_mut(key)
    }

    /// The position with key `key`, added unscored when missing.
    pub fn entry(&mut self, key: Key) -> &mut Node {
        self.nodes.entry(key).or_default()
    }

    /// Every position, in no particular order.
    pub fn nodes(&self) -> impl Iterator<Item = (&Key, &Node)> {
        self.nodes.iter()
    }

    /// The keys in ascending order.
    pub fn sorted_keys(&self) -> Vec<Key> {
        let mut keys: Vec<Key> = self.nodes.keys().copied().collect();
        keys.sort_unstable();
        keys
    }

    /// The book's moves in `board`, best first, in `board`'s own coordinates; `None` when
    /// the position is not in the book or not every move of it is scored. A move that is
    /// the image of a book move under a symmetry of the position is listed too.
    pub fn scores(&self, board: &Board8) -> Option<Vec<BookScore>> {
        scores_of(board, |key| self.nodes.get(key).map(Cow::Borrowed))
    }

    /// Recomputes every link's value from the position it leads to, positions nearest the
    /// end first: a link gets the value of its position (negated unless the opponent had
    /// to pass) and that position's weakest backing, one ply deeper for the move itself; a
    /// link to a position missing from the book or not fully scored is unscored.
    pub fn negamax(&mut self) {
        let mut order: Vec<(u32, Key)> = self
            .nodes
            .keys()
            .map(|k| (k.board().empties(), *k))
            .collect();
        // Every move fills a square, so a position's links lead to fewer empty squares.
        order.sort_unstable();
        let mut values: HashMap<Key, (i16, Backing)> = HashMap::with_capacity(order.len());
        for (_, key) in order {
            let board = key.board();
            let node = self.nodes.get_mut(&key).expect("key from the book");
            for link in &mut node.links {
                let (value, backing) = match next(&board, link.square as usize) {
                    Next::Position {
                        board: child,
                        same_mover,
                    } => match values.get(&Key::of(&child).0) {
                        Some(&(v, b)) => (if same_mover { v } else { -v }, b.deeper()),
                        None => (0, Backing::Unscored),
                    },
                    Next::End(score) => ((score * 100) as i16, Backing::Exact),
                };
                link.value = value;
                link.backing = backing;
            }
            if let Some(v) = node.value() {
                values.insert(key, v);
            }
        }
    }

    /// Adds a link for the move on `square` (normalised) at position `key`, unless a link
    /// to the same position is there. A leaf that led to the same position is no longer
    /// valid and is unscored. Returns whether the link is new.
    pub fn add_link(&mut self, key: &Key, square: usize) -> bool {
        let board = key.board();
        let child = next_key(&board, square);
        let node = self.nodes.entry(*key).or_default();
        let same = |m: &BookMove| {
            m.square as usize == square
                || (child.is_some() && next_key(&board, m.square as usize) == child)
        };
        if node.links.iter().any(same) {
            return false;
        }
        if let Leaf::Move(leaf) = node.leaf {
            if same(&leaf) {
                node.leaf = Leaf::Unscored;
            }
        }
        node.links.push(BookMove {
            square: square as u8,
            value: 0,
            backing: Backing::Unscored,
        });
        true
    }

    /// The scored leaves of the positions of `shard` (a move, or the mark that every move
    /// is a link), as a book of their own: those
    /// positions only, without links and with no games, so that merging it into the book
    /// it came from ([`Book::merge`]) gives that book these leaves and changes nothing
    /// else.
    pub fn leaves_of(&self, shard: Shard) -> Book {
        let nodes = self
            .nodes
            .iter()
            .filter(|(key, node)| shard.contains(key) && node.leaf != Leaf::Unscored)
            .map(|(key, node)| {
                (
                    *key,
                    Node {
                        games: 0,
                        links: Vec::new(),
                        leaf: node.leaf,
                    },
                )
            })
            .collect();
        Book { nodes }
    }

    /// Merges `other` into this book: positions of either, games added, links united; of
    /// two leaves the better backed one that is still not a link, or none. Link values are
    /// recomputed.
    pub fn merge(&mut self, other: &Book) {
        for (key, theirs) in &other.nodes {
            if !self.nodes.contains_key(key) {
                self.nodes.insert(*key, theirs.clone());
                continue;
            }
            let ours_leaf = self.nodes[key].leaf;
            for link in &theirs.links {
                self.add_link(key, link.square as usize);
            }
            let board = key.board();
            let node = self.nodes.get_mut(key).expect("present");
            node.games = node.games.saturating_add(theirs.games);
            let links: Vec<Option<Key>> = node
                .links
                .iter()
                .map(|l| next_key(&board, l.square as usize))
                .collect();
            let valid = |leaf: &Leaf| match leaf {
                Leaf::Move(m) => {
                    let child = next_key(&board, m.square as usize);
                    !node
                        .links
                        .iter()
                        .zip(&links)
                        .any(|(l, c)| l.square == m.square || (child.is_some() && *c == child))
                }
                _ => false,
            };
            let mut candidates: Vec<Leaf> = [ours_leaf, theirs.leaf]
                .into_iter()
                .filter(|l| valid(l))
                .collect();
            candidates.sort_by_key(|l| match l {
                Leaf::Move(m) => std::cmp::Reverse(m.backing),
                _ => std::cmp::Reverse(Backing::Unscored),
            });
            node.leaf = match candidates.first() {
                Some(leaf) => *leaf,
                None if unplayed(&board, node).is_empty() => Leaf::Nothing,
                None => Leaf::Unscored,
            };
        }
        self.negamax();
    }
}

/// The moves of the position `board` best first, in `board`'s coordinates, with `node_of`
/// giving the book's positions (see [`Book::scores`]).
pub(crate) fn scores_of<'a>(
    board: &Board8,
    node_of: impl Fn(&Key) -> Option<Cow<'a, Node>>,
) -> Option<Vec<BookScore>> {
    let (key, k) = Key::of(board);
    let node = node_of(&key)?;
    node.value()?;
    let normal = key.board();
    let examined: Vec<(BookMove, Option<Key>)> = node
        .moves()
        .map(|m| (*m, next_key(&normal, m.square as usize)))
        .collect();
    let mut scores: Vec<BookScore> = Vec::new();
    for square in board.moves() {
        let image = symmetry::square(k, square);
        let child = next_key(&normal, image);
        let found = examined
            .iter()
            .find(|(m, c)| m.square as usize == image || (child.is_some() && *c == child));
        if let Some((m, c)) = found {
            scores.push(BookScore {
                square,
                value: m.value as i32,
                backing: m.backing,
                games: c.and_then(|c| node_of(&c)).map_or(0, |n| n.games),
            });
        }
    }
    scores.sort_by_key(|s| (std::cmp::Reverse(s.value), s.square));
    Some(scores)
}

/// Games that must have played a move for the book to choose it at random, so that random
/// choices stay on the lines people play most (the main lines, where the book's values rest
/// on the deepest searches).
pub const TRODDEN_GAMES: u32 = 100;

/// One of `scores` (best first) within `margin` hundredths of a disc of the best, chosen at
/// random with `rng` (the best when `margin` is 0), the better ones more often: a move
/// `loss` below the best has weight `(1 - loss / (margin + 100))^2`, so that the discs
/// given away stay small over the many book moves of a game. Besides the best, only moves
/// that at least [`TRODDEN_GAMES`] games played are candidates: a book that reaches far
/// would otherwise give discs away at every one of its many plies, on values no search
/// can tell apart from the best.
pub fn choose_among(scores: &[BookScore], margin: i32, rng: &mut Rng) -> Option<BookScore> {
    let best = scores.first()?.value;
    let margin = margin.max(0);
    let weighted: Vec<(&BookScore, f64)> = scores
        .iter()
        .enumerate()
        .filter(|&(i, s)| i == 0 || (s.value >= best - margin && s.games >= TRODDEN_GAMES))
        .map(|(_, s)| s)
        .map(|s| {
            let share = 1.0 - (best - s.value) as f64 / (margin + 100) as f64;
            (s, share * share)
        })
        .collect();
    let mut left = rng.unit() * weighted.iter().map(|(_, w)| w).sum::<f64>();
    for &(score, weight) in &weighted {
        if left < weight {
            return Some(*score);
        }
        left -= weight;
    }
    weighted.last().map(|&(score, _)| *score)
}

/// The legal moves of the position `board` (normalised) that lead neither to a link's
/// position nor to the image of one.
pub fn unplayed(board: &Board8, node: &Node) -> Vec<usize> {
    let links: Vec<(usize, Option<Key>)> = node
        .links
        .iter()
        .map(|l| (l.square as usize, next_key(board, l.square as usize)))
        .collect();
    board
        .moves()
        .filter(|&m| {
            let child = next_key(board, m);
            !links
                .iter()
                .any(|(s, c)| *s == m || (child.is_some() && *c == child))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Position;

    fn board_after(transcript: &str) -> Board8 {
        let start = Position::start(8).unwrap();
        match start.play_transcript(transcript).unwrap().0.board {
            crate::board::AnyBoard::Eight(b) => b,
            _ => unreachable!(),
        }
    }

    #[test]
    fn symmetric_positions_share_a_key() {
        let (start, _) = Key::of(&Board8::START);
        // The four first moves are images of each other.
        for first in ["f5", "d3", "c4", "e6"] {
            let (key, _) = Key::of(&board_after(first));
            assert_eq!(key, Key::of(&board_after("f5")).0, "{first}");
            assert_ne!(key, start);
        }
        assert_ne!(
            Key::of(&board_after("f5d6")).0,
            Key::of(&board_after("f5f6")).0
        );
        // The key is one of the images, and the symmetry maps the board onto it.
        let board = board_after("f5d6c3d3c4");
        let (key, k) = Key::of(&board);
        assert_eq!(key.player, symmetry::bits(k, board.player));
        assert_eq!(key.opponent, symmetry::bits(k, board.opponent));
    }

    /// A book of the start, f5 and f5d6, with made-up leaf values, negamaxed.
    fn small_book() -> Book {
        let mut book = Book::new();
        let start = Key::of(&Board8::START).0;
        let f5 = Key::of(&board_after("f5")).0;
        let f5d6 = Key::of(&board_after("f5d6")).0;
        // The start's link: any first move, in the normalised orientation.
        let first = board_after("").moves().next().unwrap();
        let first = symmetry::square(Key::of(&Board8::START).1, first);
        assert!(book.add_link(&start, first));
        book.entry(start).leaf = Leaf::Nothing;
        let (_, k) = Key::of(&board_after("f5"));
        let d6 = symmetry::square(
            k,
            "d6".parse::<crate::board::Square>()
                .unwrap()
                .index(8)
                .unwrap(),
        );
        assert!(book.add_link(&f5, d6));
        let f6 = symmetry::square(
            k,
            "f6".parse::<crate::board::Square>()
                .unwrap()
                .index(8)
                .unwrap(),
        );
        book.entry(f5).leaf = Leaf::Move(BookMove {
            square: f6 as u8,
            value: -300,
            backing: Backing::Depth(10),
        });
        let f5d6_board = f5d6.board();
        let any = f5d6_board.moves().next().unwrap();
        book.entry(f5d6).leaf = Leaf::Move(BookMove {
            square: any as u8,
            value: 150,
            backing: Backing::Depth(12),
        });
        book.negamax();
        book
    }

    #[test]
    fn negamax_carries_values_up_the_links() {
        let book = small_book();
        let f5 = book.node(&Key::of(&board_after("f5")).0).unwrap();
        // d6 leads to a position worth +1.50 for its mover: -1.50 here, better than f6.
        assert_eq!(f5.links[0].value, -150);
        // Backed by a depth-12 search one move further on: 13 plies from here.
        assert_eq!(f5.links[0].backing, Backing::Depth(13));
        assert_eq!(f5.value(), Some((-150, Backing::Depth(10))));
        let start = book.node(&Key::of(&Board8::START).0).unwrap();
        assert_eq!(start.value(), Some((150, Backing::Depth(11))));
    }

    #[test]
    fn scores_come_in_the_asked_orientation_with_symmetric_moves() {
        let book = small_book();
        // From the start every first move is the book's move.
        let scores = book.scores(&Board8::START).unwrap();
        let squares: Vec<usize> = scores.iter().map(|s| s.square).collect();
        let mut legal: Vec<usize> = Board8::START.moves().collect();
        legal.sort_unstable();
        let mut sorted = squares.clone();
        sorted.sort_unstable();
        assert_eq!(sorted, legal);
        assert!(scores.iter().all(|s| s.value == 150));
        // After d3 (an image of f5), the image of d6 is the best move, worth -1.50.
        let d3 = board_after("d3");
        let scores = book.scores(&d3).unwrap();
        let best = scores[0];
        assert_eq!(best.value, -150);
        // The image of f5d6 from d3 is d3c5 (mirror along the a1-h8 diagonal).
        let after = d3.play(best.square);
        assert_eq!(Key::of(&after).0, Key::of(&board_after("f5d6")).0);
        assert_eq!(scores[1].value, -300);
        // A position out of the book.
        assert!(book.scores(&board_after("f5f6")).is_none());
    }

    fn scored(square: usize, value: i32, games: u32) -> BookScore {
        BookScore {
            square,
            value,
            backing: Backing::Depth(18),
            games,
        }
    }

    #[test]
    fn choice_stays_within_the_margin() {
        let scores = [
            scored(1, -150, 5_000),
            scored(2, -300, 2_000),
            scored(3, -450, 1_000),
        ];
        let mut rng = Rng::new(1);
        for _ in 0..20 {
            assert_eq!(choose_among(&scores, 0, &mut rng).unwrap().value, -150);
        }
        let mut values: Vec<i32> = (0..50)
            .map(|_| choose_among(&scores, 200, &mut rng).unwrap().value)
            .collect();
        let worse = values.iter().filter(|&&v| v == -300).count();
        values.sort_unstable();
        values.dedup();
        assert_eq!(values, vec![-300, -150]);
        // 1.5 discs below the best at a margin of 2: weight 0.25 against the best's 1.
        assert!((3..=20).contains(&worse), "{worse} of 50");
    }

    #[test]
    fn choice_is_among_moves_enough_games_played() {
        let mut rng = Rng::new(1);
        // The best is played however few games reached it.
        let rare = [scored(1, 0, 3), scored(2, -10, TRODDEN_GAMES - 1)];
        for _ in 0..50 {
            assert_eq!(choose_among(&rare, 200, &mut rng).unwrap().square, 1);
        }
        let trodden = [scored(1, 0, 3), scored(2, -10, TRODDEN_GAMES)];
        let second = (0..50)
            .filter(|_| choose_among(&trodden, 200, &mut rng).unwrap().square == 2)
            .count();
        assert!((10..=40).contains(&second), "{second} of 50");
    }

    #[test]
    fn the_packed_book_plays_its_best_move_without_a_margin() {
        let book = packed::PackedBook::new(&small_book());
        let f5 = board_after("f5");
        let mut rng = Rng::new(1);
        for _ in 0..20 {
            assert_eq!(book.choose(&f5, 0, &mut rng).unwrap().value, -150);
        }
    }

    #[test]
    fn a_new_link_on_the_leaf_unscores_it() {
        let mut book = small_book();
        let f5 = Key::of(&board_after("f5")).0;
        let Leaf::Move(leaf) = book.node(&f5).unwrap().leaf else {
            panic!("f5 has a leaf")
        };
        assert!(!book.add_link(&f5, book.node(&f5).unwrap().links[0].square as usize));
        assert!(book.add_link(&f5, leaf.square as usize));
        assert_eq!(book.node(&f5).unwrap().leaf, Leaf::Unscored);
        assert_eq!(book.node(&f5).unwrap().value(), None);
    }
}
