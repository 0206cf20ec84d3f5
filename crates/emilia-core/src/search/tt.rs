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
//! | bits  | field                                                  |
//! |-------|--------------------------------------------------------|
//! | 0-15  | lower bound, hundredths of a disc (i16; MIN = none)    |
//! | 16-31 | upper bound, hundredths of a disc (i16; MAX = none)    |
//! | 32-39 | best move, square index; 255 = none                   |
//! | 40-47 | depth searched (plies; exact results store empties)    |
//! | 48-53 | search generation (age), modulo 64                     |
//! | 54-56 | selectivity of a search to the end: 0 exact, else level + 1 |
//! | 57    | 1: the slot is in use                                  |
//!
//! Both bounds are kept, as Edax does: the null-window searches of PVS and of ProbCut ask
//! the same position for different windows, and a fail high and a fail low at the same
//! depth together narrow its value, where one bound would overwrite the other.
//!
//! Replacement, within the bucket: the position's own entry keeps a deeper result (a
//! shallower store only marks it as used by the current search: a position's value does
//! not depend on how it was reached, so an earlier search's deeper result stays good);
//! at the same depth and selectivity the bounds merge; otherwise the new result replaces
//! it. A new position takes an empty slot, or else the entry with the lowest
//! `depth - 8 × age`, so stale entries from earlier searches leave first and, among
//! equals, the shallowest.
//!
//! A short search of a fresh table uses only its first part: the pages the background
//! thread has touched, or as much as the search's time pays for touching
//! ([`TOUCH_PER_SECOND`]). The kernel clears each page at its first touch, and a 50 ms
//! search that spread its probes over all of 64 MiB spent most of its time there
//! (docs/experiments.md, First searches of fresh processes).

use std::time::Duration;

use crate::memory::{MemoryError, Slot, TableMemory, Zeroable};

/// Table bytes a search may touch afresh per second of its time limit: at the 1 ms a MiB
/// a busy virtual machine takes, about 3 % of the time.
const TOUCH_PER_SECOND: usize = 32 << 20;

/// The fewest buckets a search uses: one huge page of them.
const MIN_LIVE_BUCKETS: usize = (2 << 20) / std::mem::size_of::<Bucket>();

/// Which side of the true score a stored score lies on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Bound {
    /// The true score is at least the stored one (the search failed high).
    Lower,
    /// The true score is at most the stored one (failed low).
    Upper,
    /// The stored score is the true score at that depth.
    Exact,
}

/// What the table knows of a position: its value lies within `lower..=upper`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Probe {
    /// Lower bound of the score ([`NO_LOWER`] when none).
    pub(crate) lower: i32,
    /// Upper bound of the score ([`NO_UPPER`] when none).
    pub(crate) upper: i32,
    /// Best move found, square index.
    pub(crate) best: Option<usize>,
    /// Depth of the stored search.
    pub(crate) depth: u32,
    /// 0, or for a selective search to the end, its selectivity level plus one.
    pub(crate) selectivity: u8,
}

/// No lower bound (below every score stored).
const NO_LOWER: i16 = i16::MIN;
/// No upper bound (above every score stored).
const NO_UPPER: i16 = i16::MAX;

impl Probe {
    /// The value that settles a search within (`alpha`, `beta`), if the bounds do: a lower
    /// bound at or above `beta`, an upper bound at or below `alpha`, or an exact value.
    pub(crate) fn cut(&self, alpha: i32, beta: i32) -> Option<i32> {
        if self.lower >= beta || self.lower == self.upper {
            Some(self.lower)
        } else if self.upper <= alpha {
            Some(self.upper)
        } else {
            None
        }
    }

    /// The best single guess of the value: the exact value, or a bound the table has.
    pub(crate) fn guess(&self) -> i32 {
        if self.lower > NO_LOWER as i32 {
            self.lower
        } else if self.upper < NO_UPPER as i32 {
            self.upper
        } else {
            0
        }
    }
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
const USED: u64 = 1 << 57;
const GENERATION_SHIFT: u32 = 48;

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
        (lower, upper): (i16, i16),
        best: Option<usize>,
        depth: u32,
        generation: u8,
        selectivity: u8,
    ) -> u64 {
        let best = best.map_or(NO_MOVE, |m| m as u64 & 0xFF);
        lower as u16 as u64
            | (upper as u16 as u64) << 16
            | best << 32
            | (depth.min(255) as u64) << 40
            | ((generation & 63) as u64) << GENERATION_SHIFT
            | ((selectivity & 7) as u64) << 54
            | USED
    }

    fn is_empty(&self) -> bool {
        self.data & USED == 0
    }

    fn bounds(&self) -> (i16, i16) {
        (self.data as u16 as i16, (self.data >> 16) as u16 as i16)
    }

    fn depth(&self) -> u32 {
        (self.data >> 40 & 0xFF) as u32
    }

    fn generation(&self) -> u8 {
        (self.data >> GENERATION_SHIFT & 63) as u8
    }

    fn selectivity(&self) -> u8 {
        (self.data >> 54 & 7) as u8
    }

    /// The data word with its age set to `generation`, all else as it was.
    fn renewed(&self, generation: u8) -> u64 {
        self.data & !(63 << GENERATION_SHIFT) | ((generation & 63) as u64) << GENERATION_SHIFT
    }

    fn best(&self) -> Option<usize> {
        let m = self.data >> 32 & 0xFF;
        (m != NO_MOVE).then_some(m as usize)
    }

    fn probe(&self) -> Probe {
        let (lower, upper) = self.bounds();
        Probe {
            lower: lower as i32,
            upper: upper as i32,
            best: self.best(),
            depth: self.depth(),
            selectivity: self.selectivity(),
        }
    }
}

