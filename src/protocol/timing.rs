//! Time handling shared by the front-ends: what part of a clock the engine is given, and a
//! watchdog that stops a search at a hard limit whatever the engine's own budgeting does.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc;
use std::sync::Arc;
use std::thread;
use std::time::{Duration, Instant};

use crate::board::{Move, Position};
use crate::engine::Engine;
use crate::search::{Clock, Limits, SearchReport};

/// Time kept back per move still to play, for reading, writing and process switches
/// that the engine's clock does not see.
pub const OVERHEAD_PER_MOVE: Duration = Duration::from_millis(3);

/// Moves the side to move still has to play, at most.
pub fn own_moves_left(position: &Position) -> u32 {
    let (_, _, empties) = position.board.counts();
    empties.div_ceil(2).max(1)
}

/// The clock handed to the engine for a mover with `remaining` time: a reserve for
/// communication (3 ms per move still to play plus 5 %, at most three quarters) is taken
/// off. On a busy machine a short clock goes mostly to waking up and passing messages.
pub fn engine_clock(remaining: Duration, increment: Duration, position: &Position) -> Clock {
    let reserve =
        (OVERHEAD_PER_MOVE * own_moves_left(position) + remaining / 20).min(remaining * 3 / 4);
    Clock {
        remaining: remaining - reserve,
        increment,
    }
}

/// The latest a search under `limits` may end: its fixed move time, and never more than
/// half the engine's clock, so that a mover can never run out of time however the engine
/// spends it.
pub fn hard_limit(limits: &Limits) -> Option<Duration> {
    let by_clock = limits.clock.map(|c| (c.remaining + c.increment) / 2);
    match (limits.move_time, by_clock) {
        (Some(a), Some(b)) => Some(a.min(b)),
        (a, b) => a.or(b),
    }
}

/// Sets a stop flag when its time comes, unless dropped first.
pub struct Watchdog {
    cancel: Option<mpsc::Sender<()>>,
}

impl Watchdog {
    /// Raises `stop` after `limit`, if given.
    pub fn arm(stop: Arc<AtomicBool>, limit: Option<Duration>) -> Watchdog {
        let Some(limit) = limit else {
            return Watchdog { cancel: None };
        };
        let (cancel, cancelled) = mpsc::channel::<()>();
        let spawned = thread::Builder::new()
            .name("watchdog".into())
            .spawn(move || {
                if let Err(mpsc::RecvTimeoutError::Timeout) = cancelled.recv_timeout(limit) {
                    stop.store(true, Ordering::SeqCst);
                }
            });
        Watchdog {
            cancel: spawned.ok().map(|_| cancel),
        }
    }
}

impl Drop for Watchdog {
    fn drop(&mut self) {
        // Dropping the sender wakes the thread, which then leaves the flag alone.
        self.cancel.take();
    }
}

/// Searches under `limits` with the watchdog armed, and makes sure the answer is a legal
/// move of `position` (falling back to the first legal move should the engine err).
pub fn search_within(
    engine: &mut Engine,
    position: &Position,
    limits: &Limits,
    progress: &mut dyn FnMut(&SearchReport),
) -> SearchReport {
    guarded(engine, position, limits, |engine| {
        engine.search(position, limits, progress)
    })
}

/// Solves `position` to the end of the game within `limits` (time and nodes), with the
/// same watchdog and check as [`search_within`].
pub fn solve_within(
    engine: &mut Engine,
    position: &Position,
    limits: &Limits,
    progress: &mut dyn FnMut(&SearchReport),
) -> SearchReport {
    guarded(engine, position, limits, |engine| {
        engine.solve(position, limits, progress)
    })
}

fn guarded(
    engine: &mut Engine,
    position: &Position,
    limits: &Limits,
    run: impl FnOnce(&mut Engine) -> SearchReport,
) -> SearchReport {
    let start = Instant::now();
    let mut report = {
        let _watchdog = Watchdog::arm(engine.stop_flag(), hard_limit(limits));
        run(engine)
    };
    if position.play(report.best).is_err() {
        let legal = position.legal_moves();
        log::error!(
            "engine answered {} in {position}; playing {} instead",
            report.best,
            legal.first().copied().unwrap_or(Move::Pass)
        );
        report.best = legal.first().copied().unwrap_or(Move::Pass);
        report.pv = vec![report.best];
    }
    report.elapsed = report.elapsed.max(start.elapsed());
    report
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reserve_leaves_most_of_the_clock() {
        let start = Position::start(8).unwrap();
        let clock = engine_clock(Duration::from_secs(10), Duration::ZERO, &start);
        assert!(clock.remaining < Duration::from_secs(10));
        assert!(clock.remaining > Duration::from_secs(9));
        let tiny = engine_clock(Duration::from_millis(20), Duration::ZERO, &start);
        assert_eq!(tiny.remaining, Duration::from_millis(5));
    }

    #[test]
    fn watchdog_fires_only_when_not_dropped() {
        let stop = Arc::new(AtomicBool::new(false));
        drop(Watchdog::arm(
            Arc::clone(&stop),
            Some(Duration::from_millis(10)),
        ));
        thread::sleep(Duration::from_millis(30));
        assert!(!stop.load(Ordering::SeqCst));
        let _armed = Watchdog::arm(Arc::clone(&stop), Some(Duration::from_millis(5)));
        thread::sleep(Duration::from_millis(50));
        assert!(stop.load(Ordering::SeqCst));
    }
}
