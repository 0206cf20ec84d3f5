//! Exact solving on the other board sizes (6x6, 10x10, 12x12), written once over the
//! board's [`Geometry`]: the same negascout over exact final scores as the 8x8 solver, with
//! the ideas that matter most and nothing tuned to one size:
//!
//! - 9 empties and more: the transposition table (shared with the 8x8 solver's kind:
//!   bounds, best move, cost), moves fastest first (the opponent's replies, a corner
//!   counting twice, then its potential mobility), the table's move before them; from 10,
//!   enhanced transposition cut-off; from [`SEARCH_ORDER_MIN_EMPTIES`], moves ordered by a
//!   shallow search on the classic evaluation as well;
//! - 6 to 8: fastest first, no table;
//! - 3 to 5: empty squares in region-parity order (odd quadrants first), no move list;
//! - 2 and 1: written out, the last move scored from its flips alone.
//!
//! [`SizedSolver::solve_within`] narrows the window around an estimate as
//! [`super::Solver::solve_within`] does, and with more than one thread nodes from 16 empties
//! share their moves out among idle threads by the same young-brothers split.

use super::split::{Node, Shared, SolveThread, SplitSearch};
use super::table::{Tables, NO_MOVE};
use super::{narrow_window, Solution, SolveLimits};
use crate::board::bitset::BitSet;
use crate::board::geometry::{self, Geometry, Layout, MAX_BITS};
use crate::board::{Board, SizedBoard};
use crate::eval::{Classic, Evaluator};

/// Below every score: "no move searched yet".
const NONE: i32 = -1000;
/// Null-window nodes with this many empties or more sort their moves.
const SORTED_MIN_EMPTIES: u32 = 6;
/// Null-window nodes with this many empties or more use the transposition table.
const TABLE_MIN_EMPTIES: u32 = 9;
/// Nodes with this many empties or more look up their children in the table first.
const ETC_MIN_EMPTIES: u32 = 10;
/// Nodes with this many empties or more order their moves by a shallow search on the
/// classic evaluation, one ply deeper every [`SEARCH_ORDER_STEP`] empties more up to
/// [`SEARCH_ORDER_MAX_DEPTH`].
pub const SEARCH_ORDER_MIN_EMPTIES: u32 = 14;
const SEARCH_ORDER_STEP: u32 = 4;
const SEARCH_ORDER_MAX_DEPTH: u32 = 3;
/// Weight of the shallow search's value (hundredths of a disc) against the fastest-first
/// score.
const SEARCH_ORDER_WEIGHT: i32 = 4;
/// Depth of the shallow search that estimates the score before the first null window.
const ESTIMATE_DEPTH: u32 = 6;

/// Ordering weights: one (corner-weighted) reply of the opponent, one square of its
/// potential mobility, a corner move, a move into an odd region.
const MOBILITY_WEIGHT: i32 = 1024;
const POTENTIAL_WEIGHT: i32 = 128;
const CORNER_BONUS: i32 = 512;
const PARITY_BONUS: i32 = 64;
/// Ordering score of a move that wipes the opponent out: before everything else.
const WIPEOUT: i32 = 1 << 28;

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

/// The position after `player` moves on `bit` flipping `flipped`: (player, opponent) of the
/// side then to move.
#[inline(always)]
fn play<B: BitSet>(player: B, opponent: B, bit: usize, flipped: B) -> (B, B) {
    (opponent ^ flipped, player ^ flipped ^ B::bit(bit))
}

/// Replies of the side to move, a corner counting twice.
#[inline(always)]
fn corner_weighted<G: Geometry>(moves: G::Bits) -> i32 {
    (moves.count() + (moves & corners::<G>()).count()) as i32
}

/// One legal move with its flips and ordering score.
#[derive(Clone, Copy)]
struct Candidate<B> {
    flips: B,
    bit: u8,
    score: i32,
}

/// An exact endgame solver for 6x6, 10x10 and 12x12 boards, with its own transposition
/// table (one solver serves every size: positions of different sizes never share a hash).
pub struct SizedSolver {
    table: Tables,
    eval: Classic,
    threads: usize,
}

impl Default for SizedSolver {
    /// A solver with a [`super::DEFAULT_TABLE_MIB`] table.
    fn default() -> SizedSolver {
        SizedSolver::new(super::DEFAULT_TABLE_MIB)
    }
}

