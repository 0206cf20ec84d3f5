//! Move generation written once for bitboards of every size: a [`Geometry`] says how big
//! the board is, how its squares lie in the bits of a [`BitSet`], and the kernels here find
//! legal moves and flips by shifts and masks on it.
//!
//! Rows lie one after another, `stride` bits apart: square (row, column) is bit
//! `row * stride + column`, so a shift by 1 steps along a row and a shift by the stride
//! steps along a column. A dense layout (stride = side) cuts runs that would wrap from
//! one row's end to the next row's start by leaving the edge columns out of the opponent's
//! discs they may run through; a layout with spare bits after each row (stride > side)
//! needs no such mask, since a run that leaves the row lands on a spare bit, never set.
//! Kernels work on bit positions; the [`Board`](super::Board) trait speaks of row-major
//! square indices, which [`Geometry::bit`] and [`Geometry::index`] translate.

use std::fmt::Debug;
use std::hash::Hash;

use super::bitset::BitSet;
use super::{BitboardRef, GridBoard};

/// Most bits a layout uses (12x12 with 16 bits a row).
pub(crate) const MAX_BITS: usize = 192;

/// The shape of one board size: its side, the bit set that holds its squares and how they
/// lie in it. Sizes may replace the generic kernels with faster ones of their own.
pub trait Geometry: Copy + Eq + Hash + Debug + Default + Send + Sync + 'static {
    /// The bit set holding one side's discs.
    type Bits: BitSet;
    /// Squares per side.
    const SIZE: usize;
    /// Bits from one row's start to the next's: the side, or more with spare bits.
    const STRIDE: usize;
    /// Seed of the position hash, distinct per size so that equal bit patterns on
    /// different boards do not share transposition-table entries.
    const HASH_SEED: u64;

    /// `board` as the [`BitboardRef`] variant of this size (see
    /// [`super::Board::as_bitboard`]).
    fn bitboard_ref(board: &GridBoard<Self>) -> BitboardRef<'_>;

    /// The bit of the square with row-major `index`.
    #[inline(always)]
    fn bit(index: usize) -> usize {
        if Self::STRIDE == Self::SIZE {
            index
        } else {
            index / Self::SIZE * Self::STRIDE + index % Self::SIZE
        }
    }

    /// The row-major index of the square on `bit`.
    #[inline(always)]
    fn index(bit: usize) -> usize {
        if Self::STRIDE == Self::SIZE {
            bit
        } else {
            bit / Self::STRIDE * Self::SIZE + bit % Self::STRIDE
        }
    }

    /// Squares where `player` may move against `opponent`.
    #[inline(always)]
    fn legal_moves(player: Self::Bits, opponent: Self::Bits) -> Self::Bits {
        legal_moves::<Self>(player, opponent)
    }

    /// Discs of `opponent` flipped when `player` moves on `bit` (empty if none).
    #[inline(always)]
    fn flips(player: Self::Bits, opponent: Self::Bits, bit: usize) -> Self::Bits {
        flips::<Self>(player, opponent, bit)
    }
}

/// How a board's squares lie in its bits, for the tables built at compile time.
#[derive(Clone, Copy)]
pub(crate) struct Layout {
    /// Squares per side.
    pub(crate) size: usize,
    /// Bits from one row's start to the next's.
    pub(crate) stride: usize,
}

impl Layout {
    /// The layout of `G`.
    pub(crate) const fn of<G: Geometry>() -> Layout {
        Layout {
            size: G::SIZE,
            stride: G::STRIDE,
        }
    }

    /// The bit of (`row`, `col`).
    pub(crate) const fn bit(self, row: usize, col: usize) -> usize {
        row * self.stride + col
    }

    /// The squares with `first_row <= row <= last_row` and `first_col <= col <= last_col`,
    /// as words.
    pub(crate) const fn rectangle(
        self,
        first_row: usize,
        last_row: usize,
        first_col: usize,
        last_col: usize,
    ) -> [u64; 3] {
        let mut words = [0u64; 3];
        let mut row = first_row;
        while row <= last_row && row < self.size {
            let mut col = first_col;
            while col <= last_col && col < self.size {
                let i = self.bit(row, col);
                words[i / 64] |= 1 << (i % 64);
                col += 1;
            }
            row += 1;
        }
        words
    }

