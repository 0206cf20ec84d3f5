//! The transposition table: what earlier searches learned about positions, kept between
//! moves and games so that each search starts warm.
//!
//! Layout: one flat array of 64-byte buckets (one cache line), each holding four 16-byte
//! entries. A position's bucket is chosen from its 64-bit hash by multiply-shift, so any
//! size works, not only powers of two. An entry is two 64-bit words: one packed data word
//! and the full hash (to recognise the position) XORed with it, so that all search threads
//! share the table without locks: each word is written and read atomically, and an entry
//! torn by two threads writing at once no longer matches its position's hash (the key
//! word checks the data word), so it reads as a miss rather than as wrong data.
//!
//! The data word:
//!
//! | bits  | field                                             |
//! |-------|---------------------------------------------------|
//! | 0-15  | score, hundredths of a disc (i16)                 |
//! | 16-23 | best move, square index; 255 = none              |
//! | 24-31 | depth searched (plies; exact results store empties) |
//! | 32-33 | bound: 1 lower, 2 upper, 3 exact (0 = empty slot) |
//! | 34-39 | search generation (age), modulo 64                |
//! | 40-42 | selectivity of a search to the end: 0 exact, else level + 1 |
//!
//! Replacement, within the bucket: the position's own entry is overwritten unless it holds
//! a deeper result from the current search and the new one is not exact (a shallower
//! store must not erase a deeper one); otherwise an empty slot is taken; otherwise the
//! entry with the lowest `depth - 8 × age` goes, so stale entries from earlier searches
//! leave first and, among equals, the shallowest.

use crate::memory::{MemoryError, Slot, TableMemory, Zeroable};

/// Which side of the true score a stored score lies on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Bound {
    /// The true score is at least the stored one (the search failed high).
    Lower = 1,
    /// The true score is at most the stored one (failed low).
    Upper = 2,
    /// The stored score is the true score at that depth.
    Exact = 3,
}

/// What the table knows about a position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Probe {
    /// Stored score.
    pub(crate) score: i32,
    /// Best move found, square index.
    pub(crate) best: Option<usize>,
    /// Depth of the stored search.
    pub(crate) depth: u32,
    /// Kind of bound.
    pub(crate) bound: Bound,
    /// 0, or for a selective search to the end, its selectivity level plus one.
    pub(crate) selectivity: u8,
}

/// An entry as read from a slot: the position's hash and the data word.
#[derive(Clone, Copy)]
struct Entry {
    key: u64,
    data: u64,
}

#[derive(Clone, Default)]
#[repr(C, align(64))]
struct Bucket([Slot; 4]);

// SAFETY: an all-zero bucket holds four empty entries (bound bits 0).
unsafe impl Zeroable for Bucket {}

const NO_MOVE: u64 = 255;

impl Entry {
    #[inline(always)]
    fn read(slot: &Slot) -> Entry {
        let (key, data) = slot.read();
        Entry { key, data }
    }

    #[inline(always)]
    fn write(self, slot: &Slot) {
        slot.write(self.key, self.data);
    }

    fn pack(
        score: i32,
        best: Option<usize>,
        depth: u32,
        bound: Bound,
        generation: u8,
        selectivity: u8,
    ) -> u64 {
        let score = score.clamp(i16::MIN as i32, i16::MAX as i32) as i16 as u16 as u64;
        let best = best.map_or(NO_MOVE, |m| m as u64 & 0xFF);
        score
            | best << 16
            | (depth.min(255) as u64) << 24
            | (bound as u64) << 32
            | ((generation & 63) as u64) << 34
            | ((selectivity & 7) as u64) << 40
    }

    fn is_empty(&self) -> bool {
        self.bound_bits() == 0
    }

    fn bound_bits(&self) -> u64 {
        self.data >> 32 & 3
    }

    fn depth(&self) -> u32 {
        (self.data >> 24 & 0xFF) as u32
    }

    fn generation(&self) -> u8 {
        (self.data >> 34 & 63) as u8
    }

    fn best(&self) -> Option<usize> {
        let m = self.data >> 16 & 0xFF;
        (m != NO_MOVE).then_some(m as usize)
    }

