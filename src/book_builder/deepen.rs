//! Scoring a book with the engine's own search: at every position, the best move that is
//! not a link (its *leaf*) is searched to a fixed depth, or solved exactly near the end;
//! then the values are carried up the links ([`Book::negamax`]). Positions already scored
//! as deep are skipped, so a run that was stopped resumes where it was saved.

use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

use emilia_core::book::format::BookFileError;

use emilia_core::board::{AnyBoard, Board, Board8, Color, Move, Position, Square};
use emilia_core::book::{next, unplayed, Backing, Book, BookMove, Key, Leaf, Next, Node, Shard};
use emilia_core::endgame::{self, Solver};
use emilia_core::engine::Source;
use emilia_core::search::Limits;
use emilia_core::{Config, Engine};

/// How deep a book is scored.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DeepenOptions {
    /// Least depth of the midgame searches, plies: a position is searched to this depth or
    /// one more, so that every search ends with the same parity of empty squares
    /// ([`DeepenOptions::depth_for`]).
    pub depth: u32,
    /// Positions with at most this many empty squares are solved exactly.
    pub solve_empties: u32,
    /// Transposition table of the search and of the solver, MiB each.
    pub hash_mib: usize,
    /// The part of the book's positions to score; the others are left as they are.
    pub shard: Shard,
}

impl Default for DeepenOptions {
    fn default() -> DeepenOptions {
        DeepenOptions {
            depth: 18,
            solve_empties: 24,
            hash_mib: 64,
            shard: Shard::WHOLE,
        }
    }
}

impl DeepenOptions {
    /// The depth a position with `empties` empty squares is searched to: [`Self::depth`], or
    /// one more where that leaves an odd number of empty squares at the search's end.
    /// Searches that end one ply apart disagree by more than their depth alone explains
    /// (who moved last counts), and a book compares values of searches from positions one
    /// move apart: with a common parity its values agree with each other and with a fresh
    /// search of the same parity.
    pub fn depth_for(&self, empties: u32) -> u32 {
        self.depth + (empties + self.depth) % 2
    }
}

/// What a position's leaf still needs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Work {
    /// A midgame search to the book's depth.
    Search,
    /// An exact solve.
    Solve,
}

/// What `node` at `key` needs under `options`, if anything.
pub fn work(key: &Key, node: &Node, options: &DeepenOptions) -> Option<Work> {
    if !options.shard.contains(key) {
        return None;
    }
    let empties = key.board().empties();
    let solve = empties <= options.solve_empties;
    let backing = match &node.leaf {
        Leaf::Nothing => return None,
        Leaf::Unscored => Backing::Unscored,
        Leaf::Move(m) => m.backing,
    };
    match backing {
        Backing::Exact => None,
        _ if solve => Some(Work::Solve),
        Backing::Depth(d) if d as u32 >= options.depth_for(empties) => None,
        _ => Some(Work::Search),
    }
}

/// How far a run has come.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Progress {
    /// Midgame searches done and to do in this run.
    pub searched: usize,
    /// Midgame searches this run set out to do.
    pub to_search: usize,
    /// Exact solves done.
    pub solved: usize,
    /// Exact solves this run set out to do.
    pub to_solve: usize,
    /// Time spent searching, and solving.
    pub search_time: Duration,
    /// Time spent solving.
    pub solve_time: Duration,
    /// Time since the run started.
    pub elapsed: Duration,
}

impl Progress {
    /// An estimate of the time left, from the average times so far (either kind standing
    /// in for the other until it is measured); `None` before anything is measured.
    pub fn left(&self) -> Option<Duration> {
        let average = |time: Duration, count: usize| (count > 0).then(|| time / count as u32);
        let search = average(self.search_time, self.searched);
        let solve = average(self.solve_time, self.solved);
        let (search, solve) = match (search, solve) {
            (None, None) => return None,
            (s, v) => (s.or(v)?, v.or(s)?),
        };
        Some(
            search * (self.to_search - self.searched) as u32
                + solve * (self.to_solve - self.solved) as u32,
        )
    }

