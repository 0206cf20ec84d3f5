//! Move ordering: which moves to try first so that cut-offs come early.
//!
//! - "Fastest first": moves that leave the opponent the fewest replies (a corner reply
//!   counting double) come first, with small bonuses for good squares and for odd regions;
//!   higher up, the opponent's potential mobility (empty squares next to our discs) counts too.
//! - Highest up, a shallow search on [`heuristic`], a rough evaluation made for ordering only.

use super::bits::CORNERS;
use super::parity::QUADRANT_BIT;
use super::stability::stable_edges;
use crate::board::bitboard::{legal_moves, neighbours};

/// Ordering score of a move that wipes the opponent out: before everything else.
pub const WIPEOUT: i32 = 1 << 28;

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

/// Weight of one (corner-weighted) opponent reply.
const MOBILITY_WEIGHT: i32 = 1024;
/// Weight of one square of the opponent's potential mobility, where it is counted.
const POTENTIAL_WEIGHT: i32 = 128;
/// Bonus for a move into a region with an odd number of empty squares.
const PARITY_BONUS: i32 = 64;

/// Replies of `player`, a corner counting twice.
#[inline(always)]
fn weighted_mobility(player: u64, opponent: u64) -> i32 {
    let moves = legal_moves(player, opponent);
    (moves.count_ones() + (moves & CORNERS).count_ones()) as i32
}

/// The fastest-first score of the move on `square` that leads to the position with
/// `next_player` to move against `next_opponent` (higher: try earlier). `parity` is the
/// region parity before the move; with `POTENTIAL` the opponent's potential mobility counts.
#[inline(always)]
pub fn fastest_first<const POTENTIAL: bool>(
    next_player: u64,
    next_opponent: u64,
    square: usize,
    parity: u8,
) -> i32 {
    if next_player == 0 {
        return WIPEOUT;
    }
    let square = square & 63;
    let mut score =
        SQUARE_VALUE[square] - weighted_mobility(next_player, next_opponent) * MOBILITY_WEIGHT;
    if POTENTIAL {
        let empty = !(next_player | next_opponent);
        let potential = (neighbours(next_opponent) & empty).count_ones() as i32;
        score -= potential * POTENTIAL_WEIGHT;
    }
    if parity & QUADRANT_BIT[square] != 0 {
        score += PARITY_BONUS;
    }
    score
}

/// X-squares (b2, g2, b7, g7).
const X_SQUARES: u64 = 0x0042_0000_0000_4200;

/// The X-squares next to the empty corners among `empty`.
#[inline(always)]
fn x_squares_of_open_corners(empty: u64) -> u64 {
    let open = empty & CORNERS;
    ((open & 1) << 9) | ((open & 1 << 7) << 7) | ((open & 1 << 56) >> 7) | ((open & 1 << 63) >> 9)
}

/// A rough evaluation for ordering only, from the side to move's point of view: mobility,
/// potential mobility, corners, stable edge discs, X-squares next to empty corners.
#[inline(always)]
pub fn heuristic(player: u64, opponent: u64) -> i32 {
    let empty = !(player | opponent);
    let mobility = weighted_mobility(player, opponent) - weighted_mobility(opponent, player);
    let potential = (neighbours(opponent) & empty).count_ones() as i32
        - (neighbours(player) & empty).count_ones() as i32;
    let corners = (player & CORNERS).count_ones() as i32 - (opponent & CORNERS).count_ones() as i32;
    let stable = stable_edges(player, opponent);
    let stable = (stable & player).count_ones() as i32 - (stable & opponent).count_ones() as i32;
    let risky = X_SQUARES & x_squares_of_open_corners(empty);
    let risky = (player & risky).count_ones() as i32 - (opponent & risky).count_ones() as i32;
    8 * mobility + 2 * potential + 16 * corners + 4 * stable - 8 * risky
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn x_squares_follow_their_corners() {
        assert_eq!(x_squares_of_open_corners(1), 1 << 9);
        assert_eq!(x_squares_of_open_corners(1 << 7), 1 << 14);
        assert_eq!(x_squares_of_open_corners(1 << 56), 1 << 49);
        assert_eq!(x_squares_of_open_corners(1 << 63), 1 << 54);
        assert_eq!(x_squares_of_open_corners(!CORNERS), 0);
    }

    #[test]
    fn fewer_replies_score_higher() {
        // Same square and parity: the position leaving fewer replies wins.
        let start = crate::board::Board8::START;
        let few = fastest_first::<false>(start.opponent, start.player, 19, 0);
        let none = fastest_first::<false>(0, start.player, 19, 0);
        assert!(none > few);
        assert_eq!(none, WIPEOUT);
    }
}
