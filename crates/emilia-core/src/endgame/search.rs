//! The search, written once for every board size: negascout (principal variation search)
//! over exact final scores. Principal nodes search their first move with the full window
//! and the others with a null window; null-window nodes get cheaper the fewer empty squares
//! remain (the thresholds are each [`Shape`]'s, side by side in its impl):
//!
//! - [`Shape::TABLE_MIN_EMPTIES`] and more: transposition table, stability cut-off,
//!   fastest-first ordering (with potential mobility where the children use the table
//!   too; below, as the sorted nodes order), the table's move first; from
//!   [`Shape::ETC_MIN_EMPTIES`], enhanced transposition cut-off; higher up (the size's
//!   [`OrderPlan`]), moves ordered by a shallow search on the size's ordering evaluation;
//! - [`Shape::SORTED_MIN_EMPTIES`] and more: fastest-first ordering, stability cut-off, no
//!   table; the replies counted for ordering are handed to the child, which would
//!   otherwise generate them again;
//! - above [`Shape::LAST_MAX_EMPTIES`]: squares in region-parity order, no move list;
//! - [`Shape::LAST_MAX_EMPTIES`] and fewer: the size's hand-written last-empties solvers.
//!
//! Before the exact search, a size may run selective passes ([`Shape::SELECTIVE_PASSES`]):
//! the same search, but where null-window table nodes are cut when a shallow search on the
//! ordering evaluation predicts the exact score far enough beyond the window (ProbCut).
//! They are cheap and often right, so they leave good best moves in the table and a close
//! guess for the exact search; their bounds may be wrong, so they store moves only.
//!
//! What differs by size (bit type, move generation, hashing, stable discs, last-empties
//! kernels, ordering evaluation, thresholds) is the [`Shape`] the search is instantiated
//! with; the 8x8 one is [`super::eight::Eight`], every other size's [`super::grid::Grid`].

use std::mem::MaybeUninit;

use super::split::{Node, Shared, SolveThread, SplitSearch};
use super::table::{Tables, NO_MOVE};
use super::{narrow_window, Found, SolveLimits};
use crate::board::bitset::BitSet;

/// Below every score of every size (12x12's go down to -144), its negation above: "no move
/// searched yet".
pub(super) const NONE: i32 = -1000;
/// Beyond every ordering value (a finished game's is its score times 1,000).
const INFINITE_VALUE: i32 = 1 << 20;

/// When null-window nodes order their moves by a shallow search on the ordering
/// evaluation: from `min_empties` on, one ply deeper every `step` empties more up to
/// `max_depth`, the value weighing `weight` times against the fastest-first score. With
/// `fail_low_margin`, a null-window node whose own ordering value lies more than that many
/// discs below alpha skips the search: it will most likely search every move, in any order.
#[derive(Clone, Copy)]
pub(super) struct OrderPlan {
    pub(super) min_empties: u32,
    pub(super) step: u32,
    pub(super) max_depth: u32,
    pub(super) weight: i32,
    pub(super) fail_low_margin: Option<i32>,
}

