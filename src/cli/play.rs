//! `emilia play`: a person against the engine at the terminal.

use anyhow::{anyhow, bail, Result};
use std::io::{BufRead, Write};
use std::time::Duration;

use super::args::Args;
use super::output::{out, Stdout};
use crate::protocol::diagram::diagram;
use emilia_core::board::{BoardSize, Color, Move, Position};
use emilia_core::engine::Engine;
use emilia_core::game::Game;
use emilia_core::search::Limits;

const HELP: &str = "\
Usage: emilia play [--size N] [--color black|white] [--time S] [--threads N]

Plays a game against Emilia. The board is drawn with legal moves marked '*'.
Type `help` in the game for its commands. A side with no legal move passes by itself.

  --size N         board side: 6, 8, 10 or 12 (default 8)
  --color C        your colour: black (moves first) or white (default black)
  --time S         Emilia's time per move in seconds (default 1)
  --threads N      Emilia's search threads, or all (default all)
";

/// The commands inside a game (`help` there shows them).
const IN_GAME_HELP: &str = "\
Type a move like f5, or:
  hint   Emilia's view of your best moves
  undo   take back your last move (and Emilia's reply)
  help   these commands
  quit   leave the game (it shows the moves so far)
A side with no legal move passes by itself.
";

/// What a game at the terminal is played with.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Settings {
    /// Board size.
    pub(crate) size: BoardSize,
    /// The person's colour.
    pub(crate) human: Color,
    /// The engine's time per move.
    pub(crate) move_time: Duration,
}

/// Runs `emilia play` against the engine `engine` makes.
pub(crate) fn run(args: &[String], engine: impl FnOnce() -> Result<Engine>) -> Result<()> {
    let args = Args::parse(
        args,
        &[
            ("size", 1),
            ("color", 1),
            ("colour", 1),
            ("time", 1),
            ("threads", 1),
        ],
    )?;
    if args.flag("help") {
        out!("{HELP}")?;
        return Ok(());
    }
    args.reject_unknown_flags(&[])?;
    if let Some(extra) = args.positional.first() {
        bail!("unexpected argument '{extra}'\n\n{HELP}");
    }
    let size = args.get("size", BoardSize::EIGHT)?;
    let human: Color = args
        .value("color")
        .or(args.value("colour"))
        .unwrap_or("black")
        .parse()
        .map_err(|e| anyhow!("--color: {e}"))?;
    let time = args.value("time").unwrap_or("1");
    let seconds = time
        .parse::<f64>()
        .ok()
        .filter(|s| s.is_finite() && *s > 0.0 && *s < 1e6)
        .ok_or_else(|| {
            anyhow!("--time {time}: expected Emilia's time a move, a positive number of seconds")
        })?;
    let settings = Settings {
        size,
        human,
        move_time: Duration::from_secs_f64(seconds),
    };
    let mut engine = engine()?;
    if let Some(threads) = args.value("threads") {
        engine.set_option("threads", threads)?;
    }
    let stdin = std::io::stdin();
    play_game(&mut engine, settings, stdin.lock(), Stdout)
}

