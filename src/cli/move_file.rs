//! `emilia move`: one move on a board file, as referees that pass files between players do.
//! The position after the move goes to the file whose name has the trailing number
//! incremented (`game-07` → `game-08`); the move goes to stdout.

use anyhow::{anyhow, bail, Context, Result};
use emilia_core::files::FileError;
use std::fs::{self, OpenOptions};
use std::io::{ErrorKind, Write};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use super::args::Args;
use super::output::{out, outln};
use emilia_core::board::{BoardSize, Color, Move, Position};
use emilia_core::engine::Engine;
use emilia_core::search::{time, Limits};

const HELP: &str = "\
Usage: emilia move <board-file> <black|white> <seconds> [--force] [--threads N]

Reads the position in <board-file>, plays the best move Emilia finds for the given colour
within <seconds> (counted from the start of the process, with search tables of 32 MiB per
second, 2 to 64 MiB, unless --hash is given), prints the move (or 'pass') on
stdout, and writes the position after it to the same file name with its last number
incremented: game-07 -> game-08, board9.txt -> board10.txt.

The next file must not exist: an existing one is replaced only with --force, and a
symbolic link never (neither the link nor what it points to). The file is written under a
temporary name in the same directory, then renamed, so that it appears whole or not at
all. --threads N sets the search's threads, or all (the default).

Board files: one row per line, top row (row 1) first, one character per square, as many
rows as squares in a row:
X (Black), O (White), - (empty); '.' is read as empty too. '*' is refused: the boards
that showboard and play draw mark legal moves with it. Spaces are ignored, and so are empty lines and anything after '#'. Any size Emilia plays (6, 8, 10,
12) is accepted; the file written has the same size and format, without comments.
A game that is already over is an error (exit code 2) and writes nothing. So is a board
file larger than 64 KiB.
";

/// Runs `emilia move`; `started` is when the process started, from which the time is
/// counted, and `engine` makes the engine that plays.
pub(crate) fn run(
    args: &[String],
    started: Instant,
    engine: impl FnOnce(usize) -> Result<Engine>,
) -> Result<()> {
    let args = Args::parse(args, &[("threads", 1)])?;
    if args.flag("help") {
        out!("{HELP}")?;
        return Ok(());
    }
    args.reject_unknown_flags(&["force"])?;
    let [file, color, seconds] = args.positional.as_slice() else {
        bail!("expected a board file, a colour and seconds\n\n{HELP}");
    };
    let color: Color = color.parse()?;
    let seconds: f64 = seconds
        .parse()
        .ok()
        .filter(|s: &f64| s.is_finite() && *s > 0.0 && *s < 1e6)
        .ok_or_else(|| anyhow!("'{seconds}' is not a positive number of seconds"))?;
    let force = args.flag("force");
    let threads = args.value("threads");
    if let Some(threads) = threads {
        emilia_core::engine::check_option("threads", threads)?;
    }
    let engine = |mib| {
        let mut engine = engine(mib)?;
        if let Some(threads) = threads {
            engine.set_option("threads", threads)?;
        }
        Ok(engine)
    };
    let path = Path::new(file);
    let next = next_name(path)?;
    // Before the search: a file that may not be written must not cost the move's time.
    check_writable(&next, force)?;
    let deadline = started + Duration::from_secs_f64(seconds);
    let text = read_limited(path, deadline).with_context(|| format!("reading {file}"))?;
    let position = read_board(&text, color).with_context(|| format!("reading {file}"))?;
    let (mv, after) = choose(&position, deadline, || engine(table_mib(seconds)))?;
    write_new(&next, &write_board(&after), force)?;
    outln!("{mv}")?;
    Ok(())
}

/// Table memory per second of the move: more than one search fills (a few million positions
/// a second, 16 bytes each, share the tables), and what a short move's process can make and
/// touch cheaply.
const TABLE_MIB_PER_SECOND: f64 = 32.0;

/// The `hash` of a move of `seconds` (unless the options set it): the tables one search
/// can use, at least 2 MiB and at most the engine's default.
fn table_mib(seconds: f64) -> usize {
    ((seconds * TABLE_MIB_PER_SECOND) as usize).clamp(2, Engine::DEFAULT_HASH_MIB)
}

/// Reads a board file of at most 64 KiB ([`crate::files::BOARD`]), by `deadline`: a pipe (a FIFO,
/// `<(...)`) is read as it comes, and one with nothing more to give by then is refused
/// rather than waited on past the move's time. A FIFO that no writer has opened is empty.
fn read_limited(path: &Path, deadline: Instant) -> Result<String> {
    match emilia_core::files::read_text_by(path, crate::files::BOARD, deadline) {
        Err(FileError::Late(..)) => bail!("the board did not come within the move's time"),
        read => Ok(read?),
    }
}

