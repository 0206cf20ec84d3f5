//! Game records in GGF, the Generic Game Format of the Othello servers and of NBoard:
//! `(;GM[Othello]PB[..]PW[..]RE[..]TY[8]BO[8 <board> *]B[F5//0.12]W[..];)`.

use std::time::{Duration, SystemTime, UNIX_EPOCH};

use crate::board::{Color, Move, Position};

/// One move of a record, with the time it took when known.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RecordedMove {
    /// The move.
    pub mv: Move,
    /// Thinking time.
    pub elapsed: Option<Duration>,
}

/// What a GGF record says about a game.
pub struct GgfGame<'a> {
    /// The position the moves start from.
    pub start: &'a Position,
    /// The moves, passes included.
    pub moves: &'a [RecordedMove],
    /// Black's and White's names.
    pub names: [&'a str; 2],
    /// The game clock per side, if any.
    pub clock: Option<Duration>,
    /// The `RE[]` value: Black's disc margin (`+12`, `-4`, `0`), with `:t` or `:r` for
    /// games lost on time or otherwise; `?` while the game runs.
    pub result: String,
}

/// GGF board characters: `*` Black, `O` White, `-` empty, then the side to move.
fn board(position: &Position) -> String {
    let squares: String = (0..position.size() * position.size())
        .map(|i| match position.disc(i) {
            Some(Color::Black) => '*',
            Some(Color::White) => 'O',
            None => '-',
        })
        .collect();
    let side = match position.to_move {
        Color::Black => '*',
        Color::White => 'O',
    };
    format!("{} {squares} {side}", position.size())
}

/// A clock as GGF writes it: `minutes:seconds`.
fn clock(duration: Duration) -> String {
    let secs = duration.as_secs();
    format!("{}:{:02}", secs / 60, secs % 60)
}

/// Characters GGF cannot hold inside a property value.
fn clean(text: &str) -> String {
    text.chars()
        .map(|c| if matches!(c, '[' | ']') { '_' } else { c })
        .collect()
}

/// The record on one line.
pub fn write(game: &GgfGame) -> String {
    let mut out = format!(
        "(;GM[Othello]PC[emilia match]DT[{}]PB[{}]PW[{}]RE[{}]",
        utc_now(),
        clean(game.names[0]),
        clean(game.names[1]),
        game.result
    );
    if let Some(c) = game.clock {
        out.push_str(&format!("TI[{}]", clock(c)));
    }
    out.push_str(&format!(
        "TY[{}]BO[{}]",
        game.start.size(),
        board(game.start)
    ));
    let mut color = game.start.to_move;
    for m in game.moves {
        let mv = match m.mv {
            Move::Pass => "PA".to_string(),
            Move::Play(sq) => sq.to_string().to_uppercase(),
        };
        let time = m
            .elapsed
            .map_or(String::new(), |t| format!("//{:.2}", t.as_secs_f64()));
        out.push_str(&format!("{}[{mv}{time}]", color.initial()));
        color = color.opponent();
    }
    out.push_str(";)");
    out
}

/// The current time in UTC as `YYYY-MM-DD HH:MM:SS GMT`, as NBoard writes it.
pub fn utc_now() -> String {
    let secs = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_secs());
    utc(secs)
}

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

    #[test]
    fn dates_are_civil_utc() {
        assert_eq!(utc(0), "1970-01-01 00:00:00 GMT");
        // 2000-02-29 (a leap day) 12:34:56.
        assert_eq!(utc(951_827_696), "2000-02-29 12:34:56 GMT");
        assert_eq!(utc(1_700_000_000), "2023-11-14 22:13:20 GMT");
    }

    #[test]
    fn records_carry_board_moves_and_times() {
        let start = Position::start(8).unwrap();
        let moves = [
            RecordedMove {
                mv: "f5".parse().unwrap(),
                elapsed: Some(Duration::from_millis(1234)),
            },
            RecordedMove {
                mv: "d6".parse().unwrap(),
                elapsed: None,
            },
        ];
        let text = write(&GgfGame {
            start: &start,
            moves: &moves,
            names: ["a[1]", "b"],
            clock: Some(Duration::from_secs(300)),
            result: "?".to_string(),
        });
        assert!(
            text.starts_with("(;GM[Othello]PC[emilia match]DT["),
            "{text}"
        );
        assert!(
            text.ends_with(
                "PB[a_1_]PW[b]RE[?]TI[5:00]TY[8]BO[8 ---------------------------O*------*O\
                 --------------------------- *]B[F5//1.23]W[D6];)"
            ),
            "{text}"
        );
    }
}
