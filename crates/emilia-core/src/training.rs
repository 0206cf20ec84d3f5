//! What only the training tools use (`emilia tune`), not play: fitting the classic weights: least squares from feature vectors to game results. Each
//! sample is a position with the final disc difference of its game, from the side to
//! move's view; the stage interpolation is linear in the weights, so the whole model is one
//! linear regression with a small ridge term that keeps rarely-seen features near zero.

use crate::eval::classic::{stage_shares, STAGES};
use crate::eval::features::{Features, NUM_FEATURES};
use crate::eval::ClassicWeights;

/// One labelled position.
#[derive(Clone, Debug)]
pub struct Sample {
    /// Its features.
    pub features: Features,
    /// Game stage, 0 at the start to 1 on a full board.
    pub stage: f64,
    /// Final disc difference for the side to move, hundredths of a disc.
    pub target: f64,
}

const COLUMNS: usize = STAGES * NUM_FEATURES;

fn design_row(sample: &Sample) -> [f64; COLUMNS] {
    let shares = stage_shares(sample.stage);
    let mut row = [0.0; COLUMNS];
    for s in 0..STAGES {
        for k in 0..NUM_FEATURES {
            row[s * NUM_FEATURES + k] = shares[s] * sample.features[k] as f64;
        }
    }
    row
}

/// The prediction of `weights` for `sample`, hundredths of a disc.
pub(crate) fn predict(weights: &ClassicWeights, sample: &Sample) -> f64 {
    let row = design_row(sample);
    (0..COLUMNS)
        .map(|c| row[c] * weights[c / NUM_FEATURES][c % NUM_FEATURES] as f64)
        .sum()
}

/// Root mean squared error of `weights` over `samples`, in discs.
pub fn rms_error(weights: &ClassicWeights, samples: &[Sample]) -> f64 {
    if samples.is_empty() {
        return 0.0;
    }
    let total: f64 = samples
        .iter()
        .map(|s| (predict(weights, s) - s.target).powi(2))
        .sum();
    crate::score::to_discs((total / samples.len() as f64).sqrt())
}

/// Weights minimising squared error plus `ridge` × (sum of squared weights) × samples.
/// Returns `None` when the system cannot be solved.
pub fn fit(samples: &[Sample], ridge: f64) -> Option<ClassicWeights> {
    let mut normal = vec![[0.0f64; COLUMNS]; COLUMNS];
    let mut rhs = [0.0f64; COLUMNS];
    for sample in samples {
        let row = design_row(sample);
        for i in 0..COLUMNS {
            if row[i] == 0.0 {
                continue;
            }
            rhs[i] += row[i] * sample.target;
            for j in 0..COLUMNS {
                normal[i][j] += row[i] * row[j];
            }
        }
    }
    let n = samples.len().max(1) as f64;
    for (i, line) in normal.iter_mut().enumerate() {
        line[i] += ridge * n;
    }
    let solution = solve(normal, rhs.to_vec())?;
    let mut weights = [[0; NUM_FEATURES]; STAGES];
    for (c, value) in solution.iter().enumerate() {
        weights[c / NUM_FEATURES][c % NUM_FEATURES] = value.round() as i32;
    }
    Some(weights)
}

/// Gaussian elimination with partial pivoting.
fn solve(mut a: Vec<[f64; COLUMNS]>, mut b: Vec<f64>) -> Option<Vec<f64>> {
    let n = b.len();
    for col in 0..n {
        let pivot = (col..n).max_by(|&i, &j| a[i][col].abs().total_cmp(&a[j][col].abs()))?;
        if a[pivot][col].abs() < 1e-12 {
            return None;
        }
        a.swap(col, pivot);
        b.swap(col, pivot);
        for row in col + 1..n {
            let factor = a[row][col] / a[col][col];
            if factor == 0.0 {
                continue;
            }
            let pivot_row = a[col];
            for (k, value) in a[row].iter_mut().enumerate().skip(col) {
                *value -= factor * pivot_row[k];
            }
            b[row] -= factor * b[col];
        }
    }
    let mut x = vec![0.0; n];
    for row in (0..n).rev() {
        let sum: f64 = (row + 1..n).map(|k| a[row][k] * x[k]).sum();
        x[row] = (b[row] - sum) / a[row][row];
    }
    Some(x)
}

/// Prints `weights` as the Rust table of [`CLASSIC_WEIGHTS`](crate::eval::CLASSIC_WEIGHTS).
pub fn weights_table(weights: &ClassicWeights) -> String {
    let mut text = String::from("[\n");
    for row in weights {
        let cells: Vec<String> = row.iter().map(|w| format!("{w:5}")).collect();
        text.push_str(&format!("    [{}],\n", cells.join(",")));
    }
    text.push(']');
    text
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fit_recovers_the_weights_that_made_the_targets() {
        let mut truth = [[0; NUM_FEATURES]; STAGES];
        for (s, row) in truth.iter_mut().enumerate() {
            for (k, w) in row.iter_mut().enumerate() {
                *w = (s as i32 * 37 + k as i32 * 11) % 90 - 40;
            }
        }
        let mut seed = 3u64;
        let mut samples = Vec::new();
        for i in 0..3000 {
            let mut features = [0; NUM_FEATURES];
            for x in features.iter_mut() {
                seed = crate::board::mix64(seed + 1);
                *x = (seed % 21) as i32 - 10;
            }
            let mut sample = Sample {
                features,
                stage: (i % 101) as f64 / 100.0,
                target: 0.0,
            };
            sample.target = predict(&truth, &sample);
            samples.push(sample);
        }
        let fitted = fit(&samples, 1e-9).expect("solvable");
        assert_eq!(fitted, truth);
        assert!(rms_error(&fitted, &samples) < 1e-6);
    }
}
