//! Time management: how long to think about one move.
//!
//! A plan has a soft limit (no new iteration starts after [`SOFT_START_SHARE`] of it, as
//! the next one would likely not finish) and a hard deadline at which the search stops and
//! answers. On a game clock the budget is the usable time (the remaining time less a margin
//! for process and pipe overhead) shared over the moves the mover still has to play plus a
//! reserve, so the last moves are never rushed; moves around the point where the exact
//! endgame becomes solvable get more. No single move may use more than half the usable
//! time, so a move is never late while the margin covers the overhead.

use std::time::Duration;

use crate::search::{Clock, Limits};

/// Extra moves budgeted beyond those still to play, as a reserve for the end.
pub const RESERVE_MOVES: u32 = 4;

/// A new iteration starts only before this share of the soft limit has passed.
pub const SOFT_START_SHARE: f64 = 0.6;

/// Budget multiplier for the moves where the exact endgame becomes solvable.
pub const SOLVE_BONUS: f64 = 2.5;

/// Empties at which the exact endgame usually becomes solvable within a move's time, per
/// board size: those moves get more time.
pub fn solve_empties(size: usize) -> u32 {
    match size {
        6 => 18,
        8 => 16,
        10 => 12,
        _ => 10,
    }
}

/// Time the search may take for one move.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct TimePlan {
    /// Target time: no new iteration starts after [`SOFT_START_SHARE`] of it.
    pub soft: Option<Duration>,
    /// Deadline at which the search stops, whatever it is doing.
    pub hard: Option<Duration>,
}

impl TimePlan {
    /// No time limit (fixed depth or node count).
    pub const UNLIMITED: TimePlan = TimePlan {
        soft: None,
        hard: None,
    };

    /// Whether a new iteration may start after `elapsed`.
    pub fn may_start_iteration(&self, elapsed: Duration) -> bool {
        self.soft
            .is_none_or(|soft| elapsed.as_secs_f64() < soft.as_secs_f64() * SOFT_START_SHARE)
            && self.hard.is_none_or(|hard| elapsed < hard)
    }

    fn tighten(self, other: TimePlan) -> TimePlan {
        let min = |a: Option<Duration>, b: Option<Duration>| match (a, b) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        };
        TimePlan {
            soft: min(self.soft, other.soft),
            hard: min(self.hard, other.hard),
        }
    }
}

/// Time kept back from a fixed move time for answering and for a busy machine, which may
/// pause the process for a few milliseconds at any moment: a quarter of short times, 1 ms
/// plus 5 % of longer ones, at most 50 ms.
pub fn move_time_margin(move_time: Duration) -> Duration {
    (move_time / 4)
        .min(Duration::from_millis(1) + move_time / 20)
        .min(Duration::from_millis(50))
}

/// Time kept back from a game clock for process and pipe overhead and for a busy machine,
/// which may pause the process for 10 to 20 ms: 10 ms plus 2 % (at most 250 ms), and at
/// least half of a short clock up to 20 ms. With about 10 ms or less left the whole clock
/// is margin: the move is played at once.
pub fn clock_margin(remaining: Duration) -> Duration {
    let proportional = (Duration::from_millis(10) + remaining / 50).min(Duration::from_millis(250));
    let short_clock = (remaining / 2).min(Duration::from_millis(20));
    proportional.max(short_clock)
}

/// The plan for a fixed time per move: think until shortly before it ends.
pub fn for_move_time(move_time: Duration) -> TimePlan {
    let hard = move_time.saturating_sub(move_time_margin(move_time));
    TimePlan {
        soft: None,
        hard: Some(hard),
    }
}

/// The plan on a game clock with `empties` empty squares, the exact endgame becoming
/// solvable at `solve_empties`.
pub fn for_clock(clock: Clock, empties: u32, solve_empties: u32) -> TimePlan {
    let usable = clock
        .remaining
        .saturating_sub(clock_margin(clock.remaining));
    let own_moves = empties.div_ceil(2).max(1);
    let mut soft = usable / (own_moves + RESERVE_MOVES) + clock.increment * 3 / 4;
    if (solve_empties.saturating_sub(1)..=solve_empties + 1).contains(&empties) {
        soft = soft.mul_f64(SOLVE_BONUS);
    }
    // A floor so that even a short budget finishes the first iterations.
    soft = soft.max(Duration::from_millis(2).min(usable / 4));
    let cap = usable / 2;
    TimePlan {
        soft: Some(soft.min(cap)),
        hard: Some((soft * 4).min(cap)),
    }
}

