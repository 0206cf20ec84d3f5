//! The time a game clock's owner counts and the engine does not see, learned from the
//! clocks the searches are given.

use std::time::Duration;

use super::Margins;
use crate::search::Clock;

/// Share of a short game clock kept back from the start to the end of the game
/// ([`UnseenTime`]), at most [`MOST_CLOCK_RESERVE`].
const CLOCK_RESERVE_SHARE: f64 = 0.3;
/// The most kept back of a game clock whatever its length.
const MOST_CLOCK_RESERVE: Duration = Duration::from_millis(300);
/// Share of the largest unseen time kept from one move to the next.
const UNSEEN_DECAY: f64 = 0.9;
/// How far a clock may be above what the last move left on it (whole milliseconds) and
/// still be the same clock.
const CLOCK_ROUNDING: Duration = Duration::from_millis(2);

/// The time a game clock's owner (a referee) counts and the engine does not see, learned
/// from the remaining clock each search is given: what the previous move left on the same
/// side's clock (its remaining time and increment less the engine's own time for it)
/// against what the clock now says. The difference is the time lost outside the search:
/// waiting for a core before the command was read and after the answer was written, the
/// pipes, the referee's own latency. On a loaded machine it can reach hundreds of
/// milliseconds for one move, which no clock inside the engine sees.
///
/// What it keeps back ([`UnseenTime::margins`]): every move still to play costs the
/// recent mean of that loss (when more than [`Margins::per_move`]); the largest recent
/// loss (fading by [`UNSEEN_DECAY`] a move) is kept once; and from the start of a game a
/// share of its clock, [`CLOCK_RESERVE_SHARE`] up to [`MOST_CLOCK_RESERVE`], is never
/// planned for, so that a short clock still has room for a pause it has not seen yet.
#[derive(Clone, Debug, Default)]
pub(crate) struct UnseenTime {
    /// Per side, the latest search on its game clock.
    last: [Option<ClockMove>; 2],
    /// Per side, the largest clock seen since its game began.
    game_clock: [Duration; 2],
    /// The largest loss of a move lately.
    largest: Duration,
    /// The mean loss of the latest moves (a quarter to the newest).
    mean: Duration,
}

/// A search on a game clock, as [`UnseenTime`] remembers it.
#[derive(Clone, Copy, Debug)]
struct ClockMove {
    remaining: Duration,
    increment: Duration,
    empties: u32,
    used: Duration,
}

impl UnseenTime {
    /// Learns from the sudden-death `clock` of `side` (0 or 1) given to a search with
    /// `empties` empty squares. A clock that is not the continuation of the side's last
    /// one (more empties, or more time than the last move left) starts a new game.
    pub(crate) fn observe(&mut self, side: usize, clock: &Clock, empties: u32) {
        if clock.moves_to_go.is_some() {
            return;
        }
        let continued = self.last[side].and_then(|last| {
            let left = (last.remaining + last.increment).saturating_sub(last.used);
            (empties < last.empties && clock.remaining <= left + CLOCK_ROUNDING)
                .then(|| left.saturating_sub(clock.remaining))
        });
        match continued {
            Some(lost) => {
                self.largest = lost.max(self.largest.mul_f64(UNSEEN_DECAY));
                self.mean = self.mean * 3 / 4 + lost / 4;
                self.game_clock[side] = self.game_clock[side].max(clock.remaining);
            }
            None => self.game_clock[side] = clock.remaining,
        }
    }

    /// Remembers that `side`'s search on `clock` with `empties` empty squares took `used`.
    pub(crate) fn record(&mut self, side: usize, clock: &Clock, empties: u32, used: Duration) {
        self.last[side] = clock.moves_to_go.is_none().then_some(ClockMove {
            remaining: clock.remaining,
            increment: clock.increment,
            empties,
            used,
        });
    }

    /// `margins` raised by what was learned, for a search of `side`.
    pub(crate) fn margins(&self, margins: Margins, side: usize) -> Margins {
        let game_reserve = self.game_clock[side]
            .mul_f64(CLOCK_RESERVE_SHARE)
            .min(MOST_CLOCK_RESERVE);
        Margins {
            per_move: margins.per_move.max(self.mean),
            clock_reserve: margins.clock_reserve + game_reserve + self.largest,
            ..margins
        }
    }

    /// The largest and the mean loss of the latest moves.
    pub(crate) fn lately(&self) -> (Duration, Duration) {
        (self.largest, self.mean)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::time::for_clock;
    use crate::search::time::testing::{clock, ms, M};

    #[test]
    fn time_lost_outside_the_searches_is_learned_from_the_clocks() {
        let mut unseen = UnseenTime::default();
        let on = |remaining| clock(remaining, 0);
        // A 1 s game: 300 ms of it are kept back from the start.
        unseen.observe(0, &on(1_000), 60);
        assert_eq!(unseen.margins(M, 0).clock_reserve, ms(300));
        assert_eq!(unseen.margins(M, 0).per_move, M.per_move);
        // The referee took 950 ms off for a search of 50 ms: 50 ms were lost outside it.
        unseen.record(0, &on(1_000), 60, ms(50));
        unseen.observe(0, &on(900), 58);
        assert_eq!(unseen.lately(), (ms(50), Duration::from_micros(12_500)));
        let learned = unseen.margins(M, 0);
        assert_eq!(learned.clock_reserve, ms(350));
        assert_eq!(learned.per_move, Duration::from_micros(12_500));
        assert!(learned.clock(ms(900), 29) > M.clock(ms(900), 29) + ms(350));
        // A move that lost nothing: the largest loss fades, the mean falls.
        unseen.record(0, &on(900), 58, ms(100));
        unseen.observe(0, &on(800), 56);
        assert_eq!(unseen.lately(), (ms(45), Duration::from_micros(9_375)));
        // The other side has its own clock and its own game.
        unseen.observe(1, &on(300), 59);
        assert_eq!(unseen.margins(M, 1).clock_reserve, ms(90) + ms(45));
        // A new game (more empties) starts from its own clock; the machine's losses stay.
        unseen.record(0, &on(800), 56, ms(10));
        unseen.observe(0, &on(5_000), 60);
        assert_eq!(unseen.margins(M, 0).clock_reserve, ms(300) + ms(45));
        assert_eq!(unseen.lately().0, ms(45));
        // A clock that gives each move the same time is not one game's clock: nothing is
        // learned from it.
        unseen.record(0, &on(1_500), 58, ms(100));
        unseen.observe(0, &on(1_500), 56);
        assert_eq!(unseen.lately().0, ms(45));
        // Nor from byo-yomi periods, renewed as they end.
        let period = Clock {
            moves_to_go: Some(5),
            ..on(1_000)
        };
        unseen.record(0, &period, 56, ms(100));
        unseen.observe(
            0,
            &Clock {
                remaining: ms(100),
                ..period
            },
            54,
        );
        assert_eq!(unseen.lately().0, ms(45));
        // A plan never counts on what is kept back.
        let c = on(1_000);
        let learned = unseen.margins(M, 1);
        let hard = for_clock(&c, 40, 8, &learned).hard.unwrap();
        assert!(hard <= (ms(1_000) - learned.clock_reserve) / 2, "{hard:?}");
    }
}
