//! The trainer behind `emilia train`: game records in, a weights file for the pattern
//! evaluation out, with its error on held-out games.
//!
//! Games are split deterministically by their place in the input (files in name order,
//! games in file order): every `holdout_every`-th game is held out for the report and
//! never trained on. Every position of a training game becomes a sample labelled by
//! `labels`; `fit` fits all stages' weights at once.

pub mod exact;
pub(crate) mod fit;
pub(crate) mod games;
pub mod grid_pattern;
pub(crate) mod labels;
pub(crate) mod mpc;

use std::path::PathBuf;

use anyhow::{bail, Result};

use emilia_core::board::{AnyBoard, Board8};
use emilia_core::endgame::Solver;
use emilia_core::eval::pattern::{
    indices, slot_features, stage, Layout, PatternEval, FEATURE_COUNT, STAGES,
};
use emilia_core::eval::weights::Weights;
use emilia_core::eval::{Classic, Evaluator};
use emilia_core::score;
use fit::{Loss, Penalties, Samples};
use games::ReplayedGame;

/// What to train on and how.
#[derive(Clone, Debug)]
pub(crate) struct Config {
    /// WTHOR files or directories of them.
    pub(crate) games: Vec<PathBuf>,
    /// Self-play chunk files (see [`crate::selfplay::data`]) or directories of them.
    pub(crate) selfplay: Vec<PathBuf>,
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
    /// What the fit minimises.
    pub(crate) loss: Loss,
    /// Files of positions with exact values (see [`exact`]) to measure the result on.
    pub(crate) exact_files: Vec<PathBuf>,
    /// Positions with at most this many empty squares are solved exactly for their labels
    /// (0: none, labels come from the game records alone).
    pub(crate) solve_empties: u32,
    /// Measure this weights file instead of training (`None`: train).
    pub(crate) measure_only: Option<PathBuf>,
    /// Threads that solve positions for their labels; the labels, and so the weights, do
    /// not depend on it.
    pub(crate) threads: usize,
}

