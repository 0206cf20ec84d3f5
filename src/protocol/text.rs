//! The text protocol: GTP version 2 framing (`=[id] answer` or `?[id] message`, then a
//! blank line) with the standard GTP commands and Othello ones. protocol.md documents each.

use std::fmt;
use std::io::Write;
use std::sync::mpsc::Receiver;
use std::time::{Duration, Instant};

use emilia_core::board::{BoardSize, Color, ColorError, Move, ParseBoardSizeError, SetupError};
use emilia_core::engine::{Engine, Session, Solved, TimeControl, TimeLeft, Timekeeping, OPTIONS};
use emilia_core::formats::{game_text, ggf};
use emilia_core::game::Game;
use emilia_core::perft::{perft_stoppable, Convention};
use emilia_core::score::Score;
use emilia_core::search::{Clock, Limits, SearchReport};

use super::diagram::diagram;
use super::input::{next_line, Interrupts, Line};
use super::Output;

/// Every command with its arguments and what it does, in the order `list_commands` and
/// `help` give them (protocol.md documents each).
pub(crate) const COMMANDS: &[(&str, &str, &str)] = &[
    ("protocol_version", "", "the GTP version: 2"),
    ("name", "", "Emilia"),
    ("version", "", "Emilia's version"),
    (
        "known_command",
        "<command>",
        "true if the command exists, else false",
    ),
    ("list_commands", "", "every command's name, one a line"),
    ("help", "", "every command with a line on what it does"),
    ("quit", "", "ends the session"),
    ("boardsize", "<6|8|10|12>", "a new game on that board size"),
    ("clear_board", "", "a new game on the current size"),
    (
        "komi",
        "<number>",
        "accepted and ignored (Othello has no komi)",
    ),
    (
        "play",
        "[color] <move>",
        "plays a move: play black f5, play pass",
    ),
    (
        "genmove",
        "[color] [<ms>] [limits]",
        "plays Emilia's move; <ms>: the whole remaining clock; movetime MS: one move's time",
    ),
    (
        "reg_genmove",
        "[color] [limits]",
        "the move genmove would choose, not played",
    ),
    ("undo", "", "takes back the last move"),
    (
        "legal_moves",
        "",
        "the side to move's legal moves (pass when it must pass)",
    ),
    ("showboard", "", "the board drawn, * on the legal moves"),
    (
        "position",
        "",
        "the position as one line, as setboard takes it",
    ),
    ("final_score", "", "the score: B+12, W+4 or 0"),
    (
        "time_settings",
        "<main> <byo> <stones>",
        "GTP time control, in seconds",
    ),
    (
        "time_left",
        "<color> <s> <stones>",
        "the seconds left on a clock",
    ),
    (
        "time_increment",
        "<seconds>",
        "time added to the mover's clock after each move",
    ),
    ("list_games", "", "Othello"),
    ("set_game", "Othello", "accepts Othello"),
    (
        "newgame",
        "[6|8|10|12]",
        "a new game, on the given size or the current one",
    ),
    (
        "setboard",
        "<squares> <X|O>",
        "sets up a position: the squares, then the side to move",
    ),
    ("hint", "[N] [limits]", "the best N moves with their scores"),
    (
        "solve",
        "[movetime MS] [nodes N]",
        "the best move and its exact score",
    ),
    (
        "stop",
        "",
        "ends the search in progress, which answers at once",
    ),
    (
        "perft",
        "<depth>",
        "counts the move-tree's leaves to a depth",
    ),
    (
        "setoption",
        "[name value]",
        "sets an engine option, or lists them all",
    ),
    (
        "history",
        "[ggf]",
        "the game so far, as a transcript or GGF",
    ),
    (
        "last_search",
        "",
        "depth, score, nodes and time of the last genmove's search",
    ),
    (
        "loadgame",
        "<transcript or GGF>",
        "sets up a game from its moves",
    ),
];

