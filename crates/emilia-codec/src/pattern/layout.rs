//! Where each weight lives. In memory every shape has a full table (one entry per ternary
//! content, so evaluation is one lookup per instance); in the weights file and the trainer,
//! contents that are mirror images of each other share one "dense" weight, which is what
//! makes the evaluation exactly symmetric. Global features follow the shape tables.
//!
//! Line mobility features read where each side may move along the edges and the lines
//! next to them: which move squares a line offers, not just how many moves there are,
//! tells an edge move that is safe from one that gives a corner away. The shapes see the
//! discs, and the legal moves depend on the whole board. The edges' discs-and-moves
//! tables read both at once: whether a move on an edge takes a corner or wedges in
//! depends on the discs beside it, which a sum of separate tables cannot see.

use std::sync::OnceLock;

use super::shapes::{canonical_contents, table_size, INSTANCES, INSTANCE_COUNT, SHAPES};

/// Weight sets, one per stage of the game.
pub const STAGES: usize = 31;

/// Empty squares per stage.
pub(crate) const STAGE_WIDTH: usize = 2;

/// The stage of a position with `empties` empty squares.
#[inline(always)]
pub fn stage(empties: u32) -> usize {
    (empties as usize / STAGE_WIDTH).min(STAGES - 1)
}

/// Mobility (legal move count) entries; larger counts share the last one.
pub const MOBILITY_ENTRIES: usize = 32;

const fn shape_offsets() -> [usize; SHAPES.len() + 1] {
    let mut offsets = [0; SHAPES.len() + 1];
    let mut s = 0;
    while s < SHAPES.len() {
        offsets[s + 1] = offsets[s] + table_size(s);
        s += 1;
    }
    offsets
}

/// Start of each shape's full table within a stage's weights; the last entry is the end.
pub(super) const SHAPE_OFFSETS: [usize; SHAPES.len() + 1] = shape_offsets();

const fn instance_offsets() -> [u32; INSTANCE_COUNT] {
    let mut offsets = [0; INSTANCE_COUNT];
    let mut i = 0;
    while i < INSTANCE_COUNT {
        offsets[i] = SHAPE_OFFSETS[INSTANCES[i].shape] as u32;
        i += 1;
    }
    offsets
}

/// Start of each instance's table: that of its shape's table.
pub const INSTANCE_OFFSETS: [u32; INSTANCE_COUNT] = instance_offsets();

/// Table of the side to move's mobility.
pub const PLAYER_MOBILITY: usize = SHAPE_OFFSETS[SHAPES.len()];
/// Table of the other side's mobility.
pub const OPPONENT_MOBILITY: usize = PLAYER_MOBILITY + MOBILITY_ENTRIES;
/// Two entries by parity of the empty squares: the stage's constant term.
pub const PARITY: usize = OPPONENT_MOBILITY + MOBILITY_ENTRIES;
/// Potential mobility entries (empty squares next to the other side's discs); larger
/// counts share the last one.
pub const POTENTIAL_ENTRIES: usize = 48;
/// Table of the side to move's potential mobility.
pub const PLAYER_POTENTIAL: usize = PARITY + 2;
/// Table of the other side's potential mobility.
pub const OPPONENT_POTENTIAL: usize = PLAYER_POTENTIAL + POTENTIAL_ENTRIES;
/// Entries of a line table: two bits for each of the line's eight squares, in two bytes
/// (of a line mobility table, the legal moves of each side, the side to move's in the low
/// byte). A content and its mirror image, the line read the other way, share one weight,
/// so the direction in which a line is read does not matter.
pub const LINE_ENTRIES: usize = 1 << 16;
/// Lines with a mobility table, counted from the edge: the edges and the lines next to
/// them (further lines lowered the held-out error by 0.03 disc more, for twice the cost).
pub const MOBILITY_LINES: usize = 2;
/// Line tables: the mobility lines, then the edges' discs with the side to move's legal
/// moves and with the other side's (the held-out error at 24 empties fell from 5.24 to
/// 5.15 discs with them).
pub const LINE_TABLES: usize = MOBILITY_LINES + 2;
/// The first line table: the legal moves on the edges, then those on the lines next to
/// them, then the edges' discs-and-moves tables.
pub const FIRST_LINE_TABLE: usize = OPPONENT_POTENTIAL + POTENTIAL_ENTRIES;
/// Entries in one stage's full tables.
pub const FULL_LEN: usize = FIRST_LINE_TABLE + LINE_TABLES * LINE_ENTRIES;

/// Features of the whole board: mobility, parity and potential mobility, and the four
/// sides of each line table.
pub const GLOBAL_COUNT: usize = 5 + 4 * LINE_TABLES;

/// Start of each global feature's table, in the order in which the core reads a
/// position's global features.
pub(super) const GLOBAL_TABLES: [usize; GLOBAL_COUNT] = global_tables();

const fn global_tables() -> [usize; GLOBAL_COUNT] {
    let mut tables = [0; GLOBAL_COUNT];
    tables[0] = PLAYER_MOBILITY;
    tables[1] = OPPONENT_MOBILITY;
    tables[2] = PARITY;
    tables[3] = PLAYER_POTENTIAL;
    tables[4] = OPPONENT_POTENTIAL;
    let mut i = 5;
    while i < GLOBAL_COUNT {
        tables[i] = FIRST_LINE_TABLE + (i - 5) / 4 * LINE_ENTRIES;
        i += 1;
    }
    tables
}

