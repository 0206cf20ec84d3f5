//! Bitboard kernels on one `u64` per side: legal moves and flips for 8x8, bit `i` being
//! square `i` in row-major order (a1 = 0, h1 = 7, a8 = 56). These are the hot path of every
//! search. The kernels are written for any row width `W` up to 8 with the board in the low
//! `W * W` bits (dense, row-major), so 6x6 runs on them too.

/// The corners of the 8x8 board.
pub(crate) const CORNERS: u64 = 0x8100_0000_0000_0081;
/// The C-squares of the 8x8 board: the edge squares next to a corner.
pub(crate) const C_SQUARES: u64 = 0x4281_0000_0000_8142;
/// The X-squares of the 8x8 board (b2, g2, b7, g7): the corners' diagonal neighbours.
pub(crate) const X_SQUARES: u64 = 0x0042_0000_0000_4200;

/// The squares of a `width` x `width` board but its first and last columns: leaving them
/// out of the opponent's discs stops horizontal and diagonal runs wrapping around.
const fn inner_columns(width: u32) -> u64 {
    let mut mask = 0;
    let mut square = 0;
    while square < width * width {
        let col = square % width;
        if col != 0 && col != width - 1 {
            mask |= 1 << square;
        }
        square += 1;
    }
    mask
}

/// The squares of a `width` x `width` board.
const fn board_mask(width: u32) -> u64 {
    if width == 8 {
        u64::MAX
    } else {
        (1 << (width * width)) - 1
    }
}

/// Doubling steps after the first two single steps that reach the longest opponent run a
/// `width`-wide board holds (`width - 2` discs).
const fn doublings(width: u32) -> u32 {
    (width - 3) / 2
}

/// Opponent runs in both senses of one line direction, `shift` squares per step, closed by
/// a disc of `player`; returns the squares just beyond those runs.
#[inline(always)]
fn moves_along<const W: u32>(player: u64, mask: u64, shift: u32) -> u64 {
    // Runs are at most W - 2 discs long; grow them 1, 2, then 4 at a time.
    let mut forward = mask & (player << shift);
    let mut backward = mask & (player >> shift);
    forward |= mask & (forward << shift);
    backward |= mask & (backward >> shift);
    let pairs_forward = mask & (mask << shift);
    let pairs_backward = pairs_forward >> shift;
    for _ in 0..const { doublings(W) } {
        forward |= pairs_forward & (forward << (2 * shift));
        backward |= pairs_backward & (backward >> (2 * shift));
    }
    (forward << shift) | (backward >> shift)
}

/// Squares where `player` may move against `opponent`.
#[inline(always)]
pub fn legal_moves(player: u64, opponent: u64) -> u64 {
    legal_moves_w::<8>(player, opponent)
}

/// [`legal_moves`] on a board `W` squares wide.
#[inline(always)]
pub fn legal_moves_w<const W: u32>(player: u64, opponent: u64) -> u64 {
    #[cfg(all(target_arch = "x86_64", target_feature = "avx2"))]
    {
        legal_moves_avx2::<W>(player, opponent)
    }
    #[cfg(not(all(target_arch = "x86_64", target_feature = "avx2")))]
    {
        legal_moves_scalar::<W>(player, opponent)
    }
}

