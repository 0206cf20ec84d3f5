//! Pattern indices of a position: each instance's ternary contents, from the side to move's
//! point of view. Computed from scratch with bit extraction, or kept up to date move by move.

use super::shapes::{digit_square, pow3, INSTANCES, INSTANCE_COUNT, MAX_SQUARES};
use super::symmetry;
use crate::board::bitboard::{gather, Bits};
use crate::board::Board8;

/// The contents of every instance, in `INSTANCES` order.
pub type Indices = [u16; INSTANCE_COUNT];

/// The views of the board instances are read from: the board itself, and the board
/// transposed along the a1-h8 diagonal (columns become rows).
const VIEWS: [usize; 2] = [0, 4];

/// Where an instance lies in its view, which decides how its digits are extracted.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Half {
    /// In rows 1-4: one extraction from a word holding both sides' low halves.
    Low,
    /// In rows 5-8: the same from a word of both sides' high halves.
    High,
    /// Across both halves: one extraction per side.
    Both,
}

/// How one instance's contents are read.
#[derive(Clone, Copy)]
struct Reading {
    /// Index into [`VIEWS`].
    view: usize,
    /// Squares of the instance.
    squares: u32,
    half: Half,
    /// The extraction mask: the instance's squares in the view; for a packed reading, those
    /// of the side to move in the low 32 bits and the other side's in the high 32.
    mask: u64,
    /// Index into [`DIGIT_ORDERS`]: the order in which extraction finds the digits.
    order: usize,
}

/// A digit order: `order[j]` is the digit of the `j`-th extracted bit. Past an instance's
/// digits, an order goes on as the plain one, so that equal orders compare equal whatever
/// their length.
type Order = [u8; MAX_SQUARES];

/// The order in which extracting instance `i`'s squares from view `v` finds its digits.
const fn digit_order(i: usize, view: usize) -> Order {
    let instance = &INSTANCES[i];
    let digits = instance.mask.count_ones() as usize;
    let mut mask = view_mask(i, view);
    let mut order = [0u8; MAX_SQUARES];
    let mut j = 0;
    while j < MAX_SQUARES {
        order[j] = j as u8;
        j += 1;
    }
    j = 0;
    while mask != 0 {
        let square = mask.trailing_zeros() as usize;
        let mut d = 0;
        while d < digits {
            if symmetry::square(VIEWS[view], digit_square(instance, d)) == square {
                order[j] = d as u8;
            }
            d += 1;
        }
        mask &= mask - 1;
        j += 1;
    }
    order
}

/// Instance `i`'s squares in view `v`.
const fn view_mask(i: usize, view: usize) -> u64 {
    let instance = &INSTANCES[i];
    let mut mask = 0u64;
    let mut d = 0;
    while d < instance.mask.count_ones() as usize {
        mask |= 1 << symmetry::square(VIEWS[view], digit_square(instance, d));
        d += 1;
    }
    mask
}

const fn same_order(a: &Order, b: &Order) -> bool {
    let mut j = 0;
    while j < MAX_SQUARES {
        if a[j] != b[j] {
            return false;
        }
        j += 1;
    }
    true
}

/// Each instance's reading, and the distinct digit orders they need (the first is the
/// plain order, which most instances read in).
const fn make_readings() -> (
    [Reading; INSTANCE_COUNT],
    [Order; INSTANCE_COUNT + 1],
    usize,
) {
    let mut readings = [Reading {
        view: 0,
        squares: 0,
        half: Half::Both,
        mask: 0,
        order: 0,
    }; INSTANCE_COUNT];
    let mut orders = [[0u8; MAX_SQUARES]; INSTANCE_COUNT + 1];
    let mut j = 0;
    while j < MAX_SQUARES {
        orders[0][j] = j as u8;
        j += 1;
    }
    let mut order_count = 1;
    let mut i = 0;
    while i < INSTANCE_COUNT {
        // The first view where the instance fits in one half, else the board itself.
        let mut view = 0;
        let mut half = Half::Both;
        let mut v = VIEWS.len();
        while v > 0 {
            v -= 1;
            let mask = view_mask(i, v);
            if mask >> 32 == 0 {
                (view, half) = (v, Half::Low);
            } else if mask << 32 == 0 {
                (view, half) = (v, Half::High);
            }
        }
        let mask = view_mask(i, view);
        let order = digit_order(i, view);
        let mut o = 0;
        while o < order_count && !same_order(&orders[o], &order) {
            o += 1;
        }
        if o == order_count {
            orders[o] = order;
            order_count += 1;
        }
        readings[i] = Reading {
            view,
            squares: mask.count_ones(),
            half,
            mask: match half {
                Half::Low => mask | mask << 32,
                Half::High => mask >> 32 | mask,
                Half::Both => mask,
            },
            order: o,
        };
        i += 1;
    }
    (readings, orders, order_count)
}

