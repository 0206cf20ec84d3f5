//! `emilia tune mpc`: measures the Multi-ProbCut table on held-out positions.

use std::ops::RangeInclusive;
use std::path::PathBuf;
use std::time::{Duration, Instant};

use anyhow::{bail, Context, Result};

use super::args::Args;
use super::output::{note, out, outln};
use crate::train::games::{self, GamePosition};
use crate::train::mpc::{self, Config};
use emilia_core::board::Board8;
use emilia_core::rng::Rng;
use emilia_core::search::mpc::{Line, Table};

const HELP: &str = "\
Usage: emilia tune mpc --games <wtb file or directory>... [--out FILE] [options]

Measures how well shallow searches predict deep ones, for the search's Multi-ProbCut:
positions from held-out games (one a game, every --holdout-every-th game, the games the
evaluation was not trained on) are searched without selectivity at every depth up to
--depth, and endgame positions are solved exactly. For each stage (--stage-width empties)
and depth the regression of the deep score on the shallow one is fitted; deeper entries
are extrapolated. The table is written to --out (default emilia.mpc); the one built into
Emilia is crates/emilia-core/weights/emilia.mpc.

Options:
  --games PATH         a .wtb file or a directory of them (repeatable)
  --out FILE           table to write (default emilia.mpc)
  --force              overwrite --out if it exists
  --positions N        midgame positions (default 2000)
  --depth D            deepest midgame search measured (default 12)
  --stage-width W      empties per midgame stage (default 4)
  --end-empties A-B    endgame positions with A to B empties are solved (default 12-22)
  --end-positions N    endgame positions for each number of empties (default 60)
  --holdout-every N    the held-out games: one in N (default 10) ...
  --holdout R          ... whose number modulo N is R (default 9)
  --seed S             seed of the choice of positions (default 1)
  --threads T          positions measured at once, each on one thread with its own 64 MiB
                       tables (default all: every core the system offers); the table is
                       the same for any T
";

/// Runs `emilia tune mpc`.
pub(crate) fn run(args: &[String]) -> Result<()> {
    let args = Args::parse(
        args,
        &[
            ("games", 1),
            ("out", 1),
            ("positions", 1),
            ("depth", 1),
            ("stage-width", 1),
            ("end-empties", 1),
            ("end-positions", 1),
            ("holdout-every", 1),
            ("holdout", 1),
            ("seed", 1),
            ("threads", 1),
        ],
    )?;
    if args.flag("help") {
        return out!("{HELP}");
    }
    args.reject_unknown_flags(&["force"])?;
    if !args.positional.is_empty() {
        bail!("unexpected argument '{}'\n\n{HELP}", args.positional[0]);
    }
    let defaults = Config::default();
    let end_empties = end_empties(&args, &defaults)?;
    let config = Config {
        max_depth: args.get("depth", defaults.max_depth)?,
        stage_width: args.get("stage-width", defaults.stage_width)?,
        end_empties,
        end_positions: args.get("end-positions", defaults.end_positions)?,
        seed: args.get("seed", defaults.seed)?,
        ..defaults
    };
    if !(3..=20).contains(&config.max_depth) {
        bail!("--depth {}: expected 3 to 20", config.max_depth);
    }
    if !(1..=20).contains(&config.stage_width) {
        bail!("--stage-width {}: expected 1 to 20", config.stage_width);
    }
    let positions: usize = args.get("positions", 2000)?;
    let holdout_every: usize = args.get("holdout-every", 10)?;
    let holdout: usize = args.get("holdout", 9)?;
    if holdout_every < 2 || holdout >= holdout_every {
        bail!("hold out one game in at least 2 (residue below the period)");
    }
    let out: PathBuf = args.get("out", PathBuf::from("emilia.mpc"))?;
    // Refused before the long measurement, not after it.
    super::output::refuse_existing(&out, args.flag("force"))?;
    let threads = args.threads("all")?;
    let paths: Vec<PathBuf> = args.values("games").iter().map(PathBuf::from).collect();
    if paths.is_empty() {
        bail!("no games given: use --games <file or directory>\n\n{HELP}");
    }
    let held_out = held_out_games(&paths, holdout_every, holdout)?;
    let (mid_boards, end_boards) = pick_boards(&held_out, &config, positions);
    note(&format!(
        "tune mpc: {} held-out games; {} midgame positions to depth {}, {} endgame positions",
        held_out.len(),
        mid_boards.len(),
        config.max_depth,
        end_boards.len()
    ));
    let start = Instant::now();
    let total = mid_boards.len() + end_boards.len();
    let (mid, end) = mpc::measure_all(
        &mid_boards,
        &end_boards,
        config.max_depth,
        threads,
        64,
        Duration::from_secs(30),
        &mut |done| {
            let elapsed = start.elapsed().as_secs_f64();
            note(&format!(
                "tune mpc: {done}/{total} positions in {elapsed:.0} s on {threads} threads, \
                 about {:.0} s left",
                elapsed / done.max(1) as f64 * (total - done) as f64
            ));
        },
    );
    let table = mpc::fit_table(&config, &mid, &end)?;
    let comment = format!(
        "Multi-ProbCut table of emilia, written by `emilia tune mpc`: {} midgame positions \
         searched to depth {},\n{} endgame positions ({} to {} empties) solved, from held-out \
         games (one in {holdout_every}, residue {holdout}), seed {}.\n\
         mid <empties from> <to> <depth> <shallow depth> <slope> <intercept> <sigma> <samples>\n\
         end <empties> <shallow depth> <slope> <intercept> <sigma> <samples>\n\
         Scores in hundredths of a disc; samples 0: extrapolated.",
        mid.len(),
        config.max_depth,
        end.len(),
        config.end_empties.start(),
        config.end_empties.end(),
        config.seed
    );
    crate::files::write_whole(&out, table.to_text(&comment).as_bytes())
        .with_context(|| format!("cannot write {}", out.display()))?;
    outln!("wrote {} ({} entries)", out.display(), table.lines().len())?;
    print_sigmas(&table)
}

