//! `phased`: seven features with weights by board size and game phase; alpha-beta with
//! iterative deepening, a transposition table and move ordering. Weights exist for 6x6,
//! 8x8, 10x10 and 12x12, so it plays every size.

use std::time::Duration;

use super::features::{ratio, Grid, Side};
use super::search::{search, Heuristic, Setup, Table};
use super::{deadline, BaselinePlayer, Choice};
use crate::board::{Board, Cell, Position};
use crate::search::Limits;

/// Time per move when the limits give none ("about 2 s a move").
pub(crate) const DEFAULT_TIME: Duration = Duration::from_secs(2);

/// Feature weights: disc count, mobility, corners, stability, potential mobility, X-square
/// penalty, frontier.
type Weights = [i32; 7];

/// Weights by board size, then phase (early, mid, late).
const WEIGHTS: [(usize, [Weights; 3]); 4] = [
    (
        6,
        [
            [2, 5, 30, 4, 3, 30, 0],
            [5, 4, 50, 8, 3, 30, 0],
            [15, 2, 20, 15, 0, 10, 0],
        ],
    ),
    (
        8,
        [
            [5, 15, 50, 8, 15, 200, 0],
            [10, 10, 2000, 20, 10, 500, 10],
            [30, 5, 3000, 50, 0, 2000, 0],
        ],
    ),
    (
        10,
        [
            [5, 15, 50, 8, 15, 200, 0],
            [15, 10, 2000, 25, 15, 2000, 30],
            [100, 5, 2000, 40, 0, 3000, 0],
        ],
    ),
    (
        12,
        [
            [5, 15, 50, 8, 15, 200, 0],
            [10, 10, 2000, 15, 10, 300, 0],
            [50, 2, 2000, 25, 0, 300, 0],
        ],
    ),
];

/// Game phase by the share of squares filled.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Phase {
    /// Under a third filled.
    Early,
    /// Under two thirds.
    Mid,
    /// The rest.
    Late,
}

fn phase<B: Board>(board: &B) -> Phase {
    let squares = (board.size() * board.size()) as u32;
    let filled = squares - board.empties();
    if 3 * filled < squares {
        Phase::Early
    } else if 3 * filled < 2 * squares {
        Phase::Mid
    } else {
        Phase::Late
    }
}

/// Seven weighted features; alpha-beta with deepening, a transposition table and ordering.
pub(crate) struct Phased {
    table: Table,
}

impl Phased {
    /// The player (it makes no random choices).
    pub(crate) fn new(_seed: u64) -> Phased {
        Phased {
            table: Table::new(18),
        }
    }
}

struct Evaluation {
    weights: [Weights; 3],
}

/// The seven feature values for the side to move, in the order of [`Weights`].
fn features<B: Board>(board: &B) -> [i32; 7] {
    let grid = Grid::of(board);
    let (max, min) = grid.discs();
    let mobility = ratio(board.move_count() as i32, board.pass().move_count() as i32);
    let corners = {
        let (a, b) = grid.count(
            |i| grid.corners().contains(&i) && grid.holds(i, Side::Max),
            |i| grid.corners().contains(&i) && grid.holds(i, Side::Min),
        );
        ratio(a, b)
    };
    let stability = ratio(
        grid.corner_anchored(Side::Max),
        grid.corner_anchored(Side::Min),
    );
    // Potential mobility of a side: empty squares next to the other side's discs.
    let grid = &grid;
    let next_to = |side: Side| {
        move |i: usize| grid.at(i) == Cell::Empty && grid.neighbours(i).any(|n| grid.holds(n, side))
    };
    let (potential_max, potential_min) = grid.count(next_to(Side::Min), next_to(Side::Max));
    // X-squares (diagonally next to a corner) held while the corner is not.
    let x_squares = |side: Side| {
        let n = grid.size();
        let pairs = [
            (0, n + 1),
            (n - 1, 2 * n - 2),
            (n * (n - 1), n * (n - 2) + 1),
            (n * n - 1, n * (n - 1) - 2),
        ];
        pairs
            .iter()
            .filter(|&&(corner, x)| grid.holds(x, side) && !grid.holds(corner, side))
            .count() as i32
    };
    let x_penalty = -50 * (x_squares(Side::Max) - x_squares(Side::Min));
    let (frontier_max, frontier_min) = grid.count(
        |i| grid.holds(i, Side::Max) && grid.touches_empty(i),
        |i| grid.holds(i, Side::Min) && grid.touches_empty(i),
    );
    [
        ratio(max, min),
        mobility,
        corners,
        stability,
        potential_max - potential_min,
        x_penalty,
        -ratio(frontier_max, frontier_min),
    ]
}

