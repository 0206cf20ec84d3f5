//! The persistent engine that front-ends drive: it is told positions and limits, searches,
//! and keeps what it learned between moves and games. It knows nothing of any protocol.

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{mpsc, Arc};
use std::time::Duration;

use crate::platform::Instant;

use crate::board::{AnyBoard, Board, BoardSize, BoardSizeError, Move, Position, Square};
use crate::book::packed::PackedBook;
use crate::book::Backing;
use crate::endgame::{self, MemoryError, Solver};
use crate::eval::{Classic, ClassicWeights, EvalKind, Pattern, SquareTable};
use crate::memory::SearchRunning;
use crate::players::BaselinePlayer;
use crate::rng::Rng;
use crate::score::Score;
use crate::search::time::{self, ExactPlan, TimeManager};
use crate::search::{
    self, exact_solve, tt::TranspositionTable, Limits, MoveScore, MpcTable, SearchReport,
};
use crate::with_board;

mod clocks;
mod config;
mod options;
mod session;
mod stop;

pub use clocks::{GameClocks, TimeControl, TimeLeft};
pub use session::{Choice, Session, SetOptionError, Solved, Timekeeping};

pub use config::{Config, Source};
pub use options::{
    check as check_option, command_line_help, find as find_option, threads as read_threads,
};
pub use options::{EngineOption, OptionError, OptionKind, OPTIONS};
use stop::Shortest;
pub use stop::Stopper;

/// How many more empty squares than a level's midgame depth a search at that level takes
/// to the end of the game ([`Limits::level`]): exact results are cheap that close to the
/// end, and NBoard leaves endgame depths to the engine.
pub const LEVEL_EXACT_EXTRA: u32 = 6;

/// Why an engine cannot play on a board size ([`Engine::check_size`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SizeError {
    /// No board has this side: Emilia plays 6x6, 8x8, 10x10 and 12x12.
    Unplayable(usize),
    /// The baseline player the engine is set to (option `player`) plays 8x8 only.
    PlayerEightOnly {
        /// The player's name.
        player: &'static str,
        /// The side asked for.
        size: usize,
    },
}

impl std::fmt::Display for SizeError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            SizeError::Unplayable(size) => BoardSizeError(*size).fmt(f),
            SizeError::PlayerEightOnly { player, .. } => {
                write!(f, "player {player} plays 8x8 only")
            }
        }
    }
}

impl std::error::Error for SizeError {}

/// The persistent engine: it searches positions of every board size and keeps its tables
/// between moves and games. Set it up with a [`Config`] (or the protocols' named options,
/// [`Engine::set_option`]), search with [`Limits`], and stop a search from another thread
/// with its [`Stopper`].
///
/// ```
/// use std::sync::mpsc;
/// use std::time::Duration;
/// use emilia_core::engine::Source;
/// use emilia_core::{Config, Engine, Limits, Position};
///
/// # fn main() -> Result<(), Box<dyn std::error::Error>> {
/// // 16 MiB of tables, no opening book, one search thread.
/// let mut engine = Engine::new(Config {
///     hash_mib: 16,
///     threads: 1,
///     book: Source::Off,
///     ..Config::default()
/// })?;
///
/// // A search six plies deep: one report per finished iteration, then the result.
/// let start = Position::start(8).unwrap();
/// let mut depths = Vec::new();
/// let limits = Limits {
///     depth: Some(6),
///     ..Limits::default()
/// };
/// let report = engine.search(&start, &limits, &mut |iteration| depths.push(iteration.depth));
/// assert_eq!(depths.last(), Some(&6));
/// assert_eq!(report.depth, 6);
/// assert!(start.legal_moves().contains(&report.best));
///
/// // A search with no end of its own (a minute), stopped from another thread once it has
/// // finished its first iteration: it returns at once with its best move so far.
/// let stopper = engine.stopper();
/// let (started, first_iteration) = mpsc::channel();
/// let long = Limits {
///     move_time: Some(Duration::from_secs(60)),
///     ..Limits::default()
/// };
/// let report = std::thread::scope(|scope| {
///     scope.spawn(move || {
///         first_iteration.recv().unwrap();
///         stopper.stop();
///     });
///     engine.search(&start, &long, &mut |_| {
///         let _ = started.send(());
///     })
/// });
/// assert!(report.elapsed < Duration::from_secs(60));
/// assert!(report.depth >= 1 && report.depth < 60);
/// assert!(start.legal_moves().contains(&report.best));
/// # Ok(())
/// # }
/// ```
pub struct Engine {
    /// Every setting (the options).
    config: Config,
    tt: TranspositionTable,
    /// The exact endgame solver with its share of `hash`, made with the engine so that no
    /// search's clock pays for its tables.
    solver: Solver,
    /// The pattern evaluation; `None` only if the built-in weights failed to load (then the
    /// engine falls back to the classic evaluation).
    pattern: Option<Pattern>,
    classic: Classic,
    square_table: SquareTable,
    /// The Multi-ProbCut table of `config.mpc`.
    mpc: Option<Arc<MpcTable>>,
    /// The opening book of `config.book`.
    book: Option<Arc<PackedBook>>,
    /// Chooses among book moves within `config.book_randomness`.
    book_rng: Rng,
    /// The baseline player of `config.player`.
    player: Option<Box<dyn BaselinePlayer>>,
    stopper: Stopper,
    /// Plans every search's time and holds it to the plan.
    time: TimeManager,
    /// What the last pondering found, for the next search if it is of the same position.
    pondered: Option<Pondered>,
    /// After [`Engine::go`] with option `ponder` on: the position its move leads to, and
    /// the one after the reply it expects, to ponder while the game is at the first.
    ponder_target: Option<(Position, Position)>,
    /// The first iteration of the search under way (deeper than 1 after a ponder hit).
    first_depth: u32,
}

/// A search that started from what pondering found: the opponent played the expected move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PonderHit {
    /// The deepest iteration pondering finished, where the search started (1 when it
    /// found the exact result: the search then finds it in the table).
    pub depth: u32,
    /// How long pondering searched the position.
    pub time: Duration,
}

