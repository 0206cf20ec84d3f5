//! The midgame search: iterative deepening over a principal-variation (null-window)
//! alpha-beta negamax with aspiration windows, a transposition table and move ordering.
//! Written once over [`Board`] and [`Evaluator`] and monomorphised per board type and
//! evaluation, so 8x8 runs on bitboards and every size shares the code.
//!
//! Depth counts moves; a pass costs no depth. Below a node whose depth reaches its number
//! of empty squares every line is played to the end, so such results are exact final
//! disc differences (in score units): the same search solves small endgames exactly.
//!
//! Determinism: on one thread, with a fixed depth (or node budget) and no time limit, a
//! search from a fresh engine gives the same move, score and node count on every run. With
//! a warm transposition table, or more threads, the move and score may vary slightly and
//! node counts do.

#[cfg(test)]
mod against_the_solver;
mod busy;
pub(crate) mod exact_solve;
mod limits;
pub mod mpc;
pub(crate) mod ordering;
mod report;
pub mod time;
pub(crate) mod tt;

use crate::platform::Instant;
use std::ops::ControlFlow;
use std::sync::atomic::{AtomicBool, AtomicU32, Ordering as AtomicOrdering};
use std::sync::Mutex;

use crate::board::{Board, Board8, Move, Square};
use crate::endgame::{self, SmallSolver, SolveLimits};
use crate::eval::Evaluator;
use crate::score::{self, Score};
use busy::{BusyTable, BUSY_MIN_DEPTH};
use ordering::{MoveOrdering, MAX_PLY};
use time::TimePlan;
use tt::{Bound, TranspositionTable};

pub use limits::{Clock, Limits};
pub(crate) use mpc::Table as MpcTable;
pub use report::{MoveScore, SearchReport};

/// Bigger than any score.
const INFINITY: i32 = 30_000;

/// Sentinel index of a pass in principal variations.
const PASS: usize = usize::MAX;

/// First aspiration half-window, hundredths of a disc.
const ASPIRATION_WINDOW: i32 = 150;

/// Iterations from which aspiration windows are used.
const ASPIRATION_FROM_DEPTH: u32 = 4;

/// Shallowest depth whose results go through the transposition table: below it a
/// search is cheaper than the memory traffic. Depth-two nodes gain from it since their
/// parents prefetch their entries.
const MIN_TT_DEPTH: u32 = 2;

/// Shallowest depth at which ProbCut is tried.
const PROBCUT_MIN_DEPTH: u32 = 3;
/// Without a measured table (boards other than 8x8, evaluations other than the pattern one,
/// or the table turned off): cuts from depth 4, with a standard
/// deviation of deep minus shallow scores of a base and a growth per ply between the two
/// depths, in hundredths of a disc (measured on 8x8 self-play: 270 from depth 2 to 4, 330
/// from 4 to 8).
const UNCALIBRATED_MIN_DEPTH: u32 = 4;
const UNCALIBRATED_SIGMA: i32 = 250;
const UNCALIBRATED_SIGMA_PER_PLY: i32 = 15;
/// ProbCut is not tried where one side has at most this fraction of the other's discs: a
/// shallow search cannot see a wipe-out coming, and an evaluation that likes few discs
/// (mobility, frontier) then cuts the line that ends the game. A 10x10 game was lost to the
/// greedy player this way, 0-50: depth 12 with the cut saw +55, depth 8 without it the
/// wipe-out.
const PROBCUT_LOPSIDED: u32 = 4;
/// ProbCut windows beyond this are pointless (no score goes there).
const PROBCUT_MAX_BOUND: i32 = 20_000;
/// A line that stops at most [`NEAR_END_PLIES`] short of the end of the game, at most this
/// many empty squares from it, is searched to the end when the solver takes its endgames.
const NEAR_END_MAX_EMPTIES: u32 = 6;
/// See [`NEAR_END_MAX_EMPTIES`].
const NEAR_END_PLIES: u32 = 3;
/// Fewest empties at which a search to the end is selective: below, exact searches are
/// cheap.
const SELECTIVE_END_MIN_EMPTIES: u32 = 12;
/// Shallowest depth at which a node looks up its children in the table before searching
/// them (enhanced transposition cutoff): nearer the leaves the probes cost more than they
/// save.
const ETC_MIN_DEPTH: u32 = 6;

/// What bounds a search.
#[derive(Clone, Copy)]
pub(crate) struct SearchSettings<'a> {
    /// Deepest iteration.
    pub max_depth: u32,
    /// Node budget.
    pub node_limit: u64,
    /// Time limits.
    pub plan: TimePlan,
    /// When the time of `plan` started: when the engine was asked, so that the work before
    /// the search counts too.
    pub start: Instant,
    /// Set from outside to stop the search.
    pub stop: &'a AtomicBool,
    /// Search every root move with a full window so each has an exact score (for hints).
    pub score_all_moves: bool,
    /// Multi-ProbCut selectivity in tenths of a standard deviation (0: off): midgame nodes
    /// that a shallow search predicts to fall this far outside the window are pruned. When
    /// on, a search reaching the end of the game is first selective, at the levels of
    /// [`mpc::LEVELS`], then exact.
    pub probcut: u32,
    /// The first iteration: 1, or deeper when the table already holds a search of the
    /// position to that depth (pondering found it).
    pub first_depth: u32,
    /// Root moves (square indices) left out of the search: the opening book has them.
    pub excluded: &'a [usize],
    /// The regressions that set the cuts (measured on 8x8); without one, midgame cuts
    /// assume deep equals shallow with a fixed error and searches to the end are exact.
    pub mpc: Option<&'a mpc::Table>,
    /// The 8x8 solver that takes the small endgames searched to the end (without one, the
    /// search works them out itself, many times slower).
    pub small_solver: Option<SmallSolver<'a>>,
}

