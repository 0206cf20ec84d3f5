//! 12x12 in three 64-bit words per side, each row in 16 bits (12 squares and 4 spare), so
//! that runs along rows stop at the spare bits and, with AVX2, each row is one 16-bit lane
//! of a 256-bit vector.

use super::bitset::U192;
use super::geometry::Geometry;
use super::grid::GridBoard;
use super::BitboardRef;

/// The 12x12 board: square (row, column) on bit `16 * row + column` of a 192-bit set.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Default)]
pub struct Twelve;

impl Geometry for Twelve {
    type Bits = U192;
    const SIZE: usize = 12;
    const STRIDE: usize = 16;
    const HASH_SEED: u64 = 0x3C6E_F372_FE94_F82B;

    fn bitboard_ref(board: &GridBoard<Twelve>) -> BitboardRef<'_> {
        BitboardRef::Twelve(board)
    }

    #[inline(always)]
    fn legal_moves(player: U192, opponent: U192) -> U192 {
        #[cfg(all(target_arch = "x86_64", target_feature = "avx2"))]
        {
            legal_moves_avx2(player, opponent)
        }
        #[cfg(not(all(target_arch = "x86_64", target_feature = "avx2")))]
        {
            super::geometry::legal_moves::<Twelve>(player, opponent)
        }
    }

    /// Line by line: a row is one shift away (16 bits, never across words); with AVX2 the
    /// column and diagonals are gathered from the rows in the lanes of a vector.
    #[inline(always)]
    fn flips(player: U192, opponent: U192, bit: usize) -> U192 {
        #[cfg(all(target_arch = "x86_64", target_feature = "avx2"))]
        {
            flips_avx2(player, opponent, bit)
        }
        #[cfg(not(all(target_arch = "x86_64", target_feature = "avx2")))]
        {
            super::geometry::flips_by_lines::<Twelve>(player, opponent, bit)
        }
    }
}

/// One 16-bit value per row, in the lanes of a 256-bit vector (row 0 in lane 0).
#[cfg(all(target_arch = "x86_64", target_feature = "avx2"))]
#[derive(Clone, Copy)]
#[repr(C, align(32))]
struct RowLanes([u16; 16]);

/// For each of the 23 diagonals (`anti` false: rising with the column, numbered by row less
/// column plus 11; `anti` true: falling, numbered by row plus column), per row: the
/// multiplier that moves the diagonal's square in that row to bit 15, and the square's bit;
/// both 0 in rows the diagonal misses.
#[cfg(all(target_arch = "x86_64", target_feature = "avx2"))]
const fn diagonal_lanes(anti: bool) -> ([RowLanes; 23], [RowLanes; 23]) {
    let mut to_top = [RowLanes([0; 16]); 23];
    let mut square = [RowLanes([0; 16]); 23];
    let mut diagonal = 0;
    while diagonal < 23 {
        let mut row = 0;
        while row < 12 {
            let col = if anti {
                diagonal as i32 - row as i32
            } else {
                row as i32 + 11 - diagonal as i32
            };
            if col >= 0 && col < 12 {
                to_top[diagonal].0[row] = 1 << (15 - col);
                square[diagonal].0[row] = 1 << col;
            }
            row += 1;
        }
        diagonal += 1;
    }
    (to_top, square)
}

