//! `emilia train`: fits the pattern evaluation's weights to game records.

use std::path::PathBuf;
use std::time::Instant;

use anyhow::{bail, Result};

use super::args::Args;
use super::output::{self, out, outln};
use crate::train::{self, fit::Loss, fit::Penalties, Config, Summary};
use emilia_core::board::BoardSize;

const HELP: &str = "\
Usage: emilia train --games <file.wtb or directory>... [--selfplay <file or directory>...]
                    [--out FILE] [options]

Fits the pattern evaluation to WTHOR game records and self-play games (written by `emilia
selfplay`) and writes a weights file. One game in
--holdout-every (default 10) is held out; the report gives the mean absolute error of the
static evaluation on those games, in discs, next to simple baselines.

On 6x6, 10x10 and 12x12 (--size N) it fits that size's pattern evaluation (corrections
to the classic evaluation) to self-play games of the size (`emilia selfplay --size N`),
with --selfplay, --out (default emilia-N.weights), --holdout-every, --iterations (default
100), --l2 (default 10 on 6x6, whose weights each see many positions, 500 on 10x10, 8000
on 12x12), --smooth (default 50) and --search-label W (0 to 1, default 0: the weight of
the self-play search's recorded scores in the labels, beside the games' results) and
--from FILE (weights to start from and correct); the engine plays with them when its
option weights names the file.

Options:
  --size N            board side: 8 (default), or 6, 10, 12 for those sizes' evaluations
  --force             replace an existing --out file
  --games PATH        a .wtb file or a directory of them (repeatable)
  --selfplay PATH     a self-play .games file or a directory of them (repeatable); split
                      into held-out and training games like the records
  --out FILE          weights file to write (default emilia.weights)
  --holdout-every N   hold out one game in N (default 10)
  --holdout R         the held-out games: number modulo N equal to R (default 9)
  --exclude R         also leave games with residue R out of training (for tuning)
  --subsample K       train on one game in K of the rest (default 1: all)
  --iterations N      conjugate-gradient iterations (default 100)
  --l2 X              ridge penalty (default 1)
  --huber X           fit Huber's loss with threshold X discs (squares up to X, linear
                      beyond) instead of least squares: 3 more reweighted rounds
  --smooth X          penalty on differences between neighbouring stages (default 100)
  --solve N           solve positions with at most N empties exactly for their labels
                      (default 14; 0: labels from the game records alone)
  --threads T         threads that solve them (default all: every core the system
                      offers); the weights are the same for any number
  --search-label W    (6x6, 10x10, 12x12) weight of the self-play search scores in the
                      labels, 0 to 1 (default 0: final results only)
  --from FILE         (6x6, 10x10, 12x12) start from these weights: the fit corrects
                      them, its ridge penalty pulling towards them instead of zero
  --measure FILE      measure an existing weights file on the held-out games, no training
  --curve             also report the held-out error at every number of empties
  --exact FILE        also report the error on a file of positions with exact values,
                      '<squares> <Black|White> <best> <score>' a line (repeatable)
";

/// Runs `emilia train`.
pub(crate) fn run(args: &[String]) -> Result<()> {
    let args = Args::parse(
        args,
        &[
            ("games", 1),
            ("selfplay", 1),
            ("out", 1),
            ("holdout-every", 1),
            ("holdout", 1),
            ("exclude", 1),
            ("subsample", 1),
            ("iterations", 1),
            ("l2", 1),
            ("huber", 1),
            ("smooth", 1),
            ("search-label", 1),
            ("from", 1),
            ("exact", 1),
            ("measure", 1),
            ("solve", 1),
            ("size", 1),
            ("threads", 1),
        ],
    )?;
    if args.flag("help") {
        out!("{HELP}")?;
        return Ok(());
    }
    args.reject_unknown_flags(&["curve", "force"])?;
    if !args.positional.is_empty() {
        bail!("unexpected argument '{}'\n\n{HELP}", args.positional[0]);
    }
    let size = args.get("size", BoardSize::EIGHT)?;
    if size != BoardSize::EIGHT {
        return run_grid(&args, size);
    }
    for grid_only in ["search-label", "from"] {
        if args.value(grid_only).is_some() {
            bail!("--{grid_only} is for --size 6, 10 and 12 training");
        }
    }
    let defaults = Config::default();
    let config = Config {
        games: args.values("games").iter().map(PathBuf::from).collect(),
        selfplay: args.values("selfplay").iter().map(PathBuf::from).collect(),
        out: args.get("out", defaults.out.clone())?,
        holdout_every: args.get("holdout-every", defaults.holdout_every)?,
        holdout: args.get("holdout", defaults.holdout)?,
        exclude: match args.value("exclude") {
            Some(_) => Some(args.get("exclude", 0usize)?),
            None => None,
        },
        subsample: args.get("subsample", defaults.subsample)?.max(1),
        iterations: args.get("iterations", defaults.iterations)?,
        penalties: Penalties {
            l2: args.get("l2", defaults.penalties.l2)?,
            smooth: args.get("smooth", defaults.penalties.smooth)?,
        },
        loss: match args.value("huber") {
            Some(_) => Loss::Huber(args.get("huber", 0.0f64)?),
            None => Loss::Squares,
        },
        exact_files: args.values("exact").iter().map(PathBuf::from).collect(),
        measure_only: args.value("measure").map(PathBuf::from),
        solve_empties: args.get("solve", defaults.solve_empties)?,
        threads: args.threads("all")?,
    };
    if matches!(config.loss, Loss::Huber(x) if x.is_nan() || x <= 0.0) {
        bail!("--huber: the threshold must be above 0 discs");
    }
    if config.games.is_empty() && config.selfplay.is_empty() {
        bail!("no games given: use --games or --selfplay <file or directory>\n\n{HELP}");
    }
    if config.measure_only.is_none() {
        super::output::refuse_existing(&config.out, args.flag("force"))?;
    }
    let start = Instant::now();
    let summary = train::train(&config, &mut |line| {
        output::note(&format!("[{:7.1}s] {line}", start.elapsed().as_secs_f64()))
    })?;
    print_summary(&summary, &config, start, args.flag("curve"))
}

