//! A game the engine plays: the engine with the game record and the clocks, so that a
//! front-end (a protocol, a binding, a page) turns its input into calls on one session and
//! the results into its output, and decides nothing about the search itself.

use std::time::Duration;

use crate::platform::Instant;

use crate::board::{Color, Move};
use crate::game::{Game, PlayError};
use crate::score::Score;
use crate::search::{Clock, Limits, MoveScore, SearchReport};

use super::clocks::GameClocks;
use super::{Engine, OptionError, PonderHit, SizeError};

/// Where a session's clocks come from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Timekeeping {
    /// A referee tells them ([`Session::clocks_mut`]); the session counts its own moves
    /// off them in between. Hints are timed by them too.
    Told,
    /// The game record's clocks (a GGF game's `TI` and the times of its moves) time the
    /// moves and the analysis; hints are not timed.
    Record,
}

/// A move chosen by [`Session::go`] or [`Session::choose`], not yet played.
#[derive(Clone, Debug)]
pub struct Choice {
    /// The move: a pass when the mover has no other.
    pub mv: Move,
    /// The search that chose it, `None` for a forced pass.
    pub report: Option<SearchReport>,
    /// Whether the search started from what pondering found, and how.
    pub ponder_hit: Option<PonderHit>,
    /// The time taken to choose.
    pub used: Duration,
    color: Color,
    /// The game with any implicit pass before the move.
    game: Game,
}

/// How a [`Session::solve`] ended.
#[derive(Clone, Debug, PartialEq)]
pub enum Solved {
    /// Solved to the end of the game: the score is exact.
    Exact(SearchReport),
    /// Stopped by a stop request: the best found so far.
    Stopped(SearchReport),
    /// Cut short by its own limits before the end of the game.
    Unfinished(SearchReport),
}

/// Why an option keeps its value ([`Session::set_option`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SetOptionError {
    /// The name or value is refused.
    Option(OptionError),
    /// With this value the engine cannot play the session's board.
    Size {
        /// The option.
        name: String,
        /// Why the board cannot be played.
        error: SizeError,
        /// The board's side.
        size: usize,
    },
}

impl std::fmt::Display for SetOptionError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            SetOptionError::Option(e) => e.fmt(f),
            SetOptionError::Size { name, error, size } => {
                write!(f, "option {name}: {error}, and the board is {size}x{size}")
            }
        }
    }
}

impl std::error::Error for SetOptionError {}

/// The engine playing one game: the record, the clocks and the last search.
///
/// ```
/// use emilia_core::engine::{Config, Engine, Session, Source, Timekeeping};
/// use emilia_core::search::Limits;
///
/// # fn main() -> Result<(), Box<dyn std::error::Error>> {
/// let engine = Engine::new(Config {
///     hash_mib: 16,
///     book: Source::Off,
///     ..Config::default()
/// })?;
/// let mut session = Session::new(engine, Timekeeping::Record);
/// session.set_option("threads", "1")?;
/// session.new_game(6)?;
/// assert!(session.new_game(7).is_err());
///
/// // The engine chooses a move for each side in turn, and plays it.
/// let limits = Limits {
///     depth: Some(4),
///     ..Limits::default()
/// };
/// for _ in 0..2 {
///     let choice = session.go(None, limits.clone(), &mut |_| {})?;
///     assert!(session.game().position().legal_moves().contains(&choice.mv));
///     assert_eq!(choice.report.as_ref().map(|r| r.depth), Some(4));
///     session.play_choice(choice)?;
/// }
/// assert_eq!(session.game().plies().len(), 2);
/// assert_eq!(session.game().transcript().len(), 4);
/// assert_eq!(session.last_search().map(|(report, _)| report.depth), Some(4));
/// # Ok(())
/// # }
/// ```
pub struct Session {
    engine: Engine,
    game: Game,
    clocks: GameClocks,
    timekeeping: Timekeeping,
    /// The last [`Session::go`] search and whether it started from pondering.
    last_search: Option<(SearchReport, Option<PonderHit>)>,
}

impl Session {
    /// A session of `engine` on the 8x8 start position.
    pub fn new(engine: Engine, timekeeping: Timekeeping) -> Session {
        Session {
            engine,
            game: Game::standard(8).expect("8x8 is supported"),
            clocks: GameClocks::default(),
            timekeeping,
            last_search: None,
        }
    }

