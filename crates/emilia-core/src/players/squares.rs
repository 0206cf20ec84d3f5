//! `squares`: a square-utility table plus disc parity and mobility, alpha-beta at a fixed
//! depth. The table is 8x8, so the player plays 8x8 only.

use std::time::Duration;

use super::features::Grid;
use super::search::{search, Heuristic, Setup};
use super::{deadline, random_move, BaselinePlayer, Choice};
use crate::board::{Board, Cell, Position};
use crate::rng::Rng;
use crate::search::Limits;

/// Utility of each 8x8 square, row 1 first.
const TABLE: [[i32; 8]; 8] = [
    [25, -5, 14, 10, 10, 14, -5, 25],
    [-5, -7, -4, 1, 1, -4, -7, -5],
    [14, -4, 3, 2, 2, 3, -4, 14],
    [10, 1, 2, -6, -6, 2, 1, 10],
    [10, 1, 2, -6, -6, 2, 1, 10],
    [14, -4, 3, 2, 2, 3, -4, 14],
    [-5, -7, -4, 1, 1, -4, -7, -5],
    [25, -5, 14, 10, 10, 14, -5, 25],
];

/// The write-up's parity and mobility terms are fractions in [-1, 1] beside whole table
/// points; scores are kept in thousandths so the fractions still break ties.
const SCALE: i32 = 1000;

/// Depth searched when the limits give none.
pub(crate) const DEFAULT_DEPTH: u32 = 5;

/// Square table + parity + mobility, fixed-depth alpha-beta.
pub(crate) struct Squares {
    rng: Rng,
}

impl Squares {
    /// The player; `seed` only matters on boards it does not support.
    pub(crate) fn new(seed: u64) -> Squares {
        Squares {
            rng: Rng::new(seed),
        }
    }
}

struct Evaluation;

/// `SCALE·(a−b)/(a+b)`, 0 when both are 0.
fn fraction(a: i32, b: i32) -> i32 {
    if a + b == 0 {
        0
    } else {
        SCALE * (a - b) / (a + b)
    }
}

impl<B: Board> Heuristic<B> for Evaluation {
    fn evaluate(&self, board: &B) -> i32 {
        let grid = Grid::of(board);
        let mut table = 0;
        for (index, weight) in TABLE.iter().flatten().enumerate() {
            match grid.at(index) {
                Cell::Player => table += weight,
                Cell::Opponent => table -= weight,
                Cell::Empty => {}
            }
        }
        let (max, min) = grid.discs();
        let parity = fraction(max, min);
        let mobility = fraction(board.move_count() as i32, board.pass().move_count() as i32);
        SCALE * table + parity + mobility
    }
}

impl BaselinePlayer for Squares {
    fn name(&self) -> &'static str {
        "squares"
    }

    fn supports(&self, size: usize) -> bool {
        size == 8
    }

    fn choose(&mut self, position: &Position, limits: &Limits) -> Choice {
        if !self.supports(position.size()) {
            log::warn!("squares plays only 8x8: random move");
            return random_move(position, &mut self.rng);
        }
        let setup = Setup {
            max_depth: limits.depth.unwrap_or(DEFAULT_DEPTH),
            deadline: deadline(position, limits, Duration::from_secs(3600)),
            node_limit: limits.nodes.unwrap_or(u64::MAX),
            pruning: true,
            ordering: false,
        };
        crate::with_board!(&position.board, b => search(b, &Evaluation, &setup, None))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn evaluation_counts_table_parity_and_mobility() {
        // Start position: the four centre squares are worth -6 each, two per side; discs
        // and mobility are equal, so the score is 0.
        let start = Position::start(8).unwrap();
        let crate::board::AnyBoard::Eight(b) = start.board else {
            unreachable!()
        };
        assert_eq!(Heuristic::evaluate(&Evaluation, &b), 0);
        let after = start.play("f5".parse().unwrap()).unwrap();
        let crate::board::AnyBoard::Eight(b) = after.board else {
            unreachable!()
        };
        // White (to move) holds d4 (-6); Black holds e4, d5, e5 (-6 each) and f5 (+2).
        let table = -6 - (-6 - 6 - 6 + 2);
        // Discs 1 vs 4; White has 3 moves, Black 3 moves.
        let expected = SCALE * table + SCALE * (1 - 4) / 5;
        assert_eq!(Heuristic::evaluate(&Evaluation, &b), expected);
    }

    #[test]
    fn takes_a_free_corner() {
        // Black to move can take a1 (flipping b2, c3 and d4); nothing else is worth as much.
        let position: Position = "\
            --------\
            -O------\
            --OX----\
            ---OX---\
            ---XXX--\
            --------\
            --------\
            -------- X"
            .parse()
            .unwrap();
        let choice = Squares::new(0).choose(
            &position,
            &Limits {
                depth: Some(3),
                ..Limits::default()
            },
        );
        assert_eq!(choice.mv.to_string(), "a1");
    }
}
