//! The eight symmetries of the square board, on square indices and on whole bitboards.
//!
//! Symmetry `k` maps square (col, row) to:
//! 0 (col, row), 1 (7-col, row), 2 (col, 7-row), 3 (7-col, 7-row),
//! 4 (row, col), 5 (7-row, col), 6 (row, 7-col), 7 (7-row, 7-col).
//! 0-3 keep the rows as rows; 4-7 first transpose along the a1-h8 diagonal.

/// Number of board symmetries.
pub const COUNT: usize = 8;

/// Where symmetry `k` sends square `index` (a1 = 0, row-major).
pub const fn square(k: usize, index: usize) -> usize {
    let (col, row) = (index % 8, index / 8);
    let (c, r) = match k {
        0 => (col, row),
        1 => (7 - col, row),
        2 => (col, 7 - row),
        3 => (7 - col, 7 - row),
        4 => (row, col),
        5 => (7 - row, col),
        6 => (row, 7 - col),
        _ => (7 - row, 7 - col),
    };
    r * 8 + c
}

/// The symmetry that undoes symmetry `k`.
pub const fn inverse(k: usize) -> usize {
    // Only the two quarter turns are not their own inverse.
    match k {
        5 => 6,
        6 => 5,
        _ => k,
    }
}

/// Mirrors the columns: a1 <-> h1.
#[inline(always)]
fn mirror_columns(mut b: u64) -> u64 {
    b = ((b >> 1) & 0x5555_5555_5555_5555) | ((b & 0x5555_5555_5555_5555) << 1);
    b = ((b >> 2) & 0x3333_3333_3333_3333) | ((b & 0x3333_3333_3333_3333) << 2);
    ((b >> 4) & 0x0F0F_0F0F_0F0F_0F0F) | ((b & 0x0F0F_0F0F_0F0F_0F0F) << 4)
}

/// Mirrors the rows: a1 <-> a8.
#[inline(always)]
fn mirror_rows(b: u64) -> u64 {
    b.swap_bytes()
}

/// Transposes along the a1-h8 diagonal: b1 <-> a2.
#[inline(always)]
fn transpose(mut b: u64) -> u64 {
    // Three delta swaps: 1x1 cells within 2x2 blocks, then 2x2 within 4x4, then 4x4.
    let t = (b ^ (b >> 7)) & 0x00AA_00AA_00AA_00AA;
    b ^= t ^ (t << 7);
    let t = (b ^ (b >> 14)) & 0x0000_CCCC_0000_CCCC;
    b ^= t ^ (t << 14);
    let t = (b ^ (b >> 28)) & 0x0000_0000_F0F0_F0F0;
    b ^ t ^ (t << 28)
}

/// The bitboard `b` seen through symmetry `k`: bit `square(k, s)` of the result is bit `s`
/// of `b`.
#[inline(always)]
pub fn bits(k: usize, b: u64) -> u64 {
    match k {
        0 => b,
        1 => mirror_columns(b),
        2 => mirror_rows(b),
        3 => b.reverse_bits(),
        4 => transpose(b),
        5 => mirror_columns(transpose(b)),
        6 => mirror_rows(transpose(b)),
        _ => transpose(b).reverse_bits(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bitboard_images_move_each_square_where_the_square_map_says() {
        for k in 0..COUNT {
            for s in 0..64 {
                assert_eq!(
                    bits(k, 1 << s),
                    1 << square(k, s),
                    "symmetry {k} square {s}"
                );
                assert_eq!(square(inverse(k), square(k, s)), s);
            }
        }
    }

    #[test]
    fn the_eight_symmetries_are_distinct() {
        // b1 (index 1) lands on a different square under each symmetry.
        let mut images: Vec<usize> = (0..COUNT).map(|k| square(k, 1)).collect();
        images.sort_unstable();
        images.dedup();
        assert_eq!(images.len(), COUNT);
    }
}
