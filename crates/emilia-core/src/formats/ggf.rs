//! Game records in GGF (Generic Game Format), as the NBoard GUI and the GGS server write
//! them: `(;GM[Othello]…TI[5:00]BO[8 <squares> *]B[F5/1.00/2.5]W[PA]…;)`. Read into a
//! [`Game`] by [`parse`]; written from a [`GgfRecord`] by [`write`](fn@write), or from a [`Game`] by
//! [`write_game`].
//!
//! Properties read: `BO` (board size, squares in `*`/`O`/`-`, side to move), `B`/`W`
//! (moves with optional `/eval/seconds`, `PA` for a pass), `TI`/`TB`/`TW` (clocks as
//! `[[h:]m:]s[/increment[/extension]]`), `PB`/`PW` (names), `GM` (must be Othello when
//! present). Others are skipped. Written: `GM`, `PC`, `DT` (UTC, as NBoard writes it),
//! `PB`, `PW`, `RE`, the clocks, `TY`, `BO` and the moves.

use std::fmt;
use std::time::Duration;

use crate::board::{Color, Move, Position};
use crate::game::{ClockSetting, Game};

/// Why a GGF text could not be read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GgfError(pub String);

impl fmt::Display for GgfError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "GGF: {}", self.0)
    }
}

impl std::error::Error for GgfError {}

fn error<T>(message: impl Into<String>) -> Result<T, GgfError> {
    Err(GgfError(message.into()))
}

/// Whether `text` looks like a GGF game rather than a transcript.
pub fn is_ggf(text: &str) -> bool {
    text.trim_start().starts_with("(;")
}

/// Reads the first game of a GGF text into a game record.
pub fn parse(text: &str) -> Result<Game, GgfError> {
    let body = text
        .trim_start()
        .strip_prefix("(;")
        .ok_or_else(|| GgfError("a game starts with '(;'".into()))?;
    let properties = properties(body)?;
    let board = match properties.iter().find(|(key, _)| key == "BO") {
        Some((_, value)) => parse_board(value)?,
        None => Position::start(8).expect("8x8 is supported"),
    };
    let mut game = Game::new(board);
    let mut clock_all = None;
    let mut clocks = [None, None];
    for (ply_index, (key, value)) in properties.iter().enumerate() {
        match key.as_str() {
            "GM" if !value.trim().eq_ignore_ascii_case("othello") => {
                return error(format!("game type GM[{value}] is not Othello"));
            }
            "PB" => game.black = value.trim().to_string(),
            "PW" => game.white = value.trim().to_string(),
            "TI" => clock_all = Some(parse_clock(value)?),
            "TB" => clocks[0] = Some(parse_clock(value)?),
            "TW" => clocks[1] = Some(parse_clock(value)?),
            "B" | "W" => {
                let color = if key == "B" {
                    Color::Black
                } else {
                    Color::White
                };
                let (mv, eval, seconds) = parse_move(value)?;
                game.play_as_annotated(color, mv, eval, seconds)
                    .map_err(|e| {
                        GgfError(format!("{key}[{value}] (property {}): {e}", ply_index + 1))
                    })?;
            }
            _ => {}
        }
    }
    game.clocks = [clocks[0].or(clock_all), clocks[1].or(clock_all)];
    Ok(game)
}