/// Whether `name` (in lower case) is a command.
fn is_command(name: &str) -> bool {
    COMMANDS.iter().any(|(c, _, _)| *c == name)
}

/// The answer to `help`: every command, its arguments and a line on what it does.
fn help_text() -> String {
    let lines: Vec<String> = COMMANDS
        .iter()
        .map(|(name, arguments, what)| {
            let usage = format!("{name} {arguments}");
            format!("{:<26} {what}", usage.trim_end())
        })
        .collect();
    format!("\n{}", lines.join("\n"))
}

/// Deepest `perft` accepted: deeper counts take hours.
pub(crate) const MAX_PERFT_DEPTH: u32 = 16;

type Answer = Result<String, String>;

/// One text-protocol session: the engine's game session and the interruptions read.
pub(crate) struct TextSession {
    session: Session,
    /// `stop` lines read (by the input thread) but not yet answered.
    interrupts: Interrupts,
    quit: bool,
}

/// How long a `hint` or `solve` runs before it writes progress to stderr.
const PROGRESS_AFTER: Duration = Duration::from_secs(1);

impl TextSession {
    /// A session on the 8x8 start position; `interrupts` counts the `stop`s read.
    pub(crate) fn new(engine: Engine, interrupts: Interrupts) -> TextSession {
        TextSession {
            session: Session::new(engine, Timekeeping::Told),
            interrupts,
            quit: false,
        }
    }

    /// Whether `quit` was received.
    pub(crate) fn wants_quit(&self) -> bool {
        self.quit
    }

    /// Answers one input line: the full reply (ending with its blank line), or `None` for
    /// lines that get none (empty lines and comments).
    pub(crate) fn handle_input(&mut self, line: Line) -> Option<String> {
        match line {
            Line::Text(text) => self.handle_line(&text),
            Line::TooLong(bytes) => Some(reply(
                None,
                Err(format!(
                    "line too long: {bytes} bytes, the limit is {}",
                    super::input::MAX_LINE
                )),
            )),
            Line::NotUtf8(text) => {
                let (id, _) = split_id(&clean(&text));
                Some(reply(
                    id.ok().flatten(),
                    Err("invalid UTF-8 in the command line".to_string()),
                ))
            }
            Line::Unterminated(text) => {
                let cleaned = clean(&text);
                if cleaned.is_empty() {
                    return None;
                }
                let (id, _) = split_id(&cleaned);
                Some(reply(
                    id.ok().flatten(),
                    Err(format!(
                        "incomplete command '{cleaned}': the input ended before the end of the line"
                    )),
                ))
            }
        }
    }

    /// Answers one command line (see [`TextSession::handle_input`]).
    pub(crate) fn handle_line(&mut self, line: &str) -> Option<String> {
        let cleaned = clean(line);
        if cleaned.is_empty() {
            return None;
        }
        let (id, rest) = split_id(&cleaned);
        let id = match id {
            Ok(id) => id,
            Err(message) => return Some(reply(None, Err(message))),
        };
        let rest = rest.trim();
        if rest.is_empty() {
            return Some(reply(id, Err("no command after the id".to_string())));
        }
        let (name, arguments) = match rest.split_once(' ') {
            Some((name, arguments)) => (name, arguments.trim()),
            None => (rest, ""),
        };
        let name = name.to_ascii_lowercase();
        let answer = super::guarded(rest, || self.execute(&name, arguments));
        Some(reply(id, answer.unwrap_or_else(Err)))
    }