/// What the search needs of a board size: its bits, rules, hashing, stable discs,
/// region parity, move ordering, last-empties solvers and thresholds.
pub(super) trait Shape: Sized + 'static {
    /// One side's discs.
    type Bits: BitSet + Send + Sync;
    /// A node's move list.
    type Moves: Moves<Self::Bits>;
    /// The evaluation the shallow ordering searches use.
    type OrderEval: Copy + Send + Sync;
    /// What [`Shape::child_value`] needs of the parent.
    type Parent: Default;

    /// Squares of the board: scores lie within ±this.
    const SQUARES: i32;
    /// Null-window nodes with this many empties or more sort their moves.
    const SORTED_MIN_EMPTIES: u32;
    /// Null-window nodes with this many empties or more use the transposition table.
    const TABLE_MIN_EMPTIES: u32;
    /// Nodes with this many empties or more look up their children in the table first.
    const ETC_MIN_EMPTIES: u32;
    /// Nodes with this many empties or fewer go to [`Shape::solve_last`].
    const LAST_MAX_EMPTIES: u32;
    /// Whether the parity-ordered nodes try the stability cut-off.
    const SHALLOW_STABILITY: bool;
    /// Whether the fastest-first score of sorted nodes, and of table nodes whose children
    /// are sorted, counts potential mobility.
    const SORTED_POTENTIAL: bool;
    /// Whether shallow ordering searches sort their moves by the evaluation from 2 plies up.
    const SORT_SHALLOW: bool;
    /// Depth of [`Search::estimate`]'s search.
    const ESTIMATE_DEPTH: u32;
    /// Units of the ordering evaluation in one disc.
    const ORDER_UNITS_PER_DISC: i32;
    /// The selective passes run before the exact one, in order, each with its confidence
    /// (see [`Selectivity`]); none for sizes without a measured [`Shape::probcut`].
    const SELECTIVE_PASSES: &'static [Selectivity] = &[];
    /// The selective passes run from this many empties up.
    const SELECTIVE_MIN_EMPTIES: u32 = u32::MAX;

    /// How a selective pass predicts the exact score of a node of `empties` empties: the
    /// shallow search's depth and the standard deviation of the exact score around its
    /// value, in ordering units; `None` below the empties where it pays.
    fn probcut(_empties: u32) -> Option<ProbCut> {
        None
    }

    /// The ordering evaluation of a new search.
    fn order_eval() -> Self::OrderEval;
    /// When to order moves by a shallow search with `eval`.
    fn order_plan(eval: Self::OrderEval) -> OrderPlan;
    /// How good the position is for `player`, for ordering only.
    fn order_value(eval: Self::OrderEval, player: Self::Bits, opponent: Self::Bits) -> i32;
    /// What [`Shape::child_value`] needs of the parent `(player, opponent)`.
    fn parent(eval: Self::OrderEval, player: Self::Bits, opponent: Self::Bits) -> Self::Parent;
    /// [`Shape::order_value`] of the child `(player, opponent)` reached from `parent` by a
    /// move on `square` flipping `flipped`.
    fn child_value(
        eval: Self::OrderEval,
        parent: &Self::Parent,
        square: usize,
        flipped: Self::Bits,
        player: Self::Bits,
        opponent: Self::Bits,
    ) -> i32;

    /// The empty squares.
    fn empty(player: Self::Bits, opponent: Self::Bits) -> Self::Bits;
    /// The legal moves of `player`.
    fn legal_moves(player: Self::Bits, opponent: Self::Bits) -> Self::Bits;
    /// Discs `player` flips by moving on `square`.
    fn flips(player: Self::Bits, opponent: Self::Bits, square: usize) -> Self::Bits;
    /// [`Shape::flips`] where the move is often illegal (the parity-ordered nodes).
    #[inline(always)]
    fn try_flips(player: Self::Bits, opponent: Self::Bits, square: usize) -> Self::Bits {
        Self::flips(player, opponent, square)
    }
    /// The position's hash.
    fn key(player: Self::Bits, opponent: Self::Bits) -> u64;
    /// The final score of a finished game for the side to move.
    fn final_score(player: Self::Bits, opponent: Self::Bits) -> i32;
    /// How many of `player`'s discs can never be flipped (a lower bound); the count may stop
    /// growing once it reaches `enough`.
    fn stable_count(player: Self::Bits, opponent: Self::Bits, enough: u32) -> u32;
    /// The lowest `alpha` at which a node of `empties` empties works out stable discs.
    fn stability_threshold(empties: u32) -> i32;
    /// The row-major square index of a bit.
    fn square_index(bit: usize) -> usize;

    /// The quadrant bit of `square`, for region parity.
    fn quadrant_bit(square: usize) -> u8;
    /// The squares of the quadrants named by `parity`.
    fn odd_squares(parity: u8) -> Self::Bits;
    /// The parity value of `empty`: bit `q` set when quadrant `q` holds an odd number.
    fn parity_of(empty: Self::Bits) -> u8;
    /// The fastest-first score of the move on `square` leading to `(player, opponent)`
    /// where the side then to move has `replies` (higher: try earlier); `parity` is the
    /// region parity before the move; with `potential` its potential mobility counts.
    fn fastest_first(
        player: Self::Bits,
        opponent: Self::Bits,
        replies: Self::Bits,
        square: usize,
        parity: u8,
        potential: bool,
    ) -> i32;

    /// Null-window search of a node of 1 to [`Shape::LAST_MAX_EMPTIES`] empties.
    fn solve_last(
        search: &mut Search<'_, Self>,
        player: Self::Bits,
        opponent: Self::Bits,
        alpha: i32,
        empties: u32,
        parity: u8,
    ) -> i32;

    /// [`Shape::solve_last`] of a node of [`Shape::LAST_MAX_EMPTIES`] empties whose side to
    /// move has the legal moves `moves` (worked out by the parent for ordering).
    #[inline(always)]
    fn solve_last_with_moves(
        search: &mut Search<'_, Self>,
        player: Self::Bits,
        opponent: Self::Bits,
        _moves: Self::Bits,
        alpha: i32,
        parity: u8,
    ) -> i32 {
        Self::solve_last(
            search,
            player,
            opponent,
            alpha,
            Self::LAST_MAX_EMPTIES,
            parity,
        )
    }
}

/// A selective pass's confidence, in tenths of a standard deviation: its null-window nodes
/// are cut when a shallow search puts the exact score more than that far beyond the window.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Selectivity(pub(super) u32);

/// How a selective pass predicts a node's exact score ([`Shape::probcut`]).
#[derive(Clone, Copy)]
pub(super) struct ProbCut {
    /// Depth of the shallow search on the ordering evaluation.
    pub(super) depth: u32,
    /// Standard deviation of the exact score around the shallow value, in ordering units.
    pub(super) sigma: i32,
}

