//! Exact endgame solving: the final disc difference under perfect play by both sides.
//!
//! [`Solver`] solves boards of every size with one search (written once, generic over the
//! board's shape: see `search.rs`); its methods take an [`AnyBoard`], so a position of any
//! size is solved by the same call. A solver owns a transposition table and is reused from
//! call to call:
//!
//! ```
//! use emilia_core::board::Position;
//! use emilia_core::endgame::Solver;
//!
//! // FFO position #1 (14 empties), Black to move: best g8, +18.
//! let position: Position =
//!     "--XXXXX--OOOXX-O-OOOXXOX-OXOXOXXOXXXOXXX--XOXOXX-XXXOOO--OOOOO-- X".parse().unwrap();
//! let mut solver = Solver::new(16);
//! let solution = solver.solve_exact(&position.board);
//! assert_eq!(solution.score, 18);
//! assert_eq!(solution.best.to_string(), "g8");
//! ```
//!
//! The same call on 6x6 and 10x10, checked against a plain negamax over every line of play:
//!
//! ```
//! use emilia_core::board::{AnyBoard, Position};
//! use emilia_core::endgame::Solver;
//!
//! /// The final disc difference for the side to move, empty squares to the winner.
//! fn negamax(board: &AnyBoard) -> i32 {
//!     if board.is_game_over() {
//!         let (mine, theirs, empty) = board.counts();
//!         let difference = mine as i32 - theirs as i32;
//!         return difference + difference.signum() * empty as i32;
//!     }
//!     let moves = board.moves();
//!     if moves.is_empty() {
//!         return -negamax(&board.pass());
//!     }
//!     moves.iter().map(|&m| -negamax(&board.play(m))).max().unwrap()
//! }
//!
//! let mut solver = Solver::new(1);
//! for text in [
//!     "-OOO--XXO--XOXXOXXOXOXXOOOXO--OXXXX- X",
//!     "XXXX-XX-XOX-OOOOOOOOXOOXOXXXOOXOXXOX-OOOXXOOXOXOOOXXXXXX\
//!      OOOOXOOOXXXXXX-OOXXOOXXXOOOOOOXXXX-X-XXXXXXX O",
//! ] {
//!     let position: Position = text.parse().unwrap();
//!     let solution = solver.solve_exact(&position.board);
//!     assert_eq!(solution.score, negamax(&position.board), "{position}");
//!     let after = position.play(solution.best).unwrap();
//!     assert_eq!(-negamax(&after.board), solution.score);
//! }
//! ```
//!
//! Scores count empty squares for the winner (the world rule), so they are even. Node
//! counts include every position the search visits, the last move's included.

mod bits;
mod eight;
mod grid;
mod last;
mod last_flip;
mod order;
mod parity;
mod search;
mod split;
mod stability;
mod table;

use crate::platform::Instant;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};

use crate::board::{AnyBoard, Board8, Move, Six, Square, Ten, Twelve};
pub use crate::memory::MemoryError;
use eight::Eight;
use grid::Grid;
use search::{Search, Shape};
use split::Shared;
use table::Tables;

/// Makes the solver's process-wide tables: the edges' stable discs and the classic
/// evaluation of the other sizes' move ordering ([`crate::setup`]).
pub(crate) fn prepare() {
    stability::edge_table();
    grid::classic();
}

/// How far below a fail-low's bound [`Solver::solve_within`] guesses next.
const FAIL_LOW_DROP: i32 = 2;

/// Transposition-table size of [`Solver::default`], in mebibytes.
pub const DEFAULT_TABLE_MIB: usize = 64;

/// The 8x8 solver lent to a midgame search, which hands it the endgames it searches to the
/// end once they have at most 12 empty squares: the solver's move
/// ordering, parity and last-move code answer those many times faster than the midgame
/// search, and what they find stays in the solver's table for its own solves.
#[derive(Clone, Copy)]
pub(crate) struct SmallSolver<'a> {
    tables: &'a Tables,
}

