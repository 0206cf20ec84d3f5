//! The search benchmarks of `emilia bench`: `midgame` (speed and depth), `time` (that no
//! move is late) and `strength` (in-process matches).

use anyhow::{bail, Result};
use std::time::{Duration, Instant};

use emilia_core::bench;

use super::args::Args;
use super::output::outln;
use crate::selfplay::{play_match, xot_openings, MatchScore, Player};
use emilia_core::board::{BoardSize, Color, Position};
use emilia_core::engine::Source;
use emilia_core::rng::Rng;
use emilia_core::search::time::{self, Margins};
use emilia_core::search::{Clock, Limits};
use emilia_core::{Config, Engine};

/// The engine of the search benchmarks: no book, the default table, and the options
/// `--threads`, `--eval`, `--mpc` and `--probcut` as given.
fn bench_engine(args: &Args) -> Result<Engine> {
    let mut engine = Engine::new(Config {
        book: Source::Off,
        ..Config::default()
    })?;
    engine.set_option("threads", &args.threads("1")?.to_string())?;
    for name in ["eval", "mpc", "probcut"] {
        if let Some(value) = args.value(name) {
            engine.set_option(name, value)?;
        }
    }
    Ok(engine)
}

/// `bench midgame`: per position, depth reached and nodes per second in `seconds` (or the
/// nodes of a fixed-depth search with `--depth`), from an empty table each time.
pub(crate) fn midgame(args: &Args) -> Result<()> {
    let seconds = args.seconds("seconds", 1.0)?;
    let depth: Option<u32> = args.value("depth").map(str::parse).transpose()?;
    let mut engine = bench_engine(args)?;
    let limits = match depth {
        Some(d) => Limits {
            depth: Some(d),
            ..Limits::default()
        },
        None => Limits {
            move_time: Some(seconds),
            ..Limits::default()
        },
    };
    let mut run = bench::midgame(&mut engine, &limits);
    for result in &mut run {
        outln!("{result}")?;
    }
    outln!("{}", run.total())?;
    Ok(())
}