/// The position after `player` moves on `square` flipping `flipped`: (player, opponent) of
/// the side then to move.
#[inline(always)]
pub(super) fn play<B: BitSet>(player: B, opponent: B, square: usize, flipped: B) -> (B, B) {
    (opponent ^ flipped, player ^ flipped ^ B::bit(square))
}

/// One legal move with its flips and ordering score.
#[derive(Clone, Copy)]
pub(super) struct Candidate<B> {
    pub(super) flips: B,
    /// The moves of the side to move after the move (worked out for ordering, and handed
    /// down so the child need not work them out again).
    pub(super) replies: B,
    /// The hash of the position after the move, where the table is used.
    pub(super) key: u64,
    pub(super) square: u8,
    pub(super) score: i32,
}

/// A node's legal moves, handed out best-first by selection (cut-offs usually come after
/// one or two moves, so sorting the rest would be wasted).
pub(super) trait Moves<B> {
    /// An empty list.
    fn new() -> Self;
    /// Adds a move.
    fn push(&mut self, m: Candidate<B>);
    /// How many moves there are.
    fn len(&self) -> usize;
    /// The moves.
    fn as_slice(&self) -> &[Candidate<B>];
    /// The moves.
    fn as_mut_slice(&mut self) -> &mut [Candidate<B>];
    /// Removes the last move.
    fn pop(&mut self);

    /// Moves the best of the moves from `i` on to `i` and returns it.
    #[inline(always)]
    fn pick(&mut self, i: usize) -> Candidate<B>
    where
        B: Copy,
    {
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
    fn sorted_from(&mut self, i: usize) -> &[Candidate<B>] {
        let moves = &mut self.as_mut_slice()[i..];
        moves.sort_unstable_by_key(|m| std::cmp::Reverse(m.score));
        moves
    }

    /// Takes the move on `square` out of the list, if there.
    #[inline(always)]
    fn take(&mut self, square: u8) -> Option<Candidate<B>>
    where
        B: Copy,
    {
        let moves = self.as_mut_slice();
        let i = moves.iter().position(|m| m.square == square)?;
        let taken = moves[i];
        moves[i] = moves[moves.len() - 1];
        self.pop();
        Some(taken)
    }
}

/// A move list of at most `N` moves (a board of `N` squares or fewer, less the four
/// starting discs): lives on the stack and is filled in place, no allocation, no clearing.
pub(super) struct MoveList<B, const N: usize> {
    moves: [MaybeUninit<Candidate<B>>; N],
    len: usize,
}

impl<B: Copy, const N: usize> Moves<B> for MoveList<B, N> {
    #[inline(always)]
    fn new() -> Self {
        MoveList {
            // SAFETY: an array of `MaybeUninit` needs no initialisation. (Written as
            // `[MaybeUninit::uninit(); N]`, it cost a memset at every node.)
            moves: unsafe { MaybeUninit::<[MaybeUninit<Candidate<B>>; N]>::uninit().assume_init() },
            len: 0,
        }
    }

    #[inline(always)]
    fn push(&mut self, m: Candidate<B>) {
        // A board has fewer empty squares than `N`, so `len` stays below it (the remainder
        // keeps the index in bounds without a check).
        self.moves[self.len % N].write(m);
        self.len += 1;
    }

    #[inline(always)]
    fn len(&self) -> usize {
        self.len
    }

    #[inline(always)]
    fn as_slice(&self) -> &[Candidate<B>] {
        // SAFETY: the first `len` entries were written by `push`.
        unsafe { std::slice::from_raw_parts(self.moves.as_ptr().cast::<Candidate<B>>(), self.len) }
    }

    #[inline(always)]
    fn as_mut_slice(&mut self) -> &mut [Candidate<B>] {
        // SAFETY: as in `as_slice`.
        unsafe {
            std::slice::from_raw_parts_mut(self.moves.as_mut_ptr().cast::<Candidate<B>>(), self.len)
        }
    }

