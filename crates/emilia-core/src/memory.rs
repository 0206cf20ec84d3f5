//! Memory for the search tables: taken zero-filled and fallibly, before any clock runs.
//!
//! A table is mapped from the operating system as zero pages: asking for it costs nothing
//! however large, and a size that cannot be had is an error the caller can report
//! ([`MemoryError`]), never an abort. What costs time is the first touch of each page (the
//! kernel clears it; a virtual machine may also have to back it): about 3 ms per MiB on a
//! busy virtual machine, seconds for a few GiB. Doing that inside a search would spend the
//! search's clock on it, and doing it before answering would leave a GUI waiting in silence,
//! so a background thread touches the pages
//! between the moment a table is made and its
//! first searches; a search that comes first simply touches the pages it needs itself.
//! While a search runs the thread waits: each of its calls holds the
//! process's memory map, and on a busy machine a search that maps memory meanwhile (a
//! thread's stack, an evaluation table) waited for it, tens of milliseconds a call.
//!
//! Before mapping, the size is checked against the memory the system says is available:
//! an over-committed table would be killed at its first touch, which is worse than a clear
//! refusal. Tables of 2 MiB and more start on a 2 MiB boundary and ask for huge pages, so
//! that random probes mostly hit the address translation cache.

use std::fmt;
use std::marker::PhantomData;
use std::ops::{Deref, DerefMut};
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::Duration;

/// Types whose all-zero bytes are a valid value (for a table entry: an empty one).
///
/// # Safety
///
/// Implementors must accept every byte being zero as a valid value, and need no drop (the
/// memory is given back without dropping its values): plain numbers, atomics, and arrays
/// and structs of them.
pub(crate) unsafe trait Zeroable {}

/// One entry of a table shared by threads without locks: two 64-bit words, the position's
/// hash XOR the data word, and the data word. A read that races a write sees a key that
/// matches no position (the two words come from different entries), so a torn entry is
/// never taken for a position's own.
#[derive(Default)]
pub(crate) struct Slot {
    key: AtomicU64,
    data: AtomicU64,
}

impl Clone for Slot {
    fn clone(&self) -> Slot {
        Slot {
            key: AtomicU64::new(self.key.load(Ordering::Relaxed)),
            data: AtomicU64::new(self.data.load(Ordering::Relaxed)),
        }
    }
}

impl Slot {
    /// The entry as read now: its hash (recovered from the key word) and its data word.
    #[inline(always)]
    pub(crate) fn read(&self) -> (u64, u64) {
        let data = self.data.load(Ordering::Relaxed);
        (self.key.load(Ordering::Relaxed) ^ data, data)
    }

    /// Stores the entry of hash `key` with `data`.
    #[inline(always)]
    pub(crate) fn write(&self, key: u64, data: u64) {
        self.key.store(key ^ data, Ordering::Relaxed);
        self.data.store(data, Ordering::Relaxed);
    }
}

// SAFETY: two atomics; all-zero is the empty entry of both tables.
unsafe impl Zeroable for Slot {}

// SAFETY: a number.
unsafe impl Zeroable for i16 {}

/// Why a table could not be had.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MemoryError {
    /// More than the system has available.
    Unavailable {
        /// Bytes asked for.
        wanted: usize,
        /// Bytes the system says are available.
        available: usize,
    },
    /// The operating system refused the mapping.
    Refused {
        /// Bytes asked for.
        wanted: usize,
        /// The system's reason.
        reason: String,
    },
}

impl fmt::Display for MemoryError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mib = |bytes: usize| bytes.div_ceil(1 << 20);
        match self {
            MemoryError::Unavailable { wanted, available } => write!(
                f,
                "cannot have {} MiB of tables: the system has {} MiB available",
                mib(*wanted),
                mib(*available)
            ),
            MemoryError::Refused { wanted, reason } => {
                write!(f, "cannot have {} MiB of tables: {reason}", mib(*wanted))
            }
        }
    }
}

