//! The parallel solve: young brothers wait (YBWC). A node with many empty squares searches
//! its first move (the eldest brother) alone; if that does not cut off, the other moves are
//! shared out among the threads that are idle at that moment, each taking the next move
//! not yet taken, until all are searched or one proves a cut-off, which stops the others.
//! Nodes with fewer empties stay sequential: their subtrees are too small to be worth a
//! thread.
//!
//! Helpers are threads started for one split and ended with it; how many may run at once
//! is counted in [`Shared`], so at most the solve's thread count search at any moment. A
//! thread waiting for its helpers to finish counts as idle, so that their subtrees may
//! split again in its place (the waiting thread itself only sleeps). The threads share the
//! transposition tables, which take concurrent probes and stores without locks.
//!
//! [`SplitSearch`] is what the split needs of the search; a search thread keeps its node
//! count and limits in a [`SolveThread`].

use std::sync::atomic::{AtomicBool, AtomicIsize, AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};

use super::table::{Tables, NO_MOVE};
use super::SolveLimits;

/// Nodes with at least this many empties share out their moves. A helper costs a thread
/// start (tens of microseconds); a null-window subtree at 15 empties takes milliseconds.
const SPLIT_MIN_EMPTIES: u32 = 16;

/// Nodes between two looks at the limits and cut-off flags: about every 0.1 ms with one
/// thread, so that a deadline is kept to that (a look costs a few nanoseconds), more often
/// with more, where a cut-off at a split must soon stop the helpers' now useless work.
const POLL_INTERVAL: u64 = 1 << 11;
const PARALLEL_POLL_INTERVAL: u64 = 1 << 10;

/// What the threads of one solve share besides the tables.
pub(super) struct Shared<'a> {
    /// The solver's transposition tables.
    pub(super) tables: &'a Tables,
    /// The solve's limits, on the nodes of all threads together.
    pub(super) limits: &'a SolveLimits<'a>,
    /// Threads that may still start (negative for a moment when a thread that waited for
    /// its helpers takes its place back).
    idle: AtomicIsize,
    /// Nodes of all threads, as each last added its own.
    nodes: AtomicU64,
    /// Set once a limit stopped the solve: every thread stops.
    pub(super) stopped: AtomicBool,
    /// Nodes between two looks at the limits.
    pub(super) poll_interval: u64,
    /// Under a node limit, the nodes handed out to the threads so far, and what they
    /// visited beyond that (see [`Shared::claim`]).
    granted: AtomicU64,
    /// The solve's threads, among which what is left of a node limit is shared out.
    threads: u64,
}

