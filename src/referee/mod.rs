//! The referee behind `emilia match`: plays games between two engines run as child
//! processes, over GTP or NBoard, keeping its own board and clocks. Every move is checked;
//! an engine that plays an illegal move, answers garbage, overruns its clock, hangs or dies
//! loses that game, is restarted if need be, and the match goes on.
//!
//! Layout: `engine_process` runs a child with timed line reads; `gtp` and `nboard`
//! speak the protocols behind the `client::Client` trait; [`game`] referees one game;
//! [`report`] and `stats` count and summarise; [`openings`] reads opening files, and
//! games are written in GGF by [`emilia_core::formats::ggf`].

pub mod client;
pub(crate) mod engine_process;
pub mod game;
pub(crate) mod gtp;
pub(crate) mod nboard;
pub mod openings;
pub mod report;
pub(crate) mod stats;

use std::fmt;
use std::fs::File;
use std::io::{BufWriter, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::mpsc;
use std::time::Duration;

use client::{Client, Fault, GameSetup};
use emilia_core::board::{BoardSize, Color};
use emilia_core::formats::ggf;
use emilia_core::game::ClockSetting;
use game::{GameRecord, GameSpec, Pair};
use openings::Opening;
use report::Tally;

/// The protocol an engine speaks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Protocol {
    /// GTP framing with Othello moves (Emilia, Edax `-gtp`, GRhino's `gtp-rhino`).
    Gtp,
    /// NBoard (NTest, Edax `-nboard`).
    Nboard,
}

/// One engine of a match: how to start it and speak to it.
#[derive(Clone, Debug)]
pub struct EngineSpec {
    /// The command line, split into words as a shell would.
    pub command: String,
    /// Name for reports; derived from the command when absent.
    pub name: Option<String>,
    /// Protocol.
    pub protocol: Protocol,
    /// Working directory.
    pub dir: Option<PathBuf>,
    /// Search depth of this engine (NBoard's `set depth`), overriding the match's.
    pub depth: Option<u32>,
    /// Its own time control, overriding the match's: time odds, or a clock generous
    /// enough for an engine that searches to a fixed depth whatever its clock says.
    pub time: Option<TimeControl>,
    /// Show the engine's stderr instead of discarding it.
    pub stderr: bool,
    /// Give an Emilia engine its clock or move time with `genmove` itself (`genmove <color>
    /// <ms>`, `genmove <color> movetime <ms>`) rather than with GTP's `time_left`: the
    /// limits `emilia bench clock` measures.
    pub limits_in_genmove: bool,
}

impl EngineSpec {
    /// A GTP engine started by `command`.
    pub fn gtp(command: &str) -> EngineSpec {
        EngineSpec {
            command: command.to_string(),
            name: None,
            protocol: Protocol::Gtp,
            dir: None,
            depth: None,
            time: None,
            stderr: false,
            limits_in_genmove: false,
        }
    }

    /// The name reports use: the given one, or the command line with directories left
    /// out of its words and a leading interpreter dropped (`python3 dir/bot.py -x` reads
    /// `bot.py -x`).
    pub(crate) fn display_name(&self) -> String {
        if let Some(name) = &self.name {
            return name.clone();
        }
        let words = engine_process::split_command_line(&self.command).unwrap_or_default();
        let mut words: Vec<String> = words
            .iter()
            .map(|w| match w.rsplit_once('/') {
                Some((_, file)) if !file.is_empty() && !w.starts_with('-') => file.to_string(),
                _ => w.clone(),
            })
            .collect();
        const INTERPRETERS: [&str; 6] = ["python", "python3", "sh", "bash", "perl", "node"];
        if words.len() > 1 && INTERPRETERS.contains(&words[0].as_str()) {
            words.remove(0);
        }
        words.join(" ")
    }
}

/// How long engines may think.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TimeControl {
    /// A game clock per side, with an increment after each move.
    Clock {
        /// Time per side for the game.
        base: Duration,
        /// Added after each move.
        increment: Duration,
    },
    /// A fixed time for every move.
    MoveTime(Duration),
    /// A fixed depth for every move (answers still time out after the match's timeout).
    Depth(u32),
}

