//! Move ordering: which move to try first. Alpha-beta prunes most when the best move comes
//! first, so each node orders its moves by, in decreasing weight: the transposition-table
//! move; few replies left to the opponent (mobility and potential mobility after the
//! move) and, far enough from the leaves, a low static evaluation of the position the move
//! leaves to the opponent; corners first and X-/C-squares next to an empty corner last;
//! killer moves (cutoffs at the same ply) and a history of moves that caused cutoffs
//! anywhere. One move above the leaves, where a child costs no more than its evaluation,
//! only the corners go first and the squares next to them last.

use crate::board::bitboard::{Bits, CORNERS, C_SQUARES, X_SQUARES};
use crate::board::{Board, Cell, MAX_SIZE};
use crate::score;

/// Deepest ply a search may reach (passes included).
pub(crate) const MAX_PLY: usize = 2 * MAX_SIZE * MAX_SIZE + 8;

/// Ordering bonus of the transposition-table move: before everything else.
const TT_MOVE: i32 = 1 << 30;
/// Weight of one opponent reply left after the move.
const PER_REPLY: i32 = 1 << 10;
/// Weight of one square where the opponent may later reply.
const PER_POTENTIAL_REPLY: i32 = PER_REPLY / 2;
/// Weight of one disc of the child's static evaluation (for the opponent, so the lower the
/// better), about one reply: with it a fixed-depth search visits about a fifth fewer nodes.
const PER_DISC_OF_EVAL: i32 = 1000;
/// Shallowest depth at which moves are ordered by the evaluation too: nearer the leaves a
/// subtree costs too little for the evaluations to pay.
const EVAL_MIN_DEPTH: u32 = 4;
/// A corner move.
const CORNER: i32 = 1 << 12;
/// An X-square next to an empty corner.
const X_SQUARE: i32 = -(1 << 11);
/// A C-square next to an empty corner.
const C_SQUARE: i32 = -(1 << 9);
/// A killer move of this ply.
const KILLER: i32 = 1 << 9;
/// History contributes at most this much.
const HISTORY_CAP: i32 = (1 << 9) - 1;

/// The order in which a node one move above the leaves on 8x8 scores its `moves`: corners,
/// then the squares next to no corner, then C-squares, then X-squares, each group in board
/// order. A null-window node stops at the first child that fails high, and a corner is
/// more often that child than an X-square; the masks cost next to nothing, where a key per
/// move (the children's mobility) found the cutoffs sooner still but cost more time than
/// it saved.
pub(crate) fn leaf_parent_order(moves: u64) -> impl Iterator<Item = usize> {
    let next_to_corners = C_SQUARES | X_SQUARES;
    Bits(moves & CORNERS)
        .chain(Bits(moves & !(CORNERS | next_to_corners)))
        .chain(Bits(moves & C_SQUARES))
        .chain(Bits(moves & X_SQUARES))
}

/// Where a square stands next to the corners, for the static part of the ordering.
#[derive(Clone, Copy, PartialEq, Eq)]
enum SquareRole {
    Corner,
    /// X- or C-square of the corner with this index; bool: whether it is the X-square.
    NextToCorner(usize, bool),
    Other,
}

fn square_roles(size: usize) -> Vec<SquareRole> {
    let mut roles = vec![SquareRole::Other; size * size];
    let last = size - 1;
    for (row, col) in [(0, 0), (0, last), (last, 0), (last, last)] {
        let corner = row * size + col;
        roles[corner] = SquareRole::Corner;
        let step_r = if row == 0 { 1 } else { -1i32 };
        let step_c = if col == 0 { 1 } else { -1i32 };
        let at = |dr: i32, dc: i32| {
            ((row as i32 + dr * step_r) as usize) * size + (col as i32 + dc * step_c) as usize
        };
        roles[at(1, 1)] = SquareRole::NextToCorner(corner, true);
        roles[at(0, 1)] = SquareRole::NextToCorner(corner, false);
        roles[at(1, 0)] = SquareRole::NextToCorner(corner, false);
    }
    roles
}

/// Empty squares next to the discs of the side that just moved in `child`: where its
/// opponent may later find moves.
#[inline(always)]
fn potential_replies<B: Board>(child: &B) -> u32 {
    child.potential_mobility()
}

/// Killer moves and history, reset for each search so that a search from a fresh engine
/// is reproducible.
pub(crate) struct MoveOrdering {
    roles: Vec<SquareRole>,
    killers: Vec<[usize; 2]>,
    history: Vec<i32>,
}

impl MoveOrdering {
    /// Ordering state for boards of side `size`.
    pub(crate) fn new(size: usize) -> MoveOrdering {
        MoveOrdering {
            roles: square_roles(size),
            killers: vec![[usize::MAX; 2]; MAX_PLY + 1],
            history: vec![0; size * size],
        }
    }