impl<'a> Shared<'a> {
    /// What the `threads` threads of a solve share, `nodes` nodes into it.
    pub(super) fn new(
        tables: &'a Tables,
        limits: &'a SolveLimits<'a>,
        threads: usize,
        nodes: u64,
    ) -> Shared<'a> {
        Shared {
            tables,
            limits,
            idle: AtomicIsize::new(threads.max(1) as isize - 1),
            nodes: AtomicU64::new(nodes),
            stopped: AtomicBool::new(false),
            poll_interval: if threads > 1 {
                PARALLEL_POLL_INTERVAL
            } else {
                POLL_INTERVAL
            },
            granted: AtomicU64::new(nodes),
            threads: threads.max(1) as u64,
        }
    }

    /// Charges a thread the `owed` nodes it visited beyond those it was handed (the last
    /// squares are solved without a look at the limits), and hands it its share of what is
    /// left of the node limit, at most a poll interval: the nodes it may visit before it
    /// asks again, `None` when nothing is left. Every thread visits only what it was
    /// handed, and a few nodes more, so the threads together keep the limit whenever they
    /// look at it. Without a node limit, a poll interval.
    fn claim(&self, owed: u64) -> Option<u64> {
        let Some(max) = self.limits.max_nodes else {
            return Some(self.poll_interval);
        };
        let mut granted = self.granted.load(Ordering::Relaxed);
        loop {
            let left = max.saturating_sub(granted + owed);
            let share = (left / self.threads).clamp(1, self.poll_interval).min(left);
            match self.granted.compare_exchange_weak(
                granted,
                granted + owed + share,
                Ordering::Relaxed,
                Ordering::Relaxed,
            ) {
                Ok(_) => return (share > 0).then_some(share),
                Err(now) => granted = now,
            }
        }
    }

    /// A thread that ends gives back what it was handed and did not visit, or is charged
    /// what it visited beyond.
    fn settle(&self, thread: &SolveThread) {
        if self.limits.max_nodes.is_none() {
            return;
        }
        if thread.allowed >= thread.nodes {
            self.granted
                .fetch_sub(thread.allowed - thread.nodes, Ordering::Relaxed);
        } else {
            self.granted
                .fetch_add(thread.nodes - thread.allowed, Ordering::Relaxed);
        }
    }

    /// Adds `nodes` to the count of all threads; the new count.
    pub(super) fn add_nodes(&self, nodes: u64) -> u64 {
        let total = self.nodes.fetch_add(nodes, Ordering::Relaxed) + nodes;
        if let Some(seen) = self.limits.nodes_seen {
            // Threads may add their counts in one order and show them in the other.
            seen.fetch_max(total, Ordering::Relaxed);
        }
        total
    }

    /// Takes up to `wanted` idle threads; how many it took.
    fn take_idle(&self, wanted: usize) -> usize {
        let mut idle = self.idle.load(Ordering::Relaxed);
        loop {
            if idle <= 0 {
                return 0;
            }
            let taken = (idle as usize).min(wanted);
            match self.idle.compare_exchange_weak(
                idle,
                idle - taken as isize,
                Ordering::Relaxed,
                Ordering::Relaxed,
            ) {
                Ok(_) => return taken,
                Err(now) => idle = now,
            }
        }
    }

    fn give_back(&self, threads: usize) {
        self.idle.fetch_add(threads as isize, Ordering::Relaxed);
    }
}

/// What one thread of a solve keeps besides its board-specific state: its node count, its
/// look at the limits and the cut-off flags it works under. Every search thread holds one.
pub(super) struct SolveThread<'a> {
    /// Positions visited so far (by this thread, and by the helpers it waited for).
    pub(super) nodes: u64,
    /// The part of `nodes` already added to the solve's shared count.
    pub(super) flushed: u64,
    pub(super) shared: &'a Shared<'a>,
    /// The cut-off flags of the splits this thread works under: when one is set, what this
    /// thread searches there is no longer needed.
    pub(super) cancel: Vec<Arc<AtomicBool>>,
    /// The count up to which this thread's nodes were handed out under a node limit.
    allowed: u64,
    pub(super) next_poll: u64,
    /// Set when a limit (or a cut-off at a split above) stopped the search; every score
    /// computed since is meaningless.
    pub(super) aborted: bool,
}

impl<'a> SolveThread<'a> {
    /// The first thread of a solve, counting on from `nodes` nodes (limits apply to the
    /// count), which must be the count `shared` started with.
    pub(super) fn new(shared: &'a Shared<'a>, nodes: u64) -> SolveThread<'a> {
        SolveThread::starting_at(shared, nodes, Vec::new())
    }

    /// A helper's thread, working under the cut-off flags `cancel`.
    fn helper(&self, cancel: Vec<Arc<AtomicBool>>) -> SolveThread<'a> {
        SolveThread::starting_at(self.shared, 0, cancel)
    }

    /// A thread of the solve `shared` that starts at `nodes` nodes with its first share of
    /// the node limit.
    fn starting_at(
        shared: &'a Shared<'a>,
        nodes: u64,
        cancel: Vec<Arc<AtomicBool>>,
    ) -> SolveThread<'a> {
        // Nothing handed out: the first node asks, and stops the solve.
        let allowed = nodes + shared.claim(0).unwrap_or(0);
        SolveThread {
            nodes,
            flushed: nodes,
            shared,
            cancel,
            allowed,
            next_poll: (nodes + shared.poll_interval).min(allowed),
            aborted: false,
        }
    }

    /// Checks the limits every [`Shared::poll_interval`] nodes; true when the search must
    /// stop.
    #[inline(always)]
    pub(super) fn should_stop(&mut self) -> bool {
        if self.nodes >= self.next_poll {
            self.poll();
        }
        self.aborted
    }

    /// Adds this thread's nodes to the solve's count and looks at the limits and at the
    /// cut-off flags of the splits above.
    #[cold]
    pub(super) fn poll(&mut self) {
        if self.aborted {
            // A node entered after the stop is left at once: it is not counted.
            self.nodes -= 1;
            return;
        }
        let total = self.shared.add_nodes(self.nodes - self.flushed);
        self.flushed = self.nodes;
        let mut stop =
            self.shared.stopped.load(Ordering::Relaxed) || self.shared.limits.reached(total);
        // The nodes handed out are used up: this thread asks for more of the node limit.
        if !stop && self.nodes >= self.allowed {
            match self.shared.claim(self.nodes - self.allowed) {
                Some(share) => self.allowed = self.nodes + share,
                None => {
                    self.allowed = self.nodes;
                    stop = true;
                }
            }
        }
        if stop {
            self.shared.stopped.store(true, Ordering::Relaxed);
            self.aborted = true;
        }
        if self.cancel.iter().any(|c| c.load(Ordering::Relaxed)) {
            self.aborted = true;
        }
        self.next_poll = if self.aborted {
            // Every node entered from now on comes here, and is taken off the count.
            0
        } else {
            (self.nodes + self.shared.poll_interval).min(self.allowed)
        };
    }
}

