//! Move ordering: which moves to try first so that cut-offs come early.
//!
//! - "Fastest first": moves that leave the opponent the fewest replies (a corner reply
//!   counting double) come first, with small bonuses for good squares and for odd regions;
//!   higher up, the opponent's potential mobility (empty squares next to our discs) counts too.
//! - Highest up, a shallow search on [`heuristic`], a rough linear evaluation made for
//!   ordering only. A real evaluation function would take its place there (the ordering score
//!   adds the search value times a weight to the fastest-first score).

use super::parity::QUADRANT_BIT;
use super::stability::stable_edges;
use crate::board::bitboard::{legal_moves, neighbours};
use crate::board::bitboard::{CORNERS, X_SQUARES};

/// Ordering score of a move that wipes the opponent out: before everything else.
pub(crate) const WIPEOUT: i32 = 1 << 28;

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

/// The fastest-first score of the move on `square` that leads to the position with
/// `next_player` to move against `next_opponent`, where `next_player` has the moves
/// `replies` (higher: try earlier). `parity` is the region parity before the move; with
/// `POTENTIAL` the opponent's potential mobility counts.
#[inline(always)]
pub(crate) fn fastest_first<const POTENTIAL: bool>(
    next_player: u64,
    next_opponent: u64,
    replies: u64,
    square: usize,
    parity: u8,
) -> i32 {
    if next_player == 0 {
        return WIPEOUT;
    }
    let square = square & 63;
    let mut score = SQUARE_VALUE[square] - corner_weighted(replies) * MOBILITY_WEIGHT;
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

/// The number of `moves`, a corner counting twice.
#[inline(always)]
fn corner_weighted(moves: u64) -> i32 {
    (moves.count_ones() + (moves & CORNERS).count_ones()) as i32
}

/// Replies of `player`, a corner counting twice.
#[inline(always)]
fn weighted_mobility(player: u64, opponent: u64) -> i32 {
    corner_weighted(legal_moves(player, opponent))
}

/// The X-squares next to the empty corners among `empty`.
#[inline(always)]
fn x_squares_of_open_corners(empty: u64) -> u64 {
    let open = empty & CORNERS;
    ((open & 1) << 9) | ((open & 1 << 7) << 7) | ((open & 1 << 56) >> 7) | ((open & 1 << 63) >> 9)
}

/// C-squares (a2, b1, g1, h2, a7, b8, g8, h7) next to the empty corners among `empty`.
#[inline(always)]
fn c_squares_of_open_corners(empty: u64) -> u64 {
    let open = empty & CORNERS;
    let a1 = (open & 1).wrapping_neg() & 0x0000_0000_0000_0102;
    let h1 = ((open >> 7) & 1).wrapping_neg() & 0x0000_0000_0000_8040;
    let a8 = ((open >> 56) & 1).wrapping_neg() & 0x0201_0000_0000_0000;
    let h8 = (open >> 63).wrapping_neg() & 0x4080_0000_0000_0000;
    a1 | h1 | a8 | h8
}

/// Weights of [`heuristic`], in quarter discs, fitted by least squares to the exact scores
/// of some 20,000 positions with 12 to 17 empty squares, then rounded (the fit counted all
/// stable discs; the heuristic counts those on the edges, which orders as well and costs less).
mod weight {
    pub(crate) const MOBILITY: i32 = 10;
    pub(crate) const OPPONENT_MOBILITY: i32 = -9;
    pub(crate) const POTENTIAL_MOBILITY: i32 = -4;
    pub(crate) const OPPONENT_POTENTIAL_MOBILITY: i32 = 6;
    pub(crate) const CORNER: i32 = 11;
    pub(crate) const STABLE_EDGE: i32 = 4;
    pub(crate) const X_SQUARE: i32 = -18;
    pub(crate) const C_SQUARE: i32 = -9;
    pub(crate) const FRONTIER: i32 = -5;
}

/// A rough evaluation for ordering only, from the side to move's point of view, in quarter
/// discs: mobility (corners counting double), potential mobility (empty squares next to the
/// other side's discs), corners, stable edge discs, X- and C-squares next to empty corners, and
/// frontier discs (next to an empty square); each as the side to move's count less the
/// other side's, mobility and potential mobility each side on its own.
#[inline(always)]
pub(crate) fn heuristic(player: u64, opponent: u64) -> i32 {
    let count = |x: u64| x.count_ones() as i32;
    let difference = |set: u64| count(player & set) - count(opponent & set);
    let empty = !(player | opponent);
    let stable = difference(stable_edges(player, opponent));
    weight::MOBILITY * weighted_mobility(player, opponent)
        + weight::OPPONENT_MOBILITY * weighted_mobility(opponent, player)
        + weight::POTENTIAL_MOBILITY * count(neighbours(opponent) & empty)
        + weight::OPPONENT_POTENTIAL_MOBILITY * count(neighbours(player) & empty)
        + weight::CORNER * difference(CORNERS)
        + weight::STABLE_EDGE * stable
        + weight::X_SQUARE * difference(X_SQUARES & x_squares_of_open_corners(empty))
        + weight::C_SQUARE * difference(c_squares_of_open_corners(empty))
        + weight::FRONTIER * difference(neighbours(empty))
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
    fn c_squares_follow_their_corners() {
        assert_eq!(c_squares_of_open_corners(1), (1 << 1) | (1 << 8));
        assert_eq!(c_squares_of_open_corners(1 << 63), (1 << 62) | (1 << 55));
        assert_eq!(c_squares_of_open_corners(!CORNERS), 0);
    }

    #[test]
    fn heuristic_prefers_owning_a_corner_to_giving_it() {
        let start = crate::board::Board8::START;
        let mine = heuristic(start.player | 1, start.opponent);
        let theirs = heuristic(start.player, start.opponent | 1);
        assert!(mine > theirs, "{mine} {theirs}");
    }

    #[test]
    fn fewer_replies_score_higher() {
        // Same square and parity: the position leaving fewer replies wins.
        let start = crate::board::Board8::START;
        let replies = legal_moves(start.opponent, start.player);
        let few = fastest_first::<false>(start.opponent, start.player, replies, 19, 0);
        let none = fastest_first::<false>(0, start.player, 0, 19, 0);
        assert!(none > few);
        assert_eq!(none, WIPEOUT);
    }
}
