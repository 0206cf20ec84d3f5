//! The measured features of a position that the classic evaluation weighs: each one a number
//! from the side to move's point of view (its own count minus the opponent's, unless said
//! otherwise). Written once square by square for every board size, and again on bitboards:
//! for 8x8, and once for the other sizes' bitboards; tests check that all agree.

use std::sync::OnceLock;

use crate::board::bitboard::{column_byte, gather, legal_moves, neighbours};
use crate::board::bitset::BitSet;
use crate::board::geometry::{self, Geometry, Layout};
use crate::board::{BitboardRef, Board, Board8, Cell, GridBoard, MAX_SIZE};

/// Number of features.
pub(crate) const NUM_FEATURES: usize = 19;

/// Index of each feature in a feature vector.
pub(crate) mod f {
    /// Disc difference.
    pub(crate) const DISCS: usize = 0;
    /// Legal moves of the mover minus the opponent's.
    pub(crate) const MOBILITY: usize = 1;
    /// Empty squares next to an opponent disc (where the mover may later move) minus the
    /// same for the opponent.
    pub(crate) const POTENTIAL_MOBILITY: usize = 2;
    /// Own discs next to an empty square, minus the opponent's.
    pub(crate) const FRONTIER: usize = 3;
    /// Corners held.
    pub(crate) const CORNERS: usize = 4;
    /// Discs on an X-square (diagonally next to a corner) whose corner is empty.
    pub(crate) const X_DANGER: usize = 5;
    /// Discs on a C-square (next to a corner along an edge) whose corner is empty.
    pub(crate) const C_DANGER: usize = 6;
    /// Edge-anchored stable discs: on an edge, in a run of one colour from a corner, or on
    /// a full edge. Such discs can never be flipped.
    pub(crate) const STABLE: usize = 7;
    /// +1 when the mover is due the last move (odd number of empties), -1 otherwise.
    pub(crate) const PARITY: usize = 8;
    /// Quadrants with an odd number of empties (not a difference: a property of the board
    /// that favours the side to move, who can play into them first).
    pub(crate) const REGION_PARITY: usize = 9;
    /// First square-class feature; classes follow [`super::SQUARE_CLASSES`].
    pub(crate) const SQUARE_CLASS_BASE: usize = 10;
}

/// The square classes of the square-weight table, by (distance to the nearer edge, distance
/// to the farther edge), both capped at 3: `(0, 1)` is a C-square, `(1, 1)` an X-square,
/// `(0, 2)` an A-square, `(0, 3)` a B-square. Corners `(0, 0)` are the `corners` feature.
pub(crate) const SQUARE_CLASSES: [(u8, u8); 9] = [
    (0, 1),
    (1, 1),
    (0, 2),
    (0, 3),
    (1, 2),
    (1, 3),
    (2, 2),
    (2, 3),
    (3, 3),
];

/// A feature vector.
pub(crate) type Features = [i32; NUM_FEATURES];

/// The edge distances of square `index` on a board of side `size`: (nearer, farther),
/// each the distance to the closest edge row or column, capped at 3.
pub(crate) fn edge_distances(index: usize, size: usize) -> (u8, u8) {
    let (row, col) = (index / size, index % size);
    let dr = row.min(size - 1 - row).min(3) as u8;
    let dc = col.min(size - 1 - col).min(3) as u8;
    (dr.min(dc), dr.max(dc))
}

/// The square-class feature index of `index`, or `None` for a corner.
fn square_class(index: usize, size: usize) -> Option<usize> {
    let distances = edge_distances(index, size);
    SQUARE_CLASSES
        .iter()
        .position(|&c| c == distances)
        .map(|k| f::SQUARE_CLASS_BASE + k)
}

/// Computes the features of `board`, on its bitboards.
#[inline]
pub fn features<B: Board>(board: &B) -> Features {
    match board.as_bitboard() {
        Some(BitboardRef::Eight(board)) => features8(board),
        Some(BitboardRef::Six(board)) => features_grid(board),
        Some(BitboardRef::Ten(board)) => features_grid(board),
        Some(BitboardRef::Twelve(board)) => features_grid(board),
        None => features_generic(board),
    }
}

