//! The players' clocks as a referee tells them (GTP's `time_settings`, `time_left` and an
//! increment), kept between moves: what a search of either colour may count on.

use std::time::Duration;

use crate::board::Color;
use crate::search::Clock;

/// A time control told by a referee: main time, then byo-yomi periods of `byoyomi` for
/// `stones` moves each (GTP's `time_settings`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TimeControl {
    /// Time for the game before byo-yomi.
    pub main: Duration,
    /// Time of each byo-yomi period.
    pub byoyomi: Duration,
    /// Moves to play within each period; 0 with a non-zero `byoyomi` means no limit.
    pub stones: u32,
}

/// One clock as a referee tells it (GTP's `time_left`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TimeLeft {
    /// Time left.
    pub time: Duration,
    /// Moves to play within `time`; 0 while in main time.
    pub stones: u32,
}

/// Both players' clocks: the time control, the last time told of each colour, and an
/// increment (added to the mover's main time after each of its moves, a Fischer clock;
/// byo-yomi periods get none). Untimed until told otherwise.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct GameClocks {
    control: Option<TimeControl>,
    /// Time left and stones of Black and White (index 0 is Black).
    left: [Option<TimeLeft>; 2],
    increment: Duration,
}

impl GameClocks {
    /// Starts again with `control` and no increment: every clock full.
    pub fn set_control(&mut self, control: TimeControl) {
        *self = GameClocks {
            control: Some(control),
            ..GameClocks::default()
        };
    }

    /// What a referee says is left on `color`'s clock.
    pub fn set_left(&mut self, color: Color, left: TimeLeft) {
        self.left[color.index()] = Some(left);
    }

    /// The time added to the mover's main time after each move.
    pub fn set_increment(&mut self, increment: Duration) {
        self.increment = increment;
    }

    /// The clock of `color` now, or `None` when the game is untimed.
    pub fn current(&self, color: Color) -> Option<TimeLeft> {
        if let Some(left) = self.left[color.index()] {
            return Some(left);
        }
        let control = self.control?;
        // GTP: byo-yomi time with no stones means no time limit; all zero likewise.
        if control.stones == 0 && !control.byoyomi.is_zero()
            || control.main.is_zero() && control.byoyomi.is_zero()
        {
            return None;
        }
        Some(if control.main.is_zero() {
            TimeLeft {
                time: control.byoyomi,
                stones: control.stones,
            }
        } else {
            TimeLeft {
                time: control.main,
                stones: 0,
            }
        })
    }

    /// The clock a search by `color` keeps: `given` (a whole remaining clock given with
    /// the command) with the increment, or else `color`'s clock as kept here.
    pub fn for_search(&self, color: Color, given: Option<Clock>) -> Option<Clock> {
        if let Some(clock) = given {
            return Some(Clock {
                increment: self.increment,
                ..clock
            });
        }
        self.current(color).map(|left| Clock {
            remaining: left.time,
            increment: if left.stones == 0 {
                self.increment
            } else {
                Duration::ZERO
            },
            // In byo-yomi, `time` is for the next `stones` moves.
            moves_to_go: (left.stones > 0).then_some(left.stones),
        })
    }

    /// Counts `used` off `color`'s clock after its move, and adds the increment to main
    /// time, until the referee says otherwise.
    pub fn spend(&mut self, color: Color, used: Duration) {
        let Some(mut left) = self.current(color) else {
            return;
        };
        let byoyomi = self.control.filter(|c| c.stones > 0).map(|c| TimeLeft {
            time: c.byoyomi,
            stones: c.stones,
        });
        left.time = left.time.saturating_sub(used);
        if left.stones == 0 && !left.time.is_zero() {
            left.time += self.increment;
        }
        if left.stones > 0 {
            // In byo-yomi: once the period's stones are played, a fresh period starts.
            left.stones -= 1;
            if left.stones == 0 {
                left = byoyomi.unwrap_or(left);
            }
        } else if left.time.is_zero() {
            // Main time used up: byo-yomi follows, if there is any.
            left = byoyomi.unwrap_or(left);
        }
        self.left[color.index()] = Some(left);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const fn secs(s: u64) -> Duration {
        Duration::from_secs(s)
    }

    #[test]
    fn clocks_count_down_and_enter_byoyomi() {
        let mut clocks = GameClocks::default();
        clocks.set_control(TimeControl {
            main: secs(10),
            byoyomi: secs(5),
            stones: 2,
        });
        let left = |c: &GameClocks, color| {
            let l: TimeLeft = c.current(color).unwrap();
            (l.time, l.stones)
        };
        clocks.spend(Color::Black, secs(4));
        assert_eq!(left(&clocks, Color::Black), (secs(6), 0));
        clocks.spend(Color::Black, secs(7));
        assert_eq!(left(&clocks, Color::Black), (secs(5), 2));
        clocks.spend(Color::Black, secs(1));
        assert_eq!(left(&clocks, Color::Black), (secs(4), 1));
        clocks.spend(Color::Black, secs(1));
        assert_eq!(left(&clocks, Color::Black), (secs(5), 2));
        assert_eq!(left(&clocks, Color::White), (secs(10), 0));
        // No time limit: byo-yomi time without stones.
        clocks.set_control(TimeControl {
            main: Duration::ZERO,
            byoyomi: secs(1),
            stones: 0,
        });
        assert!(clocks.current(Color::White).is_none());
    }

    #[test]
    fn the_increment_reaches_the_search_and_the_clock_kept() {
        let millis = Duration::from_millis;
        let mut clocks = GameClocks::default();
        clocks.set_control(TimeControl {
            main: secs(60),
            byoyomi: Duration::ZERO,
            stones: 0,
        });
        assert_eq!(
            clocks.for_search(Color::Black, None).unwrap().increment,
            Duration::ZERO
        );
        clocks.set_increment(millis(500));
        let kept = clocks.for_search(Color::Black, None).unwrap();
        assert_eq!((kept.remaining, kept.increment), (secs(60), millis(500)));
        // A clock given with the command gets it too.
        let given = clocks.for_search(Color::Black, Some(Clock::sudden_death(millis(3000))));
        assert_eq!(given.unwrap().increment, millis(500));
        // The clock kept earns it after each own move.
        clocks.spend(Color::Black, millis(1200));
        assert_eq!(clocks.current(Color::Black).unwrap().time, millis(59_300));
        // A new time control starts again without increment; byo-yomi gets none.
        clocks.set_control(TimeControl {
            main: Duration::ZERO,
            byoyomi: secs(10),
            stones: 5,
        });
        clocks.set_increment(secs(1));
        let byoyomi = clocks.for_search(Color::White, None).unwrap();
        assert_eq!(
            (byoyomi.increment, byoyomi.moves_to_go),
            (Duration::ZERO, Some(5))
        );
    }
}