/// One split node's moves and what its threads found.
struct Split<'m, M> {
    moves: &'m [M],
    /// The next move to take.
    next: AtomicUsize,
    /// Set on a cut-off: the moves still under way are not needed.
    cutoff: Arc<AtomicBool>,
    /// The window's lower end (it rises at principal-variation nodes), the best score and
    /// its move.
    found: Mutex<Found>,
}

#[derive(Clone, Copy)]
struct Found {
    alpha: i32,
    best: i32,
    best_move: u8,
}

/// The node a split searches and its window.
#[derive(Clone, Copy)]
pub(super) struct Node<B> {
    pub(super) player: B,
    pub(super) opponent: B,
    pub(super) empties: u32,
    pub(super) parity: u8,
    beta: i32,
    /// A null-window node: every move is searched with the window `alpha..alpha + 1`.
    null_window: bool,
}

/// A solver's search that shares out a node's moves among threads: what the split needs
/// of the board-specific search.
pub(super) trait SplitSearch<'a>: Sized + Send {
    /// One side's discs.
    type Bits: Copy + Send + Sync;
    /// A move of a node's list.
    type Move: Sync;

    /// The thread's node count, limits and cut-off flags.
    fn thread(&mut self) -> &mut SolveThread<'a>;

    /// A helper's search, with `thread` as its thread.
    fn helper(&self, thread: SolveThread<'a>) -> Self;

    /// The position after `m` at `node`, seen from the side to move then: player,
    /// opponent, the empty regions' parity, and the move's square.
    fn child(node: &Node<Self::Bits>, m: &Self::Move) -> (Self::Bits, Self::Bits, u8, u8);

    /// Null-window search: is the score above `alpha`? Fail-soft.
    fn null_window(
        &mut self,
        player: Self::Bits,
        opponent: Self::Bits,
        alpha: i32,
        empties: u32,
        parity: u8,
    ) -> i32;

    /// Principal variation search within `alpha..beta`: the score, fail-soft.
    #[allow(clippy::too_many_arguments)]
    fn principal(
        &mut self,
        player: Self::Bits,
        opponent: Self::Bits,
        alpha: i32,
        beta: i32,
        empties: u32,
        parity: u8,
    ) -> i32;

    /// How many helpers a node with `empties` empties and `remaining` moves still to search
    /// gets, taken from the idle threads; `None` when it stays sequential.
    #[inline(always)]
    fn helpers_for(&mut self, empties: u32, remaining: usize) -> Option<usize> {
        if empties < SPLIT_MIN_EMPTIES || remaining < 2 {
            return None;
        }
        let shared = self.thread().shared;
        if shared.idle.load(Ordering::Relaxed) <= 0 {
            return None;
        }
        match shared.take_idle(remaining - 1) {
            0 => None,
            taken => Some(taken),
        }
    }

    /// Searches the rest of a null-window node's moves, `moves`, with `helpers` helper
    /// threads (already taken from the idle ones): the best score and move (fail-soft).
    #[allow(clippy::too_many_arguments)]
    fn split_nws(
        &mut self,
        player: Self::Bits,
        opponent: Self::Bits,
        alpha: i32,
        empties: u32,
        parity: u8,
        moves: &[Self::Move],
        helpers: usize,
    ) -> (i32, u8) {
        let node = Node {
            player,
            opponent,
            empties,
            parity,
            beta: alpha + 1,
            null_window: true,
        };
        split(self, node, alpha, moves, helpers)
    }

    /// Searches the rest of a principal-variation node's moves, `moves`, within
    /// `alpha..beta` with `helpers` helper threads: the best score and move (fail-soft).
    #[allow(clippy::too_many_arguments)]
    fn split_pvs(
        &mut self,
        player: Self::Bits,
        opponent: Self::Bits,
        alpha: i32,
        beta: i32,
        empties: u32,
        parity: u8,
        moves: &[Self::Move],
        helpers: usize,
    ) -> (i32, u8) {
        let node = Node {
            player,
            opponent,
            empties,
            parity,
            beta,
            null_window: false,
        };
        split(self, node, alpha, moves, helpers)
    }
}

