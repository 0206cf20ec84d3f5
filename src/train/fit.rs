//! The least-squares fit of the evaluation weights: every stage's weights at once, with a
//! ridge penalty pulling rare weights towards zero and a smoothing penalty pulling each
//! weight towards the same weight in the neighbouring stages, so that a pattern rarely seen
//! at one stage borrows its value from the stages around it.
//!
//! It minimises, over the weights `w[s][j]` of every stage `s`:
//!
//! `sum over samples (label - sum of its features' weights)^2
//!  + l2 * sum w[s][j]^2 + smooth * sum (w[s][j] - w[s+1][j])^2`
//!
//! by conjugate gradients on the normal equations, preconditioned by their diagonal. It is
//! single-threaded and sums in a fixed order, so the same data always gives the same
//! weights.

use crate::eval::pattern::FEATURE_COUNT;

/// Training samples: features and labels, grouped by stage.
#[derive(Debug)]
pub(crate) struct Samples {
    /// Where each feature slot's table starts among a stage's dense weights.
    pub(crate) slot_base: [u32; FEATURE_COUNT],
    /// Each sample's features: slot `j` is weight `slot_base[j] + value` of its stage.
    /// (16 bits a feature halves the memory of millions of samples.)
    pub(crate) features: Vec<[u16; FEATURE_COUNT]>,
    /// Each sample's target, in discs for the side to move.
    pub(crate) labels: Vec<f32>,
    /// Samples `stage_starts[s]..stage_starts[s + 1]` belong to stage `s`.
    pub(crate) stage_starts: Vec<usize>,
}

impl Default for Samples {
    fn default() -> Samples {
        Samples {
            slot_base: [0; FEATURE_COUNT],
            features: Vec::new(),
            labels: Vec::new(),
            stage_starts: vec![0],
        }
    }
}

impl Samples {
    /// Number of samples.
    pub(crate) fn len(&self) -> usize {
        self.labels.len()
    }

    /// Whether there are none.
    pub(crate) fn is_empty(&self) -> bool {
        self.labels.is_empty()
    }

    /// The index range of stage `stage`'s samples.
    pub(crate) fn stage(&self, stage: usize) -> std::ops::Range<usize> {
        self.stage_starts[stage]..self.stage_starts[stage + 1]
    }

    /// Number of stages.
    pub(crate) fn stages(&self) -> usize {
        self.stage_starts.len().saturating_sub(1)
    }

    /// The stage weight positions of sample `i`'s features.
    #[inline(always)]
    pub(crate) fn positions(&self, i: usize) -> [usize; FEATURE_COUNT] {
        let mut out = [0; FEATURE_COUNT];
        for (j, slot) in out.iter_mut().enumerate() {
            *slot = (self.slot_base[j] + self.features[i][j] as u32) as usize;
        }
        out
    }
}

/// How hard the fit is pulled away from the data.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Penalties {
    /// Ridge penalty on every weight.
    pub(crate) l2: f64,
    /// Penalty on differences between a weight and its neighbour stages' value.
    pub(crate) smooth: f64,
}

/// The normal-equation operator: `v -> (X^T X + l2 I + smooth L) v`.
struct Normal<'a> {
    samples: &'a Samples,
    per_stage: usize,
    penalties: Penalties,
}

impl Normal<'_> {
    fn apply(&self, v: &[f64], out: &mut [f64]) {
        let (n, stages) = (self.per_stage, self.samples.stages());
        let Penalties { l2, smooth } = self.penalties;
        for s in 0..stages {
            let block = s * n..(s + 1) * n;
            let (vs, os) = (&v[block.clone()], &mut out[block]);
            for j in 0..n {
                let mut value = l2 * vs[j];
                if s > 0 {
                    value += smooth * (vs[j] - v[(s - 1) * n + j]);
                }
                if s + 1 < stages {
                    value += smooth * (vs[j] - v[(s + 1) * n + j]);
                }
                os[j] = value;
            }
            for i in self.samples.stage(s) {
                let features = self.samples.positions(i);
                let dot: f64 = features.iter().map(|&f| vs[f]).sum();
                for &f in &features {
                    os[f] += dot;
                }
            }
        }
    }

    fn diagonal(&self) -> Vec<f64> {
        let (n, stages) = (self.per_stage, self.samples.stages());
        let mut diag = vec![0.0; n * stages];
        for s in 0..stages {
            let neighbours = (s > 0) as usize + (s + 1 < stages) as usize;
            let base = self.penalties.l2 + self.penalties.smooth * neighbours as f64;
            let ds = &mut diag[s * n..(s + 1) * n];
            ds.iter_mut().for_each(|d| *d = base);
            for i in self.samples.stage(s) {
                let features = self.samples.positions(i);
                // A weight hit k times by one sample adds k^2: count repeats exactly.
                for (a, &f) in features.iter().enumerate() {
                    if features[..a].contains(&f) {
                        continue;
                    }
                    let repeats = features.iter().filter(|&&g| g == f).count();
                    ds[f] += (repeats * repeats) as f64;
                }
            }
        }
        diag
    }
}

