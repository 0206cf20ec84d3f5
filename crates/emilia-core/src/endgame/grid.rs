//! Every board size the search takes on the generic bit sets of [`Geometry`] (6x6, 10x10,
//! 12x12; 8x8 has its bitboard [`super::eight::Eight`]) as a [`Shape`]: stable discs found
//! by growing them from the edges, region parity by quadrant, the last two empties written
//! out, and moves ordered by the classic evaluation. Nothing here is tuned to one size but
//! the measured error of that evaluation, which the selective pass needs.

use std::marker::PhantomData;
use std::sync::OnceLock;

use super::eight::STABILITY_MARGIN;
use super::order::WIPEOUT;
use super::search::{play, MoveList, OrderPlan, ProbCut, Search, Selectivity, Shape, NONE};
use crate::board::bitset::BitSet;
use crate::board::geometry::{self, Geometry, Layout, MAX_BITS};
use crate::board::{Board, GridBoard};
use crate::eval::{Classic, Evaluator};

/// A board of the geometry `G`.
pub(super) struct Grid<G>(PhantomData<G>);

/// Ordering weights: one (corner-weighted) reply of the opponent, one square of its
/// potential mobility, a corner move, a move into an odd region.
const MOBILITY_WEIGHT: i32 = 1024;
const POTENTIAL_WEIGHT: i32 = 128;
const CORNER_BONUS: i32 = 512;
const PARITY_BONUS: i32 = 64;

/// Shallow ordering searches on the classic evaluation, dearer than 8x8's heuristic and on
/// boards with more moves a node: from 14 empties, one ply deeper every 4 more, up to 3;
/// its hundredths of a disc weigh 4 against the fastest-first score.
const CLASSIC_ORDER: OrderPlan = OrderPlan {
    min_empties: 14,
    step: 4,
    max_depth: 3,
    weight: 4,
    fail_low_margin: None,
};

/// Standard deviation of the exact score around a shallow search of 1 to 4 plies on the
/// classic evaluation, in hundredths of a disc, on a board `size` squares wide: measured on
/// 80 positions of 13 to 20 empties (6x6: 12 to 20) from `emilia selfplay` games of each
/// size.
const fn probcut_sigma(size: usize, depth: u32) -> i32 {
    let by_depth: [i32; 4] = match size {
        6 => [814, 747, 618, 614],
        10 => [1454, 1392, 1256, 1240],
        _ => [2152, 2032, 1848, 1678],
    };
    by_depth[if depth > 4 { 3 } else { depth as usize - 1 }]
}

/// The classic evaluation the ordering searches use, made once.
pub(super) fn classic() -> &'static Classic {
    static CLASSIC: OnceLock<Classic> = OnceLock::new();
    crate::setup::once(&CLASSIC, Classic::default)
}

/// The board's quadrants, for region parity: each bit's quadrant bit (1, 2, 4, 8), and per
/// 4-bit parity value the squares of the quadrants it names.
struct Regions {
    quadrant_bit: [u8; MAX_BITS],
    odd: [[u64; 3]; 16],
}

const fn regions(layout: Layout) -> Regions {
    let n = layout.size;
    let mut regions = Regions {
        quadrant_bit: [0; MAX_BITS],
        odd: [[0; 3]; 16],
    };
    let mut row = 0;
    while row < n {
        let mut col = 0;
        while col < n {
            let bit = layout.bit(row, col);
            let quadrant = (row >= n / 2) as usize * 2 + (col >= n / 2) as usize;
            regions.quadrant_bit[bit] = 1 << quadrant;
            let mut parity = 0;
            while parity < 16 {
                if parity & (1 << quadrant) != 0 {
                    regions.odd[parity][bit / 64] |= 1 << (bit % 64);
                }
                parity += 1;
            }
            col += 1;
        }
        row += 1;
    }
    regions
}

/// The region tables of `G`.
#[inline(always)]
fn regions_of<G: Geometry>() -> &'static Regions {
    const { &regions(Layout::of::<G>()) }
}