/// The corners of a board of side `size` with, for each, its X-square and two C-squares.
fn corner_groups(size: usize) -> [(usize, usize, [usize; 2]); 4] {
    let n = size;
    let at = |row: usize, col: usize| row * n + col;
    [
        (at(0, 0), at(1, 1), [at(0, 1), at(1, 0)]),
        (at(0, n - 1), at(1, n - 2), [at(0, n - 2), at(1, n - 1)]),
        (at(n - 1, 0), at(n - 2, 1), [at(n - 1, 1), at(n - 2, 0)]),
        (
            at(n - 1, n - 1),
            at(n - 2, n - 2),
            [at(n - 1, n - 2), at(n - 2, n - 1)],
        ),
    ]
}

/// The four edges of a board of side `size`, each as its squares in order along the edge.
fn edges(size: usize) -> [[usize; MAX_SIZE]; 4] {
    let mut lines = [[0; MAX_SIZE]; 4];
    let starts_and_steps = [(0, 1), ((size - 1) * size, 1), (0, size), (size - 1, size)];
    for (line, (start, step)) in lines.iter_mut().zip(starts_and_steps) {
        for (i, square) in line.iter_mut().take(size).enumerate() {
            *square = start + i * step;
        }
    }
    lines
}

/// Stable discs on one edge line, as bits (bit `i` = square `i` of the line) for the
/// player and the opponent: runs of one colour from either end, or the whole line if full.
fn edge_line_stable(cells: &[Cell]) -> (u32, u32) {
    let n = cells.len();
    let mut stable = (0u32, 0u32);
    let mark = |i: usize, cell: Cell, stable: &mut (u32, u32)| match cell {
        Cell::Player => stable.0 |= 1 << i,
        Cell::Opponent => stable.1 |= 1 << i,
        Cell::Empty => {}
    };
    if cells.iter().all(|&c| c != Cell::Empty) {
        for (i, &c) in cells.iter().enumerate() {
            mark(i, c, &mut stable);
        }
        return stable;
    }
    for ends in [(0..n).collect::<Vec<_>>(), (0..n).rev().collect()] {
        let first = cells[ends[0]];
        if first == Cell::Empty {
            continue;
        }
        for &i in &ends {
            if cells[i] != first {
                break;
            }
            mark(i, first, &mut stable);
        }
    }
    stable
}

/// Features square by square through [`Board::cell`]: every board size.
pub(crate) fn features_generic<B: Board>(board: &B) -> Features {
    let size = board.size();
    let squares = size * size;
    let mut cells = [Cell::Empty; MAX_SIZE * MAX_SIZE];
    for (index, cell) in cells.iter_mut().enumerate().take(squares) {
        *cell = board.cell(index);
    }
    let cells = &cells[..squares];
    let side = |cell: Cell| -> i32 {
        match cell {
            Cell::Player => 1,
            Cell::Opponent => -1,
            Cell::Empty => 0,
        }
    };

    let mut x = [0i32; NUM_FEATURES];
    x[f::MOBILITY] = board.move_count() as i32 - board.pass().move_count() as i32;
    let mut quadrant_empties = [0u32; 4];
    for (index, &cell) in cells.iter().enumerate() {
        let (row, col) = ((index / size) as i32, (index % size) as i32);
        let (mut next_to_player, mut next_to_opponent, mut next_to_empty) = (false, false, false);
        for dr in -1..=1 {
            for dc in -1..=1 {
                let (r, c) = (row + dr, col + dc);
                if (dr, dc) == (0, 0) || r < 0 || c < 0 || r >= size as i32 || c >= size as i32 {
                    continue;
                }
                match cells[r as usize * size + c as usize] {
                    Cell::Player => next_to_player = true,
                    Cell::Opponent => next_to_opponent = true,
                    Cell::Empty => next_to_empty = true,
                }
            }
        }
        if cell == Cell::Empty {
            x[f::POTENTIAL_MOBILITY] += next_to_opponent as i32 - next_to_player as i32;
            let half = size as i32 / 2;
            quadrant_empties[((row >= half) as usize) * 2 + (col >= half) as usize] += 1;
            continue;
        }
        x[f::DISCS] += side(cell);
        if next_to_empty {
            x[f::FRONTIER] += side(cell);
        }
        if let Some(class) = square_class(index, size) {
            x[class] += side(cell);
        }
    }
    for (corner, x_square, c_squares) in corner_groups(size) {
        x[f::CORNERS] += side(cells[corner]);
        if cells[corner] == Cell::Empty {
            x[f::X_DANGER] += side(cells[x_square]);
            x[f::C_DANGER] += side(cells[c_squares[0]]) + side(cells[c_squares[1]]);
        }
    }
    let mut line = [Cell::Empty; MAX_SIZE];
    for edge in edges(size) {
        for i in 0..size {
            line[i] = cells[edge[i]];
        }
        let (p, o) = edge_line_stable(&line[..size]);
        x[f::STABLE] += p.count_ones() as i32 - o.count_ones() as i32;
    }
    // Corners lie on two edges each: count their (always stable) discs once.
    for (corner, _, _) in corner_groups(size) {
        x[f::STABLE] -= side(cells[corner]);
    }
    let empties: u32 = quadrant_empties.iter().sum();
    x[f::PARITY] = if empties % 2 == 1 { 1 } else { -1 };
    x[f::REGION_PARITY] = quadrant_empties.iter().filter(|&&e| e % 2 == 1).count() as i32;
    x
}