impl TimeControl {
    /// How reports describe it.
    pub(crate) fn describe(&self) -> String {
        match self {
            TimeControl::Clock { base, increment } if increment.is_zero() => {
                format!("a game clock of {} s per side", base.as_secs_f64())
            }
            TimeControl::Clock { base, increment } => format!(
                "a game clock of {} s per side, plus {} s after each move",
                base.as_secs_f64(),
                increment.as_secs_f64()
            ),
            TimeControl::MoveTime(t) => format!("{} s a move", t.as_secs_f64()),
            TimeControl::Depth(d) => format!("depth {d} a move"),
        }
    }
}

/// Everything a match needs.
#[derive(Clone, Debug)]
pub struct MatchConfig {
    /// The two engines; scores are from the first one's point of view.
    pub engines: [EngineSpec; 2],
    /// Games to play.
    pub games: usize,
    /// Openings, each played twice with colours swapped (empty: every game from the
    /// start, colours alternating).
    pub openings: Vec<Opening>,
    /// Where the openings came from, for the report.
    pub openings_source: Option<String>,
    /// Time control.
    pub time: TimeControl,
    /// Board size.
    pub size: BoardSize,
    /// Games played at the same time.
    pub concurrency: usize,
    /// Grace beyond an engine's time before it forfeits.
    pub margin: Duration,
    /// How long an engine may take to answer anything else (and a move at fixed depth).
    pub timeout: Duration,
    /// Results file: one line per game with its transcript.
    pub results: Option<PathBuf>,
    /// GGF file: one record per game.
    pub ggf: Option<PathBuf>,
}

impl MatchConfig {
    /// A match of `games` games between two GTP commands with default settings:
    /// 8x8, 10 s per side, no openings, one game at a time.
    pub fn new(first: EngineSpec, second: EngineSpec, games: usize) -> MatchConfig {
        MatchConfig {
            engines: [first, second],
            games,
            openings: Vec::new(),
            openings_source: None,
            time: TimeControl::Clock {
                base: Duration::from_secs(10),
                increment: Duration::ZERO,
            },
            size: BoardSize::EIGHT,
            concurrency: 1,
            margin: Duration::from_millis(200),
            timeout: Duration::from_secs(30),
            results: None,
            ggf: None,
        }
    }

    /// What game `index` (from 0) is.
    fn game(&self, index: usize) -> GameSpec {
        let opening = if self.openings.is_empty() {
            (String::new(), Vec::new())
        } else {
            let o = &self.openings[(index / 2) % self.openings.len()];
            (o.text.clone(), o.moves.clone())
        };
        GameSpec {
            number: index + 1,
            opening,
            black: index % 2,
        }
    }

    /// The time control `spec` plays under: its own, or the match's.
    pub(crate) fn time_of(&self, spec: &EngineSpec) -> TimeControl {
        spec.time.unwrap_or(self.time)
    }

    /// The depth an NBoard engine searches to.
    fn depth_of(&self, spec: &EngineSpec) -> Option<u32> {
        spec.depth.or(match self.time_of(spec) {
            TimeControl::Depth(d) => Some(d),
            _ => None,
        })
    }

    fn check(&self) -> Result<(), MatchError> {
        if self.games == 0 || self.concurrency == 0 {
            return Err(MatchError::NothingToPlay);
        }
        for (i, spec) in self.engines.iter().enumerate() {
            let which = format!("engine {} ({})", i + 1, spec.command);
            match spec.protocol {
                Protocol::Nboard if self.size != BoardSize::EIGHT => {
                    return Err(MatchError::NboardSize(which))
                }
                Protocol::Nboard if self.depth_of(spec).is_none() => {
                    return Err(MatchError::NboardDepth(which))
                }
                _ => {}
            }
        }
        Ok(())
    }
}

/// Why a match could not be played to its end.
#[derive(Debug)]
pub enum MatchError {
    /// No game or no worker was asked for.
    NothingToPlay,
    /// An NBoard engine was asked to play another size than 8x8; it names the engine.
    NboardSize(String),
    /// An NBoard engine was given no search depth; it names the engine.
    NboardDepth(String),
    /// A plain GTP engine was asked to search to a depth; it names the engine.
    GtpDepth(String),
    /// An engine could not be started: the engine and what went wrong.
    Start(String, String),
    /// An engine refused the match's first game: the engine and what went wrong.
    FirstGame(String, String),
    /// A results or GGF file could not be created.
    Create(PathBuf, std::io::Error),
    /// A results or GGF file could not be written.
    Write(PathBuf, std::io::Error),
}

