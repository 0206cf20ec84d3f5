//! The solver's transposition tables: each a fixed-size array of 64-byte buckets, four
//! packed 16-byte entries each, so that one probe touches one cache line; a small one for
//! positions near the end of the game and a large one for the others ([`Tables`]).
//!
//! An entry holds bounds on the exact final score of one position (exact solving has no
//! depth, so bounds from any search of the same position can be merged), the best move
//! found (a square on 8x8, a bit of the board's layout on the other sizes, whose scores
//! reach ±144), and the log2 of the nodes its search took as the cost of recomputing it.
//!
//! An entry is two 64-bit words, the packed data and the position's hash XORed with it, so
//! that the threads of a solve share the tables without locks: each word is written and
//! read atomically, and an entry torn by two threads writing at once no longer matches its
//! position's hash, so it reads as a miss rather than as another position's bounds.
//!
//! Replacement rule, deterministic: a store for a position already in its bucket merges the
//! bounds into that entry; otherwise it takes an unused entry if there is one, else the
//! entry with the lowest priority, where an entry written in an earlier solve (generation)
//! ranks below every entry of the current one and, within a generation, cheaper entries rank
//! lower (ties: the first such entry in the bucket).

use crate::memory::{MemoryError, Slot, TableMemory, Zeroable};

/// Marks "no move" in an entry: no square of any board.
pub(crate) const NO_MOVE: u8 = u8::MAX;

/// An entry as read from its slot.
#[derive(Clone, Copy, Default)]
struct Entry {
    /// The position's full 64-bit hash.
    key: u64,
    lower: i16,
    upper: i16,
    best: u8,
    /// Empty squares of the position; 0 marks an unused entry.
    empties: u8,
    cost: u8,
    generation: u8,
}

impl Entry {
    /// The data word: every field but the key, the two bounds 16 bits each (scores reach
    /// ±144 on 12x12), the rest a byte each.
    #[inline(always)]
    fn data(&self) -> u64 {
        (self.lower as u16 as u64)
            | (self.upper as u16 as u64) << 16
            | (self.best as u64) << 32
            | (self.empties as u64) << 40
            | (self.cost as u64) << 48
            | (self.generation as u64) << 56
    }

    #[inline(always)]
    fn read(slot: &Slot) -> Entry {
        let (key, data) = slot.read();
        Entry::from_words(key, data)
    }

    #[inline(always)]
    fn write(&self, slot: &Slot) {
        slot.write(self.key, self.data());
    }

    #[inline(always)]
    fn from_words(key: u64, data: u64) -> Entry {
        Entry {
            key,
            lower: data as u16 as i16,
            upper: (data >> 16) as u16 as i16,
            best: (data >> 32) as u8,
            empties: (data >> 40) as u8,
            cost: (data >> 48) as u8,
            generation: (data >> 56) as u8,
        }
    }
}

const ENTRIES_PER_BUCKET: usize = 4;

#[derive(Clone, Default)]
#[repr(C, align(64))]
struct Bucket([Slot; ENTRIES_PER_BUCKET]);

// SAFETY: an all-zero bucket holds four unused entries (`empties` 0).
unsafe impl Zeroable for Bucket {}

/// What the table knows of a position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Hit {
    /// The score is at least this.
    pub(crate) lower: i32,
    /// The score is at most this.
    pub(crate) upper: i32,
    /// The best move found, or [`NO_MOVE`].
    pub(crate) best: u8,
}

/// A transposition table of fixed size, shared by the threads of a solve: probes and
/// stores take `&self`.
pub(crate) struct Table {
    /// The buckets (a power of two of them).
    buckets: TableMemory<Bucket>,
    mask: usize,
    generation: u8,
}

/// Buckets of a table of about `mib` mebibytes: a power of two, at least one.
fn bucket_count(mib: usize) -> usize {
    let wanted = (mib << 20) / std::mem::size_of::<Bucket>();
    if wanted <= 1 {
        1
    } else {
        1usize << (usize::BITS - 1 - wanted.leading_zeros())
    }
}