/// What pondering found: the position, how deep and long it searched it, and its deepest
/// finished iteration's report.
struct Pondered {
    position: Position,
    hit: PonderHit,
    report: SearchReport,
}

impl Engine {
    /// Search time when no limit is given.
    pub const DEFAULT_MOVE_TIME: Duration = Duration::from_secs(1);

    /// Default ProbCut margin on a board of side `size`, tenths of a standard deviation.
    /// Half a standard deviation on 10x10 and 12x12, whose deeper searches allow the
    /// lighter margin (the matches that chose it: docs/experiments.md, ProbCut).
    pub fn default_probcut(size: usize) -> u32 {
        if size >= 10 {
            5
        } else {
            10
        }
    }

    /// Default memory of all search tables together (option `hash`), MiB.
    pub const DEFAULT_HASH_MIB: usize = 64;

    /// The engine `config` sets up: its tables made now, before any search's clock runs
    /// (halved until the memory can be had: [`Config::hash_mib`] then says what was), and
    /// the weights, tables, book and player `config` names loaded. Fails, saying why, when
    /// something `config` names cannot be had.
    ///
    /// ```
    /// use emilia_core::engine::Source;
    /// use emilia_core::{Config, Engine};
    ///
    /// # fn main() -> Result<(), Box<dyn std::error::Error>> {
    /// // 16 MiB of tables and no opening book; every other setting its default.
    /// let engine = Engine::new(Config {
    ///     hash_mib: 16,
    ///     book: Source::Off,
    ///     ..Config::default()
    /// })?;
    /// assert_eq!(engine.config().book, Source::Off);
    ///
    /// // What cannot be had is refused.
    /// let missing = Config {
    ///     weights: Some("no/such/weights.bin".into()),
    ///     ..Config::default()
    /// };
    /// assert!(Engine::new(missing).is_err());
    /// # Ok(())
    /// # }
    /// ```
    pub fn new(config: Config) -> Result<Engine, OptionError> {
        let mut engine = Engine::with_tables(config.hash_mib).map_err(OptionError::Memory)?;
        let hash_mib = engine.config.hash_mib;
        engine.configure(Config { hash_mib, ..config })?;
        Ok(engine)
    }

    /// An engine with the default settings and `mib` MiB of search tables (clamped to the
    /// option's range; halved until the memory can be had), or why not even the smallest
    /// tables can be had.
    fn with_tables(mib: usize) -> Result<Engine, MemoryError> {
        // Every size's tables now, before any search's clock runs.
        crate::setup::prepare();
        let pattern = Pattern::embedded()
            .map_err(|e| log::error!("pattern evaluation unavailable: {e:#}"))
            .ok();
        let mut mib = mib.clamp(1, 65536);
        let (tt, mut solver) = loop {
            match make_tables(mib) {
                Ok(tables) => break tables,
                Err(e) if mib > 1 => {
                    log::error!("hash {mib}: {e}; trying {}", mib / 2);
                    mib /= 2;
                }
                Err(e) => return Err(e),
            }
        };
        let threads = available_cores();
        let stopper = Stopper::default();
        solver.set_threads(threads);
        Ok(Engine {
            config: Config {
                hash_mib: mib,
                threads,
                eval: if pattern.is_some() {
                    EvalKind::Pattern
                } else {
                    EvalKind::Classic
                },
                ..Config::default()
            },
            pattern,
            mpc: Some(Arc::new(MpcTable::embedded().clone())),
            tt,
            solver,
            classic: Classic::default(),
            square_table: SquareTable::default(),
            time: TimeManager::new(stopper.shared_flag()),
            stopper,
            player: None,
            book: Some(PackedBook::embedded()),
            book_rng: Rng::new(0),
            pondered: None,
            ponder_target: None,
            first_depth: 1,
        })
    }

    /// What stops this engine's searches from another thread.
    pub fn stopper(&self) -> Stopper {
        self.stopper.clone()
    }

    /// Replaces the weights of the classic evaluation (for tuning experiments).
    pub fn set_classic_weights(&mut self, weights: &ClassicWeights) {
        self.classic = Classic::new(weights);
    }

    /// Forgets what earlier searches learned (empties the search tables).
    pub fn clear_hash(&mut self) {
        self.tt.clear();
        self.solver.clear();
    }

    /// Fails when the engine cannot play on a board of side `size`: Emilia plays the sizes
    /// in [`SIZES`](crate::board::SIZES), and the baseline players `squares` and
    /// `quadrant` (option `player`) have 8x8 tables only.
    pub fn check_size(&self, size: usize) -> Result<(), SizeError> {
        match &self.player {
            _ if BoardSize::new(size).is_err() => Err(SizeError::Unplayable(size)),
            Some(player) if !player.supports(size) => Err(SizeError::PlayerEightOnly {
                player: player.name(),
                size,
            }),
            _ => Ok(()),
        }
    }

    /// Runs `wait` (a front-end waits there for its next line) and meanwhile, with option
    /// `ponder` on and the game at the position the last [`Engine::go`] move led to,
    /// ponders the reply it expects ([`Engine::ponder_while`]); returns what `wait`
    /// returned. Nothing is pondered while a stop request is pending.
    pub fn wait_pondering<T>(&mut self, now: &Position, wait: impl FnOnce() -> T) -> T {
        let target = self
            .ponder_target
            .filter(|(after, _)| self.config.ponder && after == now && !self.stopper.pending());
        match target {
            Some((_, expected)) => self.ponder_while(&expected, wait),
            None => wait(),
        }
    }

    /// Searches `position`, the position expected after the opponent's reply, on a thread
    /// of the engine's own while `wait` runs on this one, then stops that search and
    /// returns what `wait` returned. What pondering found serves the next search if it is
    /// of the same position: it starts at the depth reached here on the table filled here
    /// ([`Engine::go`] says whether it did). A stop requested before `wait` returns ends
    /// pondering early; nothing is reported while it runs. Where threads cannot be started
    /// ([`platform`](crate::platform)), it only waits.
    pub fn ponder_while<T>(&mut self, position: &Position, wait: impl FnOnce() -> T) -> T {
        if !crate::platform::HAS_THREADS {
            return wait();
        }
        // Lowered here, before the search starts: a stop from now on ends it.
        self.stopper.arm();
        let stopper = self.stopper.clone();
        std::thread::scope(|scope| {
            let pondering = scope.spawn(|| self.ponder(position));
            let waited = wait();
            stopper.stop();
            if pondering.join().is_err() {
                log::error!("pondering failed");
            }
            waited
        })
    }

