//! `emilia bench perft`: leaves a second from the start position on every board size, the
//! sizes taking turns so that a busy machine slows them alike, each count checked against
//! the published one where it is known. Speeds are given per second of the clock and per
//! second of processor time, which a machine shared with other work disturbs less.

use anyhow::{bail, Result};
use std::time::Instant;

use super::args::Args;
use super::cpu_time::thread_cpu_seconds;
use super::output::outln;
use emilia_core::board::{AnyBoard, BoardSize, SIZES};
use emilia_core::perft::{perft_any, Convention};

/// Default depth per size: about a second each on a fast machine.
const DEFAULT_DEPTHS: [(usize, u32); 4] = [(6, 12), (8, 12), (10, 11), (12, 11)];

/// Known counts from the start (ended games drop out), from `../shared/data/README.md`:
/// (size, depth, leaves).
const KNOWN: [(usize, u32, u64); 10] = [
    (6, 9, 2_114_912),
    (6, 10, 14_976_684),
    (8, 10, 24_571_056),
    (8, 11, 212_258_216),
    (8, 12, 1_939_879_668),
    (8, 14, 184_041_761_768),
    (10, 9, 3_045_812),
    (10, 10, 25_168_088),
    (12, 8, 392_268),
    (12, 9, 3_046_196),
];

/// Runs the perft benchmark: `--size N` for one size, `--depth D` for its depth,
/// `--rounds R` turns of every size (default 2). Fails on a count that differs from the
/// known one.
pub(crate) fn run(args: &Args) -> Result<()> {
    let sizes: Vec<usize> = match args.value("size") {
        Some(_) => vec![args.get("size", BoardSize::EIGHT)?.side()],
        None => SIZES.to_vec(),
    };
    let rounds = args.get("rounds", 2usize)?.max(1);
    outln!("perft from the start position, ended games drop out, {rounds} round(s)")?;
    outln!(
        "{:>5} {:>5} {:>16} {:>9} {:>14} {:>9} {:>14}  check",
        "size",
        "depth",
        "leaves",
        "seconds",
        "leaves/s",
        "cpu s",
        "leaves/cpu s"
    )?;
    // Per size, the best speed by the clock and by processor time.
    let mut best = vec![(0f64, 0f64); sizes.len()];
    for _ in 0..rounds {
        for (slot, &size) in sizes.iter().enumerate() {
            let depth = match args.value("depth") {
                Some(_) => args.get("depth", 0u32)?,
                None => DEFAULT_DEPTHS
                    .iter()
                    .find(|(s, _)| *s == size)
                    .map_or(10, |&(_, d)| d),
            };
            let board = AnyBoard::start(size).expect("a supported size");
            let (start, cpu_start) = (Instant::now(), thread_cpu_seconds());
            let leaves = perft_any(&board, depth, Convention::EndedDropOut);
            let seconds = start.elapsed().as_secs_f64();
            let cpu = thread_cpu_seconds()
                .zip(cpu_start)
                .map(|(end, start)| end - start);
            let speed = leaves as f64 / seconds.max(1e-9);
            let cpu_speed = cpu.map_or(0.0, |c| leaves as f64 / c.max(1e-9));
            best[slot] = (best[slot].0.max(speed), best[slot].1.max(cpu_speed));
            let check = match KNOWN.iter().find(|k| k.0 == size && k.1 == depth) {
                Some(&(_, _, known)) if known == leaves => "ok".to_string(),
                Some(&(_, _, known)) => bail!("{size}x{size} perft {depth}: {leaves}, not {known}"),
                None => String::new(),
            };
            let cpu = cpu.map_or("-".to_string(), |c| format!("{c:.3}"));
            outln!(
                "{size:>5} {depth:>5} {leaves:>16} {seconds:>9.3} {speed:>14.0} {cpu:>9} \
                 {cpu_speed:>14.0}  {check}"
            )?;
        }
    }
    let eight = sizes.iter().position(|&s| s == 8).map(|i| best[i]);
    for (slot, &size) in sizes.iter().enumerate() {
        let (speed, cpu_speed) = best[slot];
        let ratio = eight.map_or(String::new(), |(e, e_cpu)| {
            format!(
                " ({:.2} and {:.2} of 8x8's)",
                speed / e.max(1e-9),
                cpu_speed / e_cpu.max(1e-9)
            )
        });
        outln!("{size}x{size}: best {speed:.0} leaves/s, {cpu_speed:.0} leaves/cpu s{ratio}")?;
    }
    Ok(())
}
