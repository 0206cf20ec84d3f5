//! Calibration of Multi-ProbCut (`emilia tune mpc`): searches held-out positions at every
//! depth without selectivity, and fits for each stage and depth the regression of the deep
//! score on the shallow one, and for the endgame that of the exact result on a shallow
//! search. The result is a [`Table`] for the search.
//!
//! Positions come from held-out games (the same split as the evaluation's training), one
//! position a game at a number of empties drawn at random, so that they were never trained
//! on and are not correlated with each other.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;
use std::time::Duration;

use anyhow::{bail, Result};

use crate::train::games::GamePosition;
use emilia_core::board::{AnyBoard, Board, Board8, Position};
use emilia_core::endgame::Solver;
use emilia_core::engine::Source;
use emilia_core::rng::Rng;
use emilia_core::search::mpc::{self, Cut, Line, Table};
use emilia_core::search::Limits;
use emilia_core::Engine;

/// What to measure.
#[derive(Clone, Debug)]
pub struct Config {
    /// Deepest midgame search measured.
    pub max_depth: u32,
    /// Width of the midgame stages, in empties.
    pub stage_width: u32,
    /// Midgame positions have from `max_depth + 2` to this many empties.
    pub max_empties: u32,
    /// Endgame positions: empties measured (exact solves).
    pub end_empties: std::ops::RangeInclusive<u32>,
    /// Positions for each endgame number of empties.
    pub end_positions: usize,
    /// Seed of the random choice of positions.
    pub seed: u64,
}

impl Default for Config {
    fn default() -> Config {
        Config {
            max_depth: 12,
            stage_width: 4,
            max_empties: 56,
            end_empties: 12..=22,
            end_positions: 60,
            seed: 1,
        }
    }
}

/// Searches of one position: `scores[d]` is the score at depth `d` (hundredths), and the
/// exact result when known.
#[derive(Clone, Debug)]
pub struct Measured {
    /// Empty squares.
    pub empties: u32,
    /// Score at each depth, index 0 unused.
    pub scores: Vec<i32>,
    /// Exact result, hundredths of a disc.
    pub exact: Option<i32>,
}

/// Picks, from each game in turn, one position with empties in `range` at random; `None`
/// for games that have no such position.
pub fn pick_positions(
    games: &[Vec<GamePosition>],
    range: std::ops::RangeInclusive<u32>,
    rng: &mut Rng,
) -> Vec<Board8> {
    games
        .iter()
        .filter_map(|positions| {
            let within: Vec<&GamePosition> = positions
                .iter()
                .filter(|p| range.contains(&p.empties()))
                .collect();
            (!within.is_empty()).then(|| within[rng.below(within.len())].board)
        })
        .collect()
}

fn engine_position(board: &Board8) -> Position {
    // The side to move is called Black: scores are for the mover either way.
    Position {
        board: AnyBoard::Eight(*board),
        to_move: emilia_core::board::Color::Black,
    }
}

/// Searches `board` without selectivity at every depth up to `max_depth` from a cleared
/// table.
pub fn measure_depths(engine: &mut Engine, board: &Board8, max_depth: u32) -> Measured {
    engine.clear_hash();
    let mut scores = vec![0; max_depth as usize + 1];
    let limits = Limits {
        depth: Some(max_depth),
        ..Limits::default()
    };
    engine.search(&engine_position(board), &limits, &mut |report| {
        if let Some(slot) = scores.get_mut(report.depth as usize) {
            *slot = report.score.hundredths();
        }
    });
    Measured {
        empties: board.empties(),
        scores,
        exact: None,
    }
}

