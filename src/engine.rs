//! The persistent engine that front-ends drive: it is told positions and limits, searches,
//! and keeps what it learned between moves and games. It knows nothing of any protocol.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use anyhow::{anyhow, bail, Result};

use crate::board::{Board, Move, Position, Square};
use crate::players::{self, BaselinePlayer};
use crate::with_board;

/// The mover's game clock.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Clock {
    /// Time left on the mover's clock.
    pub remaining: Duration,
    /// Time added after each move.
    pub increment: Duration,
}

/// What bounds one search. Several limits may be combined; the first reached ends it. With
/// none set, the engine searches for [`Engine::DEFAULT_MOVE_TIME`].
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Limits {
    /// Deepest midgame iteration, in plies.
    pub depth: Option<u32>,
    /// Fixed time for this move.
    pub move_time: Option<Duration>,
    /// The mover's remaining clock, budgeted over the moves still to play.
    pub clock: Option<Clock>,
    /// Node budget.
    pub nodes: Option<u64>,
}

/// The outcome of a search, or its progress after a finished iteration.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SearchReport {
    /// The move to play; `Move::Pass` when the mover has none.
    pub best: Move,
    /// Score for the mover in hundredths of a disc (final disc difference × 100 when exact).
    pub score: i32,
    /// Whether `score` is the exact perfect-play result.
    pub exact: bool,
    /// Depth of the last finished iteration, in plies.
    pub depth: u32,
    /// Positions searched.
    pub nodes: u64,
    /// Time spent.
    pub elapsed: Duration,
    /// Principal variation, starting with `best`.
    pub pv: Vec<Move>,
}

/// One move's evaluation, as `hint` reports it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MoveScore {
    /// The move.
    pub mv: Move,
    /// Score for the mover after this move, hundredths of a disc.
    pub score: i32,
    /// Whether the score is exact.
    pub exact: bool,
    /// Depth searched.
    pub depth: u32,
}

/// An engine option that front-ends may set by name (`setoption hash 128`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OptionInfo {
    /// The option's name.
    pub name: &'static str,
    /// Its current value, as text.
    pub value: String,
    /// What it does and which values it takes.
    pub help: &'static str,
}

/// The persistent engine.
pub struct Engine {
    hash_mib: usize,
    threads: usize,
    stop: Arc<AtomicBool>,
    /// A baseline player that answers searches instead of the real search (option `player`).
    player: Option<Box<dyn BaselinePlayer>>,
    seed: u64,
}

impl Default for Engine {
    fn default() -> Engine {
        Engine::new()
    }
}

impl Engine {
    /// Search time when no limit is given.
    pub const DEFAULT_MOVE_TIME: Duration = Duration::from_secs(1);

    /// An engine with default options.
    pub fn new() -> Engine {
        Engine {
            hash_mib: 64,
            threads: 1,
            stop: Arc::new(AtomicBool::new(false)),
            player: None,
            seed: 0,
        }
    }

    /// A flag that, set from another thread, makes the current search return promptly with
    /// its best move so far.
    pub fn stop_flag(&self) -> Arc<AtomicBool> {
        Arc::clone(&self.stop)
    }

    /// Tells the engine a new game begins. What it has learned is kept.
    pub fn new_game(&mut self) {}

    /// The options and their current values.
    pub fn options(&self) -> Vec<OptionInfo> {
        vec![
            OptionInfo {
                name: "hash",
                value: self.hash_mib.to_string(),
                help: "transposition table size in MiB (1 to 65536)",
            },
            OptionInfo {
                name: "threads",
                value: self.threads.to_string(),
                help: "search threads (1 to 64)",
            },
            OptionInfo {
                name: "player",
                value: self
                    .player
                    .as_ref()
                    .map_or("emilia", |p| p.name())
                    .to_string(),
                help: "emilia (the real search) or a baseline player: random, greedy, \
                       squares, quadrant, kukreja, phased",
            },
            OptionInfo {
                name: "seed",
                value: self.seed.to_string(),
                help: "seed of the baseline players' random choices (0 to 2^64-1)",
            },
        ]
    }