impl std::error::Error for MemoryError {}

/// The huge page size of x86-64 and arm64 Linux.
const HUGE_PAGE_BYTES: usize = 2 << 20;

/// Tables at least this large are cleared by giving their pages back (writing zeros over
/// them would take a noticeable time: about 0.1 s a GiB).
#[cfg_attr(not(target_os = "linux"), allow(dead_code))]
const DISCARD_BYTES: usize = 256 << 20;

/// How much the background thread touches at a time: one huge page. The kernel holds the
/// process's memory map for the duration of each call, and a search that maps memory (or
/// faults on a page while another thread waits to) waits for it: a large chunk made
/// moves late by seconds under load.
#[cfg_attr(not(target_os = "linux"), allow(dead_code))]
const POPULATE_CHUNK: usize = HUGE_PAGE_BYTES;

/// The stack of a thread that touches tables: it only asks the kernel, so a small one does,
/// and under a limit on the address space the tables made after it fit as they should.
const POPULATE_STACK: usize = 64 << 10;

/// Searches running in the process: while there is one, background touching waits.
static SEARCHES_RUNNING: AtomicUsize = AtomicUsize::new(0);

/// How often waiting background touching looks whether the searches have ended.
#[cfg_attr(not(target_os = "linux"), allow(dead_code))]
const POPULATE_WAIT: Duration = Duration::from_millis(1);

/// Held while a search runs: tables' pages are touched in the background only between
/// searches (see the module docs).
pub(crate) struct SearchRunning(());

impl SearchRunning {
    /// Marks a search as running until the result is dropped.
    pub(crate) fn begin() -> SearchRunning {
        SEARCHES_RUNNING.fetch_add(1, Ordering::SeqCst);
        SearchRunning(())
    }
}

impl Drop for SearchRunning {
    fn drop(&mut self) {
        SEARCHES_RUNNING.fetch_sub(1, Ordering::SeqCst);
    }
}

/// A zero-filled array of `T` for a search table.
pub(crate) struct TableMemory<T: Zeroable> {
    region: Arc<Region>,
    len: usize,
    _marker: PhantomData<T>,
}

/// The mapping behind a [`TableMemory`], shared with the thread that touches it; unmapped
/// when the last owner drops it.
struct Region {
    start: *mut u8,
    bytes: usize,
    /// The mapping: `start` on, or before it for small tables (large ones give their
    /// alignment slack back).
    mapped: *mut u8,
    mapped_bytes: usize,
    /// Set when the table is dropped or cleared: a touching thread stops.
    abandoned: AtomicBool,
    /// Bytes from `start` on whose pages are backed already (a hint of cost only: every
    /// byte of the table is valid whether backed or not).
    ready: AtomicUsize,
}

// SAFETY: the region is plain memory; the table that owns it hands out references only
// through `&self`/`&mut self`, and the touching thread never reads or writes it (it asks
// the kernel to back pages, which leaves their contents as they are).
unsafe impl Send for Region {}
// SAFETY: as for Send.
unsafe impl Sync for Region {}

/// Whether a search table of `mib` MiB can be had, by a trial mapping that touches no
/// page: refused as the engine's tables would be (otherwise ending in a quietly smaller
/// table, or a panic).
pub fn check_table_mib(mib: usize) -> Result<(), MemoryError> {
    let slots = mib.saturating_mul(1 << 20) / std::mem::size_of::<Slot>();
    TableMemory::<Slot>::zeroed(slots).map(drop)
}

impl<T: Zeroable> TableMemory<T> {
    /// `len` (at least one) zeroed values, or why they cannot be had.
    pub(crate) fn zeroed(len: usize) -> Result<TableMemory<T>, MemoryError> {
        let len = len.max(1);
        let wanted = len
            .checked_mul(std::mem::size_of::<T>())
            .ok_or(MemoryError::Refused {
                wanted: usize::MAX,
                reason: "larger than the address space".to_string(),
            })?;
        check_available(wanted)?;
        assert!(std::mem::align_of::<T>() <= 4096, "page-aligned at most");
        let region = Region::map(wanted)?;
        Ok(TableMemory {
            region: Arc::new(region),
            len,
            _marker: PhantomData,
        })
    }