/// The parity value of the empty squares `empty`: bit `q` set when quadrant `q` holds an
/// odd number of them.
fn parity_of<G: Geometry>(empty: G::Bits) -> u8 {
    let odd = &regions_of::<G>().odd;
    (0..4).fold(0, |parity, q| {
        let mask = G::Bits::from_words(odd[1 << q]);
        parity | ((empty & mask).count() as u8 & 1) << q
    })
}

/// The four corners of `G`'s board.
#[inline(always)]
fn corners<G: Geometry>() -> G::Bits {
    G::Bits::from_words(
        const {
            let layout = Layout::of::<G>();
            let last = G::SIZE - 1;
            let mut words = [0u64; 3];
            let corners = [(0, 0), (0, last), (last, 0), (last, last)];
            let mut k = 0;
            while k < 4 {
                let bit = layout.bit(corners[k].0, corners[k].1);
                words[bit / 64] |= 1 << (bit % 64);
                k += 1;
            }
            words
        },
    )
}

/// Every line of the board (rows, columns, diagonals and anti-diagonals) as words, for
/// finding the full ones; lines of one square are left out (they are full with their disc).
struct Lines {
    /// Per axis (row, column, diagonal, anti-diagonal): its lines, then how many there are.
    masks: [[[u64; 3]; 23]; 4],
    counts: [usize; 4],
    /// Per axis, the squares with a neighbour off the board along it.
    edge: [[u64; 3]; 4],
}

/// Whether (`col`, `row`) lies on a board of side `n`.
const fn inside(col: i32, row: i32, n: i32) -> bool {
    col >= 0 && col < n && row >= 0 && row < n
}

const fn lines(layout: Layout) -> Lines {
    let n = layout.size as i32;
    let mut lines = Lines {
        masks: [[[0; 3]; 23]; 4],
        counts: [0; 4],
        edge: [[0; 3]; 4],
    };
    let steps = [(1i32, 0i32), (0, 1), (1, 1), (-1, 1)];
    let mut axis = 0;
    while axis < 4 {
        let (dc, dr) = steps[axis];
        let mut row = 0;
        while row < n {
            let mut col = 0;
            while col < n {
                let bit = layout.bit(row as usize, col as usize);
                let (before_c, before_r) = (col - dc, row - dr);
                let (after_c, after_r) = (col + dc, row + dr);
                if !inside(before_c, before_r, n) || !inside(after_c, after_r, n) {
                    lines.edge[axis][bit / 64] |= 1 << (bit % 64);
                }
                // A line starts where the square before it is off the board.
                if !inside(before_c, before_r, n) && inside(after_c, after_r, n) {
                    let k = lines.counts[axis];
                    let (mut c, mut r) = (col, row);
                    while inside(c, r, n) {
                        let b = layout.bit(r as usize, c as usize);
                        lines.masks[axis][k][b / 64] |= 1 << (b % 64);
                        c += dc;
                        r += dr;
                    }
                    lines.counts[axis] = k + 1;
                }
                col += 1;
            }
            row += 1;
        }
        axis += 1;
    }
    lines
}

/// Discs of `player` that can never be flipped: along each of the four axes the line is
/// full, or a neighbour on it is off the board or a stable disc of the player (so no
/// opponent's disc can ever stand on both sides). Found by growing the stable set from the
/// edges until it stops.
fn stable_discs<G: Geometry>(player: G::Bits, opponent: G::Bits) -> G::Bits {
    let lines: &Lines = const { &lines(Layout::of::<G>()) };
    let filled = player | opponent;
    let mut protected = [G::Bits::EMPTY; 4];
    for (axis, sure) in protected.iter_mut().enumerate() {
        *sure = G::Bits::from_words(lines.edge[axis]);
        for mask in &lines.masks[axis][..lines.counts[axis]] {
            let mask = G::Bits::from_words(*mask);
            *sure |= mask.keep_if(filled & mask == mask);
        }
    }
    let stride = G::STRIDE as u32;
    let not_first = G::Bits::from_words(const { Layout::of::<G>().columns(1, G::SIZE - 1) });
    let not_last = G::Bits::from_words(const { Layout::of::<G>().columns(0, G::SIZE - 2) });
    let mut stable = G::Bits::EMPTY;
    loop {
        // Squares with a stable neighbour along each axis (either side).
        let along = [
            (stable.shl(1) & not_first) | (stable.shr(1) & not_last),
            stable.shl(stride) | stable.shr(stride),
            (stable.shl(stride + 1) & not_first) | (stable.shr(stride + 1) & not_last),
            (stable.shl(stride - 1) & not_last) | (stable.shr(stride - 1) & not_first),
        ];
        let grown = player
            & (protected[0] | along[0])
            & (protected[1] | along[1])
            & (protected[2] | along[2])
            & (protected[3] | along[3]);
        if grown == stable {
            return stable;
        }
        stable = grown;
    }
}

