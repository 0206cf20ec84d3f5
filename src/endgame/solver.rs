//! The search: negascout (principal variation search) over exact final scores. Principal
//! nodes search their first move with the full window and the others with a null window;
//! null-window nodes get cheaper the fewer empty squares remain:
//!
//! - 9 empties and more: transposition table (a small cache-resident one below 13 empties,
//!   see [`super::table::Tables`]), stability cut-off, fastest-first ordering
//!   with potential mobility; from 10, enhanced transposition cut-off; from 14, moves ordered
//!   by a shallow search on the pattern evaluation (from 12 on the ordering heuristic of
//!   [`super::order`] should the pattern weights be unavailable);
//! - 6 to 8: fastest-first ordering, stability cut-off, no table; the replies counted for
//!   ordering are handed to the child, which would otherwise generate them again;
//! - 5: squares in region-parity order, no move list;
//! - 4 and fewer: the hand-written solvers of [`super::last`].
//!
//! Most time goes to the nodes with the fewest empties, so their code is kept small: the
//! last solvers are separate functions rather than inlined into one another (inlined, the
//! 4-empties solver was 35,000 instructions and ran out of the instruction cache; apart,
//! FFO #40-#49 runs about 5% faster).

use super::bits::NEIGHBOURS;
use super::order::{fastest_first, heuristic};
use super::parity::{QUADRANT_BIT, QUADRANT_MASK};
use super::split::{Node, Shared, SolveThread, SplitSearch};
use super::stability::stable_discs;
use super::table::NO_MOVE;
use crate::board::bitboard::{flips, legal_moves, Bits};
use crate::board::{Board, Board8};
use crate::eval::pattern::{after_move, indices, Indices, PatternEval};
use std::mem::MaybeUninit;

/// Below every score: "no move searched yet".
const NONE: i32 = -100;

/// Null-window nodes with this many empties or more sort their moves.
const SORTED_MIN_EMPTIES: u32 = 6;
/// Null-window nodes with this many empties or more use the transposition table.
const TABLE_MIN_EMPTIES: u32 = 9;
/// Nodes with this many empties or more look up their children in the table first.
const ETC_MIN_EMPTIES: u32 = 10;
/// Nodes with this many empties or more order their moves by a shallow search...
const SEARCH_ORDER_MIN_EMPTIES: u32 = 12;
/// ...one ply deeper for every this many empties more...
const SEARCH_ORDER_STEP: u32 = 2;
/// ...up to this depth.
const SEARCH_ORDER_MAX_DEPTH: u32 = 5;
/// With the pattern evaluation, whose values are better but dearer than the ordering
/// heuristic's, shallow searches start higher and stop shallower (FFO #40-#49: 25% less
/// time than with the heuristic), and their values weigh more against fastest first.
const PATTERN_ORDER_MIN_EMPTIES: u32 = 14;
const PATTERN_ORDER_MAX_DEPTH: u32 = 3;
const PATTERN_ORDER_WEIGHT: i32 = 256;
/// Hundredths of a disc (the pattern evaluation) per quarter disc (the heuristic).
const PATTERN_PER_HEURISTIC_UNIT: i32 = 25;
/// Weight of the shallow search's value against the fastest-first score.
const SEARCH_ORDER_WEIGHT: i32 = 128;
/// Depth of [`Search::estimate`]'s search (FFO #40-#49: 5% fewer nodes than starting at 0;
/// 6 and 10 did no better).
const ESTIMATE_DEPTH: u32 = 8;
/// Beyond every heuristic value.
const INFINITE_VALUE: i32 = 1 << 20;

/// Per number of empties, the lowest `alpha` at which a null-window node computes the
/// opponent's stable discs: below it the bound they give rarely reaches `alpha`.
static STABILITY_THRESHOLD: [i32; 61] = stability_thresholds();