    /// Searches `position` until the stop flag is raised or the result is exact, and
    /// keeps what it found ([`Engine::ponder_while`]). Never lowers the stop flag, so that
    /// a stop raised before it starts is not lost.
    fn ponder(&mut self, position: &Position) {
        let start = Instant::now();
        // Pondering the same position again (after a command that changed nothing) goes on
        // from where it stopped.
        let before = self.pondered.take().filter(|p| p.position == *position);
        if position.is_game_over() || self.player.is_some() {
            return;
        }
        // The midgame search, deeper and deeper, unless the exact solver usually finishes
        // within a move's time: unlimited, the solver would take over at any number of
        // empties and might not finish a single search.
        let (_, _, empties) = position.board.counts();
        let limits = Limits {
            depth: (empties > time::solve_empties(position.size())).then(|| empties - 1),
            ..Limits::default()
        };
        self.first_depth = before.as_ref().map_or(1, |p| p.hit.depth);
        let outcome = self.run_from(position, &limits, false, &[], &mut |_, _| {});
        self.first_depth = 1;
        let time = start.elapsed() + before.as_ref().map_or(Duration::ZERO, |p| p.hit.time);
        let pondered = match before {
            Some(before) if outcome.report.depth <= before.hit.depth && !outcome.report.exact => {
                Pondered {
                    hit: PonderHit { time, ..before.hit },
                    ..before
                }
            }
            _ if outcome.report.depth == 0 => return,
            _ => Pondered {
                position: *position,
                hit: PonderHit {
                    // An exact result lives in the table it came from; the next search then
                    // starts as usual and finds it there.
                    depth: if outcome.report.exact {
                        1
                    } else {
                        outcome.report.depth
                    },
                    time,
                },
                report: outcome.report,
            },
        };
        log::info!("pondered {position}: depth {}", pondered.hit.depth);
        self.pondered = Some(pondered);
    }

    /// The move to play in a game: [`Engine::search`], and whether it started from what
    /// pondering found. A search that starts at pondering's depth and finishes no iteration
    /// answers what pondering found. With option `ponder` on, the reply the search expects
    /// is pondered while the front-end waits ([`Engine::wait_pondering`]).
    pub fn go(
        &mut self,
        position: &Position,
        limits: &Limits,
        progress: &mut dyn FnMut(&SearchReport),
    ) -> (SearchReport, Option<PonderHit>) {
        let pondered = self.pondered.take().filter(|p| p.position == *position);
        self.first_depth = pondered.as_ref().map_or(1, |p| p.hit.depth);
        let mut report = self.search(position, limits, progress);
        self.first_depth = 1;
        let hit = pondered.map(|pondered| {
            if report.depth == 0 && !report.book && !report.exact && pondered.report.depth > 0 {
                report = SearchReport {
                    nodes: report.nodes,
                    elapsed: report.elapsed,
                    ..pondered.report
                };
            }
            pondered.hit
        });
        self.ponder_target = self.expected_after(position, &report);
        (report, hit)
    }

    /// With option `ponder` on, the position after `report`'s move in `position` and the
    /// one after the reply it expects, if the game goes on there.
    fn expected_after(
        &self,
        position: &Position,
        report: &SearchReport,
    ) -> Option<(Position, Position)> {
        if !self.config.ponder {
            return None;
        }
        let after = position.play(report.best).ok()?;
        let expected = after.play(*report.pv.get(1)?).ok()?;
        (!expected.is_game_over()).then_some((after, expected))
    }

    /// Searches `position` within `limits` and returns the move to play: always a legal
    /// one, `Move::Pass` when the mover must pass (the search then looks at the
    /// opponent's replies for the score). `progress` is called after every finished
    /// iteration. With option `player` set, the baseline player chooses instead.
    pub fn search(
        &mut self,
        position: &Position,
        limits: &Limits,
        progress: &mut dyn FnMut(&SearchReport),
    ) -> SearchReport {
        let start = Instant::now();
        let limits = self.resolve(limits, position);
        self.time.move_starts(position, &limits);
        let mut report = if let Some(player) = self.player.as_mut() {
            let choice = player.choose(position, &limits);
            let report = SearchReport {
                best: choice.mv,
                score: Score::from_hundredths(choice.score),
                exact: false,
                probability: None,
                depth: choice.depth,
                nodes: choice.nodes,
                elapsed: start.elapsed(),
                pv: vec![choice.mv],
                book: false,
            };
            progress(&report);
            report
        } else if let Some(report) = self.book_move(position, start) {
            progress(&report);
            report
        } else {
            let limits = with_default_time(limits.clone());
            self.run(position, &limits, false, &[], &mut |r, _| progress(r))
                .report
        };
        if position.play(report.best).is_err() {
            let legal = position.legal_moves();
            let fallback = legal.first().copied().unwrap_or(Move::Pass);
            log::error!(
                "the search answered {} in {position}; playing {fallback} instead",
                report.best
            );
            report.best = fallback;
            report.pv = vec![fallback];
        }
        report.elapsed = report.elapsed.max(start.elapsed());
        self.time.move_ended(position, &limits, start.elapsed());
        report
    }

