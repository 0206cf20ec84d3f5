//! The persistent engine that front-ends drive: it is told positions and limits, searches,
//! and keeps what it learned between moves and games. It knows nothing of any protocol.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use anyhow::{anyhow, bail, Result};

use crate::board::{Board, Move, Position};
use crate::endgame::Solvers;
use crate::eval::{Classic, EvalKind, Pattern, Squares, Weights};
use crate::players::{self, BaselinePlayer};
use crate::search::{self, exact8, tt::TranspositionTable};
use crate::timeman;
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
    threads: usize,
    eval: EvalKind,
    /// Deepest iteration allowed by the `depth` option (0 = no cap).
    depth_cap: u32,
    /// ProbCut margin in tenths of a standard deviation, 0 for none (option `probcut`).
    probcut: u32,
    tt: TranspositionTable,
    /// The exact endgame solvers, created on first use with tables of `hash` MiB.
    solver: Option<Solvers>,
    /// The pattern evaluation; `None` only if the built-in weights failed to load (then the
    /// engine falls back to the classic evaluation).
    pattern: Option<Pattern>,
    /// The weights file the pattern evaluation uses; empty for the built-in weights.
    weights_file: String,
    classic: Classic,
    squares: Squares,
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

    /// Default ProbCut margin, tenths of a standard deviation.
    pub const DEFAULT_PROBCUT: u32 = 10;

    /// Default transposition table size, MiB.
    pub const DEFAULT_HASH_MIB: usize = 64;

    /// An engine with default options.
    pub fn new() -> Engine {
        Engine::with_hash(Engine::DEFAULT_HASH_MIB)
    }

    /// An engine with default options and a transposition table of `mib` MiB.
    pub fn with_hash(mib: usize) -> Engine {
        let pattern = Pattern::embedded()
            .map_err(|e| log::error!("pattern evaluation unavailable: {e:#}"))
            .ok();
        Engine {
            threads: 1,
            eval: if pattern.is_some() {
                EvalKind::Pattern
            } else {
                EvalKind::Classic
            },
            pattern,
            weights_file: String::new(),
            depth_cap: 0,
            probcut: Engine::DEFAULT_PROBCUT,
            tt: TranspositionTable::new(mib.clamp(1, 65536)),
            solver: None,
            classic: Classic::default(),
            squares: Squares::default(),
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

    /// Replaces the weights of the classic evaluation (for tuning experiments).
    pub fn set_classic_weights(&mut self, weights: &Weights) {
        self.classic = Classic::new(weights);
    }

    /// Forgets what earlier searches learned (empties the transposition table).
    pub fn clear_hash(&mut self) {
        self.tt.clear();
        if let Some(solver) = self.solver.as_mut() {
            solver.clear();
        }
    }

    /// The options and their current values.
    pub fn options(&self) -> Vec<OptionInfo> {
        vec![
            OptionInfo {
                name: "hash",
                value: self.tt.mib().to_string(),
                help: "transposition table size in MiB (1 to 65536)",
            },
            OptionInfo {
                name: "threads",
                value: self.threads.to_string(),
                help: "search threads (1 to 64)",
            },
            OptionInfo {
                name: "eval",
                value: self.eval.to_string(),
                help: "evaluation: pattern (learned pattern weights, 8x8; classic on other \
                       sizes), classic (stage-weighted features) or squares (square table only)",
            },
            OptionInfo {
                name: "probcut",
                value: self.probcut.to_string(),
                help: "ProbCut margin in tenths of a standard deviation: midgame lines a shallow \
                       search puts this far outside the window are pruned; 0 turns it off \
                       (0 to 100)",
            },
            OptionInfo {
                name: "weights",
                value: if self.weights_file.is_empty() {
                    "builtin".to_string()
                } else {
                    self.weights_file.clone()
                },
                help: "the pattern evaluation's weights: builtin, or the path of a weights \
                       file written by emilia train",
            },
            OptionInfo {
                name: "depth",
                value: self.depth_cap.to_string(),
                help: "deepest midgame iteration in plies, 0 for no cap (0 to 200)",
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
                if mib != self.tt.mib() {
                    self.tt = TranspositionTable::new(mib);
                    self.solver = None;
                }
            }
            "threads" => {
                let threads = number()?;
                if !(1..=64).contains(&threads) {
                    bail!("option threads: {threads} is out of range 1 to 64");
                }
                self.threads = threads;
            }
            "eval" => {
                let eval = value
                    .parse()
                    .map_err(|e: String| anyhow!("option eval: {e}"))?;
                if eval == EvalKind::Pattern && self.pattern.is_none() {
                    bail!("option eval: the pattern weights failed to load");
                }
                self.eval = eval;
            }
            "probcut" => {
                let tenths = number()?;
                if tenths > 100 {
                    bail!("option probcut: {tenths} is out of range 0 to 100");
                }
                self.probcut = tenths as u32;
            }
            "weights" => {
                if value.is_empty() || value.eq_ignore_ascii_case("builtin") {
                    self.pattern = Some(Pattern::embedded().map_err(|e| anyhow!("{e:#}"))?);
                    self.weights_file.clear();
                } else {
                    let pattern = Pattern::from_file(std::path::Path::new(value))
                        .map_err(|e| anyhow!("option weights: {e:#}"))?;
                    self.pattern = Some(pattern);
                    self.weights_file = value.to_string();
                }
            }
            "depth" => {
                let depth = number()?;
                if depth > 200 {
                    bail!("option depth: {depth} is out of range 0 to 200");
                }
                self.depth_cap = depth as u32;
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
    /// called after every finished iteration. With option `player` set, the baseline
    /// player chooses instead.
    pub fn search(
        &mut self,
        position: &Position,
        limits: &Limits,
        progress: &mut dyn FnMut(&SearchReport),
    ) -> SearchReport {
        if let Some(player) = self.player.as_mut() {
            let start = std::time::Instant::now();
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
        self.run(position, limits, false, progress).report
    }

    /// Solves `position` exactly: searches to the end of the game unless `limits` (time,
    /// nodes, or the stop flag) cut it short; `exact` in the report says which.
    pub fn solve(
        &mut self,
        position: &Position,
        limits: &Limits,
        progress: &mut dyn FnMut(&SearchReport),
    ) -> SearchReport {
        let (_, _, empties) = position.board.counts();
        let limits = Limits {
            depth: Some(empties.max(1)),
            ..limits.clone()
        };
        self.run(position, &limits, false, progress).report
    }

    /// The best `count` moves of `position` with their scores, best first: every move is
    /// searched with a full window within one shared set of `limits`.
    pub fn hint(&mut self, position: &Position, count: usize, limits: &Limits) -> Vec<MoveScore> {
        let mut scores = self.run(position, limits, true, &mut |_| {}).root_scores;
        scores.truncate(count);
        scores
    }

    fn run(
        &mut self,
        position: &Position,
        limits: &Limits,
        score_all_moves: bool,
        progress: &mut dyn FnMut(&SearchReport),
    ) -> search::Outcome {
        let start = Instant::now();
        self.stop.store(false, Ordering::Relaxed);
        self.tt.new_search();
        let size = position.size();
        let (_, _, empties) = position.board.counts();
        let plan = timeman::plan(
            limits,
            empties,
            timeman::solve_empties(size),
            Engine::DEFAULT_MOVE_TIME,
        );
        let mut max_depth = limits.depth.unwrap_or(u32::MAX);
        if self.depth_cap > 0 {
            max_depth = max_depth.min(self.depth_cap);
        }
        let stop = Arc::clone(&self.stop);
        let control = search::Control {
            max_depth,
            node_limit: limits.nodes.unwrap_or(u64::MAX),
            plan,
            stop: &stop,
            score_all_moves,
            probcut: self.probcut,
        };
        let has_moves = with_board!(&position.board, b => b.has_moves());
        if !score_all_moves && has_moves {
            if let Some(exact) = exact8::plan(size, empties, &plan, max_depth) {
                return self.run_exact(position, exact, &control, start, progress);
            }
        }
        self.midgame(position, &control, progress)
    }

    /// The midgame search with the chosen evaluation.
    fn midgame(
        &mut self,
        position: &Position,
        control: &search::Control,
        progress: &mut dyn FnMut(&SearchReport),
    ) -> search::Outcome {
        let tt = &mut self.tt;
        match (self.eval, &self.pattern) {
            (EvalKind::Pattern, Some(pattern)) => with_board!(&position.board, b => {
                search::search(b, pattern, tt, control, progress)
            }),
            (EvalKind::Classic | EvalKind::Pattern, _) => with_board!(&position.board, b => {
                search::search(b, &self.classic, tt, control, progress)
            }),
            (EvalKind::Squares, _) => with_board!(&position.board, b => {
                search::search(b, &self.squares, tt, control, progress)
            }),
        }
    }

    /// A search handed to the exact solver as `exact` plans: a short midgame search for a
    /// fallback move, then the solve; the fallback stands if the solve is cut short.
    fn run_exact(
        &mut self,
        position: &Position,
        exact: exact8::ExactPlan,
        control: &search::Control,
        start: Instant,
        progress: &mut dyn FnMut(&SearchReport),
    ) -> search::Outcome {
        let mut fallback = None;
        if let Some(plan) = exact.midgame {
            let first = search::Control { plan, ..*control };
            let outcome = self.midgame(position, &first, progress);
            if outcome.report.exact || control.stop.load(Ordering::Relaxed) {
                return outcome;
            }
            fallback = Some(outcome);
        }
        let used = fallback.as_ref().map_or(0, |o| o.report.nodes);
        let mib = self.tt.mib();
        let solver = self.solver.get_or_insert_with(|| Solvers::new(mib));
        let max_nodes =
            (control.node_limit != u64::MAX).then(|| control.node_limit.saturating_sub(used));
        match exact8::solve(
            solver,
            &position.board,
            start,
            exact.deadline,
            control.stop,
            max_nodes,
        ) {
            Some(mut report) => {
                report.nodes += used;
                progress(&report);
                search::Outcome {
                    report,
                    root_scores: Vec::new(),
                }
            }
            None => match fallback {
                Some(outcome) => outcome,
                None => self.midgame(position, control, progress),
            },
        }
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
            let timed = Limits {
                move_time: Some(Duration::from_millis(20)),
                ..Limits::default()
            };
            let report = engine.search(&start, &timed, &mut |_| {});
            assert!(start.play(report.best).is_ok(), "{size}: {}", report.best);
        }
    }

    #[test]
    fn the_exact_solver_takes_over_near_the_end_on_every_size() {
        let mut engine = Engine::with_hash(4);
        let mut solvers = crate::endgame::Solvers::new(1);
        for size in crate::board::SIZES {
            // A game between shallow searches, to 12 empties.
            let mut position = Position::start(size).unwrap();
            let shallow = Limits {
                depth: Some(1),
                ..Limits::default()
            };
            while position.board.counts().2 > 12 && !position.is_game_over() {
                let report = engine.search(&position, &shallow, &mut |_| {});
                position = position.play(report.best).unwrap();
            }
            if !with_board!(&position.board, b => b.has_moves()) {
                continue;
            }
            let timed = Limits {
                move_time: Some(Duration::from_secs(2)),
                ..Limits::default()
            };
            let report = engine.search(&position, &timed, &mut |_| {});
            assert!(report.exact, "{size}: {report:?}");
            let expected = solvers.solve_exact(&position.board).score;
            assert_eq!(report.score, expected * 100, "{size}");
            // The move played keeps the score.
            let after = position.play(report.best).unwrap();
            let reply = solvers.solve_exact(&after.board).score;
            assert_eq!(-reply, expected, "{size}: {}", report.best);
        }
    }

    #[test]
    fn the_pattern_evaluation_is_the_default_and_classic_stays_selectable() {
        let mut engine = Engine::new();
        let eval = |e: &Engine| {
            e.options()
                .into_iter()
                .find(|o| o.name == "eval")
                .map(|o| o.value)
        };
        assert_eq!(eval(&engine).as_deref(), Some("pattern"));
        let start = Position::start(8).unwrap();
        let limits = Limits {
            depth: Some(4),
            ..Limits::default()
        };
        for kind in ["classic", "squares", "pattern"] {
            engine.set_option("eval", kind).unwrap();
            assert_eq!(eval(&engine).as_deref(), Some(kind));
            let report = engine.search(&start, &limits, &mut |_| {});
            assert!(start.play(report.best).is_ok(), "{kind}: {}", report.best);
        }
        assert!(engine.set_option("eval", "neural").is_err());
        // Another weights file, refused with the reason when it is not one.
        let err = engine
            .set_option("weights", "Cargo.toml")
            .unwrap_err()
            .to_string();
        assert!(err.contains("not an Emilia weights file"), "{err}");
        assert!(engine
            .set_option("weights", "weights/emilia.weights")
            .is_ok());
        assert!(engine.set_option("weights", "builtin").is_ok());
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
        let mut engine = Engine::with_hash(1);
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