/// Games for `bench replay`: every 188th game of the WTHOR database of 2003 (the one in
/// tests/data), 60 moves each.
const REPLAY_GAMES: [&str; 20] = [
    "f5d6c3d3c4f3f4g3e3b4e6g5f6e2d2e7g4c5e1f2a4b3b5a3h3b6a6a5h6f1c2a7d1c1g6h5h4g7h8f7f8h7d8e8g8c8b8h2h1d7c6g2c7b7g1b1b2a1a2a8",
    "f5d6c5f4e3c6d3f6e6d7e7c7c4f3d8c8b8e2b6e8f8f7g4c3g5g3d2b3b5a5g8f2e1h4c2f1a3d1c1b1h2h3h5b4b2h6h7g6a4b7a1a2a6a8a7h8g2h1g1g7",
    "f5d6c4d3c3f4f6g5e6d7e3e2f2c6e7f3g4g6g3h3f1c2d2e1d1c1c5g1d8c8b8b5b6c7f7b3b2h4a5a4h5g2a3e8h1h2b4a8b7a7b1a6f8g7h8h7a2a1h6g8",
    "f5d6c4d3c3f4c5b3c2e3d2c6b4a3b5a4e2e6a6d1e1c1f2f1f3a5a2g1f7g6g5e8g8g3f6h6g4h5h3e7b6h4h7f8d8d7c8c7g2h1b8b7a8a7b1a1h2h8b2g7",
    "f5d6c4d3c3f4c5b4b3c2d7c6e6b5a5a6a3b6g3g4a4a2g5h6e3f3h5h4h3h2d2f2e2e1d1c1f1g1b2d8e8f8c7g6f6e7g7f7g8c8b8b7a8a1b1a7h1h7h8g2",
    "f5d6c4d3c3f4f6g5f3e3g4g6e6c5h5e7d7f7f8b5h6g3f2h3d8c8e2f1h4h7d1c2c6c7d2c1b4e1a5b6a6e8g8h8g7b3a3a4b7b8b1a1a2g2h2g1a7a8h1b2",
    "f5d6c5f4d3e3g4g5e6c4g3c3f3h4e2d2f2d1e1h3b5b4h6c6c1c2h5e7h2g1b1a5b3g2a4f6a6a2b6g6h7b2h1g7f1b7a7e8f8g8h8f7d8a1a3d7c7a8b8c8",
    "f5d6c3d3c4b3c6b6d7e8c2c1a3e6c5f4f6e3b5a5d1e1c7b4f7e7c8g5a6f8f2d2f3e2g4a7f1g1h6d8a4a2g8h4b2g6h3b7h5h7h8g7a8b8a1g2g3h2h1b1",
    "f5d6c3d3c4f4f6f3e6e7d7g6f8f7g5g4e2c8d8c5e3f2b4c2d2e1g3c1h6h5h4e8b8g7d1b5c6f1b3h2a4b2g2a5a2h1g1h3h8c7g8h7a6a3a1b1b6b7a8a7",
    "f5f6e6f4g5d6f3g6e7f8d8e8g8h5h6h7c5c6d7g3c4e3c3d3g4b6f2h4e2b4b3d2c7b5h2a3c1f1g2d1e1b8h3h1g1b1g7b7a4a5c8h8f7c2b2a6a7a8a2a1",
    "f5d6c5f4e3c6d3f6e6d7g4g3e7c7c4f3d8e2b5h3e1c8b8e8f8f7h4h5f2b6a5a6a7d2c1b3c2b4a4c3g8g5g2h1h2g1g6a2b7f1b2d1h6b1h7g7a8h8a1a3",
    "f5d6c5f4e3c6d3f6e6d7e7c7c4d8b6b5f8f3b8b3c3a5a3b4a7c2d2d1g6g7g4g5e2e8h5h3h8h4h2g3f7b2f2e1h6h7c8h1g8f1a2a4a6b7a1b1c1g2g1a8",
    "f5d6c3d3c4f4f6f3e6e7d7g6g5f7e2c8e3h5g3c2d2g4e8d8b8c7b6c6b5c5b3b4d1a7a6a5f8a2h6h7h3g7a4a3h8g8h4f1e1a8g1c1b1b7b2a1f2g2h1h2",
    "f5f6e6f4e3d6c4c3c6c5g4c7g6h3b4f2e2g3g5d3h4f3d2h6b5h5c2e1c8b6a5b3a4a2f1c1a3a6d1g1d7e7e8f8d8b8g7b2a1h7a7g2h1b1h2f7h8g8a8b7",
    "f5d6c4d3e6f4e3f3c6f6g5g6e7g4c3f7d2d8f8c1e2d1h5h4h3c5g3b3h6b4b6c2e8b5c8c7a4d7a5a3a2g7f1e1b1f2g1h7g2h1h2a1b2a6b8b7a8a7g8h8",
    "f5d6c4d3e6f4e3f3c6f6g5g6e7h6c3f7d2d8f8c5b4c7d7e8c8c1e2d1g8c2g4h5h3g3f1f2g7b3a2a5a3b5h4h2b6a7a6a4h7h8a8b8b7a1e1g1b1b2h1g2",
    "f5d6c5f4e3c6d3f6g4c4g6g5f7e7e6h6h5f8h7c3b4b3d2c2b5g3c7h3f3a4d7a6d8b6e8e1d1c1b2e2a2f2a5h4h2c8a3a1b7a8b1a7b8g7h8g8g1f1g2h1",
    "f5f6e6f4e3c5c4d6b6b5c6d7c7a6f7f8g3c8g5g4g6c3b3a3b4a5a4e7c2h6h4h5h7d3b7f3d8e8f2b8e2g2d2d1b1h3h1h2g1h8f1b2a1a2a8a7g8e1c1g7",
    "f5d6c3d3c4f4c5b3c2e3d2c6b4a3g3g4f3e2b6a6e1f1g1c1b5d1b1f2e6g5e7h4d7c7a5a4f6g6f7d8e8b2h6f8h5g2c8h3g8b7a1a2h2h7h8g7b8a7a8h1",
    "f5f6e6f4g5e7f7h5e3d3g4h4h3g6g3c6c5f3e2d2c4e8c7e1f2c2c3h2d8f1g2d6f8h1d7g7h8g8b1b5b6b3a3a6h7h6b7b4b2c1d1a8a7a1a5a2a4b8c8g1",
];

/// Empties of the first and the last positions searched along each game by `bench replay`.
const REPLAY_EMPTIES: std::ops::RangeInclusive<u32> = 22..=52;