    /// Every square, as words.
    pub(crate) const fn board(self) -> [u64; 3] {
        self.rectangle(0, self.size - 1, 0, self.size - 1)
    }

    /// The squares of columns `first..=last`, as words.
    pub(crate) const fn columns(self, first: usize, last: usize) -> [u64; 3] {
        self.rectangle(0, self.size - 1, first, last)
    }

    /// The squares a run may pass through when it moves along rows: every square but the
    /// first and last columns in a dense layout, every square with spare bits.
    pub(crate) const fn run_columns(self) -> [u64; 3] {
        if self.stride == self.size {
            self.columns(1, self.size - 2)
        } else {
            self.board()
        }
    }
}

/// The squares of `G`'s board.
#[inline(always)]
pub(crate) fn board<G: Geometry>() -> G::Bits {
    G::Bits::from_words(const { Layout::of::<G>().board() })
}

/// The opponent's discs a run along a row (or diagonal) may pass through.
#[inline(always)]
pub(crate) fn run_columns<G: Geometry>() -> G::Bits {
    G::Bits::from_words(const { Layout::of::<G>().run_columns() })
}

/// The line directions towards higher bits as (column step, row step): east, south-west,
/// south, south-east (rows grow downwards, from row 1). The directions towards lower bits
/// are their opposites.
const UP: [(i32, i32); 4] = [(1, 0), (-1, 1), (0, 1), (1, 1)];

/// Every bit's eight rays as words: the squares from it (excluded) to the board's edge in
/// each direction, first the four of [`UP`], then their opposites. Spare bits have none.
pub(crate) type RayTable = [[[u64; 3]; 8]; MAX_BITS];

/// The ray table of `layout`.
pub(crate) const fn ray_table(layout: Layout) -> RayTable {
    let size = layout.size as i32;
    let mut table = [[[0u64; 3]; 8]; MAX_BITS];
    let mut square = 0;
    while square < layout.size * layout.size {
        let bit = layout.bit(square / layout.size, square % layout.size);
        let mut dir = 0;
        while dir < 8 {
            let (mut dc, mut dr) = UP[dir % 4];
            if dir >= 4 {
                (dc, dr) = (-dc, -dr);
            }
            let mut col = (square % layout.size) as i32 + dc;
            let mut row = (square / layout.size) as i32 + dr;
            while col >= 0 && col < size && row >= 0 && row < size {
                let i = layout.bit(row as usize, col as usize);
                table[bit][dir][i / 64] |= 1 << (i % 64);
                col += dc;
                row += dr;
            }
            dir += 1;
        }
        square += 1;
    }
    table
}

/// Opponent runs in both senses of one line direction, `shift` bits per step, closed by a
/// disc of `player`; returns the squares just beyond those runs. `mask` is the opponent's
/// discs the runs may pass through.
#[inline(always)]
fn moves_along<G: Geometry>(player: G::Bits, mask: G::Bits, shift: u32) -> G::Bits {
    // Grow the runs one square, then a second, then two at a time up to the longest run the
    // board holds (its side less two).
    let mut forward = mask & player.shl(shift);
    let mut backward = mask & player.shr(shift);
    forward |= mask & forward.shl(shift);
    backward |= mask & backward.shr(shift);
    let pairs_forward = mask & mask.shl(shift);
    let pairs_backward = pairs_forward.shr(shift);
    let mut reach = 2;
    while reach < G::SIZE - 2 {
        forward |= pairs_forward & forward.shl(2 * shift);
        backward |= pairs_backward & backward.shr(2 * shift);
        reach += 2;
    }
    forward.shl(shift) | backward.shr(shift)
}