impl SizedSolver {
    /// A solver whose transposition table takes about `mib` mebibytes (see
    /// [`super::Solver::new`]).
    pub fn new(mib: usize) -> SizedSolver {
        SizedSolver {
            table: Tables::new(mib).expect("memory for the solver's tables"),
            eval: Classic::default(),
            threads: 1,
        }
    }

    /// Solves on `threads` threads (at least one): nodes with many empties share their
    /// moves out among idle threads, as the 8x8 solver's do.
    pub fn set_threads(&mut self, threads: usize) {
        self.threads = threads.max(1);
    }

    /// Forgets everything the table learnt, so that the next solve is as from scratch.
    pub fn clear(&mut self) {
        self.table.clear();
    }

    /// The exact score and a best move (a row-major square index).
    pub fn solve_exact<G: Geometry>(&mut self, board: &SizedBoard<G>) -> Solution {
        let squares = (G::SIZE * G::SIZE) as i32;
        self.solve_within(board, -squares - 1, squares + 1, &SolveLimits::NONE)
            .expect("a solve without limits runs to the end")
    }

    /// Solves `board` within the window `alpha..beta`, as [`super::Solver::solve_within`]
    /// does on 8x8: exact inside, a fail-soft bound outside, `None` when a limit is reached.
    /// The best move is a row-major square index.
    ///
    /// # Panics
    ///
    /// If `alpha >= beta`.
    pub fn solve_within<G: Geometry>(
        &mut self,
        board: &SizedBoard<G>,
        alpha: i32,
        beta: i32,
        limits: &SolveLimits,
    ) -> Option<Solution> {
        let squares = (G::SIZE * G::SIZE) as i32;
        let (alpha, beta) = (
            alpha.clamp(-squares - 1, squares),
            beta.clamp(-squares, squares + 1),
        );
        assert!(alpha < beta, "empty window {alpha}..{beta}");
        self.table.next_generation();
        if beta - alpha <= 2 {
            let (score, best, nodes) = self.root(board, alpha, beta, limits, 0)?;
            return Some(Solution { score, best, nodes });
        }
        let (estimate, nodes) = {
            let shared = Shared::new(&self.table, limits, 1, 0);
            let mut search = Search::<G>::new(&shared, &self.eval, 0);
            let estimate = search.estimate(board.player, board.opponent);
            if search.thread.aborted {
                return None;
            }
            (estimate, search.thread.nodes)
        };
        log::debug!("solve: estimate {estimate} after {nodes} nodes");
        narrow_window(
            alpha,
            beta,
            squares,
            estimate,
            nodes,
            |alpha, beta, nodes| self.root(board, alpha, beta, limits, nodes),
        )
    }

    /// One principal variation search of the root with the window `alpha..beta`, after
    /// `nodes` nodes of earlier searches: score, best move (a square index) and the node
    /// count since the first search, or `None` when a limit stopped it.
    fn root<G: Geometry>(
        &mut self,
        board: &SizedBoard<G>,
        alpha: i32,
        beta: i32,
        limits: &SolveLimits,
        nodes: u64,
    ) -> Option<(i32, Option<usize>, u64)> {
        let shared = Shared::new(&self.table, limits, self.threads, nodes);
        let mut search = Search::<G>::new(&shared, &self.eval, nodes);
        let empty = board.empty_mask();
        let (score, best) = search.pvs(
            board.player,
            board.opponent,
            alpha,
            beta,
            empty.count(),
            parity_of::<G>(empty),
        );
        if search.thread.aborted {
            return None;
        }
        let best = (best != NO_MOVE).then(|| G::index(best as usize));
        Some((score, best, search.thread.nodes))
    }
}

/// The state of one thread of a solve: node count, limits, and reusable move lists.
struct Search<'a, G: Geometry> {
    /// Node count, limits and cut-off flags.
    thread: SolveThread<'a>,
    eval: &'a Classic,
    /// Move lists, one per number of empties, reused from node to node.
    lists: Vec<Vec<Candidate<G::Bits>>>,
}

impl<'a, G: Geometry> Search<'a, G> {
    /// The first thread of a solve sharing `shared`, counting on from `nodes` nodes.
    fn new(shared: &'a Shared<'a>, eval: &'a Classic, nodes: u64) -> Search<'a, G> {
        Search {
            thread: SolveThread::new(shared, nodes),
            eval,
            lists: vec![Vec::new(); G::SIZE * G::SIZE + 1],
        }
    }

    /// The solve's transposition tables.
    #[inline(always)]
    fn table(&self) -> &'a Tables {
        self.thread.shared.tables
    }

