//! What a search tells its caller: the report of a search (or of each finished iteration)
//! and the scores of single moves.

use std::time::Duration;

use crate::board::Move;
use crate::endgame::Solution;
use crate::score::Score;

/// The outcome of a search, or its progress after a finished iteration.
///
/// ```
/// use emilia_core::board::Position;
/// use emilia_core::engine::{Config, Engine, Source};
/// use emilia_core::search::{Limits, SearchReport};
///
/// # fn main() -> Result<(), Box<dyn std::error::Error>> {
/// let mut engine = Engine::new(Config {
///     hash_mib: 16,
///     book: Source::Off,
///     ..Config::default()
/// })?;
/// let start = Position::start(8).unwrap();
/// let limits = Limits {
///     depth: Some(5),
///     ..Limits::default()
/// };
/// let mut iterations: Vec<SearchReport> = Vec::new();
/// let report = engine.search(&start, &limits, &mut |r| iterations.push(r.clone()));
///
/// // One report per finished iteration, deeper each time; the last is the result.
/// let depths: Vec<u32> = iterations.iter().map(|r| r.depth).collect();
/// assert!(depths.windows(2).all(|d| d[0] < d[1]), "{depths:?}");
/// assert_eq!(iterations.last().map(|r| r.best), Some(report.best));
/// assert!(!report.exact && !report.book);
/// assert!(report.nodes > 0);
///
/// // The principal variation starts with the move and can be played out.
/// assert_eq!(report.pv[0], report.best);
/// let mut position = start;
/// for &mv in &report.pv {
///     position = position.play(mv).unwrap();
/// }
/// # Ok(())
/// # }
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SearchReport {
    /// The move to play; `Move::Pass` when the mover has none.
    pub best: Move,
    /// Score for the mover (the final disc difference when exact).
    pub score: Score,
    /// Whether `score` is the exact perfect-play result.
    pub exact: bool,
    /// For a selective search to the end (not exact), the percentage of confidence that
    /// `score` is the exact result.
    pub probability: Option<u32>,
    /// Depth of the last finished iteration, in plies.
    pub depth: u32,
    /// Positions searched.
    pub nodes: u64,
    /// Time spent.
    pub elapsed: Duration,
    /// Principal variation, starting with `best`.
    pub pv: Vec<Move>,
    /// Whether the move comes from the opening book (then `depth` and `exact` are the
    /// book's, and nothing was searched).
    pub book: bool,
}

impl SearchReport {
    /// The exact result as the solver gives it ([`Solution`]), when the search proved it
    /// (`exact`); `None` for a heuristic score.
    ///
    /// ```
    /// use emilia_core::engine::Source;
    /// use emilia_core::{Config, Engine, Limits, Position, Solver};
    ///
    /// # fn main() -> Result<(), Box<dyn std::error::Error>> {
    /// // FFO #1, 14 empties: the engine's solve and the solver's agree, in one type.
    /// let position: Position =
    ///     "--XXXXX--OOOXX-O-OOOXXOX-OXOXOXXOXXXOXXX--XOXOXX-XXXOOO--OOOOO-- X".parse()?;
    /// let mut engine = Engine::new(Config {
    ///     hash_mib: 16,
    ///     book: Source::Off,
    ///     ..Config::default()
    /// })?;
    /// let report = engine.solve(&position, &Limits::default(), &mut |_| {});
    /// let by_engine = report.solution().expect("an unlimited solve is exact");
    /// let by_solver = Solver::new(16).solve_exact(&position.board);
    /// assert_eq!((by_engine.best, by_engine.score), (by_solver.best, by_solver.score));
    /// assert_eq!((by_engine.best.to_string(), by_engine.score), ("g8".to_string(), 18));
    /// # Ok(())
    /// # }
    /// ```
    pub fn solution(&self) -> Option<Solution> {
        self.exact.then(|| Solution {
            score: self.score.whole_discs(),
            best: self.best,
            nodes: self.nodes,
        })
    }
}

/// One move's evaluation, as hints report it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MoveScore {
    /// The move.
    pub mv: Move,
    /// Score for the mover after this move.
    pub score: Score,
    /// Whether the score is exact.
    pub exact: bool,
    /// Depth searched.
    pub depth: u32,
    /// Whether the score comes from the opening book.
    pub book: bool,
}
