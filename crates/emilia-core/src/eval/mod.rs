//! Static evaluation: how good a position is for the side to move, in hundredths of a disc.
//! [`Pattern`] sums learned pattern weights (8x8; the default); [`Classic`] weighs measured
//! features by game stage; [`SquareTable`] only sums a table of square values and serves as
//! the comparison opponent.

pub(crate) mod classic;
pub mod features;
pub mod grid_pattern;
pub mod pattern;
mod square_table;
pub use emilia_codec::weights;

use std::fmt;
use std::str::FromStr;

use crate::board::Board;

pub use classic::{Classic, ClassicWeights, CLASSIC_WEIGHTS, STAGES};
pub use pattern::Pattern;
pub use square_table::SquareTable;
pub use weights::{WeightsError, WeightsFileError};

/// Reads and checks the weights file at `path`, within the bound of
/// [`FileKind::WEIGHTS`](crate::files::FileKind::WEIGHTS).
pub fn read_weights(path: &std::path::Path) -> Result<weights::Weights, WeightsFileError> {
    let bytes = crate::files::read_bytes(path, crate::files::FileKind::WEIGHTS)
        .map_err(|e| WeightsFileError::Read(path.into(), e.into()))?;
    weights::Weights::decode(&bytes).map_err(|e| WeightsFileError::Refused(path.into(), e))
}

/// A static evaluation. Searches are generic over it, so each evaluator gets its own
/// compiled search.
pub trait Evaluator: Send + Sync {
    /// What the evaluation keeps of a position to score the positions after its moves
    /// cheaply, carried by a search from each node to its children (the pattern
    /// evaluation's indices: a child's follow from its parent's by the squares the move
    /// changed); `()` for an evaluation that keeps nothing.
    type Kept: Copy + Default + Send;

    /// Score of `board` for the side to move, hundredths of a disc. Must be deterministic
    /// and stay strictly inside ±(squares × 100), the range of exact final scores.
    fn evaluate<B: Board>(&self, board: &B) -> i32;

    /// [`Evaluator::evaluate`] of `board` when its side to move has a move, `None` when it
    /// must pass (or the game is over). The legal moves are found once, where the two
    /// steps apart would find them twice (the evaluation counts them too).
    fn evaluate_to_move<B: Board>(&self, board: &B) -> Option<i32> {
        board.has_moves().then(|| self.evaluate(board))
    }

    /// [`Evaluator::Kept`] of `board`, from scratch.
    fn keep<B: Board>(&self, board: &B) -> Self::Kept {
        let _ = board;
        Self::Kept::default()
    }

    /// [`Evaluator::Kept`] of `child`, the position after move `m` of `parent`, whose own is
    /// `kept`.
    fn keep_child<B: Board>(
        &self,
        kept: &Self::Kept,
        parent: &B,
        m: usize,
        child: &B,
    ) -> Self::Kept {
        let _ = (kept, parent, m, child);
        Self::Kept::default()
    }

    /// [`Evaluator::Kept`] of a position after a pass, where `kept` is its own.
    fn keep_passed(&self, kept: &Self::Kept) -> Self::Kept {
        *kept
    }

    /// A scorer for the children of `parent`, whose [`Evaluator::Kept`] is `kept`: called
    /// with a move of `parent` and the position after it, it returns
    /// [`Evaluator::evaluate_to_move`] of that position. An evaluation may prepare work at
    /// `parent` once and share it among the children.
    fn children<'a, B: Board>(
        &'a self,
        parent: &B,
        kept: &Self::Kept,
    ) -> impl FnMut(usize, &B) -> Option<i32> + 'a {
        let _ = (parent, kept);
        move |_, child: &B| self.evaluate_to_move(child)
    }
}

/// The evaluations an engine can be set to use.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum EvalKind {
    /// Learned pattern weights on 8x8, [`Classic`] on other sizes ([`Pattern`]).
    #[default]
    Pattern,
    /// Stage-weighted features ([`Classic`]).
    Classic,
    /// The square table alone ([`SquareTable`]).
    Squares,
}

impl fmt::Display for EvalKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            EvalKind::Pattern => "pattern",
            EvalKind::Classic => "classic",
            EvalKind::Squares => "squares",
        })
    }
}

impl FromStr for EvalKind {
    type Err = String;

    fn from_str(s: &str) -> Result<EvalKind, String> {
        match s.to_ascii_lowercase().as_str() {
            "pattern" => Ok(EvalKind::Pattern),
            "classic" => Ok(EvalKind::Classic),
            "squares" => Ok(EvalKind::Squares),
            _ => Err(format!(
                "'{s}' is no evaluation: expected pattern, classic or squares"
            )),
        }
    }
}

/// Keeps a heuristic score strictly inside the range of exact final scores, so that no
/// estimate looks like a proven result.
#[inline(always)]
pub(crate) fn clamp_heuristic<B: Board>(board: &B, score: i32) -> i32 {
    let bound = crate::score::from_discs((board.size() * board.size()) as i32) - 1;
    score.clamp(-bound, bound)
}
