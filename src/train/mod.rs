//! The trainer behind `emilia train`: game records in, a weights file for the pattern
//! evaluation out, with its error on held-out games.
//!
//! Games are split deterministically by their place in the input (files in name order,
//! games in file order): every `holdout_every`-th game is held out for the report and
//! never trained on. Every position of a training game becomes a sample labelled by
//! [`labels`]; [`fit`] fits all stages' weights at once.

pub mod exact;
pub(crate) mod fit;
pub(crate) mod games;
pub(crate) mod labels;

use std::path::PathBuf;

use anyhow::{bail, Result};

use crate::board::Board8;
use crate::endgame::Solver;
use crate::eval::pattern::{indices, stage, Layout, PatternEval, FEATURE_COUNT, STAGES};
use crate::eval::weights::Weights;
use crate::eval::{Classic, Evaluator};
use crate::score;
use fit::{Penalties, Samples};
use games::ReplayedGame;

/// What to train on and how.
#[derive(Clone, Debug)]
pub(crate) struct Config {
    /// WTHOR files or directories of them.
    pub(crate) games: Vec<PathBuf>,
    /// Where to write the weights file.
    pub(crate) out: PathBuf,
    /// One game in this many is held out.
    pub(crate) holdout_every: usize,
    /// Which one: game number modulo `holdout_every`.
    pub(crate) holdout: usize,
    /// Another residue left out of training altogether, so that settings can be tuned on
    /// `holdout` while the real test games stay unseen.
    pub(crate) exclude: Option<usize>,
    /// Train on one game in this many of the rest (1 = all): for quick experiments.
    pub(crate) subsample: usize,
    /// Conjugate-gradient iterations.
    pub(crate) iterations: usize,
    /// Regularisation.
    pub(crate) penalties: Penalties,
    /// Files of positions with exact values (see [`exact`]) to measure the result on.
    pub(crate) exact_files: Vec<PathBuf>,
    /// Positions with at most this many empty squares are solved exactly for their labels
    /// (0: none, labels come from the game records alone).
    pub(crate) solve_empties: u32,
    /// Measure this weights file instead of training (`None`: train).
    pub(crate) measure_only: Option<PathBuf>,
}

impl Default for Config {
    fn default() -> Config {
        Config {
            games: Vec::new(),
            out: PathBuf::from("emilia.weights"),
            holdout_every: 10,
            holdout: 9,
            exclude: None,
            subsample: 1,
            iterations: 100,
            // Chosen on validation games (residue 8, with the test residue 9 left out).
            penalties: Penalties {
                l2: 1.0,
                smooth: 100.0,
            },
            exact_files: Vec::new(),
            measure_only: None,
            solve_empties: 14,
        }
    }
}

/// Mean absolute errors on held-out positions.
#[derive(Clone, Debug, Default)]
pub(crate) struct Errors {
    /// Positions measured.
    pub(crate) count: usize,
    /// The trained evaluation.
    pub(crate) pattern: f64,
    /// Predicting a draw every time.
    pub(crate) zero: f64,
    /// Predicting the current disc difference.
    pub(crate) discs: f64,
    /// The classic evaluation (hand-chosen features with tuned weights).
    pub(crate) classic: f64,
}

impl Errors {
    /// Adds the errors of every evaluation on `board` whose exact or backed-up value for
    /// the side to move is `label` discs.
    fn add(&mut self, board: &Board8, label: f64, pattern: &PatternEval, classic: &Classic) {
        let discs = board.player.count_ones() as f64 - board.opponent.count_ones() as f64;
        self.count += 1;
        self.pattern += (score::to_discs(pattern.evaluate(board)) - label).abs();
        self.zero += label.abs();
        self.discs += (discs - label).abs();
        self.classic += (score::to_discs(classic.evaluate(board)) - label).abs();
    }

    fn mean(&self) -> Errors {
        let n = self.count.max(1) as f64;
        Errors {
            count: self.count,
            pattern: self.pattern / n,
            zero: self.zero / n,
            discs: self.discs / n,
            classic: self.classic / n,
        }
    }
}

/// What a training run measured.
#[derive(Clone, Debug, Default)]
pub(crate) struct Summary {
    /// Games read, held out, and trained on.
    pub(crate) games: (usize, usize, usize),
    /// Training samples.
    pub(crate) samples: usize,
    /// Errors on held-out positions with 24 empties, whose labels are exact.
    pub(crate) exact24: Errors,
    /// Errors on held-out positions by range of empties `(lo, hi, errors)`, against the
    /// backed-up labels.
    pub(crate) by_empties: Vec<(u32, u32, Errors)>,
    /// Errors on each exact-positions file: `(file, errors)`.
    pub(crate) exact_files: Vec<(PathBuf, Errors)>,
    /// Bytes of the weights file written.
    pub(crate) file_bytes: usize,
}

/// Ranges of empties the report breaks errors down by.
const REPORT_RANGES: [(u32, u32); 7] = [
    (50, 59),
    (40, 49),
    (30, 39),
    (25, 29),
    (20, 24),
    (10, 19),
    (1, 9),
];

