//! Pattern indices of a position: each instance's ternary contents, from the side to move's
//! point of view. Computed from scratch with bit extraction, or kept up to date move by move.

use super::shapes::{digit_square, pow3, INSTANCES, INSTANCE_COUNT, MAX_SQUARES};
use super::symmetry;
use crate::board::bitboard::Bits;
use crate::board::Board8;

/// The contents of every instance, in [`INSTANCES`] order.
pub type Indices = [u16; INSTANCE_COUNT];

const fn make_ternary() -> [u16; 1 << MAX_SQUARES] {
    let mut table = [0u16; 1 << MAX_SQUARES];
    let mut bits = 0;
    while bits < table.len() {
        let mut value = 0;
        let mut j = 0;
        while j < MAX_SQUARES {
            if bits >> j & 1 != 0 {
                value += pow3(j);
            }
            j += 1;
        }
        table[bits] = value as u16;
        bits += 1;
    }
    table
}

/// The binary digits of `bits` read as ternary digits.
static TERNARY: [u16; 1 << MAX_SQUARES] = make_ternary();

/// The bits of `bits` under `mask`, packed into the low bits in order.
#[inline(always)]
fn extract(bits: u64, mask: u64) -> usize {
    #[cfg(all(target_arch = "x86_64", target_feature = "bmi2"))]
    {
        // SAFETY: the instruction exists, as the enabled target feature guarantees.
        unsafe { core::arch::x86_64::_pext_u64(bits, mask) as usize }
    }
    #[cfg(not(all(target_arch = "x86_64", target_feature = "bmi2")))]
    {
        let (mut out, mut mask, mut bit) = (0usize, mask, 1usize);
        while mask != 0 {
            let low = mask & mask.wrapping_neg();
            if bits & low != 0 {
                out |= bit;
            }
            bit <<= 1;
            mask ^= low;
        }
        out
    }
}

const fn instance_symmetries() -> [u8; INSTANCE_COUNT] {
    let mut out = [0; INSTANCE_COUNT];
    let mut i = 0;
    while i < INSTANCE_COUNT {
        out[i] = INSTANCES[i].symmetry as u8;
        i += 1;
    }
    out
}

const fn instance_masks() -> [u64; INSTANCE_COUNT] {
    let mut out = [0; INSTANCE_COUNT];
    let mut i = 0;
    while i < INSTANCE_COUNT {
        out[i] = INSTANCES[i].mask;
        i += 1;
    }
    out
}

/// Each instance's symmetry and mask in flat tables: the loop below reads them as
/// constants.
const SYMMETRIES: [u8; INSTANCE_COUNT] = instance_symmetries();
const MASKS: [u64; INSTANCE_COUNT] = instance_masks();

/// Calls `visit(instance, contents)` for every instance, in [`INSTANCES`] order, computing
/// the contents from the discs alone. Inlined into its callers, so that an evaluation can
/// add up weights without storing the indices first.
#[inline(always)]
pub fn visit_indices(board: &Board8, mut visit: impl FnMut(usize, usize)) {
    let player = symmetry::all_bits(board.player);
    let opponent = symmetry::all_bits(board.opponent);
    for i in 0..INSTANCE_COUNT {
        let (k, mask) = (SYMMETRIES[i] as usize & 7, MASKS[i]);
        // Masks have at most MAX_SQUARES bits, so the extracted bits index TERNARY; the
        // explicit mask lets the compiler drop the bounds check.
        let own = extract(player[k], mask) & ((1 << MAX_SQUARES) - 1);
        let other = extract(opponent[k], mask) & ((1 << MAX_SQUARES) - 1);
        visit(i, TERNARY[own] as usize + 2 * TERNARY[other] as usize);
    }
}

/// Every instance's contents, computed from the discs alone.
#[inline]
pub fn indices(board: &Board8) -> Indices {
    let mut out = [0u16; INSTANCE_COUNT];
    visit_indices(board, |i, contents| out[i] = contents as u16);
    out
}

/// Every instance's contents, summed digit by digit: the definition [`indices`] and
/// [`IncrementalIndices`] must match.
pub fn indices_by_squares(board: &Board8) -> Indices {
    let mut out = [0u16; INSTANCE_COUNT];
    for (slot, instance) in out.iter_mut().zip(INSTANCES.iter()) {
        let mut value = 0;
        for digit in 0..instance.mask.count_ones() as usize {
            let square = digit_square(instance, digit);
            let cell = if board.player >> square & 1 != 0 {
                1
            } else if board.opponent >> square & 1 != 0 {
                2
            } else {
                0
            };
            value += cell * pow3(digit);
        }
        *slot = value as u16;
    }
    out
}

