//! The last four empty squares, written out by hand: no move lists, no tables, moves tried in
//! region-parity order, and the last move scored by counting flips (see [`super::last_flip`]).
//! All are null-window searches: they decide whether the score exceeds `alpha` and return a
//! fail-soft value (a lower bound on the score when above `alpha`, an upper bound otherwise).

use super::eight::{final_score, try_flips, Eight};
use super::last_flip::count_last_flips;
use super::parity::{QUADRANT_BIT, QUADRANT_MASK};
use super::search::{Search, NONE};
use crate::board::bitboard::flips;

/// The empty squares in region-parity order: those in odd regions first, then the others,
/// each group by index.
struct ParityOrder {
    odd: u64,
    even: u64,
}

impl ParityOrder {
    #[inline(always)]
    fn new(empties: u64, parity: u8) -> ParityOrder {
        let odd = empties & QUADRANT_MASK[parity as usize & 15];
        ParityOrder {
            odd,
            even: empties & !odd,
        }
    }

    /// The next square (64 once all are given out).
    #[inline(always)]
    fn next(&mut self) -> usize {
        let set = if self.odd != 0 {
            &mut self.odd
        } else {
            &mut self.even
        };
        let square = set.trailing_zeros() as usize;
        *set &= set.wrapping_sub(1);
        square
    }
}

