//! The positions the threads of a parallel search are searching now, as in simplified
//! ABDADA (Kerrigan's version of Weill's scheme): a thread marks a child before searching
//! it and clears the mark after, and another thread's move loop puts off a marked child to
//! the end, by when the table usually knows its value. It costs one load per child, a
//! store and a compare-and-swap per child searched, on a table small enough to stay in
//! the caches; a slot holds one position, and a collision only makes a thread search a
//! move now that it might have put off.

use std::sync::atomic::{AtomicU64, Ordering};

/// Positions under search by some thread of a parallel search: one hash key per slot.
pub(super) struct BusyTable(Vec<AtomicU64>);

/// Slots of the busy table.
const BUSY_SLOTS: usize = 1 << 15;

/// Children are shared out through the busy table from this depth on: shallower subtrees
/// cost less than the look (other depths: docs/experiments.md, Threads).
pub(super) const BUSY_MIN_DEPTH: u32 = 4;

impl BusyTable {
    pub(super) fn new() -> BusyTable {
        BusyTable((0..BUSY_SLOTS).map(|_| AtomicU64::new(0)).collect())
    }

    #[inline]
    fn slot(&self, key: u64) -> &AtomicU64 {
        &self.0[key as usize & (BUSY_SLOTS - 1)]
    }

    #[inline]
    pub(super) fn is_busy(&self, key: u64) -> bool {
        self.slot(key).load(Ordering::Relaxed) == key
    }

    #[inline]
    pub(super) fn enter(&self, key: u64) {
        self.slot(key).store(key, Ordering::Relaxed);
    }

    #[inline]
    pub(super) fn leave(&self, key: u64) {
        let _ = self
            .slot(key)
            .compare_exchange(key, 0, Ordering::Relaxed, Ordering::Relaxed);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_busy_table_holds_a_position_until_its_searcher_leaves() {
        let busy = BusyTable::new();
        let key = 0x1234_5678_9ABC_DEF0;
        assert!(!busy.is_busy(key));
        busy.enter(key);
        assert!(busy.is_busy(key));
        // Another position of the same slot is not taken for this one...
        let same_slot = key ^ (1 << 40);
        assert!(!busy.is_busy(same_slot));
        // ...and once it takes the slot, the first searcher's leaving does not free it.
        busy.enter(same_slot);
        busy.leave(key);
        assert!(busy.is_busy(same_slot));
        busy.leave(same_slot);
        assert!(!busy.is_busy(same_slot) && !busy.is_busy(key));
    }
}