    /// Checks the limits now and then; true when the search must stop.
    #[inline(always)]
    fn should_stop(&mut self) -> bool {
        self.thread.should_stop()
    }

    /// The hash of a position, as [`Board::hash_key`] gives it.
    #[inline(always)]
    fn key(player: G::Bits, opponent: G::Bits) -> u64 {
        SizedBoard::<G>::new(player, opponent).hash_key()
    }

    /// The stability cut-off: an upper bound on the score from the opponent's stable discs,
    /// when it is at most `alpha`.
    #[inline(always)]
    fn stability_cutoff(&self, player: G::Bits, opponent: G::Bits, alpha: i32) -> Option<i32> {
        let squares = (G::SIZE * G::SIZE) as i32;
        // Even all the opponent's discs stable would not bring the bound down to `alpha`.
        if squares - 2 * (opponent.count() as i32) > alpha {
            return None;
        }
        let bound = squares - 2 * stable_discs::<G>(opponent, player).count() as i32;
        (bound <= alpha).then_some(bound)
    }

    /// Null-window search of any node: is the score above `alpha`? Fail-soft.
    fn nws(
        &mut self,
        player: G::Bits,
        opponent: G::Bits,
        alpha: i32,
        empties: u32,
        parity: u8,
    ) -> i32 {
        match empties {
            0 => {
                self.thread.nodes += 1;
                final_score::<G>(player, opponent)
            }
            1 => {
                let empty = geometry::board::<G>() & !(player | opponent);
                self.solve_1(player, opponent, alpha, empty.lowest())
            }
            2 => {
                let empty = geometry::board::<G>() & !(player | opponent);
                let first = empty.lowest();
                self.solve_2(
                    player,
                    opponent,
                    alpha,
                    [first, empty.without_lowest().lowest()],
                )
            }
            n if n < SORTED_MIN_EMPTIES => self.nws_shallow(player, opponent, alpha, n, parity),
            n if n < TABLE_MIN_EMPTIES => self.nws_sorted(player, opponent, alpha, n, parity),
            n => self.nws_table(player, opponent, alpha, n, parity),
        }
    }

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

    /// Null-window search with few empties: squares in odd regions first, no move list.
    fn nws_shallow(
        &mut self,
        player: G::Bits,
        opponent: G::Bits,
        alpha: i32,
        empties: u32,
        parity: u8,
    ) -> i32 {
        self.thread.nodes += 1;
        // The smallest nodes that look at the limits: see `MOST_NODES_PAST_LIMIT`.
        if self.should_stop() {
            return 0;
        }
        let regions = regions_of::<G>();
        let empty = geometry::board::<G>() & !(player | opponent);
        let odd = empty & G::Bits::from_words(regions.odd[parity as usize & 15]);
        let mut best = NONE;
        for set in [odd, empty & !odd] {
            for x in set.iter() {
                let f = G::flips(player, opponent, x);
                if f.is_empty() {
                    continue;
                }
                let (p, o) = play(player, opponent, x, f);
                let parity = parity ^ regions.quadrant_bit[x];
                let score = -self.nws(p, o, -alpha - 1, empties - 1, parity);
                if score > alpha {
                    return score;
                }
                best = best.max(score);
            }
        }
        if best == NONE {
            if G::legal_moves(opponent, player).is_empty() {
                return final_score::<G>(player, opponent);
            }
            return -self.nws_shallow(opponent, player, -alpha - 1, empties, parity);
        }
        best
    }

    /// The legal moves of `player` with their flips, in the list kept for `empties`.
    fn generate(
        &mut self,
        player: G::Bits,
        opponent: G::Bits,
        moves: G::Bits,
        empties: u32,
    ) -> Vec<Candidate<G::Bits>> {
        let mut list = std::mem::take(&mut self.lists[empties as usize]);
        list.clear();
        list.extend(moves.iter().map(|x| Candidate {
            flips: G::flips(player, opponent, x),
            bit: x as u8,
            score: 0,
        }));
        list
    }