    fn execute(&mut self, name: &str, arguments: &str) -> Answer {
        let args: Vec<&str> = arguments.split_whitespace().collect();
        let no_args = |answer: Answer| -> Answer {
            if args.is_empty() {
                answer
            } else {
                Err(format!("{name} takes no arguments"))
            }
        };
        match name {
            "protocol_version" => no_args(Ok("2".to_string())),
            "name" => no_args(Ok("Emilia".to_string())),
            "version" => no_args(Ok(env!("CARGO_PKG_VERSION").to_string())),
            "known_command" => match args.as_slice() {
                [command] => Ok(is_command(&command.to_ascii_lowercase()).to_string()),
                _ => Err("usage: known_command <command>".to_string()),
            },
            "list_commands" => no_args(Ok(COMMANDS
                .iter()
                .map(|(name, _, _)| *name)
                .collect::<Vec<_>>()
                .join("\n"))),
            "help" => no_args(Ok(help_text())),
            "quit" => {
                self.quit = true;
                Ok(String::new())
            }
            "boardsize" => match args.as_slice() {
                [size] => self.new_game(parse_size(size)?.side()),
                _ => Err("usage: boardsize <6|8|10|12>".to_string()),
            },
            "clear_board" => no_args(Ok(String::new())).and_then(|_| self.new_game(self.size())),
            "komi" => match args.as_slice() {
                [value] if value.parse::<f64>().is_ok_and(f64::is_finite) => Ok(String::new()),
                [value] => Err(format!("komi '{value}' is not a number")),
                _ => Err("usage: komi <number> (accepted and ignored)".to_string()),
            },
            "play" => self.play(&args),
            "genmove" => self.genmove(&args, true),
            "reg_genmove" => self.genmove(&args, false),
            "undo" => no_args(Ok(String::new())).and_then(|_| match self.game_mut().undo() {
                Some(_) => Ok(String::new()),
                None => Err("cannot undo: no move to take back".to_string()),
            }),
            "legal_moves" => no_args(Ok(self.legal_moves())),
            "showboard" => no_args(Ok(format!("\n{}", diagram(self.game().position(), true)))),
            "position" => no_args(Ok(self.game().position().to_string())),
            "final_score" => no_args(Ok(self.game().result())),
            "time_settings" => match args.as_slice() {
                [main, byoyomi, stones] => {
                    let control = TimeControl {
                        main: parse_seconds(main)?,
                        byoyomi: parse_seconds(byoyomi)?,
                        stones: parse_count(stones, "stones")?,
                    };
                    self.session.clocks_mut().set_control(control);
                    Ok(String::new())
                }
                _ => Err("usage: time_settings <main seconds> <byo-yomi seconds> <stones>".into()),
            },
            "time_left" => match args.as_slice() {
                [color, time, stones] => {
                    let color = parse_color(color)?;
                    let left = TimeLeft {
                        time: parse_seconds(time)?,
                        stones: parse_count(stones, "stones")?,
                    };
                    self.session.clocks_mut().set_left(color, left);
                    Ok(String::new())
                }
                _ => Err("usage: time_left <color> <seconds> <stones>".into()),
            },
            "time_increment" => match args.as_slice() {
                [seconds] => {
                    let increment = parse_seconds(seconds)?;
                    self.session.clocks_mut().set_increment(increment);
                    Ok(String::new())
                }
                _ => Err("usage: time_increment <seconds>".to_string()),
            },
            "list_games" => no_args(Ok("Othello".to_string())),
            "set_game" => match args.as_slice() {
                [game] if game.eq_ignore_ascii_case("othello") => Ok(String::new()),
                [game] => Err(format!("unsupported game '{game}': Emilia plays Othello")),
                _ => Err("usage: set_game Othello".to_string()),
            },
            "newgame" => match args.as_slice() {
                [] => self.new_game(self.size()),
                [size] => self.new_game(parse_size(size)?.side()),
                _ => Err("usage: newgame [6|8|10|12]".to_string()),
            },
            "setboard" => self.setboard(&args),
            "hint" => self.hint(&args),
            "solve" => self.solve(&args),
            "stop" => no_args(Ok(String::new())).inspect(|_| self.interrupts.stopper.handled()),
            "perft" => self.perft(&args),
            "setoption" => self.setoption(&args),
            "history" => match args.as_slice() {
                [] => Ok(self.game().transcript()),
                [format] if format.eq_ignore_ascii_case("ggf") => {
                    Ok(ggf::write_game(self.game(), "Emilia"))
                }
                _ => Err("usage: history [ggf]".to_string()),
            },
            "loadgame" => self.loadgame(arguments),
            "last_search" => no_args(Ok(self.last_search_text())),
            _ => Err(unknown_command(name)),
        }
    }