/// [`legal_moves`] with the four line directions in the four lanes of a 256-bit vector,
/// both senses of each at once ([`moves_along`] lane by lane).
#[cfg(all(target_arch = "x86_64", target_feature = "avx2"))]
#[inline(always)]
fn legal_moves_avx2<const W: u32>(player: u64, opponent: u64) -> u64 {
    use std::arch::x86_64::*;
    // SAFETY: the build enables AVX2, so the instructions exist.
    unsafe {
        let w = W as i64;
        let shift = _mm256_set_epi64x(w + 1, w - 1, w, 1);
        let shift2 = _mm256_add_epi64(shift, shift);
        let inner = (opponent & const { inner_columns(W) }) as i64;
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
        // Doubling steps up to the longest run (two on 8x8: six opponent discs).
        for _ in 0..const { doublings(W) } {
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
        _mm_cvtsi128_si64(moves) as u64 & !(player | opponent) & const { board_mask(W) }
    }
}

/// [`legal_moves`] one direction at a time, in plain integer code.
#[cfg_attr(all(target_arch = "x86_64", target_feature = "avx2"), allow(dead_code))]
#[inline(always)]
fn legal_moves_scalar<const W: u32>(player: u64, opponent: u64) -> u64 {
    let inner = opponent & const { inner_columns(W) };
    let moves = moves_along::<W>(player, inner, 1)
        | moves_along::<W>(player, opponent, W)
        | moves_along::<W>(player, inner, W - 1)
        | moves_along::<W>(player, inner, W + 1);
    moves & !(player | opponent) & const { board_mask(W) }
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

/// Column `col` (0 for a) of an 8x8 bitboard as a byte, row 1 in the lowest bit.
#[inline(always)]
pub(crate) fn column_byte(bits: u64, col: u32) -> u8 {
    // One bit a byte, multiplied so that each lands in the top byte at its row's place
    // (no two products share a bit, so nothing carries).
    let column = (bits >> col) & 0x0101_0101_0101_0101;
    (column.wrapping_mul(0x0102_0408_1020_4080) >> 56) as u8
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

const fn ray(square: usize, dcol: i32, drow: i32, width: i32) -> u64 {
    let mut col = (square as i32 % width) + dcol;
    let mut row = (square as i32 / width) + drow;
    let mut mask = 0u64;
    while col >= 0 && col < width && row >= 0 && row < width {
        mask |= 1u64 << (row * width + col);
        col += dcol;
        row += drow;
    }
    mask
}

const fn rays(dcol: i32, drow: i32, width: i32) -> [u64; 64] {
    let mut table = [0u64; 64];
    let mut square = 0;
    while square < (width * width) as usize {
        table[square] = ray(square, dcol, drow, width);
        square += 1;
    }
    table
}

/// The rays of a board `W` squares wide: towards higher square indices (east, south-west,
/// south, south-east) and towards lower ones (west, north-east, north, north-west).
struct RayTables {
    up: [[u64; 64]; 4],
    down: [[u64; 64]; 4],
}

const fn ray_tables(width: i32) -> RayTables {
    RayTables {
        up: [
            rays(1, 0, width),
            rays(-1, 1, width),
            rays(0, 1, width),
            rays(1, 1, width),
        ],
        down: [
            rays(-1, 0, width),
            rays(1, -1, width),
            rays(0, -1, width),
            rays(-1, -1, width),
        ],
    }
}

/// The ray tables of a board `W` wide (8 or 6).
#[inline(always)]
fn ray_tables_w<const W: u32>() -> &'static RayTables {
    static EIGHT: RayTables = ray_tables(8);
    static SIX: RayTables = ray_tables(6);
    if W == 8 {
        &EIGHT
    } else {
        &SIX
    }
}

/// Discs of `opponent` flipped when `player` moves on `square`; 0 when the move flips nothing.
#[inline(always)]
pub fn flips(player: u64, opponent: u64, square: usize) -> u64 {
    flips_w::<8>(player, opponent, square)
}

/// [`flips`] on a board `W` squares wide (8 or 6).
#[inline(always)]
pub fn flips_w<const W: u32>(player: u64, opponent: u64, square: usize) -> u64 {
    #[cfg(all(target_arch = "x86_64", target_feature = "avx2"))]
    {
        flips_avx2::<W>(player, opponent, square)
    }
    #[cfg(not(all(target_arch = "x86_64", target_feature = "avx2")))]
    {
        flips_scalar::<W>(player, opponent, square)
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

/// The rays of a board `W` wide (8 or 6) in vector order: (up, down).
#[cfg(all(target_arch = "x86_64", target_feature = "avx2"))]
#[inline(always)]
fn rays4_w<const W: u32>() -> (&'static Rays4, &'static Rays4) {
    static UP_8: Rays4 = transpose(&ray_tables(8).up);
    static DOWN_8: Rays4 = transpose(&ray_tables(8).down);
    static UP_6: Rays4 = transpose(&ray_tables(6).up);
    static DOWN_6: Rays4 = transpose(&ray_tables(6).down);
    if W == 8 {
        (&UP_8, &DOWN_8)
    } else {
        (&UP_6, &DOWN_6)
    }
}

/// [`flips`] with the four directions of each sense in the four lanes of a 256-bit vector.
#[cfg(all(target_arch = "x86_64", target_feature = "avx2"))]
#[inline(always)]
fn flips_avx2<const W: u32>(player: u64, opponent: u64, square: usize) -> u64 {
    use std::arch::x86_64::*;
    let (rays_up, rays_down) = rays4_w::<W>();
    // SAFETY: the build enables AVX2, so the instructions exist; both tables hold 64 rows of
    // four u64, 32-byte aligned, and `square` < 64, so the loads are in bounds and aligned.
    unsafe {
        let square = square & 63;
        let up = _mm256_load_si256(rays_up.0[square].as_ptr().cast());
        let down = _mm256_load_si256(rays_down.0[square].as_ptr().cast());
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

        // Down: smear the ray's non-opponent squares downwards along the ray (W - 1 steps at
        // most); the highest of them is the one no smear reaches, and the flips lie above it.
        let w = W as i64;
        let steps = _mm256_set_epi64x(w + 1, w, w - 1, 1);
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
fn flips_scalar<const W: u32>(player: u64, opponent: u64, square: usize) -> u64 {
    let tables = ray_tables_w::<W>();
    let square = square & 63;
    let mut flipped = 0;
    for dir in 0..4 {
        // Up: the nearest non-opponent square is the lowest set bit of the ray's stoppers.
        let ray = tables.up[dir][square];
        let stoppers = ray & !opponent;
        let first = stoppers & stoppers.wrapping_neg();
        let closed = ((first & player) != 0) as u64;
        flipped |= ray & first.wrapping_sub(1) & closed.wrapping_neg();

        // Down: the highest set bit. `| 1` keeps the shift in range when there is no stopper;
        // a1 then either lies off the ray or is an opponent disc, so nothing is flipped.
        let ray = tables.down[dir][square];
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
    use crate::board::rays::{ray, DIRECTIONS};
    use crate::rng::Rng;

    /// Plain square-by-square walking on a board `width` wide, the definition the kernels
    /// must match.
    fn slow_flips(player: u64, opponent: u64, square: usize, width: i32) -> u64 {
        if (player | opponent) >> square & 1 != 0 {
            return 0;
        }
        let mut flipped = 0;
        for direction in DIRECTIONS {
            let mut run = 0u64;
            for at in ray(width as usize, square, direction) {
                let bit = 1u64 << at;
                if opponent & bit != 0 {
                    run |= bit;
                } else {
                    if player & bit != 0 {
                        flipped |= run;
                    }
                    break;
                }
            }
        }
        flipped
    }

    /// Checks the kernels of a board `W` wide on random boards.
    fn check_kernels<const W: u32>(boards: usize) {
        let mut rng = Rng::new(0x9E37_79B9_7F4A_7C15u64);
        let squares = (W * W) as usize;
        for _ in 0..boards {
            let a = rng.next_u64() & board_mask(W);
            let b = rng.next_u64();
            let density = rng.next_u64();
            let player = a & density;
            let opponent = !a & b & board_mask(W);
            let mut expected_moves = 0;
            for square in 0..squares {
                let expected = slow_flips(player, opponent, square, W as i32);
                if expected != 0 {
                    expected_moves |= 1 << square;
                }
                if (player | opponent) >> square & 1 == 0 {
                    assert_eq!(
                        flips_w::<W>(player, opponent, square),
                        expected,
                        "{player:x} {opponent:x} {square}"
                    );
                    assert_eq!(flips_scalar::<W>(player, opponent, square), expected);
                }
            }
            assert_eq!(legal_moves_w::<W>(player, opponent), expected_moves);
            assert_eq!(legal_moves_scalar::<W>(player, opponent), expected_moves);
        }
    }

    #[test]
    fn kernels_match_square_by_square_walking_on_random_boards() {
        check_kernels::<8>(20_000);
        check_kernels::<6>(20_000);
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