    /// The fastest-first score of the move `m` (higher: try earlier); `parity` is the region
    /// parity before it.
    #[inline(always)]
    fn fastest_first(
        &self,
        player: G::Bits,
        opponent: G::Bits,
        m: &Candidate<G::Bits>,
        parity: u8,
    ) -> i32 {
        let x = m.bit as usize;
        let (p, o) = play(player, opponent, x, m.flips);
        if p.is_empty() {
            return WIPEOUT;
        }
        let replies = G::legal_moves(p, o);
        let empty = geometry::board::<G>() & !(p | o);
        let potential = (geometry::neighbours::<G>(o) & empty).count() as i32;
        let mut score =
            -corner_weighted::<G>(replies) * MOBILITY_WEIGHT - potential * POTENTIAL_WEIGHT;
        if corners::<G>().contains(x) {
            score += CORNER_BONUS;
        }
        if parity & regions_of::<G>().quadrant_bit[x] != 0 {
            score += PARITY_BONUS;
        }
        score
    }

    /// Moves the best of the moves from `i` on to `i` and returns it.
    #[inline(always)]
    /// The moves of `list` from `i` on, best first (those before `i` were picked already).
    fn sorted_from(list: &mut [Candidate<G::Bits>], i: usize) -> &[Candidate<G::Bits>] {
        list[i..].sort_by_key(|m| std::cmp::Reverse(m.score));
        &list[i..]
    }

    fn pick(list: &mut [Candidate<G::Bits>], i: usize) -> Candidate<G::Bits> {
        let mut best = i;
        for j in i + 1..list.len() {
            if list[j].score > list[best].score {
                best = j;
            }
        }
        list.swap(i, best);
        list[i]
    }

    /// Null-window search with fastest-first ordering, no table.
    fn nws_sorted(
        &mut self,
        player: G::Bits,
        opponent: G::Bits,
        alpha: i32,
        empties: u32,
        parity: u8,
    ) -> i32 {
        self.thread.nodes += 1;
        if self.should_stop() {
            return 0;
        }
        if let Some(bound) = self.stability_cutoff(player, opponent, alpha) {
            return bound;
        }
        let moves = G::legal_moves(player, opponent);
        if moves.is_empty() {
            if G::legal_moves(opponent, player).is_empty() {
                return final_score::<G>(player, opponent);
            }
            return -self.nws_sorted(opponent, player, -alpha - 1, empties, parity);
        }
        let mut list = self.generate(player, opponent, moves, empties);
        for m in list.iter_mut() {
            m.score = self.fastest_first(player, opponent, m, parity);
        }
        let mut best = NONE;
        for i in 0..list.len() {
            let m = Self::pick(&mut list, i);
            let x = m.bit as usize;
            let (p, o) = play(player, opponent, x, m.flips);
            let parity = parity ^ regions_of::<G>().quadrant_bit[x];
            let score = -self.nws(p, o, -alpha - 1, empties - 1, parity);
            if score > alpha {
                best = score;
                break;
            }
            best = best.max(score);
        }
        self.lists[empties as usize] = list;
        best
    }

    /// Scores `list` for ordering at a node with `empties` empties: fastest first, and higher
    /// up a shallow search on the classic evaluation.
    fn score_moves(
        &mut self,
        list: &mut [Candidate<G::Bits>],
        player: G::Bits,
        opponent: G::Bits,
        empties: u32,
        parity: u8,
    ) {
        let depth = if empties >= SEARCH_ORDER_MIN_EMPTIES {
            (1 + (empties - SEARCH_ORDER_MIN_EMPTIES) / SEARCH_ORDER_STEP)
                .min(SEARCH_ORDER_MAX_DEPTH)
        } else {
            0
        };
        for m in list.iter_mut() {
            m.score = self.fastest_first(player, opponent, m, parity);
            if depth > 0 && m.score != WIPEOUT {
                let (p, o) = play(player, opponent, m.bit as usize, m.flips);
                let value = -self.shallow_value(p, o, depth - 1, -i32::MAX, i32::MAX);
                m.score += value * SEARCH_ORDER_WEIGHT;
            }
        }
    }

