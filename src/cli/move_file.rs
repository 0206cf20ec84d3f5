//! `emilia move`: one move on a board file, as referees that pass files between players do.
//! The position after the move goes to the file whose name has the trailing number
//! incremented (`game-07` → `game-08`); the move goes to stdout.

use anyhow::{anyhow, bail, Context, Result};
use std::path::{Path, PathBuf};
use std::time::Duration;

use super::Args;
use crate::board::{Color, Move, Position, SIZES};
use crate::engine::{Engine, Limits};
use crate::protocol::timing::search_within;

const HELP: &str = "\
Usage: emilia move <board-file> <black|white> <seconds>

Reads the position in <board-file>, plays the best move Emilia finds for the given colour
within <seconds>, prints the move (or 'pass') on stdout, and writes the position after it
to the same file name with its last number incremented: game-07 -> game-08,
board9.txt -> board10.txt.

Board files: one row per line, top row (row 1) first, one character per square:
X (Black), O (White), - (empty); '*' and '.' are read as X and empty too. Spaces are
ignored, and so are empty lines and anything after '#'. Any size Emilia plays (6, 8, 10,
12) is accepted; the file written has the same size and format, without comments.
A game that is already over is an error (exit code 2) and writes nothing.
";

/// Runs `emilia move`.
pub fn run(args: &[String]) -> Result<()> {
    let args = Args::parse(args, &[])?;
    if args.flag("help") {
        print!("{HELP}");
        return Ok(());
    }
    args.reject_unknown_flags(&[])?;
    let [file, color, seconds] = args.positional.as_slice() else {
        bail!("expected a board file, a colour and seconds\n\n{HELP}");
    };
    let color: Color = color.parse()?;
    let seconds: f64 = seconds
        .parse()
        .ok()
        .filter(|s: &f64| s.is_finite() && *s > 0.0 && *s < 1e6)
        .ok_or_else(|| anyhow!("'{seconds}' is not a positive number of seconds"))?;
    let path = Path::new(file);
    let next = next_name(path)?;
    let text = std::fs::read_to_string(path).with_context(|| format!("reading {file}"))?;
    let position = read_board(&text, color).with_context(|| format!("reading {file}"))?;
    let (mv, after) = choose(&position, Duration::from_secs_f64(seconds))?;
    std::fs::write(&next, write_board(&after))
        .with_context(|| format!("writing {}", next.display()))?;
    println!("{mv}");
    Ok(())
}

/// Picks the move within `time` (less a reserve for starting and writing) and returns it
/// with the position after it.
fn choose(position: &Position, time: Duration) -> Result<(Move, Position)> {
    if position.is_game_over() {
        bail!("the game is over: neither side can move");
    }
    if position.legal_moves() == [Move::Pass] {
        return Ok((Move::Pass, position.play(Move::Pass)?));
    }
    let reserve = (time / 10).min(Duration::from_millis(200)) + Duration::from_millis(5);
    let limits = Limits {
        move_time: Some(time.saturating_sub(reserve).max(Duration::from_millis(1))),
        ..Limits::default()
    };
    let mut engine = Engine::new();
    if let Err(e) = engine.set_option("book", "on") {
        log::error!("{e:#}");
    }
    let report = search_within(&mut engine, position, &limits, &mut |_| {});
    Ok((report.best, position.play(report.best)?))
}

/// Reads a board file (see the help) with `to_move` to play.
pub fn read_board(text: &str, to_move: Color) -> Result<Position> {
    let squares: String = text
        .lines()
        .map(|l| l.split('#').next().unwrap_or(""))
        .flat_map(|l| l.chars().filter(|c| !c.is_whitespace()))
        .collect();
    let count = squares.chars().count();
    if !SIZES.iter().any(|s| s * s == count) {
        bail!(
            "the board has {count} squares: expected 36, 64, 100 or 144 \
             (rows of X, O and -)"
        );
    }
    let side = to_move.disc_char().to_string();
    Ok(Position::from_parts(&squares, &side)?)
}

/// Writes a board file: one row per line.
pub fn write_board(position: &Position) -> String {
    let size = position.size();
    let squares: Vec<char> = position.squares_string().chars().collect();
    squares
        .chunks(size)
        .map(|row| row.iter().collect::<String>() + "\n")
        .collect()
}

/// The file name with its last number incremented, keeping its width: `game-07` →
/// `game-08`, `game-99` → `game-100`.
pub fn next_name(path: &Path) -> Result<PathBuf> {
    let name = path
        .file_name()
        .and_then(|n| n.to_str())
        .ok_or_else(|| anyhow!("'{}' is not a file name", path.display()))?;
    let end = name
        .rfind(|c: char| c.is_ascii_digit())
        .map(|i| i + 1)
        .ok_or_else(|| {
            anyhow!("the board file name '{name}' has no number to increment (like game-07)")
        })?;
    let start = name[..end]
        .rfind(|c: char| !c.is_ascii_digit())
        .map_or(0, |i| i + 1);
    let digits = &name[start..end];
    let number: u128 = digits
        .parse()
        .map_err(|_| anyhow!("the number in '{name}' is too large"))?;
    let next = format!("{:0width$}", number + 1, width = digits.len());
    Ok(path.with_file_name(format!("{}{next}{}", &name[..start], &name[end..])))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_count_up_keeping_their_width() {
        let next = |s: &str| next_name(Path::new(s)).unwrap().display().to_string();
        assert_eq!(next("game-07"), "game-08");
        assert_eq!(next("game-09"), "game-10");
        assert_eq!(next("game-99"), "game-100");
        assert_eq!(next("dir/board9.txt"), "dir/board10.txt");
        assert_eq!(next("7"), "8");
        assert!(next_name(Path::new("game")).is_err());
    }

    #[test]
    fn boards_read_and_write() {
        let start = Position::start(8).unwrap();
        let text = write_board(&start);
        assert_eq!(text.lines().count(), 8);
        assert_eq!(text.lines().nth(3), Some("---OX---"));
        assert_eq!(read_board(&text, Color::Black).unwrap(), start);
        let commented = format!("# a comment\n\n{}", text.replace('-', " . "));
        assert_eq!(read_board(&commented, Color::Black).unwrap(), start);
        let message = read_board("XO-", Color::Black).unwrap_err().to_string();
        assert!(message.contains("3 squares"), "{message}");
        assert!(read_board(&text.replace("OX", "OZ"), Color::Black).is_err());
    }

    #[test]
    fn passes_and_refuses_finished_games() {
        let mut squares = vec!['-'; 64];
        squares[0] = 'X';
        squares[1] = 'O';
        let board: String = squares.iter().collect();
        let white = Position::from_parts(&board, "O").unwrap();
        let (mv, after) = choose(&white, Duration::from_millis(50)).unwrap();
        assert_eq!(mv, Move::Pass);
        assert_eq!(after.to_move, Color::Black);
        let (mv, after) = choose(&after, Duration::from_millis(50)).unwrap();
        assert_eq!(mv.to_string(), "c1");
        assert!(choose(&after, Duration::from_millis(50)).is_err());
    }
}
