//! Reading games in GGF (Generic Game Format), as the NBoard GUI and the GGS server write
//! them: `(;GM[Othello]…TI[5:00]BO[8 <squares> *]B[F5/1.00/2.5]W[PA]…;)`.
//!
//! Properties read: `BO` (board size, squares in `*`/`O`/`-`, side to move), `B`/`W`
//! (moves with optional `/eval/seconds`, `PA` for a pass), `TI`/`TB`/`TW` (clocks as
//! `[[h:]m:]s[/increment[/extension]]`), `PB`/`PW` (names), `GM` (must be Othello when
//! present). Others are skipped. Writing is [`Game::to_ggf`].

use std::fmt;
use std::time::Duration;

use crate::board::{Color, Move, Position};
use crate::game::{Game, TimeControl};

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
fn parse_clock(value: &str) -> Result<TimeControl, GgfError> {
    let mut parts = value.split('/');
    let main = parse_time(parts.next().unwrap_or(""))?;
    let increment = match parts.next() {
        Some(text) if !text.trim().is_empty() => parse_time(text)?,
        _ => Duration::ZERO,
    };
    Ok(TimeControl { main, increment })
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
        let again = parse(&game.to_ggf()).unwrap();
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