impl<'a> SearchSettings<'a> {
    /// A search bounded by its depth only (no node or time limit), stopped by `stop`, with
    /// ProbCut at 1.0σ and the shipped Multi-ProbCut table, and no solver lent.
    #[cfg(test)]
    pub fn by_depth(max_depth: u32, stop: &'a AtomicBool) -> SearchSettings<'a> {
        SearchSettings {
            max_depth,
            node_limit: u64::MAX,
            plan: TimePlan::UNLIMITED,
            start: Instant::now(),
            stop,
            score_all_moves: false,
            probcut: 10,
            first_depth: 1,
            excluded: &[],
            mpc: Some(mpc::Table::embedded()),
            small_solver: None,
        }
    }
}

/// The result of a search: the report, and per root move the latest score (exact for
/// every move when [`SearchSettings::score_all_moves`] is set, otherwise only for the best).
pub(crate) struct SearchResult {
    /// The report of the search.
    pub report: SearchReport,
    /// Root moves with their scores, best first.
    pub root_scores: Vec<MoveScore>,
}

struct RootMove<B> {
    index: usize,
    child: B,
    score: i32,
    depth: u32,
    /// Whether `score` is the exact final result (every line below ended the game).
    exact: bool,
}

/// One search in progress.
struct Searcher<'a, B: Board, E: Evaluator> {
    eval: &'a E,
    tt: &'a TranspositionTable,
    settings: &'a SearchSettings<'a>,
    size: usize,
    ordering: MoveOrdering,
    start: Instant,
    hard_deadline: Option<Instant>,
    nodes: u64,
    /// Node count at which to look at the clock next, and the distance between looks.
    next_check: u64,
    check_interval: u64,
    aborted: bool,
    /// Leaves scored by the evaluation (or by a table entry that was not exact) in the
    /// iteration under way: none means every line reached the end of the game.
    heuristic_leaves: u64,
    /// The selectivity of searches to the end in the iteration under way, an index into
    /// [`mpc::LEVELS`]; `None`: exact.
    end_level: Option<usize>,
    /// Selective cuts (and uses of selective table entries) below nodes that search to the
    /// end: results that are not exact although their depth reaches the end.
    selective_cuts: u64,
    /// Triangular principal-variation table: `pv[ply]` is the line from `ply` on.
    pv: Vec<Vec<usize>>,
    /// Reusable move lists, one per ply: (ordering key, move, position after it).
    lists: Vec<Vec<(i32, usize, B)>>,
    /// Best root move and score of the iteration under way, once known.
    iteration_best: Option<(usize, i32)>,
    /// Set when a helper of a parallel search has completed the whole search, which this
    /// (main) thread then need not finish.
    peer_finished: Option<&'a AtomicBool>,
    /// For a helper of a parallel search, the stop flag of the whole search, which it
    /// watches besides its own: a stop from outside reaches it as soon as the main thread.
    outside_stop: Option<&'a AtomicBool>,
    /// Set while iteration 1 runs: only the node budget ends it. It takes microseconds,
    /// and a thread that got no core until its deadline still answers a searched move,
    /// not the first of the move ordering (depth 0).
    first_iteration: bool,
    /// 0 for the main thread; helpers of a parallel search count from 1.
    thread: usize,
    /// What the threads of a parallel search share besides the table.
    shared: Option<&'a SharedSearch>,
    /// Moves put off because another thread was searching them, one list per ply.
    deferred: Vec<Vec<(usize, B)>>,
    /// What the evaluation keeps of the position at each ply for its children, set by the
    /// parent before it searches a child.
    kept: Vec<E::Kept>,
}

/// What the threads of a parallel search share besides the transposition table.
struct SharedSearch {
    /// The positions some thread is searching now, which the others put off to the end of
    /// their move loops.
    busy: BusyTable,
    /// The deepest iteration any thread has started.
    deepest_started: AtomicU32,
}

/// What a search reports after each finished iteration: its report, and the root moves
/// with their scores, best first, when it scores them all ([`SearchSettings::score_all_moves`]).
pub(crate) type Progress<'a> = dyn FnMut(&SearchReport, &[MoveScore]) + 'a;

/// Searches `board` and returns the move to play with the search's statistics, on
/// `threads` threads sharing the table `tt`.
///
/// More threads search as lazy SMP: every helper runs its own iterative deepening of the
/// same position, skipping some depths so that the threads spread over several at once,
/// and what each learns reaches the others through the shared table. A thread about to
/// start an iteration shallower than one another thread has started joins that one
/// instead. Within an iteration they spread over the tree as in simplified ABDADA
/// (`busy`): a move loop puts off a child (other than the first) that another thread is
/// searching, coming back to it at the end, when the table usually knows its value.
///
/// The main thread decides when to stop; its result is the search's unless a helper
/// finished a deeper iteration first (then the helper's), and a helper that completes the
/// whole search (its deepest iteration, or the exact end) ends the main thread's too. With
/// one thread the search is the sequential one, node for node.
pub(crate) fn search<B: Board + Sync, E: Evaluator + Sync>(
    board: &B,
    eval: &E,
    tt: &TranspositionTable,
    settings: &SearchSettings,
    threads: usize,
    progress: &mut Progress,
) -> SearchResult {
    if threads <= 1 {
        return Searcher::new(board, eval, tt, settings, 0).iterate(board, progress);
    }
    let helpers_stop = AtomicBool::new(false);
    let helper_finished = AtomicBool::new(false);
    let shared = SharedSearch {
        busy: BusyTable::new(),
        deepest_started: AtomicU32::new(0),
    };
    // The deepest iteration a helper finished, and a helper's whole result once one
    // completes the search, with the progress of its iterations.
    let deepest: Mutex<Option<SearchReport>> = Mutex::new(None);
    let finished: Mutex<Option<(SearchResult, Vec<Iteration>)>> = Mutex::new(None);
    // A node limit is shared out, so that the threads together keep it.
    let (helper_nodes, main_nodes) = match settings.node_limit {
        u64::MAX => (u64::MAX, u64::MAX),
        limit => {
            let share = limit / threads as u64;
            (share, limit - share * (threads as u64 - 1))
        }
    };
    let helper_settings = SearchSettings {
        plan: TimePlan::UNLIMITED,
        node_limit: helper_nodes,
        stop: &helpers_stop,
        ..*settings
    };
    let main_settings = SearchSettings {
        node_limit: main_nodes,
        ..*settings
    };
    // Helpers keep the main thread's deadline and stop flag themselves: on a machine with
    // fewer cores than threads, the main thread may get a core long after either comes.
    let hard_deadline = settings
        .plan
        .hard
        .and_then(|h| settings.start.checked_add(h));
    std::thread::scope(|scope| {
        let helpers: Vec<_> = (1..threads)
            .map_while(|thread| {
                let helper_settings = &helper_settings;
                let (deepest, finished, helper_finished) = (&deepest, &finished, &helper_finished);
                let shared = &shared;
                let spawned = std::thread::Builder::new().spawn_scoped(scope, move || {
                    let mut helper = Searcher::new(board, eval, tt, helper_settings, thread);
                    helper.shared = Some(shared);
                    helper.hard_deadline = hard_deadline;
                    helper.outside_stop = Some(settings.stop);
                    let mut iterations = Vec::new();
                    let result = helper.iterate(board, &mut |report, scored| {
                        let mut deepest = lock(deepest);
                        if deepest.as_ref().is_none_or(|d| report.depth > d.depth) {
                            *deepest = Some(report.clone());
                        }
                        iterations.push((report.clone(), scored.to_vec()));
                    });
                    if !helper.aborted {
                        lock(finished).get_or_insert((result, iterations));
                        helper_finished.store(true, AtomicOrdering::Relaxed);
                    }
                    helper.nodes
                });
                // Without memory for another thread's stack, the search makes do with the
                // threads it has.
                spawned
                    .map_err(|e| log::warn!("lazy SMP: {} of {threads} threads: {e}", thread))
                    .ok()
            })
            .collect();
        let mut main = Searcher::new(board, eval, tt, &main_settings, 0);
        main.peer_finished = Some(&helper_finished);
        main.shared = Some(&shared);
        let mut main_depth = 0;
        let mut result = main.iterate(board, &mut |report, scored| {
            main_depth = report.depth;
            progress(report, scored);
        });
        helpers_stop.store(true, AtomicOrdering::Relaxed);
        let mut helper_nodes = 0;
        for helper in helpers {
            helper_nodes += helper
                .join()
                .unwrap_or_else(|e| std::panic::resume_unwind(e));
        }
        let main_nodes = result.report.nodes;
        if let Some((whole, iterations)) = lock(&finished).take().filter(|_| main.aborted) {
            log::debug!(
                "lazy SMP: a helper finished depth {} first",
                whole.report.depth
            );
            // The iterations the main thread did not report come from the helper's, so
            // that a caller following the progress (a GUI's hints) sees every depth.
            let earlier = &iterations[..iterations.len().saturating_sub(1)];
            for (report, scored) in earlier.iter().filter(|(r, _)| r.depth > main_depth) {
                progress(report, scored);
            }
            progress(&whole.report, &whole.root_scores);
            result = whole;
        } else if let Some(deeper) = lock(&deepest).take().filter(|d| {
            d.depth > result.report.depth && !result.report.exact && !settings.score_all_moves
        }) {
            log::debug!(
                "lazy SMP: a helper's depth {} against the main thread's {}",
                deeper.depth,
                result.report.depth
            );
            result.report = deeper;
        }
        result.report.nodes = main_nodes + helper_nodes;
        log::debug!(
            "lazy SMP: {main_nodes} nodes on the main thread, {helper_nodes} on {} helpers",
            threads - 1
        );
        result
    })
}

