//! The time kept back from deadlines for what the search's own clock does not see, and
//! what a move timed with its whole process keeps back.

use std::time::Duration;

/// The time kept back from deadlines for what the search's own clock does not see.
///
/// The fixed parts stand for the pause a busy machine imposes on the process (waiting for
/// a core while the wall clock runs); [`Margins::with_delay`] raises them by the scheduling
/// delay measured while running.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Margins {
    /// Kept back from a game clock for every own move still to play.
    pub per_move: Duration,
    /// Kept back once from a game clock.
    pub clock_pause: Duration,
    /// Kept back once from a fixed move time (with a share of it, see the module docs).
    pub move_time_pause: Duration,
    /// Kept back once from a game clock besides its pause: what the engine learned of the time it does not see pass.
    pub clock_reserve: Duration,
}

impl Margins {
    /// The margins measured on a machine under load (docs/experiments.md, Time).
    pub const DEFAULT: Margins = Margins {
        per_move: Duration::from_millis(3),
        clock_pause: Duration::from_millis(10),
        move_time_pause: Duration::from_millis(1),
        clock_reserve: Duration::ZERO,
    };

    /// These margins with the pauses raised by the scheduling delay measured lately
    /// (`Watchdog::delay`): on a loaded machine the process waits that long for a core,
    /// once when the deadline passes unseen and once more before the answer is read (twice
    /// the delay on a game clock). A fixed move time is spent to its end, so the wait before
    /// the command is read comes out of it too: three times the delay. Every move to come
    /// waits so too, the instant ones after the exact solve included: half the delay each
    /// (the delay is the largest wait seen). The measurements behind these factors are in
    /// docs/experiments.md (Time).
    pub fn with_delay(&self, delay: Duration) -> Margins {
        Margins {
            per_move: self.per_move + delay / 2,
            clock_pause: self.clock_pause + delay * 2,
            move_time_pause: self.move_time_pause + delay * 3,
            ..*self
        }
    }

    /// Time kept back from a fixed move time: a quarter of short times, the pause plus
    /// 5 % of longer ones, at most 50 ms.
    pub fn move_time(&self, move_time: Duration) -> Duration {
        (move_time / 4)
            .min(self.move_time_pause + move_time / 20)
            .min(Duration::from_millis(50))
    }

    /// Time kept back from a game clock of `remaining` with `own_moves` still to play: the
    /// overhead of every move, one pause and 5 %, and at least half of a short clock up to
    /// 20 ms; never more than the clock.
    pub fn clock(&self, remaining: Duration, own_moves: u32) -> Duration {
        let overhead = self.per_move * own_moves + self.clock_pause + remaining / 20;
        let short_clock = (remaining / 2).min(Duration::from_millis(20));
        (overhead + self.clock_reserve)
            .max(short_clock)
            .min(remaining)
    }
}

/// The search time of a move for which the whole process is timed (`emilia move`), given
/// what is `left` once the engine is ready: writing the file and exiting are kept back, a
/// tenth, at most 200 ms, plus 5 ms; at least 1 ms remains.
pub fn process_move_time(left: Duration) -> Duration {
    let reserve = (left / 10).min(Duration::from_millis(200)) + Duration::from_millis(5);
    left.saturating_sub(reserve).max(Duration::from_millis(1))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::time::for_move_time;
    use crate::search::time::testing::{ms, M};

    #[test]
    fn the_margin_counts_every_move_still_to_play() {
        // 10 s with 30 own moves: 90 ms of overhead, 10 ms of pause, 500 ms (5 %).
        assert_eq!(M.clock(ms(10_000), 30), ms(600));
        assert_eq!(M.clock(ms(10_000), 1), ms(513));
        // Never more than the clock.
        assert_eq!(M.clock(ms(50), 30), ms(50));
    }

    #[test]
    fn margins_grow_with_the_scheduling_delay() {
        let loaded = M.with_delay(ms(5));
        assert_eq!(loaded.clock_pause, M.clock_pause + ms(10));
        assert_eq!(loaded.per_move, M.per_move + Duration::from_micros(2500));
        assert!(loaded.clock(ms(1000), 20) > M.clock(ms(1000), 20) + ms(50));
        assert_eq!(loaded.move_time(ms(100)), ms(21));
        assert!(for_move_time(ms(100), &loaded).hard < for_move_time(ms(100), &M).hard);
        assert_eq!(M.with_delay(Duration::ZERO), M);
    }

    #[test]
    fn a_whole_process_keeps_time_for_writing_and_exiting() {
        assert_eq!(process_move_time(ms(1_000)), ms(895));
        assert_eq!(process_move_time(ms(10_000)), ms(9_795));
        assert_eq!(process_move_time(ms(3)), ms(1));
    }
}
