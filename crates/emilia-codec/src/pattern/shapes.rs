//! The patterns: groups of squares whose joint contents get one learned weight each.
//!
//! A shape is defined once, at one place on the board; its instances are its images under
//! the board symmetries, and all instances of a shape share one weight table. A shape's
//! squares are numbered in ascending square order *in the symmetric view of the board* the
//! instance is read from, so the same table entry means the same contents relative to the
//! shape, wherever the instance lies. Contents are ternary digits: 0 empty, 1 the side to
//! move, 2 the other side; digit `j` weighs `3^j`.

use super::symmetry;

/// A pattern shape, at its defining place on the board.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Shape {
    /// Its squares as a bitboard (a1 = bit 0).
    pub mask: u64,
}

const fn squares(list: &[usize]) -> u64 {
    let mut mask = 0u64;
    let mut i = 0;
    while i < list.len() {
        mask |= 1 << list[i];
        i += 1;
    }
    mask
}

/// Square index from column and row numbers (0-based), for readable shape lists.
const fn sq(col: usize, row: usize) -> usize {
    row * 8 + col
}

/// Every shape, biggest first. Edges and corners carry most of the positional knowledge;
/// the inner lines and diagonals see mobility and stability along their length.
pub(crate) const SHAPES: [Shape; 13] = [
    // corner 3x3
    Shape { mask: 0x0007_0707 },
    // corner 2x5
    Shape { mask: 0x1F1F },
    // corner triangle
    Shape {
        mask: squares(&[
            sq(0, 0),
            sq(1, 0),
            sq(2, 0),
            sq(3, 0),
            sq(0, 1),
            sq(1, 1),
            sq(2, 1),
            sq(0, 2),
            sq(1, 2),
            sq(0, 3),
        ]),
    },
    // edge + 2X
    Shape { mask: 0x42FF },
    // corner + block: the edge without its C-squares, and the four squares inside
    Shape {
        mask: squares(&[
            sq(0, 0),
            sq(2, 0),
            sq(3, 0),
            sq(4, 0),
            sq(5, 0),
            sq(7, 0),
            sq(2, 1),
            sq(3, 1),
            sq(4, 1),
            sq(5, 1),
        ]),
    },
    // row 2
    Shape { mask: 0xFF00 },
    // row 3
    Shape { mask: 0x00FF_0000 },
    // row 4
    Shape { mask: 0xFF00_0000 },
    // diagonal 8
    Shape {
        mask: squares(&[
            sq(0, 0),
            sq(1, 1),
            sq(2, 2),
            sq(3, 3),
            sq(4, 4),
            sq(5, 5),
            sq(6, 6),
            sq(7, 7),
        ]),
    },
    // diagonal 7
    Shape {
        mask: squares(&[
            sq(1, 0),
            sq(2, 1),
            sq(3, 2),
            sq(4, 3),
            sq(5, 4),
            sq(6, 5),
            sq(7, 6),
        ]),
    },
    // diagonal 6
    Shape {
        mask: squares(&[sq(2, 0), sq(3, 1), sq(4, 2), sq(5, 3), sq(6, 4), sq(7, 5)]),
    },
    // diagonal 5
    Shape {
        mask: squares(&[sq(3, 0), sq(4, 1), sq(5, 2), sq(6, 3), sq(7, 4)]),
    },
    // diagonal 4
    Shape {
        mask: squares(&[sq(4, 0), sq(5, 1), sq(6, 2), sq(7, 3)]),
    },
];

/// One placement of a shape: read the board through symmetry `symmetry`, then take the
/// shape's mask.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Instance {
    /// Its shape, by position in the list of shapes.
    pub shape: usize,
    /// The symmetry the board is viewed through.
    pub symmetry: usize,
    /// The shape's mask (in the symmetric view).
    pub mask: u64,
    /// The squares covered, on the real board.
    pub covers: u64,
}

/// The squares on the real board that an instance read through symmetry `k` covers.
const fn covered(k: usize, mask: u64) -> u64 {
    let back = symmetry::inverse(k);
    let mut covers = 0u64;
    let mut s = 0;
    while s < 64 {
        if mask >> s & 1 != 0 {
            covers |= 1 << symmetry::square(back, s);
        }
        s += 1;
    }
    covers
}

const fn count_instances() -> usize {
    let mut total = 0;
    let mut shape = 0;
    while shape < SHAPES.len() {
        let mut k = 0;
        while k < symmetry::COUNT {
            if first_view(shape, k) {
                total += 1;
            }
            k += 1;
        }
        shape += 1;
    }
    total
}

/// Whether symmetry `k` is the first to place `shape` on the squares it covers (later
/// symmetries covering the same squares would only repeat the instance).
const fn first_view(shape: usize, k: usize) -> bool {
    let covers = covered(k, SHAPES[shape].mask);
    let mut j = 0;
    while j < k {
        if covered(j, SHAPES[shape].mask) == covers {
            return false;
        }
        j += 1;
    }
    true
}

/// Number of shape instances on the board.
pub const INSTANCE_COUNT: usize = count_instances();