    /// How many values from the first on have their pages backed already: a search that
    /// keeps to them touches no new page (see [`TableMemory::populate_in_background`]).
    /// All of them where nothing touches pages in the background.
    pub(crate) fn ready_len(&self) -> usize {
        let ready = self.region.ready.load(Ordering::Relaxed) / std::mem::size_of::<T>();
        ready.min(self.len)
    }

    /// Touches every page in a background thread, so that searches find
    /// them ready (see the module docs); stops early if the table is dropped or cleared.
    pub(crate) fn populate_in_background(&self) {
        let region = Arc::clone(&self.region);
        if region.bytes < HUGE_PAGE_BYTES || !cfg!(target_os = "linux") {
            // A few hundred pages at most: the searches touch them at little cost.
            region.ready.store(region.bytes, Ordering::Relaxed);
            return;
        }
        let spawned = std::thread::Builder::new()
            .name("table-populate".into())
            .stack_size(POPULATE_STACK)
            .spawn(move || region.populate());
        if let Err(e) = spawned {
            log::debug!("no thread to touch the tables ({e}): searches will touch them");
            self.region
                .ready
                .store(self.region.bytes, Ordering::Relaxed);
        }
    }

    /// Sets every value back to zero: tables of [`DISCARD_BYTES`] and more get fresh zero
    /// pages (instant), touched again in the background, instead of being written over;
    /// smaller ones are written over, which keeps their pages (touching them afresh costs
    /// a search more than the writing).
    pub(crate) fn clear(&mut self) {
        if !self.region.discard() {
            // SAFETY: all-zero bytes are a valid `T`; the range is the table's own.
            unsafe { std::ptr::write_bytes(self.region.start as *mut T, 0, self.len) };
            self.region
                .ready
                .store(self.region.bytes, Ordering::Relaxed);
        }
    }
}

impl<T: Zeroable> Deref for TableMemory<T> {
    type Target = [T];

    #[inline(always)]
    fn deref(&self) -> &[T] {
        // SAFETY: the region holds `len` zero-initialised (so valid) `T`s, suitably aligned,
        // and lives as long as `self`.
        unsafe { std::slice::from_raw_parts(self.region.start as *const T, self.len) }
    }
}

impl<T: Zeroable> DerefMut for TableMemory<T> {
    #[inline(always)]
    fn deref_mut(&mut self) -> &mut [T] {
        // SAFETY: as for `deref`; `&mut self` makes this the only reference.
        unsafe { std::slice::from_raw_parts_mut(self.region.start as *mut T, self.len) }
    }
}

impl<T: Zeroable> Drop for TableMemory<T> {
    fn drop(&mut self) {
        self.region.abandoned.store(true, Ordering::Relaxed);
    }
}

