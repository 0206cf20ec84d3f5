//! Fitting the pattern evaluation of 6x6, 10x10 and 12x12 ([`emilia_core::eval::grid_pattern`]) to
//! self-play games of that size: every position a side chose a move in is labelled with
//! the game's final result for that side (exact from the solver's first position on).
//!
//! The fit is least squares with a ridge penalty (rare weights stay near zero) and a
//! smoothing penalty between neighbouring stages (a pattern rarely seen at one stage
//! borrows its value from the stages around it), by conjugate gradients on the normal
//! equations preconditioned by their diagonal: single-threaded and in a fixed order, so
//! the same games give the same weights.

use std::path::PathBuf;

use anyhow::{bail, Context, Result};

use crate::selfplay::data::{game_files, read_games, LabelledGame};
use emilia_core::board::{Board, Color, Move, Position, Square};
use emilia_core::eval::grid_pattern::GridPatternLayout;
use emilia_core::eval::weights::Weights;
use emilia_core::eval::{Classic, Evaluator};

/// The ridge penalty that suits board side `size`: 6x6 patterns are small and each of their
/// weights sees many positions, so a light penalty fits best; 10x10, with more games and
/// the search scores blended in, a middle one; 12x12 the heavy one that suited 10x10's
/// first games. How each was chosen: docs/experiments.md (The evaluations of other board
/// sizes).
pub fn default_l2(size: usize) -> f64 {
    match size {
        6 => 10.0,
        10 => 500.0,
        _ => 8000.0,
    }
}

/// What to fit and how.
#[derive(Clone, Debug)]
pub struct GridPatternConfig {
    /// Side of the board: 6, 10 or 12.
    pub size: usize,
    /// Self-play chunk files or directories of them.
    pub selfplay: Vec<PathBuf>,
    /// Hold out one game in this many (the last of each run of them).
    pub holdout_every: usize,
    /// Conjugate-gradient iterations.
    pub iterations: usize,
    /// Ridge penalty ([`default_l2`] by default).
    pub l2: f64,
    /// Penalty on the difference of a weight between neighbouring stages.
    pub smooth: f64,
    /// Weight of the recorded search scores in the training labels (0: final results
    /// only); held-out positions are always labelled with final results.
    pub search_label: f32,
    /// Weights to start from: the fit corrects them, its ridge penalty pulling towards them
    /// instead of towards zero, so games they were fitted to still count.
    pub from: Option<PathBuf>,
}

/// Mean absolute errors on the held-out positions, in discs.
#[derive(Clone, Copy, Debug)]
pub struct HeldOut {
    /// Positions held out.
    pub count: usize,
    /// Of the fitted weights.
    pub fitted: f64,
    /// Of the classic evaluation.
    pub classic: f64,
    /// Of always predicting a draw.
    pub zero: f64,
}

/// The result of a fit.
pub struct Fitted {
    /// The weights, ready to write.
    pub weights: Weights,
    /// Training positions.
    pub training: usize,
    /// The held-out errors.
    pub held_out: HeldOut,
}

/// Positions with their features (weights within their stage) and labels.
struct Samples {
    per_position: usize,
    features: Vec<u32>,
    stages: Vec<u16>,
    labels: Vec<f32>,
}

impl Samples {
    fn new(per_position: usize) -> Samples {
        Samples {
            per_position,
            features: Vec::new(),
            stages: Vec::new(),
            labels: Vec::new(),
        }
    }

    fn len(&self) -> usize {
        self.labels.len()
    }

    fn features(&self, i: usize) -> &[u32] {
        &self.features[i * self.per_position..(i + 1) * self.per_position]
    }
}