/// Flips with the rows of both sides in the 16-bit lanes of two vectors: the row through
/// the move by a shift, and each other line by multiplying every row so that the line's
/// square lands on its top bit, whose signs then pack into one bit a row. The flips of a
/// line return to the rows the same way: its bit for each row picks that row's square.
#[cfg(all(target_arch = "x86_64", target_feature = "avx2"))]
#[inline(always)]
fn flips_avx2(player: U192, opponent: U192, bit: usize) -> U192 {
    use super::geometry::line_flips;
    use std::arch::x86_64::*;

    static RISING: ([RowLanes; 23], [RowLanes; 23]) = diagonal_lanes(false);
    static FALLING: ([RowLanes; 23], [RowLanes; 23]) = diagonal_lanes(true);
    static ROW_BITS: RowLanes = RowLanes([
        1, 2, 4, 8, 16, 32, 64, 128, 256, 512, 1024, 2048, 4096, 8192, 16384, 32768,
    ]);

    let [p0, p1, p2] = player.0;
    let [o0, o1, o2] = opponent.0;
    let (row, col) = ((bit / 16) % 12, bit % 16 % 12);
    let rising = row + 11 - col;
    let falling = row + col;

    // The row: 16 bits of one word.
    let (word, start) = (row / 4, (row % 4 * 16) as u32);
    let line = |x: u64| (x >> start) as u32 & 0xFFF;
    let row_flips =
        (line_flips(line(player.0[word]), line(opponent.0[word]), col as u32) as u64) << start;

    // SAFETY: the build enables AVX2, so the instructions exist; the tables are 32-byte
    // aligned rows of 16 lanes and the indices are below 23.
    let words = unsafe {
        let p = _mm256_set_epi64x(0, p2 as i64, p1 as i64, p0 as i64);
        let o = _mm256_set_epi64x(0, o2 as i64, o1 as i64, o0 as i64);
        let load = |lanes: &RowLanes| _mm256_load_si256(lanes.0.as_ptr().cast());
        // Both sides' discs on the line whose squares `to_top` lifts to bit 15, one bit a
        // row: packing keeps each lane's sign, rows 0 to 7 in the low half, 8 to 15 in the
        // high one, the player's before the opponent's in each.
        let gather = |to_top: __m256i| {
            let signs = _mm256_movemask_epi8(_mm256_packs_epi16(
                _mm256_mullo_epi16(p, to_top),
                _mm256_mullo_epi16(o, to_top),
            )) as u32;
            (
                signs & 0xFF | signs >> 8 & 0xFF00,
                signs >> 8 & 0xFF | signs >> 16 & 0xFF00,
            )
        };
        let row_bits = load(&ROW_BITS);
        let spread = |flips: u32, squares: __m256i| {
            let picked = _mm256_and_si256(_mm256_set1_epi16(flips as i16), row_bits);
            _mm256_and_si256(_mm256_cmpeq_epi16(picked, row_bits), squares)
        };
        let rank = row as u32;
        let (pc, oc) = gather(_mm256_set1_epi16((1u16 << (15 - col)) as i16));
        let (pr, or) = gather(load(&RISING.0[rising]));
        let (pf, of) = gather(load(&FALLING.0[falling]));
        let flipped = _mm256_or_si256(
            _mm256_or_si256(
                spread(line_flips(pc, oc, rank), _mm256_set1_epi16(1 << col)),
                spread(line_flips(pr, or, rank), load(&RISING.1[rising])),
            ),
            spread(line_flips(pf, of, rank), load(&FALLING.1[falling])),
        );
        let low = _mm256_castsi256_si128(flipped);
        let high = _mm256_extracti128_si256::<1>(flipped);
        [
            _mm_cvtsi128_si64(low) as u64,
            _mm_extract_epi64::<1>(low) as u64,
            _mm_cvtsi128_si64(high) as u64,
        ]
    };
    // The row's flips into its word by masks, not by an index (see `U192::bit`).
    let into = |w: usize| words[w] | row_flips & ((word == w) as u64).wrapping_neg();
    U192([into(0), into(1), into(2)])
}