/// `bench replay`: searches to `--depth` (default 16) of Black's positions from 52 to 22
/// empties along recorded games, the table kept from move to move as in a game (and
/// cleared before each game): what the table carries over between searches shows here,
/// not in `bench midgame`, whose positions are unrelated.
pub(crate) fn replay(args: &Args) -> Result<()> {
    let depth: u32 = args.get("depth", 16)?;
    let mut engine = bench_engine(args)?;
    let limits = Limits {
        depth: Some(depth),
        ..Limits::default()
    };
    let start = Position::start_of(BoardSize::EIGHT);
    let (mut nodes, mut time, mut searches) = (0u64, 0.0f64, 0usize);
    for (i, game) in REPLAY_GAMES.iter().enumerate() {
        engine.clear_hash();
        let (_, moves) = start.play_transcript(game)?;
        let (mut game_nodes, mut game_time, mut game_searches) = (0u64, 0.0f64, 0usize);
        let mut position = start;
        for mv in moves {
            let (_, _, empties) = position.board.counts();
            if position.to_move == Color::Black && REPLAY_EMPTIES.contains(&empties) {
                let report = engine.search(&position, &limits, &mut |_| {});
                game_nodes += report.nodes;
                game_time += report.elapsed.as_secs_f64();
                game_searches += 1;
            }
            position = position.play(mv)?;
        }
        outln!(
            "replay {:2}: {game_searches} searches to depth {depth}, {game_nodes:11} nodes, \
             {game_time:.3} s",
            i + 1
        )?;
        nodes += game_nodes;
        time += game_time;
        searches += game_searches;
    }
    outln!(
        "replay total: {searches} searches, {nodes} nodes in {time:.3} s, {:.2} Mnps",
        nodes as f64 / time.max(1e-9) / 1e6
    )?;
    Ok(())
}

/// Positions for the time benchmark: random playouts from the start on every size,
/// mostly 8x8, at every stage of the game.
fn time_positions(count: usize) -> Vec<Position> {
    let mut rng = Rng::new(0x2545_F491_4F6C_DD1D);
    let mut next = move || rng.next_u64();
    let mut positions = Vec::with_capacity(count);
    while positions.len() < count {
        let size = match next() % 10 {
            0 => BoardSize::SIX,
            1 => BoardSize::TEN,
            2 => BoardSize::TWELVE,
            _ => BoardSize::EIGHT,
        };
        let mut position = Position::start_of(size);
        let squares = size.squares() as u64;
        let plies = next() % (squares - 5);
        for _ in 0..plies {
            if position.is_game_over() {
                break;
            }
            let moves = position.legal_moves();
            let mv = moves[(next() % moves.len() as u64) as usize];
            position = position.play(mv).expect("legal");
        }
        if !position.is_game_over() {
            positions.push(position);
        }
    }
    positions
}

/// The `q`-quantile of sorted `values`.
fn quantile(sorted: &[f64], q: f64) -> f64 {
    if sorted.is_empty() {
        return 0.0;
    }
    sorted[((sorted.len() - 1) as f64 * q).round() as usize]
}

/// `bench time`: genmove-style searches with budgets from 5 to 200 ms, half on a fixed
/// move time and half on a game clock; reports how far searches overran.
pub(crate) fn time(args: &Args) -> Result<()> {
    let count: usize = args.get("count", 1000)?;
    if count == 0 {
        bail!("--count must be at least 1");
    }
    let budgets_ms = [5u64, 10, 20, 50, 100, 200];
    let mut engine = Engine::new(Config {
        book: Source::Off,
        ..Config::default()
    })?;
    engine.set_option("threads", &args.threads("1")?.to_string())?;
    let mut move_time_over = Vec::new();
    let mut clock_over = Vec::new();
    let (mut late, mut worst_share) = (0, 0.0f64);
    for (i, position) in time_positions(count).iter().enumerate() {
        let budget = Duration::from_millis(budgets_ms[i % budgets_ms.len()]);
        let (_, _, empties) = position.board.counts();
        let limits = if i % 2 == 0 {
            Limits {
                move_time: Some(budget),
                ..Limits::default()
            }
        } else {
            // A clock whose share for this move is about `budget`; every fifth one is
            // nearly out of time, the case where a late move loses.
            let remaining = if i % 5 == 1 {
                budget / 2
            } else {
                budget.div_f64(time::clock_share(
                    empties,
                    position.size(),
                    time::solve_empties(position.size()),
                ))
            };
            Limits {
                clock: Some(Clock::sudden_death(remaining)),
                ..Limits::default()
            }
        };
        let started = Instant::now();
        let report = engine.search(position, &limits, &mut |_| {});
        let elapsed = started.elapsed();
        if position.play(report.best).is_err() {
            bail!("illegal move {} in {position}", report.best);
        }
        if let Some(t) = limits.move_time {
            let over = (elapsed.as_secs_f64() - t.as_secs_f64()) * 1e3;
            move_time_over.push(over);
            if over > 2.0 {
                log::info!(
                    "{over:+.3} ms over {t:?}: {}x{} with {empties} empties, depth {}, {} nodes",
                    position.size(),
                    position.size(),
                    report.depth,
                    report.nodes
                );
            }
        }
        if let Some(clock) = limits.clock {
            let hard = time::for_clock(&clock, empties, position.size(), &Margins::DEFAULT)
                .hard
                .unwrap_or_default();
            clock_over.push((elapsed.as_secs_f64() - hard.as_secs_f64()) * 1e3);
            worst_share = worst_share.max(elapsed.as_secs_f64() / clock.remaining.as_secs_f64());
            if elapsed >= clock.remaining {
                late += 1;
                outln!(
                    "LATE: {:.3} ms used of {:.3} ms remaining in {position}",
                    elapsed.as_secs_f64() * 1e3,
                    clock.remaining.as_secs_f64() * 1e3
                )?;
            }
        }
    }
    for (name, values) in [
        ("move time (over the move time)", &mut move_time_over),
        ("clock (over the hard deadline)", &mut clock_over),
    ] {
        values.sort_by(f64::total_cmp);
        outln!(
            "time {name}: {} searches, overshoot median {:+.3} ms, p99 {:+.3} ms, max {:+.3} ms",
            values.len(),
            quantile(values, 0.5),
            quantile(values, 0.99),
            values.last().copied().unwrap_or(0.0)
        )?;
    }
    outln!(
        "time clock: {late} late moves, largest share of the remaining clock used {:.1} %",
        100.0 * worst_share
    )?;
    Ok(())
}

