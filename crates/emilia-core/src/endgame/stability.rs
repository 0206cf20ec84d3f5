//! Stable discs: discs no sequence of moves can flip. The opponent's stable discs bound the
//! side to move's final score from above, which cuts off null-window searches whose bound is
//! already below the window ("stability cut-off").
//!
//! The count is a safe under-estimate: discs on the edges that edge play can never flip
//! (from a table built by trying every sequence of edge moves), discs whose four lines are
//! all full, then, repeatedly, inner discs that in each of the four directions lie on a full
//! line or next to a stable disc of their own colour.

use std::sync::OnceLock;

use super::bits::{gather, scatter, FILE_A, FILE_H, RANK_1, RANK_8};

/// Stable discs (of either colour) of one edge, indexed by `mine * 256 + theirs` bytes.
pub(super) fn edge_table() -> &'static [u8] {
    static TABLE: OnceLock<Vec<u8>> = OnceLock::new();
    crate::setup::once(&TABLE, build_edge_table).as_slice()
}

/// Discs of an edge (8 squares, one byte per colour, `a` and `b`) that no placement sequence
/// on the edge can flip. A disc may be placed on any empty square in either colour (other lines could make
/// it legal), flipping the runs of the other colour it closes along the line.
fn build_edge_table() -> Vec<u8> {
    const UNKNOWN: u16 = u16::MAX;
    let mut memo = vec![UNKNOWN; 65536];
    fn stable(a: u8, b: u8, memo: &mut [u16]) -> u8 {
        let index = (a as usize) << 8 | b as usize;
        if memo[index] != UNKNOWN {
            return memo[index] as u8;
        }
        let mut result = a | b;
        let empty = !(a | b);
        for square in 0..8 {
            if empty >> square & 1 == 0 {
                continue;
            }
            // `a` places, then `b` places.
            let flipped = line_flips(a, b, square);
            let next = stable(a | flipped | 1 << square, b & !flipped, memo);
            result &= !flipped & next;
            let flipped = line_flips(b, a, square);
            let next = stable(a & !flipped, b | flipped | 1 << square, memo);
            result &= !flipped & next;
        }
        memo[index] = result as u16;
        result
    }
    let mut table = vec![0u8; 65536];
    for a in 0..=255u8 {
        for b in 0..=255u8 {
            if a & b == 0 {
                table[(a as usize) << 8 | b as usize] = stable(a, b, &mut memo);
            }
        }
    }
    table
}

/// Discs of `other` flipped along an 8-square line when `mover` places on `square`.
fn line_flips(mover: u8, other: u8, square: usize) -> u8 {
    let mut flipped = 0;
    for step in [-1i32, 1] {
        let mut run = 0u8;
        let mut i = square as i32 + step;
        while (0..8).contains(&i) && other >> i & 1 != 0 {
            run |= 1 << i;
            i += step;
        }
        if (0..8).contains(&i) && mover >> i & 1 != 0 {
            flipped |= run;
        }
    }
    flipped
}

/// Squares on full lines in each direction: rows, columns, a1-h8 and h1-a8 diagonals.
#[inline]
fn full_lines(occupied: u64) -> [u64; 4] {
    let mut rows = occupied;
    rows &= rows >> 1;
    rows &= rows >> 2;
    rows &= rows >> 4;
    let rows = (rows & FILE_A).wrapping_mul(0xFF);

    let mut columns = occupied;
    columns &= columns >> 8;
    columns &= columns >> 16;
    columns &= columns >> 32;
    let columns = (columns & RANK_1).wrapping_mul(FILE_A);

    [
        rows,
        columns,
        full_diagonals(occupied, 9, DIAGONAL_EDGES),
        full_diagonals(occupied, 7, ANTI_DIAGONAL_EDGES),
    ]
}

/// For [`full_diagonals`]: the squares from which 1, 2 and 4 steps up the diagonal leave the
/// board, then the same for steps down.
const DIAGONAL_EDGES: [u64; 6] = [
    0xFF80_8080_8080_8080,
    0xFFFF_C0C0_C0C0_C0C0,
    0xFFFF_FFFF_F0F0_F0F0,
    0x0101_0101_0101_01FF,
    0x0303_0303_0303_FFFF,
    0x0F0F_0F0F_FFFF_FFFF,
];
const ANTI_DIAGONAL_EDGES: [u64; 6] = [
    0xFF01_0101_0101_0101,
    0xFFFF_0303_0303_0303,
    0xFFFF_FFFF_0F0F_0F0F,
    0x8080_8080_8080_80FF,
    0xC0C0_C0C0_C0C0_FFFF,
    0xF0F0_F0F0_FFFF_FFFF,
];