    fn game(&self) -> &Game {
        self.session.game()
    }

    fn game_mut(&mut self) -> &mut Game {
        self.session.game_mut()
    }

    /// The side of the current board.
    fn size(&self) -> usize {
        self.game().position().size()
    }

    fn new_game(&mut self, size: usize) -> Answer {
        self.session.new_game(size).map_err(|e| e.to_string())?;
        Ok(String::new())
    }

    fn set_game(&mut self, game: Game) -> Answer {
        self.session.set_game(game).map_err(|e| e.to_string())?;
        Ok(String::new())
    }

    /// `legal_moves`: the side to move's moves in board order, `pass` when it has none;
    /// empty once neither side can move.
    fn legal_moves(&self) -> String {
        let moves = self.game().position().legal_moves();
        let moves: Vec<String> = moves.iter().map(Move::to_string).collect();
        moves.join(" ")
    }

    fn play(&mut self, args: &[&str]) -> Answer {
        let (color, mv) = match args {
            [mv] => (None, *mv),
            [color, mv] => (Some(parse_color(color)?), *mv),
            _ => return Err("usage: play [color] <move>".to_string()),
        };
        let mv: Move = mv.parse().map_err(|e| format!("{e}"))?;
        match color {
            Some(color) => self.game_mut().play_as(color, mv),
            None => self.game_mut().play_implicit(mv, None, None),
        }
        .map(|_| String::new())
        .map_err(|e| e.to_string())
    }

    /// `genmove [color] [limits]` (`play`: the move is played) or `reg_genmove` (it is
    /// only shown).
    fn genmove(&mut self, args: &[&str], play: bool) -> Answer {
        let command = if play { "genmove" } else { "reg_genmove" };
        let (color, rest) = match args.first() {
            Some(first) => match first.parse::<Color>() {
                Ok(color) => (Some(color), &args[1..]),
                Err(e) if !is_search_word(first) => return Err(e.to_string()),
                Err(_) => (None, args),
            },
            None => (None, args),
        };
        let limits = parse_search_args(rest, true, command)?;
        if !play {
            let choice = self.session.choose(color, limits, &mut |_| {});
            return Ok(choice.map_err(|e| e.to_string())?.mv.to_string());
        }
        let choice = self.session.go(color, limits, &mut |_| {});
        let choice = choice.map_err(|e| e.to_string())?;
        let mv = choice.mv;
        self.session
            .play_choice(choice)
            .map_err(|e| format!("internal error: the engine chose {mv}: {e}"))?;
        Ok(mv.to_string())
    }

    /// `last_search`: depth, score, exactness, nodes and time of the last `genmove`
    /// search, empty when it searched nothing (a pass, or none yet); after a ponder hit,
    /// the depth it started at and how long pondering searched that position before.
    fn last_search_text(&self) -> String {
        self.session
            .last_search()
            .map_or(String::new(), |(r, ponder)| {
                let ponder = ponder.map_or(String::new(), |hit| {
                    format!(
                        " ponder_depth {} ponder_time {:.3}",
                        hit.depth,
                        hit.time.as_secs_f64()
                    )
                });
                format!(
                    "depth {} score {} exact {} nodes {} time {:.3} book {}{ponder}",
                    r.depth,
                    r.score,
                    r.exact,
                    r.nodes,
                    r.elapsed.as_secs_f64(),
                    r.book
                )
            })
    }