impl Default for Config {
    fn default() -> Config {
        Config {
            games: Vec::new(),
            selfplay: Vec::new(),
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
            loss: Loss::Squares,
            exact_files: Vec::new(),
            measure_only: None,
            solve_empties: 14,
            threads: 1,
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
    /// Errors on held-out positions by their number of empties (index), against the
    /// backed-up labels.
    pub(crate) curve: Vec<Errors>,
    /// Errors on the solver-played positions of held-out self-play games (exact labels).
    pub(crate) selfplay_solved: Option<Errors>,
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

/// What becomes of a game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Role {
    /// Measured, never trained on.
    HeldOut,
    /// Trained on.
    Trained,
    /// Left out (another residue excluded, subsampled away, or only measuring).
    Unused,
}

/// The deterministic split of games by their number.
struct Split<'a> {
    config: &'a Config,
    /// Games seen.
    number: usize,
    /// Games not held out nor excluded, before subsampling.
    trained: usize,
}

impl<'a> Split<'a> {
    fn new(config: &'a Config) -> Split<'a> {
        Split {
            config,
            number: 0,
            trained: 0,
        }
    }

    /// The role of the next game.
    fn next(&mut self) -> Role {
        let config = self.config;
        let residue = self.number % config.holdout_every;
        self.number += 1;
        if residue == config.holdout {
            return Role::HeldOut;
        }
        if Some(residue) == config.exclude {
            return Role::Unused;
        }
        self.trained += 1;
        if (self.trained - 1).is_multiple_of(config.subsample) && config.measure_only.is_none() {
            Role::Trained
        } else {
            Role::Unused
        }
    }
}

/// Solves the positions of `games` with at most `max_empties` empty squares for their
/// labels, on `threads` threads that each take a contiguous share of the games with a
/// solver of their own. Exact values do not depend on which solver finds them, so the
/// labels are the same for any number of threads. Returns the number of positions solved.
fn solve_labels(mut games: Vec<&mut ReplayedGame>, max_empties: u32, threads: usize) -> usize {
    let share = games.len().div_ceil(threads.max(1)).max(1);
    std::thread::scope(|scope| {
        let workers: Vec<_> = games
            .chunks_mut(share)
            .map(|chunk| {
                scope.spawn(move || {
                    let mut solver = Solver::new(16);
                    let mut solved = 0;
                    for game in chunk {
                        labels::add_solved(game, max_empties, &mut |board| {
                            solved += 1;
                            solver.solve_exact(&AnyBoard::Eight(*board)).score
                        });
                    }
                    solved
                })
            })
            .collect();
        workers
            .into_iter()
            .map(|worker| {
                worker
                    .join()
                    .unwrap_or_else(|e| std::panic::resume_unwind(e))
            })
            .sum()
    })
}

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
    let mut split = Split::new(config);
    let mut solved = 0usize;
    let mut add_samples = |game: &ReplayedGame| {
        let Some(labels) = labels::game_labels(game) else {
            return;
        };
        for (position, label) in game.positions.iter().zip(labels) {
            let board = position.board;
            let bucket = &mut buckets[stage(board.empty_mask().count_ones())];
            bucket
                .0
                .push(slot_features(layout, &board, &indices(&board)));
            bucket.1.push(label);
        }
    };
    for file in &files {
        let (mut games, skipped) = games::read_wthor(file)?;
        if skipped > 0 {
            say(&format!(
                "{}: {skipped} games do not replay legally, skipped",
                file.display()
            ));
        }
        let roles: Vec<Role> = games.iter().map(|_| split.next()).collect();
        if config.solve_empties > 0 {
            let used = games
                .iter_mut()
                .zip(&roles)
                .filter(|(_, &role)| role != Role::Unused)
                .map(|(game, _)| game);
            solved += solve_labels(used.collect(), config.solve_empties, config.threads);
        }
        for (game, role) in games.into_iter().zip(roles) {
            match role {
                Role::Unused => {}
                Role::HeldOut => held_out.push(game),
                Role::Trained => add_samples(&game),
            }
        }
    }
    let (number, trained) = (split.number, split.trained);
    // Self-play games are split the same way, counted on their own.
    let mut selfplay_split = Split::new(config);
    let mut held_out_selfplay: Vec<ReplayedGame> = Vec::new();
    let selfplay_files = crate::selfplay::data::game_files(&config.selfplay)?;
    for file in &selfplay_files {
        for played in crate::selfplay::data::read_games(file)? {
            if played.size != 8 {
                bail!(
                    "{}: {}x{} games; the pattern evaluation is fitted on 8x8 only",
                    file.display(),
                    played.size,
                    played.size
                );
            }
            let role = selfplay_split.next();
            if role == Role::Unused {
                continue;
            }
            let game = games::from_selfplay(&played);
            if role == Role::HeldOut {
                held_out_selfplay.push(game);
            } else {
                add_samples(&game);
            }
        }
    }
    if !selfplay_files.is_empty() {
        say(&format!(
            "{} self-play games from {} files: {} held out, {} trained on",
            selfplay_split.number,
            selfplay_files.len(),
            held_out_selfplay.len(),
            selfplay_split.trained.div_ceil(config.subsample)
        ));
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
        let eval = PatternEval::from_weights(&emilia_core::eval::read_weights(path)?)?;
        summary.file_bytes = std::fs::metadata(path).map_or(0, |m| m.len() as usize);
        measure_all(config, &eval, &held_out, &held_out_selfplay, &mut summary)?;
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
        config.loss,
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
    crate::files::write_whole(&config.out, &bytes)
        .map_err(|e| anyhow::anyhow!("cannot write weights file {}: {e}", config.out.display()))?;
    // Measure what was written, exactly as the engine will load it.
    let eval = PatternEval::from_bytes(&bytes)?;
    measure_all(config, &eval, &held_out, &held_out_selfplay, &mut summary)?;
    Ok(summary)
}

/// Measures `eval` on the held-out games and the exact-positions files.
fn measure_all(
    config: &Config,
    eval: &PatternEval,
    held_out: &[ReplayedGame],
    held_out_selfplay: &[ReplayedGame],
    summary: &mut Summary,
) -> Result<()> {
    measure(eval, held_out, summary);
    if !held_out_selfplay.is_empty() {
        summary.selfplay_solved = Some(measure_solved(eval, held_out_selfplay));
    }
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

/// Errors on the positions of held-out self-play games that the solver played, whose
/// labels are exact.
fn measure_solved(eval: &PatternEval, held_out: &[ReplayedGame]) -> Errors {
    let classic = Classic::default();
    let mut errors = Errors::default();
    for game in held_out {
        let (Some(labels), Some(&(solved_from, _))) =
            (labels::game_labels(game), game.exact.first())
        else {
            continue;
        };
        for (position, label) in game.positions.iter().zip(labels) {
            if position.empties() <= solved_from {
                errors.add(&position.board, label as f64, eval, &classic);
            }
        }
    }
    errors.mean()
}

/// Fills the summary's errors from the held-out games.
fn measure(eval: &PatternEval, held_out: &[ReplayedGame], summary: &mut Summary) {
    let classic = Classic::default();
    let mut exact = Errors::default();
    let mut ranges: Vec<Errors> = REPORT_RANGES.iter().map(|_| Errors::default()).collect();
    let mut curve = vec![Errors::default(); 61];
    for game in held_out {
        let Some(labels) = labels::game_labels(game) else {
            continue;
        };
        let exact_24 = game.exact.iter().any(|&(e, _)| e == 24);
        for (position, label) in game.positions.iter().zip(labels) {
            let board: Board8 = position.board;
            let empties = position.empties();
            curve[empties as usize].add(&board, label as f64, eval, &classic);
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
    summary.curve = curve.iter().map(Errors::mean).collect();
    summary.by_empties = REPORT_RANGES
        .iter()
        .zip(ranges)
        .map(|(&(lo, hi), e)| (lo, hi, e.mean()))
        .collect();
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::selfplay::data::{self, Settings};

    #[test]
    fn training_on_self_play_games_lowers_the_held_out_error_reproducibly() {
        let dir = std::env::temp_dir().join(format!("emilia-train-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        let settings = Settings {
            depth: 1,
            margin: 4.0,
            solve_empties: 10,
            games_per_chunk: 20,
            hash_mib: 1,
            ..Settings::default()
        };
        let openings = data::parse_openings(crate::selfplay::XOT_OPENINGS, 8).unwrap();
        let every = std::time::Duration::from_secs(3600);
        data::run(&dir, &settings, &openings, 0..4, 2, every, &mut |_| {}).unwrap();
        let config = Config {
            selfplay: vec![dir.clone()],
            out: dir.join("a.weights"),
            holdout_every: 5,
            holdout: 4,
            iterations: 30,
            solve_empties: 0,
            ..Config::default()
        };
        let summary = train(&config, &mut |_| {}).unwrap();
        let held = summary.selfplay_solved.unwrap();
        // 80 games, 16 held out: their solver-played positions, whose values are exact.
        assert!(held.count > 100, "{}", held.count);
        // The untrained evaluation (all weights 0) has the error of always predicting 0.
        assert!(held.pattern < 0.9 * held.zero, "{held:?}");
        // The same data gives the same file.
        let again = Config {
            out: dir.join("b.weights"),
            ..config.clone()
        };
        train(&again, &mut |_| {}).unwrap();
        let (a, b) = (
            std::fs::read(dir.join("a.weights")).unwrap(),
            std::fs::read(dir.join("b.weights")).unwrap(),
        );
        assert_eq!(a, b);
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn labels_solved_on_several_threads_give_the_same_weights_as_on_one() {
        let dir = std::env::temp_dir().join(format!("emilia-train-threads-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        let wthor = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("crates/emilia-core/tests/data/WTH_2003.wtb");
        let config = |threads: usize, out: &str| Config {
            games: vec![wthor.clone()],
            out: dir.join(out),
            subsample: 8,
            iterations: 10,
            solve_empties: 10,
            threads,
            ..Config::default()
        };
        let mut lines = Vec::new();
        train(&config(1, "one.weights"), &mut |line| {
            lines.push(line.to_string())
        })
        .unwrap();
        // The solves happened: a game has 10 positions with at most 10 empties.
        let solved = lines.iter().find(|l| l.contains("solved exactly")).unwrap();
        let count: usize = solved.split(' ').next().unwrap().parse().unwrap();
        assert!(count > 1000, "{solved}");
        train(&config(3, "three.weights"), &mut |_| {}).unwrap();
        let (one, three) = (
            std::fs::read(dir.join("one.weights")).unwrap(),
            std::fs::read(dir.join("three.weights")).unwrap(),
        );
        assert_eq!(one, three);
        // Without the solved labels the fit differs: the test sees them.
        let unsolved = Config {
            solve_empties: 0,
            ..config(1, "unsolved.weights")
        };
        train(&unsolved, &mut |_| {}).unwrap();
        assert_ne!(one, std::fs::read(dir.join("unsolved.weights")).unwrap());
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn games_of_another_board_size_are_refused() {
        let dir = std::env::temp_dir().join(format!("emilia-train-6x6-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        let settings = Settings {
            size: 6,
            depth: 1,
            solve_empties: 8,
            games_per_chunk: 2,
            hash_mib: 1,
            ..Settings::default()
        };
        let every = std::time::Duration::from_secs(3600);
        data::run(&dir, &settings, &[], 0..1, 1, every, &mut |_| {}).unwrap();
        let config = Config {
            selfplay: vec![dir.clone()],
            out: dir.join("a.weights"),
            ..Config::default()
        };
        let error = train(&config, &mut |_| {}).unwrap_err();
        assert!(format!("{error:#}").contains("6x6"), "{error:#}");
        assert!(!dir.join("a.weights").exists());
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
