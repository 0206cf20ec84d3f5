//! `emilia perft`: leaf counts per depth with time and speed.

use anyhow::{anyhow, bail, Result};
use std::time::Instant;

use super::args::Args;
use super::output::{out, outln};
use emilia_core::board::{BoardSize, Position};
use emilia_core::perft::{perft_any, Convention};

const HELP: &str = "\
Usage: emilia perft <depth> [--size N] [--board <squares> <side>] [--stay-counted]

Counts the leaves of the game tree from the start position (or --board) at every depth
from 1 to <depth>, with time and leaves per second. A forced pass counts as one ply.
By default a game that ends before the depth adds nothing further (Edax's convention);
--stay-counted counts it as one leaf at every later depth (Aart Bik's table).

  --size N              board side: 6, 8, 10 or 12 (default 8)
  --board SQUARES SIDE  start from this position, e.g. --board <64 x X|O|-> X
  --stay-counted        count ended games at every later depth
";

/// Runs `emilia perft`.
pub(crate) fn run(args: &[String]) -> Result<()> {
    let args = Args::parse(args, &[("size", 1), ("board", 2)])?;
    if args.flag("help") {
        out!("{HELP}")?;
        return Ok(());
    }
    args.reject_unknown_flags(&["stay-counted"])?;
    let depth: u32 = match args.positional.as_slice() {
        [d] => d
            .parse()
            .map_err(|_| anyhow!("depth '{d}' is not a number"))?,
        _ => bail!("expected one depth\n\n{HELP}"),
    };
    let position = match args.values("board") {
        [squares, side] => Position::from_parts(squares, side)?,
        _ => Position::start_of(args.get("size", BoardSize::EIGHT)?),
    };
    let convention = if args.flag("stay-counted") {
        Convention::EndedStayCounted
    } else {
        Convention::EndedDropOut
    };
    outln!(
        "perft from {} ({}x{}), {}",
        position,
        position.size(),
        position.size(),
        match convention {
            Convention::EndedDropOut => "ended games drop out",
            Convention::EndedStayCounted => "ended games stay counted",
        }
    )?;
    outln!(
        "{:>5} {:>16} {:>10} {:>14}",
        "depth",
        "leaves",
        "seconds",
        "leaves/s"
    )?;
    for d in 1..=depth {
        let start = Instant::now();
        let leaves = perft_any(&position.board, d, convention);
        let seconds = start.elapsed().as_secs_f64();
        outln!(
            "{d:>5} {leaves:>16} {seconds:>10.3} {:>14.0}",
            leaves as f64 / seconds.max(1e-9)
        )?;
    }
    Ok(())
}