/// Fails if `next` may not be written: it exists (without `force`) or is a symbolic link.
fn check_writable(next: &Path, force: bool) -> Result<()> {
    match fs::symlink_metadata(next) {
        Ok(meta) if meta.file_type().is_symlink() => bail!(
            "{} is a symbolic link: it is never replaced, nor what it points to",
            next.display()
        ),
        Ok(meta) if meta.is_dir() => bail!("{} is a directory", next.display()),
        Ok(_) if !force => bail!("{} exists: give --force to replace it", next.display()),
        _ => Ok(()),
    }
}

/// Writes `text` to `next` through a new temporary file in the same directory, renamed
/// into place: no link is followed, and a reader never sees half a board. An existing
/// file is replaced only with `force`; a symbolic link never.
fn write_new(next: &Path, text: &str, force: bool) -> Result<()> {
    check_writable(next, force)?;
    let name = next.file_name().and_then(|n| n.to_str()).unwrap_or("board");
    let temporary = next.with_file_name(format!(".{name}.{}.tmp", std::process::id()));
    let written = (|| -> Result<()> {
        // create_new: O_CREAT | O_EXCL, which never follows a link.
        let mut file = OpenOptions::new()
            .write(true)
            .create_new(true)
            .open(&temporary)
            .with_context(|| format!("creating {}", temporary.display()))?;
        file.write_all(text.as_bytes())?;
        if force {
            // The check above refused a link; rename replaces a name, never follows it.
            fs::rename(&temporary, next)?;
        } else {
            // A hard link fails if the name exists, even one made since the check.
            match fs::hard_link(&temporary, next) {
                Ok(()) => {}
                Err(e) if e.kind() == ErrorKind::AlreadyExists => {
                    bail!("{} exists: give --force to replace it", next.display())
                }
                // A file system without hard links: the check above has to do.
                Err(_) => fs::rename(&temporary, next)?,
            }
        }
        Ok(())
    })();
    let _ = fs::remove_file(&temporary);
    written.with_context(|| format!("writing {}", next.display()))
}

/// Picks the move by `deadline` (less a reserve for writing and ending) and returns it
/// with the position after it.
fn choose(
    position: &Position,
    deadline: Instant,
    engine: impl FnOnce() -> Result<Engine>,
) -> Result<(Move, Position)> {
    if position.is_game_over() {
        bail!("the game is over: neither side can move");
    }
    if position.legal_moves() == [Move::Pass] {
        return Ok((Move::Pass, position.play(Move::Pass)?));
    }
    let mut engine = engine()?;
    // What is left once the engine is ready, less a reserve for writing and exiting.
    let left = deadline.saturating_duration_since(Instant::now());
    let limits = Limits {
        move_time: Some(time::process_move_time(left)),
        ..Limits::default()
    };
    let report = engine.search(position, &limits, &mut |_| {});
    Ok((report.best, position.play(report.best)?))
}

/// Reads a board file (see the help) with `to_move` to play.
pub(crate) fn read_board(text: &str, to_move: Color) -> Result<Position> {
    let rows = text
        .lines()
        .map(|l| l.split('#').next().unwrap_or(""))
        .filter(|l| !l.trim().is_empty());
    for (row, line) in rows.enumerate() {
        if let Some(column) = line
            .chars()
            .filter(|c| !c.is_whitespace())
            .position(|c| c == '*')
        {
            bail!(
                "row {}, square {}: '*' is no disc: showboard and play draw it on a legal \
                 move, so it is refused here; write X for a black disc, - for an empty square",
                row + 1,
                column + 1
            );
        }
    }
    let rows: Vec<String> = text
        .lines()
        .map(|l| l.split('#').next().unwrap_or(""))
        .map(|l| l.chars().filter(|c| !c.is_whitespace()).collect::<String>())
        .filter(|row| !row.is_empty())
        .collect();
    let squares: String = rows.concat();
    let size = rows.len();
    if let Some((row, other)) = rows
        .iter()
        .enumerate()
        .find(|(_, r)| r.chars().count() != size)
    {
        let found = other.chars().count();
        bail!(
            "row {} has {found} squares and the board {size} rows: a board file is a whole \
             grid, as many squares in each row as there are rows (6, 8, 10 or 12 rows of X, O \
             and -)",
            row + 1
        );
    }
    BoardSize::new(size)
        .map_err(|e| anyhow!("the board has {size} rows of {size} squares: {e}"))?;
    let side = to_move.disc_char().to_string();
    Ok(Position::from_parts(&squares, &side)?)
}