    /// Whether nothing is left to do.
    pub fn finished(&self) -> bool {
        self.searched == self.to_search && self.solved == self.to_solve
    }
}

/// Scores book positions with its own engine and solver.
pub struct Deepener {
    options: DeepenOptions,
    engine: Engine,
    solver: Solver,
}

impl Deepener {
    /// A deepener with fresh tables.
    pub fn new(options: DeepenOptions) -> Deepener {
        let mut engine = Engine::new(Config {
            hash_mib: options.hash_mib,
            book: Source::Off,
            ..Config::default()
        })
        .unwrap_or_else(|e| panic!("{e}"));
        // One thread: the same book from the same games on every run and machine.
        engine.set_option("threads", "1").expect("threads takes 1");
        Deepener {
            options,
            engine,
            solver: Solver::new(options.hash_mib),
        }
    }

    /// The leaf of the position `key` (with links as in `node`): the best move that is not
    /// a link, with its value. `None` when `stop` cut a solve short. The tables start
    /// empty, so that a leaf is the same whatever was scored before it: in one run or in
    /// shards, in any order.
    fn score_leaf(&mut self, key: &Key, node: &Node, stop: &AtomicBool) -> Option<Leaf> {
        let board = key.board();
        let unplayed = unplayed(&board, node);
        if unplayed.is_empty() {
            return Some(Leaf::Nothing);
        }
        self.engine.clear_hash();
        self.solver.clear();
        let position = Position {
            board: AnyBoard::Eight(board),
            to_move: Color::Black,
        };
        let excluded: Vec<Move> = board
            .moves()
            .filter(|m| !unplayed.contains(m))
            .map(|m| Move::Play(Square::from_index(m, 8)))
            .collect();
        if board.empties() <= self.options.solve_empties {
            return self.solve_leaf(&board, &position, &excluded, unplayed, stop);
        }
        let limits = Limits {
            depth: Some(self.options.depth_for(board.empties())),
            ..Limits::default()
        };
        let report = self
            .engine
            .search_except(&position, &limits, &excluded)
            .expect("a move is left");
        Some(Leaf::Move(BookMove {
            square: move_index(report.best),
            value: report.score.hundredths().clamp(-6400, 6400) as i16,
            backing: if report.exact {
                Backing::Exact
            } else {
                Backing::Depth(report.depth.min(60) as u8)
            },
        }))
    }

    /// The exact best of the `unplayed` moves of `board`: each solved with a window that
    /// only asks whether it beats the best so far, the likeliest best (by a short search)
    /// first.
    fn solve_leaf(
        &mut self,
        board: &Board8,
        position: &Position,
        excluded: &[Move],
        mut unplayed: Vec<usize>,
        stop: &AtomicBool,
    ) -> Option<Leaf> {
        if unplayed.len() > 1 {
            let limits = Limits {
                depth: Some(8),
                ..Limits::default()
            };
            if let Some(report) = self.engine.search_except(position, &limits, excluded) {
                let first = move_index(report.best) as usize;
                unplayed.sort_by_key(|&m| m != first);
            }
        }
        let limits = endgame::SolveLimits {
            stop: Some(stop),
            ..endgame::SolveLimits::NONE
        };
        let mut best: Option<(usize, i32)> = None;
        for square in unplayed {
            let floor = best.map_or(-65, |(_, v)| v);
            let value = match next(board, square) {
                Next::End(score) => score,
                Next::Position {
                    board: child,
                    same_mover: true,
                } => {
                    self.solver
                        .solve_within(&AnyBoard::Eight(child), floor, 65, &limits)?
                        .score
                }
                Next::Position { board: child, .. } => {
                    -self
                        .solver
                        .solve_within(&AnyBoard::Eight(child), -65, -floor, &limits)?
                        .score
                }
            };
            if best.is_none_or(|(_, v)| value > v) {
                best = Some((square, value));
            }
        }
        let (square, value) = best.expect("a move is left");
        Some(Leaf::Move(BookMove {
            square: square as u8,
            value: (value * 100) as i16,
            backing: Backing::Exact,
        }))
    }