/// Squares whose diagonal in the direction of `step` (9: a1-h8, 7: h1-a8) is full: each
/// square ANDs in its neighbours 1, 2, then 4 steps along each way, a step off the board
/// counting as full.
#[inline(always)]
fn full_diagonals(occupied: u64, step: u32, edges: [u64; 6]) -> u64 {
    let mut up = occupied & ((occupied >> step) | edges[0]);
    up &= (up >> (2 * step)) | edges[1];
    up &= (up >> (4 * step)) | edges[2];
    let mut down = occupied & ((occupied << step) | edges[3]);
    down &= (down << (2 * step)) | edges[4];
    down &= (down << (4 * step)) | edges[5];
    up & down
}

/// The a1-h8 diagonals of three squares or more (shorter ones hold only edge discs).
#[cfg(test)]
static DIAGONALS: [u64; 11] = diagonals(1);
/// The h1-a8 diagonals of three squares or more.
#[cfg(test)]
static ANTI_DIAGONALS: [u64; 11] = diagonals(-1);

#[cfg(test)]
const fn diagonals(dcol: i32) -> [u64; 11] {
    // Start on row 1 or the first/last column so that every diagonal is met once.
    let mut masks = [0u64; 11];
    let mut k = 0;
    let mut start = 2;
    while start <= 12 {
        // Squares a3..a8, then b1.. on row 1 (for dcol = 1); mirrored for dcol = -1.
        let (col, row) = if start <= 7 {
            (0, 7 - start)
        } else {
            (start - 7, 0)
        };
        let col = if dcol == 1 { col } else { 7 - col };
        masks[k] = super::bits::line_through((row * 8 + col) as usize, dcol, 1);
        k += 1;
        start += 1;
    }
    masks
}

/// Inner squares (b2-g7): the only ones whose stability the propagation decides.
const INNER: u64 = 0x007E_7E7E_7E7E_7E00;

/// The discs of either colour on the four edges that edge play can never flip.
#[inline]
pub(super) fn stable_edges(player: u64, opponent: u64) -> u64 {
    let table = edge_table();
    let edge = |mask: u64| {
        let mine = gather(player, mask) as usize;
        let theirs = gather(opponent, mask) as usize;
        scatter(table[mine << 8 | theirs] as u64, mask)
    };
    edge(RANK_1) | edge(RANK_8) | edge(FILE_A) | edge(FILE_H)
}

/// `x`, kept in an integer register: the compiler cannot see through this, so it does not
/// pair the two diagonal directions in a vector register, which at every turn of the loop
/// costs moves between register files that take longer than the integer operations.
#[inline(always)]
#[cfg_attr(not(target_arch = "x86_64"), allow(unused_mut))]
fn in_register(mut x: u64) -> u64 {
    #[cfg(target_arch = "x86_64")]
    // SAFETY: an empty instruction sequence; it reads and writes only `x`'s register.
    unsafe {
        std::arch::asm!("/* {0} */", inout(reg) x, options(pure, nomem, nostack, preserves_flags));
    }
    x
}

/// A lower bound on the number of stable discs of `player` (the other side being
/// `opponent`), which stops growing once it reaches `enough`: the stability cut-off needs
/// no more, and the growth can take several rounds.
#[inline]
pub(super) fn stable_discs(player: u64, opponent: u64, enough: u32) -> u32 {
    stable_set(player, opponent, enough).count_ones()
}

