//! The one way to stop the engine's searches, from any thread.

use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::Arc;

/// Stops the engine's searches from any thread (a front-end's input reader, a binding's
/// `stop()`): a stopped search returns promptly with its best result so far. Clones share
/// one engine's flag ([`Engine::stopper`](super::Engine::stopper)).
///
/// [`Stopper::stop`] ends the search under way. [`Stopper::request`] does too, and stays
/// pending until [`Stopper::handled`]: a search that starts meanwhile is the shortest one
/// (one iteration, or one node of a solve), and no pondering starts. A front-end requests a
/// stop as soon as it reads a line that asks for one, and marks it handled when it answers
/// that line, so that a stop read just as a search starts still stops it.
#[derive(Clone, Debug, Default)]
pub struct Stopper {
    flag: Arc<AtomicBool>,
    pending: Arc<AtomicUsize>,
}

impl Stopper {
    /// Stops the search under way, if any.
    pub fn stop(&self) {
        self.flag.store(true, Ordering::SeqCst);
    }

    /// Stops the search under way and shortens every search that starts until
    /// [`Stopper::handled`] is called as many times as this.
    pub fn request(&self) {
        self.pending.fetch_add(1, Ordering::SeqCst);
        self.stop();
    }

    /// Marks one request as handled.
    pub fn handled(&self) {
        let _ = self
            .pending
            .fetch_update(Ordering::SeqCst, Ordering::SeqCst, |n| n.checked_sub(1));
    }

    /// Whether a request waits to be handled.
    pub fn pending(&self) -> bool {
        self.pending.load(Ordering::SeqCst) > 0
    }

    /// The flag the search reads.
    pub(crate) fn flag(&self) -> &AtomicBool {
        &self.flag
    }

    /// The flag, for a watchdog that raises it.
    pub(crate) fn shared_flag(&self) -> Arc<AtomicBool> {
        Arc::clone(&self.flag)
    }

    /// Lowers the flag as a search starts, then raises it again if a request is pending:
    /// one counted before the flag was lowered is seen here, one counted after raises the
    /// flag itself.
    pub(crate) fn arm(&self) {
        self.flag.store(false, Ordering::SeqCst);
        if self.pending() {
            self.stop();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn raised(stopper: &Stopper) -> bool {
        stopper.flag().load(Ordering::SeqCst)
    }

    #[test]
    fn requests_count_and_keep_new_searches_stopped() {
        let stopper = Stopper::default();
        stopper.request();
        stopper.request();
        assert!(raised(&stopper) && stopper.pending());
        stopper.arm();
        assert!(raised(&stopper), "a search starting now starts stopped");
        stopper.handled();
        stopper.handled();
        stopper.handled();
        assert!(!stopper.pending());
        stopper.arm();
        assert!(!raised(&stopper));
        stopper.stop();
        assert!(raised(&stopper) && !stopper.pending());
    }
}
