//! Time management: how long to think about one move. Every time margin of the program
//! lives here; front-ends only read clocks (GTP's `time_settings` and `time_left`,
//! `genmove <ms>`, NBoard's GGF clocks, a move time) into [`Limits`](super::Limits), and [`plan`] turns
//! them and the position into a [`TimePlan`].
//!
//! A plan has a soft target (no new iteration starts after [`SOFT_START_SHARE`] of it, as
//! the next one would likely not finish; the search scales it by how settled its choice
//! is, `Stability`) and a hard deadline at which the search stops and answers, plus a
//! backstop that a `Watchdog` enforces whatever the search does.
//!
//! **Margins** ([`Margins`]) keep back time the search's own clock does not see:
//! - a fixed move time is used up to a quarter of short times, or 1 ms plus 5 %, at most
//!   50 ms;
//! - a game clock keeps back 3 ms for every own move still to play (reading the command,
//!   writing the answer, process switches: time the referee counts and the search does
//!   not), 10 ms for a pause of a busy machine, and 5 % of what is left; and at least half
//!   of a short clock up to 20 ms, so that with about 10 ms left the move is played at
//!   once. What remains is the usable time;
//! - on a loaded machine the clock's pause grows by twice the scheduling delay the
//!   `Watchdog` measured during the latest searches, a fixed move time's by three times,
//!   and what is kept back for every own move by half of it;
//! - on a game clock, what the clock's owner counted beyond the engine's own time for the
//!   previous moves (`UnseenTime`, learned from the remaining clock each search is given):
//!   every move still to play keeps back the recent mean of that loss, the largest recent
//!   loss is kept back once, and 30 % of a game's clock, at most 300 ms, is kept back from
//!   its first move to its last.
//!
//! **Budget** on a game clock: the plan expects the exact solve at the most empties whose
//! expected solve takes at most [`SOLVE_PLAN_SHARE`] of the time to come
//! (`planned_solve_empties`, never fewer than the size's usual point, `solve_empties`), and
//! keeps twice that solve's expected time for it until the solving move. The rest of the
//! usable time is shared over the mover's moves that still need a search
//! (`moves_to_search`: those before the planned solve, and the solving move), each by its
//! weight for its stage of the game (`phase_weight`: the midgame more, the opening and the
//! moves just before the solve less), or evenly over the moves to play before the clock
//! is renewed, in byo-yomi; on a sudden-death clock the increments the moves after the
//! solve will earn (they are played at once) join the usable time, and each move spends
//! three quarters of its own increment besides; the moves at the planned solve get
//! [`SOLVE_BONUS`] times as much, and the hard deadline is four times the target. No
//! search may take more than half the usable time, nor (backstop) more than half of what
//! is left on the clock.
//!
//! **Exact solving** on every size (`ExactPlan`): the solver takes over once it is
//! expected to finish within the hard deadline (by a time model per board size); a short
//! midgame search first finds a fallback move.

mod budget;
mod exact_plan;
mod manager;
mod margins;
mod moves_left;
mod plan;
mod solve_estimate;
mod stability;
mod unseen_time;
mod watchdog;

pub use budget::{clock_share, for_clock, SOLVE_BONUS};
pub(crate) use exact_plan::ExactPlan;
pub(crate) use manager::TimeManager;
pub use margins::{process_move_time, Margins};
pub(crate) use moves_left::{moves_to_search, planned_solve_empties};
pub use moves_left::{own_moves_left, solve_empties, SOLVE_PLAN_SHARE};
pub use plan::{for_move_time, plan, TimePlan, SOFT_START_SHARE};
pub(crate) use solve_estimate::estimated_solve_time;
pub(crate) use stability::Stability;
use unseen_time::UnseenTime;
use watchdog::{Armed, Watchdog};

/// What the tests of the time manager's parts share.
#[cfg(test)]
mod testing {
    use std::time::Duration;

    use super::Margins;
    use crate::search::Clock;

    pub(super) const M: Margins = Margins::DEFAULT;

    pub(super) fn ms(n: u64) -> Duration {
        Duration::from_millis(n)
    }

    pub(super) fn clock(remaining: u64, increment: u64) -> Clock {
        Clock {
            remaining: ms(remaining),
            increment: ms(increment),
            moves_to_go: None,
        }
    }
}
