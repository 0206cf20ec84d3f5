//! The searches the classic players use: negamax, with or without alpha-beta pruning,
//! deepened iteratively until a depth or a deadline, optionally with move ordering and a
//! transposition table. Their evaluations plug in through [`Heuristic`].

use crate::platform::Instant;

use super::Choice;
use crate::board::{Board, Move, Square};

/// Scores beyond any evaluation: a won or lost game (plus its disc difference).
pub(crate) const WIN: i32 = 100_000_000;

/// A classic player's evaluation and move ordering.
pub(crate) trait Heuristic<B: Board> {
    /// Score of a position that is not over, for its side to move (max).
    fn evaluate(&self, board: &B) -> i32;
    /// Priority of the legal move `index` in `board` (searched highest first); only used
    /// when the search orders moves.
    fn order(&self, _board: &B, _index: usize) -> i32 {
        0
    }
}

/// How a classic player searches.
pub(crate) struct Setup {
    /// Deepest iteration, in plies.
    pub(crate) max_depth: u32,
    /// When to stop; the last finished iteration's move is played.
    pub(crate) deadline: Instant,
    /// Node budget.
    pub(crate) node_limit: u64,
    /// Alpha-beta pruning (off: plain minimax).
    pub(crate) pruning: bool,
    /// Order moves with [`Heuristic::order`].
    pub(crate) ordering: bool,
}

/// A transposition table entry: which bound the score is.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Bound {
    Exact,
    Lower,
    Upper,
}

#[derive(Clone, Copy, Debug)]
struct Entry {
    key: u64,
    depth: u32,
    bound: Bound,
    score: i32,
    best: u8,
}

/// A transposition table: scores with exact/lower/upper flags and best moves, by hash.
pub(crate) struct Table {
    entries: Vec<Option<Entry>>,
}

impl Table {
    /// A table of `2^bits` entries.
    pub(crate) fn new(bits: u32) -> Table {
        Table {
            entries: vec![None; 1 << bits],
        }
    }

    fn slot(&self, key: u64) -> usize {
        (key as usize) & (self.entries.len() - 1)
    }

    fn get(&self, key: u64) -> Option<Entry> {
        self.entries[self.slot(key)].filter(|e| e.key == key)
    }

    fn put(&mut self, entry: Entry) {
        let slot = self.slot(entry.key);
        self.entries[slot] = Some(entry);
    }
}

struct Searcher<'a, H> {
    heuristic: &'a H,
    setup: &'a Setup,
    table: Option<&'a mut Table>,
    nodes: u64,
    aborted: bool,
}

/// Searches `board` by iterative deepening and returns the move of the deepest finished
/// iteration (the first legal move if none finished).
pub(crate) fn search<B: Board, H: Heuristic<B>>(
    board: &B,
    heuristic: &H,
    setup: &Setup,
    table: Option<&mut Table>,
) -> Choice {
    let size = board.size();
    let mut moves: Vec<usize> = board.moves().collect();
    let mut choice = Choice {
        mv: moves
            .first()
            .map_or(Move::Pass, |&m| Move::Play(Square::from_index(m, size))),
        score: 0,
        depth: 0,
        nodes: 0,
    };
    if moves.len() <= 1 {
        return choice;
    }
    let mut searcher = Searcher {
        heuristic,
        setup,
        table,
        nodes: 0,
        aborted: false,
    };
    if setup.ordering {
        moves.sort_by_key(|&m| -heuristic.order(board, m));
    }
    let last = setup.max_depth.min(board.empties()).max(1);
    for depth in 1..=last {
        let mut best: Option<(usize, i32)> = None;
        for &m in &moves {
            let alpha = best.map_or(-WIN - 100, |(_, s)| s);
            let window = if setup.pruning { -alpha } else { WIN + 100 };
            let score = -searcher.negamax(&board.play(m), depth - 1, -WIN - 100, window);
            if searcher.aborted {
                break;
            }
            if best.is_none_or(|(_, s)| score > s) {
                best = Some((m, score));
            }
        }
        if searcher.aborted {
            break;
        }
        let (m, score) = best.expect("a move was searched");
        // The best move leads the next iteration.
        moves.retain(|&x| x != m);
        moves.insert(0, m);
        choice.mv = Move::Play(Square::from_index(m, size));
        choice.score = score;
        choice.depth = depth;
        if score.abs() >= WIN - 200 {
            break; // the game's result is known
        }
    }
    choice.nodes = searcher.nodes;
    choice
}

