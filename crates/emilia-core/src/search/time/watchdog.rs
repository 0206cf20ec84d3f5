//! The watchdog thread: raises a search's stop flag at its backstop, and measures the
//! scheduling delay of a loaded machine.

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{mpsc, Arc};
use std::thread;
use std::time::Duration;

use crate::platform::Instant;

/// How often the watchdog wakes while a search runs, to measure the scheduling delay.
const DELAY_TICK: Duration = Duration::from_millis(2);

/// Raises a stop flag at a deadline unless disarmed first: the backstop that holds any
/// search to its time plan. One thread waits for all the deadlines of an engine, so a
/// search costs no thread of its own.
///
/// While a search runs, the thread also wakes every [`DELAY_TICK`] and measures how late
/// it wakes: the time the process waits for a core on a loaded machine, which no clock
/// check inside the search can see. `Watchdog::delay` gives the largest delay of the
/// latest searches, and the time plans keep back a margin that grows with it.
pub(crate) struct Watchdog {
    stop: Arc<AtomicBool>,
    /// Commands to the waiting thread, which starts with the watchdog (`None` where no
    /// thread could be started).
    commands: Option<mpsc::Sender<Command>>,
    /// The scheduling delay measured, microseconds (`Watchdog::delay`).
    delay_micros: Arc<AtomicU64>,
}

enum Command {
    Arm(Instant),
    Disarm,
}

/// An armed `Watchdog`; dropping it disarms it.
pub(crate) struct Armed {
    commands: Option<mpsc::Sender<Command>>,
}

impl Watchdog {
    /// A watchdog that raises `stop`, its thread started now: a thread started within a
    /// search's time would be paid for by that search's clock (on a loaded machine, a wait
    /// for a core and for the process's memory map).
    pub(crate) fn new(stop: Arc<AtomicBool>) -> Watchdog {
        let mut watchdog = Watchdog {
            stop,
            commands: None,
            delay_micros: Arc::new(AtomicU64::new(0)),
        };
        watchdog.commands = watchdog.spawn();
        watchdog
    }

    /// The largest scheduling delay measured during the latest searches: each search's
    /// largest, or three quarters of the previous figure if that is more, so that a busy
    /// spell is remembered for a few searches and then forgotten.
    pub(crate) fn delay(&self) -> Duration {
        Duration::from_micros(self.delay_micros.load(Ordering::Relaxed))
    }

    /// Raises the stop flag at `deadline`, if given, unless the result is dropped first.
    pub(crate) fn arm(&mut self, deadline: Option<Instant>) -> Armed {
        let Some(deadline) = deadline else {
            return Armed { commands: None };
        };
        // Only if no thread could be started with the watchdog: better late than never.
        if self.commands.is_none() {
            self.commands = self.spawn();
        }
        let commands = self
            .commands
            .clone()
            .filter(|c| c.send(Command::Arm(deadline)).is_ok());
        Armed { commands }
    }

    /// The waiting thread: sleeps until a deadline, the next tick or a command, whichever
    /// comes first.
    fn spawn(&self) -> Option<mpsc::Sender<Command>> {
        let (sender, commands) = mpsc::channel::<Command>();
        let stop = Arc::clone(&self.stop);
        let delay_micros = Arc::clone(&self.delay_micros);
        let spawned = thread::Builder::new()
            .name("watchdog".into())
            .spawn(move || {
                let mut deadline: Option<Instant> = None;
                // The largest delay of the search under way.
                let mut largest = Duration::ZERO;
                loop {
                    let (command, woken_for) = match deadline {
                        None => (
                            commands
                                .recv()
                                .map_err(|_| mpsc::RecvTimeoutError::Disconnected),
                            None,
                        ),
                        Some(d) => {
                            let wake = d.min(Instant::now() + DELAY_TICK);
                            let wait = wake.saturating_duration_since(Instant::now());
                            (commands.recv_timeout(wait), Some(wake))
                        }
                    };
                    match command {
                        Ok(Command::Arm(d)) => {
                            deadline = Some(d);
                            largest = Duration::ZERO;
                        }
                        Ok(Command::Disarm) => {
                            deadline = None;
                            remember_delay(&delay_micros, largest);
                        }
                        Err(mpsc::RecvTimeoutError::Timeout) => {
                            let now = Instant::now();
                            if let Some(wake) = woken_for {
                                largest = largest.max(now.saturating_duration_since(wake));
                            }
                            if deadline.is_some_and(|d| now >= d) {
                                stop.store(true, Ordering::SeqCst);
                                deadline = None;
                                remember_delay(&delay_micros, largest);
                            }
                        }
                        // The engine is gone.
                        Err(mpsc::RecvTimeoutError::Disconnected) => return,
                    }
                }
            });
        spawned.ok().map(|_| sender)
    }
}

/// Folds a search's largest delay into the figure `Watchdog::delay` reads.
fn remember_delay(delay_micros: &AtomicU64, largest: Duration) {
    let largest = largest.as_micros().min(u64::MAX as u128) as u64;
    let previous = delay_micros.load(Ordering::Relaxed);
    delay_micros.store(largest.max(previous * 3 / 4), Ordering::Relaxed);
}

impl Drop for Armed {
    fn drop(&mut self) {
        if let Some(commands) = &self.commands {
            let _ = commands.send(Command::Disarm);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::time::testing::ms;

    #[test]
    fn watchdog_fires_only_when_not_disarmed() {
        // Deadlines far enough off that a busy machine's pauses between two statements do
        // not decide the test, and a generous wait for the one that must fire.
        let stop = Arc::new(AtomicBool::new(false));
        let mut watchdog = Watchdog::new(Arc::clone(&stop));
        drop(watchdog.arm(Some(Instant::now() + ms(200))));
        thread::sleep(ms(300));
        assert!(!stop.load(Ordering::SeqCst));
        drop(watchdog.arm(None));
        thread::sleep(ms(20));
        assert!(!stop.load(Ordering::SeqCst));
        // The same thread serves the next deadline.
        let _armed = watchdog.arm(Some(Instant::now() + ms(5)));
        let until = Instant::now() + ms(5_000);
        while !stop.load(Ordering::SeqCst) && Instant::now() < until {
            thread::sleep(ms(1));
        }
        assert!(stop.load(Ordering::SeqCst));
    }

    #[test]
    fn the_watchdog_thread_is_started_with_the_watchdog_not_in_a_search() {
        // Arming it (in a search's time) then only sends a command to a waiting thread.
        let watchdog = Watchdog::new(Arc::new(AtomicBool::new(false)));
        assert!(watchdog.commands.is_some());
    }

    #[test]
    fn delays_are_remembered_for_a_few_searches() {
        let delay = AtomicU64::new(0);
        remember_delay(&delay, ms(8));
        assert_eq!(delay.load(Ordering::Relaxed), 8_000);
        remember_delay(&delay, ms(1));
        assert_eq!(delay.load(Ordering::Relaxed), 6_000);
        remember_delay(&delay, ms(10));
        assert_eq!(delay.load(Ordering::Relaxed), 10_000);
        for _ in 0..20 {
            remember_delay(&delay, Duration::ZERO);
        }
        assert!(delay.load(Ordering::Relaxed) < 100);
    }
}