    /// Solves `position` exactly: searches to the end of the game unless `limits` (time,
    /// nodes, or the stop flag) cut it short; `exact` in the report says which. A depth or
    /// level in `limits` is ignored.
    ///
    /// A 6x6 position near the end, solved and checked against a plain minimax of the
    /// rules:
    ///
    /// ```
    /// use emilia_core::board::Position;
    /// use emilia_core::engine::{Config, Engine, Source};
    /// use emilia_core::search::Limits;
    ///
    /// /// The final disc difference for the side to move under perfect play.
    /// fn minimax(position: &Position) -> i32 {
    ///     if position.is_game_over() {
    ///         return position.final_score_for(position.to_move);
    ///     }
    ///     let moves = position.legal_moves(); // `[Move::Pass]` when the mover has none
    ///     moves.iter().map(|&m| -minimax(&position.play(m).unwrap())).max().unwrap()
    /// }
    ///
    /// # fn main() -> Result<(), Box<dyn std::error::Error>> {
    /// let (position, _) = Position::start(6)
    ///     .unwrap()
    ///     .play_transcript("c2b2a2d2e2b4e5f1a4d5e3a1c5a3f2d6c6f4f6b6a5c1")?;
    /// let mut engine = Engine::new(Config {
    ///     hash_mib: 16,
    ///     book: Source::Off,
    ///     ..Config::default()
    /// })?;
    /// let report = engine.solve(&position, &Limits::default(), &mut |_| {});
    /// assert!(report.exact);
    /// let perfect = minimax(&position);
    /// assert_eq!(report.score.whole_discs(), perfect);
    /// // The move it found reaches that score.
    /// assert_eq!(-minimax(&position.play(report.best)?), perfect);
    /// # Ok(())
    /// # }
    /// ```
    pub fn solve(
        &mut self,
        position: &Position,
        limits: &Limits,
        progress: &mut dyn FnMut(&SearchReport),
    ) -> SearchReport {
        let (_, _, empties) = position.board.counts();
        let limits = self.stopper.limits_now(limits, Shortest::Node);
        let limits = Limits {
            depth: Some(empties.max(1)),
            level: None,
            move_time: limits.move_time.or(self.config.limits.move_time),
            nodes: limits.nodes.or(self.config.limits.nodes),
            ..limits
        };
        self.run(position, &limits, false, &[], &mut |r, _| progress(r))
            .report
    }

    /// Searches `position` within `limits` as [`Engine::search`] does, but leaves out the
    /// root moves in `excluded` (an opening book scores those itself) and consults neither
    /// the book nor a baseline player. `None` when no legal move is left to search.
    pub fn search_except(
        &mut self,
        position: &Position,
        limits: &Limits,
        excluded: &[Move],
    ) -> Option<SearchReport> {
        let limits = with_default_time(self.resolve(limits, position));
        let excluded = square_indices(excluded, position.size());
        let moves = position.board.moves();
        if !moves.is_empty() && moves.iter().all(|m| excluded.contains(m)) {
            return None;
        }
        let outcome = self.run(position, &limits, false, &excluded, &mut |_, _| {});
        Some(outcome.report)
    }

    /// The book's move for `position` when the book is on and has the position (8x8 only).
    fn book_move(&mut self, position: &Position, start: Instant) -> Option<SearchReport> {
        let AnyBoard::Eight(board) = position.board else {
            return None;
        };
        let margin = self.config.book_randomness as i32 * 100;
        let choice = self
            .book
            .as_ref()?
            .choose(&board, margin, &mut self.book_rng)?;
        let mv = Move::Play(Square::from_index(choice.square, 8));
        Some(SearchReport {
            best: mv,
            score: Score::from_hundredths(choice.value),
            exact: choice.backing == Backing::Exact,
            probability: None,
            depth: backing_depth(choice.backing, board.empties()),
            nodes: 0,
            elapsed: start.elapsed(),
            pv: vec![mv],
            book: true,
        })
    }

    /// Every book move of `position` with its value, best first (empty when the book is
    /// off or has not the position).
    fn book_scores(&self, position: &Position) -> Vec<MoveScore> {
        let (Some(book), AnyBoard::Eight(board)) = (&self.book, position.board) else {
            return Vec::new();
        };
        book.scores(&board)
            .unwrap_or_default()
            .into_iter()
            .map(|s| MoveScore {
                mv: Move::Play(Square::from_index(s.square, 8)),
                score: Score::from_hundredths(s.value),
                exact: s.backing == Backing::Exact,
                depth: backing_depth(s.backing, board.empties()),
                book: true,
            })
            .collect()
    }

    /// The best `count` moves of `position` with their scores: the opening book's moves
    /// first, best first, then the others, best first, every one searched with a full
    /// window, deeper and deeper within one shared set of `limits`. `progress` gets the
    /// depth's report (nodes and time so far) and the best `count` after every finished
    /// depth (once, when the book's moves are enough).
    /// When the mover must pass, the one move is the pass, scored from the opponent's side.
    ///
    /// Every move of a 6x6 position ten empty squares from the end, searched to the end and
    /// checked against a plain minimax of the rules:
    ///
    /// ```
    /// use emilia_core::board::{Color, Position};
    /// use emilia_core::engine::{Config, Engine, Source};
    /// use emilia_core::search::Limits;
    ///
    /// /// The final disc difference for the side to move under perfect play.
    /// fn minimax(position: &Position) -> i32 {
    ///     if position.is_game_over() {
    ///         return position.final_score_for(position.to_move);
    ///     }
    ///     let moves = position.legal_moves(); // `[Move::Pass]` when the mover has none
    ///     moves.iter().map(|&m| -minimax(&position.play(m).unwrap())).max().unwrap()
    /// }
    ///
    /// # fn main() -> Result<(), Box<dyn std::error::Error>> {
    /// let (position, _) = Position::start(6)
    ///     .unwrap()
    ///     .play_transcript("c2b2a2d2e2b4e5f1a4d5e3a1c5a3f2d6c6f4f6b6a5c1")?;
    /// let empty = 36 - position.count(Color::Black) - position.count(Color::White);
    /// assert_eq!(empty, 10);
    ///
    /// let mut engine = Engine::new(Config {
    ///     hash_mib: 16,
    ///     book: Source::Off,
    ///     ..Config::default()
    /// })?;
    /// let limits = Limits {
    ///     depth: Some(empty),
    ///     ..Limits::default()
    /// };
    /// let moves = position.legal_moves();
    /// let scores = engine.hint(&position, moves.len(), &limits, &mut |_, _| {});
    /// assert_eq!(scores.len(), moves.len());
    /// for pair in scores.windows(2) {
    ///     assert!(pair[0].score >= pair[1].score, "best first");
    /// }
    /// for score in &scores {
    ///     assert!(score.exact);
    ///     let after = position.play(score.mv)?;
    ///     assert_eq!(score.score.whole_discs(), -minimax(&after), "{}", score.mv);
    /// }
    /// # Ok(())
    /// # }
    /// ```
    pub fn hint(
        &mut self,
        position: &Position,
        count: usize,
        limits: &Limits,
        progress: &mut dyn FnMut(&SearchReport, &[MoveScore]),
    ) -> Vec<MoveScore> {
        let limits = with_default_time(self.resolve(limits, position));
        let from_book = self.book_scores(position);
        let with_book = |scores: &[MoveScore]| {
            let mut all = from_book.clone();
            all.extend_from_slice(scores);
            all.truncate(count);
            all
        };
        let excluded: Vec<Move> = from_book.iter().map(|s| s.mv).collect();
        let excluded = square_indices(&excluded, position.size());
        let moves = position.board.moves();
        let others = moves.is_empty() || moves.iter().any(|m| !excluded.contains(m));
        if from_book.len() >= count || !others {
            let scores = with_book(&[]);
            if let Some(first) = scores.first() {
                let report = SearchReport {
                    best: first.mv,
                    score: first.score,
                    exact: first.exact,
                    probability: None,
                    depth: first.depth,
                    nodes: 0,
                    elapsed: Duration::ZERO,
                    pv: vec![first.mv],
                    book: true,
                };
                progress(&report, &scores);
            }
            return scores;
        }
        let outcome = self.run(position, &limits, true, &excluded, &mut |report, scores| {
            progress(report, &with_book(scores))
        });
        with_book(&outcome.root_scores)
    }