/// The side to move's indices after the other side played on `index`, flipping `flipped`,
/// from `waiter`: the indices before the move, seen from the side that did not move.
#[inline]
pub fn after_move(waiter: &Indices, index: usize, flipped: u64) -> Indices {
    let mut out = *waiter;
    let placed = &SQUARE_DIGITS[index];
    for &(instance, weight) in &placed.entries[..placed.count] {
        // Empty becomes the other side's (2).
        out[instance as usize] += 2 * weight;
    }
    for square in Bits(flipped) {
        let turned = &SQUARE_DIGITS[square];
        for &(instance, weight) in &turned.entries[..turned.count] {
            // Own (1) becomes the other side's (2).
            out[instance as usize] += weight;
        }
    }
    out
}

/// Most instances one square belongs to.
const MAX_PER_SQUARE: usize = 8;

/// The instance digits one square is: `(instance, 3^digit)`, `count` of them.
#[derive(Clone, Copy)]
struct SquareDigits {
    count: usize,
    entries: [(u8, u16); MAX_PER_SQUARE],
}

const fn make_square_digits() -> [SquareDigits; 64] {
    let mut table = [SquareDigits {
        count: 0,
        entries: [(0, 0); MAX_PER_SQUARE],
    }; 64];
    let mut i = 0;
    while i < INSTANCE_COUNT {
        let digits = INSTANCES[i].mask.count_ones() as usize;
        let mut digit = 0;
        while digit < digits {
            let square = digit_square(&INSTANCES[i], digit);
            let n = table[square].count;
            // Fails the build if a square is in more instances than the table holds.
            table[square].entries[n] = (i as u8, pow3(digit) as u16);
            table[square].count = n + 1;
            digit += 1;
        }
        i += 1;
    }
    table
}

static SQUARE_DIGITS: [SquareDigits; 64] = make_square_digits();

/// Indices kept up to date move by move: cheaper than recomputing when a search walks a
/// line of play. Holds both sides' points of view, since every move swaps them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct IncrementalIndices {
    mover: Indices,
    waiter: Indices,
}

impl IncrementalIndices {
    /// The indices of `board`.
    pub fn new(board: &Board8) -> IncrementalIndices {
        IncrementalIndices {
            mover: indices(board),
            waiter: indices(&Board8 {
                player: board.opponent,
                opponent: board.player,
            }),
        }
    }

    /// The side to move's indices.
    #[inline(always)]
    pub fn indices(&self) -> &Indices {
        &self.mover
    }

    /// Updates for the side to move playing on `index`, flipping `flipped`.
    #[inline]
    pub fn play(&mut self, index: usize, flipped: u64) {
        let placed = &SQUARE_DIGITS[index];
        for &(instance, weight) in &placed.entries[..placed.count] {
            // Empty becomes the mover's (1) from its view, the other side's (2) from the other.
            self.mover[instance as usize] += weight;
            self.waiter[instance as usize] += 2 * weight;
        }
        for square in Bits(flipped) {
            let turned = &SQUARE_DIGITS[square];
            for &(instance, weight) in &turned.entries[..turned.count] {
                self.mover[instance as usize] -= weight;
                self.waiter[instance as usize] += weight;
            }
        }
        self.pass();
    }

    /// Updates for the side to move passing.
    #[inline(always)]
    pub fn pass(&mut self) {
        std::mem::swap(&mut self.mover, &mut self.waiter);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Board;

    fn xorshift(state: &mut u64) -> u64 {
        *state ^= *state << 13;
        *state ^= *state >> 7;
        *state ^= *state << 17;
        *state
    }

    #[test]
    fn fast_and_incremental_indices_match_square_by_square_on_random_games() {
        let mut state = 0x2545_F491_4F6C_DD1Du64;
        for _ in 0..300 {
            let mut board = Board8::START;
            let mut incremental = IncrementalIndices::new(&board);
            loop {
                assert_eq!(indices(&board), indices_by_squares(&board));
                assert_eq!(incremental.indices(), &indices_by_squares(&board));
                assert_eq!(incremental, IncrementalIndices::new(&board));
                let moves = board.move_mask();
                if moves == 0 {
                    if board.pass().move_mask() == 0 {
                        break;
                    }
                    board = board.pass();
                    incremental.pass();
                    continue;
                }
                let pick = (xorshift(&mut state) % moves.count_ones() as u64) as usize;
                let index = Bits(moves).nth(pick).unwrap_or(0);
                let flipped = board.flips(index);
                let waiter = indices(&board.pass());
                board = board.after(index, flipped);
                incremental.play(index, flipped);
                assert_eq!(after_move(&waiter, index, flipped), indices(&board));
            }
        }
    }

    #[test]
    fn a_lone_corner_disc_sets_digit_zero_of_its_corner_instances() {
        let board = Board8 {
            player: 1,
            opponent: 0,
        };
        let idx = indices(&board);
        // The a1 corner 3x3 (identity view) reads a1 as its lowest digit.
        assert_eq!(idx[0], 1);
        // The h1 corner 3x3 does not see a1.
        assert_eq!(idx[1], 0);
    }
}