/// The `KEY[value]` pairs of a game body, up to its closing `;)`.
fn properties(body: &str) -> Result<Vec<(String, String)>, GgfError> {
    let mut out = Vec::new();
    let mut chars = body.char_indices().peekable();
    loop {
        while chars.peek().is_some_and(|(_, c)| c.is_whitespace()) {
            chars.next();
        }
        let Some(&(start, c)) = chars.peek() else {
            return error("the game does not end with ';)'");
        };
        if c == ';' {
            chars.next();
            while chars.peek().is_some_and(|(_, c)| c.is_whitespace()) {
                chars.next();
            }
            return match chars.next() {
                Some((_, ')')) => Ok(out),
                _ => error("the game does not end with ';)'"),
            };
        }
        if !c.is_ascii_uppercase() {
            return error(format!(
                "expected a property name (capital letters) at character {}, found {c:?}",
                start + 1
            ));
        }
        let mut key = String::new();
        while let Some(&(_, c)) = chars.peek() {
            if !c.is_ascii_uppercase() {
                break;
            }
            key.push(c);
            chars.next();
        }
        if key.len() > 8 {
            return error(format!("property name {key} is too long"));
        }
        match chars.next() {
            Some((_, '[')) => {}
            _ => return error(format!("property {key} has no '[value]'")),
        }
        let mut value = String::new();
        loop {
            match chars.next() {
                Some((_, ']')) => break,
                Some((_, '\\')) => {
                    if let Some((_, c)) = chars.next() {
                        value.push(c);
                    }
                }
                Some((_, c)) => value.push(c),
                None => return error(format!("property {key}[ is not closed with ']'")),
            }
        }
        out.push((key, value));
    }
}

/// `BO[8 <squares, possibly in rows> <side>]`.
fn parse_board(value: &str) -> Result<Position, GgfError> {
    let words: Vec<&str> = value.split_whitespace().collect();
    let (Some(size), Some(side)) = (words.first(), words.last()) else {
        return error("BO[] is empty");
    };
    if words.len() < 3 {
        return error(format!(
            "BO[{value}] needs a size, the squares and the side to move"
        ));
    }
    let size: usize = size
        .parse()
        .map_err(|_| GgfError(format!("board size '{size}' in BO is not a number")))?;
    let squares: String = words[1..words.len() - 1].concat();
    if squares.chars().count() != size * size {
        return error(format!(
            "BO says size {size} but has {} squares, not {}",
            squares.chars().count(),
            size * size
        ));
    }
    Position::from_parts(&squares, side).map_err(|e| GgfError(format!("BO: {e}")))
}

/// `F5`, `PA`, `F5/1.00`, `F5//2.5`, `F5/1.00/2.5`.
fn parse_move(value: &str) -> Result<(Move, Option<f64>, Option<f64>), GgfError> {
    let mut parts = value.split('/');
    let mv_text = parts.next().unwrap_or("").trim();
    let mv: Move = mv_text
        .parse()
        .map_err(|e| GgfError(format!("move [{value}]: {e}")))?;
    let number = |text: Option<&str>, what: &str| -> Result<Option<f64>, GgfError> {
        match text.map(str::trim) {
            None | Some("") => Ok(None),
            Some(t) => t
                .parse::<f64>()
                .ok()
                .filter(|x| x.is_finite())
                .map(Some)
                .ok_or_else(|| GgfError(format!("move [{value}]: {what} '{t}' is not a number"))),
        }
    };
    let eval = number(parts.next(), "evaluation")?;
    let seconds = number(parts.next(), "time")?;
    Ok((mv, eval, seconds))
}

/// `[[h:]m:]s[/increment[/extension]]`; the extension is ignored.
fn parse_clock(value: &str) -> Result<ClockSetting, GgfError> {
    let mut parts = value.split('/');
    let main = parse_time(parts.next().unwrap_or(""))?;
    let increment = match parts.next() {
        Some(text) if !text.trim().is_empty() => parse_time(text)?,
        _ => Duration::ZERO,
    };
    Ok(ClockSetting { main, increment })
}

fn parse_time(text: &str) -> Result<Duration, GgfError> {
    let text = text.trim();
    let fields: Vec<&str> = text.split(':').collect();
    if fields.len() > 3 || text.is_empty() {
        return error(format!("clock '{text}' is not [[h:]m:]s"));
    }
    let mut seconds = 0.0;
    for field in fields {
        let value: f64 = field
            .trim()
            .parse()
            .ok()
            .filter(|v: &f64| v.is_finite() && *v >= 0.0)
            .ok_or_else(|| GgfError(format!("clock '{text}' is not [[h:]m:]s")))?;
        seconds = seconds * 60.0 + value;
    }
    Ok(Duration::from_secs_f64(seconds.min(1e9)))
}

