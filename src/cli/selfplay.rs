//! `emilia selfplay`: generates training games by self-play, in chunks.

use std::path::{Path, PathBuf};
use std::time::Duration;

use anyhow::{bail, Context, Result};

use super::args::Args;
use super::output::{duration_text, note, out, outln};
use crate::selfplay::data::{self, Progress, Settings};
use emilia_core::board::BoardSize;

const HELP: &str = "\
Usage: emilia selfplay --out DIR [--chunks N] [--first-chunk K] [options]

Plays games of Emilia against itself for training the evaluation (`emilia train
--selfplay DIR`). Each game starts from a random opening line and a few random moves,
continues with moves from a short search (at random among those scored within a margin of
the best), and is played by the exact solver from --solve empties on, so that every
position from there on has its exact value.

Games are written in chunks: chunk C is the file DIR/selfplay-s<seed>-c<C>.games
(selfplay-<N>x<N>-s<seed>-c<C>.games on other board sizes), made
whole (under a temporary name, renamed at the end). Chunks already in DIR are skipped, so
an interrupted run resumes where it stopped, and machines given different chunk ranges
(or the same seed and different --first-chunk) make different games. A chunk depends only
on the settings, the seed and its number.

Options:
  --out DIR            directory of the chunk files (created if missing)
  --chunks N           chunks to make (default 1)
  --first-chunk K      number of the first chunk (default 0)
  --size N             board side: 6, 8, 10 or 12 (default 8; `emilia train` fits 8x8)
  --games N            games a chunk (default 500)
  --seed S             seed of every random choice (default 1)
  --threads T          worker threads, each with its own one-thread engine (default all:
                       every core the system offers)
  --openings FILE      opening lines, one transcript a line (default: the shipped XOT set
                       on 8x8, none on other sizes)
  --random-moves N     uniformly random moves after the opening line (default 2 after
                       an opening line; without: 4 on 6x6, 6 on 10x10, 8 on 12x12)
  --depth D            search depth of the other moves (default 6)
  --margin X           moves within X discs of the best are equally likely (default 1)
  --solve E            the solver plays from E empties on (default 20 on 6x6 and 8x8,
                       16 on 10x10, 14 on 12x12: about 0.1 s a solve)
  --hash MIB           transposition table of each engine (default 16)
  --report S           seconds between progress lines on stderr (default 30)
";

/// Runs `emilia selfplay`.
pub(crate) fn run(args: &[String]) -> Result<()> {
    let args = Args::parse(
        args,
        &[
            ("out", 1),
            ("size", 1),
            ("chunks", 1),
            ("first-chunk", 1),
            ("games", 1),
            ("seed", 1),
            ("threads", 1),
            ("openings", 1),
            ("random-moves", 1),
            ("depth", 1),
            ("margin", 1),
            ("solve", 1),
            ("hash", 1),
            ("report", 1),
        ],
    )?;
    if args.flag("help") {
        return out!("{HELP}");
    }
    args.reject_unknown_flags(&[])?;
    if !args.positional.is_empty() {
        bail!("unexpected argument '{}'\n\n{HELP}", args.positional[0]);
    }
    let Some(out) = args.value("out").map(PathBuf::from) else {
        bail!("no output directory: use --out DIR\n\n{HELP}");
    };
    let defaults = Settings::default();
    let size = args.get("size", BoardSize::EIGHT)?.side();
    let openings = match args.value("openings") {
        Some(path) => data::parse_openings(
            &emilia_core::files::read_text(Path::new(path), crate::files::OPENINGS)?,
            size,
        )
        .with_context(|| path.to_string())?,
        None if size == 8 => data::parse_openings(crate::selfplay::XOT_OPENINGS, 8)?,
        None => Vec::new(),
    };
    if args.value("openings").is_some() && openings.is_empty() {
        bail!("no openings in the openings file");
    }
    // About 0.1 s a solve, and openings as varied as an XOT line and two random moves.
    let solve_default = match size {
        10 => 16,
        12 => 14,
        _ => 20,
    };
    let random_default = match (size, openings.is_empty()) {
        (_, false) => 2,
        (6 | 8, true) => 4,
        (10, true) => 6,
        _ => 8,
    };
    let settings = Settings {
        size,
        depth: args.get("depth", defaults.depth)?,
        margin: args.get("margin", defaults.margin)?,
        solve_empties: args.get("solve", solve_default)?,
        random_moves: args.get("random-moves", random_default)?,
        games_per_chunk: args.get("games", defaults.games_per_chunk)?,
        seed: args.get("seed", defaults.seed)?,
        hash_mib: args.table_mib("hash", defaults.hash_mib)?,
    };
    if !(1..=60).contains(&settings.depth) {
        bail!("--depth {}: expected 1 to 60", settings.depth);
    }
    if !(0.0..=64.0).contains(&settings.margin) {
        bail!("--margin {}: expected 0 to 64 discs", settings.margin);
    }
    if settings.solve_empties > 30 {
        bail!(
            "--solve {}: at most 30 empties (each game would take hours)",
            settings.solve_empties
        );
    }
    if settings.games_per_chunk == 0 {
        bail!("--games 0: a chunk needs games");
    }
    let chunks: u64 = args.get("chunks", 1)?;
    let first: u64 = args.get("first-chunk", 0)?;
    let end = first
        .checked_add(chunks)
        .context("--first-chunk plus --chunks overflows")?;
    let threads = args.threads("all")?;
    let every = args
        .seconds("report", 30.0)?
        .max(Duration::from_millis(100));
    let games_per_chunk = settings.games_per_chunk;
    let say = |p: &Progress| {
        let eta = p
            .remaining(games_per_chunk)
            .map_or("?".to_string(), duration_text);
        note(&format!(
            "selfplay: {}/{} chunks ({} already there), {} games, {} positions, {:.1} \
             positions/s, {:.0} s elapsed, about {eta} left",
            p.chunks_done,
            p.chunks_todo,
            p.skipped,
            p.games,
            p.positions,
            p.rate(),
            p.elapsed.as_secs_f64(),
        ))
    };
    let last = data::run(
        &out,
        &settings,
        &openings,
        first..end,
        threads,
        every,
        &mut |p| say(p),
    )?;
    outln!(
        "selfplay: {} chunks made, {} already there; {} games, {} positions in {:.0} s \
         ({:.1} positions/s on {threads} threads)",
        last.chunks_done,
        last.skipped,
        last.games,
        last.positions,
        last.elapsed.as_secs_f64(),
        last.rate()
    )
}