/// Searches `moves` of `node` from `alpha` on `search`'s thread and `helpers` helpers.
fn split<'a, S: SplitSearch<'a>>(
    search: &mut S,
    node: Node<S::Bits>,
    alpha: i32,
    moves: &[S::Move],
    helpers: usize,
) -> (i32, u8) {
    let split = Split {
        moves,
        next: AtomicUsize::new(0),
        cutoff: Arc::new(AtomicBool::new(false)),
        found: Mutex::new(Found {
            alpha,
            best: -1000,
            best_move: NO_MOVE,
        }),
    };
    let shared = search.thread().shared;
    let mut cancel = search.thread().cancel.clone();
    cancel.push(Arc::clone(&split.cutoff));
    let helper_nodes: u64 = std::thread::scope(|scope| {
        let threads: Vec<_> = (0..helpers)
            .filter_map(|_| {
                let thread = search.thread().helper(cancel.clone());
                let mut helper = search.helper(thread);
                let split = &split;
                let spawned = std::thread::Builder::new().spawn_scoped(scope, move || {
                    work(&mut helper, &node, split);
                    let thread = helper.thread();
                    shared.add_nodes(thread.nodes - thread.flushed);
                    shared.settle(thread);
                    shared.give_back(1);
                    thread.nodes
                });
                // Without memory for its stack, the helper's moves are left to the others.
                spawned
                    .map_err(|e| {
                        log::warn!("exact solver: no helper thread: {e}");
                        shared.give_back(1);
                    })
                    .ok()
            })
            .collect();
        std::mem::swap(&mut search.thread().cancel, &mut cancel);
        work(search, &node, &split);
        std::mem::swap(&mut search.thread().cancel, &mut cancel);
        // While waiting, this thread leaves its place to the helpers' own splits.
        shared.give_back(1);
        let nodes = threads
            .into_iter()
            .map(|t| t.join().unwrap_or_else(|e| std::panic::resume_unwind(e)))
            .sum();
        shared.take_back();
        nodes
    });
    let thread = search.thread();
    // The helpers added their nodes to the shared count already.
    thread.nodes += helper_nodes;
    thread.flushed += helper_nodes;
    thread.allowed += helper_nodes;
    // Stopped by this split's own cut-off, the search goes on: the cut-off is proven. A
    // limit or a cut-off above stops it, even when this thread finished its own moves
    // before it looked: a helper that saw the stop left its move unsearched, so the best
    // found here would be wrong, and a split above could take it for a finished move's.
    let above = thread.cancel.iter().any(|c| c.load(Ordering::Relaxed));
    if shared.stopped.load(Ordering::Relaxed) || above {
        thread.aborted = true;
        return (0, NO_MOVE);
    }
    thread.aborted = false;
    let found = *split.found.lock().unwrap_or_else(|e| e.into_inner());
    (found.best, found.best_move)
}