const fn make_instances() -> [Instance; INSTANCE_COUNT] {
    let mut out = [Instance {
        shape: 0,
        symmetry: 0,
        mask: 0,
        covers: 0,
    }; INSTANCE_COUNT];
    let mut n = 0;
    let mut shape = 0;
    while shape < SHAPES.len() {
        let mut k = 0;
        while k < symmetry::COUNT {
            if first_view(shape, k) {
                out[n] = Instance {
                    shape,
                    symmetry: k,
                    mask: SHAPES[shape].mask,
                    covers: covered(k, SHAPES[shape].mask),
                };
                n += 1;
            }
            k += 1;
        }
        shape += 1;
    }
    out
}

/// Every instance, grouped by shape in the order of the shapes.
pub const INSTANCES: [Instance; INSTANCE_COUNT] = make_instances();

/// Squares of a shape, at most this many.
pub const MAX_SQUARES: usize = 10;

/// `3^n`.
pub const fn pow3(n: usize) -> usize {
    let mut p = 1;
    let mut i = 0;
    while i < n {
        p *= 3;
        i += 1;
    }
    p
}

/// Entries in a shape's full table: one per ternary content.
pub(crate) const fn table_size(shape: usize) -> usize {
    pow3(SHAPES[shape].mask.count_ones() as usize)
}

/// The real-board square of digit `digit` of `instance`.
pub const fn digit_square(instance: &Instance, digit: usize) -> usize {
    let mut mask = instance.mask;
    let mut j = 0;
    while j < digit {
        mask &= mask - 1;
        j += 1;
    }
    symmetry::square(
        symmetry::inverse(instance.symmetry),
        mask.trailing_zeros() as usize,
    )
}

/// For each shape, the permutations of its digits under the symmetries that map the shape
/// onto itself: `perm[j]` is where digit `j` goes. Contents related by such a permutation
/// are the same pattern seen in a mirror and must share a weight.
pub(crate) fn self_symmetries(shape: usize) -> Vec<Vec<usize>> {
    let mask = SHAPES[shape].mask;
    let squares: Vec<usize> = (0..64).filter(|s| mask >> s & 1 != 0).collect();
    let mut perms = Vec::new();
    for k in 0..symmetry::COUNT {
        let images: Vec<usize> = squares.iter().map(|&s| symmetry::square(k, s)).collect();
        if images.iter().all(|s| mask >> s & 1 != 0) {
            let perm: Vec<usize> = images
                .iter()
                .map(|s| squares.iter().position(|t| t == s).unwrap_or(0))
                .collect();
            if !perms.contains(&perm) {
                perms.push(perm);
            }
        }
    }
    perms
}

/// Maps each content of `shape` to its canonical representative (the smallest index among
/// its mirror images).
pub(crate) fn canonical_contents(shape: usize) -> Vec<u32> {
    let n = SHAPES[shape].mask.count_ones() as usize;
    // An image is linear in the digits, so it is the sum of the images of the low and the
    // high digits, each read from a small table: this runs at every start-up, and digit by
    // digit it took most of the evaluation's loading time.
    let low_digits = n / 2;
    let low_len = pow3(low_digits);
    let image_tables: Vec<(Vec<u32>, Vec<u32>)> = self_symmetries(shape)
        .iter()
        .map(|perm| {
            let image = |content: usize, first: usize, count: usize| -> u32 {
                let mut rest = content;
                let mut sum = 0;
                for &image_digit in &perm[first..first + count] {
                    sum += rest % 3 * pow3(image_digit);
                    rest /= 3;
                }
                sum as u32
            };
            let low = (0..low_len).map(|c| image(c, 0, low_digits)).collect();
            let high = (0..pow3(n - low_digits))
                .map(|c| image(c, low_digits, n - low_digits))
                .collect();
            (low, high)
        })
        .collect();
    (0..table_size(shape))
        .map(|index| {
            let (low, high) = (index % low_len, index / low_len);
            image_tables
                .iter()
                .map(|(l, h)| l[low] + h[high])
                .min()
                .unwrap_or(index as u32)
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_shapes_place_54_instances() {
        let per_shape: Vec<usize> = (0..SHAPES.len())
            .map(|s| INSTANCES.iter().filter(|i| i.shape == s).count())
            .collect();
        assert_eq!(per_shape, [4, 8, 4, 4, 4, 4, 4, 4, 2, 4, 4, 4, 4]);
        assert_eq!(INSTANCE_COUNT, 54);
        for shape in &SHAPES {
            assert!(shape.mask.count_ones() as usize <= MAX_SQUARES);
        }
    }

    #[test]
    fn instances_cover_the_named_squares() {
        // The corner 3x3 at h8 and the edge + 2X along column a.
        let h8 = INSTANCES
            .iter()
            .filter(|i| i.shape == 0)
            .any(|i| i.covers == 0xE0E0_E000_0000_0000);
        assert!(h8);
        let a_column = 0x0101_0101_0101_0101u64 | 1 << 9 | 1 << 49;
        assert!(INSTANCES
            .iter()
            .any(|i| i.shape == 3 && i.covers == a_column));
    }

    #[test]
    fn mirror_contents_share_a_representative() {
        // Row 2 is symmetric left-right: a2 alone and h2 alone are the same pattern.
        let canon = canonical_contents(5);
        assert_eq!(canon[1], canon[pow3(7)]);
        assert_ne!(canon[1], canon[2]);
        // Corner 2x5 has no mirror of its own.
        let canon = canonical_contents(1);
        assert!(canon.iter().enumerate().all(|(i, &c)| i as u32 == c));
    }
}
