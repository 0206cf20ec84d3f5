//! Region parity: the board's four quadrants, and which of them hold an odd number of empty
//! squares. Near the end of the game, moving into an odd region first tends to leave the
//! opponent the worse half of the parity fight, so the last few plies try those squares first.

/// The bit of each square's quadrant (a1-d4 = 1, e1-h4 = 2, a5-d8 = 4, e5-h8 = 8). Playing
/// on a square flips the parity of its quadrant: `parity ^= QUADRANT_BIT[square]`.
pub(crate) const QUADRANT_BIT: [u8; 64] = quadrant_bits();

/// The squares of the quadrants named by a 4-bit parity value: `QUADRANT_MASK[parity]` are
/// the squares in quadrants holding an odd number of empties.
pub(crate) const QUADRANT_MASK: [u64; 16] = quadrant_masks();

const fn quadrant_bits() -> [u8; 64] {
    let mut bits = [0u8; 64];
    let mut square = 0;
    while square < 64 {
        let quadrant = (square / 32) * 2 + (square % 8) / 4;
        bits[square] = 1 << quadrant;
        square += 1;
    }
    bits
}

const fn quadrant_masks() -> [u64; 16] {
    let bits = quadrant_bits();
    let mut masks = [0u64; 16];
    let mut parity = 0;
    while parity < 16 {
        let mut square = 0;
        while square < 64 {
            if bits[square] as usize & parity != 0 {
                masks[parity] |= 1 << square;
            }
            square += 1;
        }
        parity += 1;
    }
    masks
}

/// The parity value of a set of empty squares: bit `q` set when quadrant `q` holds an odd
/// number of them.
#[inline]
pub(crate) fn parity_of(empties: u64) -> u8 {
    let mut parity = 0;
    for quadrant in 0..4 {
        let mask = QUADRANT_MASK[1 << quadrant];
        parity |= ((empties & mask).count_ones() as u8 & 1) << quadrant;
    }
    parity
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn quadrants_split_the_board_into_four_blocks_of_sixteen() {
        for quadrant in 0..4 {
            assert_eq!(QUADRANT_MASK[1 << quadrant].count_ones(), 16);
        }
        assert_eq!(QUADRANT_MASK[15], u64::MAX);
        assert_eq!(QUADRANT_BIT[0], 1); // a1
        assert_eq!(QUADRANT_BIT[7], 2); // h1
        assert_eq!(QUADRANT_BIT[56], 4); // a8
        assert_eq!(QUADRANT_BIT[63], 8); // h8
        assert_eq!(QUADRANT_BIT[27], 1); // d4
        assert_eq!(QUADRANT_BIT[36], 8); // e5
    }

    #[test]
    fn playing_a_square_toggles_its_quadrant_parity() {
        let empties = (1u64 << 0) | (1 << 1) | (1 << 7) | (1 << 63);
        assert_eq!(parity_of(empties), 2 | 8);
        assert_eq!(
            parity_of(empties & !1),
            parity_of(empties) ^ QUADRANT_BIT[0]
        );
    }
}
