//! 10x10 on one 128-bit word per side.

use super::geometry::{self, Geometry};
use super::grid::GridBoard;
use super::BitboardRef;

/// The 10x10 board: 100 squares in the low bits of a `u128`.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Default)]
pub struct Ten;

impl Geometry for Ten {
    type Bits = u128;
    const SIZE: usize = 10;
    const STRIDE: usize = 10;
    const HASH_SEED: u64 = 0xBB67_AE85_84CA_A73B;

    fn bitboard_ref(board: &GridBoard<Ten>) -> BitboardRef<'_> {
        BitboardRef::Ten(board)
    }

    #[inline(always)]
    fn legal_moves(player: u128, opponent: u128) -> u128 {
        #[cfg(all(target_arch = "x86_64", target_feature = "avx2"))]
        {
            legal_moves_avx2(player, opponent)
        }
        #[cfg(not(all(target_arch = "x86_64", target_feature = "avx2")))]
        {
            geometry::legal_moves::<Ten>(player, opponent)
        }
    }

    #[inline(always)]
    fn flips(player: u128, opponent: u128, bit: usize) -> u128 {
        geometry::flips_by_lines::<Ten>(player, opponent, bit)
    }
}

/// Legal moves with two line directions in the two 128-bit halves of a 256-bit vector, the
/// four directions in two vectors ([`geometry::legal_moves`] two lanes at a time).
#[cfg(all(target_arch = "x86_64", target_feature = "avx2"))]
#[inline(always)]
fn legal_moves_avx2(player: u128, opponent: u128) -> u128 {
    use std::arch::x86_64::*;

    /// Each 128-bit lane shifted towards higher bits by the per-lane `shift` (below 64);
    /// `back` is 64 less the shift.
    #[inline(always)]
    unsafe fn up(x: __m256i, shift: __m256i, back: __m256i) -> __m256i {
        _mm256_or_si256(
            _mm256_sllv_epi64(x, shift),
            _mm256_srlv_epi64(_mm256_bslli_epi128::<8>(x), back),
        )
    }

    /// Each 128-bit lane shifted towards lower bits.
    #[inline(always)]
    unsafe fn down(x: __m256i, shift: __m256i, back: __m256i) -> __m256i {
        _mm256_or_si256(
            _mm256_srlv_epi64(x, shift),
            _mm256_sllv_epi64(_mm256_bsrli_epi128::<8>(x), back),
        )
    }

    /// Both lanes' legal moves along their direction, as in [`geometry::legal_moves`].
    #[inline(always)]
    unsafe fn along(p: __m256i, mask: __m256i, shift: __m256i) -> __m256i {
        let sixty_four = _mm256_set1_epi64x(64);
        let back = _mm256_sub_epi64(sixty_four, shift);
        let shift2 = _mm256_add_epi64(shift, shift);
        let back2 = _mm256_sub_epi64(sixty_four, shift2);
        let mut forward = _mm256_and_si256(mask, up(p, shift, back));
        let mut backward = _mm256_and_si256(mask, down(p, shift, back));
        forward = _mm256_or_si256(forward, _mm256_and_si256(mask, up(forward, shift, back)));
        backward = _mm256_or_si256(
            backward,
            _mm256_and_si256(mask, down(backward, shift, back)),
        );
        let pairs_forward = _mm256_and_si256(mask, up(mask, shift, back));
        let pairs_backward = down(pairs_forward, shift, back);
        // Three doublings reach the longest run of eight opponent discs.
        for _ in 0..3 {
            forward = _mm256_or_si256(
                forward,
                _mm256_and_si256(pairs_forward, up(forward, shift2, back2)),
            );
            backward = _mm256_or_si256(
                backward,
                _mm256_and_si256(pairs_backward, down(backward, shift2, back2)),
            );
        }
        _mm256_or_si256(up(forward, shift, back), down(backward, shift, back))
    }

    let inner = opponent & geometry::run_columns::<Ten>();
    let halves = |x: u128| (x as u64 as i64, (x >> 64) as u64 as i64);
    let (p_low, p_high) = halves(player);
    let (o_low, o_high) = halves(opponent);
    let (i_low, i_high) = halves(inner);
    // SAFETY: the build enables AVX2, so the instructions exist.
    unsafe {
        let p = _mm256_set_epi64x(p_high, p_low, p_high, p_low);
        // East (1) and south (10); south-west (9) and south-east (11).
        let straight = along(
            p,
            _mm256_set_epi64x(o_high, o_low, i_high, i_low),
            _mm256_set_epi64x(10, 10, 1, 1),
        );
        let diagonal = along(
            p,
            _mm256_set_epi64x(i_high, i_low, i_high, i_low),
            _mm256_set_epi64x(11, 11, 9, 9),
        );
        let both = _mm256_or_si256(straight, diagonal);
        let half = _mm_or_si128(
            _mm256_castsi256_si128(both),
            _mm256_extracti128_si256::<1>(both),
        );
        let low = _mm_cvtsi128_si64(half) as u64 as u128;
        let high = _mm_extract_epi64::<1>(half) as u64 as u128;
        (low | high << 64) & !(player | opponent) & geometry::board::<Ten>()
    }
}

/// A 10x10 position.
pub type Board10 = GridBoard<Ten>;

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::grid::tests::agrees_with_the_reference;
    use crate::rng::Rng;

    #[test]
    fn agrees_with_the_square_by_square_board_over_random_games() {
        agrees_with_the_reference::<Ten>(2000, 10);
    }

    #[test]
    fn the_fast_kernels_agree_with_the_generic_ones() {
        let mut rng = Rng::new(1010);
        let board = geometry::board::<Ten>();
        let random = |rng: &mut Rng| (rng.next_u64() as u128) << 64 | rng.next_u64() as u128;
        for _ in 0..20_000 {
            let a = random(&mut rng) & board;
            let player = a & random(&mut rng);
            let opponent = !a & random(&mut rng) & board;
            assert_eq!(
                Ten::legal_moves(player, opponent),
                geometry::legal_moves::<Ten>(player, opponent)
            );
            for square in 0..100 {
                if (player | opponent) >> square & 1 == 0 {
                    assert_eq!(
                        Ten::flips(player, opponent, square),
                        geometry::flips::<Ten>(player, opponent, square)
                    );
                }
            }
        }
    }
}
