//! Bit sets wide enough for one board: `u64` (up to 8x8), `u128` (10x10) and [`U192`]
//! (12x12), behind one trait so that move generation is written once for every size. Bit
//! `i` is square `i` in row-major order.

use std::fmt::Debug;
use std::hash::Hash;
use std::ops::{BitAnd, BitAndAssign, BitOr, BitOrAssign, BitXor, BitXorAssign, Not};

/// A fixed-width set of squares with the operations bitboard code needs. Shifts move every
/// square by the same number of bits, bits pushed past either end being lost.
pub trait BitSet:
    Copy
    + Eq
    + Hash
    + Debug
    + Default
    + Send
    + Sync
    + 'static
    + BitAnd<Output = Self>
    + BitOr<Output = Self>
    + BitXor<Output = Self>
    + Not<Output = Self>
    + BitAndAssign
    + BitOrAssign
    + BitXorAssign
{
    /// The empty set.
    const EMPTY: Self;
    /// Bits in the set's representation.
    const BITS: u32;

    /// The set holding bit `index` only.
    fn bit(index: usize) -> Self;
    /// Every bit towards higher indices by `n` (less than 64).
    fn shl(self, n: u32) -> Self;
    /// Every bit towards lower indices by `n` (less than 64).
    fn shr(self, n: u32) -> Self;
    /// Number of bits set.
    fn count(self) -> u32;
    /// Whether no bit is set.
    fn is_empty(self) -> bool;
    /// Whether bit `index` is set.
    fn contains(self, index: usize) -> bool;
    /// Index of the lowest set bit (undefined on the empty set).
    fn lowest(self) -> usize;
    /// The set without its lowest bit.
    fn without_lowest(self) -> Self;
    /// The lowest set bit alone, or the empty set.
    fn lowest_bit(self) -> Self;
    /// The highest set bit alone, or the empty set.
    fn highest_bit(self) -> Self;
    /// `self + other` as one wide integer, wrapping.
    fn wrapping_add(self, other: Self) -> Self;
    /// `self - other` as one wide integer, wrapping.
    fn wrapping_sub(self, other: Self) -> Self;
    /// The words of the set, lowest first, padded with zeros to three.
    fn words(self) -> [u64; 3];
    /// The set from its words, lowest first (bits beyond the width are dropped).
    fn from_words(words: [u64; 3]) -> Self;

    /// `self` when `condition` holds, else the empty set (without a branch where possible).
    #[inline(always)]
    fn keep_if(self, condition: bool) -> Self {
        let mask = Self::from_words([(condition as u64).wrapping_neg(); 3]);
        self & mask
    }

    /// The lowest bit: `1`.
    #[inline(always)]
    fn one() -> Self {
        Self::bit(0)
    }

    /// Iterator over the indices of the set bits, lowest first.
    #[inline(always)]
    fn iter(self) -> SetBits<Self> {
        SetBits(self)
    }
}

/// Iterator over the set bits of a [`BitSet`], lowest first.
#[derive(Clone, Copy, Debug)]
pub struct SetBits<B>(pub B);

impl<B: BitSet> Iterator for SetBits<B> {
    type Item = usize;

    #[inline(always)]
    fn next(&mut self) -> Option<usize> {
        if self.0.is_empty() {
            return None;
        }
        let index = self.0.lowest();
        self.0 = self.0.without_lowest();
        Some(index)
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = self.0.count() as usize;
        (n, Some(n))
    }
}

impl<B: BitSet> ExactSizeIterator for SetBits<B> {}

/// Implements [`BitSet`] for a primitive unsigned integer.
macro_rules! primitive_bit_set {
    ($t:ty) => {
        impl BitSet for $t {
            const EMPTY: $t = 0;
            const BITS: u32 = <$t>::BITS;

            #[inline(always)]
            fn bit(index: usize) -> $t {
                1 << index
            }
            #[inline(always)]
            fn shl(self, n: u32) -> $t {
                self << n
            }
            #[inline(always)]
            fn shr(self, n: u32) -> $t {
                self >> n
            }
            #[inline(always)]
            fn count(self) -> u32 {
                self.count_ones()
            }
            #[inline(always)]
            fn is_empty(self) -> bool {
                self == 0
            }
            #[inline(always)]
            fn contains(self, index: usize) -> bool {
                self >> index & 1 != 0
            }
            #[inline(always)]
            fn lowest(self) -> usize {
                self.trailing_zeros() as usize
            }
            #[inline(always)]
            fn without_lowest(self) -> $t {
                self & self.wrapping_sub(1)
            }
            #[inline(always)]
            fn lowest_bit(self) -> $t {
                self & self.wrapping_neg()
            }
            #[inline(always)]
            fn highest_bit(self) -> $t {
                // `| 1` keeps the shift in range; the empty set gives bit 0, cleared below.
                let top: $t = 1 << (<$t>::BITS - 1);
                (top >> (self | 1).leading_zeros()) & self
            }
            #[inline(always)]
            fn wrapping_add(self, other: $t) -> $t {
                <$t>::wrapping_add(self, other)
            }
            #[inline(always)]
            fn wrapping_sub(self, other: $t) -> $t {
                <$t>::wrapping_sub(self, other)
            }
            #[inline(always)]
            fn words(self) -> [u64; 3] {
                let wide = self as u128;
                [wide as u64, (wide >> 64) as u64, 0]
            }
            #[inline(always)]
            fn from_words(words: [u64; 3]) -> $t {
                (words[0] as u128 | (words[1] as u128) << 64) as $t
            }
        }
    };
}

