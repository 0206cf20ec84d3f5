//! What the referee needs from an engine, whatever protocol it speaks, and the ways an
//! engine can fail it.

use std::fmt;
use std::time::{Duration, Instant};

use emilia_core::board::{BoardSize, Color, Move, Position};

/// How an engine failed; the game in progress is lost by that engine.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Fault {
    /// No answer in time. `clock` is set when a game clock or move time ran out, as opposed
    /// to an engine that stopped answering an ordinary command.
    Timeout {
        /// What the engine was asked.
        waiting_for: String,
        /// How long it had (without the referee's margin).
        limit: Duration,
        /// Whether the limit was its move time.
        clock: bool,
    },
    /// The engine exited or closed its output.
    Exited {
        /// What the engine was asked.
        waiting_for: String,
        /// How it ended, when known.
        status: Option<String>,
    },
    /// An answer broken in its form: a line too long to read, a reply not ended as the
    /// protocol asks.
    Malformed {
        /// What the engine was asked.
        waiting_for: String,
        /// What is wrong.
        problem: String,
    },
    /// An answer the protocol does not allow.
    Garbage {
        /// What the engine was asked.
        waiting_for: String,
        /// The offending line.
        line: String,
    },
    /// The engine answered a command with an error.
    Refused {
        /// The command.
        command: String,
        /// Its message.
        message: String,
    },
    /// The engine played a move the rules forbid (the referee's explanation).
    Illegal(String),
    /// The engine resigned.
    Resigned,
    /// The engine could not be started.
    Start(String),
}

impl Fault {
    /// The reason category counted in the report.
    pub(crate) fn kind(&self) -> FaultKind {
        match self {
            Fault::Timeout { clock: true, .. } => FaultKind::Time,
            Fault::Timeout { clock: false, .. } => FaultKind::Hung,
            Fault::Exited { .. } | Fault::Start(_) => FaultKind::Crash,
            Fault::Garbage { .. } | Fault::Malformed { .. } => FaultKind::Garbage,
            Fault::Refused { .. } => FaultKind::Refused,
            Fault::Illegal(_) => FaultKind::Illegal,
            Fault::Resigned => FaultKind::Resigned,
        }
    }

    /// Whether the engine's state is unknown afterwards, so that it must be restarted.
    pub(crate) fn needs_restart(&self) -> bool {
        !matches!(
            self,
            Fault::Refused { .. } | Fault::Illegal(_) | Fault::Resigned
        )
    }
}

impl fmt::Display for Fault {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Fault::Timeout {
                waiting_for,
                limit,
                clock: true,
            } => write!(
                f,
                "time forfeit: no move within its {:.3} s ('{waiting_for}')",
                limit.as_secs_f64()
            ),
            Fault::Timeout {
                waiting_for, limit, ..
            } => write!(
                f,
                "hung: no answer to '{waiting_for}' within {:.1} s",
                limit.as_secs_f64()
            ),
            Fault::Exited {
                waiting_for,
                status,
            } => match status {
                Some(status) => write!(f, "exited ({status}) while answering '{waiting_for}'"),
                None => write!(f, "closed its output while answering '{waiting_for}'"),
            },
            Fault::Malformed {
                waiting_for,
                problem,
            } => write!(f, "malformed answer to '{waiting_for}': {problem}"),
            Fault::Garbage { waiting_for, line } => {
                write!(f, "garbage in answer to '{waiting_for}': '{line}'")
            }
            Fault::Refused { command, message } => {
                write!(f, "refused '{command}': {message}")
            }
            Fault::Illegal(why) => write!(f, "played {why}"),
            Fault::Resigned => f.write_str("resigned"),
            Fault::Start(message) => write!(f, "could not start: {message}"),
        }
    }
}

