//! 8x8 bitboard kernels: legal moves and flips on a pair of `u64`, bit `i` being square
//! `i` in row-major order (a1 = 0, h1 = 7, a8 = 56). These are the hot path of every search.

/// Every square but columns a and h: stops horizontal and diagonal runs wrapping around.
const NOT_EDGE_COLUMNS: u64 = 0x7E7E_7E7E_7E7E_7E7E;

/// Opponent runs in both senses of one line direction, `shift` squares per step, closed by
/// a disc of `player`; returns the squares just beyond those runs.
#[inline(always)]
fn moves_along(player: u64, mask: u64, shift: u32) -> u64 {
    // Runs are at most six discs long; grow them 1, 2, then 4 at a time.
    let mut forward = mask & (player << shift);
    let mut backward = mask & (player >> shift);
    forward |= mask & (forward << shift);
    backward |= mask & (backward >> shift);
    let pairs_forward = mask & (mask << shift);
    let pairs_backward = pairs_forward >> shift;
    forward |= pairs_forward & (forward << (2 * shift));
    backward |= pairs_backward & (backward >> (2 * shift));
    forward |= pairs_forward & (forward << (2 * shift));
    backward |= pairs_backward & (backward >> (2 * shift));
    (forward << shift) | (backward >> shift)
}

/// Squares where `player` may move against `opponent`.
#[inline(always)]
pub fn legal_moves(player: u64, opponent: u64) -> u64 {
    #[cfg(all(target_arch = "x86_64", target_feature = "avx2"))]
    {
        legal_moves_avx2(player, opponent)
    }
    #[cfg(not(all(target_arch = "x86_64", target_feature = "avx2")))]
    {
        legal_moves_scalar(player, opponent)
    }
}

/// [`legal_moves`] with the four line directions in the four lanes of a 256-bit vector,
/// both senses of each at once ([`moves_along`] lane by lane).
#[cfg(all(target_arch = "x86_64", target_feature = "avx2"))]
#[inline(always)]
fn legal_moves_avx2(player: u64, opponent: u64) -> u64 {
    use std::arch::x86_64::*;
    // SAFETY: the build enables AVX2, so the instructions exist.
    unsafe {
        let shift = _mm256_set_epi64x(9, 7, 8, 1);
        let shift2 = _mm256_add_epi64(shift, shift);
        let inner = (opponent & NOT_EDGE_COLUMNS) as i64;
        let mask = _mm256_set_epi64x(inner, inner, opponent as i64, inner);
        let p = _mm256_set1_epi64x(player as i64);
        let mut forward = _mm256_and_si256(mask, _mm256_sllv_epi64(p, shift));
        let mut backward = _mm256_and_si256(mask, _mm256_srlv_epi64(p, shift));
        forward = _mm256_or_si256(
            forward,
            _mm256_and_si256(mask, _mm256_sllv_epi64(forward, shift)),
        );
        backward = _mm256_or_si256(
            backward,
            _mm256_and_si256(mask, _mm256_srlv_epi64(backward, shift)),
        );
        let pairs_forward = _mm256_and_si256(mask, _mm256_sllv_epi64(mask, shift));
        let pairs_backward = _mm256_srlv_epi64(pairs_forward, shift);
        // Two doubling steps reach the longest run of six opponent discs.
        for _ in 0..2 {
            forward = _mm256_or_si256(
                forward,
                _mm256_and_si256(pairs_forward, _mm256_sllv_epi64(forward, shift2)),
            );
            backward = _mm256_or_si256(
                backward,
                _mm256_and_si256(pairs_backward, _mm256_srlv_epi64(backward, shift2)),
            );
        }
        let moves = _mm256_or_si256(
            _mm256_sllv_epi64(forward, shift),
            _mm256_srlv_epi64(backward, shift),
        );
        let half = _mm_or_si128(
            _mm256_castsi256_si128(moves),
            _mm256_extracti128_si256::<1>(moves),
        );
        let moves = _mm_or_si128(half, _mm_unpackhi_epi64(half, half));
        _mm_cvtsi128_si64(moves) as u64 & !(player | opponent)
    }
}

