//! Perft leaf counts from the start position against published tables: the 8x8 counts of
//! Edax and Aart Bik, and counts for other board sizes agreed by two independent programs.

use emilia_core::board::{AnyBoard, Board, Board8, BoardN, SIZES};
use emilia_core::perft::{perft, perft8, perft_any, Convention};

/// 8x8 leaves at depths 1 to 9; both conventions agree up to there, since no game ends
/// before ply 9.
const EIGHT: [u64; 9] = [4, 12, 56, 244, 1396, 8200, 55092, 390216, 3005288];

/// Depth 10, where games ended at ply 9 make the conventions differ.
const EIGHT_DEPTH_10_DROP_OUT: u64 = 24_571_056;
const EIGHT_DEPTH_10_STAY_COUNTED: u64 = 24_571_284;

/// Depths 1 to 9 on the other sizes, ended games dropping out.
const SIX: [u64; 9] = [4, 12, 56, 244, 1364, 7604, 47740, 308716, 2114912];
const TEN: [u64; 9] = [4, 12, 56, 244, 1396, 8200, 55180, 392268, 3045812];
const TWELVE: [u64; 9] = [4, 12, 56, 244, 1396, 8200, 55180, 392268, 3046196];

/// The square-by-square board is slow: it is checked to this depth.
const REFERENCE_DEPTH: usize = 7;

const CONVENTIONS: [Convention; 2] = [Convention::EndedDropOut, Convention::EndedStayCounted];

#[test]
fn bitboard_perft_matches_the_published_8x8_table() {
    for convention in CONVENTIONS {
        for (depth, &leaves) in (1..).zip(EIGHT.iter()) {
            assert_eq!(
                perft8(&Board8::START, depth, convention),
                leaves,
                "depth {depth}, {convention:?}"
            );
        }
    }
}

#[test]
fn conventions_differ_as_published_at_depth_10() {
    let start = Board8::START;
    assert_eq!(
        perft8(&start, 10, Convention::EndedDropOut),
        EIGHT_DEPTH_10_DROP_OUT
    );
    assert_eq!(
        perft8(&start, 10, Convention::EndedStayCounted),
        EIGHT_DEPTH_10_STAY_COUNTED
    );
}

#[test]
fn generic_perft_on_the_bitboard_matches_the_table() {
    for convention in CONVENTIONS {
        for (depth, &leaves) in (1..=8).zip(EIGHT.iter()) {
            assert_eq!(
                perft(&Board8::START, depth, convention),
                leaves,
                "depth {depth}"
            );
        }
    }
}

#[test]
fn square_by_square_8x8_matches_the_table() {
    for convention in CONVENTIONS {
        for (depth, &leaves) in (1..=7).zip(EIGHT.iter()) {
            assert_eq!(
                perft(&BoardN::start(8), depth, convention),
                leaves,
                "depth {depth}"
            );
        }
    }
}

fn check_size(size: usize, table: &[u64]) {
    let reference = BoardN::start(size);
    let start = AnyBoard::start(size).unwrap();
    for (depth, &leaves) in (1..).zip(table.iter()) {
        assert_eq!(
            perft_any(&start, depth, Convention::EndedDropOut),
            leaves,
            "{size}x{size} depth {depth}"
        );
        if depth as usize <= REFERENCE_DEPTH {
            assert_eq!(
                perft(&reference, depth, Convention::EndedDropOut),
                leaves,
                "square by square, {size}x{size} depth {depth}"
            );
        }
    }
}

#[test]
fn six_by_six_matches_the_table() {
    check_size(6, &SIX);
}

#[test]
fn ten_by_ten_matches_the_table() {
    check_size(10, &TEN);
}

#[test]
fn twelve_by_twelve_matches_the_table() {
    check_size(12, &TWELVE);
}

#[test]
fn the_generic_count_agrees_with_the_bulk_count_on_every_size() {
    for size in SIZES {
        let start = AnyBoard::start(size).unwrap();
        for depth in 0..=6 {
            let generic =
                emilia_core::with_board!(&start, b => perft(b, depth, Convention::EndedDropOut));
            assert_eq!(
                generic,
                perft_any(&start, depth, Convention::EndedDropOut),
                "{size}x{size} depth {depth}"
            );
        }
    }
}
