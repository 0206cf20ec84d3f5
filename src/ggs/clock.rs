//! GGS clocks: the setting of a request (`ini/inc/ext`, `05:00//01:00`) and a player's
//! clock as a board block shows it (`00:58,1:0//00:10,1:0`), and their translation into
//! the core's told clocks.

use std::time::Duration;

use emilia_core::board::Color;
use emilia_core::engine::{GameClocks, TimeControl, TimeLeft};

/// A clock setting: main time, the increment after each move, and the extension that
/// follows main time (a game is lost at once only when the extension runs out too).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct Setting {
    pub(crate) main: Duration,
    pub(crate) increment: Duration,
    pub(crate) extension: Duration,
}

/// One player's clock in a board block: time left now and the setting's increment and
/// extension.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Reading {
    /// Time left on the clock (main time, or the extension once main time ran out).
    pub(crate) left: Duration,
    /// Moves made so far by this player, as the clock counts them.
    pub(crate) moves: u32,
    pub(crate) increment: Duration,
    pub(crate) extension: Duration,
}

/// Reads `[[hh:]mm:]ss` (a `-` in front reads as zero: a clock past its end).
pub(crate) fn duration(text: &str) -> Option<Duration> {
    let text = text.trim();
    if text.is_empty() || text.len() > 16 {
        return None;
    }
    let negative = text.starts_with('-');
    let mut seconds = 0u64;
    for part in text.trim_start_matches('-').split(':') {
        if part.is_empty() || part.len() > 6 || !part.bytes().all(|b| b.is_ascii_digit()) {
            return None;
        }
        seconds = seconds * 60 + part.parse::<u64>().ok()?;
    }
    Some(if negative {
        Duration::ZERO
    } else {
        Duration::from_secs(seconds)
    })
}

/// The three `/`-separated parts of a clock text, each without its `,…` suffix; the
/// suffix of the first part too.
fn parts(text: &str) -> Option<[(&str, &str); 3]> {
    let mut fields = text.trim().split('/');
    let mut take = || {
        let field = fields.next().unwrap_or("");
        field.split_once(',').unwrap_or((field, ""))
    };
    let out = [take(), take(), take()];
    fields.next().is_none().then_some(out)
}

impl Setting {
    /// Reads a request's setting: `ini[/inc[/ext]]`, each part optional (`01:00//00:10`).
    pub(crate) fn parse(text: &str) -> Option<Setting> {
        let [main, increment, extension] = parts(text)?;
        let read = |(t, _): (&str, &str)| {
            if t.trim().is_empty() {
                Some(Duration::ZERO)
            } else {
                duration(t)
            }
        };
        Some(Setting {
            main: read(main)?,
            increment: read(increment)?,
            extension: read(extension)?,
        })
    }

    /// The setting as GGS writes it: `mm:ss/mm:ss/mm:ss`, empty parts for zero.
    pub(crate) fn text(&self) -> String {
        let part = |d: Duration| {
            if d.is_zero() {
                String::new()
            } else {
                let s = d.as_secs();
                format!("{:02}:{:02}", s / 60, s % 60)
            }
        };
        format!(
            "{}/{}/{}",
            part(self.main),
            part(self.increment),
            part(self.extension)
        )
    }
}

impl Reading {
    /// Reads a board block's clock: `00:58,1:0//00:10,1:0` (left, moves made; increment;
    /// extension).
    pub(crate) fn parse(text: &str) -> Option<Reading> {
        let [(left, count), (inc, _), (ext, _)] = parts(text)?;
        let moves = count
            .trim_start_matches(['N', 'n'])
            .split(':')
            .next()
            .and_then(|m| m.parse().ok())
            .unwrap_or(0);
        let optional = |t: &str| {
            if t.trim().is_empty() {
                Some(Duration::ZERO)
            } else {
                duration(t)
            }
        };
        Some(Reading {
            left: duration(left)?,
            moves,
            increment: optional(inc)?,
            extension: optional(ext)?,
        })
    }
}

/// Tells the core's clocks what the server's say for `color`: in main time, the time
/// left with the increment (the extension is not counted on: it is what keeps a late game
/// from a loss); in the extension, what is left of it. `reserve` is taken off for the
/// messages' time on the way, which the server's clock counts and the engine's does not.
pub(crate) fn tell(
    clocks: &mut GameClocks,
    color: Color,
    reading: &Reading,
    main: Duration,
    reserve: Duration,
) {
    if clocks.current(color).is_none() {
        clocks.set_control(TimeControl {
            main,
            byoyomi: Duration::ZERO,
            stones: 0,
        });
    }
    clocks.set_increment(reading.increment);
    clocks.set_left(
        color,
        TimeLeft {
            time: reading
                .left
                .saturating_sub(reserve)
                .max(Duration::from_millis(10)),
            stones: 0,
        },
    );
}

#[cfg(test)]
mod tests {
    use super::*;

    const fn secs(s: u64) -> Duration {
        Duration::from_secs(s)
    }

    #[test]
    fn settings_and_readings_read_as_the_server_writes_them() {
        let s = Setting::parse("01:00//00:10").unwrap();
        assert_eq!(
            (s.main, s.increment, s.extension),
            (secs(60), secs(0), secs(10))
        );
        assert_eq!(s.text(), "01:00//00:10");
        let s = Setting::parse("1:02:03/00:02").unwrap();
        assert_eq!((s.main, s.increment), (secs(3723), secs(2)));
        assert_eq!(Setting::parse("5").unwrap().main, secs(5));
        for bad in ["", "xx:yy", "1/2/3/4", "1:a", "99999999999999999"] {
            assert!(Setting::parse(bad).is_none() || bad.is_empty(), "{bad}");
        }
        let r = Reading::parse("00:58,1:0//00:10,1:0").unwrap();
        assert_eq!((r.left, r.moves, r.extension), (secs(58), 1, secs(10)));
        let r = Reading::parse("-00:01,N12:0/00:02,12:1/00:05,12:0").unwrap();
        assert_eq!((r.left, r.moves, r.increment), (secs(0), 12, secs(2)));
        assert!(Reading::parse("soon").is_none());
    }

    #[test]
    fn the_core_is_told_main_time_less_the_reserve() {
        let mut clocks = GameClocks::default();
        let r = Reading::parse("00:30,3:0/00:01/00:10,3:0").unwrap();
        tell(&mut clocks, Color::White, &r, secs(60), secs(2));
        let clock = clocks.for_search(Color::White, None).unwrap();
        assert_eq!((clock.remaining, clock.increment), (secs(28), secs(1)));
    }
}