    /// Scores every position of `book` (of the options' shard) that needs it, those most
    /// games reached first, until done or `stop` is set; negamaxes and hands the book to `save` every
    /// `save_every` and at the end, and `report`s progress every few seconds.
    pub fn run(
        &mut self,
        book: &mut Book,
        stop: &AtomicBool,
        save_every: Duration,
        save: &mut dyn FnMut(&Book) -> Result<(), BookFileError>,
        report: &mut dyn FnMut(&Progress),
    ) -> Result<Progress, BookFileError> {
        let start = Instant::now();
        // Most games first: a run stopped early has deepened the main lines.
        let mut todo: Vec<(std::cmp::Reverse<u32>, Key, Work)> = book
            .nodes()
            .filter_map(|(key, node)| {
                work(key, node, &self.options).map(|w| (std::cmp::Reverse(node.games), *key, w))
            })
            .collect();
        todo.sort_unstable_by_key(|(games, key, _)| (*games, *key));
        let mut progress = Progress {
            to_search: todo.iter().filter(|t| t.2 == Work::Search).count(),
            to_solve: todo.iter().filter(|t| t.2 == Work::Solve).count(),
            ..Progress::default()
        };
        report(&progress);
        let (mut last_save, mut last_report) = (Instant::now(), Instant::now());
        for (_, key, kind) in todo {
            if stop.load(std::sync::atomic::Ordering::Relaxed) {
                break;
            }
            let node = book.node(&key).expect("key from the book").clone();
            let began = Instant::now();
            let Some(leaf) = self.score_leaf(&key, &node, stop) else {
                break;
            };
            book.node_mut(&key).expect("key from the book").leaf = leaf;
            match kind {
                Work::Search => {
                    progress.searched += 1;
                    progress.search_time += began.elapsed();
                }
                Work::Solve => {
                    progress.solved += 1;
                    progress.solve_time += began.elapsed();
                }
            }
            progress.elapsed = start.elapsed();
            if last_save.elapsed() >= save_every {
                book.negamax();
                save(book)?;
                last_save = Instant::now();
            }
            if last_report.elapsed() >= Duration::from_secs(5) {
                report(&progress);
                last_report = Instant::now();
            }
        }
        book.negamax();
        save(book)?;
        progress.elapsed = start.elapsed();
        report(&progress);
        Ok(progress)
    }
}

/// The square index of a searched move.
fn move_index(mv: Move) -> u8 {
    match mv {
        Move::Play(sq) => sq.index(8).expect("an 8x8 move") as u8,
        Move::Pass => unreachable!("book positions have moves"),
    }
}