/// Squares where `player` may move against `opponent` on `G`'s board, by shifts.
#[inline(always)]
pub(crate) fn legal_moves<G: Geometry>(player: G::Bits, opponent: G::Bits) -> G::Bits {
    let stride = G::STRIDE as u32;
    let inner = opponent & run_columns::<G>();
    let moves = moves_along::<G>(player, inner, 1)
        | moves_along::<G>(player, opponent, stride)
        | moves_along::<G>(player, inner, stride - 1)
        | moves_along::<G>(player, inner, stride + 1);
    moves & !(player | opponent) & board::<G>()
}

/// Discs of `opponent` flipped when `player` moves on `bit` of `G`'s board, ray by ray:
/// along each ray the nearest square that is no opponent disc must hold a player's disc.
#[inline(always)]
pub(crate) fn flips<G: Geometry>(player: G::Bits, opponent: G::Bits, bit: usize) -> G::Bits {
    let table: &RayTable = const { &ray_table(Layout::of::<G>()) };
    let rays = &table[bit];
    let mut flipped = G::Bits::EMPTY;
    for dir in 0..4 {
        // Towards higher bits the nearest stopper is the lowest bit.
        let ray = G::Bits::from_words(rays[dir]);
        let first = (ray & !opponent).lowest_bit();
        let run = ray & first.wrapping_sub(G::Bits::one());
        flipped |= run.keep_if(!(first & player).is_empty());
        // Towards lower bits it is the highest; the run lies above it.
        let ray = G::Bits::from_words(rays[dir + 4]);
        let last = (ray & !opponent).highest_bit();
        let run = ray & G::Bits::EMPTY.wrapping_sub(last).shl(1);
        flipped |= run.keep_if(!(last & player).is_empty());
    }
    flipped
}

/// The four lines through one square (row, column, diagonal, anti-diagonal), each as
/// its squares' words, how many of its squares lie in the words before each word, and the
/// square's rank among them.
#[derive(Clone, Copy)]
pub(crate) struct LinesThrough {
    masks: [[u64; 3]; 4],
    before: [[u8; 3]; 4],
    rank: [u8; 4],
}

/// Every bit's [`LinesThrough`] in `layout`.
pub(crate) const fn line_table(layout: Layout) -> [LinesThrough; MAX_BITS] {
    let empty = LinesThrough {
        masks: [[0; 3]; 4],
        before: [[0; 3]; 4],
        rank: [0; 4],
    };
    let size = layout.size as i32;
    let mut table = [empty; MAX_BITS];
    let directions = [(1i32, 0i32), (0, 1), (1, 1), (-1, 1)];
    let mut square = 0;
    while square < layout.size * layout.size {
        let bit = layout.bit(square / layout.size, square % layout.size);
        let mut line = 0;
        while line < 4 {
            let (dc, dr) = directions[line];
            // Walk back to the line's first square, then along it.
            let (mut col, mut row) = ((square % layout.size) as i32, (square / layout.size) as i32);
            while col - dc >= 0 && col - dc < size && row - dr >= 0 {
                col -= dc;
                row -= dr;
            }
            let mut count = 0u8;
            while col >= 0 && col < size && row < size {
                let i = layout.bit(row as usize, col as usize);
                if i == bit {
                    table[bit].rank[line] = count;
                }
                table[bit].masks[line][i / 64] |= 1 << (i % 64);
                count += 1;
                col += dc;
                row += dr;
            }
            let mut word = 1;
            while word < 3 {
                table[bit].before[line][word] = table[bit].before[line][word - 1]
                    + table[bit].masks[line][word - 1].count_ones() as u8;
                word += 1;
            }
            line += 1;
        }
        square += 1;
    }
    table
}

/// Discs flipped along one line held in the low bits of `player` and `opponent`, by a move
/// at bit `rank`: the opponent's runs on either side closed by a player's disc.
#[inline(always)]
pub(crate) fn line_flips(player: u32, opponent: u32, rank: u32) -> u32 {
    let at = 1u32 << rank;
    // Upwards: with the bits up to `rank` set, adding one carries through the opponent's
    // run above it to the first other square.
    let filled = opponent | (at << 1).wrapping_sub(1);
    let stop = filled.wrapping_add(1) & !filled;
    let up = (stop & player).saturating_sub(at << 1);
    // Downwards: the highest square below `rank` that is not the opponent's. (Bit 0 stands
    // in when there is none: it is then the opponent's, or the move's own square.)
    let others = !opponent & (at - 1);
    let stop = (1u32 << 31) >> (others | 1).leading_zeros();
    let outflank = stop & player;
    let down = at.wrapping_sub(outflank << 1) & 0u32.wrapping_sub((outflank != 0) as u32);
    up | down
}

