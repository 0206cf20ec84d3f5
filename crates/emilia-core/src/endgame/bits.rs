//! Small bit masks and kernels the solver shares; gathering the squares of a line into a
//! byte and back lives with the other board kernels.

pub(super) use crate::board::bitboard::{gather, scatter};

/// Column a (a1, a2, …, a8).
pub(crate) const FILE_A: u64 = 0x0101_0101_0101_0101;
/// Column h.
pub(crate) const FILE_H: u64 = 0x8080_8080_8080_8080;
/// Row 1 (a1 … h1).
pub(crate) const RANK_1: u64 = 0xFF;
/// Row 8.
pub(crate) const RANK_8: u64 = 0xFF << 56;

/// The squares next to each square, in all eight directions.
pub(crate) static NEIGHBOURS: [u64; 64] = neighbour_masks();

const fn neighbour_masks() -> [u64; 64] {
    let mut masks = [0u64; 64];
    let mut square = 0;
    while square < 64 {
        let (col, row) = ((square % 8) as i32, (square / 8) as i32);
        let mut dr = -1;
        while dr <= 1 {
            let mut dc = -1;
            while dc <= 1 {
                let (c, r) = (col + dc, row + dr);
                if (dc != 0 || dr != 0) && c >= 0 && c < 8 && r >= 0 && r < 8 {
                    masks[square] |= 1 << (r * 8 + c);
                }
                dc += 1;
            }
            dr += 1;
        }
        square += 1;
    }
    masks
}

/// The full line through `square` with steps of (`dcol`, `drow`), both senses, the square
/// included.
pub(crate) const fn line_through(square: usize, dcol: i32, drow: i32) -> u64 {
    let mut mask = 1u64 << square;
    let mut sense = -1;
    while sense <= 1 {
        let mut col = (square % 8) as i32 + sense * dcol;
        let mut row = (square / 8) as i32 + sense * drow;
        while col >= 0 && col < 8 && row >= 0 && row < 8 {
            mask |= 1 << (row * 8 + col);
            col += sense * dcol;
            row += sense * drow;
        }
        sense += 2;
    }
    mask
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn gather_and_scatter_round_trip_on_lines() {
        let diagonal = line_through(27, 1, 1);
        assert_eq!(diagonal, 0x8040_2010_0804_0201);
        let x = 0x0000_2000_0800_0201u64;
        let packed = gather(x, diagonal);
        assert_eq!(packed, 0b0010_1011);
        assert_eq!(scatter(packed, diagonal), x & diagonal);
        assert_eq!(gather(u64::MAX, FILE_A), 0xFF);
    }

    #[test]
    fn corner_has_three_neighbours_and_centre_eight() {
        assert_eq!(NEIGHBOURS[0], (1 << 1) | (1 << 8) | (1 << 9));
        assert_eq!(NEIGHBOURS[27].count_ones(), 8);
    }
}