/// Runs a training: reads games, fits, writes the weights file, measures held-out error.
/// `say` receives progress lines.
pub(crate) fn train(config: &Config, say: &mut dyn FnMut(&str)) -> Result<Summary> {
    if config.holdout_every < 2 || config.holdout >= config.holdout_every {
        bail!("hold out one game in at least 2 (residue below the period)");
    }
    let layout = Layout::get();
    let files = games::game_files(&config.games)?;
    let mut summary = Summary::default();
    let mut buckets: Vec<(Vec<[u16; FEATURE_COUNT]>, Vec<f32>)> =
        (0..STAGES).map(|_| (Vec::new(), Vec::new())).collect();
    let mut held_out: Vec<ReplayedGame> = Vec::new();
    let mut number = 0usize;
    let mut trained = 0usize;
    let mut solver = Solver::new(16);
    let mut solved = 0usize;
    for file in &files {
        let (games, skipped) = games::read_wthor(file)?;
        if skipped > 0 {
            say(&format!(
                "{}: {skipped} games do not replay legally, skipped",
                file.display()
            ));
        }
        for mut game in games {
            let residue = number % config.holdout_every;
            number += 1;
            let held = residue == config.holdout;
            let used = if held || Some(residue) == config.exclude {
                false
            } else {
                trained += 1;
                (trained - 1).is_multiple_of(config.subsample) && config.measure_only.is_none()
            };
            if !held && !used {
                continue;
            }
            if config.solve_empties > 0 {
                labels::add_solved(&mut game, config.solve_empties, &mut |board| {
                    solved += 1;
                    solver.solve_exact(board).score
                });
            }
            if held {
                held_out.push(game);
                continue;
            }
            let Some(labels) = labels::game_labels(&game) else {
                continue;
            };
            for (position, label) in game.positions.iter().zip(labels) {
                let board = position.board;
                let bucket = &mut buckets[stage(board.empty_mask().count_ones())];
                bucket
                    .0
                    .push(layout.slot_features(&board, &indices(&board)));
                bucket.1.push(label);
            }
        }
    }
    summary.games = (number, held_out.len(), trained.div_ceil(config.subsample));
    if solved > 0 {
        say(&format!(
            "{solved} positions with at most {} empties solved exactly",
            config.solve_empties
        ));
    }
    let mut samples = Samples {
        slot_base: layout.slot_base,
        ..Samples::default()
    };
    for (features, labels) in buckets {
        samples.features.extend(features);
        samples.labels.extend(labels);
        samples.stage_starts.push(samples.labels.len());
    }
    summary.samples = samples.len();
    say(&format!(
        "{} games from {} files: {} held out, {} trained on, {} samples",
        number,
        files.len(),
        summary.games.1,
        summary.games.2,
        summary.samples
    ));
    if let Some(path) = &config.measure_only {
        let eval = PatternEval::from_weights(&Weights::read(path)?)?;
        summary.file_bytes = std::fs::metadata(path).map_or(0, |m| m.len() as usize);
        measure_all(config, &eval, &held_out, &mut summary)?;
        return Ok(summary);
    }
    if samples.is_empty() {
        bail!("no labelled training positions in the given games");
    }

    let w = fit::fit(
        &samples,
        layout.dense_len,
        config.penalties,
        config.iterations,
        &mut |p| {
            say(&format!(
                "iteration {:4}: training rms {:.3}",
                p.iteration, p.rms
            ))
        },
    );
    drop(samples);
    let weights = Weights {
        stages: STAGES,
        per_stage: layout.dense_len,
        fingerprint: layout.fingerprint(),
        // Hundredths of a disc, the evaluation's unit.
        values: w
            .iter()
            .map(|&x| score::discs_to_units(x).round().clamp(-32767.0, 32767.0) as i16)
            .collect(),
    };
    let bytes = weights.encode();
    summary.file_bytes = bytes.len();
    std::fs::write(&config.out, &bytes)
        .map_err(|e| anyhow::anyhow!("cannot write weights file {}: {e}", config.out.display()))?;
    // Measure what was written, exactly as the engine will load it.
    let eval = PatternEval::from_bytes(&bytes)?;
    measure_all(config, &eval, &held_out, &mut summary)?;
    Ok(summary)
}

/// Measures `eval` on the held-out games and the exact-positions files.
fn measure_all(
    config: &Config,
    eval: &PatternEval,
    held_out: &[ReplayedGame],
    summary: &mut Summary,
) -> Result<()> {
    measure(eval, held_out, summary);
    for file in &config.exact_files {
        summary
            .exact_files
            .push((file.clone(), measure_exact(eval, &exact::read(file)?)));
    }
    Ok(())
}

/// Errors of `eval` (and the baselines) on positions with exact values.
pub(crate) fn measure_exact(eval: &PatternEval, positions: &[exact::ExactPosition]) -> Errors {
    let classic = Classic::default();
    let mut errors = Errors::default();
    for p in positions {
        errors.add(&p.board, p.value as f64, eval, &classic);
    }
    errors.mean()
}

/// Fills the summary's errors from the held-out games.
fn measure(eval: &PatternEval, held_out: &[ReplayedGame], summary: &mut Summary) {
    let classic = Classic::default();
    let mut exact = Errors::default();
    let mut ranges: Vec<Errors> = REPORT_RANGES.iter().map(|_| Errors::default()).collect();
    for game in held_out {
        let Some(labels) = labels::game_labels(game) else {
            continue;
        };
        let exact_24 = game.exact.iter().any(|&(e, _)| e == 24);
        for (position, label) in game.positions.iter().zip(labels) {
            let board: Board8 = position.board;
            let empties = position.empties();
            if empties == 24 && exact_24 {
                exact.add(&board, label as f64, eval, &classic);
            }
            for (errors, &(lo, hi)) in ranges.iter_mut().zip(&REPORT_RANGES) {
                if (lo..=hi).contains(&empties) {
                    errors.add(&board, label as f64, eval, &classic);
                }
            }
        }
    }
    summary.exact24 = exact.mean();
    summary.by_empties = REPORT_RANGES
        .iter()
        .zip(ranges)
        .map(|(&(lo, hi), e)| (lo, hi, e.mean()))
        .collect();
}
