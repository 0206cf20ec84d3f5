//! `emilia bench clock`: whole self-play games between two `emilia` processes played by the
//! referee of `emilia match`, each side on a game clock given with `genmove <color> <ms>`
//! (or a move time, `genmove <color> movetime <ms>`). Reports the time each side used, the
//! smallest margin left, and the largest overshoot of a move over a fair share of its clock.
//! Losing on time is the failure this benchmark looks for, and a late move the warning: one
//! that took more than half of what was left (protocol.md's promise), or with `--movetime`,
//! more than the move time.
//!
//! `--load N` runs N CPU-bound competitors in this process during the games (threads that
//! spin, in the engines' own scheduling group), as when bots play bots on one computer: the
//! engines then wait for a core while their clocks run.

use anyhow::{anyhow, bail, Context, Result};
use std::path::Path;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::thread;
use std::time::Duration;

use super::args::Args;
use super::output::outln;
use crate::referee::game::{Ending, GameRecord};
use crate::referee::{self, openings, EngineSpec, MatchConfig, TimeControl};
use emilia_core::board::{BoardSize, Color};
use emilia_core::game::Game;
use emilia_core::search::time::own_moves_left;

/// Openings the games start from, so that repeated games differ.
const OPENINGS: &[&str] = &[
    "",
    "f5d6c3",
    "f5f6e6f4",
    "f5d6c5f4e3",
    "f5f4e3f6d3",
    "f5d6c4",
];

/// Runs the clock benchmark with `args` (`--clocks`, `--increment`, `--games`, `--engine`,
/// `--load`, `--movetime`, `--threads`: each engine's, default 1, since the two engines
/// share the machine).
pub(crate) fn run(args: &Args) -> Result<()> {
    let clocks: Vec<u64> = args
        .value("clocks")
        .unwrap_or("100,1000,10000")
        .split(',')
        .map(|c| {
            c.trim()
                .parse()
                .map_err(|_| anyhow!("--clocks: '{c}' is not milliseconds"))
        })
        .collect::<Result<_>>()?;
    let increment = Duration::from_millis(args.get("increment", 0u64)?);
    let games: usize = args.get("games", 1usize)?;
    let threads = args.threads("1")?;
    let load: usize = args.get("load", 0usize)?;
    let move_time: Option<u64> = match args.value("movetime") {
        Some(ms) => Some(
            ms.parse()
                .ok()
                .filter(|&ms| ms > 0)
                .ok_or_else(|| anyhow!("--movetime: '{ms}' is not milliseconds"))?,
        ),
        None => None,
    };
    let engine = match args.value("engine") {
        Some(path) => path.into(),
        None => std::env::current_exe().context("finding the emilia binary")?,
    };
    let _competitors = Competitors::start(load);
    let load_average = || {
        std::fs::read_to_string("/proc/loadavg")
            .ok()
            .and_then(|l| l.split_whitespace().next().map(str::to_string))
            .unwrap_or_else(|| "unknown".to_string())
    };
    outln!(
        "clock benchmark: {games} game(s) per clock, engine {}, {load} competitor(s), \
         load average {}",
        engine.display(),
        load_average()
    )?;
    let timings: Vec<TimeControl> = match move_time {
        Some(ms) => vec![TimeControl::MoveTime(Duration::from_millis(ms))],
        None => clocks
            .iter()
            .map(|&ms| TimeControl::Clock {
                base: Duration::from_millis(ms),
                increment,
            })
            .collect(),
    };
    outln!(
        "{:>10} {:>5} {:>8} {:>10} {:>10} {:>12} {:>13} {:>6} {:>8}",
        "clock ms",
        "game",
        "result",
        "black ms",
        "white ms",
        "min left ms",
        "overshoot ms",
        "late",
        "on time"
    )?;
    let mut losses = 0;
    let mut worst_overshoot = f64::NEG_INFINITY;
    let (mut late, mut moves, mut worst_late) = (0, 0, 0.0f64);
    for timing in &timings {
        for game in 0..games {
            let opening = OPENINGS[game % OPENINGS.len()];
            let record = play_game(&engine, threads, *timing, opening)?;
            let on_time = record.lost_on_time.is_none();
            if !on_time {
                losses += 1;
            }
            worst_overshoot = worst_overshoot.max(record.overshoot_ms);
            late += record.late;
            moves += record.moves;
            worst_late = worst_late.max(record.worst_late_ms);
            outln!(
                "{:>10} {:>5} {:>8} {:>10.1} {:>10.1} {:>12.1} {:>13.1} {:>6} {:>8}",
                label(timing),
                game + 1,
                record.result,
                record.used_ms[0],
                record.used_ms[1],
                record.min_left_ms,
                record.overshoot_ms,
                record.late,
                match record.lost_on_time {
                    None => "yes".to_string(),
                    Some(c) => format!("{c} lost"),
                }
            )?;
        }
    }
    outln!(
        "lost on time: {losses} of {} games; late moves: {late} of {moves}, the latest by \
         {worst_late:.1} ms; largest overshoot over a fair share: {worst_overshoot:.1} ms; \
         load average {}",
        timings.len() * games,
        load_average()
    )?;
    outln!(
        "(fair share: the mover's remaining time divided by the moves it still has to play, \
         plus the increment; a move may exceed it, a clock may not run out; late: over half \
         of what was left, or over the move time)"
    )?;
    if losses > 0 {
        bail!("{losses} game(s) lost on time");
    }
    Ok(())
}

/// How the report's first column names a time control.
fn label(timing: &TimeControl) -> String {
    match timing {
        TimeControl::Clock { base, increment } if increment.is_zero() => {
            base.as_millis().to_string()
        }
        TimeControl::Clock { base, increment } => {
            format!("{}+{}", base.as_millis(), increment.as_millis())
        }
        TimeControl::MoveTime(t) => format!("{}/mv", t.as_millis()),
        TimeControl::Depth(d) => format!("depth {d}"),
    }
}