impl<H> Searcher<'_, H> {
    fn out_of_budget(&mut self) -> bool {
        if self.nodes.is_multiple_of(256)
            && (Instant::now() >= self.setup.deadline || self.nodes >= self.setup.node_limit)
        {
            self.aborted = true;
        }
        self.aborted
    }

    fn negamax<B: Board>(&mut self, board: &B, depth: u32, mut alpha: i32, beta: i32) -> i32
    where
        H: Heuristic<B>,
    {
        self.nodes += 1;
        if self.out_of_budget() {
            return 0;
        }
        if !board.has_moves() {
            let passed = board.pass();
            if !passed.has_moves() {
                let score = board.final_score();
                return score + score.signum() * WIN;
            }
            return -self.negamax(&passed, depth, -beta, -alpha);
        }
        if depth == 0 {
            return self.heuristic.evaluate(board);
        }
        let key = board.hash_key();
        let mut first = None;
        if let Some(entry) = self.table.as_ref().and_then(|t| t.get(key)) {
            first = Some(entry.best as usize);
            if entry.depth >= depth {
                let cut = match entry.bound {
                    Bound::Exact => true,
                    Bound::Lower => entry.score >= beta,
                    Bound::Upper => entry.score <= alpha,
                };
                if cut {
                    return entry.score;
                }
            }
        }
        let mut moves: Vec<usize> = board.moves().collect();
        if self.setup.ordering {
            moves.sort_by_key(|&m| -self.heuristic.order(board, m));
        }
        if let Some(f) = first.filter(|f| moves.contains(f)) {
            moves.retain(|&m| m != f);
            moves.insert(0, f);
        }
        let alpha_in = alpha;
        let mut best_score = -WIN - 100;
        let mut best_move = moves[0];
        for m in moves {
            let (lo, hi) = if self.setup.pruning {
                (-beta, -alpha)
            } else {
                (-WIN - 100, WIN + 100)
            };
            let score = -self.negamax(&board.play(m), depth - 1, lo, hi);
            if self.aborted {
                return 0;
            }
            if score > best_score {
                best_score = score;
                best_move = m;
            }
            if score > alpha {
                alpha = score;
                if self.setup.pruning && alpha >= beta {
                    break;
                }
            }
        }
        if let Some(table) = self.table.as_mut() {
            let bound = if best_score <= alpha_in {
                Bound::Upper
            } else if best_score >= beta {
                Bound::Lower
            } else {
                Bound::Exact
            };
            table.put(Entry {
                key,
                depth,
                bound,
                score: best_score,
                best: best_move as u8,
            });
        }
        best_score
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::{Board8, Position};
    use std::time::Duration;

    /// Disc difference: simple enough to check minimax against brute force.
    struct Discs;

    impl<B: Board> Heuristic<B> for Discs {
        fn evaluate(&self, board: &B) -> i32 {
            board.player_discs() as i32 - board.opponent_discs() as i32
        }
    }

    fn brute<B: Board>(board: &B, depth: u32) -> i32 {
        if !board.has_moves() {
            let passed = board.pass();
            if !passed.has_moves() {
                let s = board.final_score();
                return s + s.signum() * WIN;
            }
            return -brute(&passed, depth);
        }
        if depth == 0 {
            return Discs.evaluate(board);
        }
        board
            .moves()
            .map(|m| -brute(&board.play(m), depth - 1))
            .max()
            .unwrap()
    }

    fn setup(depth: u32, pruning: bool, ordering: bool) -> Setup {
        Setup {
            max_depth: depth,
            deadline: Instant::now() + Duration::from_secs(60),
            node_limit: u64::MAX,
            pruning,
            ordering,
        }
    }

    #[test]
    fn pruning_and_tables_keep_the_minimax_value() {
        let start = Position::start(8).unwrap();
        for line in ["f5d6c3d3c4f4", "f5f6e6f4e3c5c4e7", "c4e3f6e6f5c5f4g6f7"] {
            let (position, _) = start.play_transcript(line).unwrap();
            let crate::board::AnyBoard::Eight(board) = position.board else {
                unreachable!()
            };
            let board: Board8 = board;
            let expected = brute(&board, 4);
            let plain = search(&board, &Discs, &setup(4, false, false), None);
            let pruned = search(&board, &Discs, &setup(4, true, false), None);
            let mut table = Table::new(12);
            let full = search(&board, &Discs, &setup(4, true, true), Some(&mut table));
            for choice in [plain, pruned, full] {
                assert_eq!(choice.score, expected, "{line}");
                assert_eq!(choice.depth, 4);
            }
            assert!(pruned.nodes < plain.nodes, "pruning saves nodes on {line}");
        }
    }

    #[test]
    fn a_past_deadline_still_gives_a_legal_move() {
        let board = Board8::START;
        let mut s = setup(20, true, false);
        s.deadline = Instant::now();
        let choice = search(&board, &Discs, &s, None);
        let Move::Play(sq) = choice.mv else {
            panic!("no move")
        };
        assert!(board.is_legal(sq.index(8).unwrap()));
    }
}