const READINGS_AND_ORDERS: (
    [Reading; INSTANCE_COUNT],
    [Order; INSTANCE_COUNT + 1],
    usize,
) = make_readings();

/// Each instance's reading: with the instance a constant, so is its reading.
const READINGS: [Reading; INSTANCE_COUNT] = READINGS_AND_ORDERS.0;

/// Number of distinct digit orders.
const ORDER_COUNT: usize = READINGS_AND_ORDERS.2;

const fn make_ternary() -> [[u16; 1 << MAX_SQUARES]; ORDER_COUNT] {
    let orders = READINGS_AND_ORDERS.1;
    let mut tables = [[0u16; 1 << MAX_SQUARES]; ORDER_COUNT];
    let mut o = 0;
    while o < ORDER_COUNT {
        let mut bits = 0;
        while bits < 1 << MAX_SQUARES {
            let mut value = 0;
            let mut j = 0;
            while j < MAX_SQUARES {
                if bits >> j & 1 != 0 {
                    value += pow3(orders[o][j] as usize);
                }
                j += 1;
            }
            tables[o][bits] = value as u16;
            bits += 1;
        }
        o += 1;
    }
    tables
}

/// For each digit order, extracted bits read as ternary digits in that order: the value of
/// the digits that are set. Only the first `2^squares` entries of a table are ever read.
static TERNARY: [[u16; 1 << MAX_SQUARES]; ORDER_COUNT] = make_ternary();

/// Instance `I`'s contents; with `I` a constant, its reading is one too and the branches
/// disappear.
#[inline(always)]
fn read<const I: usize>(boards: &[(u64, u64); 2], packed: &[[u64; 2]; 2]) -> u16 {
    let reading = const { READINGS[I] };
    let (player, opponent) = boards[reading.view];
    let (own, other) = match reading.half {
        Half::Low | Half::High => {
            let word = packed[reading.view][(reading.half == Half::High) as usize];
            let both = gather(word, reading.mask) as usize;
            (both, both >> reading.squares)
        }
        Half::Both => (
            gather(player, reading.mask) as usize,
            gather(opponent, reading.mask) as usize,
        ),
    };
    // At most `squares` digits each: the explicit masks let the compiler drop the bounds
    // checks.
    let digits = (1 << reading.squares) - 1;
    let table = &TERNARY[reading.order];
    (table[own & digits] as usize + 2 * table[other & digits] as usize) as u16
}

/// Every instance's contents, computed from the discs alone.
///
/// Extraction (`pext`) is the bottleneck, so each instance is read from a view of the
/// board (itself or transposed) where it lies in one half when there is one: the
/// half's bits of both sides side by side in one word give both sides' digits in one
/// extraction. The digits come out in the order the view's squares come in; a table per
/// order turns them into the instance's contents.
#[inline]
pub fn indices(board: &Board8) -> Indices {
    let boards = [
        (board.player, board.opponent),
        (
            symmetry::bits(VIEWS[1], board.player),
            symmetry::bits(VIEWS[1], board.opponent),
        ),
    ];
    const LOW: u64 = 0xFFFF_FFFF;
    let packed = boards.map(|(player, opponent)| {
        [
            player & LOW | opponent << 32,
            player >> 32 | opponent & !LOW,
        ]
    });
    // One call per instance with a constant index (the list must name every instance).
    const { assert!(INSTANCE_COUNT == 54) };
    macro_rules! read_all {
        ($($i:literal)*) => { [$(read::<$i>(&boards, &packed)),*] };
    }
    read_all!(
        0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 24 25 26 27 28 29 30
        31 32 33 34 35 36 37 38 39 40 41 42 43 44 45 46 47 48 49 50 51 52 53
    )
}