/// [`legal_moves`] one direction at a time, in plain integer code.
#[cfg_attr(all(target_arch = "x86_64", target_feature = "avx2"), allow(dead_code))]
#[inline(always)]
fn legal_moves_scalar(player: u64, opponent: u64) -> u64 {
    let inner = opponent & NOT_EDGE_COLUMNS;
    let moves = moves_along(player, inner, 1)
        | moves_along(player, opponent, 8)
        | moves_along(player, inner, 7)
        | moves_along(player, inner, 9);
    moves & !(player | opponent)
}

/// The bits of `x` under `mask`, packed into the low bits in square order.
#[inline(always)]
pub fn gather(x: u64, mask: u64) -> u64 {
    #[cfg(all(target_arch = "x86_64", target_feature = "bmi2"))]
    {
        // SAFETY: the build enables BMI2, so the instruction exists.
        unsafe { core::arch::x86_64::_pext_u64(x, mask) }
    }
    #[cfg(not(all(target_arch = "x86_64", target_feature = "bmi2")))]
    {
        let (mut out, mut bit, mut m) = (0u64, 0, mask);
        while m != 0 {
            let low = m & m.wrapping_neg();
            if x & low != 0 {
                out |= 1 << bit;
            }
            bit += 1;
            m &= m - 1;
        }
        out
    }
}

/// The low bits of `x` spread onto the squares of `mask`, in square order (undoes [`gather`]).
#[inline(always)]
pub fn scatter(x: u64, mask: u64) -> u64 {
    #[cfg(all(target_arch = "x86_64", target_feature = "bmi2"))]
    {
        // SAFETY: the build enables BMI2, so the instruction exists.
        unsafe { core::arch::x86_64::_pdep_u64(x, mask) }
    }
    #[cfg(not(all(target_arch = "x86_64", target_feature = "bmi2")))]
    {
        let (mut out, mut bit, mut m) = (0u64, 0, mask);
        while m != 0 {
            let low = m & m.wrapping_neg();
            if x >> bit & 1 != 0 {
                out |= low;
            }
            bit += 1;
            m &= m - 1;
        }
        out
    }
}

const fn ray(square: usize, dcol: i32, drow: i32) -> u64 {
    let mut col = (square % 8) as i32 + dcol;
    let mut row = (square / 8) as i32 + drow;
    let mut mask = 0u64;
    while col >= 0 && col < 8 && row >= 0 && row < 8 {
        mask |= 1u64 << (row * 8 + col);
        col += dcol;
        row += drow;
    }
    mask
}

const fn rays(dcol: i32, drow: i32) -> [u64; 64] {
    let mut table = [0u64; 64];
    let mut square = 0;
    while square < 64 {
        table[square] = ray(square, dcol, drow);
        square += 1;
    }
    table
}

/// Rays towards higher square indices: east, south-west, south, south-east.
static RAYS_UP: [[u64; 64]; 4] = [rays(1, 0), rays(-1, 1), rays(0, 1), rays(1, 1)];
/// Rays towards lower square indices: west, north-east, north, north-west.
static RAYS_DOWN: [[u64; 64]; 4] = [rays(-1, 0), rays(1, -1), rays(0, -1), rays(-1, -1)];

/// Discs of `opponent` flipped when `player` moves on `square`; 0 when the move flips nothing.
#[inline(always)]
pub fn flips(player: u64, opponent: u64, square: usize) -> u64 {
    #[cfg(all(target_arch = "x86_64", target_feature = "avx2"))]
    {
        flips_avx2(player, opponent, square)
    }
    #[cfg(not(all(target_arch = "x86_64", target_feature = "avx2")))]
    {
        flips_scalar(player, opponent, square)
    }
}

/// The four rays up (or down) from each square, one per 256-bit lane group, aligned for
/// vector loads.
#[cfg(all(target_arch = "x86_64", target_feature = "avx2"))]
#[repr(C, align(32))]
struct Rays4([[u64; 4]; 64]);