const fn stability_thresholds() -> [i32; 61] {
    let mut table = [99; 61];
    let mut n = 4;
    while n <= 60 {
        let t = 2 * n as i32 - 2;
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

/// The position after `player` moves on `square` flipping `flipped`: (player, opponent) of
/// the side then to move.
#[inline(always)]
pub(super) fn play(player: u64, opponent: u64, square: usize, flipped: u64) -> (u64, u64) {
    (opponent ^ flipped, player ^ flipped ^ 1 << square)
}

/// One legal move with its flips and ordering score.
#[derive(Clone, Copy)]
pub(super) struct Candidate {
    pub(super) flips: u64,
    /// The moves of the side to move after the move (worked out for ordering, and handed
    /// down so the child need not work them out again).
    pub(super) replies: u64,
    /// The hash of the position after the move, where the table is used.
    pub(super) key: u64,
    pub(super) square: u8,
    pub(super) score: i32,
}

/// The legal moves of a node, handed out best-first by selection (cut-offs usually come
/// after one or two moves, so sorting the rest would be wasted). Lives on the stack and is
/// filled in place: no allocation, no clearing.
pub(super) struct MoveList {
    moves: [MaybeUninit<Candidate>; 64],
    len: usize,
}

impl MoveList {
    /// An empty list.
    #[inline(always)]
    fn new() -> MoveList {
        MoveList {
            // SAFETY: an array of `MaybeUninit` needs no initialisation. (Written as
            // `[MaybeUninit::uninit(); 64]`, it cost a 1.5 KB memset at every node.)
            moves: unsafe { MaybeUninit::<[MaybeUninit<Candidate>; 64]>::uninit().assume_init() },
            len: 0,
        }
    }

    /// Adds the moves of `player` in `moves`, with their flips, unscored.
    #[inline(always)]
    fn generate(&mut self, player: u64, opponent: u64, moves: u64) {
        for x in Bits(moves) {
            self.moves[self.len & 63].write(Candidate {
                flips: flips(player, opponent, x),
                replies: 0,
                key: 0,
                square: x as u8,
                score: 0,
            });
            self.len += 1;
        }
    }

    #[inline(always)]
    fn as_slice(&self) -> &[Candidate] {
        // SAFETY: the first `len` entries were written by `generate` (a board has at most
        // 60 empty squares, so `len` never passes 64).
        unsafe { std::slice::from_raw_parts(self.moves.as_ptr().cast::<Candidate>(), self.len) }
    }

    #[inline(always)]
    fn as_mut_slice(&mut self) -> &mut [Candidate] {
        // SAFETY: as in `as_slice`.
        unsafe {
            std::slice::from_raw_parts_mut(self.moves.as_mut_ptr().cast::<Candidate>(), self.len)
        }
    }

    /// Moves the best of the moves from `i` on to `i` and returns it.
    #[inline(always)]
    fn pick(&mut self, i: usize) -> Candidate {
        let moves = self.as_mut_slice();
        let (mut best, mut best_score) = (i, moves[i].score);
        for (j, m) in moves.iter().enumerate().skip(i + 1) {
            if m.score > best_score {
                (best, best_score) = (j, m.score);
            }
        }
        // Read the chosen move before overwriting its slot, rather than swapping and reading
        // it back from memory just written, which stalled on the store (FFO #40-#49: about
        // 6% faster this way).
        let chosen = moves[best];
        moves[best] = moves[i];
        chosen
    }

    /// The moves from `i` on, best first.
    pub(super) fn sorted_from(&mut self, i: usize) -> &[Candidate] {
        let moves = &mut self.as_mut_slice()[i..];
        moves.sort_unstable_by_key(|m| std::cmp::Reverse(m.score));
        moves
    }

    /// Takes the move on `square` out of the list, if there.
    #[inline(always)]
    fn take(&mut self, square: u8) -> Option<Candidate> {
        let moves = self.as_mut_slice();
        let i = moves.iter().position(|m| m.square == square)?;
        let taken = moves[i];
        moves[i] = moves[moves.len() - 1];
        self.len -= 1;
        Some(taken)
    }
}

/// The state of one thread of a solve: node count, and what all its threads share.
pub(super) struct Search<'a> {
    /// Node count, limits and cut-off flags.
    pub(super) thread: SolveThread<'a>,
    /// The evaluation the shallow ordering searches use: the pattern evaluation when its
    /// weights load, otherwise the ordering heuristic.
    pub(super) order_eval: Option<&'static PatternEval>,
}

impl<'a> Search<'a> {
    /// The first thread of a solve, counting on from `nodes` nodes (limits apply to the
    /// count), which must be the count `shared` started with.
    pub(super) fn new(shared: &'a Shared<'a>, nodes: u64) -> Search<'a> {
        Search {
            thread: SolveThread::new(shared, nodes),
            order_eval: PatternEval::embedded().ok(),
        }
    }

    /// How good the position is for `player`, for ordering only, in quarter discs.
    #[inline(always)]
    fn order_value(&self, player: u64, opponent: u64) -> i32 {
        match self.order_eval {
            Some(eval) => eval.evaluate(&Board8 { player, opponent }) / PATTERN_PER_HEURISTIC_UNIT,
            None => heuristic(player, opponent),
        }
    }

    /// What [`Search::child_value`] needs of a parent: with the pattern evaluation, its
    /// pattern indices seen from the side not to move, from which each child's follow by
    /// the squares its move changed (about half the cost of indexing each child afresh).
    #[inline(always)]
    fn parent_indices(&self, player: u64, opponent: u64) -> Option<Indices> {
        self.order_eval.map(|_| {
            indices(&Board8 {
                player: opponent,
                opponent: player,
            })
        })
    }

    /// [`Search::order_value`] of the child `(player, opponent)` reached from a parent with
    /// [`Search::parent_indices`] `parent` by a move on `square` flipping `flipped`.
    #[inline(always)]
    fn child_value(
        &self,
        parent: &Option<Indices>,
        square: usize,
        flipped: u64,
        player: u64,
        opponent: u64,
    ) -> i32 {
        match (self.order_eval, parent) {
            (Some(eval), Some(waiter)) => {
                let board = Board8 { player, opponent };
                eval.evaluate_with(&board, &after_move(waiter, square, flipped))
                    / PATTERN_PER_HEURISTIC_UNIT
            }
            _ => heuristic(player, opponent),
        }
    }

    /// Checks the limits now and then; true when the search must stop.
    #[inline(always)]
    fn should_stop(&mut self) -> bool {
        self.thread.should_stop()
    }

    /// The stability cut-off: an upper bound on the score from the opponent's stable discs,
    /// when it is at most `alpha`.
    #[inline(always)]
    pub(super) fn stability_cutoff(
        &self,
        player: u64,
        opponent: u64,
        alpha: i32,
        empties: u32,
    ) -> Option<i32> {
        // Stable discs are among the opponent's discs: when even all of them could not
        // bring the bound down to `alpha`, skip working them out.
        if alpha >= STABILITY_THRESHOLD[empties as usize]
            && 64 - 2 * opponent.count_ones() as i32 <= alpha
        {
            let bound = 64 - 2 * stable_discs(opponent, player) as i32;
            if bound <= alpha {
                return Some(bound);
            }
        }
        None
    }

    /// Null-window search of any node: is the score above `alpha`? Fail-soft.
    #[inline(always)]
    pub(super) fn nws(
        &mut self,
        player: u64,
        opponent: u64,
        alpha: i32,
        empties: u32,
        parity: u8,
    ) -> i32 {
        match empties {
            0 => {
                self.thread.nodes += 1;
                final_score(player, opponent)
            }
            1 => {
                let square = (!(player | opponent)).trailing_zeros() as usize;
                self.solve_1(player, alpha, square)
            }
            2 => {
                let e = !(player | opponent);
                let first = e.trailing_zeros() as usize;
                let second = (e & (e - 1)).trailing_zeros() as usize;
                self.solve_2(player, opponent, alpha, [first, second])
            }
            3 => self.solve_3(player, opponent, alpha, parity),
            4 => self.solve_4(player, opponent, alpha, parity),
            n if n < SORTED_MIN_EMPTIES => self.nws_shallow(player, opponent, alpha, n, parity),
            n if n < TABLE_MIN_EMPTIES => self.nws_sorted(player, opponent, None, alpha, n, parity),
            n => self.nws_table(player, opponent, alpha, n, parity),
        }
    }

    /// Null-window search with few empties: squares in odd regions first, no move list.
    fn nws_shallow(
        &mut self,
        player: u64,
        opponent: u64,
        alpha: i32,
        empties: u32,
        parity: u8,
    ) -> i32 {
        self.thread.nodes += 1;
        // The smallest nodes that look at the limits: see `MOST_NODES_PAST_LIMIT`.
        if self.should_stop() {
            return 0;
        }
        if let Some(bound) = self.stability_cutoff(player, opponent, alpha, empties) {
            return bound;
        }
        let empty = !(player | opponent);
        let odd = empty & QUADRANT_MASK[parity as usize];
        let mut best = NONE;
        for set in [odd, empty & !odd] {
            for x in Bits(set) {
                let f = try_flips(player, opponent, x);
                if f == 0 {
                    continue;
                }
                let (p, o) = play(player, opponent, x, f);
                let parity = parity ^ QUADRANT_BIT[x];
                let score = if empties == 5 {
                    -self.solve_4(p, o, -alpha - 1, parity)
                } else {
                    -self.nws_shallow(p, o, -alpha - 1, empties - 1, parity)
                };
                if score > alpha {
                    return score;
                }
                best = best.max(score);
            }
        }
        if best == NONE {
            if legal_moves(opponent, player) == 0 {
                return final_score(player, opponent);
            }
            return -self.nws_shallow(opponent, player, -alpha - 1, empties, parity);
        }
        best
    }

    /// Null-window search with fastest-first ordering, no table. `known_moves` are the side
    /// to move's legal moves when the parent has worked them out already.
    fn nws_sorted(
        &mut self,
        player: u64,
        opponent: u64,
        known_moves: Option<u64>,
        alpha: i32,
        empties: u32,
        parity: u8,
    ) -> i32 {
        self.thread.nodes += 1;
        if self.should_stop() {
            return 0;
        }
        if let Some(bound) = self.stability_cutoff(player, opponent, alpha, empties) {
            return bound;
        }
        let moves = known_moves.unwrap_or_else(|| legal_moves(player, opponent));
        if moves == 0 {
            if legal_moves(opponent, player) == 0 {
                return final_score(player, opponent);
            }
            return -self.nws_sorted(opponent, player, None, -alpha - 1, empties, parity);
        }
        let mut list = MoveList::new();
        list.generate(player, opponent, moves);
        for m in list.as_mut_slice() {
            let x = m.square as usize;
            let (p, o) = play(player, opponent, x, m.flips);
            m.replies = legal_moves(p, o);
            m.score = fastest_first::<false>(p, o, m.replies, x, parity);
        }
        let mut best = NONE;
        for i in 0..list.len {
            let m = list.pick(i);
            let x = m.square as usize;
            let (p, o) = play(player, opponent, x, m.flips);
            let parity = parity ^ QUADRANT_BIT[x];
            let score = if empties > SORTED_MIN_EMPTIES {
                // The child is a sorted node too: hand it its moves.
                -self.nws_sorted(p, o, Some(m.replies), -alpha - 1, empties - 1, parity)
            } else {
                -self.nws(p, o, -alpha - 1, empties - 1, parity)
            };
            if score > alpha {
                return score;
            }
            best = best.max(score);
        }
        best
    }

    /// Scores `list` for ordering at a node with `empties` empties: fastest first, and higher
    /// up a shallow search on the ordering evaluation ([`Search::order_value`]).
    fn score_moves(
        &mut self,
        list: &mut MoveList,
        player: u64,
        opponent: u64,
        empties: u32,
        parity: u8,
    ) {
        let (min_empties, max_depth, weight) = match self.order_eval {
            Some(_) => (
                PATTERN_ORDER_MIN_EMPTIES,
                PATTERN_ORDER_MAX_DEPTH,
                PATTERN_ORDER_WEIGHT,
            ),
            None => (
                SEARCH_ORDER_MIN_EMPTIES,
                SEARCH_ORDER_MAX_DEPTH,
                SEARCH_ORDER_WEIGHT,
            ),
        };
        let depth = if empties >= min_empties {
            (1 + (empties - min_empties) / SEARCH_ORDER_STEP).min(max_depth)
        } else {
            0
        };
        let parent = if depth == 1 {
            self.parent_indices(player, opponent)
        } else {
            None
        };
        for i in 0..list.len {
            let m = list.as_slice()[i];
            let x = m.square as usize;
            let (p, o) = play(player, opponent, x, m.flips);
            let mut score = fastest_first::<true>(p, o, legal_moves(p, o), x, parity);
            if depth == 1 && p != 0 {
                self.thread.nodes += 1;
                score -= self.child_value(&parent, x, m.flips, p, o) * weight;
            } else if depth > 1 && p != 0 {
                let value = -self.shallow_value(p, o, depth - 1, -INFINITE_VALUE, INFINITE_VALUE);
                score += value * weight;
            }
            list.as_mut_slice()[i].score = score;
        }
    }

    /// Alpha-beta on the ordering evaluation to `depth` plies, moves sorted by it from 2
    /// plies up.
    fn shallow_value(
        &mut self,
        player: u64,
        opponent: u64,
        depth: u32,
        mut alpha: i32,
        beta: i32,
    ) -> i32 {
        self.thread.nodes += 1;
        if self.should_stop() {
            return 0;
        }
        if depth == 0 {
            return self.order_value(player, opponent);
        }
        let moves = legal_moves(player, opponent);
        if moves == 0 {
            if legal_moves(opponent, player) == 0 {
                // A finished game outweighs any heuristic value.
                return final_score(player, opponent) * 1000;
            }
            return -self.shallow_value(opponent, player, depth, -beta, -alpha);
        }
        let mut best = -INFINITE_VALUE;
        let parent = self.parent_indices(player, opponent);
        if depth >= 2 {
            // Deeper down, sorting by the heuristic pays for itself in cut-offs.
            let mut list = MoveList::new();
            list.generate(player, opponent, moves);
            for m in list.as_mut_slice() {
                let x = m.square as usize;
                let (p, o) = play(player, opponent, x, m.flips);
                m.score = -self.child_value(&parent, x, m.flips, p, o);
            }
            for i in 0..list.len {
                let m = list.pick(i);
                let (p, o) = play(player, opponent, m.square as usize, m.flips);
                let value = -self.shallow_value(p, o, depth - 1, -beta, -alpha);
                if value > best {
                    best = value;
                    if value > alpha {
                        alpha = value;
                        if alpha >= beta {
                            break;
                        }
                    }
                }
            }
            return best;
        }
        // One ply: the children's values are the evaluation's.
        for x in Bits(moves) {
            let f = flips(player, opponent, x);
            let (p, o) = play(player, opponent, x, f);
            self.thread.nodes += 1;
            let value = -self.child_value(&parent, x, f, p, o);
            if value > best {
                best = value;
                if value > alpha {
                    alpha = value;
                    if alpha >= beta {
                        break;
                    }
                }
            }
        }
        best
    }

    /// A guess at the exact score, to start the root's null-window searches near it: a
    /// shallow search on the ordering evaluation, in discs, rounded to an even number.
    pub(super) fn estimate(&mut self, player: u64, opponent: u64) -> i32 {
        let value = self.shallow_value(
            player,
            opponent,
            ESTIMATE_DEPTH,
            -INFINITE_VALUE,
            INFINITE_VALUE,
        );
        // Quarter discs to discs; finished games, scored beyond every estimate, clip.
        ((value as f64 / 8.0).round() as i32 * 2).clamp(-64, 64)
    }

    /// Null-window search with the transposition table.
    fn nws_table(
        &mut self,
        player: u64,
        opponent: u64,
        alpha: i32,
        empties: u32,
        parity: u8,
    ) -> i32 {
        self.thread.nodes += 1;
        if self.should_stop() {
            return 0;
        }
        if let Some(bound) = self.stability_cutoff(player, opponent, alpha, empties) {
            return bound;
        }
        let key = Board8 { player, opponent }.hash_key();
        let mut table_move = NO_MOVE;
        if let Some(hit) = self.thread.shared.tables.get(empties).probe(key) {
            if hit.lower > alpha {
                return hit.lower;
            }
            if hit.upper <= alpha {
                return hit.upper;
            }
            table_move = hit.best;
        }
        let moves = legal_moves(player, opponent);
        if moves == 0 {
            if legal_moves(opponent, player) == 0 {
                return final_score(player, opponent);
            }
            return -self.nws_table(opponent, player, -alpha - 1, empties, parity);
        }
        let start = self.thread.nodes;
        let mut list = MoveList::new();
        list.generate(player, opponent, moves);
        if empties > TABLE_MIN_EMPTIES {
            // The children use the table: fetch their entries all at once, so that the
            // memory accesses overlap instead of coming one after the other.
            for m in list.as_mut_slice() {
                let (p, o) = play(player, opponent, m.square as usize, m.flips);
                m.key = Board8 {
                    player: p,
                    opponent: o,
                }
                .hash_key();
                self.thread.shared.tables.get(empties - 1).prefetch(m.key);
            }
            if empties >= ETC_MIN_EMPTIES {
                // Enhanced transposition cut-off: a child the table already knows to be bad
                // enough for the opponent proves the cut-off without a search.
                for m in list.as_slice() {
                    if let Some(hit) = self.thread.shared.tables.get(empties - 1).probe(m.key) {
                        if -hit.upper > alpha {
                            self.thread
                                .shared
                                .tables
                                .get(empties)
                                .store(key, empties, -hit.upper, 64, m.square, 1);
                            return -hit.upper;
                        }
                    }
                }
            }
        }
        let mut best = NONE;
        let mut best_move = NO_MOVE;
        // The table's move first, before spending time ordering the others.
        if let Some(m) = list.take(table_move) {
            let x = m.square as usize;
            let (p, o) = play(player, opponent, x, m.flips);
            best = -self.nws(p, o, -alpha - 1, empties - 1, parity ^ QUADRANT_BIT[x]);
            if self.thread.aborted {
                return 0;
            }
            best_move = m.square;
        }
        if best <= alpha {
            self.score_moves(&mut list, player, opponent, empties, parity);
            for i in 0..list.len {
                // Once one move is searched (the eldest brother), the others may be shared
                // out among idle threads.
                if best != NONE {
                    if let Some(helpers) = self.helpers_for(empties, list.len - i) {
                        let rest = list.sorted_from(i);
                        let (score, square) =
                            self.split_nws(player, opponent, alpha, empties, parity, rest, helpers);
                        if self.thread.aborted {
                            return 0;
                        }
                        if score > best {
                            (best, best_move) = (score, square);
                        }
                        break;
                    }
                }
                let m = list.pick(i);
                let x = m.square as usize;
                let (p, o) = play(player, opponent, x, m.flips);
                let score = -self.nws(p, o, -alpha - 1, empties - 1, parity ^ QUADRANT_BIT[x]);
                if self.thread.aborted {
                    return 0;
                }
                if score > best {
                    best = score;
                    best_move = m.square;
                    if score > alpha {
                        break;
                    }
                }
            }
        }
        let (lower, upper) = if best > alpha {
            (best, 64)
        } else {
            (-64, best)
        };
        self.thread.shared.tables.get(empties).store(
            key,
            empties,
            lower,
            upper,
            best_move,
            self.thread.nodes - start,
        );
        best
    }

    /// Principal variation search with the window `alpha..beta`: the score (fail-soft) and
    /// the best move ([`NO_MOVE`] for a pass or a finished game).
    pub(super) fn pvs(
        &mut self,
        player: u64,
        opponent: u64,
        mut alpha: i32,
        beta: i32,
        empties: u32,
        parity: u8,
    ) -> (i32, u8) {
        self.thread.nodes += 1;
        if self.should_stop() {
            return (0, NO_MOVE);
        }
        let moves = legal_moves(player, opponent);
        if moves == 0 {
            if legal_moves(opponent, player) == 0 {
                return (final_score(player, opponent), NO_MOVE);
            }
            let (score, _) = self.pvs(opponent, player, -beta, -alpha, empties, parity);
            return (-score, NO_MOVE);
        }
        let key = Board8 { player, opponent }.hash_key();
        let table_move = self
            .thread
            .shared
            .tables
            .get(empties)
            .probe(key)
            .map_or(NO_MOVE, |hit| hit.best);
        let start = self.thread.nodes;
        let (alpha_in, mut best, mut best_move) = (alpha, NONE, NO_MOVE);
        let mut list = MoveList::new();
        list.generate(player, opponent, moves);
        self.score_moves(&mut list, player, opponent, empties, parity);
        if let Some(m) = list
            .as_mut_slice()
            .iter_mut()
            .find(|m| m.square == table_move)
        {
            m.score = i32::MAX;
        }
        for i in 0..list.len {
            if i > 0 {
                if let Some(helpers) = self.helpers_for(empties, list.len - i) {
                    let rest = list.sorted_from(i);
                    let split = self.split_pvs(
                        player, opponent, alpha, beta, empties, parity, rest, helpers,
                    );
                    if self.thread.aborted {
                        return (0, NO_MOVE);
                    }
                    if split.0 > best {
                        (best, best_move) = split;
                    }
                    break;
                }
            }
            let m = list.pick(i);
            let x = m.square as usize;
            let (p, o) = play(player, opponent, x, m.flips);
            let parity = parity ^ QUADRANT_BIT[x];
            let score = if i == 0 {
                -self.pvs(p, o, -beta, -alpha, empties - 1, parity).0
            } else {
                let probe = -self.nws(p, o, -alpha - 1, empties - 1, parity);
                if probe > alpha && probe < beta && !self.thread.aborted {
                    -self.pvs(p, o, -beta, -alpha, empties - 1, parity).0
                } else {
                    probe
                }
            };
            if self.thread.aborted {
                return (0, NO_MOVE);
            }
            if score > best {
                best = score;
                best_move = m.square;
                if score > alpha {
                    alpha = score;
                    if score >= beta {
                        break;
                    }
                }
            }
        }
        if empties >= TABLE_MIN_EMPTIES {
            let (lower, upper) = if best >= beta {
                (best, 64)
            } else if best <= alpha_in {
                (-64, best)
            } else {
                (best, best)
            };
            let stored_move = if best > alpha_in { best_move } else { NO_MOVE };
            self.thread.shared.tables.get(empties).store(
                key,
                empties,
                lower,
                upper,
                stored_move,
                self.thread.nodes - start,
            );
        }
        (best, best_move)
    }
}

impl<'a> SplitSearch<'a> for Search<'a> {
    type Bits = u64;
    type Move = Candidate;

    #[inline(always)]
    fn thread(&mut self) -> &mut SolveThread<'a> {
        &mut self.thread
    }

    fn helper(&self, thread: SolveThread<'a>) -> Search<'a> {
        Search {
            thread,
            order_eval: self.order_eval,
        }
    }

    #[inline(always)]
    fn child(node: &Node<u64>, m: &Candidate) -> (u64, u64, u8, u8) {
        let x = m.square as usize;
        let (p, o) = play(node.player, node.opponent, x, m.flips);
        (p, o, node.parity ^ QUADRANT_BIT[x], m.square)
    }

    fn null_window(
        &mut self,
        player: u64,
        opponent: u64,
        alpha: i32,
        empties: u32,
        parity: u8,
    ) -> i32 {
        self.nws(player, opponent, alpha, empties, parity)
    }

    fn principal(
        &mut self,
        player: u64,
        opponent: u64,
        alpha: i32,
        beta: i32,
        empties: u32,
        parity: u8,
    ) -> i32 {
        self.pvs(player, opponent, alpha, beta, empties, parity).0
    }
}