impl SmallSolver<'_> {
    /// The most empty squares of the endgames it takes: those whose positions the solver's
    /// small table keeps: 12, which the type's doc states in words.
    pub(crate) const MAX_EMPTIES: u32 = table::NEAR_MAX_EMPTIES - 1;

    /// Whether `board` (at most [`SmallSolver::MAX_EMPTIES`] empty squares) scores above
    /// `alpha` discs under perfect play: the fail-soft score, `None` when a limit stopped
    /// it first, and the nodes visited either way.
    pub(crate) fn null_window(
        &self,
        board: &Board8,
        alpha: i32,
        limits: &SolveLimits,
    ) -> (Option<i32>, u64) {
        let empty = !(board.player | board.opponent);
        let shared = Shared::new(self.tables, limits, 1, 0);
        let mut search = Search::<Eight>::new(&shared, 0);
        let score = search.nws(
            board.player,
            board.opponent,
            alpha,
            empty.count_ones(),
            parity::parity_of(empty),
        );
        (
            (!search.thread.aborted).then_some(score),
            search.thread.nodes,
        )
    }
}

/// The result of an exact solve, whoever solves: [`Solver`]'s methods give it, and so does
/// an engine's exact search ([`SearchReport::solution`](crate::search::SearchReport::solution)).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Solution {
    /// Final disc difference for the side to move under perfect play (empty squares to the
    /// winner), when it lies strictly inside the window asked for. Otherwise a bound:
    /// at most `alpha` when the score is at most `alpha`, at least `beta` when it is at
    /// least `beta` (fail-soft).
    pub score: i32,
    /// The best move, [`Move::Pass`] when the side to move has none (it must pass, or the
    /// game is over). On a fail-low (score at most `alpha`) it is only the move with the
    /// best bound.
    pub best: Move,
    /// Positions visited.
    pub nodes: u64,
}

/// What the search finds: [`Solution`] with the best move as a square index.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Found {
    score: i32,
    best: Option<usize>,
    nodes: u64,
}

impl Found {
    /// The solution on a board of side `size`.
    fn on(self, size: usize) -> Solution {
        Solution {
            score: self.score,
            best: self
                .best
                .map_or(Move::Pass, |i| Move::Play(Square::from_index(i, size))),
            nodes: self.nodes,
        }
    }
}

/// Limits that stop a solve early. The search looks at the flag and the clock every few
/// thousand nodes, and at the node limit when it is reached (the threads of a parallel solve
/// share it out among them as they go). The last few empty squares are solved without
/// looking: a solve passes the node limit by at most [`MOST_NODES_PAST_LIMIT`] nodes a
/// thread.
#[derive(Clone, Copy, Debug, Default)]
pub struct SolveLimits<'a> {
    /// Stop when another thread sets this flag.
    pub stop: Option<&'a AtomicBool>,
    /// Stop at this moment.
    pub deadline: Option<Instant>,
    /// Stop at this many nodes (passed by at most [`MOST_NODES_PAST_LIMIT`] a thread).
    pub max_nodes: Option<u64>,
    /// Set to the solve's node count (all threads, earlier windows included) whenever a
    /// thread adds its count to it: what a progress report shows while the solve runs, and
    /// once a limit stopped the solve, its whole count.
    pub nodes_seen: Option<&'a AtomicU64>,
}

impl SolveLimits<'_> {
    /// No limit: the solve runs to the end.
    pub const NONE: SolveLimits<'static> = SolveLimits {
        stop: None,
        deadline: None,
        max_nodes: None,
        nodes_seen: None,
    };

    /// Whether a limit is reached after `nodes` nodes.
    fn reached(&self, nodes: u64) -> bool {
        self.stop.is_some_and(|s| s.load(Ordering::Relaxed))
            || self.max_nodes.is_some_and(|m| nodes >= m)
            || self.deadline.is_some_and(|d| Instant::now() >= d)
    }
}