#[cfg(all(target_arch = "x86_64", target_feature = "avx2"))]
const fn transpose(rays: &[[u64; 64]; 4]) -> Rays4 {
    let mut table = [[0u64; 4]; 64];
    let mut square = 0;
    while square < 64 {
        let mut dir = 0;
        while dir < 4 {
            table[square][dir] = rays[dir][square];
            dir += 1;
        }
        square += 1;
    }
    Rays4(table)
}

#[cfg(all(target_arch = "x86_64", target_feature = "avx2"))]
static RAYS_UP_4: Rays4 = transpose(&RAYS_UP);
#[cfg(all(target_arch = "x86_64", target_feature = "avx2"))]
static RAYS_DOWN_4: Rays4 = transpose(&RAYS_DOWN);

/// [`flips`] with the four directions of each sense in the four lanes of a 256-bit vector.
#[cfg(all(target_arch = "x86_64", target_feature = "avx2"))]
#[inline(always)]
fn flips_avx2(player: u64, opponent: u64, square: usize) -> u64 {
    use std::arch::x86_64::*;
    // SAFETY: the build enables AVX2, so the instructions exist; both tables hold 64 rows of
    // four u64, 32-byte aligned, and `square` < 64, so the loads are in bounds and aligned.
    unsafe {
        let square = square & 63;
        let up = _mm256_load_si256(RAYS_UP_4.0[square].as_ptr().cast());
        let down = _mm256_load_si256(RAYS_DOWN_4.0[square].as_ptr().cast());
        let p = _mm256_set1_epi64x(player as i64);
        let o = _mm256_set1_epi64x(opponent as i64);
        let zero = _mm256_setzero_si256();
        let ones = _mm256_cmpeq_epi64(zero, zero);

        // Up: adding one to (opponent or off-ray) carries from bit 0 through the squares
        // below the ray and the opponent's run on it, stopping on the ray's first other square.
        let carried = _mm256_sub_epi64(_mm256_or_si256(o, _mm256_xor_si256(up, ones)), ones);
        let outflank = _mm256_and_si256(_mm256_and_si256(carried, up), p);
        let closed = _mm256_cmpeq_epi64(outflank, zero);
        let flipped_up = _mm256_andnot_si256(
            closed,
            _mm256_and_si256(_mm256_add_epi64(outflank, ones), up),
        );

        // Down: smear the ray's non-opponent squares downwards along the ray (7 steps at most);
        // the highest of them is the one no smear reaches, and the flips lie above it.
        let steps = _mm256_set_epi64x(9, 8, 7, 1);
        let blockers = _mm256_andnot_si256(o, down);
        let mut smear = _mm256_or_si256(blockers, _mm256_srlv_epi64(blockers, steps));
        smear = _mm256_or_si256(
            smear,
            _mm256_srlv_epi64(smear, _mm256_slli_epi64::<1>(steps)),
        );
        smear = _mm256_or_si256(
            smear,
            _mm256_srlv_epi64(smear, _mm256_slli_epi64::<2>(steps)),
        );
        let highest = _mm256_andnot_si256(_mm256_srlv_epi64(smear, steps), blockers);
        let closed = _mm256_cmpeq_epi64(_mm256_and_si256(highest, p), zero);
        let flipped_down = _mm256_andnot_si256(closed, _mm256_andnot_si256(smear, down));

        let both = _mm256_or_si256(flipped_up, flipped_down);
        let half = _mm_or_si128(
            _mm256_castsi256_si128(both),
            _mm256_extracti128_si256::<1>(both),
        );
        let flipped = _mm_or_si128(half, _mm_unpackhi_epi64(half, half));
        _mm_cvtsi128_si64(flipped) as u64
    }
}