/// Weights that add up to one position's evaluation: its instances and the globals.
pub const FEATURE_COUNT: usize = INSTANCE_COUNT + GLOBAL_COUNT;

/// The line mobility content of a line read the other way: that of the mirror image.
fn mirrored_line(content: usize) -> usize {
    let player = (content as u8).reverse_bits() as usize;
    let opponent = ((content >> 8) as u8).reverse_bits() as usize;
    player | opponent << 8
}

/// The map between full tables and dense (symmetry-shared) weights.
#[derive(Debug)]
pub struct Layout {
    /// For each full-table entry, its dense weight.
    pub full_to_dense: Vec<u32>,
    /// Dense weights per stage.
    pub dense_len: usize,
    /// For each feature slot (the pattern instances, then the global features), the dense weight of its table's first
    /// entry. Every table's dense weights are contiguous and fewer than 2^16.
    pub slot_base: [u32; FEATURE_COUNT],
}

impl Layout {
    fn build() -> Layout {
        let mut full_to_dense = vec![0u32; FULL_LEN];
        let mut next = 0u32;
        for s in 0..SHAPES.len() {
            let canonical = canonical_contents(s);
            let mut dense_of = vec![u32::MAX; canonical.len()];
            for (content, &rep) in canonical.iter().enumerate() {
                if dense_of[rep as usize] == u32::MAX {
                    dense_of[rep as usize] = next;
                    next += 1;
                }
                full_to_dense[SHAPE_OFFSETS[s] + content] = dense_of[rep as usize];
            }
        }
        for slot in &mut full_to_dense[PLAYER_MOBILITY..FIRST_LINE_TABLE] {
            *slot = next;
            next += 1;
        }
        // A line's content and its mirror image (the line read the other way) share one
        // weight, as the shapes' mirror images do.
        for line in 0..LINE_TABLES {
            let table = FIRST_LINE_TABLE + line * LINE_ENTRIES;
            for content in 0..LINE_ENTRIES {
                let mirror = mirrored_line(content);
                full_to_dense[table + content] = if mirror < content {
                    full_to_dense[table + mirror]
                } else {
                    next += 1;
                    next - 1
                };
            }
        }
        let mut slot_base = [0u32; FEATURE_COUNT];
        for (j, base) in slot_base.iter_mut().enumerate() {
            let first = match j.checked_sub(INSTANCE_COUNT) {
                None => INSTANCE_OFFSETS[j] as usize,
                Some(global) => GLOBAL_TABLES[global],
            };
            *base = full_to_dense[first];
        }
        Layout {
            full_to_dense,
            dense_len: next as usize,
            slot_base,
        }
    }

    /// The layout, built on first use.
    pub fn get() -> &'static Layout {
        static LAYOUT: OnceLock<Layout> = OnceLock::new();
        LAYOUT.get_or_init(Layout::build)
    }

    /// A hash of everything that gives a dense weight its meaning: the shapes, the global
    /// features and the stages. A weights file made for another layout is refused.
    pub fn fingerprint(&self) -> u64 {
        let mut hash = 0xCBF2_9CE4_8422_2325u64;
        let mut add = |value: u64| {
            for byte in value.to_le_bytes() {
                hash = (hash ^ byte as u64).wrapping_mul(0x0100_0000_01B3);
            }
        };
        for shape in &SHAPES {
            add(shape.mask);
        }
        for value in [
            MOBILITY_ENTRIES,
            POTENTIAL_ENTRIES,
            LINE_ENTRIES,
            MOBILITY_LINES,
            LINE_TABLES,
            STAGES,
            STAGE_WIDTH,
            self.dense_len,
            FULL_LEN,
        ] {
            add(value as u64);
        }
        hash
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dense_weights_are_fewer_than_table_entries_by_the_mirror_sharing() {
        let layout = Layout::get();
        // Mirror-symmetric shapes roughly halve; corner 2x5 keeps all 3^10 entries. The
        // triangle has two squares on its mirror line and four pairs: (3^10 + 3^6) / 2;
        // corner + block five pairs: (3^10 + 3^5) / 2.
        let globals = 2 * MOBILITY_ENTRIES + 2 + 2 * POTENTIAL_ENTRIES;
        // A line table's content read either way: (2^16 + 2^8) / 2, 2^8 being the
        // contents whose two bytes are palindromes (2^4 each).
        let lines = LINE_TABLES * (1 << 16);
        let dense_lines = LINE_TABLES * ((1 << 16) + (1 << 8)) / 2;
        assert_eq!(
            layout.dense_len,
            113_877 + 29_889 + 29_646 + globals + dense_lines
        );
        assert_eq!(FULL_LEN, 167_265 + 2 * 59_049 + globals + lines);
        assert!(layout
            .full_to_dense
            .iter()
            .all(|&d| (d as usize) < layout.dense_len));
        // Each shape's table is contiguous from its first entry and fits 16-bit offsets.
        for s in 0..SHAPES.len() {
            let first = layout.full_to_dense[SHAPE_OFFSETS[s]];
            let table = &layout.full_to_dense[SHAPE_OFFSETS[s]..SHAPE_OFFSETS[s + 1]];
            assert!(table.iter().all(|&d| d >= first && d - first < 1 << 16));
        }
    }
}