/// Least squares of `y` on `x`: slope, intercept and the standard deviation of the error.
pub fn regression(pairs: &[(f64, f64)]) -> Option<(f64, f64, f64)> {
    let n = pairs.len() as f64;
    if pairs.len() < 3 {
        return None;
    }
    let (mx, my) = (
        pairs.iter().map(|p| p.0).sum::<f64>() / n,
        pairs.iter().map(|p| p.1).sum::<f64>() / n,
    );
    let sxx: f64 = pairs.iter().map(|p| (p.0 - mx).powi(2)).sum();
    let sxy: f64 = pairs.iter().map(|p| (p.0 - mx) * (p.1 - my)).sum();
    if sxx <= 0.0 {
        return None;
    }
    let slope = sxy / sxx;
    let intercept = my - slope * mx;
    let sse: f64 = pairs
        .iter()
        .map(|p| (p.1 - slope * p.0 - intercept).powi(2))
        .sum();
    Some((slope, intercept, (sse / (n - 2.0)).sqrt()))
}

/// Fewest positions an entry is fitted on.
const MIN_SAMPLES: usize = 30;

/// A fitted entry, or `None` with too few positions or an implausible slope.
fn fit_cut(shallow: u32, pairs: &[(f64, f64)]) -> Option<Cut> {
    if pairs.len() < MIN_SAMPLES {
        return None;
    }
    let (slope, intercept, sigma) = regression(pairs)?;
    (0.5..2.0).contains(&slope).then_some(Cut {
        shallow,
        slope: slope as f32,
        intercept: intercept as f32,
        sigma: sigma as f32,
        samples: pairs.len() as u32,
    })
}

/// Extends measured entries `(x, cut)` (x a depth or a number of empties, ascending) to
/// every `x` up to `last`: the slope and intercept of the deepest measured entry of the
/// same parity, and a standard deviation growing as a line fitted to the measured ones,
/// never below the deepest measured. Where the fitted line falls, it is taken flat at its
/// value at 0, above the measured deviations: the shipped table's deep entries are so
/// wider than its measured ones (narrowing them was tried: docs/experiments.md,
/// Multi-ProbCut).
fn extrapolate(measured: &[(u32, Cut)], last: u32, shallow: fn(u32) -> u32) -> Vec<(u32, Cut)> {
    let Some(&(deepest, _)) = measured.last() else {
        return Vec::new();
    };
    let points: Vec<(f64, f64)> = measured
        .iter()
        .map(|&(x, c)| (x as f64, c.sigma as f64))
        .collect();
    let (growth, base, _) = regression(&points).unwrap_or((0.0, 0.0, 0.0));
    let growth = growth.max(0.0);
    (deepest + 1..=last)
        .filter_map(|x| {
            let (_, same) = measured.iter().rev().find(|(m, _)| m % 2 == x % 2)?;
            let sigma = (base + growth * x as f64).max(same.sigma as f64);
            Some((
                x,
                Cut {
                    shallow: shallow(x),
                    sigma: sigma as f32,
                    samples: 0,
                    ..*same
                },
            ))
        })
        .collect()
}

/// The table from midgame and endgame measurements.
pub fn fit_table(config: &Config, mid: &[Measured], end: &[Measured]) -> Result<Table> {
    let mut lines = Vec::new();
    let width = config.stage_width.max(1);
    let mut from = 0;
    while from <= 60 {
        let to = (from + width - 1).min(60);
        let in_stage: Vec<&Measured> = mid
            .iter()
            .filter(|m| (from..=to).contains(&m.empties))
            .collect();
        let mut measured = Vec::new();
        for depth in 3..=config.max_depth {
            let shallow = mpc::shallow_depth(depth);
            let pairs: Vec<(f64, f64)> = in_stage
                .iter()
                .filter(|m| (depth as usize) < m.scores.len() && depth < m.empties)
                .map(|m| {
                    (
                        m.scores[shallow as usize] as f64,
                        m.scores[depth as usize] as f64,
                    )
                })
                .collect();
            if let Some(cut) = fit_cut(shallow, &pairs) {
                measured.push((depth, cut));
            }
        }
        let extended = extrapolate(&measured, mpc::MAX_DEPTH, mpc::shallow_depth);
        for (depth, cut) in measured.into_iter().chain(extended) {
            lines.push(Line::Mid {
                from,
                to,
                depth,
                cut,
            });
        }
        from += width;
    }
    let mut measured = Vec::new();
    for empties in config.end_empties.clone() {
        let shallow = mpc::shallow_depth(empties);
        let pairs: Vec<(f64, f64)> = end
            .iter()
            .filter(|m| m.empties == empties)
            .filter_map(|m| Some((*m.scores.get(shallow as usize)? as f64, m.exact? as f64)))
            .collect();
        if let Some(cut) = fit_cut(shallow, &pairs) {
            measured.push((empties, cut));
        }
    }
    // The selective endgame search goes up to where the midgame table takes over.
    let extended = extrapolate(&measured, 36, mpc::shallow_depth);
    for (empties, cut) in measured.into_iter().chain(extended) {
        lines.push(Line::End { empties, cut });
    }
    if lines.is_empty() {
        bail!("too few positions for any entry");
    }
    Ok(Table::new(lines)?)
}