primitive_bit_set!(u64);
primitive_bit_set!(u128);

/// A 192-bit set in three words, lowest first: room for 12x12's 144 squares.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Default)]
pub struct U192(pub [u64; 3]);

impl U192 {
    /// The set from its three words, lowest first.
    pub const fn new(words: [u64; 3]) -> U192 {
        U192(words)
    }
}

macro_rules! word_wise {
    ($trait:ident, $method:ident, $assign:ident, $assign_method:ident, $op:tt) => {
        impl $trait for U192 {
            type Output = U192;
            #[inline(always)]
            fn $method(self, rhs: U192) -> U192 {
                let (a, b) = (self.0, rhs.0);
                U192([a[0] $op b[0], a[1] $op b[1], a[2] $op b[2]])
            }
        }
        impl $assign for U192 {
            #[inline(always)]
            fn $assign_method(&mut self, rhs: U192) {
                *self = *self $op rhs;
            }
        }
    };
}

word_wise!(BitAnd, bitand, BitAndAssign, bitand_assign, &);
word_wise!(BitOr, bitor, BitOrAssign, bitor_assign, |);
word_wise!(BitXor, bitxor, BitXorAssign, bitxor_assign, ^);

impl Not for U192 {
    type Output = U192;
    #[inline(always)]
    fn not(self) -> U192 {
        U192([!self.0[0], !self.0[1], !self.0[2]])
    }
}

impl BitSet for U192 {
    const EMPTY: U192 = U192([0; 3]);
    const BITS: u32 = 192;