    /// `limits` as searches take them: completed by the options' limits, and a level made
    /// a depth, the end of the game once at most [`LEVEL_EXACT_EXTRA`] more squares than
    /// the level are empty.
    /// While a stop request is pending, the shortest search: one iteration.
    fn resolve(&self, limits: &Limits, position: &Position) -> Limits {
        let limits = self.stopper.limits_now(limits, Shortest::Iteration);
        let mut limits = Limits {
            depth: limits.depth.or(self.config.limits.depth),
            move_time: limits.move_time.or(self.config.limits.move_time),
            nodes: limits.nodes.or(self.config.limits.nodes),
            ..limits
        };
        if let Some(level) = limits.level.take() {
            let (_, _, empties) = position.board.counts();
            let depth = if empties <= level + LEVEL_EXACT_EXTRA {
                empties.max(1)
            } else {
                level
            };
            limits.depth = Some(limits.depth.map_or(depth, |d| d.min(depth)));
        }
        limits
    }

    /// One search under `limits`, with a watchdog holding it to the time plan's backstop.
    fn run(
        &mut self,
        position: &Position,
        limits: &Limits,
        score_all_moves: bool,
        excluded: &[usize],
        progress: &mut search::Progress,
    ) -> search::SearchResult {
        self.stopper.arm();
        self.run_from(position, limits, score_all_moves, excluded, progress)
    }

    /// [`Engine::run`] without lowering the stop flag first.
    fn run_from(
        &mut self,
        position: &Position,
        limits: &Limits,
        score_all_moves: bool,
        excluded: &[usize],
        progress: &mut search::Progress,
    ) -> search::SearchResult {
        let start = Instant::now();
        let _running = SearchRunning::begin();
        let (_, _, empties) = position.board.counts();
        let (plan, _armed) = self.time.plan(position, limits, start);
        self.tt.new_search(plan.hard);
        let max_depth = limits.depth.unwrap_or(u32::MAX);
        let stopper = self.stopper.clone();
        // The table is measured on 8x8 with the pattern evaluation.
        let mpc = self.mpc.clone().filter(|_| {
            position.size() == 8 && self.config.eval == EvalKind::Pattern && self.pattern.is_some()
        });
        let settings = search::SearchSettings {
            max_depth,
            node_limit: limits.nodes.unwrap_or(u64::MAX),
            plan,
            start,
            stop: stopper.flag(),
            score_all_moves,
            probcut: self
                .config
                .probcut
                .unwrap_or_else(|| Engine::default_probcut(position.size())),
            first_depth: self.first_depth,
            mpc: mpc.as_deref(),
            // Lent by `midgame`, where the solver is at hand.
            small_solver: None,
            // A mover that must pass has no root moves to leave out; its opponent's are
            // not for the book of this position.
            excluded: if position.board.has_moves() {
                excluded
            } else {
                &[]
            },
        };
        // The solver handles a forced pass at the root as well as any other move.
        if !score_all_moves && settings.excluded.is_empty() && !position.is_game_over() {
            if let Some(exact) =
                ExactPlan::new(position.size(), empties, &plan, max_depth, limits.nodes)
            {
                return self.run_exact(position, exact, &settings, start, progress);
            }
        }
        self.midgame(position, &settings, progress)
    }

    /// The midgame search with the chosen evaluation.
    fn midgame(
        &mut self,
        position: &Position,
        settings: &search::SearchSettings,
        progress: &mut search::Progress,
    ) -> search::SearchResult {
        let settings = &search::SearchSettings {
            small_solver: Some(self.solver.small_solver()),
            ..*settings
        };
        let (tt, threads) = (&self.tt, self.config.threads);
        match (self.config.eval, &self.pattern) {
            (EvalKind::Pattern, Some(pattern)) => with_board!(&position.board, b => {
                search::search(b, pattern, tt, settings, threads, progress)
            }),
            (EvalKind::Classic | EvalKind::Pattern, _) => with_board!(&position.board, b => {
                search::search(b, &self.classic, tt, settings, threads, progress)
            }),
            (EvalKind::Squares, _) => with_board!(&position.board, b => {
                search::search(b, &self.square_table, tt, settings, threads, progress)
            }),
        }
    }

