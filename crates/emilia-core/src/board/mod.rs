//! The rules of Othello: squares, colours, boards of every size, positions and notation.
//!
//! A [`Board`] is seen from the side to move ("player") against the other side
//! ("opponent"); squares are row-major indices on that board. [`Board8`] is the 8x8 fast
//! path on bitboards, [`GridBoard`] plays 6x6, 10x10 and 12x12 on the bit sets of their
//! geometry, and [`BoardN`] plays every size square by square, as a cross-check.
//! [`Position`] adds colours and the text formats users type.

pub mod bitboard;
pub(crate) mod bitset;
mod board10;
mod board12;
mod board6;
mod board8;
mod boardn;
mod color;
pub(crate) mod geometry;
mod grid;
mod position;
pub(crate) mod rays;
mod size;
mod square;

pub use board10::{Board10, Ten};
pub use board12::{Board12, Twelve};
pub use board6::{Board6, Six};
pub use board8::Board8;
pub use boardn::{BoardN, SquareSet};
pub use color::{Color, ColorError};
pub use grid::GridBoard;
pub use position::{transcript, AnyBoard, MoveError, Position, PositionError, SetupError};
pub use size::{BoardSize, BoardSizeError, ParseBoardSizeError};
pub use square::{Move, Square, SquareError, MAX_SIZE};

/// Board sides that Emilia plays.
pub const SIZES: [usize; 4] = [6, 8, 10, 12];

/// What occupies a square, relative to the side to move.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Cell {
    /// No disc.
    Empty,
    /// A disc of the side to move.
    Player,
    /// A disc of the side that just moved.
    Opponent,
}

/// The rules on one board, from the side to move's point of view. Searches are written once
/// over this trait and monomorphised per board type.
pub trait Board: Copy + Eq + std::hash::Hash + std::fmt::Debug + Send + Sync + 'static {
    /// Iterator over the indices of legal moves.
    type Moves: Iterator<Item = usize> + Clone;

    /// The start position on a board of side `size`, Black (the player) to move.
    fn start(size: usize) -> Self;
    /// Squares per side.
    fn size(&self) -> usize;
    /// Indices of the legal moves of the side to move.
    fn moves(&self) -> Self::Moves;
    /// Number of legal moves of the side to move.
    fn move_count(&self) -> u32;
    /// Whether the side to move has a legal move.
    fn has_moves(&self) -> bool {
        self.move_count() > 0
    }
    /// Whether a disc on `index` is a legal move.
    fn is_legal(&self, index: usize) -> bool;
    /// Number of discs a legal move on `index` flips.
    fn flip_count(&self, index: usize) -> u32;
    /// Plays the legal move on `index`; the result has the opponent to move.
    fn play(&self, index: usize) -> Self;
    /// The position after a move on `index` if it is legal, else `None`. Bitboards find the
    /// flipped discs once, for the test and the move.
    fn play_if_legal(&self, index: usize) -> Option<Self>
    where
        Self: Sized,
    {
        self.is_legal(index).then(|| self.play(index))
    }
    /// Hands the move to the opponent without playing.
    fn pass(&self) -> Self;
    /// What is on square `index`.
    fn cell(&self, index: usize) -> Cell;
    /// Discs of the side to move.
    fn player_discs(&self) -> u32;
    /// Discs of the other side.
    fn opponent_discs(&self) -> u32;
    /// Indices of the squares of the side to move's discs.
    fn player_squares(&self) -> Self::Moves;
    /// Indices of the squares of the other side's discs.
    fn opponent_squares(&self) -> Self::Moves;
    /// Empty squares.
    fn empties(&self) -> u32 {
        (self.size() * self.size()) as u32 - self.player_discs() - self.opponent_discs()
    }
    /// Neither side can move.
    fn is_game_over(&self) -> bool {
        !self.has_moves() && !self.pass().has_moves()
    }
    /// Disc difference for the side to move, empty squares going to the winner.
    fn final_score(&self) -> i32 {
        let (p, o) = (self.player_discs() as i32, self.opponent_discs() as i32);
        let e = self.empties() as i32;
        match p.cmp(&o) {
            std::cmp::Ordering::Greater => p - o + e,
            std::cmp::Ordering::Less => p - o - e,
            std::cmp::Ordering::Equal => 0,
        }
    }
    /// A well-mixed 64-bit hash of the discs and the side to move's perspective.
    fn hash_key(&self) -> u64;
    /// This board on the bitboards of its size, when it is on them: code generic over
    /// boards takes the bitboard path of each size through it. The answer is known at
    /// compile time for each board type, so the test costs nothing in a monomorphised
    /// search.
    #[inline(always)]
    fn as_bitboard(&self) -> Option<BitboardRef<'_>> {
        None
    }
    /// This board as a [`Board8`], when it is one: the 8x8 case of
    /// [`Board::as_bitboard`], for code with an 8x8 path only.
    #[inline(always)]
    fn as_board8(&self) -> Option<&Board8> {
        match self.as_bitboard() {
            Some(BitboardRef::Eight(board)) => Some(board),
            _ => None,
        }
    }
    /// Empty squares next to a disc of the opponent: where the side to move may later find
    /// moves (its potential mobility).
    fn potential_mobility(&self) -> u32 {
        let size = self.size() as i32;
        (0..size * size)
            .filter(|&index| {
                let (row, col) = (index / size, index % size);
                self.cell(index as usize) == Cell::Empty
                    && (-1..=1).any(|dr| {
                        (-1..=1).any(|dc| {
                            let (r, c) = (row + dr, col + dc);
                            (0..size).contains(&r)
                                && (0..size).contains(&c)
                                && self.cell((r * size + c) as usize) == Cell::Opponent
                        })
                    })
            })
            .count() as u32
    }
}

/// A board on the bitboards of its size (see [`Board::as_bitboard`]).
#[derive(Clone, Copy, Debug)]
pub enum BitboardRef<'a> {
    /// A 6x6 board.
    Six(&'a Board6),
    /// An 8x8 board.
    Eight(&'a Board8),
    /// A 10x10 board.
    Ten(&'a Board10),
    /// A 12x12 board.
    Twelve(&'a Board12),
}

/// Mixes a 64-bit value so that every input bit affects every output bit.
#[inline(always)]
pub fn mix64(mut x: u64) -> u64 {
    x ^= x >> 30;
    x = x.wrapping_mul(0xBF58_476D_1CE4_E5B9);
    x ^= x >> 27;
    x = x.wrapping_mul(0x94D0_49BB_1331_11EB);
    x ^ (x >> 31)
}
