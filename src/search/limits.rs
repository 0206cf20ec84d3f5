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
}

/// What bounds one search. Several limits may be combined; the first reached ends it. With
/// none set, the search takes a default time (see [`super::time`]).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Limits {
    /// Deepest midgame iteration, in plies.
    pub depth: Option<u32>,
    /// Fixed time for this move.
    pub move_time: Option<Duration>,
    /// The mover's remaining clock, budgeted over the moves still to play.
    pub clock: Option<Clock>,
    /// Node budget.
    pub nodes: Option<u64>,
}