/// Every position of `game` where the mover has a move, with its label in discs for the
/// mover: calls `each(board position, label)`. The label is the final result, blended with
/// weight `search` with the self-play search's score where the game recorded one. That score
/// is averaged with the next position's (seen from the same side; the final result once
/// the solver plays), since a fixed-depth search favours alternately the side to move and
/// the other: the mean of two neighbouring depths cancels it.
fn positions(game: &LabelledGame, search: f32, mut each: impl FnMut(&Position, f32)) -> Result<()> {
    let size = game.size;
    let mut position = Position::start(size)?;
    // Black's value seen by `mover`; the same sign change turns the mover's value into
    // Black's.
    let for_mover = |mover: Color, black_value: f32| match mover {
        Color::Black => black_value,
        Color::White => -black_value,
    };
    let result = game.black_result as f32;
    // Black's view of each recorded score: they belong to the moves after the opening.
    let mut searched = Vec::with_capacity(game.search_scores.len());
    for (k, &m) in game.moves.iter().enumerate() {
        if !position.board.has_moves() {
            position = position.play(Move::Pass)?;
        }
        let mover = position.to_move;
        let label = for_mover(mover, result);
        match (k as u32).checked_sub(game.opening_moves) {
            Some(j) if (j as usize) < game.search_scores.len() && search > 0.0 => {
                let score = game.search_scores[j as usize] as f32 / 100.0;
                searched.push((position, mover, for_mover(mover, score)));
            }
            _ => each(&position, label),
        }
        position = position.play(Move::Play(Square::from_index(m, size)))?;
    }
    for (i, (position, mover, black_score)) in searched.iter().enumerate() {
        let next = searched.get(i + 1).map_or(result, |s| s.2);
        let search_value = for_mover(*mover, 0.5 * (black_score + next));
        let label = for_mover(*mover, result);
        each(position, search * search_value + (1.0 - search) * label);
    }
    Ok(())
}

/// Reads the games of `config` and fits the weights; `say` gets progress lines.
pub fn train_grid_pattern(config: &GridPatternConfig, say: &mut dyn FnMut(&str)) -> Result<Fitted> {
    let layout = GridPatternLayout::new(config.size);
    let per_stage = layout.per_stage();
    let mut training = Samples::new(layout.features_per_position());
    let mut held_out = Samples::new(layout.features_per_position());
    let mut held_classic = Vec::new();
    let classic = Classic::default();
    let mut features = Vec::new();
    let mut games = 0usize;
    for file in game_files(&config.selfplay)? {
        for game in read_games(&file)? {
            if game.size != config.size {
                bail!(
                    "{}: {}x{} games, not {}x{}",
                    file.display(),
                    game.size,
                    game.size,
                    config.size,
                    config.size
                );
            }
            let hold = games % config.holdout_every == config.holdout_every - 1;
            games += 1;
            let samples = if hold { &mut held_out } else { &mut training };
            let search = if hold { 0.0 } else { config.search_label };
            positions(&game, search, |position, label| {
                let base = emilia_core::with_board!(position.board, board => {
                    layout.features(&board, &mut features);
                    samples.stages.push(layout.stage(board.empties()) as u16);
                    classic.evaluate(&board) as f64 / 100.0
                });
                if hold {
                    held_classic.push(base);
                }
                samples.features.extend(features.iter().map(|&f| f as u32));
                // The patterns correct the classic evaluation.
                samples.labels.push(label - base as f32);
            })?;
        }
    }
    if training.len() == 0 || held_out.len() == 0 {
        bail!("too few games to train and hold some out ({games} games)");
    }
    say(&format!(
        "{games} games: {} training positions, {} held out",
        training.len(),
        held_out.len()
    ));
    // Starting weights, in discs: the fit learns the difference from them.
    let prior: Vec<f64> = match &config.from {
        None => vec![0.0; layout.stages() * per_stage],
        Some(path) => {
            let from = emilia_core::eval::read_weights(path)?;
            layout
                .check(&from)
                .with_context(|| format!("{}", path.display()))?;
            from.values.iter().map(|&v| v as f64 / 100.0).collect()
        }
    };
    for i in 0..training.len() {
        let base = training.stages[i] as usize * per_stage;
        let predicted: f64 = training
            .features(i)
            .iter()
            .map(|&f| prior[base + f as usize])
            .sum();
        training.labels[i] -= predicted as f32;
    }
    let change = fit(&training, layout.stages(), per_stage, config, say);
    let values: Vec<i16> = change
        .iter()
        .zip(&prior)
        .map(|(w, p)| {
            ((w + p) * 100.0)
                .round()
                .clamp(i16::MIN as f64, i16::MAX as f64) as i16
        })
        .collect();
    let weights = Weights {
        stages: layout.stages(),
        per_stage,
        fingerprint: layout.fingerprint(),
        values,
    };
    let mut errors = (0.0, 0.0, 0.0);
    for (i, &classic) in held_classic.iter().enumerate() {
        let stage = held_out.stages[i] as usize;
        let sum: i32 = held_out
            .features(i)
            .iter()
            .map(|&f| weights.values[stage * per_stage + f as usize] as i32)
            .sum();
        // Held-out labels, like the others, are kept as corrections to the classic value.
        let label = held_out.labels[i] as f64 + classic;
        errors.0 += (classic + sum as f64 / 100.0 - label).abs();
        errors.1 += (classic - label).abs();
        errors.2 += label.abs();
    }
    let n = held_out.len() as f64;
    Ok(Fitted {
        weights,
        training: training.len(),
        held_out: HeldOut {
            count: held_out.len(),
            fitted: errors.0 / n,
            classic: errors.1 / n,
            zero: errors.2 / n,
        },
    })
}