/// Bitboard masks for the 8x8 fast path.
mod masks8 {
    pub(crate) use crate::board::bitboard::CORNERS;
    /// The quadrants: rows 1-4 / 5-8 times columns a-d / e-h.
    pub(crate) const QUADRANTS: [u64; 4] = [
        0x0000_0000_0F0F_0F0F,
        0x0000_0000_F0F0_F0F0,
        0x0F0F_0F0F_0000_0000,
        0xF0F0_F0F0_0000_0000,
    ];
    /// Per corner: the corner, its X-square, its two C-squares.
    pub(crate) const CORNER_GROUPS: [(u64, u64, u64); 4] = [
        (1 << 0, 1 << 9, (1 << 1) | (1 << 8)),
        (1 << 7, 1 << 14, (1 << 6) | (1 << 15)),
        (1 << 56, 1 << 49, (1 << 57) | (1 << 48)),
        (1 << 63, 1 << 54, (1 << 62) | (1 << 55)),
    ];
}

/// Makes the 8x8 tables of the features ([`crate::setup`]).
pub(crate) fn prepare() {
    square_class_masks8();
    edge_stability8();
}

/// The square-class masks on 8x8, in [`SQUARE_CLASSES`] order.
fn square_class_masks8() -> &'static [u64; 9] {
    static MASKS: OnceLock<[u64; 9]> = OnceLock::new();
    crate::setup::once(&MASKS, || {
        let mut masks = [0u64; 9];
        for index in 0..64 {
            if let Some(class) = square_class(index, 8) {
                masks[class - f::SQUARE_CLASS_BASE] |= 1 << index;
            }
        }
        masks
    })
}

/// Stable-disc counts of every 8-square edge: index `player | opponent << 8`, value the
/// number of the player's stable discs minus the opponent's on that edge line.
fn edge_stability8() -> &'static [i8] {
    static TABLE: OnceLock<Vec<i8>> = OnceLock::new();
    crate::setup::once(&TABLE, || {
        let mut table = vec![0i8; 1 << 16];
        let mut line = [Cell::Empty; 8];
        for p in 0..256usize {
            for o in 0..256usize {
                if p & o != 0 {
                    continue;
                }
                for (i, cell) in line.iter_mut().enumerate() {
                    *cell = if p >> i & 1 != 0 {
                        Cell::Player
                    } else if o >> i & 1 != 0 {
                        Cell::Opponent
                    } else {
                        Cell::Empty
                    };
                }
                let (sp, so) = edge_line_stable(&line);
                table[p | o << 8] = sp.count_ones() as i8 - so.count_ones() as i8;
            }
        }
        table
    })
    .as_slice()
}

