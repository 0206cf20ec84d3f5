//! The 8x8 exact endgame solver as a search: runs it within a search's limits and turns its
//! solution into a search report. When the solver takes over from the midgame search is
//! the time manager's decision ([`super::time::ExactPlan`]).

use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

use crate::board::{Board, Board8, Move, Square};
use crate::endgame::{self, Solver};
use crate::score::Score;
use crate::search::SearchReport;

/// Solves `board` (which must have a legal move) within the limits; `None` when a limit
/// stopped it first.
pub(crate) fn solve(
    solver: &mut Solver,
    board: &Board8,
    start: Instant,
    deadline: Option<Duration>,
    stop: &AtomicBool,
    max_nodes: Option<u64>,
) -> Option<SearchReport> {
    let limits = endgame::SolveLimits {
        stop: Some(stop),
        deadline: deadline.and_then(|d| start.checked_add(d)),
        max_nodes,
    };
    let solution = solver.solve_within(board, -65, 65, &limits)?;
    let best = solution
        .best
        .map_or(Move::Pass, |m| Move::Play(Square::from_index(m, 8)));
    Some(SearchReport {
        best,
        score: Score::from_discs(solution.score),
        exact: true,
        probability: None,
        depth: board.empties(),
        nodes: solution.nodes,
        elapsed: start.elapsed(),
        pv: vec![best],
        book: false,
    })
}
