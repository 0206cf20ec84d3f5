//! The tables every engine of a process shares, made once: the built-in evaluation weights
//! of every board size, the Multi-ProbCut table, the edge tables of stability and of the
//! classic features. Each is made at its first use through one function (`once`), which
//! counts it; [`prepare`] makes them all, and every [`Engine`](crate::engine::Engine) calls
//! it when it is made, so that no search's clock pays for one: the first search of a board
//! size or of a stage finds its tables made (a fresh process's first 10x10 search decoded
//! its weights inside its time: tens of milliseconds and thousands of fresh pages, more on
//! a loaded machine). [`tables_made`] counts what was made, so that a test can see that
//! searches make none.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::OnceLock;

/// Process-wide tables made so far.
static MADE: AtomicUsize = AtomicUsize::new(0);

/// The table in `cell`, made by `make` if this is its first use (counted in
/// [`tables_made`]).
pub(crate) fn once<T>(cell: &'static OnceLock<T>, make: impl FnOnce() -> T) -> &'static T {
    cell.get_or_init(|| {
        MADE.fetch_add(1, Ordering::Relaxed);
        make()
    })
}

/// Room the other sizes' built-in weights need besides everything else: about 18 MB
/// decoded, with their decoding's buffers and the smallest search tables.
const OTHER_SIZES_ROOM: usize = 32 << 20;

/// Makes every process-wide table that a search of any board size, stage or evaluation
/// uses, unless made already: a few tens of milliseconds once per process, nothing after.
/// Under a limit on memory that leaves less than 32 MiB, the weights of the sizes other
/// than 8x8 are left to their first search, so that an 8x8 session still fits.
pub fn prepare() {
    // The 8x8 weights fail to load only in a broken build; the engine then says so and
    // falls back to the classic evaluation.
    let _ = crate::eval::pattern::PatternEval::embedded();
    crate::eval::features::prepare();
    crate::search::mpc::Table::embedded();
    crate::endgame::prepare();
    match crate::memory::check_available(OTHER_SIZES_ROOM) {
        Ok(()) => {
            for size in crate::board::SIZES {
                crate::eval::grid_pattern::GridPatternEval::built_in(size);
            }
        }
        Err(e) => log::info!("the other sizes' weights are made at their first search: {e}"),
    }
}

/// How many process-wide tables have been made so far in this process. After [`prepare`]
/// (which making an engine does), no search adds to it.
pub fn tables_made() -> usize {
    MADE.load(Ordering::Relaxed)
}
