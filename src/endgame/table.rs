//! The solver's transposition tables: each a fixed-size array of 64-byte buckets, four
//! packed 16-byte entries each, so that one probe touches one cache line; a small one for
//! positions near the end of the game and a large one for the others ([`Tables`]).
//!
//! An entry holds bounds on the exact final score of one position (exact solving has no
//! depth, so bounds from any search of the same position can be merged), the best move
//! found (a square on 8x8, a bit of the board's layout on the other sizes, whose scores
//! reach ±144), and the log2 of the nodes its search took as the cost of recomputing it.
//!
//! Replacement rule, deterministic: a store for a position already in its bucket merges the
//! bounds into that entry; otherwise it takes an unused entry if there is one, else the
//! entry with the lowest priority, where an entry written in an earlier solve (generation)
//! ranks below every entry of the current one and, within a generation, cheaper entries rank
//! lower (ties: the first such entry in the bucket).

/// Marks "no move" in an entry: no square of any board.
pub(crate) const NO_MOVE: u8 = u8::MAX;

#[derive(Clone, Copy, Default)]
#[repr(C)]
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

const ENTRIES_PER_BUCKET: usize = 4;

/// The huge page size of x86-64 Linux, and how many buckets fill one.
const HUGE_PAGE_BYTES: usize = 2 << 20;
const HUGE_PAGE_BUCKETS: usize = HUGE_PAGE_BYTES / std::mem::size_of::<Bucket>();

#[derive(Clone, Copy, Default)]
#[repr(C, align(64))]
struct Bucket([Entry; ENTRIES_PER_BUCKET]);

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

/// A transposition table of fixed size.
pub(crate) struct Table {
    /// The buckets, with room to start the used ones on a huge-page boundary.
    storage: Vec<Bucket>,
    /// Where the used buckets start in `storage`.
    offset: usize,
    /// How many buckets are used (a power of two).
    count: usize,
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
    /// A table of about `mib` mebibytes (rounded down to a power of two buckets, at least one).
    pub(crate) fn new(mib: usize) -> Table {
        let count = bucket_count(mib);
        // Large tables start on a 2 MiB boundary and ask for huge pages: random probes then
        // mostly hit the address translation cache instead of walking page tables.
        let slack = if count >= HUGE_PAGE_BUCKETS {
            HUGE_PAGE_BUCKETS
        } else {
            0
        };
        // Advise before the first write, which is when the kernel chooses the page size.
        let mut storage: Vec<Bucket> = Vec::with_capacity(count + slack);
        let misalignment = storage.as_ptr() as usize % HUGE_PAGE_BYTES;
        let offset = if slack == 0 || misalignment == 0 {
            0
        } else {
            (HUGE_PAGE_BYTES - misalignment) / std::mem::size_of::<Bucket>()
        };
        #[cfg(target_os = "linux")]
        if slack != 0 {
            // SAFETY: the range lies inside `storage`'s allocation, and the advice only
            // changes how the kernel backs it, not its contents.
            unsafe {
                libc::madvise(
                    storage.as_mut_ptr().add(offset) as *mut libc::c_void,
                    count * std::mem::size_of::<Bucket>(),
                    libc::MADV_HUGEPAGE,
                );
            }
        }
        storage.resize(count + slack, Bucket::default());
        Table {
            storage,
            offset,
            count,
            mask: count - 1,
            generation: 1,
        }
    }

    /// The used buckets.
    #[inline(always)]
    fn buckets(&self) -> &[Bucket] {
        &self.storage[self.offset..self.offset + self.count]
    }

    #[inline(always)]
    fn buckets_mut(&mut self) -> &mut [Bucket] {
        &mut self.storage[self.offset..self.offset + self.count]
    }

    /// The table's size in bytes.
    #[cfg(test)]
    pub(crate) fn bytes(&self) -> usize {
        self.count * std::mem::size_of::<Bucket>()
    }

    /// Forgets every entry.
    pub(crate) fn clear(&mut self) {
        self.buckets_mut().fill(Bucket::default());
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
        &mut self,
        key: u64,
        empties: u32,
        lower: i32,
        upper: i32,
        best: u8,
        nodes: u64,
    ) {
        let generation = self.generation;
        let cost = (64 - nodes.leading_zeros()) as u8;
        let index = self.bucket(key);
        let bucket = &mut self.buckets_mut()[index];
        if let Some(entry) = bucket.0.iter_mut().find(|e| e.key == key && e.empties != 0) {
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
            if priority(&bucket.0[i]) < priority(&bucket.0[victim]) {
                victim = i;
            }
        }
        bucket.0[victim] = Entry {
            key,
            lower: lower as i16,
            upper: upper as i16,
            best,
            empties: empties as u8,
            cost,
            generation,
        };
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
    /// half of `mib`, if less).
    pub(crate) fn new(mib: usize) -> Tables {
        Tables {
            deep: Table::new(mib),
            near: Table::new(NEAR_TABLE_MIB.min(mib / 2)),
        }
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

    /// The table for positions with `empties` empty squares, to store into.
    #[inline(always)]
    pub(crate) fn get_mut(&mut self, empties: u32) -> &mut Table {
        if empties < NEAR_MAX_EMPTIES {
            &mut self.near
        } else {
            &mut self.deep
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

    #[test]
    fn entries_pack_four_to_a_cache_line() {
        assert_eq!(std::mem::size_of::<Entry>(), 16);
        assert_eq!(std::mem::size_of::<Bucket>(), 64);
        assert_eq!(std::mem::align_of::<Bucket>(), 64);
        assert_eq!(Table::new(1).bytes(), 1 << 20);
        assert_eq!(Table::new(0).bytes(), 64);
    }

    #[test]
    fn sizes_are_known_before_the_tables_are_made() {
        for mib in [0, 1, 2, 3, 5, 32, 50] {
            assert_eq!(Tables::new(mib).bytes(), Tables::bytes_for(mib), "{mib}");
        }
        assert_eq!(Tables::bytes_for(32), 33 << 20);
        assert_eq!(Tables::bytes_for(50), 33 << 20);
    }

    #[test]
    fn large_tables_start_on_a_huge_page_boundary() {
        let mut table = Table::new(4);
        assert_eq!(table.bytes(), 4 << 20);
        assert_eq!(table.buckets().as_ptr() as usize % HUGE_PAGE_BYTES, 0);
        table.store(7, 20, -2, 64, 3, 10);
        assert_eq!(table.probe(7).map(|hit| hit.lower), Some(-2));
        table.clear();
        assert_eq!(table.probe(7), None);
    }

    #[test]
    fn bounds_of_one_position_merge() {
        let mut table = Table::new(1);
        table.store(42, 12, 4, 64, 19, 1000);
        table.store(42, 12, -64, 10, NO_MOVE, 1000);
        let hit = table.probe(42).unwrap();
        assert_eq!((hit.lower, hit.upper, hit.best), (4, 10, 19));
        assert_eq!(table.probe(43), None);
    }

    #[test]
    fn a_full_bucket_replaces_old_then_cheap_entries() {
        let mut table = Table::new(0); // one bucket
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
        let mut tables = Tables::new(4);
        assert_eq!(tables.bytes(), (4 + NEAR_TABLE_MIB) << 20);
        tables
            .get_mut(NEAR_MAX_EMPTIES - 1)
            .store(9, NEAR_MAX_EMPTIES - 1, 2, 64, 5, 10);
        tables
            .get_mut(NEAR_MAX_EMPTIES)
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
}
