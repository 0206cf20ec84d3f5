//! What bounds one search, as front-ends and players give it: a depth, a fixed time, the
//! mover's game clock, a node budget. The time manager ([`super::time`]) turns the time
//! limits into deadlines.

use std::time::Duration;

/// The mover's game clock.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Clock {
    /// Time left on the mover's clock.
    pub remaining: Duration,
    /// Time added after each move.
    pub increment: Duration,
    /// Moves to play within `remaining` before the clock is renewed (GTP's byo-yomi
    /// periods); `None` when `remaining` is for the rest of the game.
    pub moves_to_go: Option<u32>,
}

impl Clock {
    /// A clock of `remaining` for the rest of the game, without increment.
    pub fn sudden_death(remaining: Duration) -> Clock {
        Clock {
            remaining,
            increment: Duration::ZERO,
            moves_to_go: None,
        }
    }
}

/// What bounds one search. Several limits may be combined; the first reached ends it. With
/// none set, the engine searches for a default time.
///
/// ```
/// use std::time::Duration;
/// use emilia_core::search::{Clock, Limits};
///
/// // Eight plies deep, but no longer than two seconds.
/// let limits = Limits {
///     depth: Some(8),
///     move_time: Some(Duration::from_secs(2)),
///     ..Limits::default()
/// };
/// assert!(!limits.is_unbounded());
/// assert!(Limits::default().is_unbounded());
///
/// // A game clock: the engine plans its own time from what is left.
/// let clocked = Limits {
///     clock: Some(Clock::sudden_death(Duration::from_secs(60))),
///     ..Limits::default()
/// };
/// assert_eq!(clocked.clock.unwrap().increment, Duration::ZERO);
/// ```
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Limits {
    /// Deepest midgame iteration, in plies.
    pub depth: Option<u32>,
    /// A playing level, as NBoard's `set depth` gives it: midgame iterations up to `level`
    /// plies, and a search to the end of the game once few enough squares are empty (how
    /// few is the engine's decision).
    pub level: Option<u32>,
    /// Fixed time for this move.
    pub move_time: Option<Duration>,
    /// The mover's remaining clock, budgeted over the moves still to play.
    pub clock: Option<Clock>,
    /// Node budget.
    pub nodes: Option<u64>,
}

impl Limits {
    /// Whether no limit is set: the search would never end by itself.
    pub fn is_unbounded(&self) -> bool {
        self.depth.is_none()
            && self.level.is_none()
            && self.move_time.is_none()
            && self.clock.is_none()
            && self.nodes.is_none()
    }
}
