//! The 8x8 board on two bitboards: the fast path of every search.

use super::bitboard::{self, neighbours, Bits};
use super::{mix64, BitboardRef, Board, Cell};

/// An 8x8 position seen from the side to move: one bitboard per side, bit `i` being square
/// `i` (a1 = 0, h1 = 7, a8 = 56).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Default)]
pub struct Board8 {
    /// Discs of the side to move.
    pub player: u64,
    /// Discs of the other side.
    pub opponent: u64,
}

impl Board8 {
    /// The standard start: White on d4 and e5, Black on d5 and e4, Black to move.
    pub const START: Board8 = Board8 {
        player: (1 << 28) | (1 << 35),
        opponent: (1 << 27) | (1 << 36),
    };

    /// The legal moves as a bitboard.
    #[inline(always)]
    pub fn move_mask(&self) -> u64 {
        bitboard::legal_moves(self.player, self.opponent)
    }

    /// The discs flipped by a move on `index` (0 if it flips nothing).
    #[inline(always)]
    pub fn flips(&self, index: usize) -> u64 {
        bitboard::flips(self.player, self.opponent, index)
    }

    /// The position after a move on `index` that flips `flipped`, opponent to move.
    #[inline(always)]
    pub fn after(&self, index: usize, flipped: u64) -> Board8 {
        Board8 {
            player: self.opponent ^ flipped,
            opponent: self.player ^ flipped ^ (1 << index),
        }
    }

    /// Empty squares as a bitboard.
    #[inline(always)]
    pub fn empty_mask(&self) -> u64 {
        !(self.player | self.opponent)
    }
}

impl Board for Board8 {
    type Moves = Bits;

    fn start(size: usize) -> Board8 {
        assert_eq!(size, 8, "Board8 is 8x8 only");
        Board8::START
    }

    #[inline(always)]
    fn size(&self) -> usize {
        8
    }

    #[inline(always)]
    fn moves(&self) -> Bits {
        Bits(self.move_mask())
    }

    #[inline(always)]
    fn move_count(&self) -> u32 {
        self.move_mask().count_ones()
    }

    #[inline(always)]
    fn has_moves(&self) -> bool {
        self.move_mask() != 0
    }

    #[inline(always)]
    fn is_legal(&self, index: usize) -> bool {
        index < 64 && self.move_mask() >> index & 1 != 0
    }

    #[inline(always)]
    fn flip_count(&self, index: usize) -> u32 {
        self.flips(index).count_ones()
    }

    #[inline(always)]
    fn play(&self, index: usize) -> Board8 {
        self.after(index, self.flips(index))
    }

    #[inline(always)]
    fn play_if_legal(&self, index: usize) -> Option<Board8> {
        // An empty square is a legal move exactly when a disc there flips some.
        if index >= 64 || self.empty_mask() >> index & 1 == 0 {
            return None;
        }
        let flipped = self.flips(index);
        (flipped != 0).then(|| self.after(index, flipped))
    }

    #[inline(always)]
    fn pass(&self) -> Board8 {
        Board8 {
            player: self.opponent,
            opponent: self.player,
        }
    }

    fn cell(&self, index: usize) -> Cell {
        if self.player >> index & 1 != 0 {
            Cell::Player
        } else if self.opponent >> index & 1 != 0 {
            Cell::Opponent
        } else {
            Cell::Empty
        }
    }

    #[inline(always)]
    fn player_discs(&self) -> u32 {
        self.player.count_ones()
    }

    #[inline(always)]
    fn opponent_discs(&self) -> u32 {
        self.opponent.count_ones()
    }

    #[inline(always)]
    fn player_squares(&self) -> Bits {
        Bits(self.player)
    }

    #[inline(always)]
    fn opponent_squares(&self) -> Bits {
        Bits(self.opponent)
    }

    #[inline(always)]
    fn empties(&self) -> u32 {
        self.empty_mask().count_ones()
    }

    #[inline(always)]
    fn hash_key(&self) -> u64 {
        mix64(self.player ^ mix64(self.opponent ^ 0x2545_F491_4F6C_DD1D))
    }

    #[inline(always)]
    fn potential_mobility(&self) -> u32 {
        (neighbours(self.opponent) & self.empty_mask()).count_ones()
    }

    #[inline(always)]
    fn as_bitboard(&self) -> Option<BitboardRef<'_>> {
        Some(BitboardRef::Eight(self))
    }
}