/// Categories of lost games, as the report counts them.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum FaultKind {
    /// Ran out of its clock or move time.
    Time,
    /// Stopped answering a command that is not a move.
    Hung,
    /// Played an illegal move.
    Illegal,
    /// Answered something the protocol does not allow.
    Garbage,
    /// Exited, crashed or could not start.
    Crash,
    /// Rejected a command it should accept.
    Refused,
    /// Resigned.
    Resigned,
}

impl FaultKind {
    /// All kinds, in report order.
    pub const ALL: [FaultKind; 7] = [
        FaultKind::Time,
        FaultKind::Hung,
        FaultKind::Illegal,
        FaultKind::Garbage,
        FaultKind::Crash,
        FaultKind::Refused,
        FaultKind::Resigned,
    ];

    /// A short label.
    pub fn label(self) -> &'static str {
        match self {
            FaultKind::Time => "time forfeits",
            FaultKind::Hung => "hangs",
            FaultKind::Illegal => "illegal moves",
            FaultKind::Garbage => "garbage answers",
            FaultKind::Crash => "crashes",
            FaultKind::Refused => "refused commands",
            FaultKind::Resigned => "resignations",
        }
    }
}

/// How long an engine may think about one move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct MoveBudget {
    /// Time left on its game clock, when playing with one.
    pub(crate) clock: Option<Duration>,
    /// Increment added after each move, with a clock.
    pub(crate) increment: Duration,
    /// Fixed time for this move, when playing so.
    pub(crate) move_time: Option<Duration>,
    /// Depth limit, when playing so.
    pub(crate) depth: Option<u32>,
    /// The time it may use (its clock or move time, or the hang timeout).
    pub(crate) allowed: Duration,
    /// The moment the answer is overdue: the time it may use plus the margin.
    pub(crate) deadline: Instant,
    /// Whether missing the deadline is a time forfeit (otherwise a hang).
    pub(crate) timed: bool,
}

/// An engine's move with what it said about its search.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Answer {
    /// The move.
    pub(crate) mv: Move,
    /// Search depth, when the engine reports it.
    pub(crate) depth: Option<u32>,
}

/// A game to set up: the start position and the moves already played (an opening).
#[derive(Clone, Debug)]
pub(crate) struct GameSetup {
    /// Board size.
    pub(crate) size: BoardSize,
    /// The moves from the start position, passes included.
    pub(crate) moves: Vec<Move>,
    /// The names of the two players, Black first (for protocols that carry them).
    pub(crate) names: [String; 2],
    /// Each side's game clock at the start, when playing with one.
    pub(crate) clock: Option<Duration>,
    /// Time added to a side's game clock after each of its moves.
    pub(crate) increment: Duration,
    /// Time per move, when playing so.
    pub(crate) move_time: Option<Duration>,
    /// Depth per move, when playing so.
    pub(crate) depth: Option<u32>,
}

impl GameSetup {
    /// The start position of the board.
    pub(crate) fn start(&self) -> Position {
        Position::start_of(self.size)
    }
}

/// An engine the referee drives through one protocol.
pub(crate) trait Client: Send {
    /// The engine's name as it reports it (or its command).
    fn reported_name(&self) -> &str;
    /// Whether the engine can be told a search depth.
    fn supports_depth(&self) -> bool;
    /// Prepares a new game: board size, position and opening moves.
    fn new_game(&mut self, setup: &GameSetup) -> Result<(), Fault>;
    /// Tells the engine that `color` played `mv` (its own move when `own`), having used
    /// `elapsed`.
    fn moved(&mut self, color: Color, mv: Move, own: bool, elapsed: Duration) -> Result<(), Fault>;
    /// Asks for the move of `color`.
    fn genmove(&mut self, color: Color, budget: &MoveBudget) -> Result<Answer, Fault>;
    /// The depth of the search behind the last move, when the engine tells it (asked
    /// after the move, off the clock).
    fn last_depth(&mut self) -> Result<Option<u32>, Fault> {
        Ok(None)
    }
    /// Ends the session politely, then kills the engine if it lingers.
    fn quit(&mut self);
}