/// The bounds a search result gives, clamped inside the sentinels.
fn bounds_of(score: i32, bound: Bound) -> (i16, i16) {
    let score = score.clamp(NO_LOWER as i32 + 1, NO_UPPER as i32 - 1) as i16;
    match bound {
        Bound::Lower => (score, NO_UPPER),
        Bound::Upper => (NO_LOWER, score),
        Bound::Exact => (score, score),
    }
}

/// A fixed-size transposition table, shared by the threads of a search: probes and stores
/// take `&self`.
pub(crate) struct TranspositionTable {
    buckets: TableMemory<Bucket>,
    /// The buckets the current search uses, from the first on ([`TranspositionTable::new_search`]).
    live: usize,
    /// The most buckets a search has used since the table was made or cleared: their
    /// pages are backed.
    used: usize,
    generation: u8,
}

impl TranspositionTable {
    /// A table of `mib` mebibytes (at least one bucket).
    ///
    /// # Panics
    ///
    /// If the memory cannot be had.
    #[cfg(test)]
    pub fn new(mib: usize) -> TranspositionTable {
        TranspositionTable::with_bytes(mib << 20).unwrap_or_else(|e| panic!("{e}"))
    }

    /// A table of at most `bytes` bytes (at least one bucket), its pages touched in the
    /// background (see [`crate::memory`]); an error when the memory cannot be had.
    pub(crate) fn with_bytes(bytes: usize) -> Result<TranspositionTable, MemoryError> {
        let buckets = TableMemory::zeroed(bytes / std::mem::size_of::<Bucket>())?;
        buckets.populate_in_background();
        Ok(TranspositionTable {
            live: buckets.len(),
            used: 0,
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
        self.used = 0;
        self.generation = 0;
    }

    /// Marks the start of a new search that may take up to `limit` (`None`: no time
    /// limit): older entries age and are replaced first. The search uses the whole table
    /// unless that would touch more fresh pages than its time pays for; then the largest
    /// half, quarter... of it that is touched or paid for (see the module docs). A change
    /// of that part moves every position's bucket: what earlier searches stored is lost.
    pub(crate) fn new_search(&mut self, limit: Option<Duration>) {
        self.generation = (self.generation + 1) & 63;
        let all = self.buckets.len();
        let affordable = limit.map_or(usize::MAX, |limit| {
            (limit.as_secs_f64() * TOUCH_PER_SECOND as f64) as usize / std::mem::size_of::<Bucket>()
        });
        let usable = self.buckets.ready_len().max(affordable).max(self.used);
        let mut live = all;
        while live > usable && live > MIN_LIVE_BUCKETS {
            live /= 2;
        }
        self.live = live.max(1);
        self.used = self.used.max(self.live);
    }

    /// The buckets the current search uses.
    #[cfg(test)]
    pub(crate) fn live_mib(&self) -> usize {
        (self.live * std::mem::size_of::<Bucket>()) >> 20
    }

    #[inline(always)]
    fn bucket_index(&self, hash: u64) -> usize {
        ((hash as u128 * self.live as u128) >> 64) as usize
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
            let data = if old.depth() > depth {
                if old.generation() == generation {
                    return;
                }
                old.renewed(generation)
            } else {
                let (mut lower, mut upper) = bounds_of(score, bound);
                if old.depth() == depth && old.selectivity() == selectivity {
                    let (old_lower, old_upper) = old.bounds();
                    // Bounds from unstable searches may cross: the newer then stands alone.
                    if lower.max(old_lower) <= upper.min(old_upper) {
                        (lower, upper) = (lower.max(old_lower), upper.min(old_upper));
                    }
                }
                // Keep the old best move when this search found none (an all-node).
                let best = best.or_else(|| old.best());
                Entry::pack((lower, upper), best, depth, generation, selectivity)
            };
            Entry { key: hash, data }.write(&bucket.0[own]);
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
            data: Entry::pack(
                bounds_of(score, bound),
                best,
                depth,
                generation,
                selectivity,
            ),
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
                lower: -1234,
                upper: NO_UPPER as i32,
                best: Some(143),
                depth: 17,
                selectivity: 3
            }
        );
        assert!(tt.probe(43).is_none());
        tt.store(43, -6400, None, 60, Bound::Upper, 0);
        let p = tt.probe(43).expect("stored");
        assert_eq!((p.lower, p.upper, p.best), (NO_LOWER as i32, -6400, None));
    }