/// Writes a board file: one row per line.
pub(crate) fn write_board(position: &Position) -> String {
    let size = position.size();
    let squares: Vec<char> = position.squares_string().chars().collect();
    squares
        .chunks(size)
        .map(|row| row.iter().collect::<String>() + "\n")
        .collect()
}

/// The file name with its last number incremented, keeping its width: `game-07` →
/// `game-08`, `game-99` → `game-100`.
pub(crate) fn next_name(path: &Path) -> Result<PathBuf> {
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
    let too_large = || anyhow!("the number in '{name}' is too large to count on from");
    let number: u128 = digits.parse().map_err(|_| too_large())?;
    let next = number.checked_add(1).ok_or_else(too_large)?;
    let next = format!("{next:0width$}", width = digits.len());
    Ok(path.with_file_name(format!("{}{next}{}", &name[..start], &name[end..])))
}

#[cfg(test)]
mod tests {
    use super::*;
    use emilia_core::Config;

    #[test]
    fn names_count_up_keeping_their_width() {
        let next = |s: &str| next_name(Path::new(s)).unwrap().display().to_string();
        assert_eq!(next("game-07"), "game-08");
        assert_eq!(next("game-09"), "game-10");
        assert_eq!(next("game-99"), "game-100");
        assert_eq!(next("dir/board9.txt"), "dir/board10.txt");
        assert_eq!(next("7"), "8");
        assert!(next_name(Path::new("game")).is_err());
        // The largest number that counts, and the first that does not (it wrapped to 0).
        let max = u128::MAX.to_string();
        let below = (u128::MAX - 1).to_string();
        assert_eq!(next(&format!("g-{below}")), format!("g-{max}"));
        for name in [format!("g-{max}"), format!("g-{max}9")] {
            let error = next_name(Path::new(&name)).unwrap_err().to_string();
            assert!(error.contains("too large"), "{error}");
        }
    }

    #[test]
    fn the_seconds_count_from_the_start_of_the_process() {
        // A process that started 200 s ago with 100 s for its move has no time left: it
        // plays at once (1 ms of search). Counting from anywhere later would search for
        // about 90 s. The bound is wide so that no load can make the test fail wrongly.
        let dir = std::env::temp_dir().join(format!("emilia-move-start-{}", std::process::id()));
        let _ = fs::remove_dir_all(&dir);
        fs::create_dir_all(&dir).unwrap();
        let first = dir.join("g-01");
        fs::write(&first, write_board(&Position::start(8).unwrap())).unwrap();
        let args = [first.display().to_string(), "black".into(), "100".into()];
        let started = Instant::now() - Duration::from_secs(200);
        let begun = Instant::now();
        run(&args, started, |mib| {
            Ok(Engine::new(Config {
                hash_mib: mib,
                ..Config::default()
            })
            .unwrap())
        })
        .unwrap();
        assert!(
            begun.elapsed() < Duration::from_secs(30),
            "{:?}",
            begun.elapsed()
        );
        let after = read_board(&fs::read_to_string(dir.join("g-02")).unwrap(), Color::White);
        assert_eq!(after.unwrap().board.counts().2, 59);
        let _ = fs::remove_dir_all(&dir);
    }

    #[test]
    fn tables_are_sized_for_the_time_given() {
        assert_eq!(table_mib(0.01), 2);
        assert_eq!(table_mib(0.5), 16);
        assert_eq!(table_mib(1e5), Engine::DEFAULT_HASH_MIB);
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
        // Rows copied from a drawing with its legal moves marked are refused, not read as
        // black discs.
        let marked = text.replacen("---OX---", "--*OX---", 1);
        let message = read_board(&marked, Color::Black).unwrap_err().to_string();
        assert!(
            message.starts_with("row 4, square 3: '*' is no disc"),
            "{message}"
        );
    }

    #[test]
    fn passes_and_refuses_finished_games() {
        let mut squares = vec!['-'; 64];
        squares[0] = 'X';
        squares[1] = 'O';
        let board: String = squares.iter().collect();
        let white = Position::from_parts(&board, "O").unwrap();
        let soon = || Instant::now() + Duration::from_millis(50);
        let engine = || Ok(Engine::new(Config::default()).unwrap());
        let (mv, after) = choose(&white, soon(), engine).unwrap();
        assert_eq!(mv, Move::Pass);
        assert_eq!(after.to_move, Color::Black);
        let (mv, after) = choose(&after, soon(), engine).unwrap();
        assert_eq!(mv.to_string(), "c1");
        assert!(choose(&after, soon(), engine).is_err());
    }
}
