//! 12x12 in three 64-bit words per side, each row in 16 bits (12 squares and 4 spare), so
//! that runs along rows stop at the spare bits and, with AVX2, each row is one 16-bit lane
//! of a 256-bit vector.

use super::bitset::U192;
use super::geometry::Geometry;
use super::sized::SizedBoard;
use super::SizedRef;

/// The 12x12 board: square (row, column) on bit `16 * row + column` of a [`U192`].
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Default)]
pub struct Twelve;

impl Geometry for Twelve {
    type Bits = U192;
    const SIZE: usize = 12;
    const STRIDE: usize = 16;
    const HASH_SEED: u64 = 0x3C6E_F372_FE94_F82B;

    fn sized_ref(board: &SizedBoard<Twelve>) -> SizedRef<'_> {
        SizedRef::Twelve(board)
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

    /// Line by line: a row is one shift away (16 bits, never across words), and perft runs
    /// about 3 % faster than with the generic ray-by-ray kernel.
    #[inline(always)]
    fn flips(player: U192, opponent: U192, bit: usize) -> U192 {
        super::geometry::flips_by_lines::<Twelve>(player, opponent, bit)
    }
}

/// Legal moves with the board in a 256-bit vector, one row in each 16-bit lane: a step
/// along a row is a shift inside the lanes, a step along a column moves the lanes. The
/// even rows fill the low 128-bit half and the odd rows the high half (rows 0, 2, …, 10
/// in the low half's lanes 0 to 5, rows 1, 3, …, 11 in the high half's), so that a step of
/// two rows stays inside each half; only single steps cross between the halves.
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
            _ => unreachable!(),
        };
        match cols {
            0 => moved,
            1 => _mm256_slli_epi16::<1>(moved),
            2 => _mm256_slli_epi16::<2>(moved),
            -1 => _mm256_srli_epi16::<1>(moved),
            -2 => _mm256_srli_epi16::<2>(moved),
            _ => unreachable!(),
        }
    }

    /// The moves along one line direction (`rows`, `cols`) and its opposite, as in
    /// [`super::geometry::legal_moves`].
    #[inline(always)]
    unsafe fn along(p: __m256i, o: __m256i, rows: i32, cols: i32) -> __m256i {
        let (r, c) = (rows, cols);
        let mut forward = _mm256_and_si256(o, step(p, r, c));
        let mut backward = _mm256_and_si256(o, step(p, -r, -c));
        forward = _mm256_or_si256(forward, _mm256_and_si256(o, step(forward, r, c)));
        backward = _mm256_or_si256(backward, _mm256_and_si256(o, step(backward, -r, -c)));
        let pairs_forward = _mm256_and_si256(o, step(o, r, c));
        let pairs_backward = step(pairs_forward, -r, -c);
        // Four doublings reach the longest run of ten opponent discs.
        for _ in 0..4 {
            forward = _mm256_or_si256(
                forward,
                _mm256_and_si256(pairs_forward, step(forward, 2 * r, 2 * c)),
            );
            backward = _mm256_or_si256(
                backward,
                _mm256_and_si256(pairs_backward, step(backward, -2 * r, -2 * c)),
            );
        }
        _mm256_or_si256(step(forward, r, c), step(backward, -r, -c))
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
pub type Board12 = SizedBoard<Twelve>;

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::bitset::BitSet;
    use crate::board::geometry;
    use crate::board::sized::tests::agrees_with_the_reference;
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