/// Least squares with ridge and stage smoothing by preconditioned conjugate gradients:
/// the weights (discs), stage by stage.
fn fit(
    samples: &Samples,
    stages: usize,
    per_stage: usize,
    config: &GridPatternConfig,
    say: &mut dyn FnMut(&str),
) -> Vec<f64> {
    let dim = stages * per_stage;
    let (l2, smooth) = (config.l2, config.smooth);
    // A·v for the normal equations' matrix A = XᵀX + l2·I + smooth·L.
    let multiply = |v: &[f64], out: &mut [f64]| {
        out.iter_mut().for_each(|x| *x = 0.0);
        for i in 0..samples.len() {
            let base = samples.stages[i] as usize * per_stage;
            let features = samples.features(i);
            let dot: f64 = features.iter().map(|&f| v[base + f as usize]).sum();
            for &f in features {
                out[base + f as usize] += dot;
            }
        }
        for j in 0..dim {
            out[j] += l2 * v[j];
        }
        for s in 0..stages.saturating_sub(1) {
            for k in 0..per_stage {
                let (a, b) = (s * per_stage + k, (s + 1) * per_stage + k);
                let d = smooth * (v[a] - v[b]);
                out[a] += d;
                out[b] -= d;
            }
        }
    };
    let mut rhs = vec![0.0; dim];
    let mut diagonal = vec![l2; dim];
    for i in 0..samples.len() {
        let base = samples.stages[i] as usize * per_stage;
        for &f in samples.features(i) {
            rhs[base + f as usize] += samples.labels[i] as f64;
            diagonal[base + f as usize] += 1.0;
        }
    }
    for s in 0..stages {
        let neighbours = (s > 0) as usize + (s + 1 < stages) as usize;
        for k in 0..per_stage {
            diagonal[s * per_stage + k] += smooth * neighbours as f64;
        }
    }
    let mut w = vec![0.0; dim];
    super::fit::preconditioned_cg(
        multiply,
        &diagonal,
        &rhs,
        &mut w,
        config.iterations,
        |iteration, residual, _| {
            if iteration % 25 == 0 {
                let norm: f64 = residual.iter().map(|r| r * r).sum::<f64>().sqrt();
                say(&format!("iteration {iteration}: residual {norm:.1}"));
            }
        },
    );
    w
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::selfplay::data::{self, Settings};

    #[test]
    fn search_scores_blend_into_the_labels_averaged_over_two_plies() {
        // 6x6: two opening moves, then two searched moves with their scores (for the
        // mover), then moves the solver played (no passes this early).
        let mut position = Position::start(6).unwrap();
        let mut moves = Vec::new();
        for _ in 0..6 {
            let Move::Play(square) = position.legal_moves()[0] else {
                unreachable!("no pass this early");
            };
            moves.push(square.row() * 6 + square.col());
            position = position.play(Move::Play(square)).unwrap();
        }
        let game = LabelledGame {
            size: 6,
            moves,
            black_result: 4,
            opening_moves: 2,
            solved_from: 30,
            search_scores: vec![100, 300],
        };
        let mut labels = Vec::new();
        positions(&game, 0.0, |p, label| {
            labels.push((p.board.counts().2, label))
        })
        .unwrap();
        labels.sort_by_key(|l| std::cmp::Reverse(l.0));
        // Results alone: +4 for Black (to move at 32, 30, 28 empties), -4 for White.
        let results: Vec<f32> = labels.iter().map(|l| l.1).collect();
        assert_eq!(results, [4.0, -4.0, 4.0, -4.0, 4.0, -4.0]);
        labels.clear();
        positions(&game, 1.0, |p, label| {
            labels.push((p.board.counts().2, label))
        })
        .unwrap();
        labels.sort_by_key(|l| std::cmp::Reverse(l.0));
        let blended: Vec<f32> = labels.iter().map(|l| l.1).collect();
        // At 30 empties Black scored +1, White then +3: Black's mean (1 - 3) / 2 = -1. At
        // 29 White's +3 and the result, -4 for White: -0.5.
        assert_eq!(blended, [4.0, -4.0, -1.0, -0.5, 4.0, -4.0]);
    }

    #[test]
    fn a_fit_on_small_board_games_predicts_and_repeats() {
        let dir = std::env::temp_dir().join(format!("emilia-grid-pattern-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        let settings = Settings {
            size: 6,
            depth: 1,
            margin: 4.0,
            solve_empties: 12,
            random_moves: 4,
            games_per_chunk: 40,
            hash_mib: 1,
            ..Settings::default()
        };
        let every = std::time::Duration::from_secs(3600);
        data::run(&dir, &settings, &[], 0..3, 2, every, &mut |_| {}).unwrap();
        let config = GridPatternConfig {
            size: 6,
            selfplay: vec![dir.clone()],
            holdout_every: 5,
            iterations: 40,
            l2: 5.0,
            smooth: 50.0,
            search_label: 0.0,
            from: None,
        };
        let fitted = train_grid_pattern(&config, &mut |_| {}).unwrap();
        let held = fitted.held_out;
        assert!(held.count > 200, "{held:?}");
        // Better than always predicting a draw on games it never saw.
        assert!(held.fitted < 0.95 * held.zero, "{held:?}");
        // Labels blended with the search scores give other weights, still predictive.
        let blended_config = GridPatternConfig {
            search_label: 0.5,
            ..config.clone()
        };
        let blended = train_grid_pattern(&blended_config, &mut |_| {}).unwrap();
        assert_ne!(blended.weights, fitted.weights);
        assert!(
            blended.held_out.fitted < 0.95 * held.zero,
            "{:?}",
            blended.held_out
        );
        // The same games give the same weights.
        let again = train_grid_pattern(&config, &mut |_| {}).unwrap();
        assert_eq!(again.weights, fitted.weights);
        // A 10x10 fit refuses 6x6 games.
        let ten = GridPatternConfig {
            size: 10,
            ..config.clone()
        };
        assert!(train_grid_pattern(&ten, &mut |_| {}).is_err());
        // Written and read back, the weights evaluate 6x6 boards.
        let path = dir.join("six.weights");
        std::fs::write(&path, fitted.weights.encode()).unwrap();
        // A fit that starts from them and may hardly move keeps them; one that may move
        // freely fits the games as well as from nothing.
        let held_to_them = GridPatternConfig {
            from: Some(path.clone()),
            l2: 1e12,
            smooth: 0.0,
            ..blended_config.clone()
        };
        let kept = train_grid_pattern(&held_to_them, &mut |_| {}).unwrap();
        assert_eq!(kept.weights, fitted.weights);
        let free = GridPatternConfig {
            from: Some(path.clone()),
            ..blended_config.clone()
        };
        let refitted = train_grid_pattern(&free, &mut |_| {}).unwrap();
        assert_ne!(refitted.weights, fitted.weights);
        assert!(refitted.held_out.fitted < 0.95 * held.zero);
        // Weights of another size are refused.
        let other = GridPatternConfig {
            size: 6,
            from: Some(std::path::PathBuf::from(
                "crates/emilia-core/weights/emilia-10.weights",
            )),
            ..config.clone()
        };
        assert!(train_grid_pattern(&other, &mut |_| {}).is_err());
        let pattern = emilia_core::eval::Pattern::from_file(&path).unwrap();
        let position = Position::start(6).unwrap();
        let (position, _) = position.play_transcript("b3b4c5").unwrap();
        let emilia_core::board::AnyBoard::Six(board) = position.board else {
            panic!("a 6x6 board");
        };
        let eval =
            emilia_core::eval::grid_pattern::GridPatternEval::from_weights(6, &fitted.weights)
                .unwrap();
        assert_eq!(pattern.evaluate(&board), eval.evaluate(&board));
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