    #[test]
    fn bounds_of_the_same_depth_narrow_the_score_together() {
        let tt = TranspositionTable::new(1);
        let bounds = |tt: &TranspositionTable| tt.probe(7).map(|p| (p.lower, p.upper));
        tt.store(7, 100, Some(5), 10, Bound::Lower, 0);
        tt.store(7, 300, None, 10, Bound::Upper, 0);
        assert_eq!(bounds(&tt), Some((100, 300)));
        let p = tt.probe(7).unwrap();
        assert_eq!(p.best, Some(5), "a fail low keeps the move");
        assert_eq!(p.cut(0, 100), Some(100), "fails high");
        assert_eq!(p.cut(300, 301), Some(300), "fails low");
        assert_eq!(p.cut(150, 200), None, "the window lies between the bounds");
        // Either bound alone cuts only its own side.
        tt.store(8, 300, None, 10, Bound::Upper, 0);
        assert_eq!(tt.probe(8).unwrap().cut(0, 100), None);
        // Meeting bounds make the score exact, for any window.
        tt.store(7, 100, None, 10, Bound::Upper, 0);
        assert_eq!(bounds(&tt), Some((100, 100)));
        assert_eq!(tt.probe(7).unwrap().cut(150, 200), Some(100));
        // A bound that contradicts the stored ones (an unstable search) stands alone.
        tt.store(7, 500, None, 10, Bound::Lower, 0);
        assert_eq!(bounds(&tt), Some((500, NO_UPPER as i32)));
        // A deeper result, or one of another selectivity, does not merge with shallower ones.
        tt.store(7, 200, None, 11, Bound::Upper, 0);
        assert_eq!(bounds(&tt), Some((NO_LOWER as i32, 200)));
        tt.store(7, 100, None, 11, Bound::Lower, 2);
        assert_eq!(bounds(&tt), Some((100, NO_UPPER as i32)));
    }

    #[test]
    fn a_shallower_store_keeps_the_deeper_entry_and_the_move() {
        let mut tt = TranspositionTable::new(1);
        tt.store(7, 100, Some(3), 10, Bound::Lower, 0);
        tt.store(7, 50, None, 4, Bound::Exact, 0);
        assert_eq!(tt.probe(7).map(|p| p.depth), Some(10));
        // Also one from an earlier search: a position's value does not change.
        tt.new_search(None);
        tt.store(7, 50, Some(9), 4, Bound::Upper, 0);
        let p = tt.probe(7).expect("stored");
        assert_eq!((p.depth, p.lower, p.best), (10, 100, Some(3)));
    }

    #[test]
    fn a_deeper_entry_met_again_is_kept_as_new() {
        let mut tt = TranspositionTable::new(1);
        let same_bucket: Vec<u64> = (1..=5).collect();
        tt.store(same_bucket[0], 0, None, 10, Bound::Exact, 0);
        for _ in 0..3 {
            tt.new_search(None);
        }
        for &h in &same_bucket[1..4] {
            tt.store(h, 0, None, 2, Bound::Exact, 0);
        }
        // Met by this search (a shallower store), the old deep entry counts as current:
        // the next position in the full bucket takes a shallow one's place.
        tt.store(same_bucket[0], 0, None, 4, Bound::Exact, 0);
        tt.store(same_bucket[4], 0, None, 1, Bound::Exact, 0);
        assert_eq!(tt.probe(same_bucket[0]).map(|p| p.depth), Some(10));
        assert!(tt.probe(same_bucket[4]).is_some());
        let kept = same_bucket[1..4].iter().filter(|&&h| tt.probe(h).is_some());
        assert_eq!(kept.count(), 2);
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
                                (p.lower, p.upper, p.best, p.depth, p.selectivity),
                                (score, score, Some(best), depth, selectivity)
                            );
                            hits.fetch_add(1, Relaxed);
                        }
                        tt.store(hash, score, Some(best), depth, Bound::Exact, selectivity);
                    }
                });
            }
        });
        assert!(hits.load(Relaxed) > 1000, "the threads met in the table");
    }

    #[test]
    fn a_short_search_of_a_fresh_table_keeps_to_what_it_pays_for() {
        // No page is touched in the background while a search runs.
        let _running = crate::memory::SearchRunning::begin();
        let mut tt = TranspositionTable::new(64);
        tt.new_search(Some(Duration::from_millis(50)));
        assert_eq!(tt.live_mib(), 2, "50 ms pay for 1.6 MiB: one huge page");
        tt.new_search(Some(Duration::from_millis(500)));
        assert_eq!(tt.live_mib(), 16, "500 ms pay for 16 MiB");
        // Stored now, found by searches that use that part or more of the table.
        tt.store(99, 100, Some(3), 10, Bound::Exact, 0);
        tt.new_search(Some(Duration::from_millis(50)));
        assert_eq!(tt.live_mib(), 16, "what a search used stays in use");
        assert!(tt.probe(99).is_some());
        tt.new_search(None);
        assert_eq!(tt.live_mib(), 64, "no time limit: the whole table");
        tt.clear();
        tt.new_search(Some(Duration::from_millis(50)));
        assert_eq!(
            tt.live_mib(),
            64,
            "cleared by writing zeros: its pages stay backed"
        );
    }
}