impl fmt::Display for MatchError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            MatchError::NothingToPlay => f.write_str("games and concurrency must be at least 1"),
            MatchError::NboardSize(which) => write!(f, "{which}: NBoard engines play 8x8 only"),
            MatchError::NboardDepth(which) => write!(
                f,
                "{which}: NBoard has no time commands, so an NBoard engine needs a search \
                 depth: add depth=N after its --engine (the referee still enforces the clock)"
            ),
            MatchError::GtpDepth(which) => write!(
                f,
                "{which} speaks plain GTP, which has no depth limit: play with a clock \
                 (--tc) or a time per move (--st), or give it its depth on its own command line"
            ),
            MatchError::Start(which, fault) => write!(f, "{which} {fault}"),
            MatchError::FirstGame(which, fault) => {
                write!(f, "{which} cannot play this match: {fault}")
            }
            MatchError::Create(path, e) => write!(f, "cannot create {}: {e}", path.display()),
            MatchError::Write(path, e) => write!(f, "cannot write {}: {e}", path.display()),
        }
    }
}

impl std::error::Error for MatchError {}

/// What a match produced.
pub struct MatchOutcome {
    /// The engines' names as reported.
    pub names: [String; 2],
    /// The totals.
    pub tally: Tally,
    /// Every game, in game-number order.
    pub games: Vec<GameRecord>,
    /// The final report text.
    pub report: String,
}

/// Starts the engine of `spec` in its protocol.
pub(crate) fn start_client(
    spec: &EngineSpec,
    label: &str,
    config: &MatchConfig,
) -> Result<Box<dyn Client>, Fault> {
    Ok(match spec.protocol {
        Protocol::Gtp => Box::new(gtp::GtpClient::start(spec, label, config.timeout)?),
        Protocol::Nboard => {
            let depth = config.depth_of(spec).expect("checked before the match");
            Box::new(nboard::NboardClient::start(
                spec,
                label,
                config.timeout,
                depth,
            )?)
        }
    })
}

/// Names for the report, told apart when both engines would look the same.
fn names(config: &MatchConfig) -> [String; 2] {
    let mut names = [
        config.engines[0].display_name(),
        config.engines[1].display_name(),
    ];
    if names[0] == names[1] {
        names[0].push_str(" #1");
        names[1].push_str(" #2");
    }
    names
}

/// Starts both engines once, checks that they accept the match's first game, and hands
/// them on for the first worker: a broken command fails the match at once, not game
/// after game.
fn preflight(config: &MatchConfig, names: &[String; 2]) -> Result<Pair, MatchError> {
    let first = config.game(0);
    let setup = GameSetup {
        size: config.size,
        moves: first.opening.1.clone(),
        names: names.clone(),
        clock: None,
        increment: Duration::ZERO,
        move_time: None,
        depth: None,
    };
    let mut pair: Pair = [None, None];
    for (i, spec) in config.engines.iter().enumerate() {
        let which = format!("engine {} ({})", i + 1, spec.command);
        let mut client = start_client(spec, &format!("engine {}", i + 1), config)
            .map_err(|fault| MatchError::Start(which.clone(), fault.to_string()))?;
        let wants_depth =
            spec.depth.is_some() || matches!(config.time_of(spec), TimeControl::Depth(_));
        if wants_depth && !client.supports_depth() {
            client.quit();
            return Err(MatchError::GtpDepth(which));
        }
        client
            .new_game(&setup)
            .map_err(|fault| MatchError::FirstGame(which.clone(), fault.to_string()))?;
        log::info!("{which} reports '{}'", client.reported_name());
        pair[i] = Some(client);
    }
    Ok(pair)
}

/// A results or GGF file, created for writing.
struct Output {
    path: PathBuf,
    file: BufWriter<File>,
}

impl Output {
    fn create(path: &Path) -> Result<Output, MatchError> {
        let file = File::create(path).map_err(|e| MatchError::Create(path.to_path_buf(), e))?;
        Ok(Output {
            path: path.to_path_buf(),
            file: BufWriter::new(file),
        })
    }

    /// Writes `line` and a line end, and flushes.
    fn line(&mut self, line: &str) -> Result<(), MatchError> {
        writeln!(self.file, "{line}")
            .and_then(|()| self.file.flush())
            .map_err(|e| MatchError::Write(self.path.clone(), e))
    }
}