    /// Sets option `name` to `value`, or says why it cannot.
    pub fn set_option(&mut self, name: &str, value: &str) -> Result<()> {
        let number = || -> Result<usize> {
            value
                .parse()
                .map_err(|_| anyhow!("option {name}: '{value}' is not a number"))
        };
        match name.to_ascii_lowercase().as_str() {
            "hash" => {
                let mib = number()?;
                if !(1..=65536).contains(&mib) {
                    bail!("option hash: {mib} MiB is out of range 1 to 65536");
                }
                self.hash_mib = mib;
            }
            "threads" => {
                let threads = number()?;
                if !(1..=64).contains(&threads) {
                    bail!("option threads: {threads} is out of range 1 to 64");
                }
                self.threads = threads;
            }
            "player" if value.eq_ignore_ascii_case("emilia") => self.player = None,
            "player" => {
                self.player = Some(players::create(value, self.seed).map_err(|e| anyhow!(e))?)
            }
            "seed" => {
                self.seed = value
                    .parse()
                    .map_err(|_| anyhow!("option seed: '{value}' is not a number"))?;
                if let Some(name) = self.player.as_ref().map(|p| p.name()) {
                    self.player = Some(players::create(name, self.seed).map_err(|e| anyhow!(e))?);
                }
            }
            _ => {
                let known: Vec<&str> = self.options().iter().map(|o| o.name).collect();
                bail!(
                    "unknown option '{name}': known options are {}",
                    known.join(", ")
                );
            }
        }
        Ok(())
    }

    /// Fails when the engine cannot play on a board of side `size`: the baseline players
    /// `squares` and `quadrant` have 8x8 tables only.
    pub fn check_size(&self, size: usize) -> Result<()> {
        match &self.player {
            Some(player) if !player.supports(size) => {
                bail!("player {} plays 8x8 only", player.name())
            }
            _ => Ok(()),
        }
    }

    /// Searches `position` within `limits` and returns the move to play. `progress` is
    /// called after every finished iteration.
    pub fn search(
        &mut self,
        position: &Position,
        limits: &Limits,
        progress: &mut dyn FnMut(&SearchReport),
    ) -> SearchReport {
        if let Some(player) = self.player.as_mut() {
            let start = Instant::now();
            let choice = player.choose(position, limits);
            let report = SearchReport {
                best: choice.mv,
                score: choice.score,
                exact: false,
                depth: choice.depth,
                nodes: choice.nodes,
                elapsed: start.elapsed(),
                pv: vec![choice.mv],
            };
            progress(&report);
            return report;
        }
        self.stop.store(false, Ordering::Relaxed);
        let deadline = Instant::now().checked_add(self.budget(position, limits));
        let mut search = SimpleSearch {
            nodes: 0,
            deadline,
            node_limit: limits.nodes.unwrap_or(u64::MAX),
            stop: &self.stop,
            aborted: false,
            start: Instant::now(),
        };
        let size = position.size();
        with_board!(&position.board, board => search.iterate(board, size, limits.depth, progress))
    }

    /// The best `count` moves of `position` with their scores, best first.
    pub fn hint(&mut self, position: &Position, count: usize, limits: &Limits) -> Vec<MoveScore> {
        let mut scores = Vec::new();
        for mv in position.legal_moves() {
            let Ok(after) = position.play(mv) else {
                continue;
            };
            let report = self.search(&after, limits, &mut |_| {});
            scores.push(MoveScore {
                mv,
                score: -report.score,
                exact: report.exact,
                depth: report.depth + 1,
            });
        }
        scores.sort_by_key(|s| -s.score);
        scores.truncate(count);
        scores
    }

    /// Time to spend on this move.
    fn budget(&self, position: &Position, limits: &Limits) -> Duration {
        let mut budget = Duration::MAX;
        if let Some(t) = limits.move_time {
            budget = budget.min(t);
        }
        if let Some(clock) = limits.clock {
            let (_, _, empties) = position.board.counts();
            let moves_left = (empties / 2).max(1) + 2;
            budget = budget.min(clock.remaining / moves_left + clock.increment / 2);
        }
        if budget == Duration::MAX && limits.depth.is_none() && limits.nodes.is_none() {
            budget = Engine::DEFAULT_MOVE_TIME;
        }
        budget
    }
}

/// A plain iterative-deepening alpha-beta on disc count and mobility: the engine's first
/// search, enough to drive the front-ends.
struct SimpleSearch<'a> {
    nodes: u64,
    deadline: Option<Instant>,
    node_limit: u64,
    stop: &'a AtomicBool,
    aborted: bool,
    start: Instant,
}

const WIN: i32 = 1_000_000;

