//! `emilia bench eval`: speed of the pattern evaluation.

use anyhow::Result;
use std::time::Instant;

use crate::board::Board8;

/// Times the pattern evaluation, from scratch and with incrementally kept indices.
pub fn run() -> Result<()> {
    use crate::eval::pattern::{IncrementalIndices, PatternEval};
    let eval = PatternEval::load_embedded()?;
    let mut boards = Vec::new();
    let mut state = 0x9E37_79B9_7F4A_7C15u64;
    while boards.len() < 100_000 {
        let mut board = Board8::START;
        loop {
            let moves = board.move_mask();
            if moves == 0 {
                break;
            }
            boards.push(board);
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            let pick = (state % moves.count_ones() as u64) as usize;
            let index = crate::board::bitboard::Bits(moves).nth(pick).unwrap_or(0);
            board = board.after(index, board.flips(index));
        }
    }
    let rounds = 10;
    // A search evaluates many positions of one stage in a row: so does the first timing.
    let mut by_stage = boards.clone();
    by_stage.sort_by_key(|b| b.empty_mask().count_ones());
    let start = Instant::now();
    let mut sum = 0i64;
    for _ in 0..rounds {
        for board in &by_stage {
            sum += eval.evaluate(std::hint::black_box(board)) as i64;
        }
    }
    let full = start.elapsed().as_secs_f64() / (rounds * boards.len()) as f64;
    // Incremental: replay each game's moves (stages change every other move, so the
    // weight tables are colder than in a search), updating indices, evaluating every position.
    let start = Instant::now();
    let mut evaluated = 0u64;
    for _ in 0..rounds {
        let mut previous: Option<(Board8, IncrementalIndices)> = None;
        for board in &boards {
            let indices = match previous {
                Some((before, mut indices)) => {
                    let placed =
                        (board.player | board.opponent) & !(before.player | before.opponent);
                    if placed.count_ones() == 1 {
                        let index = placed.trailing_zeros() as usize;
                        indices.play(index, before.flips(index));
                        indices
                    } else {
                        IncrementalIndices::new(board)
                    }
                }
                None => IncrementalIndices::new(board),
            };
            sum += eval.evaluate_with(std::hint::black_box(board), indices.indices()) as i64;
            evaluated += 1;
            previous = Some((*board, indices));
        }
    }
    let incremental = start.elapsed().as_secs_f64() / evaluated as f64;
    println!(
        "eval: {:.1} ns from scratch, {:.1} ns with incremental indices (update included; checksum {sum})",
        full * 1e9,
        incremental * 1e9
    );
    Ok(())
}