    fn setboard(&mut self, args: &[&str]) -> Answer {
        if args.len() < 2 {
            return Err("usage: setboard <squares> <side to move X|O>".to_string());
        };
        let game = game_text::read_board(args).map_err(|e| match e {
            SetupError::AfterSide { .. } => format!("setboard: {e}"),
            e => format!("malformed board: {e}"),
        })?;
        self.set_game(game)
    }

    fn hint(&mut self, args: &[&str]) -> Answer {
        let (count, rest) = match args.first().map(|a| a.parse::<usize>()) {
            Some(Ok(n)) if n >= 1 => (n, &args[1..]),
            Some(Ok(_)) => return Err("hint: the number of moves must be at least 1".into()),
            _ => (3, args),
        };
        let limits = parse_search_args(rest, false, "hint")?;
        if self.game().must_pass() {
            return Ok("pass".to_string());
        }
        let start = Instant::now();
        let scores = self.session.hint(count, limits, &mut |report, _| {
            progress_note("hint", report, start)
        });
        let lines: Vec<String> = scores
            .map_err(|e| e.to_string())?
            .iter()
            .map(|s| {
                let line = if s.exact {
                    format!("{} {} exact", s.mv, exact_discs(s.score))
                } else {
                    format!("{} {} depth {}", s.mv, s.score, s.depth)
                };
                if s.book {
                    line + " book"
                } else {
                    line
                }
            })
            .collect();
        Ok(lines.join("\n"))
    }

    fn solve(&mut self, args: &[&str]) -> Answer {
        let limits = parse_search_args(args, false, "solve")?;
        if limits.depth.is_some() {
            return Err("solve searches to the end: give movetime or nodes, not depth".into());
        }
        let start = Instant::now();
        let solved = self
            .session
            .solve(limits, &mut |r| progress_note("solve", r, start));
        match solved.map_err(|e| e.to_string())? {
            Solved::Exact(r) => Ok(format!("{} {}", r.best, exact_discs(r.score))),
            // Stopped by the client: the best found so far is the answer it asked for.
            Solved::Stopped(r) => Ok(format!("{} {} depth {}", r.best, r.score, r.depth)),
            Solved::Unfinished(r) => Err(format!(
                "solve stopped before the end of the game: best so far {} {} at depth {}",
                r.best, r.score, r.depth
            )),
        }
    }

    fn perft(&mut self, args: &[&str]) -> Answer {
        let [depth] = args else {
            return Err(format!("usage: perft <depth 0 to {MAX_PERFT_DEPTH}>"));
        };
        let depth: u32 = depth
            .parse()
            .ok()
            .filter(|d| *d <= MAX_PERFT_DEPTH)
            .ok_or_else(|| {
                format!("perft depth '{depth}' is not a number from 0 to {MAX_PERFT_DEPTH}")
            })?;
        let convention = Convention::EndedDropOut;
        let board = &self.game().position().board;
        let stopper = self.session.engine().stopper();
        match perft_stoppable(board, depth, convention, &|| stopper.pending()) {
            Some(leaves) => Ok(leaves.to_string()),
            None => Err(format!("perft {depth} stopped before the end of its count")),
        }
    }

    fn setoption(&mut self, args: &[&str]) -> Answer {
        let Some((name, value)) = args.split_first() else {
            let engine = self.session.engine();
            let lines: Vec<String> = OPTIONS
                .iter()
                .map(|o| {
                    let value = engine.option(o.name).unwrap_or_default();
                    format!("{} {value} ({}; {})", o.name, o.help, o.kind)
                })
                .collect();
            return Ok(lines.join("\n"));
        };
        if value.is_empty() {
            return Err(format!("usage: setoption {name} <value>"));
        }
        let set = self.session.set_option(name, &value.join(" "));
        set.map(|_| String::new()).map_err(|e| e.to_string())
    }