/// `bench strength`: the classic evaluation against a random player, then against the
/// `squares` evaluation from XOT openings.
pub(crate) fn strength(args: &Args) -> Result<()> {
    let games: usize = args.get("games", 200)?;
    let random_depth: u32 = args.get("random-depth", 4)?;
    let ms: u64 = args.get("ms", 100)?;
    let size = args.get("size", BoardSize::EIGHT)?;
    let which = args.value("against").unwrap_or("both");
    if !["random", "squares", "both", "options"].contains(&which) {
        bail!("--against {which}: expected random, squares, both or options");
    }
    if which == "options" {
        return options_match(args, games, ms);
    }
    if which != "squares" {
        let start = Position::start_of(size);
        let mut score = MatchScore::default();
        let limits = Limits {
            depth: Some(random_depth),
            ..Limits::default()
        };
        let mut emilia = Player::engine(&[], limits, 16);
        for game in 0..games {
            let mut random = Player::Random(Rng::new(0x9E37_79B9 + game as u64));
            let colour = if game % 2 == 0 {
                Color::Black
            } else {
                Color::White
            };
            let played = match colour {
                Color::Black => crate::selfplay::play_game(&start, &mut emilia, &mut random),
                Color::White => crate::selfplay::play_game(&start, &mut random, &mut emilia),
            };
            score.add(played.score_for(colour));
        }
        outln!("strength vs random ({size}, depth {random_depth}): {score}")?;
    }
    if which != "random" {
        let openings = xot_openings(games.div_ceil(2));
        let limits = Limits {
            move_time: Some(Duration::from_millis(ms)),
            ..Limits::default()
        };
        let mut classic = Player::engine(&[("eval", "classic")], limits.clone(), 16);
        let mut squares = Player::engine(&[("eval", "squares")], limits, 16);
        let mut done = 0;
        let score = play_match(&openings, &mut classic, &mut squares, &mut |game, discs| {
            done += 1;
            log::info!("game {done}: {discs:+} {}", game.transcript());
        });
        outln!(
            "strength classic vs squares ({ms} ms a move, {} XOT openings x 2 colours): {score}",
            openings.len()
        )?;
    }
    Ok(())
}

/// Reads `name=value,name=value` engine options.
fn parse_options(text: &str) -> Result<Vec<(&str, &str)>> {
    text.split(',')
        .filter(|part| !part.is_empty())
        .map(|part| {
            part.split_once('=')
                .ok_or_else(|| anyhow::anyhow!("'{part}' is not name=value"))
        })
        .collect()
}

/// `bench strength --against options --a OPTS --b OPTS`: two settings of the engine
/// against each other from XOT openings.
fn options_match(args: &Args, games: usize, ms: u64) -> Result<()> {
    let (a_text, b_text) = (args.value("a").unwrap_or(""), args.value("b").unwrap_or(""));
    let limits = Limits {
        move_time: Some(Duration::from_millis(ms)),
        ..Limits::default()
    };
    let mut a = Player::engine(&parse_options(a_text)?, limits.clone(), 16);
    let mut b = Player::engine(&parse_options(b_text)?, limits, 16);
    let openings = xot_openings(games.div_ceil(2));
    let score = play_match(&openings, &mut a, &mut b, &mut |game, discs| {
        log::info!("game: {discs:+} {}", game.transcript());
    });
    outln!(
        "strength [{a_text}] vs [{b_text}] ({ms} ms a move, {} XOT openings x 2 colours): {score}",
        openings.len()
    )?;
    Ok(())
}
