//! The shipped pattern evaluation: its weights file loads and refuses damage, it is
//! symmetric, and its incremental indices match recomputation. (That it predicts exact
//! results of positions it was not trained on is tested with the reader of such files, in
//! the program's training tools.)

use super::{
    indices, indices_by_squares, stage, symmetry, IncrementalIndices, PatternEval, Tables, STAGES,
};
use crate::board::bitboard::Bits;
use crate::board::{Board, Board8};
use crate::eval::weights::{Weights, WeightsError};
use crate::frame::FrameError;
use crate::rng::Rng;

/// A move played: its square and the discs it flipped; `None` for a pass or the end.
type Played = Option<(usize, u64)>;

/// Plays a random game from the start, calling `visit` on every position and move.
fn random_game(rng: &mut Rng, visit: &mut dyn FnMut(&Board8, Played)) {
    let mut board = Board8::START;
    loop {
        let moves = board.move_mask();
        if moves == 0 {
            if board.pass().move_mask() == 0 {
                visit(&board, None);
                return;
            }
            visit(&board, None);
            board = board.pass();
            continue;
        }
        let pick = rng.below(moves.count_ones() as usize);
        let index = Bits(moves).nth(pick).unwrap();
        let flipped = board.flips(index);
        visit(&board, Some((index, flipped)));
        board = board.after(index, flipped);
    }
}

/// The shipped weights file, which the build decodes into the program.
const EMBEDDED_WEIGHTS: &[u8] = include_bytes!(concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/weights/emilia.weights"
));

#[test]
fn the_shipped_weights_load_and_damage_is_reported() {
    let weights = Weights::decode(EMBEDDED_WEIGHTS).unwrap();
    assert!(EMBEDDED_WEIGHTS.len() < 10 << 20, "weights file over 10 MB");
    assert!(
        weights.values.iter().any(|&w| w != 0),
        "weights are all zero"
    );
    // The evaluation built into the program (decoded at build time) is the file's.
    let from_file = PatternEval::from_bytes(EMBEDDED_WEIGHTS).unwrap();
    let built_in = PatternEval::load_embedded().unwrap();
    let mut rng = Rng::new(0x5EED);
    let mut positions = 0;
    for _ in 0..50 {
        random_game(&mut rng, &mut |board, _| {
            assert_eq!(from_file.evaluate(board), built_in.evaluate(board));
            positions += 1;
        });
    }
    assert!(positions > 2000, "{positions} positions");

    let message = |bytes: &[u8]| PatternEval::from_bytes(bytes).unwrap_err().to_string();
    let truncated = &EMBEDDED_WEIGHTS[..EMBEDDED_WEIGHTS.len() - 100];
    assert!(
        message(truncated).contains("truncated"),
        "{}",
        message(truncated)
    );
    let mut flipped = EMBEDDED_WEIGHTS.to_vec();
    let middle = flipped.len() / 2;
    flipped[middle] ^= 1;
    assert!(
        message(&flipped).contains("damaged"),
        "{}",
        message(&flipped)
    );
    let mut version = EMBEDDED_WEIGHTS.to_vec();
    version[8] = 99;
    assert!(message(&version).contains("version 99"));
    assert_eq!(
        PatternEval::from_bytes(b"not weights at all, just some text that is long").unwrap_err(),
        WeightsError::Frame(FrameError::BadMagic)
    );
}

/// Every stage's table laid out when the program was built holds, entry by entry, what
/// expanding the shipped file's weights gives, and what expanding the dense weights built
/// in (as WebAssembly does) gives; and positions of every stage evaluate alike by each.
#[test]
fn every_stage_built_in_is_the_shipped_file_expanded() {
    let built_in = PatternEval::load_embedded().unwrap();
    let from_file = PatternEval::from_bytes(EMBEDDED_WEIGHTS).unwrap();
    let from_dense = PatternEval::expand_embedded().unwrap();
    assert!(matches!(built_in.tables, Tables::BuiltIn(_)));
    assert!(matches!(from_file.tables, Tables::Expanded(_)));
    for stage in 0..STAGES {
        let table = built_in.table(stage);
        assert!(table.iter().any(|&w| w != 0), "stage {stage} is all zero");
        assert!(table == from_file.table(stage), "stage {stage} differs");
        assert!(table == from_dense.table(stage), "stage {stage} differs");
        if stage > 0 {
            assert!(table != built_in.table(stage - 1), "stage {stage} repeats");
        }
    }
    let mut rng = Rng::new(0x57A6E);
    let mut seen = [0usize; STAGES];
    for _ in 0..20 {
        random_game(&mut rng, &mut |board, _| {
            seen[stage(board.empty_mask().count_ones())] += 1;
            let score = from_file.evaluate(board);
            assert_eq!(built_in.evaluate(board), score, "{board:?}");
            assert_eq!(from_dense.evaluate(board), score, "{board:?}");
        });
    }
    assert!(seen.iter().all(|&n| n > 0), "stages seen: {seen:?}");
}

/// The built-in evaluation reads the tables where the program holds them: made twice, it
/// copies nothing (so a process that starts computes and clears no table).
#[test]
fn the_built_in_evaluation_reads_the_program_s_tables() {
    let first = PatternEval::load_embedded().unwrap();
    let second = PatternEval::load_embedded().unwrap();
    assert!(std::ptr::eq(first.table(0), second.table(0)));
    assert!(std::ptr::eq(
        first.table(0).as_ptr().cast::<u8>(),
        super::BUILT_IN_TABLES.0.as_ptr()
    ));
}

#[test]
fn every_board_symmetry_gets_the_same_score() {
    let eval = PatternEval::load_embedded().unwrap();
    let mut rng = Rng::new(0x1234_5678u64);
    for _ in 0..100 {
        random_game(&mut rng, &mut |board, _| {
            let score = eval.evaluate(board);
            for k in 0..symmetry::COUNT {
                let image = Board8 {
                    player: symmetry::bits(k, board.player),
                    opponent: symmetry::bits(k, board.opponent),
                };
                assert_eq!(eval.evaluate(&image), score);
            }
        });
    }
}

#[test]
fn incremental_indices_equal_recomputation_on_random_games() {
    let eval = PatternEval::load_embedded().unwrap();
    let mut rng = Rng::new(0xDEAD_BEEFu64);
    for _ in 0..500 {
        let mut kept = IncrementalIndices::new(&Board8::START);
        random_game(&mut rng, &mut |board, mv| {
            assert_eq!(kept.indices(), &indices(board));
            assert_eq!(kept.indices(), &indices_by_squares(board));
            assert_eq!(
                eval.evaluate_with(board, kept.indices()),
                eval.evaluate(board)
            );
            match mv {
                Some((index, flipped)) => kept.play(index, flipped),
                None => kept.pass(),
            }
        });
    }
}
