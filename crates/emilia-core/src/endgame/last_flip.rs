//! Counting the discs flipped by a move on the last empty square. With one empty square left
//! every other square holds a disc, so one side's discs alone describe each line through it:
//! each of the four lines is packed into a byte and looked up in a table of flip counts.

use super::bits::{gather, line_through};

/// For each line position (0-7) of the empty square and each byte of the mover's discs on
/// the line (every other square of the line being the other side's, squares past a short
/// line's end reading as the other side's too), the number of discs flipped along the line.
static FLIPS_ON_LINE: [[u8; 256]; 8] = flips_on_line();

const fn flips_on_line() -> [[u8; 256]; 8] {
    let mut table = [[0u8; 256]; 8];
    let mut position = 0;
    while position < 8 {
        let mut line = 0;
        while line < 256 {
            let mut total = 0;
            // Upwards: a run of the other side's discs closed by a mover's disc.
            let mut i = position + 1;
            while i < 8 && line >> i & 1 == 0 {
                i += 1;
            }
            if i < 8 {
                total += i - position - 1;
            }
            // Downwards.
            let mut j = position as i32 - 1;
            while j >= 0 && line >> j & 1 == 0 {
                j -= 1;
            }
            if j >= 0 {
                total += position - j as usize - 1;
            }
            table[position][line] = total as u8;
            line += 1;
        }
        position += 1;
    }
    table
}

/// The lines through a square other than its row: column, a1-h8 diagonal, h1-a8 diagonal.
#[derive(Clone, Copy)]
struct Lines {
    masks: [u64; 3],
    positions: [u8; 3],
}

static LINES: [Lines; 64] = lines();

const fn lines() -> [Lines; 64] {
    let mut table = [Lines {
        masks: [0; 3],
        positions: [0; 3],
    }; 64];
    let mut square = 0;
    while square < 64 {
        let masks = [
            line_through(square, 0, 1),
            line_through(square, 1, 1),
            line_through(square, -1, 1),
        ];
        let mut k = 0;
        while k < 3 {
            // The position in the packed line is the number of line squares below this one.
            let below = masks[k] & ((1u64 << square) - 1);
            table[square].masks[k] = masks[k];
            table[square].positions[k] = below.count_ones() as u8;
            k += 1;
        }
        square += 1;
    }
    table
}

/// Discs flipped when the side owning `mover` plays on `square`, the only empty square
/// (every square but `square` holds a disc; `mover` is one side's discs).
#[inline(always)]
pub(crate) fn count_last_flips(mover: u64, square: usize) -> u32 {
    // Every index is masked to its table's size (a line holds at most 8 squares), so no
    // bounds checks are left to spill registers in the solvers this is inlined into.
    let square = square & 63;
    let row = (mover >> (square & 56)) as u8;
    let lines = &LINES[square];
    let column = gather(mover, lines.masks[0]) as u8;
    let diagonal = gather(mover, lines.masks[1]) as u8;
    let anti = gather(mover, lines.masks[2]) as u8;
    let count = |position: u8, line: u8| FLIPS_ON_LINE[position as usize & 7][line as usize] as u32;
    count(square as u8 & 7, row)
        + count(lines.positions[0], column)
        + count(lines.positions[1], diagonal)
        + count(lines.positions[2], anti)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::bitboard::flips;

    #[test]
    fn matches_the_general_flip_kernel_on_full_boards() {
        let mut rng = crate::rng::Rng::new(0x2545_F491_4F6C_DD1D);
        for _ in 0..50_000 {
            let state = rng.next_u64();
            let square = (state >> 58) as usize;
            let mover = state & !(1 << square);
            let other = !mover & !(1 << square);
            assert_eq!(
                count_last_flips(mover, square),
                flips(mover, other, square).count_ones(),
                "{mover:x} {square}"
            );
            assert_eq!(
                count_last_flips(other, square),
                flips(other, mover, square).count_ones()
            );
        }
    }
}