/// The final score of a finished game for the side to move: disc difference, empty squares
/// to the winner.
#[inline(always)]
fn final_score<G: Geometry>(player: G::Bits, opponent: G::Bits) -> i32 {
    let (p, o) = (player.count() as i32, opponent.count() as i32);
    let empties = (G::SIZE * G::SIZE) as i32 - p - o;
    match p.cmp(&o) {
        std::cmp::Ordering::Greater => p - o + empties,
        std::cmp::Ordering::Less => p - o - empties,
        std::cmp::Ordering::Equal => 0,
    }
}

/// Replies of the side to move, a corner counting twice.
#[inline(always)]
fn corner_weighted<G: Geometry>(moves: G::Bits) -> i32 {
    (moves.count() + (moves & corners::<G>()).count()) as i32
}

impl<G: Geometry> Search<'_, Grid<G>> {
    /// One empty square, `bit`: the final score (the last move scored from its flips).
    #[inline(always)]
    fn solve_1(&mut self, player: G::Bits, opponent: G::Bits, alpha: i32, bit: usize) -> i32 {
        self.thread.nodes += 1;
        // The disc difference with the square still empty.
        let difference = player.count() as i32 - opponent.count() as i32;
        let flipped = G::flips(player, opponent, bit).count() as i32;
        if flipped > 0 {
            return difference + 1 + 2 * flipped;
        }
        // The player cannot move: the best left is winning the empty square.
        if difference < alpha {
            return difference + 1;
        }
        let flipped = G::flips(opponent, player, bit).count() as i32;
        if flipped > 0 {
            difference - 1 - 2 * flipped
        } else {
            final_score::<G>(player, opponent)
        }
    }

    /// Two empty squares.
    fn solve_2(&mut self, player: G::Bits, opponent: G::Bits, alpha: i32, bits: [usize; 2]) -> i32 {
        self.thread.nodes += 1;
        let [x1, x2] = bits;
        let mut best = NONE;
        let f = G::flips(player, opponent, x1);
        if !f.is_empty() {
            let (p, o) = play(player, opponent, x1, f);
            best = -self.solve_1(p, o, -alpha - 1, x2);
            if best > alpha {
                return best;
            }
        }
        let f = G::flips(player, opponent, x2);
        if !f.is_empty() {
            let (p, o) = play(player, opponent, x2, f);
            return best.max(-self.solve_1(p, o, -alpha - 1, x1));
        }
        if best != NONE {
            return best;
        }
        // Pass: the opponent moves, and our score is the least of its replies.
        let mut worst = -NONE;
        let f = G::flips(opponent, player, x1);
        if !f.is_empty() {
            // Back to the player, with the opponent's move made.
            let (p, o) = play(opponent, player, x1, f);
            worst = self.solve_1(p, o, alpha, x2);
            if worst <= alpha {
                return worst;
            }
        }
        let f = G::flips(opponent, player, x2);
        if !f.is_empty() {
            let (p, o) = play(opponent, player, x2, f);
            return worst.min(self.solve_1(p, o, alpha, x1));
        }
        if worst != -NONE {
            return worst;
        }
        final_score::<G>(player, opponent)
    }
}

impl<G: Geometry> Shape for Grid<G> {
    type Bits = G::Bits;
    /// A list for every move a 12x12 board can have.
    type Moves = MoveList<G::Bits, 144>;
    type OrderEval = &'static Classic;
    /// The classic evaluation looks at the child alone.
    type Parent = ();

