//! The 8x8 board as a [`Shape`] of the search: one `u64` a side, the bitboard move
//! generator, the hand-written last four empties of [`super::last`], the stable discs of
//! [`super::stability`], and moves ordered by the pattern evaluation (by the heuristic of
//! [`super::order`] should its weights be unavailable).
//!
//! Most time goes to the nodes with the fewest empties, so their code is kept small: the
//! last solvers are separate functions rather than inlined into one another (inlined, the
//! 4-empties solver was 35,000 instructions and ran out of the instruction cache; apart,
//! FFO #40-#49 runs about 5% faster).

use super::bits::NEIGHBOURS;
use super::order::{fastest_first, heuristic};
use super::parity::{self, QUADRANT_BIT, QUADRANT_MASK};
use super::search::{MoveList, OrderPlan, ProbCut, Search, Selectivity, Shape};
use super::stability::stable_discs;
use crate::board::bitboard::{flips, legal_moves};
use crate::board::{Board, Board8};
use crate::eval::pattern::{indices, Indices, PatternEval};

/// The 8x8 board.
pub(super) struct Eight;

/// Hundredths of a disc (the pattern evaluation) per quarter disc (the heuristic).
const PATTERN_PER_HEURISTIC_UNIT: i32 = 25;

/// Shallow ordering searches on the heuristic: cheap, so from 12 empties, one ply deeper
/// every 2 more, up to 5.
const HEURISTIC_ORDER: OrderPlan = OrderPlan {
    min_empties: 12,
    step: 2,
    max_depth: 5,
    weight: 128,
    fail_low_margin: None,
};
/// On the pattern evaluation, whose values are better but dearer than the heuristic's:
/// from 14 empties, at most 4 plies (reached at 20 empties), a disc weighing as half a
/// reply of the fastest-first score (the best weight measured); not at nodes whose
/// evaluation is 12 discs below alpha.
const PATTERN_ORDER: OrderPlan = OrderPlan {
    min_empties: 14,
    step: 2,
    max_depth: 4,
    weight: 128,
    fail_low_margin: Some(12),
};

/// Per number of empties, the lowest `alpha` at which a null-window node computes the
/// opponent's stable discs: below it the bound they give rarely reaches `alpha`.
static STABILITY_THRESHOLD: [i32; 61] = stability_thresholds();

/// The threshold at `n` empties is `2n - STABILITY_MARGIN` (at most 64): a larger
/// margin finds more cut-offs, a smaller one counts stable discs less often.
pub(super) const STABILITY_MARGIN: i32 = 6;

const fn stability_thresholds() -> [i32; 61] {
    let mut table = [99; 61];
    let mut n = 4;
    while n <= 60 {
        let t = 2 * n as i32 - STABILITY_MARGIN;
        table[n] = if t < 64 { t } else { 64 };
        n += 1;
    }
    table
}

/// The final score of a finished game for the side to move: disc difference, empty squares
/// to the winner.
#[inline(always)]
pub(super) fn final_score(player: u64, opponent: u64) -> i32 {
    let (p, o) = (player.count_ones() as i32, opponent.count_ones() as i32);
    let empties = 64 - p - o;
    match p.cmp(&o) {
        std::cmp::Ordering::Greater => p - o + empties,
        std::cmp::Ordering::Less => p - o - empties,
        std::cmp::Ordering::Equal => 0,
    }
}

/// Discs `player` flips by moving on `square`, or 0 (the flip kernel skipped when no
/// opponent disc touches the square).
#[inline(always)]
pub(super) fn try_flips(player: u64, opponent: u64, square: usize) -> u64 {
    if NEIGHBOURS[square & 63] & opponent == 0 {
        0
    } else {
        flips(player, opponent, square & 63)
    }
}

impl Shape for Eight {
    type Bits = u64;
    type Moves = MoveList<u64, 64>;
    /// The pattern evaluation when its weights load, otherwise the ordering heuristic.
    type OrderEval = Option<&'static PatternEval>;
    /// With the pattern evaluation, the parent's pattern indices seen from the side not to
    /// move, from which each child's follow by the squares its move changed (about half
    /// the cost of indexing each child afresh).
    type Parent = Option<Indices>;

    const SQUARES: i32 = 64;
    /// From 5 up, a move list and a mobility count a move save more 4-empties subtrees
    /// than they cost (the last four have the hand-written solvers).
    const SORTED_MIN_EMPTIES: u32 = 5;
    /// From 8 up the near table, which stays in the caches, saves more subtrees than its
    /// probes cost.
    const TABLE_MIN_EMPTIES: u32 = 8;
    /// From 11 up: lower, the children's probes, which wait on memory, cost more than
    /// the cut-offs they find.
    const ETC_MIN_EMPTIES: u32 = 11;
    /// Four empties and fewer: the hand-written solvers of [`super::last`].
    const LAST_MAX_EMPTIES: u32 = 4;
    /// The thresholds of [`stability_thresholds`] make the test cheap enough at 5 empties.
    const SHALLOW_STABILITY: bool = true;
    /// Low down, counting potential mobility costs more than it saves.
    const SORTED_POTENTIAL: bool = false;
    /// Sorting by the pattern evaluation pays for itself in cut-offs.
    const SORT_SHALLOW: bool = true;
    /// FFO #40-#49: 5% fewer nodes than starting at 0; 6 and 10 did no better.
    const ESTIMATE_DEPTH: u32 = 8;
    /// The heuristic's quarter discs (the pattern evaluation is scaled to them).
    const ORDER_UNITS_PER_DISC: i32 = 4;
    /// One pass, cutting at one standard deviation (the trials: docs/experiments.md,
    /// Selective passes before the exact solve).
    const SELECTIVE_PASSES: &'static [Selectivity] = &[Selectivity(10)];
    /// Below, the pass's shallow searches cost more time than its nodes save.
    const SELECTIVE_MIN_EMPTIES: u32 = 21;

