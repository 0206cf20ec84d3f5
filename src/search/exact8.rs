//! When the 8x8 exact endgame solver takes over from the midgame search, and how its result
//! becomes a search report.
//!
//! The solver is tried once it is expected to finish within the hard deadline. A short
//! midgame search runs first so that a move is ready should the solve not finish; the
//! solve then gets the rest of the time. Without a time limit (fixed depth at least the
//! empties, or an explicit solve) the solver runs alone.

use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

use crate::board::{Board, Board8, Move, Square};
use crate::endgame::{self, Solver};
use crate::engine::SearchReport;
use crate::timeman::TimePlan;

/// Typical solve time at [`REFERENCE_EMPTIES`] empties, and its growth per empty square
/// (measured medians on 17 to 22 empties, rounded up).
const REFERENCE_TIME: Duration = Duration::from_millis(300);
const REFERENCE_EMPTIES: i32 = 20;
const GROWTH_PER_EMPTY: f64 = 2.5;

/// A solve expected to take at most this share of the hard limit is "cheap": the midgame
/// search before it gets only a tenth of the time, otherwise a quarter.
const CHEAP_SHARE: f64 = 0.25;

/// Expected time to solve a position with `empties` empty squares.
pub fn estimated_time(empties: u32) -> Duration {
    let exponent = empties as i32 - REFERENCE_EMPTIES;
    REFERENCE_TIME.mul_f64(GROWTH_PER_EMPTY.powi(exponent))
}

/// How a search should use the solver.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ExactPlan {
    /// Time for the midgame search that runs first, if any.
    pub midgame: Option<TimePlan>,
    /// Deadline of the solve, from the start of the search.
    pub deadline: Option<Duration>,
}

/// Whether and how to solve a position with `empties` empties exactly, given the
/// search's time plan and depth limit; `None` keeps the midgame search alone.
pub fn plan(empties: u32, time: &TimePlan, max_depth: u32) -> Option<ExactPlan> {
    if max_depth < empties {
        return None;
    }
    let Some(hard) = time.hard else {
        return Some(ExactPlan {
            midgame: None,
            deadline: None,
        });
    };
    let estimate = estimated_time(empties);
    if estimate > hard {
        return None;
    }
    let share = if estimate.as_secs_f64() <= hard.as_secs_f64() * CHEAP_SHARE {
        10
    } else {
        4
    };
    let midgame_hard = hard / share;
    Some(ExactPlan {
        midgame: Some(TimePlan {
            soft: Some(midgame_hard / 2),
            hard: Some(midgame_hard),
        }),
        deadline: Some(hard),
    })
}

/// Solves `board` (which must have a legal move) within the limits; `None` when a limit
/// stopped it first.
pub fn solve(
    solver: &mut Solver,
    board: &Board8,
    start: Instant,
    deadline: Option<Duration>,
    stop: &AtomicBool,
    max_nodes: Option<u64>,
) -> Option<SearchReport> {
    let limits = endgame::Limits {
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
        score: solution.score * 100,
        exact: true,
        probability: None,
        depth: board.empties(),
        nodes: solution.nodes,
        elapsed: start.elapsed(),
        pv: vec![best],
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ms(n: u64) -> Duration {
        Duration::from_millis(n)
    }

    #[test]
    fn estimates_grow_with_the_empties() {
        assert_eq!(estimated_time(20), ms(300));
        assert!(estimated_time(21) > ms(700) && estimated_time(21) < ms(800));
        assert!(estimated_time(10) < ms(1));
    }

    #[test]
    fn the_solver_is_used_when_it_should_finish_in_time() {
        let timed = |hard| TimePlan {
            soft: Some(ms(hard) / 3),
            hard: Some(ms(hard)),
        };
        // Too deep for the time: the midgame search alone.
        assert_eq!(plan(26, &timed(1_000), u32::MAX), None);
        // Within the time: a short midgame search first, then the solve.
        let p = plan(20, &timed(1_000), u32::MAX).unwrap();
        assert_eq!(p.deadline, Some(ms(1_000)));
        assert_eq!(p.midgame.unwrap().hard, Some(ms(250)));
        // Cheap: an even shorter midgame search.
        let p = plan(12, &timed(1_000), u32::MAX).unwrap();
        assert_eq!(p.midgame.unwrap().hard, Some(ms(100)));
        // A depth limit short of the end keeps the midgame search.
        assert_eq!(plan(12, &timed(1_000), 8), None);
        // No time limit: the solver alone.
        assert_eq!(
            plan(30, &TimePlan::UNLIMITED, u32::MAX),
            Some(ExactPlan {
                midgame: None,
                deadline: None
            })
        );
    }
}
