//! `emilia bench`: speed benchmarks. Figures, not pass/fail: goals are compared by people.

use anyhow::{bail, Result};
use std::time::Instant;

use super::Args;
use crate::board::Board8;
use crate::perft::{perft8, Convention};

const HELP: &str = "\
Usage: emilia bench [perft] [--depth N]
       emilia bench clock [--clocks MS,MS,...] [--games N] [--engine PATH]

  perft   perft from the 8x8 start position (Edax convention), default depth 12
  clock   self-play games between two emilia processes on game clocks given with
          `genmove <color> <ms>` (default clocks 100,1000,10000 ms; add 60000 for a
          minute each); reports time used, margins, overshoots and losses on time.
          Runs only when named.
";

/// Runs `emilia bench`.
pub fn run(args: &[String]) -> Result<()> {
    let args = Args::parse(
        args,
        &[("depth", 1), ("clocks", 1), ("games", 1), ("engine", 1)],
    )?;
    if args.flag("help") {
        print!("{HELP}");
        return Ok(());
    }
    let which: Vec<&str> = args.positional.iter().map(String::as_str).collect();
    let all = which.is_empty();
    for name in &which {
        if !["perft", "clock"].contains(name) {
            bail!("unknown benchmark '{name}'\n\n{HELP}");
        }
    }
    if which.contains(&"clock") {
        super::bench_clock::run(&args)?;
    }
    if all || which.contains(&"perft") {
        let depth = args.get("depth", 12u32)?;
        let start = Instant::now();
        let leaves = perft8(&Board8::START, depth, Convention::EndedDropOut);
        let seconds = start.elapsed().as_secs_f64();
        println!(
            "perft {depth}: {leaves} leaves in {seconds:.3} s, {:.0} leaves/s",
            leaves as f64 / seconds
        );
    }
    Ok(())
}