/// What `emilia train` reports once done (`curve`: with the error at every number of
/// empties), the time counted from `start`.
fn print_summary(summary: &Summary, config: &Config, start: Instant, curve: bool) -> Result<()> {
    outln!(
        "{} {} ({} bytes) in {:.0} s: {} games, {} held out, {} trained on ({} positions)",
        if config.measure_only.is_some() {
            "measured"
        } else {
            "wrote"
        },
        config
            .measure_only
            .as_ref()
            .unwrap_or(&config.out)
            .display(),
        summary.file_bytes,
        start.elapsed().as_secs_f64(),
        summary.games.0,
        summary.games.1,
        summary.games.2,
        summary.samples
    )?;
    let e = &summary.exact24;
    outln!(
        "held-out positions at 24 empties (exact labels, {}): mean absolute error in discs",
        e.count
    )?;
    outln!("  pattern {:6.2}", e.pattern)?;
    outln!("  classic {:6.2}   (the classic evaluation)", e.classic)?;
    outln!("  zero    {:6.2}   (always predicts a draw)", e.zero)?;
    outln!("  discs   {:6.2}   (current disc difference)", e.discs)?;
    outln!("held-out positions by empties (labels backed up from exact values):")?;
    outln!("  empties  positions  pattern  classic     zero    discs")?;
    for (lo, hi, e) in &summary.by_empties {
        outln!(
            "  {lo:2}-{hi:2}  {:10} {:8.2} {:8.2} {:8.2} {:8.2}",
            e.count,
            e.pattern,
            e.classic,
            e.zero,
            e.discs
        )?;
    }
    if curve {
        outln!("held-out positions at each number of empties:")?;
        outln!("  empties  positions  pattern  classic     zero    discs")?;
        for (empties, e) in summary
            .curve
            .iter()
            .enumerate()
            .filter(|(_, e)| e.count > 0)
        {
            outln!(
                "  {empties:7}  {:9} {:8.2} {:8.2} {:8.2} {:8.2}",
                e.count,
                e.pattern,
                e.classic,
                e.zero,
                e.discs
            )?;
        }
    }
    if let Some(e) = &summary.selfplay_solved {
        outln!(
            "held-out self-play positions played by the solver ({}, exact): pattern {:.2}, \
             classic {:.2}, zero {:.2}, discs {:.2}",
            e.count,
            e.pattern,
            e.classic,
            e.zero,
            e.discs
        )?;
    }
    for (file, e) in &summary.exact_files {
        outln!(
            "{} ({} positions, exact): pattern {:.2}, classic {:.2}, zero {:.2}, discs {:.2}",
            file.display(),
            e.count,
            e.pattern,
            e.classic,
            e.zero,
            e.discs
        )?;
    }
    Ok(())
}

/// `emilia train --size N` for 6x6, 10x10 and 12x12.
fn run_grid(args: &Args, size: BoardSize) -> Result<()> {
    let size = size.side();
    for only_eight in [
        "games",
        "holdout",
        "exclude",
        "subsample",
        "huber",
        "exact",
        "measure",
        "solve",
        "threads",
    ] {
        if args.value(only_eight).is_some() {
            bail!("--{only_eight} is for 8x8 training, not --size {size}");
        }
    }
    if args.flag("curve") {
        bail!("--curve is for 8x8 training, not --size {size}");
    }
    let config = train::grid_pattern::GridPatternConfig {
        size,
        selfplay: args.values("selfplay").iter().map(PathBuf::from).collect(),
        holdout_every: args.get("holdout-every", 10usize)?.max(2),
        iterations: args.get("iterations", 100)?,
        l2: args.get("l2", train::grid_pattern::default_l2(size))?,
        smooth: args.get("smooth", 50.0)?,
        search_label: args.get("search-label", 0.0f32)?,
        from: args.value("from").map(PathBuf::from),
    };
    if !(0.0..=1.0).contains(&config.search_label) {
        bail!(
            "--search-label {}: expected a weight from 0 to 1",
            config.search_label
        );
    }
    if config.selfplay.is_empty() {
        bail!("no games given: use --selfplay <file or directory> of {size}x{size} games");
    }
    let out: PathBuf = args.get("out", PathBuf::from(format!("emilia-{size}.weights")))?;
    super::output::refuse_existing(&out, args.flag("force"))?;
    let start = Instant::now();
    let fitted = train::grid_pattern::train_grid_pattern(&config, &mut |line| {
        output::note(&format!("[{:7.1}s] {line}", start.elapsed().as_secs_f64()))
    })?;
    crate::files::write_whole(&out, &fitted.weights.encode())
        .map_err(|e| emilia_core::eval::WeightsFileError::Write(out.clone(), e))?;
    let held = &fitted.held_out;
    outln!(
        "wrote {} in {:.0} s: {} training positions; {} held-out positions, mean absolute \
         error in discs: fitted {:.2}, classic {:.2}, zero {:.2}",
        out.display(),
        start.elapsed().as_secs_f64(),
        fitted.training,
        held.count,
        held.fitted,
        held.classic,
        held.zero
    )
}