    #[inline(always)]
    fn bit(index: usize) -> U192 {
        // Each word chosen by a mask rather than by an index into an array: a store at a
        // computed index followed by loads of the whole set stalls the processor.
        let (one, word) = (1u64 << (index & 63), index >> 6);
        let at = |w: usize| one & ((word == w) as u64).wrapping_neg();
        U192([at(0), at(1), at(2)])
    }
    #[inline(always)]
    fn shl(self, n: u32) -> U192 {
        debug_assert!(0 < n && n < 64);
        let w = self.0;
        U192([
            w[0] << n,
            w[1] << n | w[0] >> (64 - n),
            w[2] << n | w[1] >> (64 - n),
        ])
    }
    #[inline(always)]
    fn shr(self, n: u32) -> U192 {
        debug_assert!(0 < n && n < 64);
        let w = self.0;
        U192([
            w[0] >> n | w[1] << (64 - n),
            w[1] >> n | w[2] << (64 - n),
            w[2] >> n,
        ])
    }
    #[inline(always)]
    fn count(self) -> u32 {
        self.0[0].count_ones() + self.0[1].count_ones() + self.0[2].count_ones()
    }
    #[inline(always)]
    fn is_empty(self) -> bool {
        (self.0[0] | self.0[1] | self.0[2]) == 0
    }
    #[inline(always)]
    fn contains(self, index: usize) -> bool {
        self.0[(index >> 6).min(2)] >> (index & 63) & 1 != 0
    }
    #[inline(always)]
    fn lowest(self) -> usize {
        let w = self.0;
        if w[0] != 0 {
            w[0].trailing_zeros() as usize
        } else if w[1] != 0 {
            64 + w[1].trailing_zeros() as usize
        } else {
            128 + w[2].trailing_zeros() as usize
        }
    }
    #[inline(always)]
    fn without_lowest(self) -> U192 {
        self & self.wrapping_sub(U192::one())
    }
    #[inline(always)]
    fn lowest_bit(self) -> U192 {
        self & U192::EMPTY.wrapping_sub(self)
    }
    #[inline(always)]
    fn highest_bit(self) -> U192 {
        // Without branches: each word's top bit, kept only if no higher word has bits.
        let w = self.0;
        let top = |x: u64| (1u64 << 63 >> (x | 1).leading_zeros()) & x;
        let none_above_1 = 0u64.wrapping_sub((w[2] == 0) as u64);
        let none_above_0 = none_above_1 & 0u64.wrapping_sub((w[1] == 0) as u64);
        U192([
            top(w[0]) & none_above_0,
            top(w[1]) & none_above_1,
            top(w[2]),
        ])
    }
    #[inline(always)]
    fn wrapping_add(self, other: U192) -> U192 {
        let (a, b) = (self.0, other.0);
        let (w0, c0) = a[0].overflowing_add(b[0]);
        let (w1, c1a) = a[1].overflowing_add(b[1]);
        let (w1, c1b) = w1.overflowing_add(c0 as u64);
        let w2 = a[2].wrapping_add(b[2]).wrapping_add((c1a | c1b) as u64);
        U192([w0, w1, w2])
    }
    #[inline(always)]
    fn wrapping_sub(self, other: U192) -> U192 {
        let (a, b) = (self.0, other.0);
        let (w0, c0) = a[0].overflowing_sub(b[0]);
        let (w1, c1a) = a[1].overflowing_sub(b[1]);
        let (w1, c1b) = w1.overflowing_sub(c0 as u64);
        let w2 = a[2].wrapping_sub(b[2]).wrapping_sub((c1a | c1b) as u64);
        U192([w0, w1, w2])
    }
    #[inline(always)]
    fn words(self) -> [u64; 3] {
        self.0
    }
    #[inline(always)]
    fn from_words(words: [u64; 3]) -> U192 {
        U192(words)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::Rng;

    /// A random set with bits of all three words, sometimes sparse.
    fn random(rng: &mut Rng) -> [u64; 3] {
        let mut words = [rng.next_u64(), rng.next_u64(), rng.next_u64()];
        if rng.next_u64().is_multiple_of(2) {
            for w in &mut words {
                *w &= rng.next_u64() & rng.next_u64();
            }
        }
        if rng.next_u64().is_multiple_of(4) {
            words[(rng.next_u64() % 3) as usize] = 0;
        }
        words
    }

    /// The words as one 192-bit number's bits, for reference arithmetic: (low 128, high 64).
    fn split(words: [u64; 3]) -> (u128, u64) {
        (words[0] as u128 | (words[1] as u128) << 64, words[2])
    }

    #[test]
    fn the_192_bit_set_agrees_with_wide_integer_arithmetic() {
        let mut rng = Rng::new(17);
        for _ in 0..20_000 {
            let (a, b) = (random(&mut rng), random(&mut rng));
            let (x, y) = (U192(a), U192(b));
            let (low_a, high_a) = split(a);
            let (low_b, high_b) = split(b);
            // Addition and subtraction with the carry across the 128-bit boundary.
            let (sum_low, carry) = low_a.overflowing_add(low_b);
            let sum_high = high_a.wrapping_add(high_b).wrapping_add(carry as u64);
            assert_eq!(split(x.wrapping_add(y).0), (sum_low, sum_high));
            let (difference_low, borrow) = low_a.overflowing_sub(low_b);
            let difference_high = high_a.wrapping_sub(high_b).wrapping_sub(borrow as u64);
            assert_eq!(
                split(x.wrapping_sub(y).0),
                (difference_low, difference_high)
            );
            let n = 1 + (rng.next_u64() % 63) as u32;
            let bits: Vec<usize> = x.iter().collect();
            let shifted_left: Vec<usize> = x.shl(n).iter().collect();
            let expected: Vec<usize> = bits
                .iter()
                .map(|&i| i + n as usize)
                .filter(|&i| i < 192)
                .collect();
            assert_eq!(shifted_left, expected);
            let shifted_right: Vec<usize> = x.shr(n).iter().collect();
            let expected: Vec<usize> = bits
                .iter()
                .filter(|&&i| i >= n as usize)
                .map(|&i| i - n as usize)
                .collect();
            assert_eq!(shifted_right, expected);
            assert_eq!(x.count() as usize, bits.len());
            match (bits.first(), bits.last()) {
                (Some(&low), Some(&high)) => {
                    assert_eq!(x.lowest(), low);
                    assert_eq!(x.lowest_bit(), U192::bit(low));
                    assert_eq!(x.highest_bit(), U192::bit(high));
                    assert!(x.contains(low) && x.contains(high));
                    assert_eq!(x.without_lowest().count() as usize, bits.len() - 1);
                }
                _ => {
                    assert!(x.is_empty());
                    assert_eq!(x.highest_bit(), U192::EMPTY);
                    assert_eq!(x.lowest_bit(), U192::EMPTY);
                }
            }
            assert_eq!(x.keep_if(true), x);
            assert_eq!(x.keep_if(false), U192::EMPTY);
        }
    }

    #[test]
    fn primitive_sets_find_their_extreme_bits() {
        let mut rng = Rng::new(5);
        for _ in 0..10_000 {
            let x = (rng.next_u64() as u128) << 64 | rng.next_u64() as u128;
            let x = x >> (rng.next_u64() % 128);
            if x == 0 {
                assert_eq!(x.highest_bit(), 0);
                continue;
            }
            assert_eq!(x.highest_bit(), 1 << (127 - x.leading_zeros()));
            assert_eq!(BitSet::lowest_bit(x), 1 << x.trailing_zeros());
            let narrow = x as u64;
            if narrow != 0 {
                assert_eq!(narrow.highest_bit(), 1 << (63 - narrow.leading_zeros()));
            }
            assert_eq!(<u128 as BitSet>::from_words(x.words()), x);
        }
        assert_eq!(0u64.highest_bit(), 0);
    }
}
