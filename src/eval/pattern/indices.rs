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

/// How one instance's contents are read from its symmetric view of the board.
#[derive(Clone, Copy)]
struct Reading {
    /// The symmetry of the view.
    symmetry: u8,
    /// Squares of the instance (in the view).
    squares: u8,
    /// Whether the instance lies in the view's low half (rows 1-4): then one extraction
    /// from a word holding both sides' low halves reads it (see [`indices`]).
    packed: bool,
    /// The extraction mask: the shape's squares, repeated in the high half when packed.
    mask: u64,
}

const fn make_readings() -> [Reading; INSTANCE_COUNT] {
    let mut out = [Reading {
        symmetry: 0,
        squares: 0,
        packed: false,
        mask: 0,
    }; INSTANCE_COUNT];
    let mut i = 0;
    while i < INSTANCE_COUNT {
        let mask = INSTANCES[i].mask;
        let packed = mask >> 32 == 0;
        out[i] = Reading {
            symmetry: INSTANCES[i].symmetry as u8,
            squares: mask.count_ones() as u8,
            packed,
            mask: if packed { mask | mask << 32 } else { mask },
        };
        i += 1;
    }
    out
}

/// Each instance's reading in a flat table: the unrolled loop below reads it as constants.
const READINGS: [Reading; INSTANCE_COUNT] = make_readings();

/// Instance `I`'s contents from the views of the board (see [`indices`]); with `I` a
/// constant, its reading is one too and the branch disappears.
#[inline(always)]
fn read<const I: usize>(player: &[u64; 8], opponent: &[u64; 8], packed: &[u64; 8]) -> u16 {
    const { assert!(I < INSTANCE_COUNT) };
    let reading = const { READINGS[I] };
    let k = reading.symmetry as usize;
    let (own, other) = if reading.packed {
        let both = extract(packed[k], reading.mask);
        (both, both >> reading.squares)
    } else {
        (
            extract(player[k], reading.mask),
            extract(opponent[k], reading.mask),
        )
    };
    // Both have at most `squares` digits, so they index TERNARY; the explicit masks let
    // the compiler drop the bounds checks.
    let digits = (1 << reading.squares) - 1;
    (TERNARY[own & digits] as usize + 2 * TERNARY[other & digits] as usize) as u16
}

/// Every instance's contents, computed from the discs alone.
///
/// Extraction (`pext`) is the bottleneck: one per side and instance. Most shapes lie in
/// rows 1-4 of their view, so the view's low half of the side to move's discs and of the
/// other side's, side by side in one word, give both sides' digits in one extraction.
#[inline]
pub fn indices(board: &Board8) -> Indices {
    let player = symmetry::all_bits(board.player);
    let opponent = symmetry::all_bits(board.opponent);
    let mut packed = [0u64; symmetry::COUNT];
    for k in 0..symmetry::COUNT {
        packed[k] = player[k] & 0xFFFF_FFFF | opponent[k] << 32;
    }
    // One call per instance with a constant index (the list must name every instance).
    const { assert!(INSTANCE_COUNT == 46) };
    macro_rules! read_all {
        ($($i:literal)*) => { [$(read::<$i>(&player, &opponent, &packed)),*] };
    }
    read_all!(
        0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 24 25 26 27 28 29 30
        31 32 33 34 35 36 37 38 39 40 41 42 43 44 45
    )
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