    /// The engine.
    pub fn engine(&self) -> &Engine {
        &self.engine
    }

    /// The game so far.
    pub fn game(&self) -> &Game {
        &self.game
    }

    /// The game, to play or take back moves; a new game goes through
    /// [`Session::set_game`], which checks that the engine can play its board.
    pub fn game_mut(&mut self) -> &mut Game {
        &mut self.game
    }

    /// The clocks a referee tells ([`Timekeeping::Told`]).
    pub fn clocks_mut(&mut self) -> &mut GameClocks {
        &mut self.clocks
    }

    /// Replaces the game, unless the engine cannot play its board.
    pub fn set_game(&mut self, game: Game) -> Result<(), SizeError> {
        self.engine.check_size(game.position().size())?;
        self.game = game;
        Ok(())
    }

    /// A new game from the start position of side `size`.
    pub fn new_game(&mut self, size: usize) -> Result<(), SizeError> {
        self.engine.check_size(size)?;
        self.set_game(Game::standard(size).map_err(|_| SizeError::Unplayable(size))?)
    }

    /// Sets engine option `name` to `value`. A value with which the engine cannot play the
    /// session's board (a baseline player of 8x8 only, on 6x6) is refused and the option
    /// keeps its value, as a board the engine cannot play is refused.
    pub fn set_option(&mut self, name: &str, value: &str) -> Result<(), SetOptionError> {
        let before = self.engine.option(name);
        self.engine
            .set_option(name, value)
            .map_err(SetOptionError::Option)?;
        let size = self.game.position().size();
        if let Err(error) = self.engine.check_size(size) {
            if let Some(before) = before {
                let _ = self.engine.set_option(name, &before);
            }
            let name = name.to_string();
            return Err(SetOptionError::Size { name, error, size });
        }
        Ok(())
    }

    /// `limits` for a search by `color`, with the clock it keeps when they give none: the
    /// told clocks (a clock given in `limits` gets their increment) or the record's.
    pub fn limits(&self, mut limits: Limits, color: Color) -> Limits {
        limits.clock = match self.timekeeping {
            Timekeeping::Told => self.clocks.for_search(color, limits.clock),
            Timekeeping::Record => limits.clock.or_else(|| {
                let remaining = self.game.time_left(color)?;
                let increment = self
                    .game
                    .clock(color)
                    .map_or(Duration::ZERO, |c| c.increment);
                Some(Clock {
                    remaining,
                    increment,
                    moves_to_go: None,
                })
            }),
        };
        limits
    }

    /// Chooses the move to play for `color` (the side to move when `None`; the other side
    /// after an implicit pass when the side to move has none) within `limits` and the
    /// clock, without playing it; the reply the move expects is pondered while the
    /// front-end waits ([`Session::wait_pondering`]). Refused when the game is over or it
    /// is not `color`'s turn.
    pub fn go(
        &mut self,
        color: Option<Color>,
        limits: Limits,
        progress: &mut dyn FnMut(&SearchReport),
    ) -> Result<Choice, PlayError> {
        let choice = self.pick(color, limits, true, progress)?;
        self.last_search = choice.report.clone().map(|r| (r, choice.ponder_hit));
        Ok(choice)
    }

    /// The move [`Session::go`] would choose, for a look only: nothing is pondered or kept.
    pub fn choose(
        &mut self,
        color: Option<Color>,
        limits: Limits,
        progress: &mut dyn FnMut(&SearchReport),
    ) -> Result<Choice, PlayError> {
        self.pick(color, limits, false, progress)
    }

    fn pick(
        &mut self,
        color: Option<Color>,
        limits: Limits,
        playing: bool,
        progress: &mut dyn FnMut(&SearchReport),
    ) -> Result<Choice, PlayError> {
        if self.game.is_over() {
            return Err(self.game.over_error());
        }
        let color = color.unwrap_or(self.game.position().to_move);
        // The turn is checked on a copy: the game changes only once a move is played.
        let mut game = self.game.clone();
        game.turn_for(color)?;
        let start = Instant::now();
        let progress = &mut |r: &SearchReport| {
            log_iteration(r);
            progress(r)
        };
        let (report, ponder_hit) = if game.must_pass() {
            (None, None)
        } else {
            let position = *game.position();
            let limits = self.limits(limits, color);
            log::info!("search for {color} with {limits:?}");
            if playing {
                let (report, hit) = self.engine.go(&position, &limits, progress);
                (Some(report), hit)
            } else {
                (Some(self.engine.search(&position, &limits, progress)), None)
            }
        };
        Ok(Choice {
            mv: report.as_ref().map_or(Move::Pass, |r| r.best),
            report,
            ponder_hit,
            used: start.elapsed(),
            color,
            game,
        })
    }

