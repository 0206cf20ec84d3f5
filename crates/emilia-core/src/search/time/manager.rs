//! The engine's one time manager: the plan of every search, the watchdog that holds it to
//! the plan, and what it learns from the clocks.

use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use std::time::Duration;

use super::{plan, Armed, Margins, TimePlan, UnseenTime, Watchdog};
use crate::board::Position;
use crate::platform::Instant;
use crate::search::Limits;

/// The engine's one time manager: asked before every search for its plan (and then holds
/// the search to the plan's backstop with its `Watchdog`), and told before and after every
/// move on a game clock what the clock said and what the search used, to learn the time
/// lost outside the searches (`UnseenTime`).
pub(crate) struct TimeManager {
    margins: Margins,
    watchdog: Watchdog,
    unseen: UnseenTime,
}

impl TimeManager {
    /// A time manager whose watchdog raises `stop`.
    pub(crate) fn new(stop: Arc<AtomicBool>) -> TimeManager {
        TimeManager {
            margins: Margins::DEFAULT,
            watchdog: Watchdog::new(stop),
            unseen: UnseenTime::default(),
        }
    }

    /// Before a move is chosen in `position` under `limits`: learns from its game clock,
    /// if any, what the last move lost outside the search.
    pub(crate) fn move_starts(&mut self, position: &Position, limits: &Limits) {
        if let Some(clock) = &limits.clock {
            let empties = position.board.counts().2;
            self.unseen
                .observe(position.to_move.index(), clock, empties);
            let (largest, mean) = self.unseen.lately();
            log::info!("time lost outside the searches lately: largest {largest:?}, mean {mean:?}");
        }
    }

    /// The plan of a search of `position` under `limits` that started at `start`; the
    /// search is stopped at the plan's backstop until the guard returned is dropped.
    pub(crate) fn plan(
        &mut self,
        position: &Position,
        limits: &Limits,
        start: Instant,
    ) -> (TimePlan, Armed) {
        let margins = self.unseen.margins(
            self.margins.with_delay(self.watchdog.delay()),
            position.to_move.index(),
        );
        let empties = position.board.counts().2;
        let plan = plan(limits, empties, position.size(), &margins);
        let armed = self
            .watchdog
            .arm(plan.backstop.and_then(|b| start.checked_add(b)));
        (plan, armed)
    }

    /// After a move was chosen in `position` under `limits`: what it used.
    pub(crate) fn move_ended(&mut self, position: &Position, limits: &Limits, used: Duration) {
        if let Some(clock) = &limits.clock {
            let empties = position.board.counts().2;
            self.unseen
                .record(position.to_move.index(), clock, empties, used);
        }
    }
}