impl<B: Board> Heuristic<B> for Evaluation {
    fn evaluate(&self, board: &B) -> i32 {
        let weights = &self.weights[phase(board) as usize];
        features(board)
            .iter()
            .zip(weights)
            .map(|(feature, weight)| feature * weight)
            .sum()
    }

    /// Corner +100000, next to a corner the mover does not hold −3000, edge +200,
    /// 10·the mover's mobility after the move, 7·discs flipped (15· late in the game).
    fn order(&self, board: &B, index: usize) -> i32 {
        let grid = Grid::of(board);
        let mut priority = 0;
        if grid.corners().contains(&index) {
            priority += 100_000;
        } else if grid
            .corners()
            .iter()
            .any(|&c| !grid.holds(c, Side::Max) && grid.neighbours(c).any(|n| n == index))
        {
            priority -= 3000;
        }
        if grid.is_edge(index) {
            priority += 200;
        }
        let after = board.play(index);
        priority += 10 * after.pass().move_count() as i32;
        let flip_weight = if phase(board) == Phase::Late { 15 } else { 7 };
        priority + flip_weight * board.flip_count(index) as i32
    }
}

impl BaselinePlayer for Phased {
    fn name(&self) -> &'static str {
        "phased"
    }

    fn supports(&self, size: usize) -> bool {
        WEIGHTS.iter().any(|&(s, _)| s == size)
    }

    fn choose(&mut self, position: &Position, limits: &Limits) -> Choice {
        let size = position.size();
        let weights = WEIGHTS
            .iter()
            .find(|&&(s, _)| s == size)
            .map_or(WEIGHTS[1].1, |&(_, w)| w);
        let setup = Setup {
            max_depth: limits.depth.unwrap_or(u32::MAX),
            deadline: deadline(position, limits, DEFAULT_TIME),
            node_limit: limits.nodes.unwrap_or(u64::MAX),
            pruning: true,
            ordering: true,
        };
        let evaluation = Evaluation { weights };
        crate::with_board!(&position.board, b => {
            search(b, &evaluation, &setup, Some(&mut self.table))
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn board8(text: &str) -> crate::board::Board8 {
        let position: Position = text.parse().unwrap();
        match position.board {
            crate::board::AnyBoard::Eight(b) => b,
            _ => unreachable!(),
        }
    }

    #[test]
    fn features_of_a_hand_checked_position() {
        // Black (to move): a1, b1, e4, d5 and the X-square g7 (h8 is empty); White: h1,
        // d4, e5.
        let b = board8(
            "XX-----O\
             --------\
             --------\
             ---OX---\
             ---XO---\
             --------\
             ------X-\
             -------- X",
        );
        let f = features(&b);
        // Discs: Black a1 b1 e4 d5 g7 = 5, White h1 d4 e5 = 3.
        assert_eq!(f[0], 100 * 2 / 8);
        // Corners 1 vs 1.
        assert_eq!(f[2], 0);
        // Corner-anchored: Black a1, b1 = 2; White h1 = 1.
        assert_eq!(f[3], 100 / 3);
        // X-squares: Black g7 next to the empty h8; White none.
        assert_eq!(f[5], -50);
        // Frontier: every disc touches an empty square.
        assert_eq!(f[6], -ratio(5, 3));
    }

    #[test]
    fn phases_follow_the_filled_share() {
        assert_eq!(
            phase(&board8(&format!("{} X", "-".repeat(64)))),
            Phase::Early
        );
        let mid = format!("{}{} X", "X".repeat(22), "-".repeat(42));
        assert_eq!(phase(&board8(&mid)), Phase::Mid);
        let late = format!("{}{} X", "X".repeat(43), "-".repeat(21));
        assert_eq!(phase(&board8(&late)), Phase::Late);
    }

    #[test]
    fn corners_are_ordered_first_and_their_neighbours_last() {
        let b = board8(
            "--------\
             -O------\
             --OX----\
             ---OX---\
             ---XXX--\
             --------\
             --------\
             -------- X",
        );
        let evaluation = Evaluation {
            weights: WEIGHTS[1].1,
        };
        let mut moves: Vec<usize> = b.moves().collect();
        moves.sort_by_key(|&m| -evaluation.order(&b, m));
        assert_eq!(moves[0], 0, "a1 first");
    }
}