/// CPU-bound threads that spin until dropped.
struct Competitors {
    stop: Arc<AtomicBool>,
    threads: Vec<thread::JoinHandle<()>>,
}

impl Competitors {
    fn start(count: usize) -> Competitors {
        let stop = Arc::new(AtomicBool::new(false));
        let threads = (0..count)
            .map(|_| {
                let stop = Arc::clone(&stop);
                thread::spawn(move || {
                    let mut x = 1u64;
                    while !stop.load(Ordering::Relaxed) {
                        for _ in 0..10_000 {
                            x = std::hint::black_box(x.wrapping_mul(6364136223846793005) + 1);
                        }
                    }
                })
            })
            .collect();
        Competitors { stop, threads }
    }
}

impl Drop for Competitors {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::Relaxed);
        for thread in self.threads.drain(..) {
            let _ = thread.join();
        }
    }
}

/// What one game showed.
struct ClockRecord {
    result: String,
    used_ms: [f64; 2],
    min_left_ms: f64,
    overshoot_ms: f64,
    lost_on_time: Option<Color>,
    /// Moves over half of what was left, or over the move time.
    late: usize,
    moves: usize,
    worst_late_ms: f64,
}

/// The referee's settings for one game of `engine` against itself from `opening`, each
/// side on `timing`.
fn game_config(
    engine: &Path,
    threads: usize,
    timing: TimeControl,
    opening: &str,
) -> Result<MatchConfig> {
    let path = engine
        .to_str()
        .ok_or_else(|| anyhow!("--engine {}: not a UTF-8 path", engine.display()))?;
    // The path in a shell's single quotes, for the referee's command line. Every move is
    // searched on the clock: the opening book would answer the first ones at once.
    let command = format!(
        "'{}' --threads {threads} --book off",
        path.replace('\'', r"'\''")
    );
    let mut spec = EngineSpec::gtp(&command);
    spec.limits_in_genmove = true;
    let mut config = MatchConfig::new(spec.clone(), spec, 1);
    config.time = timing;
    if !opening.is_empty() {
        config.openings = openings::parse(opening, BoardSize::EIGHT, "the benchmark's openings")?;
    }
    // A move that overruns its clock is counted here, not forfeited: the game goes on. The
    // referee gives up on an engine only 5 s past its time, as on a command after 10 s.
    config.margin = Duration::from_secs(5);
    config.timeout = Duration::from_secs(10);
    Ok(config)
}

/// Plays one game from `opening` with `timing` for each side, refereed as `emilia match`
/// referees, and reads the clocks off the times of its moves.
fn play_game(
    engine: &Path,
    threads: usize,
    timing: TimeControl,
    opening: &str,
) -> Result<ClockRecord> {
    let config = game_config(engine, threads, timing, opening)?;
    let outcome = referee::run(&config, &mut |_| {})?;
    let game = outcome
        .games
        .into_iter()
        .next()
        .context("the referee played no game")?;
    if let Ending::Forfeit { reason, .. } = &game.ending {
        bail!("{reason}");
    }
    Ok(read_clocks(&game, timing))
}

/// Replays `game` on clocks of `timing`: each move's time off its mover's clock, an
/// increment after it, and what the report counts.
fn read_clocks(game: &GameRecord, timing: TimeControl) -> ClockRecord {
    let (clock, increment) = match timing {
        TimeControl::Clock { base, increment } => (base, increment),
        // Without a clock, the clocks only add up the time used.
        TimeControl::MoveTime(_) | TimeControl::Depth(_) => {
            (Duration::from_secs(1_000_000), Duration::ZERO)
        }
    };
    let mut board = Game::new(game.start);
    let mut left = [clock, clock];
    let mut used = [Duration::ZERO; 2];
    let mut min_left = clock;
    // Over a fair share of the clock; none without a clock.
    let mut overshoot = match timing {
        TimeControl::Clock { .. } => f64::NEG_INFINITY,
        _ => 0.0,
    };
    let mut lost_on_time = None;
    let (mut late, mut moves, mut worst_late_ms) = (0, 0, 0.0f64);
    for recorded in &game.moves {
        let position = *board.position();
        board
            .play(recorded.mv)
            .expect("the referee checked every move");
        // Opening moves and forced passes are the referee's: no engine was asked.
        let Some(elapsed) = recorded.elapsed else {
            continue;
        };
        let color = position.to_move;
        let me = color.index();
        let remaining = left[me];
        let allowed = match timing {
            TimeControl::MoveTime(t) => t,
            _ => remaining / 2,
        };
        moves += 1;
        if elapsed > allowed {
            late += 1;
            worst_late_ms = worst_late_ms.max((elapsed - allowed).as_secs_f64() * 1000.0);
        }
        used[me] += elapsed;
        if let TimeControl::Clock { .. } = timing {
            let fair_share = remaining / own_moves_left(position.board.counts().2) + increment;
            overshoot = overshoot.max((elapsed.as_secs_f64() - fair_share.as_secs_f64()) * 1000.0);
        }
        if elapsed > remaining {
            lost_on_time.get_or_insert(color);
            left[me] = Duration::ZERO;
        } else {
            left[me] = remaining - elapsed + increment;
        }
        min_left = min_left.min(left[me]);
    }
    ClockRecord {
        result: board.result(),
        used_ms: used.map(|t| t.as_secs_f64() * 1000.0),
        min_left_ms: min_left.as_secs_f64() * 1000.0,
        overshoot_ms: overshoot,
        lost_on_time,
        late,
        moves,
        worst_late_ms,
    }
}