    fn loadgame(&mut self, text: &str) -> Answer {
        let text = text.trim();
        if text.is_empty() {
            return Err("usage: loadgame <transcript or GGF game>".to_string());
        }
        let game = game_text::read_game(text, Some(self.size())).map_err(|e| e.to_string())?;
        self.set_game(game)
    }
}

/// Writes a search's progress to stderr once it has run [`PROGRESS_AFTER`]: a long
/// `hint` or `solve` shows that it works (stdout is for replies only).
fn progress_note(command: &str, report: &SearchReport, start: Instant) {
    let elapsed = start.elapsed();
    if elapsed < PROGRESS_AFTER {
        return;
    }
    let seconds = elapsed.as_secs_f64();
    let what = if report.exact { "exact" } else { "depth" };
    let _ = writeln!(
        std::io::stderr().lock(),
        "{command}: {what} {} best {} score {} nodes {} speed {:.0} nodes/s time {seconds:.1} s",
        report.depth,
        report.best,
        report.score,
        report.nodes,
        report.nodes as f64 / seconds.max(1e-9)
    );
}

/// An exact score (whole discs): `+12`, `-4`, `0`.
fn exact_discs(score: Score) -> String {
    let discs = score.whole_discs();
    if discs == 0 {
        "0".to_string()
    } else {
        format!("{discs:+}")
    }
}

/// What was wrong with a command's argument; its text is the protocol's error answer.
#[derive(Clone, Debug, PartialEq, Eq)]
enum ArgumentError {
    /// No board size Emilia plays.
    Size(ParseBoardSizeError),
    /// No colour.
    Color(ColorError),
    /// No number of seconds.
    Seconds(String),
    /// No whole number: what it should count and the text given.
    Count(&'static str, String),
    /// A search limit without its value: the command and the limit.
    MissingValue(String, String),
    /// A search limit whose value is no whole number: the command, the limit and the text.
    NotWhole(String, String, String),
    /// A search limit given twice: the command and the limit.
    GivenTwice(String, String),
    /// A search depth outside 1 to 200: the command and the depth.
    DepthRange(String, u64),
    /// A clock too large to read: the command and the text.
    ClockTooLarge(String, String),
    /// A number that is no clock (negative, or not whole): the command and the text.
    NotAClock(String, String),
    /// A word that is no search limit: the command, the word and what was expected.
    Unexpected(String, String, &'static str),
}

impl fmt::Display for ArgumentError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ArgumentError::Size(e) => write!(f, "unacceptable size: {e}"),
            ArgumentError::Color(e) => write!(f, "{e}"),
            ArgumentError::Seconds(text) => write!(f, "'{text}' is not a number of seconds"),
            ArgumentError::Count(what, text) => write!(f, "{what} '{text}' is not a whole number"),
            ArgumentError::MissingValue(command, what) => {
                write!(f, "{command}: {what} needs a value")
            }
            ArgumentError::NotWhole(command, what, text) => {
                write!(f, "{command}: {what} '{text}' is not a whole number")
            }
            ArgumentError::GivenTwice(command, what) => write!(f, "{command}: {what} given twice"),
            ArgumentError::DepthRange(command, depth) => {
                write!(f, "{command}: depth {depth} is out of range 1 to 200")
            }
            ArgumentError::ClockTooLarge(command, text) => {
                write!(f, "{command}: clock '{text}' is too large")
            }
            ArgumentError::NotAClock(command, text) => write!(
                f,
                "{command}: clock '{text}' is not a whole number of milliseconds: a bare number \
                 is the mover's whole remaining clock (movetime MS gives one move's time)"
            ),
            ArgumentError::Unexpected(command, word, expected) => {
                write!(f, "{command}: unexpected '{word}': expected {expected}")
            }
        }
    }
}

impl std::error::Error for ArgumentError {}

/// The protocol answers a refused argument with its message.
impl From<ArgumentError> for String {
    fn from(e: ArgumentError) -> String {
        e.to_string()
    }
}