impl Region {
    #[cfg(unix)]
    fn map(bytes: usize) -> Result<Region, MemoryError> {
        let huge = bytes >= HUGE_PAGE_BYTES;
        let slack = if huge { HUGE_PAGE_BYTES } else { 0 };
        let refused = |reason: String| MemoryError::Refused {
            wanted: bytes,
            reason,
        };
        let mapped_bytes = bytes
            .checked_add(slack)
            .ok_or_else(|| refused("larger than the address space".to_string()))?;
        // SAFETY: an anonymous private mapping at an address of the kernel's choosing
        // touches no existing memory.
        let mapped = unsafe {
            libc::mmap(
                std::ptr::null_mut(),
                mapped_bytes,
                libc::PROT_READ | libc::PROT_WRITE,
                libc::MAP_PRIVATE | libc::MAP_ANONYMOUS,
                -1,
                0,
            )
        };
        if mapped == libc::MAP_FAILED {
            return Err(refused(std::io::Error::last_os_error().to_string()));
        }
        let mapped = mapped as *mut u8;
        let offset = (HUGE_PAGE_BYTES - mapped as usize % HUGE_PAGE_BYTES) % HUGE_PAGE_BYTES;
        let start = if huge {
            mapped.wrapping_add(offset)
        } else {
            mapped
        };
        // The slack around the aligned range goes back, so that the address space used is
        // the table's (a limit on it then sees what was asked for).
        let (mapped, mapped_bytes) = if huge {
            // munmap takes only whole pages: the tail starts at the page after the table's.
            // SAFETY: sysconf reads a constant of the system.
            let page = unsafe { libc::sysconf(libc::_SC_PAGESIZE) }.max(1) as usize;
            let tail = offset + bytes.div_ceil(page) * page;
            // SAFETY: both ranges lie inside the mapping and outside the table's range;
            // nothing refers to them.
            unsafe {
                if offset > 0 {
                    libc::munmap(mapped as *mut libc::c_void, offset);
                }
                if tail < mapped_bytes {
                    libc::munmap(mapped.add(tail) as *mut libc::c_void, mapped_bytes - tail);
                }
            }
            (start, bytes)
        } else {
            (mapped, mapped_bytes)
        };
        #[cfg(target_os = "linux")]
        if huge {
            // SAFETY: the range lies inside the mapping; the advice changes only how the
            // kernel backs it, not its contents.
            unsafe { libc::madvise(start as *mut libc::c_void, bytes, libc::MADV_HUGEPAGE) };
        }
        Ok(Region {
            start,
            bytes,
            mapped,
            mapped_bytes,
            abandoned: AtomicBool::new(false),
            ready: AtomicUsize::new(0),
        })
    }

    #[cfg(not(unix))]
    fn map(bytes: usize) -> Result<Region, MemoryError> {
        let layout =
            std::alloc::Layout::from_size_align(bytes, 4096).map_err(|e| MemoryError::Refused {
                wanted: bytes,
                reason: e.to_string(),
            })?;
        // SAFETY: the layout has a non-zero size.
        let start = unsafe { std::alloc::alloc_zeroed(layout) };
        if start.is_null() {
            return Err(MemoryError::Refused {
                wanted: bytes,
                reason: "the allocator has no memory".to_string(),
            });
        }
        Ok(Region {
            start,
            bytes,
            mapped: start,
            mapped_bytes: bytes,
            abandoned: AtomicBool::new(false),
            ready: AtomicUsize::new(0),
        })
    }

    /// Backs every page, chunk by chunk, unless abandoned meanwhile; only while no search
    /// runs.
    fn populate(&self) {
        #[cfg(target_os = "linux")]
        {
            let mut done = 0;
            while done < self.bytes && !self.abandoned.load(Ordering::Relaxed) {
                if SEARCHES_RUNNING.load(Ordering::SeqCst) > 0 {
                    std::thread::sleep(POPULATE_WAIT);
                    continue;
                }
                let chunk = POPULATE_CHUNK.min(self.bytes - done);
                // SAFETY: the range lies inside the mapping, which this thread keeps alive;
                // populating backs pages without changing what they hold.
                let result = unsafe {
                    libc::madvise(
                        self.start.add(done) as *mut libc::c_void,
                        chunk,
                        libc::MADV_POPULATE_WRITE,
                    )
                };
                if result != 0 {
                    // Kernels before 5.14 do not know the advice: searches touch the pages.
                    self.ready.store(self.bytes, Ordering::Relaxed);
                    return;
                }
                done += chunk;
                self.ready.fetch_max(done, Ordering::Relaxed);
            }
        }
    }