/// A set of discs of `player` that can never be flipped, grown from the edges and full
/// lines until it stops or holds `enough` discs.
#[inline(always)]
fn stable_set(player: u64, opponent: u64, enough: u32) -> u64 {
    let mut stable = stable_edges(player, opponent) & player;

    let [rows, columns, diagonals, antis] = full_lines(player | opponent);
    let candidates = player & INNER;
    stable |= candidates & rows & columns & diagonals & antis;
    loop {
        if stable.count_ones() >= enough {
            return stable;
        }
        let horizontal = rows | (stable << 1) | (stable >> 1);
        let vertical = columns | (stable << 8) | (stable >> 8);
        let diagonal = in_register(diagonals | (stable << 9) | (stable >> 9));
        let anti = in_register(antis | (stable << 7) | (stable >> 7));
        let grown = candidates & horizontal & vertical & diagonal & anti & !stable;
        if grown == 0 {
            return stable;
        }
        stable |= grown;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::bitboard::{flips, legal_moves};
    use crate::rng::Rng;

    #[test]
    fn edge_table_knows_corners_and_filled_edges() {
        let table = edge_table();
        // A lone corner disc is stable; a lone disc beside it is not.
        assert_eq!(table[0b0000_0001 << 8], 0b0000_0001);
        assert_eq!(table[0b0000_0010 << 8], 0);
        // A full edge is stable throughout.
        assert_eq!(table[0b1010_1010 << 8 | 0b0101_0101], 0xFF);
        // Corner and its neighbour, same colour: both stable.
        assert_eq!(table[0b0000_0011 << 8], 0b0000_0011);
        // Corner mine, neighbour theirs, rest empty: their disc can be flipped.
        assert_eq!(table[0b0000_0001 << 8 | 0b0000_0010], 0b0000_0001);
    }

    #[test]
    fn diagonal_masks_cover_the_long_diagonals() {
        assert!(DIAGONALS.contains(&0x8040_2010_0804_0201));
        assert!(ANTI_DIAGONALS.contains(&0x0102_0408_1020_4080));
        let covered = DIAGONALS.iter().fold(0, |a, m| a | m);
        // Only a8, h1 (alone) and a7, b8, g1, h2 (pairs) lie on shorter diagonals.
        assert_eq!(covered.count_ones(), 64 - 6);
    }

    #[test]
    fn full_diagonals_match_the_diagonal_masks() {
        let mut rng = Rng::new(0x0F1E_2D3C_4B5A_6978u64);
        for _ in 0..20_000 {
            // Dense boards, so that full diagonals are common.
            let occupied = rng.next_u64() | rng.next_u64() | rng.next_u64();
            for (masks, step, edges) in [
                (&DIAGONALS, 9, DIAGONAL_EDGES),
                (&ANTI_DIAGONALS, 7, ANTI_DIAGONAL_EDGES),
            ] {
                let expected = masks
                    .iter()
                    .filter(|&&m| occupied & m == m)
                    .fold(0, |lines, m| lines | m);
                // Diagonals of one or two squares (corner areas) count as well; compare the rest.
                let long = masks.iter().fold(0, |a, m| a | m);
                let got = full_diagonals(occupied, step, edges) & long;
                assert_eq!(got, expected, "{occupied:x} {step}");
            }
        }
    }

    /// The count stops at `enough` or beyond, and only when the whole count gets there.
    #[test]
    fn counting_to_a_threshold_agrees_with_the_whole_count() {
        let mut rng = Rng::new(0x5EED_0F57_AB1E_D15C);
        for _ in 0..20_000 {
            let fill = rng.next_u64() | rng.next_u64() | rng.next_u64();
            let player = fill & rng.next_u64();
            let opponent = fill & !player;
            let whole = stable_set(player, opponent, u32::MAX).count_ones();
            for enough in 0..=whole + 1 {
                let count = stable_discs(player, opponent, enough);
                if count >= enough {
                    assert!(count <= whole, "{player:x} {opponent:x} {enough}");
                } else {
                    assert!(
                        whole < enough && count == whole,
                        "{player:x} {opponent:x} {enough}"
                    );
                }
            }
        }
    }

    /// Plays random games from random dense boards; a disc called stable must never flip.
    #[test]
    fn stable_discs_never_flip_in_random_play() {
        let mut rng = Rng::new(0x1234_5678_9ABC_DEF1u64);
        for _ in 0..3000 {
            let fill = rng.next_u64() | rng.next_u64();
            let black = fill & rng.next_u64();
            let white = fill & !black;
            let (mut player, mut opponent) = (black, white);
            let stable_black = stable_set(black, white, u32::MAX);
            let stable_white = stable_set(white, black, u32::MAX);
            let mut black_to_move = true;
            loop {
                let moves = legal_moves(player, opponent);
                if moves == 0 {
                    if legal_moves(opponent, player) == 0 {
                        break;
                    }
                    std::mem::swap(&mut player, &mut opponent);
                    black_to_move = !black_to_move;
                    continue;
                }
                let pick = rng.next_u64() % moves.count_ones() as u64;
                let square = crate::board::bitboard::Bits(moves)
                    .nth(pick as usize)
                    .unwrap();
                let flipped = flips(player, opponent, square);
                player |= flipped | 1 << square;
                opponent &= !flipped;
                std::mem::swap(&mut player, &mut opponent);
                black_to_move = !black_to_move;
                let (b, w) = if black_to_move {
                    (player, opponent)
                } else {
                    (opponent, player)
                };
                assert_eq!(b & stable_black, stable_black);
                assert_eq!(w & stable_white, stable_white);
            }
        }
    }
}