/// An engine that measures: no opening book, no selectivity, one thread (the measurement
/// spreads its positions over the threads, each searched alone so that the table is the
/// same on every run).
pub fn measuring_engine(hash_mib: usize) -> Engine {
    let mut engine = Engine::new(emilia_core::Config {
        hash_mib,
        book: Source::Off,
        ..emilia_core::Config::default()
    })
    .unwrap_or_else(|e| panic!("{e}"));
    for (name, value) in [("threads", "1"), ("probcut", "0")] {
        engine.set_option(name, value).expect("valid option values");
    }
    engine
}

/// Measures every position of `mid` to `max_depth` ([`measure_depths`]) and every one of
/// `end` to the end ([`measure_end`]), on `threads` threads, each with its own engine and
/// solver of `hash_mib` MiB each. The results are in the order of the positions, the same
/// on any number of threads. `progress` is called about every `every` with the positions
/// done.
pub fn measure_all(
    mid: &[Board8],
    end: &[Board8],
    max_depth: u32,
    threads: usize,
    hash_mib: usize,
    every: Duration,
    progress: &mut dyn FnMut(usize),
) -> (Vec<Measured>, Vec<Measured>) {
    let total = mid.len() + end.len();
    let next = AtomicUsize::new(0);
    let done = AtomicUsize::new(0);
    let results: Mutex<Vec<Option<Measured>>> = Mutex::new(vec![None; total]);
    std::thread::scope(|scope| {
        for _ in 0..threads.clamp(1, total.max(1)) {
            scope.spawn(|| {
                let mut engine = measuring_engine(hash_mib);
                let mut solver = Solver::new(hash_mib);
                loop {
                    let i = next.fetch_add(1, Ordering::Relaxed);
                    let measured = match (mid.get(i), i.checked_sub(mid.len())) {
                        (Some(board), _) => measure_depths(&mut engine, board, max_depth),
                        (None, Some(j)) if j < end.len() => {
                            measure_end(&mut engine, &mut solver, &end[j])
                        }
                        _ => break,
                    };
                    results.lock().unwrap_or_else(|p| p.into_inner())[i] = Some(measured);
                    done.fetch_add(1, Ordering::Relaxed);
                }
            });
        }
        let mut last = std::time::Instant::now();
        while done.load(Ordering::Relaxed) < total {
            std::thread::sleep(Duration::from_millis(50));
            if last.elapsed() >= every {
                last = std::time::Instant::now();
                progress(done.load(Ordering::Relaxed));
            }
        }
    });
    progress(total);
    let mut all: Vec<Measured> = results
        .into_inner()
        .unwrap_or_else(|p| p.into_inner())
        .into_iter()
        .map(|m| m.expect("every position measured"))
        .collect();
    let end_measured = all.split_off(mid.len());
    (all, end_measured)
}