    /// A search handed to the exact solver as `exact` plans: a short midgame search for a
    /// fallback move, then the solve; the fallback stands if the solve is cut short.
    fn run_exact(
        &mut self,
        position: &Position,
        exact: ExactPlan,
        settings: &search::SearchSettings,
        start: Instant,
        progress: &mut search::Progress,
    ) -> search::SearchResult {
        let mut fallback = None;
        if let Some(plan) = exact.midgame {
            let first = search::SearchSettings {
                plan,
                node_limit: exact.midgame_nodes.unwrap_or(settings.node_limit),
                ..*settings
            };
            let outcome = self.midgame(position, &first, progress);
            if outcome.report.exact || settings.stop.load(Ordering::Relaxed) {
                return outcome;
            }
            fallback = Some(outcome);
        }
        let used = fallback.as_ref().map_or(0, |o| o.report.nodes);
        // Each of the solver's threads may pass its limit by a few nodes: it gets that much
        // less.
        let slack = endgame::MOST_NODES_PAST_LIMIT * self.config.threads as u64;
        let max_nodes = (settings.node_limit != u64::MAX)
            .then(|| settings.node_limit.saturating_sub(used + slack));
        if max_nodes == Some(0) {
            // The midgame search left too little of the budget for a solve to keep to it.
            if let Some(outcome) = fallback {
                return outcome;
            }
        }
        let solver = &mut self.solver;
        let mut solve = |nodes_seen: Option<&AtomicU64>| {
            exact_solve::solve(
                solver,
                &position.board,
                start,
                exact.deadline,
                settings.stop,
                max_nodes,
                nodes_seen,
            )
        };
        // A solve due to end before its first progress report runs on this thread: on a
        // loaded machine a thread started for it may wait seconds for a core, and with it
        // the answer (docs/experiments.md, Time margins under heavy load).
        let reports_due = exact
            .deadline
            .is_none_or(|deadline| deadline > SOLVE_PROGRESS_INTERVAL);
        let solved = match &fallback {
            // After a midgame search, the solve reports its nodes about once a second with
            // the midgame's move and estimate, the best known until it ends.
            Some(midgame) if reports_due => {
                solve_with_progress(solve, SOLVE_PROGRESS_INTERVAL, &mut |nodes| {
                    let report = SearchReport {
                        nodes: used + nodes,
                        elapsed: start.elapsed(),
                        ..midgame.report.clone()
                    };
                    progress(&report, &[]);
                })
            }
            _ => solve(None),
        };
        match solved {
            Some(mut report) => {
                report.nodes += used;
                progress(&report, &[]);
                search::SearchResult {
                    report,
                    root_scores: Vec::new(),
                }
            }
            None => match fallback {
                Some(outcome) => outcome,
                None => self.midgame(position, settings, progress),
            },
        }
    }
}

/// How often a running exact solve reports its progress.
const SOLVE_PROGRESS_INTERVAL: Duration = Duration::from_secs(1);

/// Runs `solve` on a thread of its own, given a counter it keeps up to date with its nodes,
/// and meanwhile calls `report` with the count every `interval`; returns what `solve`
/// returned, as soon as it does.
fn solve_with_progress<T: Send>(
    solve: impl FnOnce(Option<&AtomicU64>) -> T + Send,
    interval: Duration,
    report: &mut dyn FnMut(u64),
) -> T {
    let nodes = AtomicU64::new(0);
    let (done, finished) = mpsc::channel();
    // Taken by the thread, or by this one if no thread can be had.
    let solve = std::sync::Mutex::new(Some(solve));
    let take = || {
        solve
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .take()
            .expect("the solve runs once")
    };
    std::thread::scope(|scope| {
        let nodes = &nodes;
        let spawned = std::thread::Builder::new().spawn_scoped(scope, move || {
            let result = take()(Some(nodes));
            // The receiver waits until this arrives or the thread ends.
            let _ = done.send(());
            result
        });
        let solving = match spawned {
            Ok(solving) => solving,
            Err(e) => {
                log::warn!("no thread for the solve's progress reports: {e}");
                return take()(None);
            }
        };
        while let Err(mpsc::RecvTimeoutError::Timeout) = finished.recv_timeout(interval) {
            report(nodes.load(Ordering::Relaxed));
        }
        solving
            .join()
            .unwrap_or_else(|e| std::panic::resume_unwind(e))
    })
}

/// How a `hash` budget is shared among the search tables.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct TableSplit {
    /// What the exact solver is created with ([`Solver::new`]): half the budget, which the
    /// large table rounds down to a power of two; the near table adds 1 MiB (at most a
    /// quarter of the budget).
    pub solver_mib: usize,
    /// The midgame transposition table: the rest of the budget (at least one bucket).
    pub midgame_bytes: usize,
}

/// How `mib` MiB of `hash` are shared: about half for the exact solver's tables, the rest
/// for the midgame table, all together at most `mib` MiB.
pub(crate) fn table_split(mib: usize) -> TableSplit {
    let solver_mib = mib / 2;
    TableSplit {
        solver_mib,
        midgame_bytes: (mib << 20).saturating_sub(Solver::table_bytes_for(solver_mib)),
    }
}

/// The threads the system offers this process (the option `threads` takes `all` for it).
pub(crate) fn available_cores() -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get())
}

/// The midgame table and the solver for `mib` MiB of `hash`, shared as [`table_split`]
/// says. A refusal names the whole `mib`, which the user asked for, not the part refused.
fn make_tables(mib: usize) -> Result<(TranspositionTable, Solver), MemoryError> {
    let wanted = mib << 20;
    let whole = |error: MemoryError| match error {
        MemoryError::Unavailable { available, .. } => {
            MemoryError::Unavailable { wanted, available }
        }
        MemoryError::Refused { reason, .. } => MemoryError::Refused { wanted, reason },
    };
    crate::memory::check_available(wanted)?;
    let split = table_split(mib);
    Ok((
        TranspositionTable::with_bytes(split.midgame_bytes).map_err(whole)?,
        Solver::try_new(split.solver_mib).map_err(whole)?,
    ))
}

/// The board indices of the played moves among `moves`.
fn square_indices(moves: &[Move], size: usize) -> Vec<usize> {
    moves
        .iter()
        .filter_map(|m| match m {
            Move::Play(sq) => sq.index(size),
            Move::Pass => None,
        })
        .collect()
}

/// The depth to report for a book value: the search's, or the empties for an exact one.
fn backing_depth(backing: Backing, empties: u32) -> u32 {
    match backing {
        Backing::Depth(d) => d as u32,
        Backing::Exact => empties,
        Backing::Unscored => 0,
    }
}

