//! 6x6 on one 64-bit word per side, with the 8x8 kernels run six squares wide.

use super::bitboard;
use super::geometry::Geometry;
use super::grid::GridBoard;
use super::BitboardRef;

/// The 6x6 board: 36 squares in the low bits of a `u64`.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Default)]
pub struct Six;

impl Geometry for Six {
    type Bits = u64;
    const SIZE: usize = 6;
    const STRIDE: usize = 6;
    const HASH_SEED: u64 = 0x6A09_E667_F3BC_C908;

    fn bitboard_ref(board: &GridBoard<Six>) -> BitboardRef<'_> {
        BitboardRef::Six(board)
    }

    #[inline(always)]
    fn legal_moves(player: u64, opponent: u64) -> u64 {
        bitboard::legal_moves_w::<6>(player, opponent)
    }

    #[inline(always)]
    fn flips(player: u64, opponent: u64, bit: usize) -> u64 {
        bitboard::flips_w::<6>(player, opponent, bit)
    }
}

/// A 6x6 position.
pub type Board6 = GridBoard<Six>;

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::geometry;
    use crate::board::grid::tests::agrees_with_the_reference;
    use crate::rng::Rng;

    #[test]
    fn agrees_with_the_square_by_square_board_over_random_games() {
        agrees_with_the_reference::<Six>(3000, 6);
    }

    #[test]
    fn the_six_wide_kernels_agree_with_the_generic_ones() {
        let mut rng = Rng::new(66);
        let board = (1u64 << 36) - 1;
        for _ in 0..20_000 {
            let a = rng.next_u64() & board;
            let player = a & rng.next_u64();
            let opponent = !a & rng.next_u64() & board;
            assert_eq!(
                Six::legal_moves(player, opponent),
                geometry::legal_moves::<Six>(player, opponent)
            );
            for square in 0..36 {
                if (player | opponent) >> square & 1 == 0 {
                    assert_eq!(
                        Six::flips(player, opponent, square),
                        geometry::flips::<Six>(player, opponent, square)
                    );
                }
            }
        }
    }
}
