//! How much longer than its processor time a search takes by the wall clock: on a machine
//! with more runnable threads than cores, the engine's threads wait for a core while its
//! clock runs (measured on the thread that runs the search, busy from start to end). Estimates of search times are of processor time (a solve's expected time);
//! deadlines are on the wall clock. The factor measured here converts the one into the
//! other, so that a search that cannot finish in time on a busy machine is not started.

use std::time::{Duration, Instant};

use crate::search::time::TimePlan;

/// Searches shorter than this tell too little about the machine to be measured.
const SHORTEST_MEASURED: Duration = Duration::from_millis(5);

/// The largest factor kept: beyond it, no estimate means much.
const LARGEST_FACTOR: f64 = 100.0;

/// The wall-clock time of the latest searches over the processor time they had.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Slowdown {
    factor: f64,
}

/// A search being measured: when it started, and its thread's processor time then.
pub(crate) struct Measurement {
    wall: Instant,
    cpu: Option<Duration>,
}

impl Slowdown {
    /// No slowdown known yet.
    pub(crate) const NONE: Slowdown = Slowdown { factor: 1.0 };

    /// How many times longer than its processor time a search takes lately (at least 1):
    /// the latest search's figure, or three quarters of the previous figure if that is
    /// more, so that a busy spell is remembered for a few searches and then forgotten.
    pub(crate) fn factor(&self) -> f64 {
        self.factor
    }

    /// `cpu_time` as wall-clock time at the current slowdown.
    pub(crate) fn wall_time(&self, cpu_time: Duration) -> Duration {
        Duration::try_from_secs_f64(cpu_time.as_secs_f64() * self.factor).unwrap_or(Duration::MAX)
    }

    /// `plan` at the current slowdown: its hard deadline no later than the soft target plus
    /// the time between them divided by the slowdown. An iteration that would end by the
    /// hard deadline on an idle machine takes that many times longer on a busy one; cut
    /// short, it leaves the move shallower, never late on a clock that must also pay for
    /// the waits of every move to come.
    pub(crate) fn tighten(&self, plan: TimePlan) -> TimePlan {
        let (Some(soft), Some(hard)) = (plan.soft, plan.hard) else {
            return plan;
        };
        let tight = soft + hard.saturating_sub(soft).div_f64(self.factor);
        TimePlan {
            hard: Some(hard.min(tight)),
            ..plan
        }
    }

    /// Starts measuring a search run on the calling thread.
    pub(crate) fn start() -> Measurement {
        Measurement {
            wall: Instant::now(),
            cpu: thread_cpu_time(),
        }
    }

    /// Folds in the search measured since `start`, on the same thread.
    pub(crate) fn record(&mut self, start: Measurement) {
        let wall = start.wall.elapsed();
        let (Some(before), Some(now)) = (start.cpu, thread_cpu_time()) else {
            return;
        };
        let cpu = now.saturating_sub(before);
        if wall < SHORTEST_MEASURED || cpu.is_zero() {
            return;
        }
        let measured = (wall.as_secs_f64() / cpu.as_secs_f64()).clamp(1.0, LARGEST_FACTOR);
        self.factor = measured.max(self.factor * 0.75).max(1.0);
    }
}

/// The processor time the calling thread has used so far.
fn thread_cpu_time() -> Option<Duration> {
    let mut time = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: clock_gettime writes one timespec into the pointer it is given.
    let status = unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut time) };
    (status == 0).then(|| Duration::new(time.tv_sec as u64, time.tv_nsec as u32))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_search_that_waits_for_a_core_raises_the_factor_which_then_decays() {
        let mut slowdown = Slowdown::NONE;
        // Asleep for most of its time: as if it waited for a core.
        let start = Slowdown::start();
        let spin = Instant::now();
        while spin.elapsed() < Duration::from_millis(2) {
            std::hint::black_box(0);
        }
        std::thread::sleep(Duration::from_millis(20));
        slowdown.record(start);
        assert!(slowdown.factor() > 2.0, "{}", slowdown.factor());
        assert!(slowdown.wall_time(Duration::from_millis(10)) > Duration::from_millis(20));
        // The hard deadline comes closer to the soft target; a plan without one is kept.
        let plan = TimePlan {
            soft: Some(Duration::from_millis(10)),
            hard: Some(Duration::from_millis(40)),
            backstop: Some(Duration::from_millis(100)),
        };
        let tight = slowdown.tighten(plan);
        assert!(tight.hard.unwrap() < Duration::from_millis(25), "{tight:?}");
        assert!(tight.hard >= plan.soft);
        assert_eq!((tight.soft, tight.backstop), (plan.soft, plan.backstop));
        assert_eq!(Slowdown::NONE.tighten(plan), plan);
        assert_eq!(slowdown.tighten(TimePlan::UNLIMITED), TimePlan::UNLIMITED);
        let raised = slowdown.factor();
        // A short search is not measured; a long one on an idle core lowers the factor,
        // by at most a quarter at a time.
        slowdown.record(Slowdown::start());
        assert_eq!(slowdown.factor(), raised);
        let start = Slowdown::start();
        let spin = Instant::now();
        while spin.elapsed() < Duration::from_millis(10) {
            std::hint::black_box(0);
        }
        slowdown.record(start);
        assert!(slowdown.factor() >= raised * 0.75 - 1e-9);
        assert!(slowdown.factor() >= 1.0);
    }
}
