//! Board features the classic evaluations share, on a plain grid of cells so that one
//! implementation serves every board size.

use crate::board::{Board, Cell, MAX_SIZE};

/// The eight neighbour directions as (row, column) steps.
const DIRECTIONS: [(i32, i32); 8] = [
    (-1, -1),
    (-1, 0),
    (-1, 1),
    (0, -1),
    (0, 1),
    (1, -1),
    (1, 0),
    (1, 1),
];

/// The four lines through a square (row, column, both diagonals), one step each way.
const AXES: [(i32, i32); 4] = [(0, 1), (1, 0), (1, 1), (1, -1)];

/// Who holds a square, from the side to move's point of view.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) enum Side {
    /// The side to move ("max").
    Max,
    /// The other side ("min").
    Min,
}

impl Side {
    fn cell(self) -> Cell {
        match self {
            Side::Max => Cell::Player,
            Side::Min => Cell::Opponent,
        }
    }
}

/// A snapshot of a board's cells, row-major, with neighbourhood helpers.
pub(crate) struct Grid {
    size: usize,
    cells: [Cell; MAX_SIZE * MAX_SIZE],
}

impl Grid {
    /// The cells of `board`.
    pub(crate) fn of<B: Board>(board: &B) -> Grid {
        let size = board.size();
        let mut cells = [Cell::Empty; MAX_SIZE * MAX_SIZE];
        for (index, cell) in cells.iter_mut().enumerate().take(size * size) {
            *cell = board.cell(index);
        }
        Grid { size, cells }
    }

    /// Squares per side.
    pub(crate) fn size(&self) -> usize {
        self.size
    }

    /// The cell at `index`.
    pub(crate) fn at(&self, index: usize) -> Cell {
        self.cells[index]
    }

    /// Whether `side` holds `index`.
    pub(crate) fn holds(&self, index: usize, side: Side) -> bool {
        self.cells[index] == side.cell()
    }

    /// Row-major indices of the four corners.
    pub(crate) fn corners(&self) -> [usize; 4] {
        let n = self.size;
        [0, n - 1, n * (n - 1), n * n - 1]
    }

    /// The square one `(dr, dc)` step from `index`, if on the board.
    fn step(&self, index: usize, (dr, dc): (i32, i32)) -> Option<usize> {
        let n = self.size as i32;
        let (r, c) = (
            (index / self.size) as i32 + dr,
            (index % self.size) as i32 + dc,
        );
        (0..n)
            .contains(&r)
            .then_some(())
            .filter(|_| (0..n).contains(&c))
            .map(|_| (r * n + c) as usize)
    }

