//! `emilia bench clock`: whole self-play games between two `emilia` processes driven as a
//! referee would, each side on a game clock given with `genmove <color> <ms>`. Reports the
//! time each side used, the smallest margin left, and the largest overshoot of a move over
//! a fair share of its clock. Losing on time is the failure this benchmark looks for, and a
//! late move the warning: one that took more than half of what was left (protocol.md's
//! promise), or with `--movetime`, more than the move time.
//!
//! `--load N` runs N CPU-bound competitors in this process during the games (threads that
//! spin, in the engines' own scheduling group), as when bots play bots on one computer: the
//! engines then wait for a core while their clocks run.

use anyhow::{anyhow, bail, Context, Result};
use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{self, Receiver};
use std::sync::Arc;
use std::thread;
use std::time::{Duration, Instant};

use super::args::Args;
use super::output::outln;
use crate::referee::engine_process::{has_exited, kill_group, spawn_in_own_group};
use emilia_core::board::{Color, Move};
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
    let timings: Vec<Timing> = match move_time {
        Some(ms) => vec![Timing::MoveTime(Duration::from_millis(ms))],
        None => clocks
            .iter()
            .map(|&ms| Timing::Clock(Duration::from_millis(ms), increment))
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
                timing.label(),
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

/// How the moves of a game are timed.
#[derive(Clone, Copy, Debug)]
enum Timing {
    /// A game clock per side, and the time added to it after each move.
    Clock(Duration, Duration),
    /// A fixed time per move (`genmove <color> movetime <ms>`).
    MoveTime(Duration),
}

impl Timing {
    fn label(&self) -> String {
        match self {
            Timing::Clock(t, increment) if increment.is_zero() => t.as_millis().to_string(),
            Timing::Clock(t, increment) => format!("{}+{}", t.as_millis(), increment.as_millis()),
            Timing::MoveTime(t) => format!("{}/mv", t.as_millis()),
        }
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
struct GameRecord {
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

/// An engine process spoken to in the text protocol.
struct Player {
    child: Child,
    /// Its group's slot in the referee's table: a signal that ends the benchmark ends it.
    group_slot: Option<usize>,
    stdin: ChildStdin,
    lines: Receiver<String>,
}

impl Player {
    fn start(engine: &std::path::Path, threads: usize) -> Result<Player> {
        let mut command = Command::new(engine);
        command
            .args(["--threads", &threads.to_string()])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null());
        let (mut child, group_slot) = spawn_in_own_group(&mut command)
            .with_context(|| format!("starting {}", engine.display()))?;
        let stdin = child.stdin.take().expect("piped stdin");
        let stdout = child.stdout.take().expect("piped stdout");
        let (sender, lines) = mpsc::channel();
        thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                if sender.send(line).is_err() {
                    break;
                }
            }
        });
        Ok(Player {
            child,
            group_slot,
            stdin,
            lines,
        })
    }

    /// Sends `command` and waits up to `timeout` for its reply's text.
    fn ask(&mut self, command: &str, timeout: Duration) -> Result<String> {
        writeln!(self.stdin, "{command}")?;
        self.stdin.flush()?;
        let deadline = Instant::now() + timeout;
        let mut reply: Vec<String> = Vec::new();
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            let line = self
                .lines
                .recv_timeout(left)
                .map_err(|_| anyhow!("no reply to '{command}' within {timeout:?}"))?;
            if line.is_empty() {
                if reply.is_empty() {
                    continue;
                }
                break;
            }
            reply.push(line);
        }
        let text = reply.join("\n");
        match text.strip_prefix('=') {
            Some(answer) => Ok(answer.trim().to_string()),
            None => bail!("'{command}' failed: {text}"),
        }
    }
}

impl Drop for Player {
    fn drop(&mut self) {
        let _ = writeln!(self.stdin, "quit");
        let _ = self.stdin.flush();
        // Give it half a second to leave by itself, then end it.
        let deadline = Instant::now() + Duration::from_millis(500);
        while Instant::now() < deadline {
            if has_exited(&self.child) {
                break;
            }
            thread::sleep(Duration::from_millis(5));
        }
        // Also whatever it started (the exited leader, not reaped yet, still holds its group).
        let _ = kill_group(&mut self.child, &mut self.group_slot);
    }
}