/// Progress of the fit after an iteration.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Progress {
    /// Iterations done.
    pub(crate) iteration: usize,
    /// Root mean square error on the training samples, in discs.
    pub(crate) rms: f64,
}

/// Fits the weights of `stages x per_stage` to `samples` with `iterations` steps of
/// preconditioned conjugate gradients; `progress` is told every tenth step and after the last.
pub(crate) fn fit(
    samples: &Samples,
    per_stage: usize,
    penalties: Penalties,
    iterations: usize,
    progress: &mut dyn FnMut(Progress),
) -> Vec<f64> {
    let stages = samples.stages();
    let len = per_stage * stages;
    let op = Normal {
        samples,
        per_stage,
        penalties,
    };
    // Right-hand side X^T y.
    let mut b = vec![0.0; len];
    for s in 0..stages {
        let bs = &mut b[s * per_stage..(s + 1) * per_stage];
        for i in samples.stage(s) {
            for f in samples.positions(i) {
                bs[f] += samples.labels[i] as f64;
            }
        }
    }
    let inverse_diagonal: Vec<f64> = op.diagonal().iter().map(|d| 1.0 / d).collect();

    let mut w = vec![0.0; len];
    let mut r = b.clone();
    let mut z: Vec<f64> = r
        .iter()
        .zip(&inverse_diagonal)
        .map(|(r, d)| r * d)
        .collect();
    let mut p = z.clone();
    let mut ap = vec![0.0; len];
    let mut rz: f64 = dot(&r, &z);
    for iteration in 1..=iterations {
        op.apply(&p, &mut ap);
        let pap = dot(&p, &ap);
        if pap <= 0.0 || !pap.is_finite() {
            break;
        }
        let alpha = rz / pap;
        for i in 0..len {
            w[i] += alpha * p[i];
            r[i] -= alpha * ap[i];
        }
        for i in 0..len {
            z[i] = r[i] * inverse_diagonal[i];
        }
        let rz_next = dot(&r, &z);
        let beta = rz_next / rz;
        rz = rz_next;
        for i in 0..len {
            p[i] = z[i] + beta * p[i];
        }
        // The training error costs a pass over the data: measured every tenth step.
        if iteration % 10 == 0 || iteration == iterations {
            let rms = training_rms(samples, per_stage, &w);
            progress(Progress { iteration, rms });
        }
    }
    w
}

fn dot(a: &[f64], b: &[f64]) -> f64 {
    a.iter().zip(b).map(|(x, y)| x * y).sum()
}

/// Root mean square error of weights `w` on `samples`.
fn training_rms(samples: &Samples, per_stage: usize, w: &[f64]) -> f64 {
    let mut sum = 0.0;
    for s in 0..samples.stages() {
        let ws = &w[s * per_stage..(s + 1) * per_stage];
        for i in samples.stage(s) {
            let predicted: f64 = samples.positions(i).iter().map(|&f| ws[f]).sum();
            sum += (samples.labels[i] as f64 - predicted).powi(2);
        }
    }
    (sum / samples.len().max(1) as f64).sqrt()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_exactly_linear_target_is_recovered() {
        // Two stages of 60 weights; labels are sums of known weights, so with tiny
        // penalties the fit must predict them almost exactly.
        let per_stage = 60;
        let truth: Vec<f64> = (0..2 * per_stage).map(|i| (i % 7) as f64 - 3.0).collect();
        let mut samples = Samples::default();
        let mut state = 1u64;
        for s in 0..2 {
            for _ in 0..400 {
                let mut features = [0u16; FEATURE_COUNT];
                for f in features.iter_mut() {
                    state = state.wrapping_mul(6364136223846793005).wrapping_add(7);
                    *f = ((state >> 33) % per_stage as u64) as u16;
                }
                let label: f64 = features
                    .iter()
                    .map(|&f| truth[s * per_stage + f as usize])
                    .sum();
                samples.features.push(features);
                samples.labels.push(label as f32);
            }
            samples.stage_starts.push(samples.labels.len());
        }
        let penalties = Penalties {
            l2: 1e-6,
            smooth: 1e-6,
        };
        let mut last = f64::MAX;
        let w = fit(&samples, per_stage, penalties, 200, &mut |p| last = p.rms);
        assert!(last < 0.01, "rms {last}");
        // Deterministic: the same data gives bit-identical weights.
        let again = fit(&samples, per_stage, penalties, 200, &mut |_| {});
        assert_eq!(w, again);
    }
}