    /// Replaces the pages by fresh zero pages and touches them again in the background;
    /// false where that is not possible (the caller then writes zeros).
    fn discard(self: &Arc<Self>) -> bool {
        #[cfg(target_os = "linux")]
        if self.bytes >= DISCARD_BYTES {
            // SAFETY: the range lies inside the mapping; the caller holds the only
            // reference to its contents, which become zeros.
            let result = unsafe {
                libc::madvise(
                    self.start as *mut libc::c_void,
                    self.bytes,
                    libc::MADV_DONTNEED,
                )
            };
            if result == 0 {
                self.ready.store(0, Ordering::Relaxed);
                let region = Arc::clone(self);
                let spawned = std::thread::Builder::new()
                    .name("table-populate".into())
                    .stack_size(POPULATE_STACK)
                    .spawn(move || region.populate());
                if spawned.is_err() {
                    self.ready.store(self.bytes, Ordering::Relaxed);
                }
                return true;
            }
        }
        false
    }
}

impl Drop for Region {
    fn drop(&mut self) {
        #[cfg(unix)]
        // SAFETY: the mapping was made by `map` and nothing refers to it any more.
        unsafe {
            libc::munmap(self.mapped as *mut libc::c_void, self.mapped_bytes);
        }
        #[cfg(not(unix))]
        // SAFETY: allocated by `map` with this layout.
        unsafe {
            std::alloc::dealloc(
                self.mapped,
                std::alloc::Layout::from_size_align_unchecked(self.mapped_bytes, 4096),
            );
        }
    }
}

/// Fails when `bytes` are more than the system has available (when it says).
pub(crate) fn check_available(bytes: usize) -> Result<(), MemoryError> {
    match available_bytes() {
        Some(available) if bytes > available => Err(MemoryError::Unavailable {
            wanted: bytes,
            available,
        }),
        _ => Ok(()),
    }
}

/// The memory the system says can be had without swapping (`MemAvailable`), if known,
/// and at most what a limit on the process's address space (`ulimit -v`) leaves of it
/// besides [`ADDRESS_SPACE_HEADROOM`].
fn available_bytes() -> Option<usize> {
    let system = std::fs::read_to_string("/proc/meminfo")
        .ok()
        .and_then(|text| parse_available(&text));
    match (system, address_space_left()) {
        (Some(system), Some(left)) => Some(system.min(left)),
        (system, left) => system.or(left),
    }
}

/// What a limit on the address space must leave besides the tables: thread stacks (2 MiB
/// each), the heap, and the evaluations' tables made later. Without it, tables sized to
/// the limit left no room for a thread or a small allocation, and the process aborted.
#[cfg_attr(not(target_os = "linux"), allow(dead_code))]
const ADDRESS_SPACE_HEADROOM: usize = 16 << 20;

/// Under a limit on the address space, keeps the allocator to one arena: by default each
/// thread that allocates may reserve 64 MiB of address space of its own, so that what is
/// left for the tables changed with the threads' timing, and an allocation could fail
/// anywhere after them.
pub fn fit_allocator_to_address_limit() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    if address_space_left().is_some() {
        // SAFETY: mallopt only sets an allocator parameter.
        unsafe { libc::mallopt(libc::M_ARENA_MAX, 1) };
    }
}

/// The address space left below the process's limit, less [`ADDRESS_SPACE_HEADROOM`];
/// `None` without a limit.
fn address_space_left() -> Option<usize> {
    #[cfg(target_os = "linux")]
    {
        let mut limit = libc::rlimit {
            rlim_cur: 0,
            rlim_max: 0,
        };
        // SAFETY: getrlimit writes the struct it is given.
        if unsafe { libc::getrlimit(libc::RLIMIT_AS, &mut limit) } != 0
            || limit.rlim_cur == libc::RLIM_INFINITY
        {
            return None;
        }
        let status = std::fs::read_to_string("/proc/self/status").ok()?;
        let used = parse_kib(&status, "VmSize:")?;
        let limit = usize::try_from(limit.rlim_cur).unwrap_or(usize::MAX);
        Some(
            limit
                .saturating_sub(used)
                .saturating_sub(ADDRESS_SPACE_HEADROOM),
        )
    }
    #[cfg(not(target_os = "linux"))]
    None
}