    const SQUARES: i32 = (G::SIZE * G::SIZE) as i32;
    /// One above 8x8's: sorting children by the classic evaluation's mobility costs more
    /// here than the nodes it saves at 5 empties.
    const SORTED_MIN_EMPTIES: u32 = 6;
    /// As on 8x8.
    const TABLE_MIN_EMPTIES: u32 = 8;
    /// As on 8x8.
    const ETC_MIN_EMPTIES: u32 = 9;
    /// The last two empties written out; above, the generic parity-ordered nodes.
    const LAST_MAX_EMPTIES: u32 = 2;
    /// No stability test at 3 to 5 empties (8x8's is cheap there by its thresholds).
    const SHALLOW_STABILITY: bool = false;
    /// Without a square table, potential mobility is what tells moves of equal mobility
    /// apart.
    const SORTED_POTENTIAL: bool = true;
    /// The classic evaluation is too dear to sort the shallow searches' moves by.
    const SORT_SHALLOW: bool = false;
    /// Two plies less than 8x8's: the classic evaluation is dearer and the boards wider.
    const ESTIMATE_DEPTH: u32 = 6;
    /// The classic evaluation's hundredths of a disc.
    const ORDER_UNITS_PER_DISC: i32 = 100;
    /// One pass, cutting at one standard deviation on 6x6 and half of one on the larger
    /// boards, where the classic evaluation errs by twice as much (as the midgame's
    /// `probcut auto`).
    const SELECTIVE_PASSES: &'static [Selectivity] = if G::SIZE <= 8 {
        &[Selectivity(10)]
    } else {
        &[Selectivity(5)]
    };
    /// As on 8x8 (on 12x12 a pass at 20 empties cost more than it saved).
    const SELECTIVE_MIN_EMPTIES: u32 = 21;

    /// At every table node, a search of 2 plies, one ply deeper every 3 empties more up to 4.
    fn probcut(empties: u32) -> Option<ProbCut> {
        let depth = (2 + empties.checked_sub(Self::TABLE_MIN_EMPTIES)? / 3).min(4);
        Some(ProbCut {
            depth,
            sigma: probcut_sigma(G::SIZE, depth),
        })
    }

    fn order_eval() -> &'static Classic {
        classic()
    }

    #[inline(always)]
    fn order_plan(_: &'static Classic) -> OrderPlan {
        CLASSIC_ORDER
    }

    #[inline(always)]
    fn order_value(eval: &'static Classic, player: G::Bits, opponent: G::Bits) -> i32 {
        eval.evaluate(&GridBoard::<G>::new(player, opponent))
    }

    #[inline(always)]
    fn parent(_: &'static Classic, _: G::Bits, _: G::Bits) {}

    #[inline(always)]
    fn child_value(
        eval: &'static Classic,
        _: &(),
        _: usize,
        _: G::Bits,
        player: G::Bits,
        opponent: G::Bits,
    ) -> i32 {
        Self::order_value(eval, player, opponent)
    }

    #[inline(always)]
    fn empty(player: G::Bits, opponent: G::Bits) -> G::Bits {
        geometry::board::<G>() & !(player | opponent)
    }

    #[inline(always)]
    fn legal_moves(player: G::Bits, opponent: G::Bits) -> G::Bits {
        G::legal_moves(player, opponent)
    }

    #[inline(always)]
    fn flips(player: G::Bits, opponent: G::Bits, square: usize) -> G::Bits {
        G::flips(player, opponent, square)
    }

    #[inline(always)]
    fn key(player: G::Bits, opponent: G::Bits) -> u64 {
        GridBoard::<G>::new(player, opponent).hash_key()
    }

    #[inline(always)]
    fn final_score(player: G::Bits, opponent: G::Bits) -> i32 {
        final_score::<G>(player, opponent)
    }

    #[inline(always)]
    fn stable_count(player: G::Bits, opponent: G::Bits, _enough: u32) -> u32 {
        stable_discs::<G>(player, opponent).count()
    }

    /// As on 8x8: below `2n - STABILITY_MARGIN` stable discs almost never cut off here either.
    #[inline(always)]
    fn stability_threshold(empties: u32) -> i32 {
        (2 * empties as i32 - STABILITY_MARGIN).min(Self::SQUARES)
    }

    #[inline(always)]
    fn square_index(bit: usize) -> usize {
        G::index(bit)
    }

    #[inline(always)]
    fn quadrant_bit(square: usize) -> u8 {
        regions_of::<G>().quadrant_bit[square]
    }

    #[inline(always)]
    fn odd_squares(parity: u8) -> G::Bits {
        G::Bits::from_words(regions_of::<G>().odd[parity as usize & 15])
    }

    #[inline(always)]
    fn parity_of(empty: G::Bits) -> u8 {
        parity_of::<G>(empty)
    }

    /// The opponent's replies (a corner counting twice), its potential mobility, and bonuses
    /// for a corner and for a move into an odd region.
    #[inline(always)]
    fn fastest_first(
        player: G::Bits,
        opponent: G::Bits,
        replies: G::Bits,
        square: usize,
        parity: u8,
        potential: bool,
    ) -> i32 {
        if player.is_empty() {
            return WIPEOUT;
        }
        let mut score = -corner_weighted::<G>(replies) * MOBILITY_WEIGHT;
        if potential {
            let empty = Self::empty(player, opponent);
            let potential = (geometry::neighbours::<G>(opponent) & empty).count() as i32;
            score -= potential * POTENTIAL_WEIGHT;
        }
        if corners::<G>().contains(square) {
            score += CORNER_BONUS;
        }
        if parity & regions_of::<G>().quadrant_bit[square] != 0 {
            score += PARITY_BONUS;
        }
        score
    }

    #[inline(always)]
    fn solve_last(
        search: &mut Search<'_, Grid<G>>,
        player: G::Bits,
        opponent: G::Bits,
        alpha: i32,
        empties: u32,
        _: u8,
    ) -> i32 {
        let empty = Self::empty(player, opponent);
        if empties == 1 {
            search.solve_1(player, opponent, alpha, empty.lowest())
        } else {
            let second = empty.without_lowest().lowest();
            search.solve_2(player, opponent, alpha, [empty.lowest(), second])
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::{AnyBoard, Board10, Six, Ten};
    use crate::endgame::search::tests::assert_careless_pass_proves;
    use crate::endgame::{SolveLimits, Solver};
    use crate::rng::Rng;

    /// Plain negamax to the end of the game: the definition of the exact score.
    fn minimax<B: Board>(board: &B) -> i32 {
        let moves: Vec<usize> = board.moves().collect();
        if moves.is_empty() {
            let passed = board.pass();
            if !passed.has_moves() {
                return board.final_score();
            }
            return -minimax(&passed);
        }
        moves
            .iter()
            .map(|&m| -minimax(&board.play(m)))
            .max()
            .unwrap()
    }

    /// A random position `empties` empty squares from the end of a random game.
    fn random_position<G: Geometry>(rng: &mut Rng, empties: u32) -> Option<GridBoard<G>> {
        let mut board = GridBoard::<G>::start(G::SIZE);
        while board.empties() > empties {
            let moves: Vec<usize> = board.moves().collect();
            if moves.is_empty() {
                if board.is_game_over() {
                    return None;
                }
                board = board.pass();
                continue;
            }
            board = board.play(moves[(rng.next_u64() % moves.len() as u64) as usize]);
        }
        Some(board)
    }

    /// [`random_position`] of the first random game that lasts until `empties`.
    fn lasting_position<G: Geometry>(rng: &mut Rng, empties: u32) -> GridBoard<G> {
        loop {
            if let Some(board) = random_position(rng, empties) {
                return board;
            }
        }
    }

    #[test]
    fn exact_scores_equal_plain_minimax_on_small_endgames() {
        let mut rng = Rng::new(31);
        let mut solver = Solver::new(1);
        for checked in 0..120 {
            let board = lasting_position::<Six>(&mut rng, 4 + checked % 7);
            let expected = minimax(&board);
            solver.clear();
            let solution = solver.solve(&AnyBoard::Six(board), -1000, 1000);
            assert_eq!(solution.score, expected, "{board:?}");
            // The best move achieves the score.
            match solution.best.index(6) {
                Some(m) => assert_eq!(-minimax(&board.play(m)), expected),
                None => assert!(!board.has_moves()),
            }
            // Windows: a bound on the right side outside, the score inside.
            let below = solver.solve(&AnyBoard::Six(board), expected + 1, expected + 3);
            assert!(below.score <= expected + 1);
            let above = solver.solve(&AnyBoard::Six(board), expected - 3, expected - 1);
            assert!(above.score >= expected - 1);
        }
    }

    /// A selective pass leaves the exact searches after it exact: on random 10x10
    /// positions, a careless pass, then the score of a solve without a pass.
    #[test]
    fn a_selective_pass_on_10x10_leaves_the_exact_scores() {
        let mut rng = Rng::new(41);
        let mut solver = Solver::new(1);
        for _ in 0..4 {
            let board = lasting_position::<Ten>(&mut rng, 14);
            // Below `SELECTIVE_MIN_EMPTIES`: no pass.
            solver.clear();
            let score = solver.solve(&AnyBoard::Ten(board), -101, 101).score;
            assert_careless_pass_proves::<Grid<Ten>>(board.player, board.opponent, 14, score);
        }
    }

    /// Stable discs by their definition: no sequence of moves flips them. Checked here
    /// one move deep: a stable disc is never flipped by any move of either side.
    #[test]
    fn stable_discs_are_never_flipped() {
        let mut rng = Rng::new(33);
        for _ in 0..300 {
            let empties = (rng.next_u64() % 30) as u32;
            let Some(board) = random_position::<Six>(&mut rng, empties) else {
                continue;
            };
            for side in [board, board.pass()] {
                let stable = stable_discs::<Six>(side.player, side.opponent);
                let theirs = side.pass();
                for m in theirs.moves() {
                    let flipped = theirs.flips(Six::bit(m));
                    assert!((flipped & stable).is_empty(), "{side:?} {m}");
                }
                // Corners held are always stable.
                assert_eq!(stable & corners::<Six>(), side.player & corners::<Six>());
            }
        }
    }

    /// Nodes from 16 empties share their moves out: every thread count gives the score of
    /// one thread, a best move that achieves it, and stops cleanly at a node limit.
    #[test]
    fn threads_give_the_scores_of_one() {
        let mut rng = Rng::new(34);
        let (mut one, mut many) = (Solver::new(4), Solver::new(4));
        for checked in 0..6 {
            let board = lasting_position::<Six>(&mut rng, 18 + checked % 3);
            one.clear();
            let expected = one.solve(&AnyBoard::Six(board), -1000, 1000).score;
            for threads in [2, 3, 4] {
                many.set_threads(threads);
                many.clear();
                let solution = many.solve(&AnyBoard::Six(board), -1000, 1000);
                assert_eq!(solution.score, expected, "{threads} threads: {board:?}");
                if let Some(m) = solution.best.index(6) {
                    one.clear();
                    assert_eq!(
                        -one.solve(&AnyBoard::Six(board.play(m)), -1000, 1000).score,
                        expected
                    );
                }
                let limits = SolveLimits {
                    max_nodes: Some(2_000),
                    ..SolveLimits::NONE
                };
                many.clear();
                let squares = 36;
                if let Some(cut) =
                    many.solve_within(&AnyBoard::Six(board), -squares, squares, &limits)
                {
                    assert_eq!(cut.score, expected);
                }
            }
        }
    }

    #[test]
    fn ten_by_ten_endgames_solve_to_the_minimax_score() {
        let mut rng = Rng::new(32);
        let mut solver = Solver::new(1);
        for _ in 0..20 {
            let board: Board10 = lasting_position(&mut rng, 7);
            assert_eq!(
                solver.solve(&AnyBoard::Ten(board), -1000, 1000).score,
                minimax(&board)
            );
        }
    }
}
