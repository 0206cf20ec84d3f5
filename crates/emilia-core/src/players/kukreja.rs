//! `kukreja`: mobility, corners and stability with a disc-parity weight that grows as the
//! board fills; alpha-beta up to depth 6. No weight depends on the board's size, so it plays
//! every size.

use std::time::Duration;

use super::features::Grid;
use super::search::{search, Heuristic, Setup};
use super::{deadline, BaselinePlayer, Choice};
use crate::board::{Board, Cell, Position};
use crate::search::Limits;

/// Deepest search.
pub(crate) const MAX_DEPTH: u32 = 6;

/// 2·mobility + 60·corners + 4·stability + w·parity, w = squares taken / squares · 10.
pub(crate) struct Kukreja;

impl Kukreja {
    /// The player (it makes no random choices).
    pub(crate) fn new(_seed: u64) -> Kukreja {
        Kukreja
    }
}

struct Evaluation;

/// Stability of one side: per disc +1 if it can never be flipped, −1 if it touches an
/// empty square, 0 otherwise. A disc that can never be flipped counts +1 even when it
/// touches an empty square (a corner disc early on): being unflippable is what the term
/// measures.
fn stability(grid: &Grid, stable: &[bool], player: Cell) -> i32 {
    let mut total = 0;
    let squares = grid.size() * grid.size();
    for (index, &unflippable) in stable.iter().enumerate().take(squares) {
        if grid.at(index) != player {
            continue;
        }
        if unflippable {
            total += 1;
        } else if grid.touches_empty(index) {
            total -= 1;
        }
    }
    total
}

impl<B: Board> Heuristic<B> for Evaluation {
    fn evaluate(&self, board: &B) -> i32 {
        let grid = Grid::of(board);
        let squares = (grid.size() * grid.size()) as i32;
        let (max, min) = grid.discs();
        let mobility = board.move_count() as i32 - board.pass().move_count() as i32;
        let corners = grid
            .corners()
            .iter()
            .map(|&c| match grid.at(c) {
                Cell::Player => 1,
                Cell::Opponent => -1,
                Cell::Empty => 0,
            })
            .sum::<i32>();
        let stable = grid.stable();
        let stability =
            stability(&grid, &stable, Cell::Player) - stability(&grid, &stable, Cell::Opponent);
        // In hundredths, so that the parity weight keeps its fraction.
        let parity_weight = 1000 * (max + min) / squares;
        100 * (2 * mobility + 60 * corners + 4 * stability) + parity_weight * (max - min)
    }
}

impl BaselinePlayer for Kukreja {
    fn name(&self) -> &'static str {
        "kukreja"
    }

    fn supports(&self, _size: usize) -> bool {
        true
    }

    fn choose(&mut self, position: &Position, limits: &Limits) -> Choice {
        let setup = Setup {
            max_depth: limits.depth.unwrap_or(MAX_DEPTH).min(MAX_DEPTH),
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
    fn evaluation_weighs_each_term() {
        // Black to move holds the a1 corner and a2 and b1 next to it (all three stable),
        // plus e4, d5; White holds d4, e5.
        let position: Position = "\
            XX------\
            X-------\
            --------\
            ---OX---\
            ---XO---\
            --------\
            --------\
            -------- X"
            .parse()
            .unwrap();
        let crate::board::AnyBoard::Eight(b) = position.board else {
            unreachable!()
        };
        let mobility = b.move_count() as i32 - b.pass().move_count() as i32;
        // Stability: Black 3 stable, e4 and d5 touch empties (-2); White d4, e5 (-2).
        let stability = (3 - 2) - (-2);
        let parity_weight = 1000 * 7 / 64;
        let expected = 100 * (2 * mobility + 60 + 4 * stability) + parity_weight * (5 - 2);
        assert_eq!(Heuristic::evaluate(&Evaluation, &b), expected);
    }
}