/// One finished iteration of a helper: its report and root move scores.
type Iteration = (SearchReport, Vec<MoveScore>);

/// Locks `mutex`, whose data stays whole even if a thread panicked holding it.
fn lock<T>(mutex: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    mutex.lock().unwrap_or_else(|e| e.into_inner())
}

/// Whether helper `thread` of a lazy SMP search skips the iteration at `depth`: helpers
/// skip blocks of depths of various lengths and phases, so that at any moment the threads
/// work on different depths rather than all on the same one.
fn skips_depth(thread: usize, depth: u32) -> bool {
    const BLOCK: [u32; 20] = [1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 3, 3, 4, 4, 4, 4, 4, 4, 4, 4];
    const PHASE: [u32; 20] = [0, 1, 0, 1, 2, 3, 0, 1, 2, 3, 4, 5, 0, 1, 2, 3, 4, 5, 6, 7];
    if thread == 0 {
        return false;
    }
    let i = (thread - 1) % BLOCK.len();
    (depth + PHASE[i]) / BLOCK[i] % 2 == 1
}

fn to_move(index: usize, size: usize) -> Move {
    if index == PASS {
        Move::Pass
    } else {
        Move::Play(Square::from_index(index, size))
    }
}

impl<'a, B: Board, E: Evaluator> Searcher<'a, B, E> {
    fn new(
        board: &B,
        eval: &'a E,
        tt: &'a TranspositionTable,
        settings: &'a SearchSettings<'a>,
        thread: usize,
    ) -> Searcher<'a, B, E> {
        Searcher {
            eval,
            tt,
            settings,
            size: board.size(),
            ordering: MoveOrdering::new(board.size()),
            start: settings.start,
            hard_deadline: settings
                .plan
                .hard
                .and_then(|h| settings.start.checked_add(h)),
            nodes: 0,
            // Look at the clock about every 0.1 ms, so that a deadline is kept to that (a look
            // costs a few nanoseconds): every 256 nodes up to 8x8, every 64 on the larger
            // boards, whose nodes take longer.
            next_check: 0,
            check_interval: if board.size() <= 8 { 256 } else { 64 },
            aborted: false,
            heuristic_leaves: 0,
            end_level: None,
            selective_cuts: 0,
            pv: vec![Vec::new(); MAX_PLY + 2],
            lists: (0..MAX_PLY + 2).map(|_| Vec::new()).collect(),
            iteration_best: None,
            peer_finished: None,
            outside_stop: None,
            first_iteration: false,
            thread,
            shared: None,
            deferred: (0..MAX_PLY + 2).map(|_| Vec::new()).collect(),
            kept: vec![E::Kept::default(); MAX_PLY + 2],
        }
    }

    fn report(&self, score: i32, depth: u32, exact: bool, pv: &[usize]) -> SearchReport {
        SearchReport {
            best: pv.first().map_or(Move::Pass, |&m| to_move(m, self.size)),
            score: Score::from_hundredths(score),
            exact,
            probability: None,
            depth,
            nodes: self.nodes,
            elapsed: self.start.elapsed(),
            pv: pv.iter().map(|&m| to_move(m, self.size)).collect(),
            book: false,
        }
    }

    /// Looks at the stop flag, node budget and clock; sets `aborted` when one is reached.
    #[cold]
    fn check_limits(&mut self) {
        if self.first_iteration {
            self.aborted = self.nodes >= self.settings.node_limit;
            return;
        }
        if self.settings.stop.load(AtomicOrdering::Relaxed)
            || self
                .peer_finished
                .is_some_and(|f| f.load(AtomicOrdering::Relaxed))
            || self
                .outside_stop
                .is_some_and(|f| f.load(AtomicOrdering::Relaxed))
            || self.nodes >= self.settings.node_limit
            || self.hard_deadline.is_some_and(|d| Instant::now() >= d)
        {
            self.aborted = true;
        }
    }

    /// Iterative deepening at the root.
    fn iterate(&mut self, board: &B, progress: &mut Progress) -> SearchResult {
        let tt_move = self.tt.probe(board.hash_key()).and_then(|p| p.best);
        let mut root: Vec<(i32, RootMove<B>)> = board
            .moves()
            .filter(|index| !self.settings.excluded.contains(index))
            .map(|index| {
                let child = board.play(index);
                let key = self.ordering.key(board, &child, index, 2, 0, tt_move, || {
                    self.eval.evaluate(&child)
                });
                let root_move = RootMove {
                    index,
                    child,
                    score: -INFINITY,
                    depth: 0,
                    exact: false,
                };
                (key, root_move)
            })
            .collect();
        if root.is_empty() {
            return self.pass_or_end(board, progress);
        }
        // First iteration in the order of any node; later ones best-first from the last.
        root.sort_by_key(|(key, _)| std::cmp::Reverse(*key));
        let mut root: Vec<RootMove<B>> = root.into_iter().map(|(_, r)| r).collect();

        let empties = board.empties();
        let max_depth = self.settings.max_depth.clamp(1, empties);
        // Searches to the end are selective first when the table knows such positions.
        let selective_end = self.settings.probcut > 0
            && self.settings.mpc.is_some_and(|table| {
                (SELECTIVE_END_MIN_EMPTIES..=empties).any(|e| table.end(e).is_some())
            });
        let mut stability = time::Stability::new(root.len());
        let mut best_pv = vec![root[0].index];
        let mut report = self.report(0, 0, false, &best_pv);
        // A search that starts deeper centres its first window on the table's score.
        let mut previous_score = match self.settings.first_depth {
            0 | 1 => 0,
            _ => self.tt.probe(board.hash_key()).map_or(0, |p| p.guess()),
        };
        let mut depth = 0;
        loop {
            // Deeper, or at the end of the game the next selectivity level, then exact.
            if depth < max_depth {
                depth += 1;
                if depth < self.settings.first_depth && depth < max_depth {
                    continue;
                }
                // Hints show every depth: their threads neither skip nor join.
                let every_depth = self.settings.score_all_moves;
                if !every_depth && skips_depth(self.thread, depth) && depth < max_depth {
                    continue;
                }
                // A thread behind joins the deepest iteration under way, where the busy
                // table shares its moves out, rather than repeat a shallower one alone.
                if let Some(started) = self
                    .shared
                    .map(|shared| &shared.deepest_started)
                    .filter(|_| !every_depth)
                {
                    let deepest = started.load(AtomicOrdering::Relaxed);
                    if deepest > depth && deepest <= max_depth {
                        depth = deepest;
                    }
                    started.fetch_max(depth, AtomicOrdering::Relaxed);
                }
                self.end_level = (selective_end && depth >= empties).then_some(0);
            } else {
                match self.end_level {
                    Some(level) if level + 1 < mpc::LEVELS.len() => {
                        self.end_level = Some(level + 1)
                    }
                    Some(_) => self.end_level = None,
                    None => break,
                }
            }
            self.iteration_best = None;
            self.heuristic_leaves = 0;
            self.selective_cuts = 0;
            self.first_iteration = depth == 1;
            let (score, pv) = self.aspiration(&mut root, depth, previous_score);
            self.first_iteration = false;
            if self.aborted {
                // The unfinished iteration's best counts once its first move is searched.
                if let Some((best, best_score)) = self.iteration_best {
                    if best != best_pv[0] {
                        best_pv = vec![best];
                    }
                    report = self.report(best_score, report.depth, false, &best_pv);
                }
                break;
            }
            previous_score = score;
            best_pv = pv;
            stability.record(best_pv[0], score);
            // Exact, without selective cuts, once the depth covers the empties or every line
            // reached the end of the game.
            let exact =
                self.selective_cuts == 0 && (depth >= empties || self.heuristic_leaves == 0);
            report = self.report(score, depth, exact, &best_pv);
            if depth >= empties && !exact {
                report.probability = self.end_level.map(|l| mpc::probability(mpc::LEVELS[l]));
            }
            let scored = if self.settings.score_all_moves {
                self.root_scores(&root)
            } else {
                Vec::new()
            };
            progress(&report, &scored);
            if exact
                || !self
                    .settings
                    .plan
                    .may_start_iteration(self.start.elapsed(), stability.scale())
            {
                break;
            }
        }
        if self.settings.score_all_moves {
            // A hint cut short before some moves were searched scores them statically.
            for r in root.iter_mut().filter(|r| r.depth == 0) {
                r.score = -self.leaf(&r.child);
                r.exact = r.child.is_game_over();
            }
        }
        report.nodes = self.nodes;
        report.elapsed = self.start.elapsed();
        SearchResult {
            report,
            root_scores: self.root_scores(&root),
        }
    }

    /// The root moves searched so far (every one when scoring them all) with their latest
    /// scores, best first.
    fn root_scores(&self, root: &[RootMove<B>]) -> Vec<MoveScore> {
        let mut scores: Vec<MoveScore> = root
            .iter()
            .filter(|r| r.depth > 0 || self.settings.score_all_moves)
            .map(|r| MoveScore {
                mv: to_move(r.index, self.size),
                score: Score::from_hundredths(r.score),
                exact: r.exact,
                depth: r.depth,
                book: false,
            })
            .collect();
        scores.sort_by_key(|m| std::cmp::Reverse(m.score));
        scores
    }

    /// The root when the mover has no move: the game is over, or it must pass and the
    /// search continues from the opponent's side.
    fn pass_or_end(&mut self, board: &B, progress: &mut Progress) -> SearchResult {
        let passed = board.pass();
        if !passed.has_moves() {
            let report = self.report(score::from_discs(board.final_score()), 0, true, &[]);
            return SearchResult {
                report,
                root_scores: Vec::new(),
            };
        }
        let negate = |r: &SearchReport| {
            let mut pv = vec![Move::Pass];
            pv.extend_from_slice(&r.pv);
            SearchReport {
                best: Move::Pass,
                score: -r.score,
                pv,
                ..r.clone()
            }
        };
        // The pass is the one root move; its score is the opponent's, negated.
        let pass = |r: &SearchReport| MoveScore {
            mv: Move::Pass,
            score: -r.score,
            exact: r.exact,
            depth: r.depth,
            book: false,
        };
        let inner = self.iterate(&passed, &mut |r, _| progress(&negate(r), &[pass(r)]));
        SearchResult {
            report: negate(&inner.report),
            root_scores: vec![pass(&inner.report)],
        }
    }

    /// One iteration inside a window around the last score, widened until the score falls
    /// inside it. Returns the score and principal variation.
    fn aspiration(
        &mut self,
        root: &mut [RootMove<B>],
        depth: u32,
        previous: i32,
    ) -> (i32, Vec<usize>) {
        if depth < ASPIRATION_FROM_DEPTH || self.settings.score_all_moves {
            return self.search_root(root, depth, -INFINITY, INFINITY);
        }
        let mut delta = ASPIRATION_WINDOW;
        let (mut alpha, mut beta) = (previous - delta, previous + delta);
        loop {
            let (score, pv) = self.search_root(root, depth, alpha, beta);
            if self.aborted {
                return (score, pv);
            }
            delta *= 4;
            if score <= alpha {
                alpha = score - delta;
            } else if score >= beta {
                beta = score + delta;
            } else {
                return (score, pv);
            }
            if delta > 2_000 {
                (alpha, beta) = (-INFINITY, INFINITY);
            }
        }
    }

    /// Searches every root move at `depth`, the first with the full window and the others
    /// with null windows (re-searched when they prove better). Leaves the moves sorted best
    /// first for the next iteration.
    fn search_root(
        &mut self,
        root: &mut [RootMove<B>],
        depth: u32,
        mut alpha: i32,
        beta: i32,
    ) -> (i32, Vec<usize>) {
        let mut best_score = -INFINITY;
        let mut best_pv = vec![root[0].index];
        let mut best_at = 0;
        let all = self.settings.score_all_moves;
        for (i, root_move) in root.iter_mut().enumerate() {
            let child = root_move.child;
            let leaves_before = self.heuristic_leaves;
            let cuts_before = self.selective_cuts;
            let full_window = i == 0 || all;
            self.kept[1] = self.eval.keep(&child);
            let score = if full_window {
                -self.pvs(&child, depth - 1, -beta, -alpha, 1)
            } else {
                let probe = -self.pvs(&child, depth - 1, -alpha - 1, -alpha, 1);
                if probe > alpha && probe < beta && !self.aborted {
                    // Proven better than the best so far, even if the re-search is cut.
                    self.iteration_best = Some((root_move.index, probe));
                    -self.pvs(&child, depth - 1, -beta, -alpha, 1)
                } else {
                    probe
                }
            };
            if self.aborted {
                break;
            }
            root_move.score = score;
            root_move.depth = depth;
            root_move.exact = (depth > child.empties() && self.selective_cuts == cuts_before)
                || (full_window && self.heuristic_leaves == leaves_before);
            if score > best_score {
                best_score = score;
                best_at = i;
                best_pv = vec![root_move.index];
                best_pv.extend_from_slice(&self.pv[1]);
                self.iteration_best = Some((root_move.index, score));
                if score > alpha && !all {
                    alpha = score;
                    if alpha >= beta {
                        break;
                    }
                }
            }
        }
        if !self.aborted {
            let best_index = root[best_at].index;
            root.sort_by_key(|r| (r.index != best_index, std::cmp::Reverse(r.score)));
        }
        (best_score, best_pv)
    }

    /// Sets the principal variation at `ply` to `m` followed by the one below.
    fn set_pv(&mut self, ply: usize, m: usize) {
        let (head, tail) = self.pv.split_at_mut(ply + 1);
        let line = &mut head[ply];
        line.clear();
        line.push(m);
        line.extend_from_slice(&tail[0]);
    }

    /// The static value of `board` as a leaf: its evaluation, or the exact result when the
    /// game is over (a forced pass costs no depth, so it evaluates the opponent's side).
    #[inline]
    fn leaf(&mut self, board: &B) -> i32 {
        if let Some(score) = self.eval.evaluate_to_move(board) {
            self.heuristic_leaves += 1;
            return score;
        }
        self.passed_leaf(board)
    }

    /// [`Self::leaf`] of `board`, whose side to move must pass.
    #[inline]
    fn passed_leaf(&mut self, board: &B) -> i32 {
        match self.eval.evaluate_to_move(&board.pass()) {
            Some(score) => {
                self.heuristic_leaves += 1;
                -score
            }
            None => score::from_discs(board.final_score()),
        }
    }

    /// A null-window node one move above the leaves: every child is scored statically,
    /// with no table work and no ordering beyond a fixed order of squares on 8x8
    /// ([`ordering::leaf_parent_order`]), as more would cost more than it saves.
    fn depth_one(&mut self, board: &B, moves: B::Moves, alpha: i32, beta: i32, ply: usize) -> i32 {
        match board.as_board8() {
            Some(board8) => {
                let ordered = ordering::leaf_parent_order(board8.move_mask());
                self.score_children(board, ordered, alpha, beta, ply)
            }
            None => self.score_children(board, moves, alpha, beta, ply),
        }
    }

    /// The best static score of `board` (at `ply`)'s children in the order of `moves`, or
    /// the first at or above `beta`.
    #[inline(always)]
    fn score_children(
        &mut self,
        board: &B,
        moves: impl Iterator<Item = usize>,
        alpha: i32,
        beta: i32,
        ply: usize,
    ) -> i32 {
        let mut best = -INFINITY;
        // The evaluation shares work among the children (pattern indices).
        let eval = self.eval;
        let kept = self.kept[ply];
        let mut evaluate_child = eval.children(board, &kept);
        for m in moves {
            // Children are counted without a look at the limits, so the node limit is
            // looked at here: a node budget ends at its last node, not a few past it.
            if self.nodes >= self.settings.node_limit {
                self.aborted = true;
                return 0;
            }
            self.nodes += 1;
            let child = board.play(m);
            let score = match evaluate_child(m, &child) {
                Some(score) => {
                    self.heuristic_leaves += 1;
                    -score
                }
                None => -self.passed_leaf(&child),
            };
            if score > best {
                best = score;
                if score > alpha && score >= beta {
                    break;
                }
            }
        }
        best
    }

    /// Multi-ProbCut: a shallow search predicts the deep one, which is skipped when the
    /// prediction lies far enough outside the window. The regression of deep on shallow
    /// scores and its error come from the table ([`mpc`]) for the node's empties and
    /// depth; a node searching to the end of the game predicts the exact result, at the
    /// selectivity of the iteration.
    fn probcut(&mut self, board: &B, depth: u32, alpha: i32, beta: i32, ply: usize) -> Option<i32> {
        let empties = board.empties();
        // The shallow depth, and the shallow scores at or above which the node fails high
        // and at or below which it fails low.
        let (shallow, high, low) = match self.settings.mpc {
            Some(table) if depth < empties => {
                let cut = table.mid(empties, depth)?;
                let t = self.settings.probcut;
                (cut.shallow, cut.high(beta, t), cut.low(alpha, t))
            }
            Some(table) => {
                let level = self.end_level?;
                if empties < SELECTIVE_END_MIN_EMPTIES {
                    return None;
                }
                let cut = table.end(empties)?;
                let t = mpc::LEVELS[level];
                (cut.shallow, cut.high(beta, t), cut.low(alpha, t))
            }
            None if depth < empties && depth >= UNCALIBRATED_MIN_DEPTH => {
                let shallow = mpc::shallow_depth(depth);
                let sigma =
                    UNCALIBRATED_SIGMA + UNCALIBRATED_SIGMA_PER_PLY * (depth - shallow) as i32;
                let margin = sigma * self.settings.probcut as i32 / 10;
                (shallow, beta + margin, alpha - margin)
            }
            None => return None,
        };
        if high < PROBCUT_MAX_BOUND {
            let score = self.pvs(board, shallow, high - 1, high, ply);
            if self.aborted {
                return None;
            }
            if score >= high {
                self.selective_cuts += 1;
                return Some(beta);
            }
        }
        if low > -PROBCUT_MAX_BOUND {
            let score = self.pvs(board, shallow, low, low + 1, ply);
            if self.aborted {
                return None;
            }
            if score <= low {
                self.selective_cuts += 1;
                return Some(alpha);
            }
        }
        None
    }

    /// The exact answer of `solver` for the small endgame `board` to the null window above
    /// `alpha`, in `nodes_left` of the node limit (more than the solver may pass its limit
    /// by, all of it without one).
    fn small_endgame(
        &mut self,
        solver: SmallSolver,
        board: &Board8,
        alpha: i32,
        nodes_left: u64,
    ) -> i32 {
        // Exact scores are whole discs: above alpha is above alpha's whole discs.
        let disc_alpha = alpha.div_euclid(score::from_discs(1));
        let limits = SolveLimits {
            stop: Some(self.settings.stop),
            deadline: self.hard_deadline,
            max_nodes: (self.settings.node_limit != u64::MAX)
                .then(|| nodes_left - endgame::MOST_NODES_PAST_LIMIT),
            nodes_seen: None,
        };
        let (discs, nodes) = solver.null_window(board, disc_alpha, &limits);
        // The solver counted this node too.
        self.nodes += nodes.saturating_sub(1);
        match discs {
            Some(discs) => score::from_discs(discs),
            None => {
                self.aborted = true;
                0
            }
        }
    }

    /// Whether a table entry's selectivity serves the search now: a selective result to the
    /// end serves searches no more demanding than its own.
    #[inline]
    fn selective_enough(&self, entry: &tt::Probe) -> bool {
        match (entry.selectivity, self.end_level) {
            (0, _) => true,
            (_, None) => false,
            (stored, Some(level)) => stored as usize > level,
        }
    }

    /// Counts what a table entry standing in for the search of a position with `empties`
    /// empty squares brings into the result: an evaluation below when it is not exact
    /// (exact results are stored with the empties as their depth), a selective cut when it
    /// is selective.
    #[inline]
    fn count_table_answer(&mut self, entry: &tt::Probe, empties: u32) {
        if entry.depth < empties {
            self.heuristic_leaves += 1;
        }
        if entry.selectivity > 0 {
            self.selective_cuts += 1;
        }
    }

    /// Enhanced transposition cutoff: a child whose table entry, deep enough, already
    /// proves it at most `-beta` for the opponent settles the node at `beta` or above
    /// before any child is searched. The children's entries were prefetched as they were
    /// generated.
    fn transposition_cutoff(
        &mut self,
        list: &[(i32, usize, B)],
        depth: u32,
        beta: i32,
    ) -> Option<i32> {
        for (_, _, child) in list {
            let Some(entry) = self.tt.probe(child.hash_key()) else {
                continue;
            };
            if entry.depth + 1 >= depth && entry.upper <= -beta && self.selective_enough(&entry) {
                self.count_table_answer(&entry, child.empties());
                return Some(-entry.upper);
            }
        }
        None
    }

    /// Negamax principal-variation search of `board` to `depth` plies within
    /// (`alpha`, `beta`); fail-soft. Returns 0 after an abort (the caller discards it).
    ///
    /// A node goes through these steps, each ending it when it settles the score: enter it
    /// (count it, look at the limits), hand a null-window search near the end to the exact
    /// solver, play a pass, probe the table, try ProbCut, order the moves, try an enhanced
    /// transposition cutoff, search the moves (putting off those another thread is
    /// searching), and store the result in the table.
    fn pvs(&mut self, board: &B, depth: u32, alpha: i32, beta: i32, ply: usize) -> i32 {
        let pv_node = beta - alpha > 1;
        if !self.enter_node(ply, pv_node) {
            return 0;
        }
        let empties = board.empties();
        let depth = self.near_end_depth(depth, empties);
        if depth == 0 || ply >= MAX_PLY {
            return self.leaf(board);
        }
        if !pv_node {
            if let Some(score) = self.hand_off_to_solver(board, depth, alpha) {
                return score;
            }
        }
        let moves = board.moves();
        if moves.clone().next().is_none() {
            return self.search_pass(board, depth, alpha, beta, ply, pv_node);
        }
        // Beyond the empties every line ends the game: the result is exact at any depth.
        let depth = depth.min(empties);
        if depth == 1 && !pv_node {
            return self.depth_one(board, moves, alpha, beta, ply);
        }
        let hash = board.hash_key();
        let tt_move = match self.probe_table(board, hash, depth, alpha, beta, pv_node) {
            ControlFlow::Break(score) => return score,
            ControlFlow::Continue(tt_move) => tt_move,
        };
        let cuts_before = self.selective_cuts;
        if !pv_node {
            if let Some(score) = self.try_probcut(board, depth, alpha, beta, ply) {
                return score;
            }
        }
        let mut list = std::mem::take(&mut self.lists[ply]);
        let kept = self.kept[ply];
        self.order_moves(&mut list, board, moves, depth, ply, tt_move, &kept);
        if !pv_node && depth >= ETC_MIN_DEPTH {
            if let Some(score) = self.transposition_cutoff(&list, depth, beta) {
                self.lists[ply] = list;
                return score;
            }
        }
        let best = self.search_moves(board, &mut list, depth, alpha, beta, ply, &kept);
        self.lists[ply] = list;
        if self.aborted {
            return 0;
        }
        if depth >= MIN_TT_DEPTH {
            self.store(hash, depth, empties, (alpha, beta), best, cuts_before);
        }
        best.0
    }

    /// Enters a node: looks at the limits when due and counts the node. False when the
    /// search has stopped: a caller may go on after a stop, and the node is then neither
    /// visited nor counted.
    #[inline]
    fn enter_node(&mut self, ply: usize, pv_node: bool) -> bool {
        if pv_node {
            self.pv[ply].clear();
        }
        if self.nodes >= self.next_check {
            // The node limit is looked at when reached, before the node is counted: a
            // search never passes it.
            self.next_check = (self.nodes + self.check_interval).min(self.settings.node_limit);
            self.check_limits();
        }
        if self.aborted {
            return false;
        }
        self.nodes += 1;
        true
    }

    /// The depth of a node with `empties` empty squares asked to search `depth` plies: with
    /// the solver at hand, a line that stops a few plies short of the end goes on to it, as
    /// the solver answers there about as fast as the search would evaluate.
    #[inline]
    fn near_end_depth(&self, depth: u32, empties: u32) -> u32 {
        if self.settings.small_solver.is_some()
            && empties <= NEAR_END_MAX_EMPTIES
            && depth + NEAR_END_PLIES >= empties
        {
            depth.max(empties)
        } else {
            depth
        }
    }

    /// Hands a null-window search to the end of a small 8x8 position to the exact solver:
    /// its score, or `None` where the search goes on by itself (other sizes, more empties,
    /// and near a node limit, which the search keeps to the node).
    #[inline]
    fn hand_off_to_solver(&mut self, board: &B, depth: u32, alpha: i32) -> Option<i32> {
        let empties = board.empties();
        if depth < empties || empties > SmallSolver::MAX_EMPTIES {
            return None;
        }
        let (Some(solver), Some(eight)) = (self.settings.small_solver, board.as_board8()) else {
            return None;
        };
        let left = self.settings.node_limit.saturating_sub(self.nodes);
        (left > endgame::MOST_NODES_PAST_LIMIT)
            .then(|| self.small_endgame(solver, eight, alpha, left))
    }

    /// A node whose side to move has no move: the final score when the opponent has none
    /// either, else the opponent's search.
    fn search_pass(
        &mut self,
        board: &B,
        depth: u32,
        alpha: i32,
        beta: i32,
        ply: usize,
        pv_node: bool,
    ) -> i32 {
        let passed = board.pass();
        if !passed.has_moves() {
            return score::from_discs(board.final_score());
        }
        self.kept[ply + 1] = self.eval.keep_passed(&self.kept[ply]);
        let score = -self.pvs(&passed, depth, -beta, -alpha, ply + 1);
        if pv_node {
            self.set_pv(ply, PASS);
        }
        score
    }

    /// Probes the table for `board` (its key `hash`) at a node deep enough to use it: an
    /// entry deep and selective enough whose bound settles a null-window node ends it
    /// (`Break` with the score); otherwise the entry's best move, if legal, to try first.
    #[inline]
    fn probe_table(
        &mut self,
        board: &B,
        hash: u64,
        depth: u32,
        alpha: i32,
        beta: i32,
        pv_node: bool,
    ) -> ControlFlow<i32, Option<usize>> {
        if depth < MIN_TT_DEPTH {
            return ControlFlow::Continue(None);
        }
        let Some(entry) = self.tt.probe(hash) else {
            return ControlFlow::Continue(None);
        };
        if !pv_node && entry.depth >= depth && self.selective_enough(&entry) {
            if let Some(score) = entry.cut(alpha, beta) {
                self.count_table_answer(&entry, board.empties());
                return ControlFlow::Break(score);
            }
        }
        ControlFlow::Continue(entry.best.filter(|&m| board.is_legal(m)))
    }

    /// ProbCut at a null-window node deep enough, when it is on and neither side has far
    /// fewer discs than the other: the score it settles the node at (0 after an abort).
    #[inline]
    fn try_probcut(
        &mut self,
        board: &B,
        depth: u32,
        alpha: i32,
        beta: i32,
        ply: usize,
    ) -> Option<i32> {
        let (mine, theirs) = (board.player_discs(), board.opponent_discs());
        let lopsided = mine.min(theirs) * PROBCUT_LOPSIDED <= mine.max(theirs);
        if self.settings.probcut == 0 || depth < PROBCUT_MIN_DEPTH || lopsided {
            return None;
        }
        let cut = self.probcut(board, depth, alpha, beta, ply);
        if cut.is_none() && self.aborted {
            return Some(0);
        }
        cut
    }

    /// Fills `list` with the children of `board`, the position at `ply` that `kept` is the
    /// evaluation's memory of, each with its ordering key.
    #[allow(clippy::too_many_arguments)]
    #[inline]
    fn order_moves(
        &mut self,
        list: &mut Vec<(i32, usize, B)>,
        board: &B,
        moves: B::Moves,
        depth: u32,
        ply: usize,
        tt_move: Option<usize>,
        kept: &E::Kept,
    ) {
        list.clear();
        // Children deep enough to probe the table have their entries fetched now, so the
        // memory latency overlaps the work on their elder siblings.
        let prefetch = depth > MIN_TT_DEPTH;
        // The evaluation shares work among the children (pattern indices): prepared the
        // first time the ordering asks for a child's value, so only at nodes where it asks.
        let eval = self.eval;
        let mut scorer = None;
        for m in moves {
            let child = board.play(m);
            if prefetch {
                self.tt.prefetch(child.hash_key());
            }
            let key = self
                .ordering
                .key(board, &child, m, depth, ply, tt_move, || {
                    // A child whose side to move must pass is evaluated as it stands.
                    scorer.get_or_insert_with(|| eval.children(board, kept))(m, &child)
                        .unwrap_or_else(|| eval.evaluate(&child))
                });
            list.push((key, m, child));
        }
    }

    /// Searches the children in `list` in order of their keys: the first with the full
    /// window, each other with a null window and again with the full one when it lands
    /// inside (`search_child`). In a parallel search (ABDADA), a child that another thread
    /// is searching is put off until the others are done. The best score and move (both
    /// meaningless after an abort).
    #[allow(clippy::too_many_arguments)]
    fn search_moves(
        &mut self,
        board: &B,
        list: &mut [(i32, usize, B)],
        depth: u32,
        mut alpha: i32,
        beta: i32,
        ply: usize,
        kept: &E::Kept,
    ) -> (i32, Option<usize>) {
        let pv_node = beta - alpha > 1;
        let mut best_score = -INFINITY;
        let mut best_move = None;
        let mut deferred = std::mem::take(&mut self.deferred[ply]);
        deferred.clear();
        let share = self
            .shared
            .map(|shared| &shared.busy)
            .filter(|_| depth > BUSY_MIN_DEPTH);
        let count = list.len();
        // The moves in order, then those put off because another thread had them.
        let mut i = 0;
        loop {
            let (m, child, first) = if i < count {
                let (m, child) = select_next(list, i);
                (m, child, i == 0)
            } else if i - count < deferred.len() {
                let (m, child) = deferred[i - count];
                (m, child, false)
            } else {
                break;
            };
            let mark = share.map(|busy| (busy, child.hash_key()));
            if let Some((busy, key)) = mark {
                if i > 0 && i < count && busy.is_busy(key) {
                    deferred.push((m, child));
                    i += 1;
                    continue;
                }
                busy.enter(key);
            }
            i += 1;
            self.kept[ply + 1] = self.eval.keep_child(kept, board, m, &child);
            let score = self.search_child(&child, depth, alpha, beta, ply, first);
            if let Some((busy, key)) = mark {
                busy.leave(key);
            }
            if self.aborted {
                break;
            }
            if score > best_score {
                best_score = score;
                best_move = Some(m);
                if score > alpha {
                    alpha = score;
                    if pv_node {
                        self.set_pv(ply, m);
                    }
                    if alpha >= beta {
                        self.ordering.on_cutoff(m, depth, ply);
                        break;
                    }
                }
            }
        }
        self.deferred[ply] = deferred;
        (best_score, best_move)
    }

    /// The score of `child` of a node at `ply` searching `depth` plies within (`alpha`,
    /// `beta`): the `first` child with the full window, the others with a null window
    /// first, and again with the full one when they land inside it.
    #[inline]
    fn search_child(
        &mut self,
        child: &B,
        depth: u32,
        alpha: i32,
        beta: i32,
        ply: usize,
        first: bool,
    ) -> i32 {
        if first {
            return -self.pvs(child, depth - 1, -beta, -alpha, ply + 1);
        }
        let probe = -self.pvs(child, depth - 1, -alpha - 1, -alpha, ply + 1);
        if probe > alpha && probe < beta {
            -self.pvs(child, depth - 1, -beta, -alpha, ply + 1)
        } else {
            probe
        }
    }

    /// Stores the result `best` (score, move) of a node searched to `depth` within
    /// `window` in the table under `hash`. A search to the end (`empties` reached) with
    /// selective cuts below, more of them than `cuts_before`, stores its level (1-based).
    fn store(
        &mut self,
        hash: u64,
        depth: u32,
        empties: u32,
        (alpha, beta): (i32, i32),
        (best_score, best_move): (i32, Option<usize>),
        cuts_before: u64,
    ) {
        let bound = if best_score >= beta {
            Bound::Lower
        } else if best_score > alpha {
            Bound::Exact
        } else {
            Bound::Upper
        };
        // A node that failed low has no proven best move: the table keeps its last.
        // (The exact solver's null-window nodes store their best bound's move instead,
        // for re-searches with a lower window to try first: there every bound is a
        // proven score, here a fail-low's bounds are evaluations.)
        let best_move = if bound == Bound::Upper {
            None
        } else {
            best_move
        };
        let selectivity = match self.end_level {
            Some(level) if depth >= empties && self.selective_cuts > cuts_before => level as u8 + 1,
            _ => 0,
        };
        self.tt
            .store(hash, best_score, best_move, depth, bound, selectivity);
    }
}