    fn probe(&self) -> Probe {
        Probe {
            score: self.data as u16 as i16 as i32,
            best: self.best(),
            depth: self.depth(),
            bound: match self.bound_bits() {
                1 => Bound::Lower,
                2 => Bound::Upper,
                _ => Bound::Exact,
            },
            selectivity: (self.data >> 40 & 7) as u8,
        }
    }
}

/// A fixed-size transposition table, shared by the threads of a search: probes and stores
/// take `&self`.
pub struct TranspositionTable {
    buckets: TableMemory<Bucket>,
    generation: u8,
}

impl TranspositionTable {
    /// A table of `mib` mebibytes (at least one bucket).
    ///
    /// # Panics
    ///
    /// If the memory cannot be had.
    pub fn new(mib: usize) -> TranspositionTable {
        TranspositionTable::with_bytes(mib << 20).unwrap_or_else(|e| panic!("{e}"))
    }

    /// A table of at most `bytes` bytes (at least one bucket), its pages touched in the
    /// background (see [`crate::memory`]); an error when the memory cannot be had.
    pub(crate) fn with_bytes(bytes: usize) -> Result<TranspositionTable, MemoryError> {
        let buckets = TableMemory::zeroed(bytes / std::mem::size_of::<Bucket>())?;
        buckets.populate_in_background();
        Ok(TranspositionTable {
            buckets,
            generation: 0,
        })
    }

    /// Size in mebibytes.
    #[cfg(test)]
    pub(crate) fn mib(&self) -> usize {
        (self.buckets.len() * std::mem::size_of::<Bucket>()) >> 20
    }

    /// Forgets everything.
    pub(crate) fn clear(&mut self) {
        self.buckets.clear();
        self.generation = 0;
    }

    /// Marks the start of a new search: older entries age and are replaced first.
    pub(crate) fn new_search(&mut self) {
        self.generation = (self.generation + 1) & 63;
    }

    #[inline(always)]
    fn bucket_index(&self, hash: u64) -> usize {
        ((hash as u128 * self.buckets.len() as u128) >> 64) as usize
    }

    /// Brings the bucket of `hash` towards the cache ahead of use.
    #[inline(always)]
    pub(crate) fn prefetch(&self, hash: u64) {
        #[cfg(target_arch = "x86_64")]
        // SAFETY: prefetching is a hint that never faults; the pointer is in bounds.
        unsafe {
            use std::arch::x86_64::{_mm_prefetch, _MM_HINT_T0};
            let bucket = self.buckets.as_ptr().add(self.bucket_index(hash));
            _mm_prefetch(bucket as *const i8, _MM_HINT_T0);
        }
        #[cfg(not(target_arch = "x86_64"))]
        let _ = hash;
    }

    /// What is stored about the position with `hash`, if anything.
    #[inline]
    pub(crate) fn probe(&self, hash: u64) -> Option<Probe> {
        let bucket = &self.buckets[self.bucket_index(hash)];
        bucket
            .0
            .iter()
            .map(Entry::read)
            .find(|e| e.key == hash && !e.is_empty())
            .map(|e| e.probe())
    }