fn parse_size(text: &str) -> Result<BoardSize, ArgumentError> {
    text.parse().map_err(ArgumentError::Size)
}

fn parse_color(text: &str) -> Result<Color, ArgumentError> {
    text.parse().map_err(ArgumentError::Color)
}

fn parse_seconds(text: &str) -> Result<Duration, ArgumentError> {
    text.parse::<f64>()
        .ok()
        .filter(|s| s.is_finite() && *s >= 0.0 && *s < 1e9)
        .map(Duration::from_secs_f64)
        .ok_or_else(|| ArgumentError::Seconds(text.to_string()))
}

fn parse_count(text: &str, what: &'static str) -> Result<u32, ArgumentError> {
    text.parse()
        .map_err(|_| ArgumentError::Count(what, text.to_string()))
}

/// Whether `word` starts search arguments: a number (or what is meant as one, such as
/// `-5`) or a limit's name.
fn is_search_word(word: &str) -> bool {
    looks_numeric(word)
        || ["depth", "movetime", "nodes"].contains(&word.to_ascii_lowercase().as_str())
}

/// Whether `word` starts like a number: a digit, a sign or a decimal point first.
fn looks_numeric(word: &str) -> bool {
    word.starts_with(|c: char| c.is_ascii_digit() || "+-.".contains(c))
}

/// Reads `[<ms>] [depth N] [movetime MS] [nodes N]`; a bare number is the mover's clock
/// when `clock_allowed`.
fn parse_search_args(
    args: &[&str],
    clock_allowed: bool,
    command: &str,
) -> Result<Limits, ArgumentError> {
    let mut out = Limits::default();
    let mut i = 0;
    let expected = if clock_allowed {
        "the mover's remaining clock in milliseconds, depth N, movetime MS or nodes N"
    } else {
        "depth N, movetime MS or nodes N"
    };
    while i < args.len() {
        let word = args[i].to_ascii_lowercase();
        let value = |what: &str| -> Result<u64, ArgumentError> {
            let text = args
                .get(i + 1)
                .ok_or_else(|| ArgumentError::MissingValue(command.into(), what.into()))?;
            text.parse::<u64>()
                .map_err(|_| ArgumentError::NotWhole(command.into(), what.into(), text.to_string()))
        };
        let is_clock = word.bytes().all(|b| b.is_ascii_digit());
        let given_twice = match word.as_str() {
            "depth" => out.depth.is_some(),
            "movetime" => out.move_time.is_some(),
            "nodes" => out.nodes.is_some(),
            _ => clock_allowed && is_clock && out.clock.is_some(),
        };
        if given_twice {
            let what = if is_clock { "the clock" } else { word.as_str() };
            return Err(ArgumentError::GivenTwice(command.into(), what.into()));
        }
        match word.as_str() {
            "depth" => {
                let depth = value("depth")?;
                if !(1..=200).contains(&depth) {
                    return Err(ArgumentError::DepthRange(command.into(), depth));
                }
                out.depth = Some(depth as u32);
                i += 2;
            }
            "movetime" => {
                out.move_time = Some(Duration::from_millis(value("movetime")?));
                i += 2;
            }
            "nodes" => {
                out.nodes = Some(value("nodes")?);
                i += 2;
            }
            _ if clock_allowed && word.bytes().all(|b| b.is_ascii_digit()) => {
                let ms: u64 = word
                    .parse()
                    .map_err(|_| ArgumentError::ClockTooLarge(command.into(), word.clone()))?;
                out.clock = Some(Clock::sudden_death(Duration::from_millis(ms)));
                i += 1;
            }
            _ if clock_allowed && looks_numeric(&word) => {
                return Err(ArgumentError::NotAClock(
                    command.into(),
                    args[i].to_string(),
                ))
            }
            _ => {
                return Err(ArgumentError::Unexpected(
                    command.into(),
                    args[i].to_string(),
                    expected,
                ))
            }
        }
    }
    Ok(out)
}