/// [`flips`] one direction at a time, in plain integer code.
#[cfg_attr(all(target_arch = "x86_64", target_feature = "avx2"), allow(dead_code))]
#[inline(always)]
fn flips_scalar(player: u64, opponent: u64, square: usize) -> u64 {
    let mut flipped = 0;
    for dir in 0..4 {
        // Up: the nearest non-opponent square is the lowest set bit of the ray's stoppers.
        let ray = RAYS_UP[dir][square];
        let stoppers = ray & !opponent;
        let first = stoppers & stoppers.wrapping_neg();
        let closed = ((first & player) != 0) as u64;
        flipped |= ray & first.wrapping_sub(1) & closed.wrapping_neg();

        // Down: the highest set bit. `| 1` keeps the shift in range when there is no stopper;
        // a1 then either lies off the ray or is an opponent disc, so nothing is flipped.
        let ray = RAYS_DOWN[dir][square];
        let stoppers = ray & !opponent;
        let first = (1u64 << 63) >> (stoppers | 1).leading_zeros();
        let closed = ((first & player & ray) != 0) as u64;
        flipped |= ray & (first.wrapping_neg() << 1) & closed.wrapping_neg();
    }
    flipped
}

/// Squares orthogonally or diagonally next to any square of `set`.
#[inline(always)]
pub fn neighbours(set: u64) -> u64 {
    let horizontal = ((set << 1) & !0x0101_0101_0101_0101) | ((set >> 1) & !0x8080_8080_8080_8080);
    let row = set | horizontal;
    horizontal | (row << 8) | (row >> 8)
}

/// Iterator over the set bits of a `u64`, lowest first.
#[derive(Clone, Copy, Debug)]
pub struct Bits(pub u64);

impl Iterator for Bits {
    type Item = usize;

    #[inline(always)]
    fn next(&mut self) -> Option<usize> {
        if self.0 == 0 {
            return None;
        }
        let index = self.0.trailing_zeros() as usize;
        self.0 &= self.0 - 1;
        Some(index)
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = self.0.count_ones() as usize;
        (n, Some(n))
    }
}

impl ExactSizeIterator for Bits {}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::Rng;

    /// Plain square-by-square walking, the definition the kernels must match.
    fn slow_flips(player: u64, opponent: u64, square: usize) -> u64 {
        if (player | opponent) >> square & 1 != 0 {
            return 0;
        }
        let mut flipped = 0;
        for (dc, dr) in [
            (1, 0),
            (-1, 0),
            (0, 1),
            (0, -1),
            (1, 1),
            (1, -1),
            (-1, 1),
            (-1, -1),
        ] {
            let (mut c, mut r) = ((square % 8) as i32 + dc, (square / 8) as i32 + dr);
            let mut run = 0u64;
            while (0..8).contains(&c) && (0..8).contains(&r) {
                let bit = 1u64 << (r * 8 + c);
                if opponent & bit != 0 {
                    run |= bit;
                } else {
                    if player & bit != 0 {
                        flipped |= run;
                    }
                    break;
                }
                c += dc;
                r += dr;
            }
        }
        flipped
    }

    #[test]
    fn kernels_match_square_by_square_walking_on_random_boards() {
        let mut rng = Rng::new(0x9E37_79B9_7F4A_7C15u64);
        for _ in 0..20_000 {
            let a = rng.next_u64();
            let b = rng.next_u64();
            let density = rng.next_u64();
            let player = a & density;
            let opponent = !a & b;
            let mut expected_moves = 0;
            for square in 0..64 {
                let expected = slow_flips(player, opponent, square);
                if expected != 0 {
                    expected_moves |= 1 << square;
                }
                if (player | opponent) >> square & 1 == 0 {
                    assert_eq!(
                        flips(player, opponent, square),
                        expected,
                        "{player:x} {opponent:x} {square}"
                    );
                    assert_eq!(flips_scalar(player, opponent, square), expected);
                }
            }
            assert_eq!(legal_moves(player, opponent), expected_moves);
            assert_eq!(legal_moves_scalar(player, opponent), expected_moves);
        }
    }

    #[test]
    fn neighbours_are_the_eight_adjacent_squares() {
        for square in 0..64usize {
            let (c, r) = ((square % 8) as i32, (square / 8) as i32);
            let mut expected = 0u64;
            for dc in -1..=1 {
                for dr in -1..=1 {
                    let (nc, nr) = (c + dc, r + dr);
                    if (dc, dr) != (0, 0) && (0..8).contains(&nc) && (0..8).contains(&nr) {
                        expected |= 1 << (nr * 8 + nc);
                    }
                }
            }
            assert_eq!(neighbours(1 << square), expected, "square {square}");
        }
    }
}
