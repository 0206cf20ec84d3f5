//! Which entries of a stage's full tables a position reads: its global features (mobility,
//! parity, potential mobility, the line tables), and with its instance contents all its
//! features. Kept apart from the layout, which knows no board, so that the build can lay
//! the built-in tables out with the layout's own code.

use super::indices::Indices;
use super::layout::{
    Layout, FEATURE_COUNT, FIRST_LINE_TABLE, GLOBAL_COUNT, INSTANCE_OFFSETS, LINE_ENTRIES,
    MOBILITY_ENTRIES, MOBILITY_LINES, OPPONENT_MOBILITY, OPPONENT_POTENTIAL, PARITY,
    PLAYER_MOBILITY, PLAYER_POTENTIAL, POTENTIAL_ENTRIES,
};
use super::shapes::INSTANCE_COUNT;
use crate::board::bitboard::{column_byte, legal_moves, neighbours};
use crate::board::Board8;

/// Full-table positions of the global features of `board`, whose side to move has the
/// legal moves `player_moves`.
#[inline(always)]
pub(super) fn global_features(board: &Board8, player_moves: u64) -> [usize; GLOBAL_COUNT] {
    debug_assert_eq!(player_moves, board.move_mask());
    let opponent_moves = legal_moves(board.opponent, board.player);
    let mobility = |moves: u64| (moves.count_ones() as usize).min(MOBILITY_ENTRIES - 1);
    let (player_potential, opponent_potential) = potential_mobilities(board);
    let mut features = [0; GLOBAL_COUNT];
    features[..5].copy_from_slice(&[
        PLAYER_MOBILITY + mobility(player_moves),
        OPPONENT_MOBILITY + mobility(opponent_moves),
        PARITY + parity(board),
        PLAYER_POTENTIAL + player_potential,
        OPPONENT_POTENTIAL + opponent_potential,
    ]);
    let mut rings = [[0u8; 4]; 2 * MOBILITY_LINES];
    for line in 0..MOBILITY_LINES {
        rings[2 * line] = ring_sides(player_moves, line as u32);
        rings[2 * line + 1] = ring_sides(opponent_moves, line as u32);
        for side in 0..4 {
            let (player, opponent) = (rings[2 * line][side], rings[2 * line + 1][side]);
            features[5 + 4 * line + side] = FIRST_LINE_TABLE
                + line * LINE_ENTRIES
                + (player as usize | (opponent as usize) << 8);
        }
    }
    // An edge square's two bits: the side to move's disc (low byte), the other side's
    // (high byte), both for a legal move of the table's side, neither for an empty square
    // without one. The edges' moves are the mobility rings of line 0.
    let players = ring_sides(board.player, 0);
    let opponents = ring_sides(board.opponent, 0);
    for (k, moves) in rings[..2].iter().enumerate() {
        let table = MOBILITY_LINES + k;
        for side in 0..4 {
            let low = (players[side] | moves[side]) as usize;
            let high = (opponents[side] | moves[side]) as usize;
            features[5 + 4 * table + side] =
                FIRST_LINE_TABLE + table * LINE_ENTRIES + (low | high << 8);
        }
    }
    features
}

/// The four lines of `bits` at `line` squares from the edges (0: the edges): the rows
/// from a to h and the columns from 1 to 8. A symmetry of the board maps each line to
/// another, read one way or the other, and the two ways share one weight.
#[inline(always)]
fn ring_sides(bits: u64, line: u32) -> [u8; 4] {
    [
        (bits >> (8 * line)) as u8,
        column_byte(bits, 7 - line),
        (bits >> (8 * (7 - line))) as u8,
        column_byte(bits, line),
    ]
}

/// Full-table positions of every feature of `board` whose instance contents are `indices`.
#[inline]
pub(crate) fn full_features(board: &Board8, indices: &Indices) -> [u32; FEATURE_COUNT] {
    let mut out = [0u32; FEATURE_COUNT];
    for i in 0..INSTANCE_COUNT {
        out[i] = INSTANCE_OFFSETS[i] + indices[i] as u32;
    }
    for (slot, feature) in out[INSTANCE_COUNT..]
        .iter_mut()
        .zip(global_features(board, board.move_mask()))
    {
        *slot = feature as u32;
    }
    out
}

/// Capped potential mobilities of both sides: the empty squares next to the other side's
/// discs, where moves may come later.
#[inline(always)]
fn potential_mobilities(board: &Board8) -> (usize, usize) {
    let empty = board.empty_mask();
    let player = (neighbours(board.opponent) & empty).count_ones() as usize;
    let opponent = (neighbours(board.player) & empty).count_ones() as usize;
    (
        player.min(POTENTIAL_ENTRIES - 1),
        opponent.min(POTENTIAL_ENTRIES - 1),
    )
}

/// 1 when the number of empty squares is odd.
#[inline(always)]
pub(crate) fn parity(board: &Board8) -> usize {
    (board.empty_mask().count_ones() & 1) as usize
}

/// Dense weight positions of the features of `board`, in `layout`.
#[inline]
pub(crate) fn dense_features(
    layout: &Layout,
    board: &Board8,
    indices: &Indices,
) -> [u32; FEATURE_COUNT] {
    let mut out = full_features(board, indices);
    for f in &mut out {
        *f = layout.full_to_dense[*f as usize];
    }
    out
}

/// The features of `board` as offsets from [`Layout::slot_base`].
#[inline]
pub fn slot_features(layout: &Layout, board: &Board8, indices: &Indices) -> [u16; FEATURE_COUNT] {
    let dense = dense_features(layout, board, indices);
    let mut out = [0u16; FEATURE_COUNT];
    for j in 0..FEATURE_COUNT {
        out[j] = (dense[j] - layout.slot_base[j]) as u16;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::pattern::indices;

    #[test]
    fn each_slot_reads_its_table_from_the_table_base() {
        let layout = Layout::get();
        let board = Board8::START;
        let idx = indices(&board);
        let dense = dense_features(layout, &board, &idx);
        let slots = slot_features(layout, &board, &idx);
        for j in 0..FEATURE_COUNT {
            assert_eq!(layout.slot_base[j] + slots[j] as u32, dense[j]);
        }
    }
}
