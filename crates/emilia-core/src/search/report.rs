//! What a search tells its caller: the report of a search (or of each finished iteration)
//! and the scores of single moves.

use std::time::Duration;

use crate::board::Move;
use crate::score::Score;

/// The outcome of a search, or its progress after a finished iteration.
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
