//! Perft: counting the leaves of the game tree to a fixed depth, the standard check of move
//! generation and a speed measure. A forced pass counts as one ply.

use crate::board::bitset::BitSet;
use crate::board::geometry::Geometry;
use crate::board::{AnyBoard, Board, Board8, GridBoard};

/// How games that end before the requested depth are counted.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Convention {
    /// An ended game adds nothing further (Edax's count).
    EndedDropOut,
    /// An ended game counts as one leaf at every later depth (Aart Bik's table).
    EndedStayCounted,
}

impl Convention {
    /// Leaves contributed by a game that ended with plies still to go.
    #[inline(always)]
    fn ended(self) -> u64 {
        match self {
            Convention::EndedDropOut => 0,
            Convention::EndedStayCounted => 1,
        }
    }
}

/// Leaves at `depth` plies below `board`, on any board type.
pub fn perft<B: Board>(board: &B, depth: u32, convention: Convention) -> u64 {
    if depth == 0 {
        return 1;
    }
    let count = board.move_count();
    if count == 0 {
        let passed = board.pass();
        if !passed.has_moves() {
            return convention.ended();
        }
        return perft(&passed, depth - 1, convention);
    }
    if depth == 1 {
        return count as u64;
    }
    board
        .moves()
        .map(|m| perft(&board.play(m), depth - 1, convention))
        .sum()
}

/// Leaves at `depth` plies below an 8x8 board: the fast path, counting the last two plies
/// in bulk from move masks.
pub fn perft8(board: &Board8, depth: u32, convention: Convention) -> u64 {
    if depth == 0 {
        return 1;
    }
    let moves = board.move_mask();
    if moves == 0 {
        let passed = board.pass();
        if passed.move_mask() == 0 {
            return convention.ended();
        }
        return perft8(&passed, depth - 1, convention);
    }
    match depth {
        1 => moves.count_ones() as u64,
        2 => {
            let mut leaves = 0;
            let mut rest = moves;
            while rest != 0 {
                let square = rest.trailing_zeros() as usize;
                rest &= rest - 1;
                let child = board.play(square);
                let replies = child.move_mask();
                leaves += if replies != 0 {
                    replies.count_ones() as u64
                } else if child.pass().move_mask() != 0 {
                    1
                } else {
                    convention.ended()
                };
            }
            leaves
        }
        _ => {
            let mut leaves = 0;
            let mut rest = moves;
            while rest != 0 {
                let square = rest.trailing_zeros() as usize;
                rest &= rest - 1;
                leaves += perft8(&board.play(square), depth - 1, convention);
            }
            leaves
        }
    }
}

/// Leaves at `depth` plies below a board of another size on its bitboards, counting the
/// last two plies in bulk as [`perft8`] does.
pub(crate) fn perft_grid<G: Geometry>(
    board: &GridBoard<G>,
    depth: u32,
    convention: Convention,
) -> u64 {
    if depth == 0 {
        return 1;
    }
    let moves = board.move_mask();
    if moves.is_empty() {
        let passed = board.pass();
        if passed.move_mask().is_empty() {
            return convention.ended();
        }
        return perft_grid(&passed, depth - 1, convention);
    }
    match depth {
        1 => moves.count() as u64,
        2 => moves
            .iter()
            .map(|bit| {
                let child = board.after(bit, board.flips(bit));
                let replies = child.move_mask();
                if !replies.is_empty() {
                    replies.count() as u64
                } else if !child.pass().move_mask().is_empty() {
                    1
                } else {
                    convention.ended()
                }
            })
            .sum(),
        _ => moves
            .iter()
            .map(|bit| perft_grid(&board.after(bit, board.flips(bit)), depth - 1, convention))
            .sum(),
    }
}

/// Leaves at `depth` plies below any board, on its fastest path.
///
/// ```
/// use emilia_core::board::Position;
/// use emilia_core::perft::{perft_any, Convention};
///
/// // The published counts of 8x8 Othello from the start position.
/// let start = Position::start(8).unwrap().board;
/// let counts: Vec<u64> = (1..=6)
///     .map(|depth| perft_any(&start, depth, Convention::EndedDropOut))
///     .collect();
/// assert_eq!(counts, [4, 12, 56, 244, 1396, 8200]);
/// ```
pub fn perft_any(board: &AnyBoard, depth: u32, convention: Convention) -> u64 {
    match board {
        AnyBoard::Six(b) => perft_grid(b, depth, convention),
        AnyBoard::Eight(b) => perft8(b, depth, convention),
        AnyBoard::Ten(b) => perft_grid(b, depth, convention),
        AnyBoard::Twelve(b) => perft_grid(b, depth, convention),
    }
}

/// Plies of the subtrees that [`perft_stoppable`] counts without asking whether to stop:
/// a few million leaves at most, milliseconds on any board ([`perft_stoppable`]'s doc
/// states the six in words).
const UNSTOPPED_PLIES: u32 = 6;

/// [`perft_any`], or `None` once `stopped()` says so: it is asked before each subtree of
/// six plies, so that a count of hours can still be ended at once.
pub fn perft_stoppable(
    board: &AnyBoard,
    depth: u32,
    convention: Convention,
    stopped: &dyn Fn() -> bool,
) -> Option<u64> {
    if depth <= UNSTOPPED_PLIES {
        return (!stopped()).then(|| perft_any(board, depth, convention));
    }
    let moves = board.moves();
    if moves.is_empty() {
        let passed = board.pass();
        if !passed.has_moves() {
            return Some(convention.ended());
        }
        return perft_stoppable(&passed, depth - 1, convention, stopped);
    }
    moves
        .into_iter()
        .map(|m| perft_stoppable(&board.play(m), depth - 1, convention, stopped))
        .sum()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::BoardN;

    #[test]
    fn a_stoppable_count_is_the_count_or_stops() {
        for size in [6, 8] {
            let board = AnyBoard::start(size).unwrap();
            for convention in [Convention::EndedDropOut, Convention::EndedStayCounted] {
                assert_eq!(
                    perft_stoppable(&board, 8, convention, &|| false),
                    Some(perft_any(&board, 8, convention))
                );
            }
        }
        let asked = std::cell::Cell::new(0);
        let after_three = || {
            asked.set(asked.get() + 1);
            asked.get() > 3
        };
        let board = AnyBoard::start(8).unwrap();
        assert_eq!(
            perft_stoppable(&board, 30, Convention::EndedDropOut, &after_three),
            None
        );
        assert_eq!(asked.get(), 4, "stops at the first subtree after the stop");
    }

    #[test]
    fn fast_and_general_counts_agree_on_8x8() {
        for depth in 0..=6 {
            for convention in [Convention::EndedDropOut, Convention::EndedStayCounted] {
                assert_eq!(
                    perft8(&Board8::START, depth, convention),
                    perft(&BoardN::start(8), depth, convention)
                );
            }
        }
    }
}
