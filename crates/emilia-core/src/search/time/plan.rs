//! The time plan of one search (soft target, hard deadline, backstop) and the plan for
//! the limits a search is given: a fixed move time, a game clock, or both.

use std::time::Duration;

use super::{for_clock, Margins};
use crate::search::Limits;

/// A new iteration starts only before this share of the soft limit has passed.
pub const SOFT_START_SHARE: f64 = 0.6;

/// Time the search may take for one move, from its start.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct TimePlan {
    /// Target time: no new iteration starts after [`SOFT_START_SHARE`] of it.
    pub soft: Option<Duration>,
    /// Deadline at which the search stops, whatever it is doing.
    pub hard: Option<Duration>,
    /// The promise to the clock's owner: never more than the move time, nor half of what
    /// is left on the clock. A `Watchdog` raises the stop flag then, should a search not
    /// have stopped at `hard`.
    pub backstop: Option<Duration>,
}

impl TimePlan {
    /// No time limit (fixed depth or node count).
    pub const UNLIMITED: TimePlan = TimePlan {
        soft: None,
        hard: None,
        backstop: None,
    };

    /// Whether a new iteration may start after `elapsed`, the soft target scaled by
    /// `scale` (`Stability::scale`).
    pub fn may_start_iteration(&self, elapsed: Duration, scale: f64) -> bool {
        self.soft.is_none_or(|soft| {
            elapsed.as_secs_f64() < soft.as_secs_f64() * SOFT_START_SHARE * scale
        }) && self.hard.is_none_or(|hard| elapsed < hard)
    }

    fn tighten(self, other: TimePlan) -> TimePlan {
        let min = |a: Option<Duration>, b: Option<Duration>| match (a, b) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        };
        TimePlan {
            soft: min(self.soft, other.soft),
            hard: min(self.hard, other.hard),
            backstop: min(self.backstop, other.backstop),
        }
    }
}

/// The plan for a fixed time per move: think until shortly before it ends.
pub fn for_move_time(move_time: Duration, margins: &Margins) -> TimePlan {
    TimePlan {
        soft: None,
        hard: Some(move_time.saturating_sub(margins.move_time(move_time))),
        backstop: Some(move_time),
    }
}

/// The plan for `limits` in a position with `empties` empty squares on a board of side
/// `size`; unlimited when `limits` bound no time.
pub fn plan(limits: &Limits, empties: u32, size: usize, margins: &Margins) -> TimePlan {
    let mut plan = TimePlan::UNLIMITED;
    if let Some(t) = limits.move_time {
        plan = plan.tighten(for_move_time(t, margins));
    }
    if let Some(clock) = &limits.clock {
        plan = plan.tighten(for_clock(clock, empties, size, margins));
    }
    plan
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::time::testing::{clock, ms, M};

    #[test]
    fn fixed_move_time_keeps_a_margin() {
        let hard = |t| for_move_time(t, &M).hard;
        assert_eq!(hard(ms(5)), Some(Duration::from_micros(3_750)));
        assert_eq!(hard(ms(100)), Some(ms(94)));
        assert_eq!(hard(ms(10_000)), Some(ms(9_950)));
        assert_eq!(hard(Duration::ZERO), Some(Duration::ZERO));
        assert_eq!(for_move_time(ms(100), &M).backstop, Some(ms(100)));
    }

    #[test]
    fn plans_combine_limits() {
        let limits = Limits {
            move_time: Some(ms(100)),
            clock: Some(clock(1_000, 0)),
            ..Limits::default()
        };
        let p = plan(&limits, 60, 8, &M);
        assert!(p.hard.unwrap() <= ms(94));
        assert!(p.soft.unwrap() < ms(40));
        assert_eq!(p.backstop, Some(ms(100)));
        let depth_only = Limits {
            depth: Some(5),
            ..Limits::default()
        };
        assert_eq!(plan(&depth_only, 60, 8, &M), TimePlan::UNLIMITED);
    }

    #[test]
    fn iterations_stop_starting_after_the_soft_share() {
        let p = TimePlan {
            soft: Some(ms(100)),
            hard: Some(ms(400)),
            backstop: None,
        };
        assert!(p.may_start_iteration(ms(59), 1.0));
        assert!(!p.may_start_iteration(ms(61), 1.0));
        assert!(TimePlan::UNLIMITED.may_start_iteration(ms(1_000_000), 1.0));
        assert!(p.may_start_iteration(ms(100), 2.0));
        assert!(!p.may_start_iteration(ms(30), 0.25));
        // The hard deadline is not scaled.
        assert!(!p.may_start_iteration(ms(400), 100.0));
    }
}