/// Selection sort, one step at a time (a cutoff often comes before the end): moves the
/// entry of `list[i..]` with the highest key to `i`, and gives its move and position.
#[inline]
fn select_next<B: Copy>(list: &mut [(i32, usize, B)], i: usize) -> (usize, B) {
    let mut top = i;
    for j in i + 1..list.len() {
        if list[j].0 > list[top].0 {
            top = j;
        }
    }
    list.swap(i, top);
    let (_, m, child) = list[i];
    (m, child)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::Classic;

    /// A null-window search of the position after 1. f5 (to `depth`, above `beta - 1`)
    /// with the table saying that one of its children is worth at most `child_upper` to
    /// the opponent from a search of `child_depth`: the score and the nodes visited.
    fn null_window_with_a_known_child(
        depth: u32,
        child_depth: u32,
        child_upper: i32,
    ) -> (i32, u64) {
        let board = Board8::START.play(37);
        let child = board.play(board.moves().last().unwrap());
        let tt = TranspositionTable::new(1);
        tt.store(
            child.hash_key(),
            child_upper,
            None,
            child_depth,
            Bound::Upper,
            0,
        );
        let stop = AtomicBool::new(false);
        // Without selective cuts, so that only the table settles the node unsearched.
        let settings = SearchSettings {
            probcut: 0,
            mpc: None,
            ..SearchSettings::by_depth(depth, &stop)
        };
        let eval = Classic::default();
        let mut searcher = Searcher::new(&board, &eval, &tt, &settings, 0);
        let beta = 1000;
        let score = searcher.pvs(&board, depth, beta - 1, beta, 1);
        (score, searcher.nodes)
    }

    #[test]
    fn a_child_the_table_proves_bad_enough_for_the_opponent_settles_the_node_unsearched() {
        let depth = ETC_MIN_DEPTH;
        // Proven at most -50 discs for the opponent at depth - 1: the node is worth 50.
        assert_eq!(
            null_window_with_a_known_child(depth, depth - 1, -5000),
            (5000, 1)
        );
        // A shallower search proves nothing at this depth, nor a bound above -beta; and
        // nearer the leaves the children are not looked up: the moves are searched.
        for (depth, child_depth, upper) in [
            (depth, depth - 2, -5000),
            (depth, depth - 1, -900),
            (depth - 1, depth - 2, -5000),
        ] {
            let (score, nodes) = null_window_with_a_known_child(depth, child_depth, upper);
            assert!(
                nodes > 1,
                "{depth} {child_depth} {upper}: {score} in {nodes} nodes"
            );
        }
    }
}