/// The plan for `limits` in a position with `empties` empty squares. With no limit at all,
/// `default_move_time` applies.
pub fn plan(
    limits: &Limits,
    empties: u32,
    solve_empties: u32,
    default_move_time: Duration,
) -> TimePlan {
    let mut plan = TimePlan::UNLIMITED;
    if let Some(t) = limits.move_time {
        plan = plan.tighten(for_move_time(t));
    }
    if let Some(clock) = limits.clock {
        plan = plan.tighten(for_clock(clock, empties, solve_empties));
    }
    if limits.move_time.is_none()
        && limits.clock.is_none()
        && limits.depth.is_none()
        && limits.nodes.is_none()
    {
        plan = for_move_time(default_move_time);
    }
    plan
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ms(n: u64) -> Duration {
        Duration::from_millis(n)
    }

    fn clock(remaining: u64, increment: u64) -> Clock {
        Clock {
            remaining: ms(remaining),
            increment: ms(increment),
        }
    }

    #[test]
    fn fixed_move_time_keeps_a_margin() {
        assert_eq!(
            for_move_time(ms(5)).hard,
            Some(Duration::from_micros(3_750))
        );
        assert_eq!(for_move_time(ms(100)).hard, Some(ms(94)));
        assert_eq!(for_move_time(ms(10_000)).hard, Some(ms(9_950)));
        assert_eq!(for_move_time(Duration::ZERO).hard, Some(Duration::ZERO));
    }

    #[test]
    fn clock_budget_shares_the_time_over_the_remaining_moves() {
        // 60 s for 30 own moves plus the reserve: about 1.7 s each.
        let plan = for_clock(clock(60_000, 0), 60, 20);
        let soft = plan.soft.unwrap();
        assert!(soft > ms(1_600) && soft < ms(1_800), "{soft:?}");
        assert_eq!(plan.hard, Some(soft * 4));
        // The increment is spent too.
        let with_inc = for_clock(clock(60_000, 1_000), 60, 20).soft.unwrap();
        assert_eq!(with_inc, soft + ms(750));
    }

    #[test]
    fn the_solvable_point_gets_more_time_than_the_midgame() {
        let midgame = for_clock(clock(30_000, 0), 30, 20).soft.unwrap();
        let solving = for_clock(clock(30_000, 0), 20, 20).soft.unwrap();
        assert!(solving.as_secs_f64() > 2.0 * midgame.as_secs_f64());
    }

    #[test]
    fn no_move_may_use_more_than_half_the_usable_clock() {
        for remaining in [0, 1, 3, 10, 50, 100, 1_000, 10_000, 600_000] {
            for empties in [0, 1, 2, 10, 20, 21, 40, 60, 140] {
                for increment in [0, 100, 10_000] {
                    let c = clock(remaining, increment);
                    let plan = for_clock(c, empties, 20);
                    let usable = c.remaining.saturating_sub(clock_margin(c.remaining));
                    let (soft, hard) = (plan.soft.unwrap(), plan.hard.unwrap());
                    assert!(soft <= hard, "{remaining} {empties}");
                    assert!(hard <= usable / 2, "{remaining} {empties} {increment}");
                    assert!(hard < c.remaining || remaining == 0);
                }
            }
        }
    }

    #[test]
    fn short_clocks_keep_a_wide_margin() {
        // Nearly out of time: answer at once rather than risk a pause of the machine.
        assert_eq!(for_clock(clock(8, 0), 30, 20).hard, Some(Duration::ZERO));
        // 25 ms left: at most a quarter of it.
        assert!(for_clock(clock(25, 0), 2, 20).hard.unwrap() <= Duration::from_micros(6_250));
        // 100 ms left: at most 40 ms.
        assert!(for_clock(clock(100, 0), 2, 20).hard.unwrap() <= ms(40));
    }

    #[test]
    fn the_last_moves_are_not_rushed() {
        // With 2 s left and 4 empties, a move still gets a fair slice.
        let soft = for_clock(clock(2_000, 0), 4, 20).soft.unwrap();
        assert!(soft > ms(250), "{soft:?}");
    }

    #[test]
    fn plans_combine_limits_and_default_to_the_move_time() {
        let limits = Limits {
            move_time: Some(ms(100)),
            clock: Some(clock(1_000, 0)),
            ..Limits::default()
        };
        let p = plan(&limits, 60, 20, ms(1_000));
        assert!(p.hard.unwrap() <= ms(94));
        assert!(p.soft.unwrap() < ms(40));
        let depth_only = Limits {
            depth: Some(5),
            ..Limits::default()
        };
        assert_eq!(plan(&depth_only, 60, 20, ms(1_000)), TimePlan::UNLIMITED);
        assert_eq!(
            plan(&Limits::default(), 60, 20, ms(1_000)),
            for_move_time(ms(1_000))
        );
    }

    #[test]
    fn iterations_stop_starting_after_the_soft_share() {
        let p = TimePlan {
            soft: Some(ms(100)),
            hard: Some(ms(400)),
        };
        assert!(p.may_start_iteration(ms(59)));
        assert!(!p.may_start_iteration(ms(61)));
        assert!(TimePlan::UNLIMITED.may_start_iteration(ms(1_000_000)));
    }
}
