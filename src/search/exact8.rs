//! When the exact endgame solver takes over from the midgame search (on every board size,
//! the 8x8 solver being the fastest), and how its result becomes a search report.
//!
//! The solver is tried once it is expected to finish within the hard deadline. A short
//! midgame search runs first so that a move is ready should the solve not finish; the
//! solve then gets the rest of the time. Without a time limit (fixed depth at least the
//! empties, or an explicit solve) the solver runs alone.

use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

use crate::board::{AnyBoard, Move, Square};
use crate::endgame::{self, Solvers};
use crate::engine::SearchReport;
use crate::timeman::TimePlan;

/// How solve times grow with the empties on one board size: the typical time at a number
/// of empties, and the growth per empty square more.
struct SolveTimes {
    size: usize,
    reference_empties: i32,
    reference_time: Duration,
    growth_per_empty: f64,
}

/// Per board size, from measured medians, rounded up: on 8x8 at 17 to 22 empties of real
/// games; on the other sizes at 14 to 22 (6x6) or 10 to 18 empties of nine games each
/// between shallow searches.
const SOLVE_TIMES: [SolveTimes; 4] = [
    SolveTimes {
        size: 8,
        reference_empties: 20,
        reference_time: Duration::from_millis(300),
        growth_per_empty: 2.5,
    },
    SolveTimes {
        size: 6,
        reference_empties: 20,
        reference_time: Duration::from_millis(40),
        growth_per_empty: 2.3,
    },
    SolveTimes {
        size: 10,
        reference_empties: 16,
        reference_time: Duration::from_millis(60),
        growth_per_empty: 2.4,
    },
    SolveTimes {
        size: 12,
        reference_empties: 16,
        reference_time: Duration::from_millis(150),
        growth_per_empty: 2.4,
    },
];

/// A solve expected to take at most this share of the hard limit is "cheap": the midgame
/// search before it gets only a tenth of the time, otherwise a quarter.
const CHEAP_SHARE: f64 = 0.25;

/// Expected time to solve a position with `empties` empty squares on a board of side
/// `size`.
pub fn estimated_time(size: usize, empties: u32) -> Duration {
    let times = SOLVE_TIMES
        .iter()
        .find(|t| t.size == size)
        .unwrap_or(&SOLVE_TIMES[SOLVE_TIMES.len() - 1]);
    let exponent = empties as i32 - times.reference_empties;
    // Far from the end the estimate outgrows any duration: then it is "forever".
    let seconds = times.reference_time.as_secs_f64() * times.growth_per_empty.powi(exponent);
    Duration::try_from_secs_f64(seconds).unwrap_or(Duration::MAX)
}

/// How a search should use the solver.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ExactPlan {
    /// Time for the midgame search that runs first, if any.
    pub midgame: Option<TimePlan>,
    /// Deadline of the solve, from the start of the search.
    pub deadline: Option<Duration>,
}

/// Whether and how to solve a position with `empties` empties on a board of side `size`
/// exactly, given the search's time plan and depth limit; `None` keeps the midgame search
/// alone.
pub fn plan(size: usize, empties: u32, time: &TimePlan, max_depth: u32) -> Option<ExactPlan> {
    if max_depth < empties {
        return None;
    }
    let Some(hard) = time.hard else {
        return Some(ExactPlan {
            midgame: None,
            deadline: None,
        });
    };
    let estimate = estimated_time(size, empties);
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
    solver: &mut Solvers,
    board: &AnyBoard,
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
    let solution = solver.solve_within(board, i32::MIN + 1, i32::MAX, &limits)?;
    let (_, _, empties) = board.counts();
    let best = solution.best.map_or(Move::Pass, |m| {
        Move::Play(Square::from_index(m, board.size()))
    });
    Some(SearchReport {
        best,
        score: solution.score * 100,
        exact: true,
        depth: empties,
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
        assert_eq!(estimated_time(8, 20), ms(300));
        assert!(estimated_time(8, 21) > ms(700) && estimated_time(8, 21) < ms(800));
        assert!(estimated_time(8, 10) < ms(1));
        for size in [6, 10, 12] {
            assert!(estimated_time(size, 21) > estimated_time(size, 20));
        }
        // From the start of the game: longer than any clock, not an overflow; 6x6 solves
        // from the start in minutes.
        for size in [8, 10, 12] {
            let start = (size * size - 4) as u32;
            assert!(estimated_time(size, start) > Duration::from_secs(1 << 40));
        }
        let six = estimated_time(6, 32);
        assert!(six > Duration::from_secs(60) && six < Duration::from_secs(3600));
        // The bigger the board, the more moves a position has and the slower its solve.
        assert!(estimated_time(6, 20) < estimated_time(8, 20));
        assert!(estimated_time(8, 20) < estimated_time(10, 20));
        assert!(estimated_time(10, 20) <= estimated_time(12, 20));
    }

    #[test]
    fn the_solver_is_used_when_it_should_finish_in_time() {
        let timed = |hard| TimePlan {
            soft: Some(ms(hard) / 3),
            hard: Some(ms(hard)),
        };
        // Too deep for the time: the midgame search alone.
        assert_eq!(plan(8, 26, &timed(1_000), u32::MAX), None);
        // Within the time: a short midgame search first, then the solve.
        let p = plan(8, 20, &timed(1_000), u32::MAX).unwrap();
        assert_eq!(p.deadline, Some(ms(1_000)));
        assert_eq!(p.midgame.unwrap().hard, Some(ms(250)));
        // Cheap: an even shorter midgame search.
        let p = plan(8, 12, &timed(1_000), u32::MAX).unwrap();
        assert_eq!(p.midgame.unwrap().hard, Some(ms(100)));
        // A depth limit short of the end keeps the midgame search.
        assert_eq!(plan(8, 12, &timed(1_000), 8), None);
        // No time limit: the solver alone.
        assert_eq!(
            plan(8, 30, &TimePlan::UNLIMITED, u32::MAX),
            Some(ExactPlan {
                midgame: None,
                deadline: None
            })
        );
    }
}