impl Search<'_, Eight> {
    /// One empty square, `square`, with `player`'s discs on the board (every other square
    /// holds the opponent's). Returns the final score; when it is known to be at most
    /// `alpha` without working it out, an upper bound instead.
    #[inline(always)]
    pub(super) fn solve_1(&mut self, player: u64, alpha: i32, square: usize) -> i32 {
        self.thread.nodes += 1;
        // The disc difference with the square still empty, minus one.
        let base = 2 * player.count_ones() as i32 - 64;
        let flipped = count_last_flips(player, square) as i32;
        if flipped > 0 {
            return base + 2 + 2 * flipped;
        }
        // The player cannot move: the best left is winning the empty square.
        if base + 2 <= alpha {
            return base + 2;
        }
        let opponent = !player & !(1u64 << square);
        let flipped = count_last_flips(opponent, square) as i32;
        if flipped > 0 {
            base - 2 * flipped
        } else if base >= 0 {
            // Nobody can move: 32 discs or more against 31 or fewer wins, empty included.
            base + 2
        } else {
            base
        }
    }

    /// Two empty squares. Not inlined, nor is [`Search::solve_3`]: inlined into each other
    /// they made [`Search::solve_4`] too large for the instruction cache.
    #[inline(never)]
    pub(super) fn solve_2(
        &mut self,
        player: u64,
        opponent: u64,
        alpha: i32,
        squares: [usize; 2],
    ) -> i32 {
        self.thread.nodes += 1;
        let [x1, x2] = squares;
        let mut best = NONE;
        let f = try_flips(player, opponent, x1);
        if f != 0 {
            best = -self.solve_1(opponent ^ f, -alpha - 1, x2);
            if best > alpha {
                return best;
            }
        }
        let f = try_flips(player, opponent, x2);
        if f != 0 {
            return best.max(-self.solve_1(opponent ^ f, -alpha - 1, x1));
        }
        if best != NONE {
            return best;
        }
        // Pass: the opponent moves, and our score is the least of its replies.
        let mut worst = -NONE;
        let f = try_flips(opponent, player, x1);
        if f != 0 {
            worst = self.solve_1(player ^ f, alpha, x2);
            if worst <= alpha {
                return worst;
            }
        }
        let f = try_flips(opponent, player, x2);
        if f != 0 {
            return worst.min(self.solve_1(player ^ f, alpha, x1));
        }
        if worst != -NONE {
            return worst;
        }
        final_score(player, opponent)
    }

    /// Three empty squares; `parity` is the region parity of the empty squares.
    #[inline(never)]
    pub(super) fn solve_3(&mut self, player: u64, opponent: u64, alpha: i32, parity: u8) -> i32 {
        self.thread.nodes += 1;
        let mut order = ParityOrder::new(!(player | opponent), parity);
        let (a, b, c) = (order.next(), order.next(), order.next());
        let mut best = NONE;
        // Our moves: the first above alpha cuts.
        macro_rules! ours {
            ($x:expr, $rest:expr) => {
                let f = try_flips(player, opponent, $x);
                if f != 0 {
                    let score =
                        -self.solve_2(opponent ^ f, player ^ f ^ 1 << $x, -alpha - 1, $rest);
                    if score > alpha {
                        return score;
                    }
                    best = best.max(score);
                }
            };
        }
        ours!(a, [b, c]);
        ours!(b, [a, c]);
        ours!(c, [a, b]);
        if best != NONE {
            return best;
        }
        // Pass: the opponent moves, and our score is the least of its replies.
        let mut worst = -NONE;
        macro_rules! theirs {
            ($x:expr, $rest:expr) => {
                let f = try_flips(opponent, player, $x);
                if f != 0 {
                    let score = self.solve_2(player ^ f, opponent ^ f ^ 1 << $x, alpha, $rest);
                    if score <= alpha {
                        return score;
                    }
                    worst = worst.min(score);
                }
            };
        }
        theirs!(a, [b, c]);
        theirs!(b, [a, c]);
        theirs!(c, [a, b]);
        if worst != -NONE {
            return worst;
        }
        final_score(player, opponent)
    }

    /// Four empty squares; `moves` are `player`'s legal moves, `parity` the region parity
    /// of the empty squares.
    pub(super) fn solve_4(
        &mut self,
        player: u64,
        opponent: u64,
        moves: u64,
        alpha: i32,
        parity: u8,
    ) -> i32 {
        self.thread.nodes += 1;
        if let Some(bound) = self.stability_cutoff(player, opponent, alpha, 4) {
            return bound;
        }
        let mut best = NONE;
        // Only the legal squares: no flips worked out for nothing.
        let mut ours = ParityOrder::new(moves, parity);
        for _ in 0..moves.count_ones() {
            let x = ours.next() & 63;
            let f = flips(player, opponent, x);
            let parity = parity ^ QUADRANT_BIT[x];
            let score = -self.solve_3(opponent ^ f, player ^ f ^ 1 << x, -alpha - 1, parity);
            if score > alpha {
                return score;
            }
            best = best.max(score);
        }
        if best != NONE {
            return best;
        }
        let mut order = ParityOrder::new(!(player | opponent), parity);
        let (a, b, c, d) = (order.next(), order.next(), order.next(), order.next());
        let mut worst = -NONE;
        macro_rules! theirs {
            ($x:expr) => {
                let f = try_flips(opponent, player, $x);
                if f != 0 {
                    let parity = parity ^ QUADRANT_BIT[$x & 63];
                    let score = self.solve_3(player ^ f, opponent ^ f ^ 1 << $x, alpha, parity);
                    if score <= alpha {
                        return score;
                    }
                    worst = worst.min(score);
                }
            };
        }
        theirs!(a);
        theirs!(b);
        theirs!(c);
        theirs!(d);
        if worst != -NONE {
            return worst;
        }
        final_score(player, opponent)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::bitboard::Bits;
    use crate::board::rays::{ray, DIRECTIONS};
    use crate::board::{Board, Board8};
    use crate::endgame::search::Shape;
    use crate::endgame::table::Tables;
    use crate::endgame::SolveLimits;

    /// The exact score by playing the game out move by move.
    fn minimax(board: &Board8) -> i32 {
        if !board.has_moves() {
            let passed = board.pass();
            if !passed.has_moves() {
                return board.final_score();
            }
            return -minimax(&passed);
        }
        board
            .moves()
            .map(|m| -minimax(&board.play(m)))
            .max()
            .unwrap()
    }

    /// Random boards with `empties` empty squares, half of them built so that moves, passes
    /// and games ending early all occur.
    fn boards(empties: usize, count: usize) -> Vec<Board8> {
        let mut rng = crate::rng::Rng::new(0x9E37_79B9_7F4A_7C15 ^ empties as u64);
        let mut boards = Vec::new();
        while boards.len() < count {
            let state = rng.next_u64();
            let mut empty = 0u64;
            let mut s = state;
            while (empty.count_ones() as usize) < empties {
                empty |= 1 << (s % 64);
                s = s.rotate_left(7).wrapping_mul(0x2545_F491_4F6C_DD1D);
            }
            let mut player = s & !empty;
            if boards.len() % 2 == 0 {
                // Make every ray from every empty square one colour: then nobody can flip
                // there, so passes and games ending with empty squares are common.
                for square in Bits(empty) {
                    for (dc, dr) in DIRECTIONS {
                        let turn = square * 9 + (dc + 1) as usize * 3 + (dr + 1) as usize;
                        let colour = s.rotate_left(turn as u32) & 1;
                        for at in ray(8, square, (dc, dr)) {
                            let bit = 1u64 << at;
                            if empty & bit == 0 {
                                player = if colour == 1 {
                                    player | bit
                                } else {
                                    player & !bit
                                };
                            }
                        }
                    }
                }
            }
            boards.push(Board8 {
                player,
                opponent: !player & !empty,
            });
        }
        boards
    }

    #[test]
    fn last_empties_match_minimax_at_every_alpha() {
        let table = Tables::new(0).unwrap();
        let limits = SolveLimits::NONE;
        let shared = crate::endgame::split::Shared::new(&table, &limits, 1, 0);
        let mut search = Search::<Eight>::new(&shared, 0);
        for empties in 1..=4 {
            for board in boards(empties as usize, 3000) {
                let exact = minimax(&board);
                let (p, o) = (board.player, board.opponent);
                let e = !(p | o);
                let parity = crate::endgame::parity::parity_of(e);
                for alpha in [exact - 3, exact - 2, exact - 1, exact, exact + 1, exact + 2] {
                    let score = Eight::solve_last(&mut search, p, o, alpha, empties, parity);
                    if exact > alpha {
                        assert!(
                            score > alpha && score <= exact,
                            "{board:?} {alpha} {score} {exact}"
                        );
                    } else {
                        assert!(
                            score <= alpha && score >= exact,
                            "{board:?} {alpha} {score} {exact}"
                        );
                    }
                }
            }
        }
    }
}