/// Every instance's contents, summed digit by digit: the definition [`indices`] and
/// [`IncrementalIndices`] must match.
#[cfg(test)]
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
pub(crate) fn after_move(waiter: &Indices, index: usize, flipped: u64) -> Indices {
    // Empty becomes the other side's (2), own (1) the other side's (2).
    let placed = &SQUARE_WEIGHTS[index].0;
    let turned = turned_weights(flipped);
    // Built from `waiter` as read, not a copy of it changed in place: the copy's pieces were
    // read back in pieces of other sizes, which the processor cannot forward from its
    // pending stores (the cost measured: docs/experiments.md).
    std::array::from_fn(|i| {
        waiter[i].wrapping_add(placed[i].wrapping_mul(2).wrapping_add(turned[i]))
    })
}

/// Instance slots of a vector of digit weights: the instances, padded to whole 256-bit
/// vectors.
const LANES: usize = INSTANCE_COUNT.div_ceil(16) * 16;

/// One square's place in every instance: `3^digit` in the slot of each instance the square
/// is digit `digit` of, 0 elsewhere. A move's change to all the instances is then a few
/// whole-vector additions, where a list of the instances of each square took a loop with
/// a branch per entry.
#[derive(Clone, Copy)]
#[repr(align(32))]
struct SquareWeights([u16; LANES]);

const fn make_square_weights() -> [SquareWeights; 64] {
    let mut table = [SquareWeights([0; LANES]); 64];
    let mut i = 0;
    while i < INSTANCE_COUNT {
        let digits = INSTANCES[i].mask.count_ones() as usize;
        let mut digit = 0;
        while digit < digits {
            let square = digit_square(&INSTANCES[i], digit);
            table[square].0[i] = pow3(digit) as u16;
            digit += 1;
        }
        i += 1;
    }
    table
}

static SQUARE_WEIGHTS: [SquareWeights; 64] = make_square_weights();

/// The weights of the `flipped` squares, summed slot by slot.
#[inline(always)]
fn turned_weights(flipped: u64) -> [u16; LANES] {
    let mut sum = [0u16; LANES];
    for square in Bits(flipped) {
        for (slot, &weight) in sum.iter_mut().zip(&SQUARE_WEIGHTS[square].0) {
            *slot = slot.wrapping_add(weight);
        }
    }
    sum
}

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

    /// The indices of the side not to move.
    #[inline(always)]
    pub(crate) fn waiter(&self) -> &Indices {
        &self.waiter
    }

    /// Updates for the side to move playing on `index`, flipping `flipped`.
    #[inline]
    pub fn play(&mut self, index: usize, flipped: u64) {
        // Empty becomes the mover's (1) from its view, the other side's (2) from the other;
        // a flipped disc the mover's (1 from 2) and the other side's (2 from 1).
        let placed = &SQUARE_WEIGHTS[index].0;
        let turned = turned_weights(flipped);
        for (i, (&placed, &turned)) in placed.iter().zip(&turned).enumerate().take(INSTANCE_COUNT) {
            self.mover[i] = self.mover[i].wrapping_add(placed).wrapping_sub(turned);
            self.waiter[i] =
                self.waiter[i].wrapping_add(placed.wrapping_mul(2).wrapping_add(turned));
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
    use crate::rng::Rng;

    #[test]
    fn fast_and_incremental_indices_match_square_by_square_on_random_games() {
        let mut rng = Rng::new(0x2545_F491_4F6C_DD1Du64);
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
                let pick = (rng.next_u64() % moves.count_ones() as u64) as usize;
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
    fn instances_read_from_two_views_in_few_digit_orders() {
        // Only the diagonals longer than 4 cross both halves of every view.
        let split = READINGS.iter().filter(|r| r.half == Half::Both).count();
        assert_eq!(split, 14);
        assert_eq!(ORDER_COUNT, 15);
        // Every order is a permutation of its instance's digits.
        for (i, reading) in READINGS.iter().enumerate() {
            let n = INSTANCES[i].mask.count_ones() as usize;
            let mut order = READINGS_AND_ORDERS.1[reading.order][..n].to_vec();
            order.sort_unstable();
            assert_eq!(order, (0..n as u8).collect::<Vec<_>>(), "instance {i}");
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