/// The most nodes a thread of a solve visits past its node limit. The 8x8 solver looks at
/// the limit in every node down to 5 empty squares (the other sizes' down to 3); below
/// that, a node of n empties visits at most 1 + n times as many nodes as one of n - 1, a
/// pass included (1, 3, 10 and 41 nodes at 1 to 4 empties), so a node of 5 that looked one
/// node short of the limit visits at most 5 x 41 more, and nothing is counted once a limit
/// stopped the solve.
pub const MOST_NODES_PAST_LIMIT: u64 = 5 * 41;

/// Win, draw or loss for the side to move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// The side to move wins with perfect play.
    Win,
    /// Perfect play draws.
    Draw,
    /// The side to move loses against perfect play.
    Loss,
}

/// An exact endgame solver for boards of every size, with its own transposition table.
pub struct Solver {
    table: Tables,
    /// Threads of every solve.
    threads: usize,
}

impl Default for Solver {
    /// A solver with a [`DEFAULT_TABLE_MIB`] table.
    fn default() -> Solver {
        Solver::new(DEFAULT_TABLE_MIB)
    }
}

impl Solver {
    /// A solver whose transposition table takes about `mib` mebibytes (a power of two of
    /// 64-byte buckets, rounded down), plus a small table of at most 1 MiB (and at most half
    /// of `mib`) for the positions closest to the end.
    ///
    /// # Panics
    ///
    /// If the memory cannot be had ([`Solver::try_new`] says so instead).
    pub fn new(mib: usize) -> Solver {
        Solver::try_new(mib).unwrap_or_else(|e| panic!("{e}"))
    }

    /// [`Solver::new`], or why its tables cannot be had. The tables are mapped at once and
    /// their pages touched in the background, so that solves do not spend their time on it.
    pub fn try_new(mib: usize) -> Result<Solver, MemoryError> {
        Ok(Solver {
            table: Tables::new(mib)?,
            threads: 1,
        })
    }

    /// Solves with `threads` threads from now on (at least one; one is the default). Any
    /// number gives the same scores; with one, node counts are the same on every run.
    pub fn set_threads(&mut self, threads: usize) {
        self.threads = threads.max(1);
    }

    /// The bytes of the tables of [`Solver::new`]`(mib)`, without making them.
    pub fn table_bytes_for(mib: usize) -> usize {
        Tables::bytes_for(mib)
    }

    /// Forgets everything the table learnt, so that the next solve is as from scratch.
    pub fn clear(&mut self) {
        self.table.clear();
    }