/// Plays one game, reading the person's commands from `input` and drawing on `out`. Ends at
/// the end of the game, at `quit`, or at the end of the input.
pub(crate) fn play_game<R: BufRead, W: Write>(
    engine: &mut Engine,
    settings: Settings,
    mut input: R,
    mut out: W,
) -> Result<()> {
    let mut game = Game::new(Position::start_of(settings.size));
    let human = settings.human;
    writeln!(
        out,
        "You play {human} ({}), Emilia plays {}. Type help for the commands.",
        human.disc_char(),
        human.opponent()
    )?;
    loop {
        let position = *game.position();
        if game.is_over() {
            writeln!(out, "{}", diagram(&position, false))?;
            let score = game.score_for_black();
            let mine = if human == Color::Black { score } else { -score };
            let verdict = match mine.signum() {
                1 => "You win",
                -1 => "Emilia wins",
                _ => "A draw",
            };
            writeln!(out, "Game over: {}. {verdict}.", game.result())?;
            return Ok(());
        }
        if position.to_move != human {
            if game.must_pass() {
                writeln!(out, "Emilia has no legal move and passes.")?;
                game.play(Move::Pass)?;
                continue;
            }
            let limits = Limits {
                move_time: Some(settings.move_time),
                ..Limits::default()
            };
            let report = engine.search(&position, &limits, &mut |_| {});
            game.play(report.best)?;
            writeln!(
                out,
                "Emilia plays {} ({} discs for Emilia).",
                report.best, report.score
            )?;
            continue;
        }
        writeln!(out, "{}", diagram(&position, true))?;
        if game.must_pass() {
            writeln!(out, "You have no legal move and pass.")?;
            game.play(Move::Pass)?;
            continue;
        }
        let legal: Vec<String> = position.legal_moves().iter().map(Move::to_string).collect();
        writeln!(out, "Legal moves: {}", legal.join(" "))?;
        write!(out, "> ")?;
        out.flush()?;
        let mut line = String::new();
        if input.read_line(&mut line)? == 0 {
            writeln!(out, "\nGoodbye.")?;
            return Ok(());
        }
        let command = line.trim().to_ascii_lowercase();
        match command.as_str() {
            "" => {}
            "quit" | "exit" | "q" => {
                match game.transcript() {
                    moves if moves.is_empty() => writeln!(out, "Goodbye. No move was played.")?,
                    moves => writeln!(out, "Goodbye. The game so far: {moves}")?,
                }
                return Ok(());
            }
            "help" | "?" => write!(out, "{IN_GAME_HELP}")?,
            "undo" => undo(&mut game, human, &mut out)?,
            "hint" => {
                let per_move = settings.move_time / legal.len().max(1) as u32;
                let limits = Limits {
                    move_time: Some(per_move.max(Duration::from_millis(10))),
                    ..Limits::default()
                };
                for score in engine.hint(&position, 3, &limits, &mut |_, _| {}) {
                    let value = if score.exact {
                        format!("{:+} discs, exact", score.score.whole_discs())
                    } else {
                        format!("{} discs", score.score)
                    };
                    writeln!(out, "  {} {value}", score.mv)?;
                }
            }
            text => match text.parse::<Move>() {
                Ok(mv) => match game.play(mv) {
                    // The board after the person's move, before Emilia thinks.
                    Ok(()) => writeln!(out, "You play {mv}.\n{}", diagram(game.position(), false))?,
                    Err(e) => writeln!(out, "{e}. Legal moves: {}", legal.join(" "))?,
                },
                Err(e) => writeln!(
                    out,
                    "{e}. Type a move like {}, or help.",
                    legal.first().map_or("f5", String::as_str)
                )?,
            },
        }
    }
}

/// Takes back plies until one of the person's moves is gone.
fn undo<W: Write>(game: &mut Game, human: Color, out: &mut W) -> Result<()> {
    let has_human_move = game
        .plies()
        .iter()
        .any(|p| p.color == human && p.mv != Move::Pass);
    if !has_human_move {
        writeln!(out, "Nothing to undo.")?;
        return Ok(());
    }
    while let Some(last) = game.plies().iter().rev().find(|p| !p.implicit).cloned() {
        game.undo();
        if last.color == human && last.mv != Move::Pass {
            writeln!(out, "Took back your move {}.", last.mv)?;
            break;
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use emilia_core::Config;

    fn play(input: &str, human: Color) -> String {
        let mut engine = Engine::new(Config::default()).unwrap();
        let mut out = Vec::new();
        let settings = Settings {
            size: BoardSize::EIGHT,
            human,
            move_time: Duration::from_millis(20),
        };
        play_game(&mut engine, settings, input.as_bytes(), &mut out).unwrap();
        String::from_utf8(out).unwrap()
    }

    #[test]
    fn explains_bad_input_and_undoes() {
        let text = play("e3\nzz\nhint\nhelp\nf5\nundo\nundo\nquit\n", Color::Black);
        // help lists the game's commands, not the command line's options.
        assert!(text.contains("  undo   take back"), "{text}");
        assert!(!text.contains("--size"), "{text}");
        // The board after the person's move: f5 played, White to move.
        let after = text.split("You play f5.\n").nth(1).expect(&text);
        let board = after.split("Emilia plays").next().unwrap();
        assert!(board.contains(" 5  . . . X X X . . 5"), "{board}");
        assert!(
            board.contains("Black (X) 4, White (O) 1; white to move"),
            "{board}"
        );
        assert!(
            text.contains("illegal move e3: no discs to flip. Legal moves: d3 c4 f5 e6"),
            "{text}"
        );
        assert!(text.contains("'zz' is not a square"), "{text}");
        assert!(text.contains("Emilia plays"), "{text}");
        assert!(text.contains("Took back your move"), "{text}");
        assert!(text.contains("Nothing to undo."), "{text}");
        // Undone back to the start: nothing to show.
        assert!(text.ends_with("Goodbye. No move was played.\n"), "{text}");
        // Values say their unit.
        assert!(text.contains(" discs for Emilia)."), "{text}");
        let hints: Vec<&str> = text
            .lines()
            .filter(|l| l.starts_with("  ") && l.len() > 3 && l.as_bytes()[3].is_ascii_digit())
            .collect();
        assert!(
            !hints.is_empty() && hints.iter().all(|l| l.contains(" discs")),
            "{text}"
        );
    }

    #[test]
    fn engine_opens_when_the_person_plays_white_and_eof_ends() {
        let text = play("", Color::White);
        assert!(text.starts_with("You play white (O)"), "{text}");
        assert!(text.contains("Emilia plays"), "{text}");
        assert!(text.ends_with("Goodbye.\n"), "{text}");
    }
}