/// [`flips`] line by line: each line through the square is gathered into a small integer,
/// flipped there and spread back (`pext`/`pdep` where the processor has them). Where rows
/// never straddle two words (the stride divides 64) the row is taken by a shift.
#[inline(always)]
pub(crate) fn flips_by_lines<G: Geometry>(
    player: G::Bits,
    opponent: G::Bits,
    bit: usize,
) -> G::Bits {
    use super::bitboard::{gather, scatter};
    let table: &[LinesThrough; MAX_BITS] = const { &line_table(Layout::of::<G>()) };
    let lines = &table[bit];
    let words = (G::Bits::BITS / 64) as usize;
    let (p, o) = (player.words(), opponent.words());
    let mut flipped = [0u64; 3];
    let whole_rows = 64 % G::STRIDE == 0;
    if whole_rows {
        let (word, start) = (bit / 64 % 3, (bit % 64 / G::STRIDE * G::STRIDE) as u32);
        let row = |x: u64| (x >> start) as u32 & ((1 << G::SIZE) - 1);
        let rank = (bit % G::STRIDE) as u32;
        flipped[word] = (line_flips(row(p[word]), row(o[word]), rank) as u64) << start;
    }
    for line in whole_rows as usize..4 {
        let masks = &lines.masks[line];
        let before = &lines.before[line];
        let (mut pl, mut ol) = (0u64, 0u64);
        for w in 0..words {
            pl |= gather(p[w], masks[w]) << before[w];
            ol |= gather(o[w], masks[w]) << before[w];
        }
        let f = line_flips(pl as u32, ol as u32, lines.rank[line] as u32) as u64;
        for w in 0..words {
            flipped[w] |= scatter(f >> before[w], masks[w]);
        }
    }
    G::Bits::from_words(flipped)
}

/// Squares orthogonally or diagonally next to any square of `set` on `G`'s board.
#[inline(always)]
pub(crate) fn neighbours<G: Geometry>(set: G::Bits) -> G::Bits {
    let stride = G::STRIDE as u32;
    let not_first = G::Bits::from_words(const { Layout::of::<G>().columns(1, G::SIZE - 1) });
    let not_last = G::Bits::from_words(const { Layout::of::<G>().columns(0, G::SIZE - 2) });
    let horizontal = (set.shl(1) & not_first) | (set.shr(1) & not_last);
    let row = set | horizontal;
    (horizontal | row.shl(stride) | row.shr(stride)) & board::<G>()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rays_run_to_the_edge() {
        let six = Layout { size: 6, stride: 6 };
        let table = ray_table(six);
        // From a1 east: b1 to f1; from f6 (35) north-west: e5 to a1.
        assert_eq!(table[0][0][0], 0b111110);
        let diagonal: u64 = [0usize, 7, 14, 21, 28].iter().map(|i| 1u64 << i).sum();
        assert_eq!(table[35][7][0], diagonal);
        let twelve = Layout {
            size: 12,
            stride: 16,
        };
        assert_eq!(
            twelve.board(),
            [
                0x0FFF_0FFF_0FFF_0FFF,
                0x0FFF_0FFF_0FFF_0FFF,
                0x0FFF_0FFF_0FFF_0FFF
            ]
        );
        assert_eq!(
            Layout {
                size: 10,
                stride: 10
            }
            .board()[1],
            (1 << 36) - 1
        );
        // From l1 (bit 11) south: l2 to l12, one bit in every 16.
        let column: u64 = (0..4).map(|r| 1u64 << (16 * r + 11)).sum();
        assert_eq!(
            ray_table(twelve)[11][2],
            [column - (1 << 11), column, column]
        );
    }
}
