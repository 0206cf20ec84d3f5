//! The one way to stop the engine's searches, from any thread.

use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::Arc;

use crate::search::Limits;

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

    /// The limits of a search starting now: `limits`, or while a request is pending the
    /// `shortest` search of its kind, which returns at once with a move.
    pub(crate) fn limits_now(&self, limits: &Limits, shortest: Shortest) -> Limits {
        if !self.pending() {
            return limits.clone();
        }
        match shortest {
            Shortest::Iteration => Limits {
                depth: Some(1),
                ..Limits::default()
            },
            Shortest::Node => Limits {
                nodes: Some(1),
                ..Limits::default()
            },
        }
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

/// The shortest search of a kind: what a search starting while a stop is pending runs.
#[derive(Clone, Copy, Debug)]
pub(crate) enum Shortest {
    /// One iteration, for a search to a depth.
    Iteration,
    /// One node, for a solve (whose depth is the end of the game).
    Node,
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

    #[test]
    fn a_pending_request_shortens_the_limits_until_handled() {
        let stopper = Stopper::default();
        let limits = Limits {
            depth: Some(20),
            ..Limits::default()
        };
        assert_eq!(stopper.limits_now(&limits, Shortest::Iteration), limits);
        stopper.request();
        let iteration = stopper.limits_now(&limits, Shortest::Iteration);
        assert_eq!((iteration.depth, iteration.nodes), (Some(1), None));
        let node = stopper.limits_now(&limits, Shortest::Node);
        assert_eq!((node.depth, node.nodes), (None, Some(1)));
        stopper.handled();
        assert_eq!(stopper.limits_now(&limits, Shortest::Node), limits);
    }
}