/// Features of an 8x8 board on bitboards; equal to [`features_generic`].
pub(crate) fn features8(board: &Board8) -> Features {
    use masks8::*;
    let (p, o) = (board.player, board.opponent);
    let empty = !(p | o);
    let count = |bits: u64| bits.count_ones() as i32;
    let diff = |mask: u64| count(p & mask) - count(o & mask);

    let mut x = [0i32; NUM_FEATURES];
    x[f::DISCS] = count(p) - count(o);
    x[f::MOBILITY] = count(legal_moves(p, o)) - count(legal_moves(o, p));
    x[f::POTENTIAL_MOBILITY] = count(neighbours(o) & empty) - count(neighbours(p) & empty);
    x[f::FRONTIER] = diff(neighbours(empty));
    x[f::CORNERS] = diff(CORNERS);
    let (mut x_mask, mut c_mask) = (0, 0);
    for (corner, x_square, c_squares) in CORNER_GROUPS {
        if empty & corner != 0 {
            x_mask |= x_square;
            c_mask |= c_squares;
        }
    }
    x[f::X_DANGER] = diff(x_mask);
    x[f::C_DANGER] = diff(c_mask);

    let table = edge_stability8();
    let row1 = |bits: u64| (bits & 0xFF) as usize;
    let row8 = |bits: u64| (bits >> 56) as usize;
    let col_a = |bits: u64| column_byte(bits, 0) as usize;
    let col_h = |bits: u64| column_byte(bits, 7) as usize;
    let stable = table[row1(p) | row1(o) << 8] as i32
        + table[row8(p) | row8(o) << 8] as i32
        + table[col_a(p) | col_a(o) << 8] as i32
        + table[col_h(p) | col_h(o) << 8] as i32;
    x[f::STABLE] = stable - diff(CORNERS);

    x[f::PARITY] = if count(empty) % 2 == 1 { 1 } else { -1 };
    x[f::REGION_PARITY] = QUADRANTS
        .iter()
        .filter(|&&q| count(empty & q) % 2 == 1)
        .count() as i32;
    for (k, &mask) in square_class_masks8().iter().enumerate() {
        x[f::SQUARE_CLASS_BASE + k] = diff(mask);
    }
    x
}

/// The squares [`features_grid`] counts, as words of a board's layout.
struct GridMasks {
    corners: [u64; 3],
    /// Per corner: the corner, its X-square, its two C-squares.
    corner_groups: [[[u64; 3]; 3]; 4],
    quadrants: [[u64; 3]; 4],
    /// The square classes in [`SQUARE_CLASSES`] order.
    classes: [[u64; 3]; 9],
    /// The first and last rows and columns.
    edges: [[u64; 3]; 4],
}

const fn add_square(words: &mut [u64; 3], layout: Layout, row: usize, col: usize) {
    let bit = layout.bit(row, col);
    words[bit / 64] |= 1 << (bit % 64);
}

const fn grid_masks(layout: Layout) -> GridMasks {
    let n = layout.size;
    let last = n - 1;
    let mut masks = GridMasks {
        corners: [0; 3],
        corner_groups: [[[0; 3]; 3]; 4],
        quadrants: [[0; 3]; 4],
        classes: [[0; 3]; 9],
        edges: [
            layout.rectangle(0, 0, 0, last),
            layout.rectangle(last, last, 0, last),
            layout.columns(0, 0),
            layout.columns(last, last),
        ],
    };
    // Per corner: its row and column, and the row and column next to them inwards.
    let corners = [
        (0, 0, 1, 1),
        (0, last, 1, last - 1),
        (last, 0, last - 1, 1),
        (last, last, last - 1, last - 1),
    ];
    let mut k = 0;
    while k < 4 {
        let (row, col, next_row, next_col) = corners[k];
        add_square(&mut masks.corners, layout, row, col);
        add_square(&mut masks.corner_groups[k][0], layout, row, col);
        add_square(&mut masks.corner_groups[k][1], layout, next_row, next_col);
        add_square(&mut masks.corner_groups[k][2], layout, row, next_col);
        add_square(&mut masks.corner_groups[k][2], layout, next_row, col);
        k += 1;
    }
    let mut row = 0;
    while row < n {
        let mut col = 0;
        while col < n {
            let quadrant = (row >= n / 2) as usize * 2 + (col >= n / 2) as usize;
            add_square(&mut masks.quadrants[quadrant], layout, row, col);
            // The edge distances of `edge_distances`, capped at 3.
            let dr = if row < last - row { row } else { last - row };
            let dc = if col < last - col { col } else { last - col };
            let (dr, dc) = (if dr < 3 { dr } else { 3 }, if dc < 3 { dc } else { 3 });
            let (near, far) = if dr < dc { (dr, dc) } else { (dc, dr) };
            let mut class = 0;
            while class < 9 {
                if SQUARE_CLASSES[class].0 as usize == near
                    && SQUARE_CLASSES[class].1 as usize == far
                {
                    add_square(&mut masks.classes[class], layout, row, col);
                }
                class += 1;
            }
            col += 1;
        }
        row += 1;
    }
    masks
}

