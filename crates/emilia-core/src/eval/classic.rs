//! The classic evaluation: a weighted sum of the measured [`features`](super::features),
//! with weights that change smoothly with the game stage.

use super::features::{features, Features, NUM_FEATURES};
use super::{clamp_heuristic, Evaluator};
use crate::board::{Board, SIZES};

/// Stage anchors: the weights are given at these fractions of the game played (0, 1/3,
/// 2/3, 1, by squares filled since the start) and interpolated linearly between them.
pub const STAGES: usize = 4;

/// Evaluation weights: hundredths of a disc per unit of each feature, one row per stage
/// anchor, in the order of the feature indices of `features::f`.
pub type ClassicWeights = [[i32; NUM_FEATURES]; STAGES];

/// The classic weights: fitted by least squares to self-play game results
/// (`emilia tune`), one row per stage anchor, columns in feature order.
#[rustfmt::skip]
pub const CLASSIC_WEIGHTS: ClassicWeights = [
    // discs mob  pmob front corn  xdng  cdng stab  par rpar  sq_c sq_x sq_a sq_b  s12  s13  s22  s23  s33
    [  -35,  13,  -33,  -10,   27,  -85,  -87,  47,   2,  37,  -77, -65, -41, -117, 117,   76, -77,  95,  26],
    [   73,  27,   40, -136,  514, -801, -236, 314, 101, -117, -22, -256, 93,  52, -117, -126,  17, -39, -43],
    [   84, 126,  -19,  -90,  505, -690, -197,  74, 120, -85,   22,  74, -38,  -71, -110, -114,  10, -80, -113],
    [   24, 389, -255,  -77,  -73, -134,  -54, 174,  90,  98, -118, 133, -85,  -85,   76,   65,  -7,  72,  46],
];

/// Stage-weighted feature evaluation, usable on every board size.
#[derive(Clone, Debug)]
pub struct Classic {
    /// Interpolated weights per board size (in [`SIZES`] order) and number of empties.
    by_empties: Vec<Vec<[i32; NUM_FEATURES]>>,
}

impl Default for Classic {
    fn default() -> Classic {
        Classic::new(&CLASSIC_WEIGHTS)
    }
}

impl Classic {
    /// An evaluation with the given weights.
    pub fn new(weights: &ClassicWeights) -> Classic {
        let by_empties = SIZES
            .iter()
            .map(|&size| {
                let squares = size * size;
                (0..=squares)
                    .map(|empties| interpolate(weights, stage_position(empties, squares)))
                    .collect()
            })
            .collect();
        Classic { by_empties }
    }
}

/// How far the game has come, from 0 at the start to 1 on a full board.
pub(crate) fn stage_position(empties: usize, squares: usize) -> f64 {
    let start = (squares - 4) as f64;
    ((start - empties as f64) / start).clamp(0.0, 1.0)
}

/// The share of each stage anchor at game position `t` (hat functions summing to 1).
pub(crate) fn stage_shares(t: f64) -> [f64; STAGES] {
    let scaled = t * (STAGES - 1) as f64;
    let low = (scaled.floor() as usize).min(STAGES - 2);
    let frac = scaled - low as f64;
    let mut shares = [0.0; STAGES];
    shares[low] = 1.0 - frac;
    shares[low + 1] = frac;
    shares
}

fn interpolate(weights: &ClassicWeights, t: f64) -> [i32; NUM_FEATURES] {
    let shares = stage_shares(t);
    let mut out = [0; NUM_FEATURES];
    for (k, w) in out.iter_mut().enumerate() {
        let value: f64 = (0..STAGES).map(|s| shares[s] * weights[s][k] as f64).sum();
        *w = value.round() as i32;
    }
    out
}

impl Classic {
    /// The score of `board` from its features `x`.
    #[inline]
    pub(crate) fn score<B: Board>(&self, board: &B, x: &Features) -> i32 {
        let size_slot = board.size() / 2 - 3;
        let weights = &self.by_empties[size_slot][board.empties() as usize];
        let score: i32 = x.iter().zip(weights).map(|(a, b)| a * b).sum();
        clamp_heuristic(board, score)
    }
}

impl Evaluator for Classic {
    type Kept = ();

    #[inline]
    fn evaluate<B: Board>(&self, board: &B) -> i32 {
        self.score(board, &features(board))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::{Board8, BoardN};

    #[test]
    fn stage_shares_interpolate_between_anchors() {
        assert_eq!(stage_shares(0.0), [1.0, 0.0, 0.0, 0.0]);
        assert_eq!(stage_shares(1.0), [0.0, 0.0, 0.0, 1.0]);
        let mid = stage_shares(0.5);
        assert!((mid[1] - 0.5).abs() < 1e-9 && (mid[2] - 0.5).abs() < 1e-9);
    }

    #[test]
    fn start_positions_are_even_and_corners_are_good() {
        let eval = Classic::default();
        for size in SIZES {
            let score = eval.evaluate(&BoardN::start(size));
            assert!(score.abs() < 300, "{size}: {score}");
        }
        // The mover holding a1 against an equal disc elsewhere is ahead.
        let with_corner = Board8 {
            player: 1 | 1 << 27,
            opponent: 1 << 28 | 1 << 36,
        };
        assert!(eval.evaluate(&with_corner) > 0);
    }
}