    /// Alpha-beta on the classic evaluation to `depth` plies (hundredths of a disc).
    fn shallow_value(
        &mut self,
        player: G::Bits,
        opponent: G::Bits,
        depth: u32,
        mut alpha: i32,
        beta: i32,
    ) -> i32 {
        self.thread.nodes += 1;
        if self.should_stop() {
            return 0;
        }
        if depth == 0 {
            let board = SizedBoard::<G>::new(player, opponent);
            return self.eval.evaluate(&board);
        }
        let moves = G::legal_moves(player, opponent);
        if moves.is_empty() {
            if G::legal_moves(opponent, player).is_empty() {
                // A finished game outweighs any heuristic value.
                return final_score::<G>(player, opponent) * 1000;
            }
            return -self.shallow_value(opponent, player, depth, -beta, -alpha);
        }
        let mut best = -i32::MAX;
        for x in moves.iter() {
            let (p, o) = play(player, opponent, x, G::flips(player, opponent, x));
            let value = -self.shallow_value(p, o, depth - 1, -beta, -alpha);
            if value > best {
                best = value;
                if value > alpha {
                    alpha = value;
                    if alpha >= beta {
                        break;
                    }
                }
            }
        }
        best
    }

    /// A guess at the exact score to start the root's null-window searches near it: a
    /// shallow search on the classic evaluation, in discs, rounded to an even number.
    fn estimate(&mut self, player: G::Bits, opponent: G::Bits) -> i32 {
        let squares = (G::SIZE * G::SIZE) as i32;
        let value = self.shallow_value(player, opponent, ESTIMATE_DEPTH, -i32::MAX, i32::MAX);
        ((value as f64 / 200.0).round() as i32 * 2).clamp(-squares, squares)
    }

    /// Null-window search with the transposition table.
    fn nws_table(
        &mut self,
        player: G::Bits,
        opponent: G::Bits,
        alpha: i32,
        empties: u32,
        parity: u8,
    ) -> i32 {
        self.thread.nodes += 1;
        if self.should_stop() {
            return 0;
        }
        if let Some(bound) = self.stability_cutoff(player, opponent, alpha) {
            return bound;
        }
        let squares = (G::SIZE * G::SIZE) as i32;
        let key = Self::key(player, opponent);
        let mut table_move = NO_MOVE;
        if let Some(hit) = self.table().get(empties).probe(key) {
            if hit.lower > alpha {
                return hit.lower;
            }
            if hit.upper <= alpha {
                return hit.upper;
            }
            table_move = hit.best;
        }
        let moves = G::legal_moves(player, opponent);
        if moves.is_empty() {
            if G::legal_moves(opponent, player).is_empty() {
                return final_score::<G>(player, opponent);
            }
            return -self.nws_table(opponent, player, -alpha - 1, empties, parity);
        }
        let start = self.thread.nodes;
        let mut list = self.generate(player, opponent, moves, empties);
        if empties > TABLE_MIN_EMPTIES {
            // The children use the table: fetch their entries first, so that the memory
            // accesses overlap; then look for a child that proves the cut-off already.
            for m in &list {
                let (p, o) = play(player, opponent, m.bit as usize, m.flips);
                self.table().get(empties - 1).prefetch(Self::key(p, o));
            }
            if empties >= ETC_MIN_EMPTIES {
                for m in &list {
                    let (p, o) = play(player, opponent, m.bit as usize, m.flips);
                    if let Some(hit) = self.table().get(empties - 1).probe(Self::key(p, o)) {
                        if -hit.upper > alpha {
                            let score = -hit.upper;
                            self.table()
                                .get(empties)
                                .store(key, empties, score, squares, m.bit, 1);
                            self.lists[empties as usize] = list;
                            return score;
                        }
                    }
                }
            }
        }
        let mut best = NONE;
        let mut best_move = NO_MOVE;
        // The table's move first, before spending time ordering the others.
        if let Some(i) = list.iter().position(|m| m.bit == table_move) {
            let m = list.swap_remove(i);
            let x = m.bit as usize;
            let (p, o) = play(player, opponent, x, m.flips);
            best = -self.nws(
                p,
                o,
                -alpha - 1,
                empties - 1,
                parity ^ regions_of::<G>().quadrant_bit[x],
            );
            best_move = m.bit;
        }
        if best <= alpha && !self.thread.aborted {
            self.score_moves(&mut list, player, opponent, empties, parity);
            for i in 0..list.len() {
                // Once one move is searched (the eldest brother), the others may be shared
                // out among idle threads.
                if best != NONE {
                    if let Some(helpers) = self.helpers_for(empties, list.len() - i) {
                        let rest = Self::sorted_from(&mut list, i);
                        let (score, bit) =
                            self.split_nws(player, opponent, alpha, empties, parity, rest, helpers);
                        if score > best && !self.thread.aborted {
                            (best, best_move) = (score, bit);
                        }
                        break;
                    }
                }
                let m = Self::pick(&mut list, i);
                let x = m.bit as usize;
                let (p, o) = play(player, opponent, x, m.flips);
                let score = -self.nws(
                    p,
                    o,
                    -alpha - 1,
                    empties - 1,
                    parity ^ regions_of::<G>().quadrant_bit[x],
                );
                if self.thread.aborted {
                    break;
                }
                if score > best {
                    best = score;
                    best_move = m.bit;
                    if score > alpha {
                        break;
                    }
                }
            }
        }
        self.lists[empties as usize] = list;
        if self.thread.aborted {
            return 0;
        }
        let (lower, upper) = if best > alpha {
            (best, squares)
        } else {
            (-squares, best)
        };
        let stored_move = if best > alpha { best_move } else { NO_MOVE };
        self.table().get(empties).store(
            key,
            empties,
            lower,
            upper,
            stored_move,
            self.thread.nodes - start,
        );
        best
    }