/// The squares of `bits` under the line `mask` packed into the low bits, in square order.
#[inline(always)]
fn gather_line<B: BitSet>(bits: B, mask: &[u64; 3]) -> u32 {
    let (words, mut line, mut shift) = (bits.words(), 0u64, 0);
    for w in 0..(B::BITS / 64) as usize {
        line |= gather(words[w], mask[w]) << shift;
        shift += mask[w].count_ones();
    }
    line as u32
}

/// Stable discs of the player minus the opponent's on one edge line of `length` squares,
/// as [`edge_line_stable`] counts them: runs of one colour from either end, or everything on
/// a full line.
#[inline(always)]
fn edge_stable_difference(player: u32, opponent: u32, length: u32) -> i32 {
    if (player | opponent) == (1 << length) - 1 {
        return player.count_ones() as i32 - opponent.count_ones() as i32;
    }
    // A run from one end cannot meet the run from the other end unless the line is full.
    let runs = |x: u32| x.trailing_ones() + (x << (32 - length)).leading_ones();
    runs(player) as i32 - runs(opponent) as i32
}

/// Features of a 6x6, 10x10 or 12x12 board on its bitboards; equal to [`features_generic`].
pub(crate) fn features_grid<G: Geometry>(board: &GridBoard<G>) -> Features {
    let (p, o) = (board.player, board.opponent);
    let mobility = [G::legal_moves(p, o).count(), G::legal_moves(o, p).count()];
    features_grid_with(board, mobility)
}