/// Legal moves with the board in a 256-bit vector, one row in each 16-bit lane: a step
/// along a row is a shift inside the lanes, a step along a column moves the lanes. The
/// even rows fill the low 128-bit half and the odd rows the high half (rows 0, 2, …, 10
/// in the low half's lanes 0 to 5, rows 1, 3, …, 11 in the high half's), so that a step of
/// 2, 4 or 8 rows stays inside each half; only single steps cross between the halves.
#[cfg(all(target_arch = "x86_64", target_feature = "avx2"))]
#[inline(always)]
fn legal_moves_avx2(player: U192, opponent: U192) -> U192 {
    use std::arch::x86_64::*;

    /// `x` moved `rows` rows down the board (towards higher bits; negative: up) and then
    /// `cols` columns right (negative: left). The shifts are immediates, so each case is
    /// written out; callers pass constants, and inlining keeps one case.
    #[inline(always)]
    unsafe fn step(x: __m256i, rows: i32, cols: i32) -> __m256i {
        let moved = match rows {
            0 => x,
            // An even row becomes the odd row in the same lane of the other half; an odd
            // row becomes the even row one lane further on.
            1 => {
                let swapped = _mm256_permute2x128_si256::<0x01>(x, x);
                _mm256_blend_epi32::<0xF0>(_mm256_bslli_epi128::<2>(swapped), swapped)
            }
            -1 => {
                let swapped = _mm256_permute2x128_si256::<0x01>(x, x);
                _mm256_blend_epi32::<0xF0>(swapped, _mm256_bsrli_epi128::<2>(swapped))
            }
            2 => _mm256_bslli_epi128::<2>(x),
            -2 => _mm256_bsrli_epi128::<2>(x),
            4 => _mm256_bslli_epi128::<4>(x),
            -4 => _mm256_bsrli_epi128::<4>(x),
            8 => _mm256_bslli_epi128::<8>(x),
            -8 => _mm256_bsrli_epi128::<8>(x),
            _ => unreachable!(),
        };
        match cols {
            0 => moved,
            1 => _mm256_slli_epi16::<1>(moved),
            2 => _mm256_slli_epi16::<2>(moved),
            -1 => _mm256_srli_epi16::<1>(moved),
            -2 => _mm256_srli_epi16::<2>(moved),
            4 => _mm256_slli_epi16::<4>(moved),
            -4 => _mm256_srli_epi16::<4>(moved),
            8 => _mm256_slli_epi16::<8>(moved),
            -8 => _mm256_srli_epi16::<8>(moved),
            _ => unreachable!(),
        }
    }

    /// The moves along one line direction (`rows`, `cols`) and its opposite: the squares
    /// just beyond the opponent's runs that start next to a player's disc.
    #[inline(always)]
    unsafe fn along(p: __m256i, o: __m256i, rows: i32, cols: i32) -> __m256i {
        let sense = |r: i32, c: i32| {
            // Grow the squares reached from `p` through `o` by 1, 2, 4 and 8 steps (15 in all,
            // past the longest run of ten), each over the squares where that many steps stay
            // on `o`.
            let mut reached = p;
            let mut through = o;
            reached = _mm256_or_si256(reached, _mm256_and_si256(through, step(reached, r, c)));
            through = _mm256_and_si256(through, step(through, r, c));
            reached = _mm256_or_si256(
                reached,
                _mm256_and_si256(through, step(reached, 2 * r, 2 * c)),
            );
            through = _mm256_and_si256(through, step(through, 2 * r, 2 * c));
            reached = _mm256_or_si256(
                reached,
                _mm256_and_si256(through, step(reached, 4 * r, 4 * c)),
            );
            through = _mm256_and_si256(through, step(through, 4 * r, 4 * c));
            reached = _mm256_or_si256(
                reached,
                _mm256_and_si256(through, step(reached, 8 * r, 8 * c)),
            );
            // One step beyond a run of at least one opponent disc.
            step(_mm256_and_si256(reached, o), r, c)
        };
        _mm256_or_si256(sense(rows, cols), sense(-rows, -cols))
    }

    // Within each half, the lanes of rows 0 to 7 (8 to 15) as even rows then odd rows...
    const TO_PARITY: [i8; 16] = [0, 1, 4, 5, 8, 9, 12, 13, 2, 3, 6, 7, 10, 11, 14, 15];
    // ...and back.
    const FROM_PARITY: [i8; 16] = [0, 1, 8, 9, 2, 3, 10, 11, 4, 5, 12, 13, 6, 7, 14, 15];
    /// Qwords 0, 2, 1, 3: the even rows' halves together, and the odd rows'.
    const SWAP_MIDDLE: i32 = 0b11_01_10_00;

    let [p0, p1, p2] = player.0;
    let [o0, o1, o2] = opponent.0;
    // SAFETY: the build enables AVX2, so the instructions exist.
    unsafe {
        let to_parity = _mm256_loadu_si256([TO_PARITY, TO_PARITY].as_ptr().cast());
        let from_parity = _mm256_loadu_si256([FROM_PARITY, FROM_PARITY].as_ptr().cast());
        let by_parity =
            |x: __m256i| _mm256_permute4x64_epi64::<SWAP_MIDDLE>(_mm256_shuffle_epi8(x, to_parity));
        let p = by_parity(_mm256_set_epi64x(0, p2 as i64, p1 as i64, p0 as i64));
        let o = by_parity(_mm256_set_epi64x(0, o2 as i64, o1 as i64, o0 as i64));
        // Twelve lanes of twelve squares: lanes 0 to 5 of each half.
        let row = 0x0FFF_0FFF_0FFF_0FFFu64 as i64;
        let board = _mm256_set_epi64x(row & 0xFFFF_FFFF, row, row & 0xFFFF_FFFF, row);
        let moves = _mm256_or_si256(
            _mm256_or_si256(along(p, o, 0, 1), along(p, o, 1, 0)),
            _mm256_or_si256(along(p, o, 1, 1), along(p, o, 1, -1)),
        );
        let moves = _mm256_andnot_si256(_mm256_or_si256(p, o), _mm256_and_si256(moves, board));
        let rows = _mm256_shuffle_epi8(_mm256_permute4x64_epi64::<SWAP_MIDDLE>(moves), from_parity);
        let low = _mm256_castsi256_si128(rows);
        let high = _mm256_extracti128_si256::<1>(rows);
        U192([
            _mm_cvtsi128_si64(low) as u64,
            _mm_extract_epi64::<1>(low) as u64,
            _mm_cvtsi128_si64(high) as u64,
        ])
    }
}

/// A 12x12 position.
pub type Board12 = GridBoard<Twelve>;

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::bitset::BitSet;
    use crate::board::geometry;
    use crate::board::grid::tests::agrees_with_the_reference;
    use crate::rng::Rng;

    #[test]
    fn agrees_with_the_square_by_square_board_over_random_games() {
        agrees_with_the_reference::<Twelve>(1000, 12);
    }

    #[test]
    fn the_fast_kernels_agree_with_the_generic_ones() {
        let mut rng = Rng::new(1212);
        let board = geometry::board::<Twelve>();
        let mut random = || U192([rng.next_u64(), rng.next_u64(), rng.next_u64()]);
        for _ in 0..20_000 {
            let a = random() & board;
            let player = a & random();
            let opponent = !a & random() & board;
            assert_eq!(
                Twelve::legal_moves(player, opponent),
                geometry::legal_moves::<Twelve>(player, opponent)
            );
            for bit in board.iter() {
                if !(player | opponent).contains(bit) {
                    assert_eq!(
                        Twelve::flips(player, opponent, bit),
                        geometry::flips::<Twelve>(player, opponent, bit)
                    );
                }
            }
        }
    }
}