/// Measures the endgame pairs of `board`: the exact result and the shallow search the
/// table would use.
pub fn measure_end(engine: &mut Engine, solver: &mut Solver, board: &Board8) -> Measured {
    let empties = board.empties();
    let mut measured = measure_depths(engine, board, mpc::shallow_depth(empties));
    solver.clear();
    measured.exact = Some(solver.solve_exact(&AnyBoard::Eight(*board)).score * 100);
    measured
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn regression_recovers_a_line() {
        let pairs: Vec<(f64, f64)> = (0..50)
            .map(|i| {
                let x = i as f64 * 10.0;
                (x, 0.9 * x + 30.0 + if i % 2 == 0 { 5.0 } else { -5.0 })
            })
            .collect();
        let (slope, intercept, sigma) = regression(&pairs).unwrap();
        assert!((slope - 0.9).abs() < 0.01 && (intercept - 30.0).abs() < 2.0);
        assert!((sigma - 5.0).abs() < 0.3, "{sigma}");
    }

    #[test]
    fn extrapolated_entries_keep_parity_and_never_narrow() {
        let cut = |sigma: f32, slope: f32| Cut {
            shallow: 0,
            slope,
            intercept: 0.0,
            sigma,
            samples: 40,
        };
        let measured = [
            (5, cut(300.0, 0.9)),
            (6, cut(320.0, 1.1)),
            (7, cut(340.0, 0.95)),
        ];
        let out = extrapolate(&measured, 10, mpc::shallow_depth);
        assert_eq!(out.len(), 3);
        assert_eq!(out[0].1.slope, 1.1); // depth 8 takes depth 6's regression
        assert_eq!(out[1].1.slope, 0.95); // depth 9 takes depth 7's
        assert!(out.windows(2).all(|w| w[1].1.sigma >= w[0].1.sigma));
        assert!(out
            .iter()
            .all(|(d, c)| c.samples == 0 && c.shallow == mpc::shallow_depth(*d)));
    }

    #[test]
    fn a_small_measurement_gives_a_usable_table() {
        // Random positions from random games: enough for entries at the lowest depths.
        let mut rng = Rng::new(7u64);
        let config = Config {
            max_depth: 4,
            end_empties: 8..=8,
            ..Config::default()
        };
        let mut mid_boards = Vec::new();
        let mut end_boards = Vec::new();
        while mid_boards.len() < 40 || end_boards.len() < 40 {
            let mut board = Board8::START;
            let target = if mid_boards.len() < 40 { 30 } else { 8 };
            while board.empties() > target {
                let moves = board.move_mask();
                if moves == 0 {
                    board = board.pass();
                    if board.move_mask() == 0 {
                        break;
                    }
                    continue;
                }
                let pick = emilia_core::board::bitboard::Bits(moves)
                    .nth(rng.below(moves.count_ones() as usize))
                    .unwrap_or(0);
                board = board.play(pick);
            }
            if board.move_mask() == 0 || board.empties() != target {
                continue;
            }
            if target == 30 {
                mid_boards.push(board);
            } else {
                end_boards.push(board);
            }
        }
        let every = Duration::from_secs(3600);
        let (mid, end) = measure_all(&mid_boards, &end_boards, 4, 2, 1, every, &mut |_| {});
        let table = fit_table(&config, &mid, &end).unwrap();
        // The same table from one thread: each position is measured alone.
        let (mid1, end1) = measure_all(&mid_boards, &end_boards, 4, 1, 1, every, &mut |_| {});
        let alone = fit_table(&config, &mid1, &end1).unwrap();
        assert_eq!(alone.to_text("test"), table.to_text("test"));
        let cut = table.mid(30, 4).expect("a measured entry");
        assert_eq!((cut.shallow, cut.samples), (2, 40));
        assert!(cut.sigma > 0.0);
        // Deeper entries are extrapolated, the endgame measured at 8 empties.
        assert_eq!(table.mid(30, 20).unwrap().samples, 0);
        assert_eq!(table.end(8).unwrap().samples, 40);
        assert_eq!(
            Table::parse(&table.to_text("test")).unwrap().lines().len(),
            table.lines().len()
        );
    }
}