    /// Stores a search result for the position with `hash`.
    #[inline]
    pub(crate) fn store(
        &self,
        hash: u64,
        score: i32,
        best: Option<usize>,
        depth: u32,
        bound: Bound,
        selectivity: u8,
    ) {
        let generation = self.generation;
        let bucket = &self.buckets[self.bucket_index(hash)];
        let entries = [
            Entry::read(&bucket.0[0]),
            Entry::read(&bucket.0[1]),
            Entry::read(&bucket.0[2]),
            Entry::read(&bucket.0[3]),
        ];
        let age = |e: &Entry| (generation.wrapping_sub(e.generation()) & 63) as i32;
        if let Some(own) = entries.iter().position(|e| e.key == hash && !e.is_empty()) {
            let old = &entries[own];
            if old.depth() > depth && old.generation() == generation && bound != Bound::Exact {
                return;
            }
            // Keep the old best move when this search found none (an all-node).
            let best = best.or_else(|| old.best());
            Entry {
                key: hash,
                data: Entry::pack(score, best, depth, bound, generation, selectivity),
            }
            .write(&bucket.0[own]);
            return;
        }
        let victim = match entries.iter().position(Entry::is_empty) {
            Some(empty) => empty,
            None => (0..4)
                .min_by_key(|&i| entries[i].depth() as i32 - 8 * age(&entries[i]))
                .unwrap_or(0),
        };
        Entry {
            key: hash,
            data: Entry::pack(score, best, depth, bound, generation, selectivity),
        }
        .write(&bucket.0[victim]);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::Ordering::Relaxed;

    #[test]
    fn entries_round_trip_and_negative_scores_survive_packing() {
        let tt = TranspositionTable::new(1);
        tt.store(42, -1234, Some(143), 17, Bound::Lower, 3);
        let p = tt.probe(42).expect("stored");
        assert_eq!(
            p,
            Probe {
                score: -1234,
                best: Some(143),
                depth: 17,
                bound: Bound::Lower,
                selectivity: 3
            }
        );
        assert!(tt.probe(43).is_none());
    }

    #[test]
    fn a_shallower_store_keeps_the_deeper_entry_and_the_move() {
        let mut tt = TranspositionTable::new(1);
        tt.store(7, 100, Some(3), 10, Bound::Exact, 0);
        tt.store(7, 50, None, 4, Bound::Upper, 0);
        assert_eq!(tt.probe(7).map(|p| p.depth), Some(10));
        tt.new_search();
        tt.store(7, 50, None, 4, Bound::Upper, 0);
        let p = tt.probe(7).expect("stored");
        assert_eq!((p.depth, p.best), (4, Some(3)));
    }

    #[test]
    fn a_full_bucket_replaces_old_shallow_entries_first() {
        let tt = TranspositionTable::new(1);
        // Small hashes all land in bucket 0 (the index is the hash's top bits).
        let same_bucket: Vec<u64> = (1..=5).collect();
        assert!(same_bucket.iter().all(|&h| tt.bucket_index(h) == 0));
        for (i, &h) in same_bucket[..4].iter().enumerate() {
            tt.store(h, 0, None, 10 + i as u32, Bound::Exact, 0);
        }
        tt.store(same_bucket[4], 0, None, 1, Bound::Exact, 0);
        assert!(tt.probe(same_bucket[0]).is_none(), "shallowest went");
        assert!(tt.probe(same_bucket[4]).is_some());
        for &h in &same_bucket[1..4] {
            assert!(tt.probe(h).is_some());
        }
    }

    #[test]
    fn many_threads_storing_at_once_never_read_another_positions_data() {
        // A small table, so that the threads fight over the same buckets and slots; every
        // position's data is a function of its hash, so a torn entry would show.
        let tt = TranspositionTable::with_bytes(64 * 16).unwrap();
        let data_of = |hash: u64| {
            let score = (hash % 20_000) as i32 - 10_000;
            let best = (hash >> 20) as usize % 64;
            let depth = 1 + (hash >> 30) as u32 % 60;
            let selectivity = (hash >> 40) as u8 % 8;
            (score, best, depth, selectivity)
        };
        let threads = 8;
        let hits = std::sync::atomic::AtomicU64::new(0);
        std::thread::scope(|s| {
            for t in 0..threads {
                let (tt, hits) = (&tt, &hits);
                s.spawn(move || {
                    let mut rng = crate::rng::Rng::new(t + 1);
                    for _ in 0..200_000 {
                        // Few distinct positions: the same ones come back often.
                        let hash = (rng.next_u64() % 512).wrapping_mul(0x9E37_79B9_7F4A_7C15);
                        let (score, best, depth, selectivity) = data_of(hash);
                        if let Some(p) = tt.probe(hash) {
                            assert_eq!(
                                (p.score, p.best, p.depth, p.selectivity),
                                (score, Some(best), depth, selectivity)
                            );
                            assert_eq!(p.bound, Bound::Exact);
                            hits.fetch_add(1, Relaxed);
                        }
                        tt.store(hash, score, Some(best), depth, Bound::Exact, selectivity);
                    }
                });
            }
        });
        assert!(hits.load(Relaxed) > 1000, "the threads met in the table");
    }
}