/// Scores `book` under `options` to the end (the book's tests).
#[cfg(test)]
pub(super) fn deepen_to_end(book: &mut Book, options: DeepenOptions) -> Progress {
    let stop = AtomicBool::new(false);
    let progress = Deepener::new(options)
        .run(book, &stop, Duration::MAX, &mut |_| Ok(()), &mut |_| {})
        .unwrap();
    assert!(progress.finished());
    progress
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::book_builder::build::learn;

    #[test]
    fn work_follows_the_depth_and_the_solve_boundary() {
        let options = DeepenOptions {
            depth: 10,
            solve_empties: 20,
            hash_mib: 1,
            shard: Shard::WHOLE,
        };
        let key = Key::of(&Board8::START).0;
        let mut node = Node::new();
        assert_eq!(work(&key, &node, &options), Some(Work::Search));
        let searched = |d| {
            Leaf::Move(BookMove {
                square: 19,
                value: 0,
                backing: Backing::Depth(d),
            })
        };
        node.leaf = searched(8);
        assert_eq!(work(&key, &node, &options), Some(Work::Search));
        node.leaf = searched(10);
        assert_eq!(work(&key, &node, &options), None);
        node.leaf = Leaf::Nothing;
        assert_eq!(work(&key, &node, &options), None);
        let near_end = Key::of(&Board8 {
            player: 0x0000_00FF_FFFF_FFFF,
            opponent: 0x00FF_FF00_0000_0000,
        })
        .0;
        node.leaf = searched(30);
        assert_eq!(work(&near_end, &node, &options), Some(Work::Solve));
    }

    #[test]
    fn exact_leaves_match_the_solver() {
        // The first game of a WTHOR file down to 20 empties, solved from 20.
        let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("crates/emilia-core/tests/data/WTH_2003.wtb");
        let game = crate::book_builder::games::read_wthor(&path)
            .unwrap()
            .remove(0);
        let mut book = Book::new();
        learn(&mut book, &[game], 20);
        let options = DeepenOptions {
            depth: 4,
            solve_empties: 20,
            hash_mib: 4,
            shard: Shard::WHOLE,
        };
        let mut deepener = Deepener::new(options);
        let stop = AtomicBool::new(false);
        let progress = deepener
            .run(
                &mut book,
                &stop,
                Duration::MAX,
                &mut |_| Ok(()),
                &mut |_| {},
            )
            .unwrap();
        assert!(progress.finished());
        assert_eq!((progress.to_solve, progress.to_search), (1, 40));
        // The last position of the line: its value is the solver's.
        let (key, node) = book
            .nodes()
            .find(|(k, _)| k.board().empties() == 20)
            .unwrap();
        let (value, backing) = node.value().unwrap();
        assert_eq!(backing, Backing::Exact);
        let exact = Solver::new(4)
            .solve_exact(&AnyBoard::Eight(key.board()))
            .score;
        assert_eq!(value as i32, exact * 100);
        // The other positions are searched to depth 4 or 5, so that every search ends with
        // an even number of empty squares; the start's only move leads to a position
        // searched to depth 5: 6 plies from the start.
        for (key, node) in book.nodes() {
            let empties = key.board().empties();
            if let Leaf::Move(m) = node.leaf {
                if empties > 20 {
                    assert_eq!(m.backing, Backing::Depth(4 + (empties % 2) as u8));
                }
            }
        }
        let start = book.node(&Key::of(&Board8::START).0).unwrap();
        assert_eq!(start.value().unwrap().1, Backing::Depth(6));
    }

    #[test]
    fn shards_merged_equal_one_whole_run() {
        use crate::book_builder::build::{build, BuildOptions};
        let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("crates/emilia-core/tests/data/WTH_2003.wtb");
        let games = crate::book_builder::games::read_wthor(&path).unwrap();
        let base = build(
            &games,
            &BuildOptions {
                min_games: 20,
                max_ply: 14,
            },
        );
        let whole_options = DeepenOptions {
            depth: 4,
            solve_empties: 0,
            hash_mib: 2,
            shard: Shard::WHOLE,
        };
        let mut whole = base.clone();
        let all = deepen_to_end(&mut whole, whole_options).to_search;
        assert!(all > 20, "{all} positions");
        let mut merged = base.clone();
        let mut parts = 0;
        for index in 0..2 {
            let shard = Shard { index, count: 2 };
            let mut book = base.clone();
            let done = deepen_to_end(
                &mut book,
                DeepenOptions {
                    shard,
                    ..whole_options
                },
            )
            .to_search;
            assert!(done > 0 && done < all, "shard {shard}: {done} of {all}");
            parts += done;
            let leaves = book.leaves_of(shard);
            assert!(leaves
                .nodes()
                .all(|(key, node)| shard.contains(key) && node.links.is_empty()));
            merged.merge(&leaves);
        }
        assert_eq!(parts, all);
        assert_eq!(merged, whole);
        // Resuming: a shard whose file already holds its leaves has nothing left to do.
        let shard = Shard { index: 1, count: 2 };
        let mut again = base.clone();
        again.merge(&whole.leaves_of(shard));
        assert_eq!(
            deepen_to_end(
                &mut again,
                DeepenOptions {
                    shard,
                    ..whole_options
                }
            )
            .to_search,
            0
        );
    }
}
