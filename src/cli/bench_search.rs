//! The search benchmarks of `emilia bench`: `midgame` (speed and depth), `time` (that no
//! move is late) and `strength` (in-process matches).

use anyhow::{bail, Result};
use std::time::{Duration, Instant};

use super::output::outln;
use super::Args;
use crate::board::{Color, Position};
use crate::engine::Engine;
use crate::rng::Rng;
use crate::search::time::{self, Margins};
use crate::search::{Clock, Limits};
use crate::selfplay::{play_match, xot_openings, MatchScore, Player};

/// Midgame benchmark positions: six XOT openings (52 empties) and four FFO positions
/// (FFO 41, 43, 47, 51: 22 to 27 empties).
const MIDGAME_POSITIONS: [&str; 10] = [
    "f5d6c4d3c2b3b4b5",
    "f5f4g3g6f3g4e3e2",
    "f5f6d3c5d6c7b5e3",
    "f5f6d3c5c6e3c4b4",
    "f5d6c3f4c5d3g3b5",
    "d3c5f6f5e6e3d6f7",
    "-OOOOO----OOOOX--OOOOOO-XXXXXOO--XXOOX--OOXOXX----OXXO---OOO--O- X",
    "--XXXXX---XXXX---OOOXX---OOXXXX--OOXXXO-OOOOXOO----XOX----XXXXX- O",
    "-OOOOO----OOOO---OOOOX--XXXXXX---OXOOX--OOOXOX----OOXX----XXXX-- O",
    "----O-X------X-----XXXO-OXXXXXOO-XXOOXOOXXOXXXOO--OOOO-O----OO-- O",
];

/// The midgame positions as positions (transcripts from the start or board strings).
pub(crate) fn midgame_positions() -> Result<Vec<Position>> {
    let start = Position::start(8).expect("8x8 start");
    MIDGAME_POSITIONS
        .iter()
        .map(|text| {
            if text.contains(' ') {
                Ok(text.parse::<Position>()?)
            } else {
                Ok(start.play_transcript(text)?.0)
            }
        })
        .collect()
}

/// `bench midgame`: per position, depth reached and nodes per second in `seconds` (or the
/// nodes of a fixed-depth search with `--depth`), from an empty table each time.
pub(crate) fn midgame(args: &Args) -> Result<()> {
    let seconds: f64 = args.get("seconds", 1.0)?;
    let depth: Option<u32> = args.value("depth").map(str::parse).transpose()?;
    let mut engine = Engine::without_book(Engine::DEFAULT_HASH_MIB);
    engine.set_option("threads", &super::bench::threads(args)?.to_string())?;
    for name in ["eval", "mpc", "probcut"] {
        if let Some(value) = args.value(name) {
            engine.set_option(name, value)?;
        }
    }
    let limits = match depth {
        Some(d) => Limits {
            depth: Some(d),
            ..Limits::default()
        },
        None => Limits {
            move_time: Some(Duration::from_secs_f64(seconds)),
            ..Limits::default()
        },
    };
    let (mut nodes, mut time, mut depths) = (0u64, 0.0f64, 0u32);
    for (i, position) in midgame_positions()?.iter().enumerate() {
        engine.clear_hash();
        let report = engine.search(position, &limits, &mut |_| {});
        let s = report.elapsed.as_secs_f64();
        let (_, _, empties) = position.board.counts();
        outln!(
            "midgame {:2}: {empties:2} empties, depth {:2}{}, score {:>7}, best {}, {:10} nodes, \
             {:.3} s, {:.2} Mnps",
            i + 1,
            report.depth,
            if report.exact { " exact" } else { "      " },
            report.score,
            report.best,
            report.nodes,
            s,
            report.nodes as f64 / s.max(1e-9) / 1e6
        )?;
        nodes += report.nodes;
        time += s;
        depths += report.depth;
    }
    outln!(
        "midgame total: {nodes} nodes in {time:.3} s, {:.2} Mnps, mean depth {:.1}",
        nodes as f64 / time.max(1e-9) / 1e6,
        depths as f64 / MIDGAME_POSITIONS.len() as f64
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
            0 => 6,
            1 => 10,
            2 => 12,
            _ => 8,
        };
        let mut position = Position::start(size).expect("supported size");
        let squares = (size * size) as u64;
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
    let mut engine = Engine::without_book(Engine::DEFAULT_HASH_MIB);
    engine.set_option("threads", &super::bench::threads(args)?.to_string())?;
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
    let size: usize = args.get("size", 8)?;
    let which = args.value("against").unwrap_or("both");
    if !["random", "squares", "both", "options"].contains(&which) {
        bail!("--against {which}: expected random, squares, both or options");
    }
    if which == "options" {
        return options_match(args, games, ms);
    }
    if which != "squares" {
        let start = Position::start(size)
            .ok_or_else(|| anyhow::anyhow!("--size {size}: expected 6, 8, 10 or 12"))?;
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
        outln!("strength vs random ({size}x{size}, depth {random_depth}): {score}")?;
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
        let score = play_match(&openings, &mut classic, &mut squares, &mut |_, discs| {
            done += 1;
            log::info!("game {done}: {discs:+}");
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
    let score = play_match(&openings, &mut a, &mut b, &mut |_, discs| {
        log::info!("game: {discs:+}");
    });
    outln!(
        "strength [{a_text}] vs [{b_text}] ({ms} ms a move, {} XOT openings x 2 colours): {score}",
        openings.len()
    )?;
    Ok(())
}