/// GTP preprocessing: control characters other than tab dropped, tabs made spaces, a `#`
/// comment removed, surrounding space trimmed.
fn clean(line: &str) -> String {
    let without_comment = line.split('#').next().unwrap_or("");
    without_comment
        .chars()
        .filter_map(|c| match c {
            '\t' => Some(' '),
            c if c.is_control() => None,
            c => Some(c),
        })
        .collect::<String>()
        .trim()
        .to_string()
}

/// The reply to `line` if it is `quit` (as [`TextSession::handle_input`] answers it).
fn quit_reply(line: &Line) -> Option<String> {
    let Line::Text(text) = line else { return None };
    match split_id(&clean(text)) {
        (Ok(id), rest) if rest.split_whitespace().next()?.eq_ignore_ascii_case("quit") => {
            Some(reply(id, Ok(String::new())))
        }
        _ => None,
    }
}

/// Splits an optional numeric id off a cleaned line.
fn split_id(line: &str) -> (Result<Option<u64>, String>, &str) {
    let first = line.split(' ').next().unwrap_or("");
    if !first.is_empty() && first.bytes().all(|b| b.is_ascii_digit()) {
        let rest = &line[first.len()..];
        match first.parse() {
            Ok(id) => (Ok(Some(id)), rest),
            Err(_) => (Err(format!("id '{first}' is too large")), rest),
        }
    } else {
        (Ok(None), line)
    }
}

/// A reply in GTP framing: `=id answer` or `?id message`, then a blank line. Blank lines
/// inside the answer are dropped so that they cannot end it early.
pub(crate) fn reply(id: Option<u64>, answer: Answer) -> String {
    let (sign, text) = match answer {
        Ok(text) => ('=', text),
        Err(text) => ('?', text),
    };
    let id = id.map(|i| i.to_string()).unwrap_or_default();
    let leading_newline = text.starts_with('\n');
    let body: Vec<&str> = text
        .lines()
        .map(str::trim_end)
        .filter(|l| !l.trim().is_empty())
        .collect();
    let body = body.join("\n");
    if body.is_empty() {
        format!("{sign}{id}\n\n")
    } else if leading_newline {
        format!("{sign}{id}\n{body}\n\n")
    } else {
        format!("{sign}{id} {body}\n\n")
    }
}

/// The error for an unknown command, naming the closest known one.
fn unknown_command(name: &str) -> String {
    let shown: String = name.chars().take(40).collect();
    match super::names::closest(name, COMMANDS.iter().map(|(c, _, _)| *c)) {
        Some(c) => format!("unknown command '{shown}': did you mean '{c}'?"),
        None => format!("unknown command '{shown}': help lists them all"),
    }
}

/// Serves the text protocol: `first` is the session's first line, the rest come from
/// `lines`. Returns at `quit`, at the end of the input, when the output is closed, or when
/// `interrupts` tell that the client is gone; with `ends_process`, a `quit` or the end of
/// the input read while waiting (pondering perhaps) is answered and ends the process there.
pub(crate) fn serve<W: std::io::Write>(
    engine: Engine,
    first: Line,
    lines: &Receiver<Line>,
    out: &mut Output<W>,
    interrupts: &Interrupts,
    ends_process: bool,
) {
    let mut session = TextSession::new(engine, interrupts.clone());
    let mut next = Some(first);
    while !interrupts.is_gone() {
        let line = match next.take() {
            Some(line) => line,
            None => match session.session.wait_pondering(|| {
                next_line(lines, ends_process, |line| {
                    quit_reply(line).map(|answer| out.send(&answer)).is_some()
                })
            }) {
                Ok(line) => line,
                Err(_) => return,
            },
        };
        if let Some(answer) = session.handle_input(line) {
            if !out.send(&answer) {
                return;
            }
        }
        if session.wants_quit() {
            return;
        }
    }
}