/// One move of a record, with the evaluation (discs, mover's view) and the seconds it took
/// when known.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct GgfMove {
    /// The move, or `Move::Pass`.
    pub mv: Move,
    /// The mover's evaluation, in discs.
    pub eval: Option<f64>,
    /// Thinking time, in seconds.
    pub seconds: Option<f64>,
}

/// What a GGF record says about a game.
#[derive(Clone, Debug)]
pub struct GgfRecord<'a> {
    /// Where the game was played (`PC`).
    pub place: &'a str,
    /// Black's and White's names.
    pub names: [&'a str; 2],
    /// The result (`RE`): Black's disc margin as [`result`] writes it, with `:t` or `:r`
    /// for games lost on time or otherwise; `?` while the game runs.
    pub result: String,
    /// Black's and White's clocks, if the game is timed.
    pub clocks: [Option<ClockSetting>; 2],
    /// The position the moves start from.
    pub start: &'a Position,
    /// The moves, passes included, the side to move first.
    pub moves: Vec<GgfMove>,
}

/// The `RE` value of a game Black won by `margin` discs (lost, when negative): `+12`,
/// `-4`, `0`.
pub fn result(margin: i32) -> String {
    if margin == 0 {
        "0".to_string()
    } else {
        format!("{margin:+}")
    }
}

/// The record on one line.
pub fn write(record: &GgfRecord) -> String {
    let mut out = format!(
        "(;GM[Othello]PC[{}]DT[{}]PB[{}]PW[{}]RE[{}]",
        value_text(record.place),
        utc(now_seconds()),
        value_text(record.names[0]),
        value_text(record.names[1]),
        record.result
    );
    match record.clocks {
        [Some(b), Some(w)] if b == w => out.push_str(&format!("TI[{}]", clock_text(b))),
        [b, w] => {
            if let Some(b) = b {
                out.push_str(&format!("TB[{}]", clock_text(b)));
            }
            if let Some(w) = w {
                out.push_str(&format!("TW[{}]", clock_text(w)));
            }
        }
    }
    let start = record.start;
    out.push_str(&format!("TY[{}]BO[{}]", start.size(), board_text(start)));
    let mut color = start.to_move;
    for m in &record.moves {
        out.push_str(&format!("{}[{}", color.initial(), move_text(m.mv)));
        if m.eval.is_some() || m.seconds.is_some() {
            out.push('/');
            if let Some(e) = m.eval {
                out.push_str(&format!("{e:.2}"));
            }
            if let Some(s) = m.seconds {
                out.push_str(&format!("/{s:.2}"));
            }
        }
        out.push(']');
        color = color.opponent();
    }
    out.push_str(";)");
    out
}

/// `game` as a GGF record played at `place`, with its names, clocks, evaluations and
/// times, and its result once over.
pub fn write_game(game: &Game, place: &str) -> String {
    let outcome = if game.is_over() {
        result(game.score_for_black())
    } else {
        "?".to_string()
    };
    write_game_with_result(game, place, outcome)
}

/// [`write_game`] with the result as given (`RE`), for a game whose result was decided
/// elsewhere, such as by a server (a timeout, a resignation).
pub fn write_game_with_result(game: &Game, place: &str, result: String) -> String {
    write(&GgfRecord {
        place,
        names: [&game.black, &game.white],
        result,
        clocks: game.clocks,
        start: game.start(),
        moves: game
            .plies()
            .iter()
            .map(|p| GgfMove {
                mv: p.mv,
                eval: p.eval,
                seconds: p.seconds,
            })
            .collect(),
    })
}

/// A move as GGF writes it: `F5`, or `PA` for a pass.
fn move_text(mv: Move) -> String {
    match mv {
        Move::Pass => "PA".to_string(),
        Move::Play(sq) => sq.to_string().to_ascii_uppercase(),
    }
}

