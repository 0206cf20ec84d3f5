//! The eight lines of squares from a square to the board's edge, walked square by square:
//! the plain definition of which discs a move flips, that [`super::BoardN`] plays by and
//! the fast kernels are checked against.

/// The eight directions a line runs in, as (column, row) steps.
pub(crate) const DIRECTIONS: [(i32, i32); 8] = [
    (1, 0),
    (-1, 0),
    (0, 1),
    (0, -1),
    (1, 1),
    (1, -1),
    (-1, 1),
    (-1, -1),
];

/// The squares (row-major indices) from `square` outward in `direction` on a board `size`
/// squares wide, nearest first, up to the edge; `square` itself not included.
#[inline]
pub(crate) fn ray(
    size: usize,
    square: usize,
    (dc, dr): (i32, i32),
) -> impl Iterator<Item = usize> + Clone {
    let size = size as i32;
    let (col, row) = (square as i32 % size, square as i32 / size);
    (1..)
        .map(move |step| (col + dc * step, row + dr * step))
        .take_while(move |&(c, r)| (0..size).contains(&c) && (0..size).contains(&r))
        .map(move |(c, r)| (r * size + c) as usize)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rays_run_to_the_edge() {
        // From c2 (column 2, row 1) on 8x8.
        assert_eq!(ray(8, 10, (1, 0)).collect::<Vec<_>>(), [11, 12, 13, 14, 15]);
        assert_eq!(ray(8, 10, (-1, -1)).collect::<Vec<_>>(), [1]);
        assert_eq!(ray(8, 10, (0, 1)).count(), 6);
        assert_eq!(ray(8, 10, (-1, 1)).collect::<Vec<_>>(), [17, 24]);
        // A corner of 6x6 has no line off the board.
        assert_eq!(ray(6, 0, (-1, 0)).count(), 0);
        assert_eq!(ray(6, 0, (1, 1)).collect::<Vec<_>>(), [7, 14, 21, 28, 35]);
    }
}
