//! Move ordering: which moves to try first so that cut-offs come early. Above the last few
//! empties the solver tries "fastest first": moves that leave the opponent the fewest
//! replies (a corner reply counting double), with small bonuses for good squares and odd
//! regions.

use super::bits::CORNERS;
use super::parity::QUADRANT_BIT;
use crate::board::bitboard::legal_moves;

/// Ordering score of a move that wipes the opponent out: before everything else.
pub const WIPEOUT: i32 = 1 << 24;

/// Ordering score of the transposition table's move.
pub const TABLE_MOVE: i32 = 1 << 25;

/// A small static preference per square: corners good, squares next to corners bad.
#[rustfmt::skip]
static SQUARE_VALUE: [i32; 64] = [
    18,  4, 16, 12, 12, 16,  4, 18,
     4,  2,  6,  8,  8,  6,  2,  4,
    16,  6, 14, 10, 10, 14,  6, 16,
    12,  8, 10,  0,  0, 10,  8, 12,
    12,  8, 10,  0,  0, 10,  8, 12,
    16,  6, 14, 10, 10, 14,  6, 16,
     4,  2,  6,  8,  8,  6,  2,  4,
    18,  4, 16, 12, 12, 16,  4, 18,
];

/// Weight of one opponent reply.
const MOBILITY_WEIGHT: i32 = 1 << 10;
/// Bonus for a move into a region with an odd number of empty squares.
const PARITY_BONUS: i32 = 1 << 6;

/// The fastest-first score of the move on `square` that leads to the position with
/// `next_player` to move against `next_opponent` (higher: try earlier). `parity` is the
/// region parity before the move.
#[inline(always)]
pub fn fastest_first(next_player: u64, next_opponent: u64, square: usize, parity: u8) -> i32 {
    if next_player == 0 {
        return WIPEOUT;
    }
    let replies = legal_moves(next_player, next_opponent);
    let mobility = (replies.count_ones() + (replies & CORNERS).count_ones()) as i32;
    let mut score = SQUARE_VALUE[square] - mobility * MOBILITY_WEIGHT;
    if parity & QUADRANT_BIT[square] != 0 {
        score += PARITY_BONUS;
    }
    score
}