impl SimpleSearch<'_> {
    fn iterate<B: Board>(
        &mut self,
        board: &B,
        size: usize,
        max_depth: Option<u32>,
        progress: &mut dyn FnMut(&SearchReport),
    ) -> SearchReport {
        let moves: Vec<usize> = board.moves().collect();
        let mut report = SearchReport {
            best: moves
                .first()
                .map_or(Move::Pass, |&m| Move::Play(Square::from_index(m, size))),
            score: 0,
            exact: false,
            depth: 0,
            nodes: 0,
            elapsed: Duration::ZERO,
            pv: Vec::new(),
        };
        if moves.is_empty() {
            report.exact = board.is_game_over();
            report.score = if report.exact {
                board.final_score() * 100
            } else {
                0
            };
            return report;
        }
        let max_depth = max_depth
            .unwrap_or(board.empties())
            .min(board.empties())
            .max(1);
        for depth in 1..=max_depth {
            let mut best = None;
            let mut alpha = -WIN - 1;
            for &m in &moves {
                let score = -self.negamax(&board.play(m), depth - 1, -WIN - 1, -alpha);
                if self.aborted {
                    break;
                }
                if score > alpha {
                    alpha = score;
                    best = Some(m);
                }
            }
            if self.aborted && depth > 1 {
                break;
            }
            if let Some(m) = best {
                report.best = Move::Play(Square::from_index(m, size));
                report.score = alpha;
            }
            report.depth = depth;
            report.exact = depth >= board.empties();
            report.nodes = self.nodes;
            report.elapsed = self.start.elapsed();
            report.pv = vec![report.best];
            progress(&report);
            if self.aborted || report.exact {
                break;
            }
        }
        report.nodes = self.nodes;
        report.elapsed = self.start.elapsed();
        report
    }

    fn negamax<B: Board>(&mut self, board: &B, depth: u32, mut alpha: i32, beta: i32) -> i32 {
        self.nodes += 1;
        if self.nodes.is_multiple_of(1024)
            && (self.deadline.is_some_and(|d| Instant::now() >= d)
                || self.nodes >= self.node_limit
                || self.stop.load(Ordering::Relaxed))
        {
            self.aborted = true;
        }
        if self.aborted {
            return 0;
        }
        if !board.has_moves() {
            let passed = board.pass();
            if !passed.has_moves() {
                return board.final_score() * 100;
            }
            return -self.negamax(&passed, depth, -beta, -alpha);
        }
        if depth == 0 {
            let mobility = board.move_count() as i32 - board.pass().move_count() as i32;
            return 100 * mobility + board.player_discs() as i32 - board.opponent_discs() as i32;
        }
        for m in board.moves() {
            let score = -self.negamax(&board.play(m), depth - 1, -beta, -alpha);
            if score > alpha {
                alpha = score;
                if alpha >= beta {
                    break;
                }
            }
        }
        alpha
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn search_returns_a_legal_move_on_every_size() {
        let mut engine = Engine::new();
        for size in crate::board::SIZES {
            let start = Position::start(size).unwrap();
            let limits = Limits {
                depth: Some(3),
                ..Limits::default()
            };
            let report = engine.search(&start, &limits, &mut |_| {});
            assert!(start.play(report.best).is_ok(), "{size}: {}", report.best);
        }
    }

    #[test]
    fn unknown_options_are_rejected() {
        let mut engine = Engine::new();
        assert!(engine.set_option("hash", "128").is_ok());
        assert!(engine.set_option("hash", "zero").is_err());
        assert!(engine.set_option("colour", "1").is_err());
    }

    #[test]
    fn the_player_option_hands_searches_to_a_baseline_player() {
        let mut engine = Engine::new();
        assert!(engine.set_option("player", "nobody").is_err());
        engine.set_option("player", "greedy").unwrap();
        engine.set_option("seed", "9").unwrap();
        let player = engine.options().into_iter().find(|o| o.name == "player");
        assert_eq!(player.unwrap().value, "greedy");
        // After f5 d6 c3 d3 c4, greedy takes a move flipping the most discs.
        let start = Position::start(8).unwrap();
        let (position, _) = start.play_transcript("f5d6c3d3c4").unwrap();
        let report = engine.search(&position, &Limits::default(), &mut |_| {});
        let Move::Play(sq) = report.best else {
            panic!("greedy passed")
        };
        let most = position
            .board
            .moves()
            .into_iter()
            .map(|m| position.board.flip_count(m));
        assert_eq!(
            position.board.flip_count(sq.index(8).unwrap()),
            most.max().unwrap()
        );
        assert!(engine.check_size(10).is_ok());
        engine.set_option("player", "squares").unwrap();
        assert!(engine.check_size(8).is_ok());
        assert!(engine.check_size(10).is_err());
        engine.set_option("player", "emilia").unwrap();
        let player = engine.options().into_iter().find(|o| o.name == "player");
        assert_eq!(player.unwrap().value, "emilia");
    }
}