/// Takes the split's moves one by one and searches them until none is left, a cut-off is
/// found or the search stops.
fn work<'a, S: SplitSearch<'a>>(search: &mut S, node: &Node<S::Bits>, split: &Split<S::Move>) {
    let found = |split: &Split<S::Move>| *split.found.lock().unwrap_or_else(|e| e.into_inner());
    loop {
        if search.thread().aborted || split.cutoff.load(Ordering::Relaxed) {
            return;
        }
        let i = split.next.fetch_add(1, Ordering::Relaxed);
        let Some(m) = split.moves.get(i) else {
            return;
        };
        let alpha = found(split).alpha;
        let (p, o, parity, square) = S::child(node, m);
        let empties = node.empties - 1;
        let mut score = -search.null_window(p, o, -alpha - 1, empties, parity);
        if !node.null_window && score > alpha && score < node.beta && !search.thread().aborted {
            score = -search.principal(p, o, -node.beta, -alpha, empties, parity);
        }
        if search.thread().aborted {
            return;
        }
        let mut found = split.found.lock().unwrap_or_else(|e| e.into_inner());
        if score > found.best {
            found.best = score;
            found.best_move = square;
            if score > found.alpha {
                found.alpha = score;
                if score >= node.beta {
                    split.cutoff.store(true, Ordering::Relaxed);
                    return;
                }
            }
        }
    }
}

impl Shared<'_> {
    /// A thread that waited for its helpers takes its place back, even if the count goes
    /// below zero for a moment: it was running before, and others give theirs back soon.
    fn take_back(&self) {
        self.idle.fetch_sub(1, Ordering::Relaxed);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn idle_threads_are_taken_at_most_once() {
        let tables = Tables::new(0).unwrap();
        let shared = Shared::new(&tables, &SolveLimits::NONE, 4, 0);
        assert_eq!(shared.take_idle(2), 2);
        assert_eq!(shared.take_idle(5), 1);
        assert_eq!(shared.take_idle(1), 0);
        shared.give_back(3);
        assert_eq!(shared.take_idle(9), 3);
        assert_eq!(
            Shared::new(&tables, &SolveLimits::NONE, 1, 0).take_idle(1),
            0
        );
    }

    /// A search over moves that are plain scores: each move's score is its value. Helpers
    /// look at their flags before every move, as a real search does within a few thousand
    /// nodes; the first thread never does, as when its moves end before it looks.
    struct Scores<'a> {
        thread: SolveThread<'a>,
        looks: bool,
    }

    impl<'a> SplitSearch<'a> for Scores<'a> {
        type Bits = i32;
        type Move = i32;

        fn thread(&mut self) -> &mut SolveThread<'a> {
            &mut self.thread
        }

        fn helper(&self, thread: SolveThread<'a>) -> Self {
            Scores {
                thread,
                looks: true,
            }
        }

        fn child(_: &Node<i32>, m: &i32) -> (i32, i32, u8, u8) {
            (*m, 0, 0, *m as u8)
        }

        fn null_window(&mut self, score: i32, _: i32, _: i32, _: u32, _: u8) -> i32 {
            self.thread.nodes += 1;
            if self.looks {
                self.thread.poll();
            }
            -score
        }

        fn principal(&mut self, score: i32, o: i32, alpha: i32, _: i32, e: u32, p: u8) -> i32 {
            self.null_window(score, o, alpha, e, p)
        }
    }

    /// A cut-off above a split stops it even when the thread that split never looked at
    /// its flags: a helper left its move unsearched, so the split's best is not to be used.
    #[test]
    fn a_split_under_a_cut_off_above_reports_itself_stopped() {
        let tables = Tables::new(0).unwrap();
        let shared = Shared::new(&tables, &SolveLimits::NONE, 2, 0);
        let above = Arc::new(AtomicBool::new(true));
        let mut thread = SolveThread::new(&shared, 0);
        thread.cancel.push(Arc::clone(&above));
        let mut search = Scores {
            thread,
            looks: false,
        };
        let moves: Vec<i32> = (1..=40).collect();
        assert_eq!(shared.take_idle(1), 1);
        let (_, best_move) = search.split_nws(0, 0, 100, 20, 0, &moves, 1);
        assert!(search.thread.aborted);
        assert_eq!(best_move, NO_MOVE);

        // Without the cut-off above, the same split finds the best move.
        above.store(false, Ordering::Relaxed);
        search.thread.aborted = false;
        assert_eq!(shared.take_idle(1), 1);
        let (best, best_move) = search.split_pvs(0, 0, -100, 100, 20, 0, &moves, 1);
        assert!(!search.thread.aborted);
        assert_eq!((best, best_move), (40, 40));
    }
}