/// `limits`, or [`Engine::DEFAULT_MOVE_TIME`] when they set no limit at all.
fn with_default_time(mut limits: Limits) -> Limits {
    if limits.is_unbounded() {
        limits.move_time = Some(Engine::DEFAULT_MOVE_TIME);
    }
    limits
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_running_solve_reports_its_nodes_until_it_returns() {
        let mut counts = Vec::new();
        let started = Instant::now();
        let answer = solve_with_progress(
            |nodes: Option<&AtomicU64>| {
                let nodes = nodes.expect("a counter to keep");
                for i in 1..=6 {
                    nodes.store(i * 1000, Ordering::Relaxed);
                    std::thread::sleep(Duration::from_millis(25));
                }
                42
            },
            Duration::from_millis(10),
            &mut |n| counts.push(n),
        );
        assert_eq!(answer, 42);
        assert!(counts.len() >= 3, "{counts:?}");
        assert!(counts.windows(2).all(|w| w[0] <= w[1]), "{counts:?}");
        assert!(counts.iter().all(|&n| n > 0), "{counts:?}");
        // It returns when the solve does, not at the next report.
        let quick = Instant::now();
        assert_eq!(
            solve_with_progress(|_| 7, Duration::from_secs(60), &mut |_| {}),
            7
        );
        assert!(quick.elapsed() < Duration::from_secs(1));
        assert!(started.elapsed() < Duration::from_secs(30));
    }

    #[test]
    fn search_returns_a_legal_move_on_every_size() {
        let mut engine = Engine::new(Config::default()).unwrap();
        for size in crate::board::SIZES {
            let start = Position::start(size).unwrap();
            let limits = Limits {
                depth: Some(3),
                ..Limits::default()
            };
            let report = engine.search(&start, &limits, &mut |_| {});
            assert!(start.play(report.best).is_ok(), "{size}: {}", report.best);
            let timed = Limits {
                move_time: Some(Duration::from_millis(20)),
                ..Limits::default()
            };
            let report = engine.search(&start, &timed, &mut |_| {});
            assert!(start.play(report.best).is_ok(), "{size}: {}", report.best);
        }
    }

    #[test]
    fn the_exact_solver_takes_over_near_the_end_on_every_size() {
        let mut engine = Engine::new(Config {
            hash_mib: 4,
            ..Config::default()
        })
        .unwrap();
        let mut solver = Solver::new(1);
        for size in crate::board::SIZES {
            // A game between shallow searches, to 12 empties.
            let mut position = Position::start(size).unwrap();
            let shallow = Limits {
                depth: Some(1),
                ..Limits::default()
            };
            while position.board.counts().2 > 12 && !position.is_game_over() {
                let report = engine.search(&position, &shallow, &mut |_| {});
                position = position.play(report.best).unwrap();
            }
            if !position.board.has_moves() {
                continue;
            }
            let timed = Limits {
                move_time: Some(Duration::from_secs(2)),
                ..Limits::default()
            };
            let report = engine.search(&position, &timed, &mut |_| {});
            assert!(report.exact, "{size}: {report:?}");
            let expected = solver.solve_exact(&position.board).score;
            assert_eq!(report.score, Score::from_discs(expected), "{size}");
            // The move played keeps the score.
            let after = position.play(report.best).unwrap();
            let reply = solver.solve_exact(&after.board).score;
            assert_eq!(-reply, expected, "{size}: {}", report.best);
        }
    }

    #[test]
    fn the_pattern_evaluation_is_the_default_and_classic_stays_selectable() {
        let mut engine = Engine::new(Config::default()).unwrap();
        let eval = |e: &Engine| e.option("eval");
        assert_eq!(eval(&engine).as_deref(), Some("pattern"));
        let start = Position::start(8).unwrap();
        let limits = Limits {
            depth: Some(4),
            ..Limits::default()
        };
        for kind in ["classic", "squares", "pattern"] {
            engine.set_option("eval", kind).unwrap();
            assert_eq!(eval(&engine).as_deref(), Some(kind));
            let report = engine.search(&start, &limits, &mut |_| {});
            assert!(start.play(report.best).is_ok(), "{kind}: {}", report.best);
        }
        assert!(engine.set_option("eval", "neural").is_err());
        // Another weights file, refused with the reason when it is not one.
        let err = engine
            .set_option("weights", "Cargo.toml")
            .unwrap_err()
            .to_string();
        assert!(err.contains("not an Emilia weights file"), "{err}");
        assert!(engine
            .set_option("weights", "weights/emilia.weights")
            .is_ok());
        assert!(engine.set_option("weights", "builtin").is_ok());
    }

    #[test]
    fn excluded_moves_are_left_out_of_the_search() {
        let mut engine = Engine::new(Config {
            hash_mib: 4,
            book: Source::Off,
            ..Config::default()
        })
        .unwrap();
        // 12 empties: searched to the end, so every score is exact.
        let position: Position =
            "XXXXXXXXOOOOOOXXOOOXOXXXOOXOXXXXOXOOOXXX-OOOOXXX--OOOOX----OOOO- X"
                .parse()
                .unwrap();
        let limits = Limits {
            depth: Some(20),
            ..Limits::default()
        };
        let all = engine.hint(&position, 64, &limits, &mut |_, _| {});
        assert!(all.len() >= 3 && all.iter().all(|s| s.exact && !s.book));
        let excluded = [all[0].mv];
        let report = engine.search_except(&position, &limits, &excluded).unwrap();
        assert_ne!(report.best, all[0].mv);
        assert_eq!(report.score, all[1].score);
        let every: Vec<Move> = all.iter().map(|s| s.mv).collect();
        assert!(engine.search_except(&position, &limits, &every).is_none());
    }

    #[test]
    fn the_book_answers_on_eight_by_eight_only_and_when_on() {
        let mut engine = Engine::new(Config {
            hash_mib: 4,
            ..Config::default()
        })
        .unwrap();
        assert_eq!(engine.option("book").as_deref(), Some("on"));
        let limits = Limits {
            depth: Some(2),
            ..Limits::default()
        };
        let start = Position::start(8).unwrap();
        let report = engine.search(&start, &limits, &mut |_| {});
        assert!(report.book && report.nodes == 0, "{report:?}");
        // Every first move is as good as the others: the book lists all four.
        let hints = engine.hint(&start, 8, &limits, &mut |_, _| {});
        assert_eq!(hints.len(), 4);
        assert!(hints.iter().all(|s| s.book), "{hints:?}");
        let ten = Position::start(10).unwrap();
        assert!(!engine.search(&ten, &limits, &mut |_| {}).book);
        engine.set_option("book", "off").unwrap();
        assert!(!engine.search(&start, &limits, &mut |_| {}).book);
        assert_eq!(engine.option("book").as_deref(), Some("off"));
        assert!(
            !Engine::new(Config {
                hash_mib: 1,
                book: Source::Off,
                ..Config::default()
            })
            .unwrap()
            .search(&start, &limits, &mut |_| {})
            .book
        );
        assert!(engine.set_option("book_randomness", "65").is_err());
        let err = engine.set_option("book", "Cargo.toml").unwrap_err();
        assert!(err.to_string().contains("not an Emilia book file"), "{err}");
        assert_eq!(engine.option("book").as_deref(), Some("off"));
        engine.set_option("book", "weights/emilia.book").unwrap();
        assert_eq!(
            engine.option("book").as_deref(),
            Some("weights/emilia.book")
        );
        assert!(engine.search(&start, &limits, &mut |_| {}).book);
    }

    #[test]
    fn hints_add_searched_moves_after_the_books() {
        let mut engine = Engine::new(Config {
            hash_mib: 4,
            ..Config::default()
        })
        .unwrap();
        // One thread: with more, a helper that finishes first answers for the main thread,
        // whose reports may then skip depths.
        engine.set_option("threads", "1").unwrap();
        let limits = Limits {
            depth: Some(4),
            ..Limits::default()
        };
        // Ten moves into the tiger opening the book scores 4 of the 11 replies; the others
        // are searched.
        let start = Position::start(8).unwrap();
        let (position, _) = start.play_transcript("f5d6c3d3c4f4f6f3e6e7").unwrap();
        let legal = position.legal_moves().len();
        let mut calls = 0;
        let hints = engine.hint(&position, 64, &limits, &mut |_, _| calls += 1);
        assert_eq!(hints.len(), legal);
        let books = hints.iter().take_while(|s| s.book).count();
        assert!(books >= 1 && books < legal, "{hints:?}");
        assert!(hints[books..].iter().all(|s| !s.book && s.depth == 4));
        assert!(hints[..books].windows(2).all(|w| w[0].score >= w[1].score));
        let mut moves: Vec<Move> = hints.iter().map(|s| s.mv).collect();
        moves.sort_by_key(|m| m.to_string());
        moves.dedup();
        assert_eq!(moves.len(), legal, "a move listed twice: {hints:?}");
        assert_eq!(calls, 4, "one report per depth");
    }

    #[test]
    fn hash_is_the_memory_of_all_tables_together() {
        for mib in [1, 2, 3, 64, 100] {
            let split = table_split(mib);
            let solver = Solver::table_bytes_for(split.solver_mib);
            assert!(solver + split.midgame_bytes <= mib << 20, "{mib}");
            assert!(solver + split.midgame_bytes > (mib << 20) - 128, "{mib}");
        }
        // 64 MiB: 32 + 1 for the solver's tables, 31 for the midgame table.
        assert_eq!(table_split(64).midgame_bytes, 31 << 20);
        let mut engine = Engine::new(Config {
            hash_mib: 4,
            ..Config::default()
        })
        .unwrap();
        engine.set_option("hash", "8").unwrap();
        assert_eq!(engine.option("hash").as_deref(), Some("8"));
        assert_eq!(engine.tt.mib(), 3);
    }

    #[test]
    fn option_limits_apply_unless_a_search_sets_its_own() {
        let mut engine = Engine::new(Config {
            hash_mib: 4,
            book: Source::Off,
            ..Config::default()
        })
        .unwrap();
        engine.set_option("depth", "3").unwrap();
        let start = Position::start(8).unwrap();
        assert_eq!(
            engine.search(&start, &Limits::default(), &mut |_| {}).depth,
            3
        );
        let deeper = Limits {
            depth: Some(5),
            ..Limits::default()
        };
        assert_eq!(engine.search(&start, &deeper, &mut |_| {}).depth, 5);
        // A solve goes to the end whatever the depth option says (FFO #1: g8, +18).
        let position: Position =
            "--XXXXX--OOOXX-O-OOOXXOX-OXOXOXXOXXXOXXX--XOXOXX-XXXOOO--OOOOO-- X"
                .parse()
                .unwrap();
        let report = engine.solve(&position, &Limits::default(), &mut |_| {});
        assert_eq!((report.exact, report.score), (true, Score::from_discs(18)));
    }

    #[test]
    fn the_player_option_hands_searches_to_a_baseline_player() {
        let mut engine = Engine::new(Config {
            hash_mib: 1,
            ..Config::default()
        })
        .unwrap();
        assert!(engine.set_option("player", "nobody").is_err());
        engine.set_option("player", "greedy").unwrap();
        engine.set_option("seed", "9").unwrap();
        assert_eq!(engine.option("player").as_deref(), Some("greedy"));
        // After f5 d6 c3 d3 c4, greedy takes a move flipping the most discs.
        let start = Position::start(8).unwrap();
        let (position, _) = start.play_transcript("f5d6c3d3c4").unwrap();
        let report = engine.search(&position, &Limits::default(), &mut |_| {});
        let Move::Play(sq) = report.best else {
            panic!("greedy passed")
        };
        let most = position
            .board
            .moves()
            .into_iter()
            .map(|m| position.board.flip_count(m));
        assert_eq!(
            position.board.flip_count(sq.index(8).unwrap()),
            most.max().unwrap()
        );
        assert!(engine.check_size(10).is_ok());
        engine.set_option("player", "squares").unwrap();
        assert!(engine.check_size(8).is_ok());
        assert!(engine.check_size(10).is_err());
        engine.set_option("player", "emilia").unwrap();
        assert_eq!(engine.option("player").as_deref(), Some("emilia"));
    }
}