    #[inline(always)]
    fn pop(&mut self) {
        self.len -= 1;
    }
}

/// Solves `(player, opponent)` within `alpha..beta` (already clipped to the board's
/// scores): first a guess from [`Search::estimate`], then null windows around it (see
/// [`super::Solver::solve_within`]), selective ones first from
/// [`Shape::SELECTIVE_MIN_EMPTIES`], each pass starting from the score the one before
/// found; `None` when a limit is reached first.
pub(super) fn solve<K: Shape>(
    tables: &Tables,
    threads: usize,
    player: K::Bits,
    opponent: K::Bits,
    alpha: i32,
    beta: i32,
    limits: &SolveLimits,
) -> Option<Found> {
    let root = |selectivity, alpha, beta, nodes| {
        root::<K>(
            tables,
            threads,
            player,
            opponent,
            alpha,
            beta,
            limits,
            nodes,
            selectivity,
        )
    };
    if beta - alpha <= 2 {
        let (score, best, nodes) = root(None, alpha, beta, 0)?;
        return Some(Found { score, best, nodes });
    }
    let (mut estimate, mut nodes) = {
        let shared = Shared::new(tables, limits, 1, 0);
        let mut search = Search::<K>::new(&shared, 0);
        let estimate = search.estimate(player, opponent);
        if search.thread.aborted {
            return None;
        }
        (estimate, search.thread.nodes)
    };
    log::debug!("solve: estimate {estimate} after {nodes} nodes");
    if K::empty(player, opponent).count() >= K::SELECTIVE_MIN_EMPTIES {
        // Selective passes fill the table with best moves and give the exact pass its guess.
        for &selectivity in K::SELECTIVE_PASSES {
            let pass = narrow_window(alpha, beta, K::SQUARES, estimate, nodes, |a, b, n| {
                root(Some(selectivity), a, b, n)
            })?;
            log::debug!(
                "solve: selectivity {selectivity:?}: {} after {} nodes",
                pass.score,
                pass.nodes
            );
            (estimate, nodes) = (pass.score, pass.nodes);
        }
    }
    narrow_window(alpha, beta, K::SQUARES, estimate, nodes, |a, b, n| {
        root(None, a, b, n)
    })
}

/// One principal variation search of the root with the window `alpha..beta`, after
/// `nodes` nodes of earlier searches: score, best move (a row-major square index) and the
/// node count since the first search, or `None` when a limit stopped it.
#[allow(clippy::too_many_arguments)]
fn root<K: Shape>(
    tables: &Tables,
    threads: usize,
    player: K::Bits,
    opponent: K::Bits,
    alpha: i32,
    beta: i32,
    limits: &SolveLimits,
    nodes: u64,
    selectivity: Option<Selectivity>,
) -> Option<(i32, Option<usize>, u64)> {
    let empty = K::empty(player, opponent);
    let shared = Shared::new(tables, limits, threads, nodes);
    let mut search = Search::<K>::new(&shared, nodes);
    search.selectivity = selectivity;
    let (score, best) = search.pvs(
        player,
        opponent,
        alpha,
        beta,
        empty.count(),
        K::parity_of(empty),
    );
    if search.thread.aborted {
        return None;
    }
    let best = (best != NO_MOVE).then(|| K::square_index(best as usize));
    Some((score, best, search.thread.nodes))
}

/// The state of one thread of a solve: node count, and what all its threads share.
pub(super) struct Search<'a, K: Shape> {
    /// Node count, limits and cut-off flags.
    pub(super) thread: SolveThread<'a>,
    /// The evaluation the shallow ordering searches use.
    order: K::OrderEval,
    /// A selective pass's confidence; `None` in the exact search.
    selectivity: Option<Selectivity>,
}

