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

use emilia_core::eval::pattern::FEATURE_COUNT;

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

impl Samples {
    /// The samples renumbered to the columns (stage weight positions) some sample uses,
    /// with those columns in order; `None` when nearly all are used.
    fn compacted(&self, per_stage: usize) -> Option<(Samples, Vec<u32>)> {
        let mut used = vec![false; per_stage];
        for i in 0..self.len() {
            for f in self.positions(i) {
                used[f] = true;
            }
        }
        let columns: Vec<u32> = (0..per_stage as u32)
            .filter(|&c| used[c as usize])
            .collect();
        if columns.len() * 10 > per_stage * 9 {
            return None;
        }
        // rank[c]: the columns in use before column c.
        let mut rank = vec![0u32; per_stage + 1];
        for c in 0..per_stage {
            rank[c + 1] = rank[c] + used[c] as u32;
        }
        let slot_base = self.slot_base.map(|base| rank[base as usize]);
        let features = (0..self.len())
            .map(|i| {
                let mut out = [0u16; FEATURE_COUNT];
                for (j, f) in self.positions(i).into_iter().enumerate() {
                    out[j] = (rank[f] - slot_base[j]) as u16;
                }
                out
            })
            .collect();
        let compact = Samples {
            slot_base,
            features,
            labels: self.labels.clone(),
            stage_starts: self.stage_starts.clone(),
        };
        Some((compact, columns))
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

/// What the fit minimises on each sample's residual `r` (label minus prediction).
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Loss {
    /// `r^2`: least squares.
    Squares,
    /// Huber's loss with the given threshold in discs: `r^2` up to it, linear beyond, so
    /// that positions whose labels are far off (a blunder later in the game) weigh less.
    /// Fitted by iteratively reweighted least squares.
    Huber(f64),
}

/// The normal-equation operator: `v -> (X^T C X + l2 I + smooth L) v`, `C` the diagonal of
/// sample weights (all 1 without them).
struct Normal<'a> {
    samples: &'a Samples,
    sample_weights: Option<&'a [f32]>,
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
                let mut dot: f64 = features.iter().map(|&f| vs[f]).sum();
                if let Some(c) = self.sample_weights {
                    dot *= c[i] as f64;
                }
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
                let c = self.sample_weights.map_or(1.0, |c| c[i] as f64);
                // A weight hit k times by one sample adds k^2: count repeats exactly.
                for (a, &f) in features.iter().enumerate() {
                    if features[..a].contains(&f) {
                        continue;
                    }
                    let repeats = features.iter().filter(|&&g| g == f).count();
                    ds[f] += c * (repeats * repeats) as f64;
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
/// With Huber's loss, a least-squares fit is followed by [`HUBER_ROUNDS`] reweighted ones of
/// `iterations / 2` steps each, every one starting from the last.
pub(crate) fn fit(
    samples: &Samples,
    per_stage: usize,
    penalties: Penalties,
    iterations: usize,
    loss: Loss,
    progress: &mut dyn FnMut(Progress),
) -> Vec<f64> {
    // Weights no sample touches at any stage stay 0: with few samples, the fit runs on
    // the others alone, which is much faster.
    if let Some((compact, columns)) = samples.compacted(per_stage) {
        let narrow = fit(
            &compact,
            columns.len(),
            penalties,
            iterations,
            loss,
            progress,
        );
        let mut w = vec![0.0; per_stage * samples.stages()];
        for s in 0..samples.stages() {
            for (k, &column) in columns.iter().enumerate() {
                w[s * per_stage + column as usize] = narrow[s * columns.len() + k];
            }
        }
        return w;
    }
    let len = per_stage * samples.stages();
    let mut w = vec![0.0; len];
    conjugate_gradients(
        samples, None, per_stage, penalties, iterations, &mut w, progress,
    );
    if let Loss::Huber(delta) = loss {
        let mut weights = vec![1.0f32; samples.len()];
        for _ in 0..HUBER_ROUNDS {
            for s in 0..samples.stages() {
                let ws = &w[s * per_stage..(s + 1) * per_stage];
                for i in samples.stage(s) {
                    let predicted: f64 = samples.positions(i).iter().map(|&f| ws[f]).sum();
                    let residual = (samples.labels[i] as f64 - predicted).abs();
                    weights[i] = if residual <= delta {
                        1.0
                    } else {
                        (delta / residual) as f32
                    };
                }
            }
            conjugate_gradients(
                samples,
                Some(&weights),
                per_stage,
                penalties,
                iterations.div_ceil(2),
                &mut w,
                progress,
            );
        }
    }
    w
}

/// Reweighted least-squares rounds of a Huber fit.
pub const HUBER_ROUNDS: usize = 3;

/// Minimises the (weighted) penalised squares from `w` on, in place.
fn conjugate_gradients(
    samples: &Samples,
    sample_weights: Option<&[f32]>,
    per_stage: usize,
    penalties: Penalties,
    iterations: usize,
    w: &mut [f64],
    progress: &mut dyn FnMut(Progress),
) {
    let stages = samples.stages();
    let len = per_stage * stages;
    let op = Normal {
        samples,
        sample_weights,
        per_stage,
        penalties,
    };
    // Right-hand side X^T C y, less the operator applied to the start.
    let mut b = vec![0.0; len];
    for s in 0..stages {
        let bs = &mut b[s * per_stage..(s + 1) * per_stage];
        for i in samples.stage(s) {
            let c = sample_weights.map_or(1.0, |c| c[i] as f64);
            for f in samples.positions(i) {
                bs[f] += c * samples.labels[i] as f64;
            }
        }
    }
    preconditioned_cg(
        |v, out| op.apply(v, out),
        &op.diagonal(),
        &b,
        w,
        iterations,
        |iteration, _residual, w| {
            // The training error costs a pass over the data: measured every tenth step.
            if iteration % 10 == 0 || iteration == iterations {
                let rms = training_rms(samples, per_stage, w);
                progress(Progress { iteration, rms });
            }
        },
    );
}

/// Solves `A w = b` from `w` on, in place, by conjugate gradients with `A`'s diagonal as
/// preconditioner (`A` symmetric positive definite, `apply(v, out)` setting `out = A v`),
/// for at most `iterations` steps; `each(step, residual, w)` follows every step. Both
/// pattern fits (8x8 and the other sizes) solve their normal equations with it.
pub(crate) fn preconditioned_cg(
    mut apply: impl FnMut(&[f64], &mut [f64]),
    diagonal: &[f64],
    b: &[f64],
    w: &mut [f64],
    iterations: usize,
    mut each: impl FnMut(usize, &[f64], &[f64]),
) {
    let len = w.len();
    let inverse_diagonal: Vec<f64> = diagonal.iter().map(|d| 1.0 / d).collect();
    let mut ap = vec![0.0; len];
    apply(w, &mut ap);
    let mut r: Vec<f64> = b.iter().zip(&ap).map(|(b, a)| b - a).collect();
    let mut z: Vec<f64> = r
        .iter()
        .zip(&inverse_diagonal)
        .map(|(r, d)| r * d)
        .collect();
    let mut p = z.clone();
    let mut rz: f64 = dot(&r, &z);
    for iteration in 1..=iterations {
        apply(&p, &mut ap);
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
        each(iteration, &r, w);
        if rz_next <= 0.0 {
            // The residual is zero: `w` solves the equations.
            break;
        }
    }
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
        let w = fit(
            &samples,
            per_stage,
            penalties,
            200,
            Loss::Squares,
            &mut |p| last = p.rms,
        );
        assert!(last < 0.01, "rms {last}");
        // Deterministic: the same data gives bit-identical weights.
        let again = fit(
            &samples,
            per_stage,
            penalties,
            200,
            Loss::Squares,
            &mut |_| {},
        );
        assert_eq!(w, again);
        // Huber's loss fits an exact target as well.
        fit(
            &samples,
            per_stage,
            penalties,
            200,
            Loss::Huber(1.0),
            &mut |p| last = p.rms,
        );
        assert!(last < 0.01, "rms {last}");
    }

    #[test]
    fn fitting_on_the_used_columns_alone_changes_nothing() {
        // 600 weights a stage, of which the samples use the even ones below 120.
        let per_stage = 600;
        let mut samples = Samples::default();
        let mut state = 3u64;
        for _ in 0..3 {
            for _ in 0..200 {
                let mut features = [0u16; FEATURE_COUNT];
                for f in features.iter_mut() {
                    state = state.wrapping_mul(6364136223846793005).wrapping_add(7);
                    *f = ((state >> 33) % 60 * 2) as u16;
                }
                samples.features.push(features);
                samples
                    .labels
                    .push((state >> 40) as f32 / (1u64 << 24) as f32 * 20.0 - 10.0);
            }
            samples.stage_starts.push(samples.labels.len());
        }
        let penalties = Penalties {
            l2: 0.5,
            smooth: 2.0,
        };
        assert!(samples.compacted(per_stage).is_some());
        let w = fit(
            &samples,
            per_stage,
            penalties,
            40,
            Loss::Squares,
            &mut |_| {},
        );
        let mut full = vec![0.0; 3 * per_stage];
        conjugate_gradients(
            &samples,
            None,
            per_stage,
            penalties,
            40,
            &mut full,
            &mut |_| {},
        );
        let largest = full.iter().fold(0.0f64, |m, x| m.max(x.abs()));
        assert!(largest > 0.1);
        for (a, b) in w.iter().zip(&full) {
            assert!((a - b).abs() < 1e-9 * largest, "{a} {b}");
        }
    }
}