    /// The up to eight squares touching `index`.
    pub(crate) fn neighbours(&self, index: usize) -> impl Iterator<Item = usize> + '_ {
        DIRECTIONS.iter().filter_map(move |&d| self.step(index, d))
    }

    /// Whether `index` touches an empty square.
    pub(crate) fn touches_empty(&self, index: usize) -> bool {
        self.neighbours(index).any(|n| self.cells[n] == Cell::Empty)
    }

    /// Whether `index` is on the board's edge.
    pub(crate) fn is_edge(&self, index: usize) -> bool {
        let (r, c) = (index / self.size, index % self.size);
        r == 0 || c == 0 || r == self.size - 1 || c == self.size - 1
    }

    /// Discs of each side: (max, min).
    pub(crate) fn discs(&self) -> (i32, i32) {
        self.count(|i| self.holds(i, Side::Max), |i| self.holds(i, Side::Min))
    }

    /// Counts squares satisfying `max` and `min`: (max count, min count).
    pub(crate) fn count(
        &self,
        max: impl Fn(usize) -> bool,
        min: impl Fn(usize) -> bool,
    ) -> (i32, i32) {
        let squares = 0..self.size * self.size;
        let a = squares.clone().filter(|&i| max(i)).count() as i32;
        let b = squares.filter(|&i| min(i)).count() as i32;
        (a, b)
    }

    /// Discs that can never be flipped: along each of the four lines through the disc,
    /// either the line is full (no disc can ever be placed on it) or the next square one way
    /// is off the board or another such disc of the same side. Grown to a fixed point; a
    /// conservative but exact test (every disc found is truly unflippable).
    pub(crate) fn stable(&self) -> [bool; MAX_SIZE * MAX_SIZE] {
        let squares = self.size * self.size;
        let mut full = [[false; 4]; MAX_SIZE * MAX_SIZE];
        for (index, lines) in full.iter_mut().enumerate().take(squares) {
            for (axis, &(dr, dc)) in AXES.iter().enumerate() {
                lines[axis] = self.line_is_full(index, (dr, dc));
            }
        }
        let mut stable = [false; MAX_SIZE * MAX_SIZE];
        loop {
            let mut changed = false;
            for index in 0..squares {
                if stable[index] || self.cells[index] == Cell::Empty {
                    continue;
                }
                let anchored = |d: (i32, i32)| match self.step(index, d) {
                    None => true,
                    Some(n) => stable[n] && self.cells[n] == self.cells[index],
                };
                let safe = AXES.iter().enumerate().all(|(axis, &(dr, dc))| {
                    full[index][axis] || anchored((dr, dc)) || anchored((-dr, -dc))
                });
                if safe {
                    stable[index] = true;
                    changed = true;
                }
            }
            if !changed {
                return stable;
            }
        }
    }

    fn line_is_full(&self, index: usize, (dr, dc): (i32, i32)) -> bool {
        for d in [(dr, dc), (-dr, -dc)] {
            let mut at = index;
            while let Some(next) = self.step(at, d) {
                if self.cells[next] == Cell::Empty {
                    return false;
                }
                at = next;
            }
        }
        true
    }

    /// Discs of `side` anchored in its corners: from each owned corner, the staircase of
    /// its own discs grown along rows, each row reaching no further than the row before it
    /// (so along both the row and the column edges). Each disc counts once.
    pub(crate) fn corner_anchored(&self, side: Side) -> i32 {
        let n = self.size;
        let mut seen = [false; MAX_SIZE * MAX_SIZE];
        let mut total = 0;
        // Each corner with its row step and column step pointing inwards.
        let corners = [
            (0, 0, 1i32, 1i32),
            (0, n - 1, 1, -1),
            (n - 1, 0, -1, 1),
            (n - 1, n - 1, -1, -1),
        ];
        for (r0, c0, dr, dc) in corners {
            let mut limit = n;
            for k in 0..n {
                let r = (r0 as i32 + dr * k as i32) as usize;
                let mut reach = 0;
                while reach < limit {
                    let c = (c0 as i32 + dc * reach as i32) as usize;
                    if !self.holds(r * n + c, side) {
                        break;
                    }
                    if !seen[r * n + c] {
                        seen[r * n + c] = true;
                        total += 1;
                    }
                    reach += 1;
                }
                if reach == 0 {
                    break;
                }
                limit = reach;
            }
        }
        total
    }
}

/// `100·(a−b)/(a+b)`, 0 when both are 0: the normalised difference most classic
/// evaluations use.
pub(crate) fn ratio(a: i32, b: i32) -> i32 {
    if a + b == 0 {
        0
    } else {
        100 * (a - b) / (a + b)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Position;

    fn grid(board: &str) -> Grid {
        let position: Position = board.parse().unwrap();
        crate::with_board!(&position.board, b => Grid::of(b))
    }

    #[test]
    fn corners_and_edges_anchor_stable_discs() {
        // Black (to move) holds a1, b1, c1 and a2; White holds h8 alone.
        let g = grid(
            "XXX-----\
             X-------\
             --------\
             ---OX---\
             ---XO---\
             --------\
             --------\
             -------O X",
        );
        let stable = g.stable();
        for square in [0, 1, 2, 8] {
            assert!(stable[square], "square {square}");
        }
        assert!(stable[63]);
        assert!(!stable[27] && !stable[28], "centre discs can be flipped");
        assert_eq!(g.corner_anchored(Side::Max), 4);
        assert_eq!(g.corner_anchored(Side::Min), 1);
    }

    #[test]
    fn a_full_line_protects_its_discs_along_it_only() {
        // The full top edge is stable whatever the colours; the full fourth row protects
        // its discs along the row only, and their columns are open.
        let g = grid(
            "XOOXXOXO\
             --------\
             --------\
             OOOXOOOO\
             ---X----\
             --------\
             --------\
             -------- X",
        );
        let stable = g.stable();
        assert!((0..8).all(|i| stable[i]));
        assert!((24..32).all(|i| !stable[i]));
    }

    #[test]
    fn ratio_is_antisymmetric_and_safe_at_zero() {
        assert_eq!(ratio(3, 1), 50);
        assert_eq!(ratio(1, 3), -50);
        assert_eq!(ratio(0, 0), 0);
    }
}