/// `--end-empties A-B`: the numbers of empties whose endgame positions are solved.
fn end_empties(args: &Args, defaults: &Config) -> Result<RangeInclusive<u32>> {
    Ok(match args.value("end-empties") {
        None => defaults.end_empties.clone(),
        Some(text) => {
            let (a, b) = text
                .split_once('-')
                .context("--end-empties: expected A-B, such as 12-22")?;
            let (a, b): (u32, u32) = (a.trim().parse()?, b.trim().parse()?);
            if !(4..=30).contains(&a) || a > b || b > 30 {
                bail!("--end-empties {text}: expected 4 <= A <= B <= 30");
            }
            a..=b
        }
    })
}

/// The positions of every `holdout_every`-th game of the files under `paths` (those with
/// residue `holdout`), the games the evaluation was not trained on.
fn held_out_games(
    paths: &[PathBuf],
    holdout_every: usize,
    holdout: usize,
) -> Result<Vec<Vec<GamePosition>>> {
    let mut held_out = Vec::new();
    let mut number = 0usize;
    for file in games::game_files(paths)? {
        for game in games::read_wthor(&file)?.0 {
            if number % holdout_every == holdout {
                held_out.push(game.positions);
            }
            number += 1;
        }
    }
    Ok(held_out)
}

/// The midgame positions to search (`positions` of them) and the endgame positions to
/// solve, picked from the `held_out` games.
fn pick_boards(
    held_out: &[Vec<GamePosition>],
    config: &Config,
    positions: usize,
) -> (Vec<Board8>, Vec<Board8>) {
    let mut rng = Rng::new(config.seed);
    let picked = mpc::pick_positions(
        held_out,
        config.max_depth + 2..=config.max_empties,
        &mut rng,
    );
    // Evenly over the games, so that every era of play is represented.
    let step = (picked.len() / positions.max(1)).max(1);
    let mid_boards: Vec<_> = picked.into_iter().step_by(step).take(positions).collect();
    let mut end_boards = Vec::new();
    for (k, empties) in config.end_empties.clone().enumerate() {
        // Each number of empties from other games.
        let games: Vec<_> = held_out
            .iter()
            .skip(k * config.end_positions)
            .chain(held_out.iter())
            .cloned()
            .collect();
        let boards = mpc::pick_positions(&games, empties..=empties, &mut rng);
        end_boards.extend(boards.into_iter().take(config.end_positions));
    }
    (mid_boards, end_boards)
}

/// A summary of `table`: sigma by stage for a few depths, and at each number of empties.
fn print_sigmas(table: &Table) -> Result<()> {
    outln!("sigma (discs) by empties and depth, measured entries:")?;
    for line in table.lines() {
        if let Line::Mid {
            from,
            to,
            depth,
            cut,
        } = line
        {
            if cut.samples > 0 && [4, 8, 12].contains(depth) {
                outln!(
                    "  {from:2}-{to:2} empties, depth {depth:2} from {:2}: slope {:.3}, \
                     intercept {:+.2}, sigma {:.2} ({} positions)",
                    cut.shallow,
                    cut.slope,
                    cut.intercept / 100.0,
                    cut.sigma / 100.0,
                    cut.samples
                )?;
            }
        }
    }
    for line in table.lines() {
        if let Line::End { empties, cut } = line {
            if cut.samples > 0 {
                outln!(
                    "  end {empties:2} empties from depth {:2}: slope {:.3}, intercept {:+.2}, \
                     sigma {:.2} ({} positions)",
                    cut.shallow,
                    cut.slope,
                    cut.intercept / 100.0,
                    cut.sigma / 100.0,
                    cut.samples
                )?;
            }
        }
    }
    Ok(())
}