    /// Ordering key of move `m` from `board`, leading to `child`, at `depth` plies to go
    /// (higher is tried first). `evaluate_child` gives the child's static evaluation (in
    /// score units, for the opponent); it is asked only from [`EVAL_MIN_DEPTH`] on.
    #[inline]
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn key<B: Board>(
        &self,
        board: &B,
        child: &B,
        m: usize,
        depth: u32,
        ply: usize,
        tt_move: Option<usize>,
        evaluate_child: impl FnOnce() -> i32,
    ) -> i32 {
        if tt_move == Some(m) {
            return TT_MOVE;
        }
        let mut key = match self.roles[m] {
            SquareRole::Corner => CORNER,
            SquareRole::NextToCorner(corner, x) if board.cell(corner) == Cell::Empty => {
                if x {
                    X_SQUARE
                } else {
                    C_SQUARE
                }
            }
            _ => 0,
        };
        if depth >= 2 {
            // The child has the opponent to move: its moves are the replies.
            key -= PER_REPLY * child.move_count() as i32;
            key -= PER_POTENTIAL_REPLY * potential_replies(child) as i32;
        }
        if depth >= EVAL_MIN_DEPTH {
            key -= evaluate_child() * PER_DISC_OF_EVAL / score::from_discs(1);
        }
        if self.killers[ply].contains(&m) {
            key += KILLER;
        }
        key + (self.history[m] >> 4).min(HISTORY_CAP)
    }

    /// Records that `m` caused a cutoff at `ply` with `depth` plies to go.
    #[inline]
    pub(crate) fn on_cutoff(&mut self, m: usize, depth: u32, ply: usize) {
        let killers = &mut self.killers[ply];
        if killers[0] != m {
            killers[1] = killers[0];
            killers[0] = m;
        }
        let bonus = (depth * depth) as i32;
        self.history[m] = self.history[m].saturating_add(bonus);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::{Board8, Square};

    #[test]
    fn corners_come_first_and_x_squares_last() {
        // Mover (X) can take a1 or play elsewhere; see the square roles on 8x8.
        let roles = square_roles(8);
        assert!(roles[0] == SquareRole::Corner && roles[63] == SquareRole::Corner);
        assert!(roles[9] == SquareRole::NextToCorner(0, true));
        assert!(roles[54] == SquareRole::NextToCorner(63, true));
        assert!(roles[6] == SquareRole::NextToCorner(7, false));
        let ordering = MoveOrdering::new(8);
        let board = Board8::START;
        let child = board.play(19);
        let unasked = || panic!("no evaluation near the leaves");
        let corner_key = ordering.key(&board, &child, 0, 1, 0, None, unasked);
        let x_key = ordering.key(&board, &child, 9, 1, 0, None, unasked);
        let plain_key = ordering.key(&board, &child, 19, 1, 0, None, unasked);
        assert!(corner_key > plain_key && plain_key > x_key);
        assert_eq!(
            ordering.key(&board, &child, 19, 5, 0, Some(19), unasked),
            TT_MOVE
        );
    }

    #[test]
    fn one_move_above_the_leaves_corners_come_first_then_plain_then_c_then_x_squares() {
        let square = |name: &str| name.parse::<Square>().unwrap().index(8).unwrap();
        let names = ["b2", "a1", "b1", "d3", "g7", "h8", "c1", "a7", "h2"];
        let moves = names
            .iter()
            .fold(0u64, |mask, name| mask | 1 << square(name));
        let order: Vec<usize> = leaf_parent_order(moves).collect();
        let expected: Vec<usize> = ["a1", "h8", "c1", "d3", "b1", "h2", "a7", "b2", "g7"]
            .iter()
            .map(|name| square(name))
            .collect();
        assert_eq!(order, expected);
        // Every move once, whatever the mask.
        let all: Vec<usize> = leaf_parent_order(u64::MAX).collect();
        assert_eq!(all.len(), 64);
        assert_eq!(all.iter().fold(0u64, |mask, &m| mask | 1 << m), u64::MAX);
    }

    #[test]
    fn far_from_the_leaves_a_move_leaving_the_opponent_worse_off_comes_first() {
        let ordering = MoveOrdering::new(8);
        let board = Board8::START;
        let child = board.play(19);
        let depth = EVAL_MIN_DEPTH;
        let good_for_us = ordering.key(&board, &child, 19, depth, 0, None, || -300);
        let good_for_them = ordering.key(&board, &child, 19, depth, 0, None, || 300);
        assert!(good_for_us > good_for_them);
        // Six discs of evaluation weigh about as much as six replies.
        assert!((good_for_us - good_for_them - 6 * PER_REPLY).abs() < PER_REPLY);
        let shallow = |value| ordering.key(&board, &child, 19, depth - 1, 0, None, move || value);
        assert_eq!(shallow(-300), shallow(300));
    }
}