impl<'a, K: Shape> Search<'a, K> {
    /// The first thread of a solve, counting on from `nodes` nodes (limits apply to the
    /// count), which must be the count `shared` started with.
    pub(super) fn new(shared: &'a Shared<'a>, nodes: u64) -> Search<'a, K> {
        Search {
            thread: SolveThread::new(shared, nodes),
            order: K::order_eval(),
            selectivity: None,
        }
    }

    /// Checks the limits now and then; true when the search must stop.
    #[inline(always)]
    fn should_stop(&mut self) -> bool {
        self.thread.should_stop()
    }

    /// The solve's transposition tables.
    #[inline(always)]
    fn tables(&self) -> &'a Tables {
        self.thread.shared.tables
    }

    /// The stability cut-off: an upper bound on the score from the opponent's stable discs,
    /// when it is at most `alpha`.
    #[inline(always)]
    pub(super) fn stability_cutoff(
        &self,
        player: K::Bits,
        opponent: K::Bits,
        alpha: i32,
        empties: u32,
    ) -> Option<i32> {
        // Stable discs are among the opponent's discs: when even all of them could not
        // bring the bound down to `alpha`, skip working them out.
        if alpha >= K::stability_threshold(empties)
            && K::SQUARES - 2 * opponent.count() as i32 <= alpha
        {
            // From this many stable discs the bound is at most `alpha`: no need to count on.
            let enough = (K::SQUARES - alpha + 1) as u32 / 2;
            let bound = K::SQUARES - 2 * K::stable_count(opponent, player, enough) as i32;
            if bound <= alpha {
                return Some(bound);
            }
        }
        None
    }

    /// Adds the moves of `player` in `moves` to `list`, with their flips, unscored.
    #[inline(always)]
    fn generate(list: &mut K::Moves, player: K::Bits, opponent: K::Bits, moves: K::Bits) {
        for x in moves.iter() {
            list.push(Candidate {
                flips: K::flips(player, opponent, x),
                replies: K::Bits::EMPTY,
                key: 0,
                square: x as u8,
                score: 0,
            });
        }
    }

    /// Null-window search of any node: is the score above `alpha`? Fail-soft.
    #[inline(always)]
    pub(super) fn nws(
        &mut self,
        player: K::Bits,
        opponent: K::Bits,
        alpha: i32,
        empties: u32,
        parity: u8,
    ) -> i32 {
        match empties {
            0 => {
                self.thread.nodes += 1;
                K::final_score(player, opponent)
            }
            n if n <= K::LAST_MAX_EMPTIES => {
                K::solve_last(self, player, opponent, alpha, n, parity)
            }
            n if n < K::SORTED_MIN_EMPTIES => self.nws_shallow(player, opponent, alpha, n, parity),
            n if n < K::TABLE_MIN_EMPTIES => {
                self.nws_sorted(player, opponent, None, alpha, n, parity)
            }
            n => self.nws_table(player, opponent, alpha, n, parity),
        }
    }

    /// Null-window search with few empties: squares in odd regions first, no move list.
    fn nws_shallow(
        &mut self,
        player: K::Bits,
        opponent: K::Bits,
        alpha: i32,
        empties: u32,
        parity: u8,
    ) -> i32 {
        self.thread.nodes += 1;
        // The smallest nodes that look at the limits: see `MOST_NODES_PAST_LIMIT`.
        if self.should_stop() {
            return 0;
        }
        if K::SHALLOW_STABILITY {
            if let Some(bound) = self.stability_cutoff(player, opponent, alpha, empties) {
                return bound;
            }
        }
        let empty = K::empty(player, opponent);
        let odd = empty & K::odd_squares(parity);
        let mut best = NONE;
        for set in [odd, empty & !odd] {
            for x in set.iter() {
                let f = K::try_flips(player, opponent, x);
                if f.is_empty() {
                    continue;
                }
                let (p, o) = play(player, opponent, x, f);
                let parity = parity ^ K::quadrant_bit(x);
                let score = if empties - 1 <= K::LAST_MAX_EMPTIES {
                    -K::solve_last(self, p, o, -alpha - 1, empties - 1, parity)
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
            if K::legal_moves(opponent, player).is_empty() {
                return K::final_score(player, opponent);
            }
            return -self.nws_shallow(opponent, player, -alpha - 1, empties, parity);
        }
        best
    }

    /// Null-window search with fastest-first ordering, no table. `known_moves` are the side
    /// to move's legal moves when the parent has worked them out already.
    fn nws_sorted(
        &mut self,
        player: K::Bits,
        opponent: K::Bits,
        known_moves: Option<K::Bits>,
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
        let moves = known_moves.unwrap_or_else(|| K::legal_moves(player, opponent));
        if moves.is_empty() {
            let replies = K::legal_moves(opponent, player);
            if replies.is_empty() {
                return K::final_score(player, opponent);
            }
            return -self.nws_sorted(opponent, player, Some(replies), -alpha - 1, empties, parity);
        }
        let mut list = K::Moves::new();
        Self::generate(&mut list, player, opponent, moves);
        for m in list.as_mut_slice() {
            let x = m.square as usize;
            let (p, o) = play(player, opponent, x, m.flips);
            m.replies = K::legal_moves(p, o);
            m.score = K::fastest_first(p, o, m.replies, x, parity, K::SORTED_POTENTIAL);
        }
        let mut best = NONE;
        for i in 0..list.len() {
            let m = list.pick(i);
            let x = m.square as usize;
            let (p, o) = play(player, opponent, x, m.flips);
            let parity = parity ^ K::quadrant_bit(x);
            let score = if empties > K::SORTED_MIN_EMPTIES {
                // The child is a sorted node too: hand it its moves.
                -self.nws_sorted(p, o, Some(m.replies), -alpha - 1, empties - 1, parity)
            } else if K::SORTED_MIN_EMPTIES == K::LAST_MAX_EMPTIES + 1 {
                // The child goes to the last-empties solver: hand it its moves too.
                -K::solve_last_with_moves(self, p, o, m.replies, -alpha - 1, parity)
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

    /// Scores `list` fastest first ([`Shape::fastest_first`], with potential mobility when
    /// `potential`). Inlined, so that `potential` is a constant in each caller.
    #[inline(always)]
    fn score_fastest(
        list: &mut K::Moves,
        player: K::Bits,
        opponent: K::Bits,
        parity: u8,
        potential: bool,
    ) {
        for m in list.as_mut_slice() {
            let x = m.square as usize;
            let (p, o) = play(player, opponent, x, m.flips);
            m.score = K::fastest_first(p, o, K::legal_moves(p, o), x, parity, potential);
        }
    }

    /// Adds to the fastest-first scores of `list` (see [`Search::score_fastest`]) at a node
    /// with `empties` empties, from the size's [`OrderPlan`] on, a shallow search on the
    /// ordering evaluation ([`Shape::order_value`]); `alpha` is a null-window node's.
    fn score_by_search(
        &mut self,
        list: &mut K::Moves,
        player: K::Bits,
        opponent: K::Bits,
        alpha: Option<i32>,
        empties: u32,
    ) {
        let plan = K::order_plan(self.order);
        if empties < plan.min_empties {
            return;
        }
        if let (Some(alpha), Some(margin)) = (alpha, plan.fail_low_margin) {
            let value = K::order_value(self.order, player, opponent);
            if value < (alpha - margin) * K::ORDER_UNITS_PER_DISC {
                return;
            }
        }
        let depth = (1 + (empties - plan.min_empties) / plan.step).min(plan.max_depth);
        let parent = if depth == 1 {
            K::parent(self.order, player, opponent)
        } else {
            K::Parent::default()
        };
        for i in 0..list.len() {
            let m = list.as_slice()[i];
            let x = m.square as usize;
            let (p, o) = play(player, opponent, x, m.flips);
            if p.is_empty() {
                continue;
            }
            let value = if depth == 1 {
                self.thread.nodes += 1;
                -K::child_value(self.order, &parent, x, m.flips, p, o)
            } else {
                -self.shallow_value(p, o, depth - 1, -INFINITE_VALUE, INFINITE_VALUE)
            };
            list.as_mut_slice()[i].score += value * plan.weight;
        }
    }

    /// Alpha-beta on the ordering evaluation to `depth` plies, moves sorted by it from 2
    /// plies up where [`Shape::SORT_SHALLOW`].
    fn shallow_value(
        &mut self,
        player: K::Bits,
        opponent: K::Bits,
        depth: u32,
        mut alpha: i32,
        beta: i32,
    ) -> i32 {
        self.thread.nodes += 1;
        if self.should_stop() {
            return 0;
        }
        if depth == 0 {
            return K::order_value(self.order, player, opponent);
        }
        let moves = K::legal_moves(player, opponent);
        if moves.is_empty() {
            if K::legal_moves(opponent, player).is_empty() {
                // A finished game outweighs any heuristic value.
                return K::final_score(player, opponent) * 1000;
            }
            return -self.shallow_value(opponent, player, depth, -beta, -alpha);
        }
        let mut best = -INFINITE_VALUE;
        let parent = K::parent(self.order, player, opponent);
        if depth >= 2 {
            let mut list = K::Moves::new();
            Self::generate(&mut list, player, opponent, moves);
            if K::SORT_SHALLOW {
                // Deeper down, sorting by the evaluation pays for itself in cut-offs.
                for m in list.as_mut_slice() {
                    let x = m.square as usize;
                    let (p, o) = play(player, opponent, x, m.flips);
                    m.score = -K::child_value(self.order, &parent, x, m.flips, p, o);
                }
            }
            for i in 0..list.len() {
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
        for x in moves.iter() {
            let f = K::flips(player, opponent, x);
            let (p, o) = play(player, opponent, x, f);
            self.thread.nodes += 1;
            let value = -K::child_value(self.order, &parent, x, f, p, o);
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
    pub(super) fn estimate(&mut self, player: K::Bits, opponent: K::Bits) -> i32 {
        let value = self.shallow_value(
            player,
            opponent,
            K::ESTIMATE_DEPTH,
            -INFINITE_VALUE,
            INFINITE_VALUE,
        );
        // Finished games, scored beyond every estimate, clip.
        let two_discs = 2.0 * K::ORDER_UNITS_PER_DISC as f64;
        ((value as f64 / two_discs).round() as i32 * 2).clamp(-K::SQUARES, K::SQUARES)
    }

    /// In a selective pass, a bound on the score of a null-window node when a shallow
    /// search puts it more than the pass's confidence beyond `alpha`: `alpha + 1` above,
    /// `alpha` below, rounded outwards to the parity of the scores.
    fn probcut(
        &mut self,
        player: K::Bits,
        opponent: K::Bits,
        alpha: i32,
        empties: u32,
    ) -> Option<i32> {
        let Selectivity(tenths) = self.selectivity?;
        let cut = K::probcut(empties)?;
        let margin = cut.sigma * tenths as i32 / 10;
        let high = (alpha + 1) * K::ORDER_UNITS_PER_DISC + margin;
        // Scores have the parity of the board's squares: the bounds round outwards to it.
        let parity = K::SQUARES & 1;
        if self.shallow_value(player, opponent, cut.depth, high - 1, high) >= high {
            let bound = alpha + 1;
            return Some(bound + ((bound ^ parity) & 1));
        }
        let low = alpha * K::ORDER_UNITS_PER_DISC - margin;
        if self.shallow_value(player, opponent, cut.depth, low, low + 1) <= low {
            return Some(alpha - ((alpha ^ parity) & 1));
        }
        None
    }

    /// Stores what a search of the node `key` that started at node count `start` found. A
    /// selective pass's bounds may be wrong: it stores its best move only.
    #[inline(always)]
    fn store(&self, key: u64, empties: u32, lower: i32, upper: i32, best: u8, start: u64) {
        let (lower, upper) = if self.selectivity.is_some() {
            (-K::SQUARES, K::SQUARES)
        } else {
            (lower, upper)
        };
        self.tables().get(empties).store(
            key,
            empties,
            lower,
            upper,
            best,
            self.thread.nodes - start,
        );
    }

    /// Null-window search with the transposition table.
    fn nws_table(
        &mut self,
        player: K::Bits,
        opponent: K::Bits,
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
        let key = K::key(player, opponent);
        let mut table_move = NO_MOVE;
        if let Some(hit) = self.tables().get(empties).probe(key) {
            if hit.lower > alpha {
                return hit.lower;
            }
            if hit.upper <= alpha {
                return hit.upper;
            }
            table_move = hit.best;
        }
        let moves = K::legal_moves(player, opponent);
        if moves.is_empty() {
            if K::legal_moves(opponent, player).is_empty() {
                return K::final_score(player, opponent);
            }
            return -self.nws_table(opponent, player, -alpha - 1, empties, parity);
        }
        if let Some(bound) = self.probcut(player, opponent, alpha, empties) {
            return bound;
        }
        let start = self.thread.nodes;
        let mut list = K::Moves::new();
        Self::generate(&mut list, player, opponent, moves);
        let children_in_table = empties > K::TABLE_MIN_EMPTIES;
        if children_in_table {
            // The children use the table: fetch their entries all at once, so that the
            // memory accesses overlap instead of coming one after the other.
            for m in list.as_mut_slice() {
                let (p, o) = play(player, opponent, m.square as usize, m.flips);
                m.key = K::key(p, o);
                self.tables().get(empties - 1).prefetch(m.key);
            }
            // Scoring the moves now gives the entries time to arrive before they are probed.
            Self::score_fastest(&mut list, player, opponent, parity, true);
            if empties >= K::ETC_MIN_EMPTIES {
                // Enhanced transposition cut-off: a child the table already knows to be bad
                // enough for the opponent proves the cut-off without a search. Its bound
                // comes from an exact entry (a selective pass stores no bounds), so it is
                // stored as it is, in a selective pass too.
                for m in list.as_slice() {
                    if let Some(hit) = self.tables().get(empties - 1).probe(m.key) {
                        if -hit.upper > alpha {
                            self.tables().get(empties).store(
                                key,
                                empties,
                                -hit.upper,
                                K::SQUARES,
                                m.square,
                                1,
                            );
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
            best = -self.nws(p, o, -alpha - 1, empties - 1, parity ^ K::quadrant_bit(x));
            if self.thread.aborted {
                return 0;
            }
            best_move = m.square;
        }
        if best <= alpha {
            if !children_in_table {
                // The children are sorted nodes: ordered as they order their own moves.
                Self::score_fastest(&mut list, player, opponent, parity, K::SORTED_POTENTIAL);
            }
            self.score_by_search(&mut list, player, opponent, Some(alpha), empties);
            for i in 0..list.len() {
                // Once one move is searched (the eldest brother), the others may be shared
                // out among idle threads.
                if best != NONE {
                    if let Some(helpers) = self.helpers_for(empties, list.len() - i) {
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
                let score = -self.nws(p, o, -alpha - 1, empties - 1, parity ^ K::quadrant_bit(x));
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
        // A fail-low keeps the move with the best bound: every move was searched, and the
        // one that came closest is the first to try when a lower window searches it again.
        let (lower, upper) = if best > alpha {
            (best, K::SQUARES)
        } else {
            (-K::SQUARES, best)
        };
        self.store(key, empties, lower, upper, best_move, start);
        best
    }

    /// Principal variation search with the window `alpha..beta`: the score (fail-soft) and
    /// the best move's bit ([`NO_MOVE`] for a pass or a finished game).
    pub(super) fn pvs(
        &mut self,
        player: K::Bits,
        opponent: K::Bits,
        mut alpha: i32,
        beta: i32,
        empties: u32,
        parity: u8,
    ) -> (i32, u8) {
        self.thread.nodes += 1;
        if self.should_stop() {
            return (0, NO_MOVE);
        }
        let moves = K::legal_moves(player, opponent);
        if moves.is_empty() {
            if K::legal_moves(opponent, player).is_empty() {
                return (K::final_score(player, opponent), NO_MOVE);
            }
            let (score, _) = self.pvs(opponent, player, -beta, -alpha, empties, parity);
            return (-score, NO_MOVE);
        }
        let key = K::key(player, opponent);
        let table_move = self
            .tables()
            .get(empties)
            .probe(key)
            .map_or(NO_MOVE, |hit| hit.best);
        let start = self.thread.nodes;
        let (alpha_in, mut best, mut best_move) = (alpha, NONE, NO_MOVE);
        let mut list = K::Moves::new();
        Self::generate(&mut list, player, opponent, moves);
        Self::score_fastest(&mut list, player, opponent, parity, true);
        self.score_by_search(&mut list, player, opponent, None, empties);
        if let Some(m) = list
            .as_mut_slice()
            .iter_mut()
            .find(|m| m.square == table_move)
        {
            m.score = i32::MAX;
        }
        for i in 0..list.len() {
            if i > 0 {
                if let Some(helpers) = self.helpers_for(empties, list.len() - i) {
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
            let parity = parity ^ K::quadrant_bit(x);
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
        if empties >= K::TABLE_MIN_EMPTIES {
            let (lower, upper) = if best >= beta {
                (best, K::SQUARES)
            } else if best <= alpha_in {
                (-K::SQUARES, best)
            } else {
                (best, best)
            };
            // A principal node stores a move only when one raised alpha, as both earlier
            // solvers did: such nodes are few (the first line from the root), and a
            // null-window fail-low's rule here is untested.
            let stored_move = if best > alpha_in { best_move } else { NO_MOVE };
            self.store(key, empties, lower, upper, stored_move, start);
        }
        (best, best_move)
    }
}

impl<'a, K: Shape> SplitSearch<'a> for Search<'a, K> {
    type Bits = K::Bits;
    type Move = Candidate<K::Bits>;

    #[inline(always)]
    fn thread(&mut self) -> &mut SolveThread<'a> {
        &mut self.thread
    }

    fn helper(&self, thread: SolveThread<'a>) -> Search<'a, K> {
        Search {
            thread,
            order: self.order,
            selectivity: self.selectivity,
        }
    }

    #[inline(always)]
    fn child(node: &Node<K::Bits>, m: &Candidate<K::Bits>) -> (K::Bits, K::Bits, u8, u8) {
        let x = m.square as usize;
        let (p, o) = play(node.player, node.opponent, x, m.flips);
        (p, o, node.parity ^ K::quadrant_bit(x), m.square)
    }

    fn null_window(
        &mut self,
        player: K::Bits,
        opponent: K::Bits,
        alpha: i32,
        empties: u32,
        parity: u8,
    ) -> i32 {
        self.nws(player, opponent, alpha, empties, parity)
    }

    fn principal(
        &mut self,
        player: K::Bits,
        opponent: K::Bits,
        alpha: i32,
        beta: i32,
        empties: u32,
        parity: u8,
    ) -> i32 {
        self.pvs(player, opponent, alpha, beta, empties, parity).0
    }
}

#[cfg(test)]
pub(super) mod tests {
    use super::*;
    use crate::board::AnyBoard;
    use crate::endgame::eight::Eight;
    use crate::formats::obf::parse_obf_line;

    /// FFO #1 (14 empties), +18.
    const FFO_1: &str =
        "--XXXXX--OOOXX-O-OOOXXOX-OXOXOXXOXXXOXXX--XOXOXX-XXXOOO--OOOOO-- X; G8:+18;";

    /// Runs a careless selective pass (it cuts wherever the shallow search lies beyond the
    /// window) on a fresh table, then checks that it left the root a move but no bounds,
    /// and that the exact searches on the same table still prove `score`.
    pub(crate) fn assert_careless_pass_proves<K: Shape>(
        player: K::Bits,
        opponent: K::Bits,
        empties: u32,
        score: i32,
    ) {
        let tables = Tables::new(4).unwrap();
        let limits = SolveLimits::NONE;
        let squares = K::SQUARES;
        let entry = || tables.get(empties).probe(K::key(player, opponent)).unwrap();
        let careless = Some(Selectivity(0));
        let (_, best, nodes) = root::<K>(
            &tables,
            1,
            player,
            opponent,
            -squares - 1,
            squares + 1,
            &limits,
            0,
            careless,
        )
        .unwrap();
        assert!(best.is_some());
        let hit = entry();
        assert_eq!((hit.lower, hit.upper), (-squares, squares));
        assert_ne!(hit.best, NO_MOVE);
        let exact = |alpha, beta| {
            root::<K>(
                &tables, 1, player, opponent, alpha, beta, &limits, nodes, None,
            )
            .unwrap()
            .0
        };
        assert!(exact(score + 2, score + 4) <= score + 2);
        assert!(exact(score - 6, score - 4) >= score - 4);
        assert_eq!(exact(score - 1, score + 1), score);
        let proven = entry();
        assert_eq!((proven.lower, proven.upper), (score, score));
    }

    #[test]
    fn a_selective_pass_leaves_moves_but_no_bounds_for_the_exact_search() {
        let AnyBoard::Eight(board) = parse_obf_line(FFO_1).unwrap().position.board else {
            panic!("not 8x8");
        };
        assert_careless_pass_proves::<Eight>(board.player, board.opponent, 14, 18);
    }
}
