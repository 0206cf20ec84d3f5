//! The `squares` evaluation: the sum of a fixed table of square values, own discs minus the
//! opponent's. A deliberately simple comparison opponent for the classic evaluation.

use super::features::edge_distances;
use super::{clamp_heuristic, Evaluator};
use crate::board::{Board, SIZES};

/// The 8x8 table, row 1 first: the classic hobby-program square utilities.
#[rustfmt::skip]
pub(super) const SQUARES_8X8: [i32; 64] = [
    25, -5, 14, 10, 10, 14, -5, 25,
    -5, -7, -4,  1,  1, -4, -7, -5,
    14, -4,  3,  2,  2,  3, -4, 14,
    10,  1,  2, -6, -6,  2,  1, 10,
    10,  1,  2, -6, -6,  2,  1, 10,
    14, -4,  3,  2,  2,  3, -4, 14,
    -5, -7, -4,  1,  1, -4, -7, -5,
    25, -5, 14, 10, 10, 14, -5, 25,
];

/// Hundredths of a disc per table point.
const SCALE: i32 = 10;

/// The square-table evaluation.
#[derive(Clone, Debug)]
pub struct SquareTable {
    /// Square values per board size, in [`SIZES`] order.
    tables: Vec<Vec<i32>>,
}

impl Default for SquareTable {
    fn default() -> SquareTable {
        SquareTable {
            tables: SIZES.iter().map(|&size| table(size)).collect(),
        }
    }
}

/// The table for a board of side `size`: the 8x8 values where the board is 8x8; on other
/// sizes each square takes the 8x8 value of the square at the same distances from the
/// edges (distances of 3 and more count as 3), and the four centre squares take the 8x8
/// centre value.
pub(super) fn table(size: usize) -> Vec<i32> {
    if size == 8 {
        return SQUARES_8X8.to_vec();
    }
    let half = size / 2;
    (0..size * size)
        .map(|index| {
            let (row, col) = (index / size, index % size);
            let centre = (half - 1..=half).contains(&row) && (half - 1..=half).contains(&col);
            if centre {
                return SQUARES_8X8[3 * 8 + 3];
            }
            let (near, far) = edge_distances(index, size);
            let value = SQUARES_8X8[near as usize * 8 + far as usize];
            // The 8x8 (3, 3) squares are its centre; elsewhere use the (2, 3) value.
            if (near, far) == (3, 3) {
                SQUARES_8X8[2 * 8 + 3]
            } else {
                value
            }
        })
        .collect()
}

impl Evaluator for SquareTable {
    type Kept = ();

    #[inline]
    fn evaluate<B: Board>(&self, board: &B) -> i32 {
        let size = board.size();
        let table = &self.tables[size / 2 - 3];
        let mut sum = 0;
        for index in board.player_squares() {
            sum += table[index];
        }
        for index in board.opponent_squares() {
            sum -= table[index];
        }
        clamp_heuristic(board, sum * SCALE)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tables_are_symmetric_and_extend_the_8x8_one() {
        for size in SIZES {
            let t = table(size);
            for row in 0..size {
                for col in 0..size {
                    let v = t[row * size + col];
                    assert_eq!(v, t[col * size + row]);
                    assert_eq!(v, t[(size - 1 - row) * size + col]);
                    assert_eq!(v, t[row * size + size - 1 - col]);
                }
            }
            assert_eq!(t[0], 25);
            assert_eq!(t[size + 1], -7);
        }
        assert_eq!(table(8), SQUARES_8X8.to_vec());
        // Extrapolation rule reproduces the 8x8 table from its own distances.
        let t10 = table(10);
        assert_eq!(t10[2], 14);
        assert_eq!(t10[4], 10);
        assert_eq!(t10[4 * 10 + 4], -6);
        assert_eq!(t10[3 * 10 + 3], 2);
    }
}