    /// Principal variation search with the window `alpha..beta`: the score (fail-soft) and
    /// the best move's bit ([`NO_MOVE`] for a pass or a finished game).
    fn pvs(
        &mut self,
        player: G::Bits,
        opponent: G::Bits,
        mut alpha: i32,
        beta: i32,
        empties: u32,
        parity: u8,
    ) -> (i32, u8) {
        self.thread.nodes += 1;
        if self.should_stop() {
            return (0, NO_MOVE);
        }
        let squares = (G::SIZE * G::SIZE) as i32;
        let moves = G::legal_moves(player, opponent);
        if moves.is_empty() {
            if G::legal_moves(opponent, player).is_empty() {
                return (final_score::<G>(player, opponent), NO_MOVE);
            }
            let (score, _) = self.pvs(opponent, player, -beta, -alpha, empties, parity);
            return (-score, NO_MOVE);
        }
        let key = Self::key(player, opponent);
        let table_move = self
            .table()
            .get(empties)
            .probe(key)
            .map_or(NO_MOVE, |hit| hit.best);
        let start = self.thread.nodes;
        let (alpha_in, mut best, mut best_move) = (alpha, NONE, NO_MOVE);
        let mut list = self.generate(player, opponent, moves, empties);
        self.score_moves(&mut list, player, opponent, empties, parity);
        if let Some(m) = list.iter_mut().find(|m| m.bit == table_move) {
            m.score = i32::MAX;
        }
        for i in 0..list.len() {
            if i > 0 {
                if let Some(helpers) = self.helpers_for(empties, list.len() - i) {
                    let rest = Self::sorted_from(&mut list, i);
                    let (score, bit) = self.split_pvs(
                        player, opponent, alpha, beta, empties, parity, rest, helpers,
                    );
                    if score > best && !self.thread.aborted {
                        (best, best_move) = (score, bit);
                    }
                    break;
                }
            }
            let m = Self::pick(&mut list, i);
            let x = m.bit as usize;
            let (p, o) = play(player, opponent, x, m.flips);
            let parity = parity ^ regions_of::<G>().quadrant_bit[x];
            let score = if i == 0 {
                -self.pvs(p, o, -beta, -alpha, empties - 1, parity).0
            } else {
                let probe = -self.nws(p, o, -alpha - 1, empties - 1, parity);
                if probe > alpha && probe < beta && !self.thread.aborted {
                    -self.pvs(p, o, -beta, -alpha, empties - 1, parity).0
                } else {
                    probe
                }
            };
            if self.thread.aborted {
                break;
            }
            if score > best {
                best = score;
                best_move = m.bit;
                if score > alpha {
                    alpha = score;
                    if score >= beta {
                        break;
                    }
                }
            }
        }
        self.lists[empties as usize] = list;
        if self.thread.aborted {
            return (0, NO_MOVE);
        }
        if empties >= TABLE_MIN_EMPTIES {
            let (lower, upper) = if best >= beta {
                (best, squares)
            } else if best <= alpha_in {
                (-squares, best)
            } else {
                (best, best)
            };
            let stored_move = if best > alpha_in { best_move } else { NO_MOVE };
            self.table().get(empties).store(
                key,
                empties,
                lower,
                upper,
                stored_move,
                self.thread.nodes - start,
            );
        }
        (best, best_move)
    }
}

