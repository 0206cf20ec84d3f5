//! Every search table exists before any search's clock starts: a fresh engine's first
//! exact solve makes no table of its own (before, it allocated and zero-filled the solver's
//! 32 MiB inside the timed search, and a 110 ms clock move took 0.24 s with the default
//! `hash`, 2.4 s with `hash 1024`). A test binary of its own, for its counting allocator.

use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

use emilia_core::board::Position;
use emilia_core::engine::{Config, Engine};
use emilia_core::search::{Clock, Limits};

/// The system allocator, remembering the largest block asked for.
struct Counting;

static LARGEST: AtomicUsize = AtomicUsize::new(0);

// SAFETY: every call is passed on to the system allocator unchanged.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        LARGEST.fetch_max(layout.size(), Ordering::Relaxed);
        // SAFETY: the caller's layout, as the caller promised.
        unsafe { System.alloc(layout) }
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        LARGEST.fetch_max(layout.size(), Ordering::Relaxed);
        // SAFETY: as above.
        unsafe { System.alloc_zeroed(layout) }
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: as above.
        unsafe { System.dealloc(ptr, layout) }
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        LARGEST.fetch_max(new_size, Ordering::Relaxed);
        // SAFETY: as above.
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}

#[global_allocator]
static ALLOCATOR: Counting = Counting;

#[test]
fn the_first_exact_solve_makes_no_table_on_the_clock() {
    // protocol.md's 14-empty example: a 110 ms clock hands it to the solver at once.
    let position: Position = "-OOOOOO---OOOO-XXXOOXXXX-OOXXOOX-OXOOOXX-XXXXXXX--OOXX-X-OOOO-X- X"
        .parse()
        .unwrap();
    for hash in [64, 256] {
        let mut engine = Engine::new(Config {
            hash_mib: hash,
            ..Config::default()
        })
        .unwrap();
        LARGEST.store(0, Ordering::Relaxed);
        let limits = Limits {
            clock: Some(Clock::sudden_death(Duration::from_millis(110))),
            ..Limits::default()
        };
        // Whether the solve finishes in time depends on the machine's load; it starts
        // either way (the time manager hands 14 empties to the solver).
        let report = engine.search(&position, &limits, &mut |_| {});
        assert!(position.legal_moves().contains(&report.best));
        // The evaluation's tables are laid out when the program is built; the search
        // tables are 32 MiB and more.
        let largest = LARGEST.load(Ordering::Relaxed);
        assert!(
            largest < 2 << 20,
            "hash {hash}: the search allocated a block of {largest} bytes"
        );
    }
}
