//! What the core takes from the system beyond computing: the time, and threads. Native
//! targets have both from the standard library. On `wasm32-unknown-unknown` there is
//! neither: `std::time::Instant::now` panics there and threads cannot be started, so the
//! clock is the embedder's (see `platform::set_clock`, which exists on that target only) and every
//! search runs on the calling thread (the `threads` option is 1 there, and
//! [`Engine::ponder_while`](crate::engine::Engine::ponder_while) only waits). The data
//! files built into a native program are supplied there by the embedder
//! (`platform::supply_file`).

#[cfg(not(all(target_arch = "wasm32", target_os = "unknown")))]
pub use std::time::Instant;

#[cfg(all(target_arch = "wasm32", target_os = "unknown"))]
pub use embedder_clock::{set_clock, set_wall_clock, Instant};

#[cfg(all(target_arch = "wasm32", target_os = "unknown"))]
pub(crate) use supplied::supplied_file;
#[cfg(all(target_arch = "wasm32", target_os = "unknown"))]
pub use supplied::{supply_file, SUPPLIED_FILES};

/// Seconds since 1970 (UTC), for the dates that records carry. On
/// `wasm32-unknown-unknown`, from the clock set with [`set_wall_clock`] (0 before one is).
pub(crate) fn unix_seconds() -> u64 {
    #[cfg(not(all(target_arch = "wasm32", target_os = "unknown")))]
    {
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_secs())
    }
    #[cfg(all(target_arch = "wasm32", target_os = "unknown"))]
    {
        embedder_clock::wall_seconds()
    }
}

/// Whether this target can start threads: helper threads, pondering, the watchdog.
pub(crate) const HAS_THREADS: bool = !cfg!(all(target_arch = "wasm32", target_os = "unknown"));

#[cfg(all(target_arch = "wasm32", target_os = "unknown"))]
mod embedder_clock {
    use std::ops::{Add, AddAssign, Sub};
    use std::sync::RwLock;
    use std::time::Duration;

    /// The embedder's clock: milliseconds since any fixed origin.
    static CLOCK: RwLock<Option<fn() -> f64>> = RwLock::new(None);

    /// Sets the clock the core reads on this target: a function returning milliseconds
    /// since any fixed origin, never decreasing (in a browser or Node,
    /// `performance.now()`). Call it once before the first search; a search limited by
    /// time cannot stop without it, so reading the time before it is set panics.
    ///
    /// With wasm-bindgen, for example:
    ///
    /// ```ignore
    /// #[wasm_bindgen]
    /// extern "C" {
    ///     #[wasm_bindgen(js_namespace = performance)]
    ///     fn now() -> f64;
    /// }
    /// emilia_core::platform::set_clock(now);
    /// ```
    pub fn set_clock(clock: fn() -> f64) {
        *CLOCK.write().unwrap_or_else(|e| e.into_inner()) = Some(clock);
    }

    /// The embedder's calendar clock: milliseconds since 1970 (UTC).
    static WALL_CLOCK: RwLock<Option<fn() -> f64>> = RwLock::new(None);

    /// Sets the calendar clock that dates records (a GGF game's `DT`) on this target: a
    /// function returning milliseconds since 1970 in UTC (in a browser or Node,
    /// `Date.now()`). Without it, records are dated 1970-01-01.
    pub fn set_wall_clock(clock: fn() -> f64) {
        *WALL_CLOCK.write().unwrap_or_else(|e| e.into_inner()) = Some(clock);
    }

    /// Seconds since 1970 by the calendar clock, 0 when none is set.
    pub(super) fn wall_seconds() -> u64 {
        let clock = *WALL_CLOCK.read().unwrap_or_else(|e| e.into_inner());
        clock.map_or(0, |clock| (clock() / 1000.0).max(0.0) as u64)
    }

    /// A moment of the embedder's clock, with the methods of `std::time::Instant` that the
    /// core uses.
    #[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
    pub struct Instant(Duration);

