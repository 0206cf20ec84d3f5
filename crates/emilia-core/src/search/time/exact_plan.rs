//! Whether and how a search uses the exact solver: a midgame search for a fallback move
//! first, then the solve, within the search's time and node limits.

use std::time::Duration;

use super::solve_estimate::SOLVER_NODE_RATE;
use super::{estimated_solve_time, TimePlan};

/// A solve expected to take at most this share of the hard limit is "cheap": the midgame
/// search before it gets only a tenth of the time, otherwise a quarter.
const CHEAP_SOLVE_SHARE: f64 = 0.25;

/// How a search should use the exact solver.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct ExactPlan {
    /// Time for the midgame search that runs first, if any.
    pub midgame: Option<TimePlan>,
    /// Node budget of the midgame search that runs first, when the search has a node
    /// limit: the solve gets what it leaves.
    pub midgame_nodes: Option<u64>,
    /// Deadline of the solve, from the start of the search.
    pub deadline: Option<Duration>,
}

impl ExactPlan {
    /// Whether and how to solve a position with `empties` empties on a board of side `size`
    /// exactly, given the search's time plan, depth limit and node limit; `None` keeps the
    /// midgame search alone. Without a time or node limit (a fixed depth at least the
    /// empties, or an explicit solve) the solver runs alone. With a node limit, a midgame
    /// search first gets a quarter of the nodes (a tenth with a cheap solve in time), so
    /// that a solve cut short by the limit leaves a move searched within it; without a depth
    /// limit, a solve not expected to fit in the node limit is not started.
    pub(crate) fn new(
        size: usize,
        empties: u32,
        time: &TimePlan,
        max_depth: u32,
        node_limit: Option<u64>,
    ) -> Option<ExactPlan> {
        if max_depth < empties {
            return None;
        }
        // A node budget without a depth that asks for the end (a `genmove nodes N`) solves
        // only when the solve should fit in it; otherwise the solver would spend the budget
        // on a proof it cannot finish, and the move would come from a quarter of it.
        if let (u32::MAX, Some(nodes)) = (max_depth, node_limit) {
            let expected = estimated_solve_time(size, empties).as_secs_f64() * SOLVER_NODE_RATE;
            if expected > nodes as f64 {
                return None;
            }
        }
        let Some(hard) = time.hard else {
            return Some(ExactPlan {
                midgame: node_limit
                    .map(|_| TimePlan::UNLIMITED)
                    .or_else(|| open_solve_prelude(size, empties)),
                midgame_nodes: node_limit.map(|n| n / 4),
                deadline: None,
            });
        };
        let estimate = estimated_solve_time(size, empties);
        if estimate > hard {
            return None;
        }
        let share = if estimate.as_secs_f64() <= hard.as_secs_f64() * CHEAP_SOLVE_SHARE {
            10
        } else {
            4
        };
        let midgame_hard = hard / share;
        Some(ExactPlan {
            midgame: Some(TimePlan {
                soft: Some(midgame_hard / 2),
                hard: Some(midgame_hard),
                backstop: time.backstop,
            }),
            midgame_nodes: node_limit.map(|n| n / share as u64),
            deadline: Some(hard),
        })
    }
}

/// A solve without limits expected to take longer than this is one a user may stop by
/// hand: a short midgame search runs first.
const PRELUDE_FROM: Duration = Duration::from_secs(1);

/// The midgame search before an open-ended solve of `empties` empties: a twentieth of the
/// solve's expected time, at most 2 s, when the solve is expected to take over
/// [`PRELUDE_FROM`]. Its move and estimate answer a `stop`, and its depths are the progress
/// shown while the solve has not yet proved anything; shorter solves run alone.
fn open_solve_prelude(size: usize, empties: u32) -> Option<TimePlan> {
    let estimate = estimated_solve_time(size, empties);
    (estimate > PRELUDE_FROM).then(|| {
        let hard = (estimate / 20).min(Duration::from_secs(2));
        TimePlan {
            soft: Some(hard / 2),
            hard: Some(hard),
            backstop: None,
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::time::testing::ms;

    #[test]
    fn the_solver_is_used_when_it_should_finish_in_time() {
        let timed = |hard| TimePlan {
            soft: Some(ms(hard) / 3),
            hard: Some(ms(hard)),
            backstop: None,
        };
        // Too deep for the time: the midgame search alone.
        assert_eq!(ExactPlan::new(8, 26, &timed(1_000), u32::MAX, None), None);
        // Within the time: a short midgame search first, then the solve.
        let p = ExactPlan::new(8, 20, &timed(1_000), u32::MAX, None).unwrap();
        assert_eq!(p.deadline, Some(ms(1_000)));
        assert_eq!(p.midgame.unwrap().hard, Some(ms(250)));
        // Cheap: an even shorter midgame search.
        let p = ExactPlan::new(8, 12, &timed(1_000), u32::MAX, None).unwrap();
        assert_eq!(p.midgame.unwrap().hard, Some(ms(100)));
        // A depth limit short of the end keeps the midgame search.
        assert_eq!(ExactPlan::new(8, 12, &timed(1_000), 8, None), None);
        // No time limit: the solver alone when it should take a second at most...
        assert_eq!(
            ExactPlan::new(8, 20, &TimePlan::UNLIMITED, u32::MAX, None),
            Some(ExactPlan {
                midgame: None,
                midgame_nodes: None,
                deadline: None
            })
        );
        // ... and after a short midgame search when longer, which answers a stop.
        let p = ExactPlan::new(8, 23, &TimePlan::UNLIMITED, u32::MAX, None).unwrap();
        assert_eq!(p.deadline, None);
        let prelude = p.midgame.unwrap().hard.unwrap();
        assert!(prelude > ms(100) && prelude < estimated_solve_time(8, 23) / 10);
        let p = ExactPlan::new(8, 40, &TimePlan::UNLIMITED, u32::MAX, None).unwrap();
        assert_eq!(p.midgame.unwrap().hard, Some(ms(2_000)));
        // A node limit: a midgame search first with a share of the nodes, when the solve
        // should fit in them or the depth asks for the end (a `solve`)...
        let p = ExactPlan::new(8, 14, &TimePlan::UNLIMITED, u32::MAX, Some(100_000)).unwrap();
        assert_eq!(p.midgame_nodes, Some(25_000));
        assert_eq!(p.midgame, Some(TimePlan::UNLIMITED));
        let p = ExactPlan::new(8, 14, &TimePlan::UNLIMITED, 14, Some(1000)).unwrap();
        assert_eq!(p.midgame_nodes, Some(250));
        let p = ExactPlan::new(8, 12, &timed(1_000), u32::MAX, Some(10_000)).unwrap();
        assert_eq!(p.midgame_nodes, Some(1_000));
        // ... and the midgame search alone when the nodes could not finish the solve.
        assert_eq!(
            ExactPlan::new(8, 14, &TimePlan::UNLIMITED, u32::MAX, Some(1000)),
            None
        );
        assert_eq!(
            ExactPlan::new(10, 96, &TimePlan::UNLIMITED, u32::MAX, Some(3000)),
            None
        );
    }
}
