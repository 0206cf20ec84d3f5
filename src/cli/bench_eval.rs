//! `emilia bench eval`: speed of the pattern evaluation.

use anyhow::Result;
use std::time::Instant;

use super::output::outln;
use emilia_core::board::bitboard::Bits;
use emilia_core::board::Board8;
use emilia_core::eval::pattern::{indices, IncrementalIndices, PatternEval};
use emilia_core::rng::Rng;

/// Seconds of CPU this thread has used, where the system tells (Linux); otherwise wall
/// time. CPU time keeps the figures meaningful on a machine busy with other work.
struct Clock {
    wall: Instant,
    cpu: Option<u64>,
}

fn thread_cpu_ns() -> Option<u64> {
    let text = std::fs::read_to_string("/proc/thread-self/schedstat").ok()?;
    text.split_whitespace().next()?.parse().ok()
}

impl Clock {
    fn start() -> Clock {
        Clock {
            wall: Instant::now(),
            cpu: thread_cpu_ns(),
        }
    }

    fn seconds(&self) -> f64 {
        match (self.cpu, thread_cpu_ns()) {
            (Some(a), Some(b)) => (b - a) as f64 * 1e-9,
            _ => self.wall.elapsed().as_secs_f64(),
        }
    }
}

/// Positions of random games from the start, in game order, with the move that led from
/// each to the next (`None` at a game's first position).
fn random_games(count: usize) -> Vec<(Board8, Option<(Board8, usize)>)> {
    let mut out = Vec::with_capacity(count);
    let mut rng = Rng::new(0x9E37_79B9_7F4A_7C15);
    while out.len() < count {
        let mut board = Board8::START;
        let mut previous = None;
        loop {
            let moves = board.move_mask();
            if moves == 0 {
                break;
            }
            out.push((board, previous));
            let pick = rng.below(moves.count_ones() as usize);
            let index = Bits(moves).nth(pick).unwrap_or(0);
            previous = Some((board, index));
            board = board.after(index, board.flips(index));
        }
    }
    out
}

/// Times the pattern evaluation: indices alone, whole evaluations from scratch, and
/// evaluations with indices kept up to date move by move.
pub(crate) fn run() -> Result<()> {
    let clock = Clock::start();
    let eval = PatternEval::load_embedded()?;
    let load = clock.seconds();
    let games = random_games(100_000);
    let rounds = 10;
    let per_position = |seconds: f64| seconds * 1e9 / (rounds * games.len()) as f64;
    let mut checksum = 0i64;

    let clock = Clock::start();
    for _ in 0..rounds {
        for (board, _) in &games {
            checksum += indices(std::hint::black_box(board))[7] as i64;
        }
    }
    let indices_only = per_position(clock.seconds());

    let clock = Clock::start();
    for _ in 0..rounds {
        for (board, _) in &games {
            checksum += eval.evaluate(std::hint::black_box(board)) as i64;
        }
    }
    let from_scratch = per_position(clock.seconds());

    // A search evaluates many positions of one stage in a row, where the stage's tables
    // stay in cache: positions sorted by empty squares show that case.
    let mut by_stage: Vec<Board8> = games.iter().map(|(board, _)| *board).collect();
    by_stage.sort_by_key(|board| board.empty_mask().count_ones());
    let clock = Clock::start();
    for _ in 0..rounds {
        for board in &by_stage {
            checksum += eval.evaluate(std::hint::black_box(board)) as i64;
        }
    }
    let sorted = per_position(clock.seconds());

    let clock = Clock::start();
    for _ in 0..rounds {
        let mut kept = IncrementalIndices::new(&Board8::START);
        for (board, previous) in &games {
            match previous {
                Some((before, index)) => kept.play(*index, before.flips(*index)),
                None => kept = IncrementalIndices::new(board),
            }
            checksum += eval.evaluate_with(std::hint::black_box(board), kept.indices()) as i64;
        }
    }
    let incremental = per_position(clock.seconds());
    outln!(
        "eval: {indices_only:.1} ns for the indices; an evaluation from scratch {from_scratch:.1} \
         ns, with indices kept move by move {incremental:.1} ns (positions in game order, \
         stages changing); from scratch on positions grouped by stage {sorted:.1} ns \
         (CPU time, checksum {checksum}); the built-in weights loaded in {:.1} ms",
        load * 1e3
    )?;
    Ok(())
}