    impl Instant {
        /// Now, by the clock set with [`set_clock`].
        pub fn now() -> Instant {
            let clock = CLOCK
                .read()
                .unwrap_or_else(|e| e.into_inner())
                .expect("emilia_core::platform::set_clock must be called before the clock is read");
            let ms = clock();
            Instant(Duration::from_secs_f64(if ms > 0.0 {
                ms / 1000.0
            } else {
                0.0
            }))
        }

        /// The time since `earlier`, zero if `earlier` is later.
        pub fn duration_since(&self, earlier: Instant) -> Duration {
            self.0.saturating_sub(earlier.0)
        }

        /// The time since `earlier`, zero if `earlier` is later.
        pub fn saturating_duration_since(&self, earlier: Instant) -> Duration {
            self.duration_since(earlier)
        }

        /// The time since `earlier`, or `None` if `earlier` is later.
        pub fn checked_duration_since(&self, earlier: Instant) -> Option<Duration> {
            self.0.checked_sub(earlier.0)
        }

        /// The time since this moment.
        pub fn elapsed(&self) -> Duration {
            Instant::now().duration_since(*self)
        }

        /// This moment plus `duration`, if representable.
        pub fn checked_add(&self, duration: Duration) -> Option<Instant> {
            self.0.checked_add(duration).map(Instant)
        }

        /// This moment minus `duration`, if not before the clock's origin.
        pub fn checked_sub(&self, duration: Duration) -> Option<Instant> {
            self.0.checked_sub(duration).map(Instant)
        }
    }

    impl Add<Duration> for Instant {
        type Output = Instant;
        fn add(self, duration: Duration) -> Instant {
            Instant(self.0 + duration)
        }
    }

    impl AddAssign<Duration> for Instant {
        fn add_assign(&mut self, duration: Duration) {
            self.0 += duration;
        }
    }

    impl Sub<Duration> for Instant {
        type Output = Instant;
        fn sub(self, duration: Duration) -> Instant {
            Instant(self.0.saturating_sub(duration))
        }
    }

    impl Sub<Instant> for Instant {
        type Output = Duration;
        fn sub(self, earlier: Instant) -> Duration {
            self.duration_since(earlier)
        }
    }
}

/// The data files a native program carries inside itself (weights of each size, the book)
/// are supplied by the embedder on `wasm32-unknown-unknown`, where the module is downloaded:
/// a page fetches each one when a board size first needs it, in the form the files are
/// shipped in, instead of a module carrying every size's tables decoded.
#[cfg(all(target_arch = "wasm32", target_os = "unknown"))]
mod supplied {
    use std::sync::OnceLock;

    /// The files an embedder may supply, by the names they ship under (`weights/`).
    pub const SUPPLIED_FILES: [&str; 5] = [
        "emilia.weights",
        "emilia-6.weights",
        "emilia-10.weights",
        "emilia-12.weights",
        "emilia.book",
    ];

    /// Each supplied file's bytes, kept for the life of the module.
    static FILES: [OnceLock<&'static [u8]>; 5] = [
        OnceLock::new(),
        OnceLock::new(),
        OnceLock::new(),
        OnceLock::new(),
        OnceLock::new(),
    ];

    /// Supplies the file `name` (one of [`SUPPLIED_FILES`]): the 8x8 weights before the
    /// first engine is made, another size's weights before a search on it, the book before
    /// an engine that uses it. A file is taken once; supplying it again changes nothing.
    /// The bytes are checked where they are read, as a file named by the user would be.
    pub fn supply_file(name: &str, bytes: Vec<u8>) -> Result<(), String> {
        let at = SUPPLIED_FILES
            .iter()
            .position(|&known| known == name)
            .ok_or_else(|| {
                let name: String = name.chars().take(60).collect();
                format!("{name:?} is not one of {}", SUPPLIED_FILES.join(", "))
            })?;
        FILES[at].get_or_init(|| Box::leak(bytes.into_boxed_slice()));
        Ok(())
    }

    /// The bytes of the supplied file `name`, if it was supplied.
    pub(crate) fn supplied_file(name: &str) -> Option<&'static [u8]> {
        let at = SUPPLIED_FILES.iter().position(|&known| known == name)?;
        FILES[at].get().copied()
    }
}