impl Table {
    /// A table of about `mib` mebibytes (rounded down to a power of two buckets, at least
    /// one), its pages touched in the background (see [`crate::memory`], which also gives
    /// large tables huge pages); an error when the memory cannot be had.
    pub(crate) fn new(mib: usize) -> Result<Table, MemoryError> {
        let count = bucket_count(mib);
        let buckets = TableMemory::zeroed(count)?;
        buckets.populate_in_background();
        Ok(Table {
            buckets,
            mask: count - 1,
            generation: 1,
        })
    }

    /// The used buckets.
    #[inline(always)]
    fn buckets(&self) -> &[Bucket] {
        &self.buckets
    }

    /// The table's size in bytes.
    #[cfg(test)]
    pub(crate) fn bytes(&self) -> usize {
        self.buckets.len() * std::mem::size_of::<Bucket>()
    }

    /// Forgets every entry.
    pub(crate) fn clear(&mut self) {
        self.buckets.clear();
        self.generation = 1;
    }

    /// Starts a new solve: entries of earlier solves become the first to be replaced.
    pub(crate) fn next_generation(&mut self) {
        self.generation = self.generation.wrapping_add(1).max(1);
    }

    #[inline(always)]
    fn bucket(&self, key: u64) -> usize {
        key as usize & self.mask
    }

    /// Asks the memory system to fetch the bucket of `key` ahead of a probe.
    #[inline(always)]
    pub(crate) fn prefetch(&self, key: u64) {
        #[cfg(target_arch = "x86_64")]
        {
            let bucket = &self.buckets()[self.bucket(key)] as *const Bucket as *const i8;
            // SAFETY: a prefetch is only a hint and never faults; the address is in bounds.
            unsafe { core::arch::x86_64::_mm_prefetch(bucket, core::arch::x86_64::_MM_HINT_T0) };
        }
        #[cfg(not(target_arch = "x86_64"))]
        let _ = key;
    }

    /// The entry for the position with hash `key`, if stored.
    #[inline]
    pub(crate) fn probe(&self, key: u64) -> Option<Hit> {
        let bucket = &self.buckets()[self.bucket(key)];
        bucket
            .0
            .iter()
            .map(Entry::read)
            .find(|e| e.key == key && e.empties != 0)
            .map(|e| Hit {
                lower: e.lower as i32,
                upper: e.upper as i32,
                best: e.best,
            })
    }

    /// Records that the position with hash `key` and `empties` empty squares scores within
    /// `lower..=upper`, with best move `best` (or [`NO_MOVE`]), after a search of `nodes` nodes.
    pub(crate) fn store(
        &self,
        key: u64,
        empties: u32,
        lower: i32,
        upper: i32,
        best: u8,
        nodes: u64,
    ) {
        let generation = self.generation;
        let cost = (64 - nodes.leading_zeros()) as u8;
        let bucket = &self.buckets()[self.bucket(key)];
        let entries: [Entry; ENTRIES_PER_BUCKET] =
            std::array::from_fn(|i| Entry::read(&bucket.0[i]));
        if let Some(own) = entries.iter().position(|e| e.key == key && e.empties != 0) {
            let mut entry = entries[own];
            let (merged_lower, merged_upper) =
                (lower.max(entry.lower as i32), upper.min(entry.upper as i32));
            // Bounds that disagree can only come from a hash collision: trust the new ones.
            let (lower, upper) = if merged_lower <= merged_upper {
                (merged_lower, merged_upper)
            } else {
                (lower, upper)
            };
            entry.lower = lower as i16;
            entry.upper = upper as i16;
            if best != NO_MOVE {
                entry.best = best;
            }
            entry.cost = entry.cost.max(cost);
            entry.generation = generation;
            entry.write(&bucket.0[own]);
            return;
        }
        let priority = |e: &Entry| {
            if e.empties == 0 {
                0
            } else {
                1 + ((e.generation == generation) as u32) * 256 + e.cost as u32
            }
        };
        let mut victim = 0;
        for i in 1..ENTRIES_PER_BUCKET {
            if priority(&entries[i]) < priority(&entries[victim]) {
                victim = i;
            }
        }
        Entry {
            key,
            lower: lower as i16,
            upper: upper as i16,
            best,
            empties: empties as u8,
            cost,
            generation,
        }
        .write(&bucket.0[victim]);
    }
}

