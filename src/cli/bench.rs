//! `emilia bench`: speed benchmarks. Figures, not pass/fail: goals are compared by people.

use anyhow::{bail, Result};

use super::args::Args;
use super::bench_search;
use super::output::{out, outln};

const HELP: &str = "\
Usage: emilia bench [perft] [ffo] [midgame] [replay] [time] [strength] [clock] [eval] [OPTIONS]

  perft     perft from the start position of every board size in turn (Edax convention),
            leaves a second against 8x8's; --size N one size, --depth D, --rounds R
            (default 2)
  ffo       exact solves of FFO endgame positions #40-#49 (20-26 empties), every score
            checked
  midgame   depth and nodes per second on ten positions in --seconds S (default 1),
            or node counts at a fixed --depth N; --eval E (default: the engine's),
            --mpc on|off|FILE and --probcut N as the engine options of those names
  replay    not run by default: searches to --depth N (default 16) along 20 recorded
            games, Black's moves from 52 to 22 empties, the table kept from move to move;
            --eval, --mpc, --probcut as for midgame
  --threads N  threads of the ffo, midgame and time benchmarks (default 1: node counts
            are then the same on every run), and of each engine of clock (default 1:
            its two engines share the machine)
  time      --count N (default 1000) searches at 5-200 ms budgets: overshoot and late moves
  strength  not run by default: classic eval vs a random player (--games N, default 200,
            at --random-depth D, default 4, --size S) and vs the squares eval from XOT
            openings (--games N at --ms T a move, default 100); --against random|squares|both;
            --against options --a name=value,... --b name=value,...: two engine settings
  clock     not run by default: self-play games between two emilia processes on game
            clocks given with `genmove <color> <ms>` (--clocks MS,MS,... default
            100,1000,10000; add 60000 for a minute each; --increment MS after each move,
            told with time_increment; --games N, --engine PATH), or
            on a fixed time a move (--movetime MS); --load N runs N CPU-bound competitors
            meanwhile; reports time used, margins, overshoots, late moves and losses on
            time
  eval      pattern evaluation speed on positions of random games, from scratch and with
            incrementally kept indices
";

/// Runs `emilia bench`.
pub(crate) fn run(args: &[String]) -> Result<()> {
    let args = Args::parse(
        args,
        &[
            ("depth", 1),
            ("seconds", 1),
            ("eval", 1),
            ("mpc", 1),
            ("probcut", 1),
            ("count", 1),
            ("games", 1),
            ("random-depth", 1),
            ("ms", 1),
            ("size", 1),
            ("against", 1),
            ("a", 1),
            ("b", 1),
            ("clocks", 1),
            ("engine", 1),
            ("rounds", 1),
            ("threads", 1),
            ("load", 1),
            ("movetime", 1),
            ("increment", 1),
        ],
    )?;
    if args.flag("help") {
        out!("{HELP}")?;
        return Ok(());
    }
    let which: Vec<&str> = args.positional.iter().map(String::as_str).collect();
    let all = which.is_empty();
    for name in &which {
        if ![
            "perft", "ffo", "midgame", "replay", "time", "strength", "clock", "eval",
        ]
        .contains(name)
        {
            bail!("unknown benchmark '{name}'\n\n{HELP}");
        }
    }
    if all || which.contains(&"perft") {
        super::bench_perft::run(&args)?;
    }
    if all || which.contains(&"ffo") {
        bench_ffo(args.threads("1")?)?;
    }
    if all || which.contains(&"midgame") {
        bench_search::midgame(&args)?;
    }
    if which.contains(&"replay") {
        bench_search::replay(&args)?;
    }
    if all || which.contains(&"time") {
        bench_search::time(&args)?;
    }
    if which.contains(&"strength") {
        bench_search::strength(&args)?;
    }
    if which.contains(&"clock") {
        super::bench_clock::run(&args)?;
    }
    if all || which.contains(&"eval") {
        super::bench_eval::run()?;
    }
    Ok(())
}

/// FFO #40-#49, the standard endgame speed test (every legal move with its exact score),
/// shipped in data/ and built in so the benchmark needs no files.
const FFO_40_49: &str = include_str!("../../data/ffo-40-49.obf");

/// Solves FFO #40-#49 from an empty table each, checking every score.
fn bench_ffo(threads: usize) -> Result<()> {
    let records = emilia_core::formats::obf::read_obf(FFO_40_49)?;
    let mut solver = emilia_core::endgame::Solver::new(emilia_core::endgame::DEFAULT_TABLE_MIB);
    solver.set_threads(threads);
    let plural = if threads == 1 { "" } else { "s" };
    outln!("ffo: FFO #40-#49, exact, {threads} thread{plural}")?;
    let report = super::solve::solve_records(
        &mut solver,
        &records[..10],
        40,
        true,
        super::solve::Proof::Exact,
    )?;
    if report.wrong > 0 {
        bail!("ffo: {} wrong scores", report.wrong);
    }
    Ok(())
}