    /// From 10 empties, a search of 2 plies, one ply deeper every 3 empties more up to 4;
    /// the standard deviations measured on the positions of `../shared/data/endgames`
    /// (13 to 22 empties, where they hardly depend on the empties).
    fn probcut(empties: u32) -> Option<ProbCut> {
        /// Standard deviation of the exact score around a search of 2, 3 and 4 plies, in
        /// quarter discs.
        const SIGMA: [i32; 3] = [31, 28, 26];
        let depth = 2 + empties.checked_sub(10)? / 3;
        let depth = depth.min(4);
        Some(ProbCut {
            depth,
            sigma: SIGMA[depth as usize - 2],
        })
    }

    fn order_eval() -> Option<&'static PatternEval> {
        PatternEval::embedded().ok()
    }

    #[inline(always)]
    fn order_plan(eval: Self::OrderEval) -> OrderPlan {
        match eval {
            Some(_) => PATTERN_ORDER,
            None => HEURISTIC_ORDER,
        }
    }

    #[inline(always)]
    fn order_value(eval: Self::OrderEval, player: u64, opponent: u64) -> i32 {
        match eval {
            Some(eval) => eval.evaluate(&Board8 { player, opponent }) / PATTERN_PER_HEURISTIC_UNIT,
            None => heuristic(player, opponent),
        }
    }

    #[inline(always)]
    fn parent(eval: Self::OrderEval, player: u64, opponent: u64) -> Option<Indices> {
        eval.map(|_| {
            indices(&Board8 {
                player: opponent,
                opponent: player,
            })
        })
    }

    #[inline(always)]
    fn child_value(
        eval: Self::OrderEval,
        parent: &Option<Indices>,
        square: usize,
        flipped: u64,
        player: u64,
        opponent: u64,
    ) -> i32 {
        match (eval, parent) {
            (Some(eval), Some(waiter)) => {
                let board = Board8 { player, opponent };
                eval.evaluate_after_move(&board, waiter, square, flipped)
                    / PATTERN_PER_HEURISTIC_UNIT
            }
            _ => heuristic(player, opponent),
        }
    }

    #[inline(always)]
    fn empty(player: u64, opponent: u64) -> u64 {
        !(player | opponent)
    }

    #[inline(always)]
    fn legal_moves(player: u64, opponent: u64) -> u64 {
        legal_moves(player, opponent)
    }

    #[inline(always)]
    fn flips(player: u64, opponent: u64, square: usize) -> u64 {
        flips(player, opponent, square)
    }

    #[inline(always)]
    fn try_flips(player: u64, opponent: u64, square: usize) -> u64 {
        try_flips(player, opponent, square)
    }

    #[inline(always)]
    fn key(player: u64, opponent: u64) -> u64 {
        Board8 { player, opponent }.hash_key()
    }

    #[inline(always)]
    fn final_score(player: u64, opponent: u64) -> i32 {
        final_score(player, opponent)
    }

    #[inline(always)]
    fn stable_count(player: u64, opponent: u64, enough: u32) -> u32 {
        stable_discs(player, opponent, enough)
    }

    #[inline(always)]
    fn stability_threshold(empties: u32) -> i32 {
        STABILITY_THRESHOLD[empties as usize]
    }

    #[inline(always)]
    fn square_index(bit: usize) -> usize {
        bit
    }

    #[inline(always)]
    fn quadrant_bit(square: usize) -> u8 {
        QUADRANT_BIT[square]
    }

    #[inline(always)]
    fn odd_squares(parity: u8) -> u64 {
        QUADRANT_MASK[parity as usize]
    }

    #[inline(always)]
    fn parity_of(empty: u64) -> u8 {
        parity::parity_of(empty)
    }

    #[inline(always)]
    fn fastest_first(
        player: u64,
        opponent: u64,
        replies: u64,
        square: usize,
        parity: u8,
        potential: bool,
    ) -> i32 {
        if potential {
            fastest_first::<true>(player, opponent, replies, square, parity)
        } else {
            fastest_first::<false>(player, opponent, replies, square, parity)
        }
    }

    #[inline(always)]
    fn solve_last(
        search: &mut Search<'_, Eight>,
        player: u64,
        opponent: u64,
        alpha: i32,
        empties: u32,
        parity: u8,
    ) -> i32 {
        match empties {
            1 => {
                let square = (!(player | opponent)).trailing_zeros() as usize;
                search.solve_1(player, alpha, square)
            }
            2 => {
                let e = !(player | opponent);
                let first = e.trailing_zeros() as usize;
                let second = (e & (e - 1)).trailing_zeros() as usize;
                search.solve_2(player, opponent, alpha, [first, second])
            }
            3 => search.solve_3(player, opponent, alpha, parity),
            _ => {
                let moves = legal_moves(player, opponent);
                search.solve_4(player, opponent, moves, alpha, parity)
            }
        }
    }

    #[inline(always)]
    fn solve_last_with_moves(
        search: &mut Search<'_, Eight>,
        player: u64,
        opponent: u64,
        moves: u64,
        alpha: i32,
        parity: u8,
    ) -> i32 {
        search.solve_4(player, opponent, moves, alpha, parity)
    }
}