    /// The 8x8 solver lent to a midgame search, sharing this solver's tables.
    pub(crate) fn small_solver(&self) -> SmallSolver<'_> {
        SmallSolver {
            tables: &self.table,
        }
    }

    /// The exact score of `board` and a best move.
    pub fn solve_exact(&mut self, board: &AnyBoard) -> Solution {
        self.solve(board, -i32::MAX, i32::MAX)
    }

    /// Whether the side to move wins, draws or loses, with a move that achieves it: a null
    /// window around a draw, half the time of [`Solver::solve_exact`] in close positions,
    /// far less in one-sided ones. The solution's score is exact only for a draw.
    pub fn solve_wld(&mut self, board: &AnyBoard) -> (Outcome, Solution) {
        let solution = self.solve(board, -1, 1);
        let outcome = match solution.score {
            s if s > 0 => Outcome::Win,
            0 => Outcome::Draw,
            _ => Outcome::Loss,
        };
        (outcome, solution)
    }

    /// Solves `board` within the window `alpha..beta` (exact inside, a bound outside; see
    /// [`Solution::score`]). Windows beyond the board's scores (±64 on 8x8) are clipped to
    /// them.
    ///
    /// # Panics
    ///
    /// If `alpha >= beta`.
    pub fn solve(&mut self, board: &AnyBoard, alpha: i32, beta: i32) -> Solution {
        self.solve_within(board, alpha, beta, &SolveLimits::NONE)
            .expect("a solve without limits runs to the end")
    }

    /// Like [`Solver::solve`], but gives up and returns `None` when a limit is reached.
    ///
    /// The window is narrowed by a series of searches with a window of two around a guess,
    /// each answering "below, at or above the guess"; the transposition table carries what
    /// each learnt to the next. Guesses start at an estimate from a shallow search on the
    /// evaluation and move to the bound just found, except that after a fail-low the next
    /// guess drops 2 further: proving "at least" is much cheaper than proving "at most", so
    /// the search closes in from below. With enough empties a selective series runs first
    /// (cutting where a shallow search predicts the result), and the exact one starts from
    /// its score with the best moves it found. The limits apply to the whole series.
    ///
    /// # Panics
    ///
    /// If `alpha >= beta`.
    pub fn solve_within(
        &mut self,
        board: &AnyBoard,
        alpha: i32,
        beta: i32,
        limits: &SolveLimits,
    ) -> Option<Solution> {
        // 8x8 has bitboards, kernels and ordering of its own; the other sizes share the
        // generic bit sets.
        let found = match board {
            AnyBoard::Eight(b) => {
                self.solve_shape::<Eight>(b.player, b.opponent, alpha, beta, limits)
            }
            AnyBoard::Six(b) => {
                self.solve_shape::<Grid<Six>>(b.player, b.opponent, alpha, beta, limits)
            }
            AnyBoard::Ten(b) => {
                self.solve_shape::<Grid<Ten>>(b.player, b.opponent, alpha, beta, limits)
            }
            AnyBoard::Twelve(b) => {
                self.solve_shape::<Grid<Twelve>>(b.player, b.opponent, alpha, beta, limits)
            }
        };
        found.map(|found| found.on(board.size()))
    }

    /// Solves `(player, opponent)` of the shape `K` within `alpha..beta`, clipped to its
    /// scores.
    fn solve_shape<K: Shape>(
        &mut self,
        player: K::Bits,
        opponent: K::Bits,
        alpha: i32,
        beta: i32,
        limits: &SolveLimits,
    ) -> Option<Found> {
        let max = K::SQUARES;
        let (alpha, beta) = (alpha.clamp(-max - 1, max), beta.clamp(-max, max + 1));
        assert!(alpha < beta, "empty window {alpha}..{beta}");
        self.table.next_generation();
        search::solve::<K>(
            &self.table,
            self.threads,
            player,
            opponent,
            alpha,
            beta,
            limits,
        )
    }
}

/// Narrows `alpha..beta` to the score by a series of searches with a window of two around a
/// guess, each answering "below, at or above the guess", starting from `estimate` (see
/// [`Solver::solve_within`]); scores lie within ±`max`. `search(alpha, beta, nodes)` runs one
/// search after `nodes` nodes and returns its score, best move and the node count since the
/// first search, or `None` when a limit stopped it.
fn narrow_window(
    alpha: i32,
    beta: i32,
    max: i32,
    estimate: i32,
    mut nodes: u64,
    mut search: impl FnMut(i32, i32, u64) -> Option<(i32, Option<usize>, u64)>,
) -> Option<Found> {
    let (mut lower, mut upper) = (-max, max);
    let mut guess = estimate.clamp(alpha + 1, beta - 1);
    let mut best = None;
    loop {
        let (score, found, total) = search(guess - 1, guess + 1, nodes)?;
        log::debug!("solve: guess {guess}: score {score}, {total} nodes so far");
        nodes = total;
        if score > guess {
            lower = score;
            best = found;
        } else if score < guess {
            upper = score;
            best = best.or(found);
        } else {
            return Some(Found {
                score,
                best: found,
                nodes,
            });
        }
        // Done when the window is decided or the score known (or, in a selective series,
        // when its bounds cross).
        if lower >= beta || lower >= upper {
            return Some(Found {
                score: lower,
                best,
                nodes,
            });
        }
        if upper <= alpha {
            return Some(Found {
                score: upper,
                best,
                nodes,
            });
        }
        guess = if score > guess {
            lower
        } else {
            (upper - FAIL_LOW_DROP).max(lower).max(alpha + 1)
        };
    }
}