/// Plays the match; `progress` gets a line after every game.
pub fn run(
    config: &MatchConfig,
    progress: &mut dyn FnMut(&str),
) -> Result<MatchOutcome, MatchError> {
    config.check()?;
    let names = names(config);
    let mut results = config.results.as_deref().map(Output::create).transpose()?;
    let mut ggf_file = config.ggf.as_deref().map(Output::create).transpose()?;
    if let Some(file) = results.as_mut() {
        file.line(report::RESULTS_HEADER)?;
    }
    let mut first_pair = Some(preflight(config, &names)?);
    let next = AtomicUsize::new(0);
    let (sender, receiver) = mpsc::channel::<GameRecord>();
    let mut tally = Tally::default();
    let mut games = Vec::new();
    let workers = config.concurrency.min(config.games);
    let written: Result<(), MatchError> = std::thread::scope(|scope| {
        for _ in 0..workers {
            let mut pair = first_pair.take().unwrap_or([None, None]);
            let sender = sender.clone();
            let (next, names) = (&next, &names);
            scope.spawn(move || {
                loop {
                    let index = next.fetch_add(1, Ordering::SeqCst);
                    if index >= config.games {
                        break;
                    }
                    let record = game::play(&mut pair, config, names, &config.game(index));
                    if sender.send(record).is_err() {
                        break;
                    }
                }
                for client in pair.iter_mut().flatten() {
                    client.quit();
                }
            });
        }
        drop(sender);
        for record in receiver {
            tally.add(&record);
            progress(&tally.progress(config.games, &names));
            if let Some(file) = results.as_mut() {
                file.line(&report::results_line(&record, &names))?;
            }
            if let Some(file) = ggf_file.as_mut() {
                let [black, white] = [Color::Black, Color::White].map(|color| record.engine(color));
                let clock = |engine: usize| match config.time_of(&config.engines[engine]) {
                    TimeControl::Clock { base, increment } => Some(ClockSetting {
                        main: base,
                        increment,
                    }),
                    _ => None,
                };
                let text = ggf::write(&ggf::GgfRecord {
                    place: "emilia match",
                    names: [&names[black], &names[white]],
                    result: report::ggf_result(&record),
                    clocks: [clock(black), clock(white)],
                    start: &record.start,
                    moves: record.moves.iter().map(|m| m.to_ggf()).collect(),
                });
                file.line(&text)?;
            }
            games.push(record);
        }
        Ok(())
    });
    written?;
    games.sort_by_key(|g| g.number);
    let mut description = format!(
        "{} games, {}, {}",
        config.games,
        config.size,
        config.time.describe()
    );
    for (spec, name) in config.engines.iter().zip(&names) {
        if let Some(own) = spec.time {
            description.push_str(&format!(" ({name}: {})", own.describe()));
        }
    }
    match &config.openings_source {
        Some(source) => description.push_str(&format!(
            ", openings from {source} (each played with both colours)"
        )),
        None => description.push_str(", from the start position"),
    }
    let report = tally.report(&names, &description);
    Ok(MatchOutcome {
        names,
        tally,
        games,
        report,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_clock_is_described_as_the_game_s() {
        let clock = |base: u64, increment: u64| TimeControl::Clock {
            base: Duration::from_millis(base),
            increment: Duration::from_millis(increment),
        };
        assert_eq!(
            clock(1000, 10).describe(),
            "a game clock of 1 s per side, plus 0.01 s after each move"
        );
        assert_eq!(clock(10_000, 0).describe(), "a game clock of 10 s per side");
        let move_time = TimeControl::MoveTime(Duration::from_millis(500));
        assert_eq!(move_time.describe(), "0.5 s a move");
    }

    #[test]
    fn display_names_are_short_commands() {
        let name = |command: &str| EngineSpec::gtp(command).display_name();
        assert_eq!(name("emilia --player greedy"), "emilia --player greedy");
        assert_eq!(
            name("python3 tests/engines/bot.py --seed 2"),
            "bot.py --seed 2"
        );
        assert_eq!(
            name("/opt/edax/bin/lEdax-x64 -gtp -l 10"),
            "lEdax-x64 -gtp -l 10"
        );
        let mut named = EngineSpec::gtp("x");
        named.name = Some("Edax".to_string());
        assert_eq!(named.display_name(), "Edax");
    }
}