impl<'a, G: Geometry> SplitSearch<'a> for Search<'a, G> {
    type Bits = G::Bits;
    type Move = Candidate<G::Bits>;

    #[inline(always)]
    fn thread(&mut self) -> &mut SolveThread<'a> {
        &mut self.thread
    }

    fn helper(&self, thread: SolveThread<'a>) -> Search<'a, G> {
        Search {
            thread,
            eval: self.eval,
            lists: vec![Vec::new(); G::SIZE * G::SIZE + 1],
        }
    }

    #[inline(always)]
    fn child(node: &Node<G::Bits>, m: &Candidate<G::Bits>) -> (G::Bits, G::Bits, u8, u8) {
        let x = m.bit as usize;
        let (p, o) = play(node.player, node.opponent, x, m.flips);
        (p, o, node.parity ^ regions_of::<G>().quadrant_bit[x], m.bit)
    }

    fn null_window(
        &mut self,
        player: G::Bits,
        opponent: G::Bits,
        alpha: i32,
        empties: u32,
        parity: u8,
    ) -> i32 {
        self.nws(player, opponent, alpha, empties, parity)
    }

    fn principal(
        &mut self,
        player: G::Bits,
        opponent: G::Bits,
        alpha: i32,
        beta: i32,
        empties: u32,
        parity: u8,
    ) -> i32 {
        self.pvs(player, opponent, alpha, beta, empties, parity).0
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::{Board10, Six, Ten};
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
    fn random_position<G: Geometry>(rng: &mut Rng, empties: u32) -> Option<SizedBoard<G>> {
        let mut board = SizedBoard::<G>::start(G::SIZE);
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

    #[test]
    fn exact_scores_equal_plain_minimax_on_small_endgames() {
        let mut rng = Rng::new(31);
        let mut solver = SizedSolver::new(1);
        let mut checked = 0;
        while checked < 120 {
            let Some(board) = random_position::<Six>(&mut rng, 4 + checked % 7) else {
                continue;
            };
            let expected = minimax(&board);
            solver.clear();
            let solution = solver.solve_exact(&board);
            assert_eq!(solution.score, expected, "{board:?}");
            // The best move achieves the score.
            match solution.best {
                Some(m) => assert_eq!(-minimax(&board.play(m)), expected),
                None => assert!(!board.has_moves()),
            }
            // Windows: a bound on the right side outside, the score inside.
            let below = solver.solve_within(&board, expected + 1, expected + 3, &SolveLimits::NONE);
            assert!(below.unwrap().score <= expected + 1);
            let above = solver.solve_within(&board, expected - 3, expected - 1, &SolveLimits::NONE);
            assert!(above.unwrap().score >= expected - 1);
            checked += 1;
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
        let (mut one, mut many) = (SizedSolver::new(4), SizedSolver::new(4));
        let mut checked = 0;
        while checked < 6 {
            let Some(board) = random_position::<Six>(&mut rng, 18 + checked % 3) else {
                continue;
            };
            one.clear();
            let expected = one.solve_exact(&board).score;
            for threads in [2, 3, 4] {
                many.set_threads(threads);
                many.clear();
                let solution = many.solve_exact(&board);
                assert_eq!(solution.score, expected, "{threads} threads: {board:?}");
                if let Some(m) = solution.best {
                    one.clear();
                    assert_eq!(-one.solve_exact(&board.play(m)).score, expected);
                }
                let limits = SolveLimits {
                    max_nodes: Some(2_000),
                    ..SolveLimits::NONE
                };
                many.clear();
                let squares = 36;
                if let Some(cut) = many.solve_within(&board, -squares, squares, &limits) {
                    assert_eq!(cut.score, expected);
                }
            }
            checked += 1;
        }
    }

    #[test]
    fn ten_by_ten_endgames_solve_to_the_minimax_score() {
        let mut rng = Rng::new(32);
        let mut solver = SizedSolver::new(1);
        let mut checked = 0;
        while checked < 20 {
            let Some(board) = random_position::<Ten>(&mut rng, 7) else {
                continue;
            };
            let board: Board10 = board;
            assert_eq!(solver.solve_exact(&board).score, minimax(&board));
            checked += 1;
        }
    }
}
