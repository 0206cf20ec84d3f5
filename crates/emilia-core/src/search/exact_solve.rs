//! The exact endgame solver as a search, on every board size: runs it within a search's
//! limits and turns the solution into a search report. When the solver takes over from the midgame search is the time manager's
//! decision ([`super::time::ExactPlan`]).

use std::sync::atomic::{AtomicBool, AtomicU64};
use std::time::Duration;

use crate::platform::Instant;

use crate::board::AnyBoard;
use crate::endgame::{self, Solver};
use crate::score::Score;
use crate::search::SearchReport;

/// Solves `board` (whose game must not be over) within the limits; `None` when a limit
/// stopped it first. `nodes_seen` follows the node count while the solve runs.
pub(crate) fn solve(
    solver: &mut Solver,
    board: &AnyBoard,
    start: Instant,
    deadline: Option<Duration>,
    stop: &AtomicBool,
    max_nodes: Option<u64>,
    nodes_seen: Option<&AtomicU64>,
) -> Option<SearchReport> {
    let limits = endgame::SolveLimits {
        stop: Some(stop),
        deadline: deadline.and_then(|d| start.checked_add(d)),
        max_nodes,
        nodes_seen,
    };
    let solution = solver.solve_within(board, i32::MIN + 1, i32::MAX, &limits)?;
    let (_, _, empties) = board.counts();
    let best = solution.best;
    Some(SearchReport {
        best,
        score: Score::from_discs(solution.score),
        exact: true,
        probability: None,
        depth: empties,
        nodes: solution.nodes,
        elapsed: start.elapsed(),
        pv: vec![best],
        book: false,
    })
}