/// Positions with fewer empty squares than this go to the near table of [`Tables`].
pub(crate) const NEAR_MAX_EMPTIES: u32 = 13;

/// Size of the near table of [`Tables`], in mebibytes: about a core's level-2 cache.
pub(crate) const NEAR_TABLE_MIB: usize = 1;

/// The solver's tables: positions close to the end of the game (most of the table's traffic,
/// each cheap to search again) in a small table that stays in the processor's caches, the
/// others in a large one. With one large table for all, most probes near the leaves missed
/// the caches and waited on memory: FFO #40-#49 took about 5% longer, for 4% fewer nodes.
pub(crate) struct Tables {
    deep: Table,
    near: Table,
}

impl Tables {
    /// A deep table of about `mib` mebibytes and a near table of [`NEAR_TABLE_MIB`] (or
    /// half of `mib`, if less); an error when the memory cannot be had.
    pub(crate) fn new(mib: usize) -> Result<Tables, MemoryError> {
        Ok(Tables {
            deep: Table::new(mib)?,
            near: Table::new(NEAR_TABLE_MIB.min(mib / 2))?,
        })
    }

    /// The bytes [`Tables::new`] takes for `mib`, without taking them.
    pub(crate) fn bytes_for(mib: usize) -> usize {
        (bucket_count(mib) + bucket_count(NEAR_TABLE_MIB.min(mib / 2)))
            * std::mem::size_of::<Bucket>()
    }

    /// The table for positions with `empties` empty squares.
    #[inline(always)]
    pub(crate) fn get(&self, empties: u32) -> &Table {
        if empties < NEAR_MAX_EMPTIES {
            &self.near
        } else {
            &self.deep
        }
    }

    /// Both tables' size in bytes.
    #[cfg(test)]
    pub(crate) fn bytes(&self) -> usize {
        self.deep.bytes() + self.near.bytes()
    }

    /// Forgets every entry of both.
    pub(crate) fn clear(&mut self) {
        self.deep.clear();
        self.near.clear();
    }