/// [`features_grid`] with the legal move counts of the side to move and of the other side
/// already known.
pub(crate) fn features_grid_with<G: Geometry>(
    board: &GridBoard<G>,
    mobility: [u32; 2],
) -> Features {
    let masks: &GridMasks = const { &grid_masks(Layout::of::<G>()) };
    let bits = |words: &[u64; 3]| G::Bits::from_words(*words);
    let (p, o) = (board.player, board.opponent);
    let empty = board.empty_mask();
    let count = |x: G::Bits| x.count() as i32;
    let diff = |mask: G::Bits| count(p & mask) - count(o & mask);
    let around = geometry::neighbours::<G>;

    let mut x = [0i32; NUM_FEATURES];
    x[f::DISCS] = count(p) - count(o);
    x[f::MOBILITY] = mobility[0] as i32 - mobility[1] as i32;
    x[f::POTENTIAL_MOBILITY] = count(around(o) & empty) - count(around(p) & empty);
    x[f::FRONTIER] = diff(around(empty));
    x[f::CORNERS] = diff(bits(&masks.corners));
    let (mut x_mask, mut c_mask) = (G::Bits::EMPTY, G::Bits::EMPTY);
    for [corner, x_square, c_squares] in &masks.corner_groups {
        let open = !(empty & bits(corner)).is_empty();
        x_mask |= bits(x_square).keep_if(open);
        c_mask |= bits(c_squares).keep_if(open);
    }
    x[f::X_DANGER] = diff(x_mask);
    x[f::C_DANGER] = diff(c_mask);
    let mut stable = 0;
    for edge in &masks.edges {
        let line = |side: G::Bits| gather_line(side, edge);
        stable += edge_stable_difference(line(p), line(o), G::SIZE as u32);
    }
    x[f::STABLE] = stable - diff(bits(&masks.corners));
    x[f::PARITY] = if count(empty) % 2 == 1 { 1 } else { -1 };
    x[f::REGION_PARITY] = masks
        .quadrants
        .iter()
        .filter(|q| count(empty & bits(q)) % 2 == 1)
        .count() as i32;
    for (k, class) in masks.classes.iter().enumerate() {
        x[f::SQUARE_CLASS_BASE + k] = diff(bits(class));
    }
    x
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::{BoardN, Six, SquareSet, Ten, Twelve};

    fn to_n(board: &Board8) -> BoardN {
        let (mut p, mut o) = (SquareSet::default(), SquareSet::default());
        p.0[0] = board.player;
        o.0[0] = board.opponent;
        BoardN::from_sets(8, p, o)
    }

    #[test]
    fn bitboard_features_equal_square_by_square_features() {
        let mut seed = 7u64;
        for _ in 0..200 {
            let mut board = Board8::START;
            loop {
                assert_eq!(
                    features8(&board),
                    features_generic(&to_n(&board)),
                    "{board:?}"
                );
                let moves: Vec<usize> = board.moves().collect();
                if moves.is_empty() {
                    if board.is_game_over() {
                        break;
                    }
                    board = board.pass();
                    continue;
                }
                seed = crate::board::mix64(seed + 1);
                board = board.play(moves[(seed % moves.len() as u64) as usize]);
            }
        }
    }

    /// Random games on `G`'s board, comparing the bitboard features with the square by
    /// square ones at every position.
    fn grid_features_agree<G: Geometry>(games: usize) {
        let mut rng = crate::rng::Rng::new(G::SIZE as u64);
        for _ in 0..games {
            let mut board = GridBoard::<G>::start(G::SIZE);
            loop {
                assert_eq!(features_grid(&board), features_generic(&board), "{board:?}");
                let moves: Vec<usize> = board.moves().collect();
                if moves.is_empty() {
                    if board.is_game_over() {
                        break;
                    }
                    board = board.pass();
                    continue;
                }
                board = board.play(moves[(rng.next_u64() % moves.len() as u64) as usize]);
            }
        }
    }

    #[test]
    fn bitboard_features_of_other_sizes_equal_square_by_square_features() {
        grid_features_agree::<Six>(200);
        grid_features_agree::<Ten>(60);
        grid_features_agree::<Twelve>(40);
    }

    #[test]
    fn start_position_features_are_balanced() {
        for size in crate::board::SIZES {
            let x = features(&BoardN::start(size));
            assert_eq!(x[f::DISCS], 0);
            assert_eq!(x[f::MOBILITY], 0);
            assert_eq!(x[f::CORNERS], 0);
            assert_eq!(x[f::PARITY], -1, "{size}: even empties at the start");
        }
    }

    #[test]
    fn edge_stability_counts_corner_runs_and_full_edges() {
        use Cell::{Empty as E, Opponent as O, Player as P};
        assert_eq!(edge_line_stable(&[P, P, O, E, E, E, E, O]), (0b11, 1 << 7));
        assert_eq!(edge_line_stable(&[E, P, P, E, E, E, E, E]), (0, 0));
        assert_eq!(
            edge_line_stable(&[P, O, P, O, O, P, O, P]),
            (0b1010_0101, 0b0101_1010)
        );
        // Mover on a1 b1, opponent on h1 and g7 (the X-square of the empty h8).
        let board = Board8 {
            player: (1 << 0) | (1 << 1),
            opponent: (1 << 7) | (1 << 54),
        };
        let x = features8(&board);
        assert_eq!(x[f::STABLE], 1, "a1 b1 against h1");
        assert_eq!(x[f::X_DANGER], -1);
        assert_eq!(x[f::C_DANGER], 0);
        assert_eq!(x[f::CORNERS], 0);
    }
}