/// The board as `BO` holds it: the size, the squares (`*` Black, `O` White, `-` empty),
/// the side to move.
fn board_text(position: &Position) -> String {
    let disc = |color| match color {
        Color::Black => '*',
        Color::White => 'O',
    };
    let squares: String = (0..position.size() * position.size())
        .map(|i| position.disc(i).map_or('-', disc))
        .collect();
    format!("{} {squares} {}", position.size(), disc(position.to_move))
}

/// A clock as GGF writes it: `m:ss` main time, then `/m:ss` increment when there is one;
/// seconds keep their fraction when they have one (`0:00.05`).
fn clock_text(clock: ClockSetting) -> String {
    let time = |d: Duration| {
        let s = d.as_secs();
        let fraction = format!("{:.3}", f64::from(d.subsec_millis()) / 1000.0);
        let fraction = fraction[1..].trim_end_matches('0').trim_end_matches('.');
        format!("{}:{:02}{fraction}", s / 60, s % 60)
    };
    if clock.increment.is_zero() {
        time(clock.main)
    } else {
        format!("{}/{}", time(clock.main), time(clock.increment))
    }
}

/// Text safe inside a property value: brackets and backslashes become `_`, control
/// characters go.
fn value_text(text: &str) -> String {
    text.chars()
        .filter(|c| !c.is_control())
        .map(|c| {
            if matches!(c, '[' | ']' | '\\') {
                '_'
            } else {
                c
            }
        })
        .collect()
}

/// The date and time now, as GGF's `DT` writes it (`2025-11-22 13:30:34 GMT`).
pub fn now_utc() -> String {
    utc(now_seconds())
}

fn now_seconds() -> u64 {
    crate::platform::unix_seconds()
}