    /// Plays `choice` (from this session's game as it still is), annotated with its
    /// evaluation and time, and counts the time off the mover's clock.
    pub fn play_choice(&mut self, choice: Choice) -> Result<(), PlayError> {
        let Choice {
            mv,
            report,
            used,
            color,
            mut game,
            ..
        } = choice;
        let eval = report.as_ref().map(|r| r.score.discs());
        game.play_annotated(mv, eval, Some(used.as_secs_f64()))?;
        self.game = game;
        self.clocks.spend(color, used);
        Ok(())
    }

    /// The last [`Session::go`] search (none for a forced pass), and whether it started
    /// from what pondering found.
    pub fn last_search(&self) -> Option<&(SearchReport, Option<PonderHit>)> {
        self.last_search.as_ref()
    }

    /// The best `count` moves of the side to move ([`Engine::hint`]), timed by the told
    /// clocks; refused when the game is over.
    pub fn hint(
        &mut self,
        count: usize,
        limits: Limits,
        progress: &mut dyn FnMut(&SearchReport, &[MoveScore]),
    ) -> Result<Vec<MoveScore>, PlayError> {
        if self.game.is_over() {
            return Err(self.game.over_error());
        }
        let position = *self.game.position();
        let limits = match self.timekeeping {
            Timekeeping::Told => self.limits(limits, position.to_move),
            Timekeeping::Record => limits,
        };
        Ok(self.engine.hint(&position, count, &limits, progress))
    }

    /// Solves the position exactly ([`Engine::solve`]); refused when the game is over.
    pub fn solve(
        &mut self,
        limits: Limits,
        progress: &mut dyn FnMut(&SearchReport),
    ) -> Result<Solved, PlayError> {
        if self.game.is_over() {
            return Err(self.game.over_error());
        }
        let position = *self.game.position();
        let report = self.engine.solve(&position, &limits, &mut |r| {
            log_iteration(r);
            progress(r)
        });
        Ok(if report.exact {
            Solved::Exact(report)
        } else if self.engine.stopper().pending() {
            Solved::Stopped(report)
        } else {
            Solved::Unfinished(report)
        })
    }

    /// Retrograde analysis: every position of the game from the last to the first, each
    /// searched within `limits` and the clock of its mover (a finished game's last one
    /// scored as it ends), told to `each` with the moves made before it; ends early when
    /// `each` returns false or a stop request is pending.
    pub fn analyze(&mut self, limits: &Limits, each: &mut dyn FnMut(usize, Score) -> bool) {
        let positions = self.game.positions().to_vec();
        for (moves_made, position) in positions.iter().enumerate().rev() {
            if self.engine.stopper().pending() {
                return;
            }
            let score = if position.is_game_over() {
                Score::from_discs(position.board.final_score())
            } else {
                let limits = self.limits(limits.clone(), position.to_move);
                self.engine.search(position, &limits, &mut |_| {}).score
            };
            if !each(moves_made, score) {
                return;
            }
        }
    }

    /// Runs `wait` (the front-end waits there for its next input) while the engine
    /// ponders, if it is to ([`Engine::wait_pondering`]); returns what `wait` returned.
    pub fn wait_pondering<T>(&mut self, wait: impl FnOnce() -> T) -> T {
        let now = *self.game.position();
        self.engine.wait_pondering(&now, wait)
    }
}

/// Logs a finished iteration of a move's search or a solve.
fn log_iteration(report: &SearchReport) {
    let pv: Vec<String> = report.pv.iter().map(Move::to_string).collect();
    log::info!(
        "depth {} score {} nodes {} time {:.3}s pv {}",
        report.depth,
        report.score,
        report.nodes,
        report.elapsed.as_secs_f64(),
        pv.join(" ")
    );
}