/// The value in bytes of the `field` line of a /proc file given in kB.
fn parse_kib(text: &str, field: &str) -> Option<usize> {
    let line = text.lines().find(|l| l.starts_with(field))?;
    let kib: usize = line.split_whitespace().nth(1)?.parse().ok()?;
    kib.checked_mul(1024)
}

fn parse_available(meminfo: &str) -> Option<usize> {
    parse_kib(meminfo, "MemAvailable:")
}

#[cfg(test)]
mod tests {
    use super::*;

    // SAFETY: zero is a valid u64.
    unsafe impl Zeroable for u64 {}

    #[test]
    fn tables_start_zeroed_and_clear_to_zero() {
        for len in [1, 1000, 3 << 18] {
            let mut table = TableMemory::<u64>::zeroed(len).unwrap();
            assert_eq!(table.len(), len);
            assert!(table.iter().all(|&v| v == 0));
            table.populate_in_background();
            table[len - 1] = 7;
            table[0] = 9;
            table.clear();
            assert!(table.iter().all(|&v| v == 0), "{len}");
        }
    }

    /// Bytes of `table` backed by memory, by the kernel's account.
    #[cfg(target_os = "linux")]
    fn resident_bytes(table: &TableMemory<u64>) -> usize {
        const PAGE: usize = 4096;
        let pages = (table.len() * 8).div_ceil(PAGE);
        let mut resident = vec![0u8; pages];
        // SAFETY: the range is the table's own mapping, page-aligned; `resident` has a
        // byte for each of its pages.
        let result = unsafe {
            libc::mincore(
                table.as_ptr() as *mut libc::c_void,
                pages * PAGE,
                resident.as_mut_ptr(),
            )
        };
        assert_eq!(result, 0);
        resident.iter().filter(|&&r| r & 1 == 1).count() * PAGE
    }

    /// Pages are touched in the background only while no search runs, and all of them
    /// once the searches end.
    #[cfg(target_os = "linux")]
    #[test]
    fn tables_are_touched_between_searches() {
        let bytes = 4 * HUGE_PAGE_BYTES;
        let running = SearchRunning::begin();
        let table = TableMemory::<u64>::zeroed(bytes / 8).unwrap();
        table.populate_in_background();
        std::thread::sleep(Duration::from_millis(100));
        assert_eq!(resident_bytes(&table), 0);
        drop(running);
        // Other tests' searches may hold the touching back a little longer.
        let since = std::time::Instant::now();
        while resident_bytes(&table) < bytes && since.elapsed() < Duration::from_secs(60) {
            std::thread::sleep(Duration::from_millis(10));
        }
        assert_eq!(resident_bytes(&table), bytes);
    }

    #[test]
    fn large_tables_start_on_a_huge_page_boundary() {
        let table = TableMemory::<u64>::zeroed(HUGE_PAGE_BYTES / 8).unwrap();
        assert_eq!(table.as_ptr() as usize % HUGE_PAGE_BYTES, 0);
    }

    #[test]
    fn sizes_that_cannot_be_had_are_errors() {
        let error = TableMemory::<u64>::zeroed(usize::MAX / 4).err().unwrap();
        assert!(error.to_string().starts_with("cannot have"), "{error}");
        let error = TableMemory::<u64>::zeroed(1 << 60).err().unwrap();
        assert!(error.to_string().contains("MiB"), "{error}");
    }

    #[test]
    fn available_memory_is_read_from_meminfo() {
        let meminfo = "MemTotal:       24684000 kB\nMemFree:  1 kB\nMemAvailable:   2048 kB\n";
        assert_eq!(parse_available(meminfo), Some(2 << 20));
        assert_eq!(parse_available("MemTotal: 5 kB\n"), None);
    }
}