/// `secs` after 1970 in UTC as `YYYY-MM-DD HH:MM:SS GMT`, as NBoard writes dates.
fn utc(secs: u64) -> String {
    let days = (secs / 86_400) as i64;
    let rem = secs % 86_400;
    // Civil date from days since 1970-01-01 (Howard Hinnant's algorithm).
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    format!(
        "{year:04}-{month:02}-{day:02} {:02}:{:02}:{:02} GMT",
        rem / 3600,
        rem % 3600 / 60,
        rem % 60
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    const NBOARD: &str = "(;GM[Othello]PC[NBoard]DT[2026-11-22 10:41:56 GMT]PB[Mini4]PW[]\
        RE[?]TI[5:00]TY[8]BO[8 ---------------------------O*------*O--------------------------- *]\
        B[E6/1.00];)";

    #[test]
    fn reads_nboard_games() {
        let game = parse(NBOARD).unwrap();
        assert_eq!(game.transcript(), "e6");
        assert_eq!(game.plies()[0].eval, Some(1.0));
        assert_eq!(game.black, "Mini4");
        assert_eq!(
            game.clock(Color::White).unwrap().main,
            Duration::from_secs(300)
        );
        assert_eq!(game.position().to_move, Color::White);
    }

    #[test]
    fn round_trips_through_writing() {
        let mut game = parse(NBOARD).unwrap();
        game.play_annotated("f4".parse().unwrap(), None, Some(1.5))
            .unwrap();
        let again = parse(&write_game(&game, "Emilia")).unwrap();
        assert_eq!(again.transcript(), "e6f4");
        assert_eq!(again.positions(), game.positions());
        assert_eq!(again.plies()[1].seconds, Some(1.5));
    }

    #[test]
    fn reads_rows_passes_and_clock_forms() {
        // White to move with no move: an explicit pass, then Black's c1.
        let rows = "XO------ -------- -------- -------- -------- -------- -------- --------";
        let text = format!("(;GM[Othello]TB[1:00:00]TW[30/5]BO[8 {rows} O]W[PA]B[c1//0.25];)");
        let game = parse(&text).unwrap();
        assert_eq!(game.plies().len(), 2);
        assert_eq!(game.plies()[0].mv, Move::Pass);
        assert!(game.is_over());
        assert_eq!(
            game.clock(Color::Black).unwrap().main,
            Duration::from_secs(3600)
        );
        assert_eq!(
            game.clock(Color::White).unwrap().increment,
            Duration::from_secs(5)
        );
    }

    #[test]
    fn dates_are_civil_utc() {
        assert_eq!(utc(0), "1970-01-01 00:00:00 GMT");
        // 2000-02-29 (a leap day) 12:34:56.
        assert_eq!(utc(951_827_696), "2000-02-29 12:34:56 GMT");
        assert_eq!(utc(1_700_000_000), "2023-11-14 22:13:20 GMT");
    }

    #[test]
    fn records_carry_board_moves_evaluations_and_times() {
        let start = Position::start(8).unwrap();
        let clock = ClockSetting {
            main: Duration::from_secs(300),
            increment: Duration::ZERO,
        };
        let text = write(&GgfRecord {
            place: "emilia match",
            names: ["a[1]", "b"],
            result: "?".to_string(),
            clocks: [Some(clock); 2],
            start: &start,
            moves: vec![
                GgfMove {
                    mv: "f5".parse().unwrap(),
                    eval: None,
                    seconds: Some(1.234),
                },
                GgfMove {
                    mv: "d6".parse().unwrap(),
                    eval: Some(0.5),
                    seconds: None,
                },
                GgfMove {
                    mv: Move::Pass,
                    eval: None,
                    seconds: None,
                },
            ],
        });
        assert!(
            text.starts_with("(;GM[Othello]PC[emilia match]DT["),
            "{text}"
        );
        assert!(
            text.ends_with(
                "PB[a_1_]PW[b]RE[?]TI[5:00]TY[8]BO[8 ---------------------------O*------*O\
                 --------------------------- *]B[F5//1.23]W[D6/0.50]B[PA];)"
            ),
            "{text}"
        );
    }

    #[test]
    fn games_write_their_clocks_and_result() {
        let mut game = Game::standard(8).unwrap();
        game.clocks = [Some(ClockSetting {
            main: Duration::from_secs(60),
            increment: Duration::from_secs(1),
        }); 2];
        game.play_annotated("f5".parse().unwrap(), Some(0.5), Some(10.0))
            .unwrap();
        let text = write_game(&game, "Emilia");
        assert!(text.contains("PC[Emilia]"), "{text}");
        assert!(text.contains("RE[?]TI[1:00/0:01]"), "{text}");
        assert!(text.contains("B[F5/0.50/10.00]"), "{text}");
        let fast = ClockSetting {
            main: Duration::from_secs(4),
            increment: Duration::from_millis(50),
        };
        assert_eq!(clock_text(fast), "0:04/0:00.05");
        assert_eq!(parse_clock("0:04/0:00.05"), Ok(fast));
        assert_eq!(result(12), "+12");
        assert_eq!(result(-4), "-4");
        assert_eq!(result(0), "0");
    }

    #[test]
    fn malformed_games_say_what_is_wrong() {
        let cases = [
            ("", "starts with"),
            ("(;GM[Othello]", "does not end"),
            ("(;GM[Chess];)", "not Othello"),
            ("(;BO[8 --- *];)", "squares"),
            ("(;BO[8];)", "needs a size"),
            ("(;B[F5/x];)", "not a number"),
            ("(;B[Z9];)", "off the board"),
            ("(;B[A1];)", "no discs to flip"),
            ("(;W[F5];)", "wrong side"),
            ("(;TI[5:xx];)", "clock"),
            ("(;GM[Othello;)", "not closed"),
            ("(;gm[x];)", "property name"),
        ];
        for (text, expected) in cases {
            let message = parse(text).unwrap_err().to_string();
            assert!(message.contains(expected), "{text}: {message}");
        }
    }
}