/// Plays one game from `opening` with `clock` for each side.
fn play_game(
    engine: &std::path::Path,
    threads: usize,
    timing: Timing,
    opening: &str,
) -> Result<GameRecord> {
    let (clock, increment) = match timing {
        Timing::Clock(clock, increment) => (clock, increment),
        // Without a clock, the clocks only add up the time used.
        Timing::MoveTime(_) => (Duration::from_secs(1_000_000), Duration::ZERO),
    };
    let setup_timeout = Duration::from_secs(10);
    let mut players = [
        Player::start(engine, threads)?,
        Player::start(engine, threads)?,
    ];
    let mut game = Game::standard(8).expect("8x8");
    for player in &mut players {
        // A referee greets its engines first; process start-up is not a move's time.
        player.ask("name", setup_timeout)?;
        // Every move is searched on the clock: the opening book would answer the first
        // ones at once. An engine without the option searches them anyway.
        let _ = player.ask("setoption book off", setup_timeout);
        if !opening.is_empty() {
            player.ask(&format!("loadgame {opening}"), setup_timeout)?;
        }
        if !increment.is_zero() {
            let seconds = increment.as_secs_f64();
            player.ask(&format!("time_increment {seconds}"), setup_timeout)?;
        }
    }
    if !opening.is_empty() {
        let (_, moves) = game.position().play_transcript(opening)?;
        for mv in moves {
            game.play(mv)?;
        }
    }
    let mut left = [clock, clock];
    let mut used = [Duration::ZERO; 2];
    let mut min_left = clock;
    // Over a fair share of the clock; none without a clock.
    let mut overshoot = f64::NEG_INFINITY;
    if let Timing::MoveTime(_) = timing {
        overshoot = 0.0;
    }
    let mut lost_on_time = None;
    let (mut late, mut moves, mut worst_late_ms) = (0, 0, 0.0f64);
    while !game.is_over() {
        let position = *game.position();
        let color = position.to_move;
        let me = color.index();
        let remaining = left[me];
        let fair_share = remaining / own_moves_left(position.board.counts().2) + increment;
        let (command, allowed) = match timing {
            Timing::Clock(..) => (
                format!("genmove {color} {}", remaining.as_millis()),
                remaining / 2,
            ),
            Timing::MoveTime(t) => (format!("genmove {color} movetime {}", t.as_millis()), t),
        };
        let start = Instant::now();
        let answer = players[me].ask(
            &command,
            remaining.min(allowed * 10) + Duration::from_secs(5),
        )?;
        let elapsed = start.elapsed();
        moves += 1;
        if elapsed > allowed {
            late += 1;
            worst_late_ms = worst_late_ms.max((elapsed - allowed).as_secs_f64() * 1000.0);
        }
        used[me] += elapsed;
        if let Timing::Clock(..) = timing {
            overshoot = overshoot.max((elapsed.as_secs_f64() - fair_share.as_secs_f64()) * 1000.0);
        }
        if elapsed > remaining {
            lost_on_time.get_or_insert(color);
            left[me] = Duration::ZERO;
        } else {
            left[me] = remaining - elapsed + increment;
        }
        min_left = min_left.min(left[me]);
        let mv: Move = answer
            .parse()
            .map_err(|e| anyhow!("{color} answered '{answer}': {e}"))?;
        game.play(mv)
            .map_err(|e| anyhow!("{color} answered {mv}: {e}"))?;
        players[1 - me].ask(&format!("play {color} {mv}"), setup_timeout)?;
    }
    Ok(GameRecord {
        result: game.result(),
        used_ms: [
            used[0].as_secs_f64() * 1000.0,
            used[1].as_secs_f64() * 1000.0,
        ],
        min_left_ms: min_left.as_secs_f64() * 1000.0,
        overshoot_ms: overshoot,
        lost_on_time,
        late,
        moves,
        worst_late_ms,
    })
}
