//! `quadrant`: square values from one mirrored 4x4 quadrant plus the disc count, plain
//! minimax (no pruning) deepened as far as time allows. The quadrant is an 8x8 board's, so
//! the player plays 8x8 only.

use std::time::Duration;

use super::features::Grid;
use super::search::{search, Heuristic, Setup};
use super::{deadline, random_move, BaselinePlayer, Choice};
use crate::board::{Board, Cell, Position};
use crate::rng::Rng;
use crate::search::Limits;

/// Values of the top-left quadrant, mirrored to the other three.
const QUADRANT: [[i32; 4]; 4] = [
    [30, -4, 12, 10],
    [-4, -8, -4, 2],
    [12, -4, 2, 2],
    [10, 2, 2, -4],
];

/// Time per move when the limits give none.
pub(crate) const DEFAULT_TIME: Duration = Duration::from_secs(1);

/// Mirrored quadrant values + disc count, minimax without pruning.
pub(crate) struct Quadrant {
    rng: Rng,
}

impl Quadrant {
    /// The player; `seed` only matters on boards it does not support.
    pub(crate) fn new(seed: u64) -> Quadrant {
        Quadrant {
            rng: Rng::new(seed),
        }
    }
}

/// Value of square `index` on the 8x8 board.
fn value(index: usize) -> i32 {
    let (r, c) = (index / 8, index % 8);
    QUADRANT[r.min(7 - r)][c.min(7 - c)]
}

struct Evaluation;

impl<B: Board> Heuristic<B> for Evaluation {
    fn evaluate(&self, board: &B) -> i32 {
        let grid = Grid::of(board);
        let (max, min) = grid.discs();
        // Fewer than 4 moves left: only the disc count matters.
        if board.empties() < 4 {
            return max - min;
        }
        let mut score = max - min;
        for index in 0..64 {
            match grid.at(index) {
                Cell::Player => score += value(index),
                Cell::Opponent => score -= value(index),
                Cell::Empty => {}
            }
        }
        score
    }
}

impl BaselinePlayer for Quadrant {
    fn name(&self) -> &'static str {
        "quadrant"
    }

    fn supports(&self, size: usize) -> bool {
        size == 8
    }

    fn choose(&mut self, position: &Position, limits: &Limits) -> Choice {
        if !self.supports(position.size()) {
            log::warn!("quadrant plays only 8x8: random move");
            return random_move(position, &mut self.rng);
        }
        let setup = Setup {
            max_depth: limits.depth.unwrap_or(u32::MAX),
            deadline: deadline(position, limits, DEFAULT_TIME),
            node_limit: limits.nodes.unwrap_or(u64::MAX),
            pruning: false,
            ordering: false,
        };
        crate::with_board!(&position.board, b => search(b, &Evaluation, &setup, None))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn quadrant_mirrors_to_all_corners() {
        for corner in [0, 7, 56, 63] {
            assert_eq!(value(corner), 30);
        }
        for x_square in [9, 14, 49, 54] {
            assert_eq!(value(x_square), -8);
        }
        assert_eq!(value(27), -4);
        assert_eq!(value(3), 10);
        assert_eq!(value(4), 10);
    }

    #[test]
    fn evaluation_adds_values_and_discs() {
        let start = Position::start(8).unwrap();
        let after = start.play("f5".parse().unwrap()).unwrap();
        let crate::board::AnyBoard::Eight(b) = after.board else {
            unreachable!()
        };
        // White (to move): d4 (-4) and 1 disc; Black: e4, d5, e5 (-4 each), f5 (2), 4 discs.
        let expected = (-4 + 1) - (-4 - 4 - 4 + 2 + 4);
        assert_eq!(Heuristic::evaluate(&Evaluation, &b), expected);
    }
}