    /// Starts a new solve in both (see [`Table::next_generation`]).
    pub(crate) fn next_generation(&mut self) {
        self.deep.next_generation();
        self.near.next_generation();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::Ordering::Relaxed;

    #[test]
    fn entries_pack_four_to_a_cache_line() {
        assert_eq!(std::mem::size_of::<Slot>(), 16);
        assert_eq!(std::mem::size_of::<Bucket>(), 64);
        assert_eq!(std::mem::align_of::<Bucket>(), 64);
        assert_eq!(Table::new(1).unwrap().bytes(), 1 << 20);
        assert_eq!(Table::new(0).unwrap().bytes(), 64);
    }

    #[test]
    fn sizes_are_known_before_the_tables_are_made() {
        for mib in [0, 1, 2, 3, 5, 32, 50] {
            assert_eq!(
                Tables::new(mib).unwrap().bytes(),
                Tables::bytes_for(mib),
                "{mib}"
            );
        }
        assert_eq!(Tables::bytes_for(32), 33 << 20);
        assert_eq!(Tables::bytes_for(50), 33 << 20);
    }

    #[test]
    fn large_tables_start_on_a_huge_page_boundary() {
        let mut table = Table::new(4).unwrap();
        assert_eq!(table.bytes(), 4 << 20);
        assert_eq!(table.buckets().as_ptr() as usize % (2 << 20), 0);
        table.store(7, 20, -2, 64, 3, 10);
        assert_eq!(table.probe(7).map(|hit| hit.lower), Some(-2));
        table.clear();
        assert_eq!(table.probe(7), None);
    }

    #[test]
    fn bounds_of_one_position_merge() {
        let table = Table::new(1).unwrap();
        table.store(42, 12, 4, 64, 19, 1000);
        table.store(42, 12, -64, 10, NO_MOVE, 1000);
        let hit = table.probe(42).unwrap();
        assert_eq!((hit.lower, hit.upper, hit.best), (4, 10, 19));
        assert_eq!(table.probe(43), None);
    }

    #[test]
    fn a_full_bucket_replaces_old_then_cheap_entries() {
        let mut table = Table::new(0).unwrap(); // one bucket
        for key in 1..=4u64 {
            table.store(key, 12, 0, 0, NO_MOVE, 1 << (10 + key));
        }
        // Same generation: the cheapest (key 1) goes.
        table.store(5, 12, 0, 0, NO_MOVE, 1 << 20);
        assert!(table.probe(1).is_none());
        assert!(table.probe(2).is_some());
        // A new generation: old entries go first, however costly.
        table.next_generation();
        table.store(6, 12, 0, 0, NO_MOVE, 1);
        assert!(table.probe(6).is_some());
        assert!(table.probe(2).is_none());
    }

    #[test]
    fn positions_near_the_end_go_to_the_near_table() {
        let mut tables = Tables::new(4).unwrap();
        assert_eq!(tables.bytes(), (4 + NEAR_TABLE_MIB) << 20);
        tables
            .get(NEAR_MAX_EMPTIES - 1)
            .store(9, NEAR_MAX_EMPTIES - 1, 2, 64, 5, 10);
        tables
            .get(NEAR_MAX_EMPTIES)
            .store(11, NEAR_MAX_EMPTIES, -4, 64, 6, 10);
        // Each table holds its own positions only.
        assert!(tables.get(NEAR_MAX_EMPTIES - 1).probe(9).is_some());
        assert!(tables.get(NEAR_MAX_EMPTIES).probe(9).is_none());
        assert!(tables.get(NEAR_MAX_EMPTIES).probe(11).is_some());
        assert!(tables.get(0).probe(11).is_none());
        tables.clear();
        assert!(tables.get(0).probe(9).is_none());
        assert!(tables.get(60).probe(11).is_none());
    }

    #[test]
    fn many_threads_storing_at_once_never_read_another_positions_bounds() {
        // One bucket, so that the threads fight over the same slots; every position's
        // bounds are a function of its hash, so a torn entry would show.
        let table = Table::new(0).unwrap();
        let bounds_of = |key: u64| {
            let lower = (key % 60) as i32 - 30;
            (
                lower,
                lower + (key >> 8) as i32 % 20,
                (key >> 16) as u8 % 64,
            )
        };
        let hits = std::sync::atomic::AtomicU64::new(0);
        std::thread::scope(|s| {
            for t in 0..8u64 {
                let (table, hits) = (&table, &hits);
                s.spawn(move || {
                    let mut rng = crate::rng::Rng::new(t + 1);
                    for _ in 0..200_000 {
                        let key = (1 + rng.next_u64() % 64).wrapping_mul(0x9E37_79B9_7F4A_7C15);
                        let (lower, upper, best) = bounds_of(key);
                        if let Some(hit) = table.probe(key) {
                            assert_eq!((hit.lower, hit.upper, hit.best), (lower, upper, best));
                            hits.fetch_add(1, Relaxed);
                        }
                        table.store(key, 20, lower, upper, best, 1000);
                    }
                });
            }
        });
        assert!(hits.load(Relaxed) > 1000, "the threads met in the table");
    }
}
