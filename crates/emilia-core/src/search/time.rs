//! Time management: how long to think about one move. Every time margin of the program
//! lives here; front-ends only read clocks (GTP's `time_settings` and `time_left`,
//! `genmove <ms>`, NBoard's GGF clocks, a move time) into [`Limits`], and [`plan`] turns
//! them and the position into a [`TimePlan`].
//!
//! A plan has a soft target (no new iteration starts after [`SOFT_START_SHARE`] of it, as
//! the next one would likely not finish; the search scales it by how settled its choice
//! is, `Stability`) and a hard deadline at which the search stops and answers, plus a
//! backstop that a `Watchdog` enforces whatever the search does.
//!
//! **Margins** ([`Margins`]) keep back time the search's own clock does not see:
//! - a fixed move time is used up to a quarter of short times, or 1 ms plus 5 %, at most
//!   50 ms;
//! - a game clock keeps back 3 ms for every own move still to play (reading the command,
//!   writing the answer, process switches: time the referee counts and the search does
//!   not), 10 ms for a pause of a busy machine, and 5 % of what is left; and at least half
//!   of a short clock up to 20 ms, so that with about 10 ms left the move is played at
//!   once. What remains is the usable time;
//! - on a loaded machine the clock's pause grows by twice the scheduling delay the
//!   `Watchdog` measured during the latest searches, a fixed move time's by three times,
//!   and what is kept back for every own move by half of it;
//! - on a game clock, what the clock's owner counted beyond the engine's own time for the
//!   previous moves (`UnseenTime`, learned from the remaining clock each search is given):
//!   every move still to play keeps back the recent mean of that loss, the largest recent
//!   loss is kept back once, and 30 % of a game's clock, at most 300 ms, is kept back from
//!   its first move to its last.
//!
//! **Budget** on a game clock: the plan expects the exact solve at the most empties whose
//! expected solve takes at most [`SOLVE_PLAN_SHARE`] of the time to come
//! (`planned_solve_empties`, never fewer than the size's usual point, `solve_empties`), and
//! keeps twice that solve's expected time for it until the solving move. The rest of the
//! usable time is shared over the mover's moves that still need a search
//! (`moves_to_search`: those before the planned solve, and the solving move), each by its
//! weight for its stage of the game (`phase_weight`: the midgame more, the opening and the
//! moves just before the solve less), or evenly over the moves to play before the clock
//! is renewed, in byo-yomi; on a sudden-death clock the increments the moves after the
//! solve will earn (they are played at once) join the usable time, and each move spends
//! three quarters of its own increment besides; the moves at the planned solve get
//! [`SOLVE_BONUS`] times as much, and the hard deadline is four times the target. No
//! search may take more than half the usable time, nor (backstop) more than half of what
//! is left on the clock.
//!
//! **Exact solving** on every size (`ExactPlan`): the solver takes over once it is
//! expected to finish within the hard deadline (by a time model per board size); a short
//! midgame search first finds a fallback move.

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{mpsc, Arc};
use std::thread;
use std::time::Duration;

use crate::platform::Instant;

use super::Limits;
use crate::board::Position;

/// A new iteration starts only before this share of the soft limit has passed.
pub const SOFT_START_SHARE: f64 = 0.6;

/// Budget multiplier for the moves where the exact endgame becomes solvable.
pub const SOLVE_BONUS: f64 = 2.5;

/// Share of empty squares at which a move's weight in the clock's sharing peaks (36
/// empties on 8x8).
const PHASE_PEAK: f64 = 0.56;
/// How far from the peak, in shares of empty squares, the weight's rise above its floor
/// falls to 1/e of its height (10 empties on 8x8).
const PHASE_WIDTH: f64 = 0.16;
/// A move's weight at the peak.
const PHASE_HIGH: f64 = 1.4;
/// A move's weight far from the peak: the opening, the moves just before the solve.
const PHASE_LOW: f64 = 0.6;

/// The time kept back from deadlines for what the search's own clock does not see.
///
/// The fixed parts stand for the pause a busy machine imposes on the process (waiting for
/// a core while the wall clock runs); [`Margins::with_delay`] raises them by the scheduling
/// delay measured while running.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Margins {
    /// Kept back from a game clock for every own move still to play.
    pub per_move: Duration,
    /// Kept back once from a game clock.
    pub clock_pause: Duration,
    /// Kept back once from a fixed move time (with a share of it, see the module docs).
    pub move_time_pause: Duration,
    /// Kept back once from a game clock besides its pause: what the engine learned of the time it does not see pass.
    pub clock_reserve: Duration,
}

impl Margins {
    /// The margins measured on a machine under load (docs/experiments.md, Time).
    pub const DEFAULT: Margins = Margins {
        per_move: Duration::from_millis(3),
        clock_pause: Duration::from_millis(10),
        move_time_pause: Duration::from_millis(1),
        clock_reserve: Duration::ZERO,
    };

    /// These margins with the pauses raised by the scheduling delay measured lately
    /// (`Watchdog::delay`): on a loaded machine the process waits that long for a core,
    /// once when the deadline passes unseen and once more before the answer is read (twice
    /// the delay on a game clock). A fixed move time is spent to its end, so the wait before
    /// the command is read comes out of it too: three times the delay. Every move to come
    /// waits so too, the instant ones after the exact solve included: half the delay each
    /// (the delay is the largest wait seen). The measurements behind these factors are in
    /// docs/experiments.md (Time).
    pub fn with_delay(&self, delay: Duration) -> Margins {
        Margins {
            per_move: self.per_move + delay / 2,
            clock_pause: self.clock_pause + delay * 2,
            move_time_pause: self.move_time_pause + delay * 3,
            ..*self
        }
    }

    /// Time kept back from a fixed move time: a quarter of short times, the pause plus
    /// 5 % of longer ones, at most 50 ms.
    pub fn move_time(&self, move_time: Duration) -> Duration {
        (move_time / 4)
            .min(self.move_time_pause + move_time / 20)
            .min(Duration::from_millis(50))
    }

    /// Time kept back from a game clock of `remaining` with `own_moves` still to play: the
    /// overhead of every move, one pause and 5 %, and at least half of a short clock up to
    /// 20 ms; never more than the clock.
    pub fn clock(&self, remaining: Duration, own_moves: u32) -> Duration {
        let overhead = self.per_move * own_moves + self.clock_pause + remaining / 20;
        let short_clock = (remaining / 2).min(Duration::from_millis(20));
        (overhead + self.clock_reserve)
            .max(short_clock)
            .min(remaining)
    }
}

/// Share of a short game clock kept back from the start to the end of the game
/// ([`UnseenTime`]), at most [`MOST_CLOCK_RESERVE`].
const CLOCK_RESERVE_SHARE: f64 = 0.3;
/// The most kept back of a game clock whatever its length.
const MOST_CLOCK_RESERVE: Duration = Duration::from_millis(300);
/// Share of the largest unseen time kept from one move to the next.
const UNSEEN_DECAY: f64 = 0.9;
/// How far a clock may be above what the last move left on it (whole milliseconds) and
/// still be the same clock.
const CLOCK_ROUNDING: Duration = Duration::from_millis(2);

/// The time a game clock's owner (a referee) counts and the engine does not see, learned
/// from the remaining clock each search is given: what the previous move left on the same
/// side's clock (its remaining time and increment less the engine's own time for it)
/// against what the clock now says. The difference is the time lost outside the search:
/// waiting for a core before the command was read and after the answer was written, the
/// pipes, the referee's own latency. On a loaded machine it can reach hundreds of
/// milliseconds for one move, which no clock inside the engine sees.
///
/// What it keeps back ([`UnseenTime::margins`]): every move still to play costs the
/// recent mean of that loss (when more than [`Margins::per_move`]); the largest recent
/// loss (fading by [`UNSEEN_DECAY`] a move) is kept once; and from the start of a game a
/// share of its clock, [`CLOCK_RESERVE_SHARE`] up to [`MOST_CLOCK_RESERVE`], is never
/// planned for, so that a short clock still has room for a pause it has not seen yet.
#[derive(Clone, Debug, Default)]
pub(crate) struct UnseenTime {
    /// Per side, the latest search on its game clock.
    last: [Option<ClockMove>; 2],
    /// Per side, the largest clock seen since its game began.
    game_clock: [Duration; 2],
    /// The largest loss of a move lately.
    largest: Duration,
    /// The mean loss of the latest moves (a quarter to the newest).
    mean: Duration,
}

/// A search on a game clock, as [`UnseenTime`] remembers it.
#[derive(Clone, Copy, Debug)]
struct ClockMove {
    remaining: Duration,
    increment: Duration,
    empties: u32,
    used: Duration,
}

impl UnseenTime {
    /// Learns from the sudden-death `clock` of `side` (0 or 1) given to a search with
    /// `empties` empty squares. A clock that is not the continuation of the side's last
    /// one (more empties, or more time than the last move left) starts a new game.
    pub(crate) fn observe(&mut self, side: usize, clock: &super::Clock, empties: u32) {
        if clock.moves_to_go.is_some() {
            return;
        }
        let continued = self.last[side].and_then(|last| {
            let left = (last.remaining + last.increment).saturating_sub(last.used);
            (empties < last.empties && clock.remaining <= left + CLOCK_ROUNDING)
                .then(|| left.saturating_sub(clock.remaining))
        });
        match continued {
            Some(lost) => {
                self.largest = lost.max(self.largest.mul_f64(UNSEEN_DECAY));
                self.mean = self.mean * 3 / 4 + lost / 4;
                self.game_clock[side] = self.game_clock[side].max(clock.remaining);
            }
            None => self.game_clock[side] = clock.remaining,
        }
    }

    /// Remembers that `side`'s search on `clock` with `empties` empty squares took `used`.
    pub(crate) fn record(
        &mut self,
        side: usize,
        clock: &super::Clock,
        empties: u32,
        used: Duration,
    ) {
        self.last[side] = clock.moves_to_go.is_none().then_some(ClockMove {
            remaining: clock.remaining,
            increment: clock.increment,
            empties,
            used,
        });
    }

    /// `margins` raised by what was learned, for a search of `side`.
    pub(crate) fn margins(&self, margins: Margins, side: usize) -> Margins {
        let game_reserve = self.game_clock[side]
            .mul_f64(CLOCK_RESERVE_SHARE)
            .min(MOST_CLOCK_RESERVE);
        Margins {
            per_move: margins.per_move.max(self.mean),
            clock_reserve: margins.clock_reserve + game_reserve + self.largest,
            ..margins
        }
    }

    /// The largest and the mean loss of the latest moves.
    pub(crate) fn lately(&self) -> (Duration, Duration) {
        (self.largest, self.mean)
    }
}

/// Empties at which the exact endgame usually becomes solvable within a move's time, per
/// board size: those moves get more time.
pub fn solve_empties(size: usize) -> u32 {
    match size {
        6 => 18,
        8 => 16,
        10 => 12,
        _ => 10,
    }
}

/// Moves the side to move still has to play, at most, with `empties` empty squares.
pub fn own_moves_left(empties: u32) -> u32 {
    empties.div_ceil(2).max(1)
}

/// Own moves that still need a search of their own, with `empties` empty squares and the
/// exact solve planned at `solve_at` empties: those before the solve, and the move that
/// solves. The moves after a solve come from the solver's table at once, so time budgeted
/// for them was left unused on the clock at the end of the game.
pub(crate) fn moves_to_search(empties: u32, solve_at: u32) -> u32 {
    (own_moves_left(empties.saturating_sub(solve_at)) + 1).min(own_moves_left(empties))
}

/// Share of the time still to come (the usable clock and the increments of the moves
/// after the solve) that the planned exact solve may be expected to take.
pub const SOLVE_PLAN_SHARE: f64 = 0.15;

/// Empties at which a game clock's plan expects the exact solve, with `usable` time on the
/// clock and `increment` after each move: the most whose expected solve time
/// ([`estimated_solve_time`]) is within [`SOLVE_PLAN_SHARE`] of the time to come, and at
/// least the size's usual point ([`solve_empties`]). The solver takes over once a solve
/// fits in a move's time, which on a longer clock is further from the end than the usual
/// point: a plan down to that point left the moves in between unplayed, their time unused.
pub(crate) fn planned_solve_empties(size: usize, usable: Duration, increment: Duration) -> u32 {
    let squares = (size * size) as u32;
    let mut at = solve_empties(size);
    while at < squares {
        let next = at + 1;
        let to_come = usable + increment * own_moves_left(next);
        let expected = estimated_solve_time(size, next);
        if expected.as_secs_f64() > to_come.as_secs_f64() * SOLVE_PLAN_SHARE {
            break;
        }
        at = next;
    }
    at
}

/// The clock a plan keeps for the solve at `solve_at` empties: twice its expected time,
/// as no search may take more than half of the usable clock.
fn solve_reserve(size: usize, solve_at: u32) -> Duration {
    estimated_solve_time(size, solve_at).saturating_mul(2)
}

/// Time the search may take for one move, from its start.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct TimePlan {
    /// Target time: no new iteration starts after [`SOFT_START_SHARE`] of it.
    pub soft: Option<Duration>,
    /// Deadline at which the search stops, whatever it is doing.
    pub hard: Option<Duration>,
    /// The promise to the clock's owner: never more than the move time, nor half of what
    /// is left on the clock. A `Watchdog` raises the stop flag then, should a search not
    /// have stopped at `hard`.
    pub backstop: Option<Duration>,
}

impl TimePlan {
    /// No time limit (fixed depth or node count).
    pub const UNLIMITED: TimePlan = TimePlan {
        soft: None,
        hard: None,
        backstop: None,
    };

    /// Whether a new iteration may start after `elapsed`, the soft target scaled by
    /// `scale` (`Stability::scale`).
    pub fn may_start_iteration(&self, elapsed: Duration, scale: f64) -> bool {
        self.soft.is_none_or(|soft| {
            elapsed.as_secs_f64() < soft.as_secs_f64() * SOFT_START_SHARE * scale
        }) && self.hard.is_none_or(|hard| elapsed < hard)
    }

    fn tighten(self, other: TimePlan) -> TimePlan {
        let min = |a: Option<Duration>, b: Option<Duration>| match (a, b) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        };
        TimePlan {
            soft: min(self.soft, other.soft),
            hard: min(self.hard, other.hard),
            backstop: min(self.backstop, other.backstop),
        }
    }
}

/// How settled the search's choice is from one iteration to the next, as a factor on the
/// soft target ([`TimePlan::may_start_iteration`]): a best move that keeps changing, or a
/// falling score, earns more time before iterations stop starting; a settled best move, or
/// a single legal move, less. The hard deadline does not move, so the clock's safety is
/// unchanged.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Stability {
    /// Changes of the best move, each worth half as much an iteration later.
    changes: f64,
    /// The best move and score of the latest iteration.
    last: Option<(usize, i32)>,
    /// The latest iteration's score fell by more than [`SCORE_DROP`] from the one before.
    dropped: bool,
    /// The root has a single legal move.
    forced: bool,
}

/// The factor on the soft target of a search whose best move has not changed lately.
const SETTLED_SCALE: f64 = 0.85;
/// What a change of the best move in the latest iteration adds to the factor (half as much
/// one iteration later, and so on).
const CHANGE_SCALE: f64 = 0.6;
/// What a falling score adds to the factor.
const DROP_SCALE: f64 = 0.3;
/// The factor's ceiling.
const MAX_SCALE: f64 = 2.0;
/// The factor when the root has a single legal move: its search mostly fills the table for
/// the next move.
const FORCED_SCALE: f64 = 0.25;
/// A fall of the score, in hundredths of a disc, that earns more time.
const SCORE_DROP: i32 = 150;

impl Stability {
    /// Before the first iteration, with `moves` legal moves at the root.
    pub(crate) fn new(moves: usize) -> Stability {
        Stability {
            changes: 0.0,
            last: None,
            dropped: false,
            forced: moves == 1,
        }
    }

    /// Records a finished iteration's best move and score.
    pub(crate) fn record(&mut self, best: usize, score: i32) {
        self.changes *= 0.5;
        if let Some((last_best, last_score)) = self.last {
            if last_best != best {
                self.changes += 1.0;
            }
            self.dropped = score < last_score - SCORE_DROP;
        }
        self.last = Some((best, score));
    }

    /// The factor on the soft target.
    pub(crate) fn scale(&self) -> f64 {
        if self.forced {
            return FORCED_SCALE;
        }
        let drop = if self.dropped { DROP_SCALE } else { 0.0 };
        (SETTLED_SCALE + CHANGE_SCALE * self.changes + drop).min(MAX_SCALE)
    }
}

/// The plan for a fixed time per move: think until shortly before it ends.
pub fn for_move_time(move_time: Duration, margins: &Margins) -> TimePlan {
    TimePlan {
        soft: None,
        hard: Some(move_time.saturating_sub(margins.move_time(move_time))),
        backstop: Some(move_time),
    }
}

/// Weight of a move in the sharing of a game clock, by how full the board is: the
/// midgame, where games are mostly decided and a deeper search changes the move most,
/// weighs up to [`PHASE_HIGH`], a move of the opening or just before the exact solve down
/// to [`PHASE_LOW`] (a bell over the share of empty squares, highest at [`PHASE_PEAK`]).
fn phase_weight(empties: u32, size: usize) -> f64 {
    let x = (empties as f64 / (size * size) as f64 - PHASE_PEAK) / PHASE_WIDTH;
    PHASE_LOW + (PHASE_HIGH - PHASE_LOW) * (-x * x).exp()
}

/// The share of the clock to come for this move, with `empties` empty squares on a board
/// of side `size` and the solve planned at `solve_at` empties: its weight over those of
/// the moves still to search (the mover's, two empties apart, until the solve).
pub fn clock_share(empties: u32, size: usize, solve_at: u32) -> f64 {
    let total: f64 = (0..moves_to_search(empties, solve_at))
        .map(|k| phase_weight(empties.saturating_sub(2 * k), size))
        .sum();
    phase_weight(empties, size) / total
}

/// The plan on a game clock with `empties` empty squares on a board of side `size`.
pub fn for_clock(clock: &super::Clock, empties: u32, size: usize, margins: &Margins) -> TimePlan {
    let own_moves = own_moves_left(empties);
    // In byo-yomi the clock is renewed after `moves_to_go` moves: no reserve is needed.
    // Every move still to play costs its overhead; only those still to search share the
    // time.
    let period = clock.moves_to_go.map(|n| n.clamp(1, own_moves));
    let usable = clock
        .remaining
        .saturating_sub(margins.clock(clock.remaining, period.unwrap_or(own_moves)));
    let (share, solve_at) = match period {
        Some(moves) => (usable / moves, solve_empties(size)),
        // The increments of the moves after the solve, played at once from the solver's
        // table, are spent before it: they are sure to come. Until the solving move, the
        // solve's own time is kept apart.
        None => {
            let solve_at = planned_solve_empties(size, usable, clock.increment);
            let solved_moves = own_moves - moves_to_search(empties, solve_at);
            let kept = if empties > solve_at + 1 {
                solve_reserve(size, solve_at)
            } else {
                Duration::ZERO
            };
            let share = (usable + clock.increment * solved_moves)
                .saturating_sub(kept)
                .mul_f64(clock_share(empties, size, solve_at));
            (share, solve_at)
        }
    };
    let mut soft = share + clock.increment * 3 / 4;
    if (solve_at.saturating_sub(1)..=solve_at + 1).contains(&empties) {
        soft = soft.mul_f64(SOLVE_BONUS);
    }
    // A floor so that even a short budget finishes the first iterations.
    soft = soft.max(Duration::from_millis(2).min(usable / 4));
    let cap = usable / 2;
    TimePlan {
        soft: Some(soft.min(cap)),
        hard: Some((soft * 4).min(cap)),
        backstop: Some(clock.remaining / 2),
    }
}

/// The plan for `limits` in a position with `empties` empty squares on a board of side
/// `size`; unlimited when `limits` bound no time.
pub fn plan(limits: &Limits, empties: u32, size: usize, margins: &Margins) -> TimePlan {
    let mut plan = TimePlan::UNLIMITED;
    if let Some(t) = limits.move_time {
        plan = plan.tighten(for_move_time(t, margins));
    }
    if let Some(clock) = &limits.clock {
        plan = plan.tighten(for_clock(clock, empties, size, margins));
    }
    plan
}

/// How solve times grow with the empties on one board size: the typical time at a number
/// of empties, and the growth per empty square more.
struct SolveTimes {
    size: usize,
    reference_empties: i32,
    reference_time: Duration,
    growth_per_empty: f64,
}

/// Per board size, from measured medians, rounded up: on 8x8 at 17 to 22 empties of real
/// games; on the other sizes at 14 to 22 (6x6) or 10 to 18 empties of nine games each
/// between shallow searches. The 8x8 solver has since become faster; why this more
/// cautious model stays is in docs/experiments.md (Time).
const SOLVE_TIMES: [SolveTimes; 4] = [
    SolveTimes {
        size: 8,
        reference_empties: 20,
        reference_time: Duration::from_millis(300),
        growth_per_empty: 2.5,
    },
    SolveTimes {
        size: 6,
        reference_empties: 20,
        reference_time: Duration::from_millis(40),
        growth_per_empty: 2.3,
    },
    SolveTimes {
        size: 10,
        reference_empties: 16,
        reference_time: Duration::from_millis(60),
        growth_per_empty: 2.4,
    },
    SolveTimes {
        size: 12,
        reference_empties: 16,
        reference_time: Duration::from_millis(150),
        growth_per_empty: 2.4,
    },
];

/// Nodes a second of the exact solver on one thread, rounded down (about 32 million on
/// the FFO positions): turns an expected solve time into expected nodes.
const SOLVER_NODE_RATE: f64 = 20e6;

/// A solve expected to take at most this share of the hard limit is "cheap": the midgame
/// search before it gets only a tenth of the time, otherwise a quarter.
const CHEAP_SOLVE_SHARE: f64 = 0.25;

/// Expected time for the exact solver to solve a position with `empties` empty squares on
/// a board of side `size`; far from the end the estimate outgrows any duration, and then it
/// is "forever" ([`Duration::MAX`]).
pub(crate) fn estimated_solve_time(size: usize, empties: u32) -> Duration {
    let times = SOLVE_TIMES
        .iter()
        .find(|t| t.size == size)
        .unwrap_or(&SOLVE_TIMES[SOLVE_TIMES.len() - 1]);
    let exponent = empties as i32 - times.reference_empties;
    let seconds = times.reference_time.as_secs_f64() * times.growth_per_empty.powi(exponent);
    Duration::try_from_secs_f64(seconds).unwrap_or(Duration::MAX)
}

/// How a search should use the exact solver.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct ExactPlan {
    /// Time for the midgame search that runs first, if any.
    pub midgame: Option<TimePlan>,
    /// Node budget of the midgame search that runs first, when the search has a node
    /// limit: the solve gets what it leaves.
    pub midgame_nodes: Option<u64>,
    /// Deadline of the solve, from the start of the search.
    pub deadline: Option<Duration>,
}

impl ExactPlan {
    /// Whether and how to solve a position with `empties` empties on a board of side `size`
    /// exactly, given the search's time plan, depth limit and node limit; `None` keeps the
    /// midgame search alone. Without a time or node limit (a fixed depth at least the
    /// empties, or an explicit solve) the solver runs alone. With a node limit, a midgame
    /// search first gets a quarter of the nodes (a tenth with a cheap solve in time), so
    /// that a solve cut short by the limit leaves a move searched within it; without a depth
    /// limit, a solve not expected to fit in the node limit is not started.
    pub(crate) fn new(
        size: usize,
        empties: u32,
        time: &TimePlan,
        max_depth: u32,
        node_limit: Option<u64>,
    ) -> Option<ExactPlan> {
        if max_depth < empties {
            return None;
        }
        // A node budget without a depth that asks for the end (a `genmove nodes N`) solves
        // only when the solve should fit in it; otherwise the solver would spend the budget
        // on a proof it cannot finish, and the move would come from a quarter of it.
        if let (u32::MAX, Some(nodes)) = (max_depth, node_limit) {
            let expected = estimated_solve_time(size, empties).as_secs_f64() * SOLVER_NODE_RATE;
            if expected > nodes as f64 {
                return None;
            }
        }
        let Some(hard) = time.hard else {
            return Some(ExactPlan {
                midgame: node_limit
                    .map(|_| TimePlan::UNLIMITED)
                    .or_else(|| open_solve_prelude(size, empties)),
                midgame_nodes: node_limit.map(|n| n / 4),
                deadline: None,
            });
        };
        let estimate = estimated_solve_time(size, empties);
        if estimate > hard {
            return None;
        }
        let share = if estimate.as_secs_f64() <= hard.as_secs_f64() * CHEAP_SOLVE_SHARE {
            10
        } else {
            4
        };
        let midgame_hard = hard / share;
        Some(ExactPlan {
            midgame: Some(TimePlan {
                soft: Some(midgame_hard / 2),
                hard: Some(midgame_hard),
                backstop: time.backstop,
            }),
            midgame_nodes: node_limit.map(|n| n / share as u64),
            deadline: Some(hard),
        })
    }
}

/// A solve without limits expected to take longer than this is one a user may stop by
/// hand: a short midgame search runs first.
const PRELUDE_FROM: Duration = Duration::from_secs(1);

/// The midgame search before an open-ended solve of `empties` empties: a twentieth of the
/// solve's expected time, at most 2 s, when the solve is expected to take over
/// [`PRELUDE_FROM`]. Its move and estimate answer a `stop`, and its depths are the progress
/// shown while the solve has not yet proved anything; shorter solves run alone.
fn open_solve_prelude(size: usize, empties: u32) -> Option<TimePlan> {
    let estimate = estimated_solve_time(size, empties);
    (estimate > PRELUDE_FROM).then(|| {
        let hard = (estimate / 20).min(Duration::from_secs(2));
        TimePlan {
            soft: Some(hard / 2),
            hard: Some(hard),
            backstop: None,
        }
    })
}

/// The search time of a move for which the whole process is timed (`emilia move`), given
/// what is `left` once the engine is ready: writing the file and exiting are kept back, a
/// tenth, at most 200 ms, plus 5 ms; at least 1 ms remains.
pub fn process_move_time(left: Duration) -> Duration {
    let reserve = (left / 10).min(Duration::from_millis(200)) + Duration::from_millis(5);
    left.saturating_sub(reserve).max(Duration::from_millis(1))
}

/// The engine's one time manager: asked before every search for its plan (and then holds
/// the search to the plan's backstop with its `Watchdog`), and told before and after every
/// move on a game clock what the clock said and what the search used, to learn the time
/// lost outside the searches (`UnseenTime`).
pub(crate) struct TimeManager {
    margins: Margins,
    watchdog: Watchdog,
    unseen: UnseenTime,
}

impl TimeManager {
    /// A time manager whose watchdog raises `stop`.
    pub(crate) fn new(stop: Arc<AtomicBool>) -> TimeManager {
        TimeManager {
            margins: Margins::DEFAULT,
            watchdog: Watchdog::new(stop),
            unseen: UnseenTime::default(),
        }
    }

    /// Before a move is chosen in `position` under `limits`: learns from its game clock,
    /// if any, what the last move lost outside the search.
    pub(crate) fn move_starts(&mut self, position: &Position, limits: &Limits) {
        if let Some(clock) = &limits.clock {
            let empties = position.board.counts().2;
            self.unseen
                .observe(position.to_move.index(), clock, empties);
            let (largest, mean) = self.unseen.lately();
            log::info!("time lost outside the searches lately: largest {largest:?}, mean {mean:?}");
        }
    }

    /// The plan of a search of `position` under `limits` that started at `start`; the
    /// search is stopped at the plan's backstop until the guard returned is dropped.
    pub(crate) fn plan(
        &mut self,
        position: &Position,
        limits: &Limits,
        start: Instant,
    ) -> (TimePlan, Armed) {
        let margins = self.unseen.margins(
            self.margins.with_delay(self.watchdog.delay()),
            position.to_move.index(),
        );
        let empties = position.board.counts().2;
        let plan = plan(limits, empties, position.size(), &margins);
        let armed = self
            .watchdog
            .arm(plan.backstop.and_then(|b| start.checked_add(b)));
        (plan, armed)
    }

    /// After a move was chosen in `position` under `limits`: what it used.
    pub(crate) fn move_ended(&mut self, position: &Position, limits: &Limits, used: Duration) {
        if let Some(clock) = &limits.clock {
            let empties = position.board.counts().2;
            self.unseen
                .record(position.to_move.index(), clock, empties, used);
        }
    }
}

/// How often the watchdog wakes while a search runs, to measure the scheduling delay.
const DELAY_TICK: Duration = Duration::from_millis(2);

/// Raises a stop flag at a deadline unless disarmed first: the backstop that holds any
/// search to its time plan. One thread waits for all the deadlines of an engine, so a
/// search costs no thread of its own.
///
/// While a search runs, the thread also wakes every [`DELAY_TICK`] and measures how late
/// it wakes: the time the process waits for a core on a loaded machine, which no clock
/// check inside the search can see. `Watchdog::delay` gives the largest delay of the
/// latest searches, and the time plans keep back a margin that grows with it.
pub(crate) struct Watchdog {
    stop: Arc<AtomicBool>,
    /// Commands to the waiting thread, which starts with the watchdog (`None` where no
    /// thread could be started).
    commands: Option<mpsc::Sender<Command>>,
    /// The scheduling delay measured, microseconds (`Watchdog::delay`).
    delay_micros: Arc<AtomicU64>,
}

enum Command {
    Arm(Instant),
    Disarm,
}

/// An armed `Watchdog`; dropping it disarms it.
pub(crate) struct Armed {
    commands: Option<mpsc::Sender<Command>>,
}

impl Watchdog {
    /// A watchdog that raises `stop`, its thread started now: a thread started within a
    /// search's time would be paid for by that search's clock (on a loaded machine, a wait
    /// for a core and for the process's memory map).
    pub(crate) fn new(stop: Arc<AtomicBool>) -> Watchdog {
        let mut watchdog = Watchdog {
            stop,
            commands: None,
            delay_micros: Arc::new(AtomicU64::new(0)),
        };
        watchdog.commands = watchdog.spawn();
        watchdog
    }

    /// The largest scheduling delay measured during the latest searches: each search's
    /// largest, or three quarters of the previous figure if that is more, so that a busy
    /// spell is remembered for a few searches and then forgotten.
    pub(crate) fn delay(&self) -> Duration {
        Duration::from_micros(self.delay_micros.load(Ordering::Relaxed))
    }

    /// Raises the stop flag at `deadline`, if given, unless the result is dropped first.
    pub(crate) fn arm(&mut self, deadline: Option<Instant>) -> Armed {
        let Some(deadline) = deadline else {
            return Armed { commands: None };
        };
        // Only if no thread could be started with the watchdog: better late than never.
        if self.commands.is_none() {
            self.commands = self.spawn();
        }
        let commands = self
            .commands
            .clone()
            .filter(|c| c.send(Command::Arm(deadline)).is_ok());
        Armed { commands }
    }

    /// The waiting thread: sleeps until a deadline, the next tick or a command, whichever
    /// comes first.
    fn spawn(&self) -> Option<mpsc::Sender<Command>> {
        let (sender, commands) = mpsc::channel::<Command>();
        let stop = Arc::clone(&self.stop);
        let delay_micros = Arc::clone(&self.delay_micros);
        let spawned = thread::Builder::new()
            .name("watchdog".into())
            .spawn(move || {
                let mut deadline: Option<Instant> = None;
                // The largest delay of the search under way.
                let mut largest = Duration::ZERO;
                loop {
                    let (command, woken_for) = match deadline {
                        None => (
                            commands
                                .recv()
                                .map_err(|_| mpsc::RecvTimeoutError::Disconnected),
                            None,
                        ),
                        Some(d) => {
                            let wake = d.min(Instant::now() + DELAY_TICK);
                            let wait = wake.saturating_duration_since(Instant::now());
                            (commands.recv_timeout(wait), Some(wake))
                        }
                    };
                    match command {
                        Ok(Command::Arm(d)) => {
                            deadline = Some(d);
                            largest = Duration::ZERO;
                        }
                        Ok(Command::Disarm) => {
                            deadline = None;
                            remember_delay(&delay_micros, largest);
                        }
                        Err(mpsc::RecvTimeoutError::Timeout) => {
                            let now = Instant::now();
                            if let Some(wake) = woken_for {
                                largest = largest.max(now.saturating_duration_since(wake));
                            }
                            if deadline.is_some_and(|d| now >= d) {
                                stop.store(true, Ordering::SeqCst);
                                deadline = None;
                                remember_delay(&delay_micros, largest);
                            }
                        }
                        // The engine is gone.
                        Err(mpsc::RecvTimeoutError::Disconnected) => return,
                    }
                }
            });
        spawned.ok().map(|_| sender)
    }
}

/// Folds a search's largest delay into the figure `Watchdog::delay` reads.
fn remember_delay(delay_micros: &AtomicU64, largest: Duration) {
    let largest = largest.as_micros().min(u64::MAX as u128) as u64;
    let previous = delay_micros.load(Ordering::Relaxed);
    delay_micros.store(largest.max(previous * 3 / 4), Ordering::Relaxed);
}

impl Drop for Armed {
    fn drop(&mut self) {
        if let Some(commands) = &self.commands {
            let _ = commands.send(Command::Disarm);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::Clock;

    const M: Margins = Margins::DEFAULT;

    fn ms(n: u64) -> Duration {
        Duration::from_millis(n)
    }

    fn clock(remaining: u64, increment: u64) -> Clock {
        Clock {
            remaining: ms(remaining),
            increment: ms(increment),
            moves_to_go: None,
        }
    }

    #[test]
    fn fixed_move_time_keeps_a_margin() {
        let hard = |t| for_move_time(t, &M).hard;
        assert_eq!(hard(ms(5)), Some(Duration::from_micros(3_750)));
        assert_eq!(hard(ms(100)), Some(ms(94)));
        assert_eq!(hard(ms(10_000)), Some(ms(9_950)));
        assert_eq!(hard(Duration::ZERO), Some(Duration::ZERO));
        assert_eq!(for_move_time(ms(100), &M).backstop, Some(ms(100)));
    }

    #[test]
    fn clock_budget_shares_the_time_over_the_moves_before_the_solve() {
        // 60 s: the solve is planned at 23 empties (4.7 s expected, 9.4 s kept for it),
        // and the rest shared over the 19 own moves before it and the solving move, about
        // 2.4 s each on average; the first move of the game weighs less than the average.
        let plan = for_clock(&clock(60_000, 0), 60, 8, &M);
        let usable = ms(60_000) - M.clock(ms(60_000), own_moves_left(60));
        assert_eq!(planned_solve_empties(8, usable, Duration::ZERO), 23);
        let soft = plan.soft.unwrap();
        assert!(soft > ms(1_300) && soft < ms(2_200), "{soft:?}");
        assert_eq!(plan.hard, Some(soft * 4));
        // The increment is spent too: three quarters of this move's, and a share of those
        // of the 10 moves after the solve (30 own moves, 20 to search).
        assert_eq!(planned_solve_empties(8, usable, ms(1_000)), 23);
        let with_inc = for_clock(&clock(60_000, 1_000), 60, 8, &M).soft.unwrap();
        let expected = soft + ms(750) + ms(10_000).mul_f64(clock_share(60, 8, 23));
        let error = with_inc.abs_diff(expected);
        assert!(
            error < Duration::from_micros(1),
            "{with_inc:?} {expected:?}"
        );
    }

    #[test]
    fn the_solve_is_planned_where_the_clock_lets_it_finish() {
        let planned =
            |usable: u64, increment: u64| planned_solve_empties(8, ms(usable), ms(increment));
        // Short clocks solve at the usual point; longer ones earlier, where a solve takes
        // at most the planned share of the time to come.
        assert_eq!(planned(50, 0), solve_empties(8));
        let mut last = 0;
        for usable in [50, 200, 1_000, 4_000, 10_000, 60_000, 600_000] {
            let at = planned(usable, 0);
            assert!(at >= last, "{usable} ms: {at} < {last}");
            last = at;
            if at > solve_empties(8) {
                let share = estimated_solve_time(8, at).as_secs_f64() / (usable as f64 / 1e3);
                assert!(share <= SOLVE_PLAN_SHARE, "{usable} ms: {at}");
                let next = estimated_solve_time(8, at + 1).as_secs_f64();
                assert!(next > SOLVE_PLAN_SHARE * usable as f64 / 1e3, "{usable} ms");
            }
        }
        assert_eq!(planned(4_000, 0), 20);
        // The increments of the solved moves count: 4 s + 1 s a move solves earlier.
        assert!(planned(4_000, 1_000) > planned(4_000, 0));
        // Every size has its usual point as the floor.
        for size in [6, 10, 12] {
            assert_eq!(
                planned_solve_empties(size, ms(10), Duration::ZERO),
                solve_empties(size)
            );
        }
    }

    #[test]
    fn a_game_on_the_clock_arrives_at_the_solve_with_its_time_and_no_more() {
        // From an XOT opening at 4 s + 50 ms, every move spends its whole target (a search
        // usually stops before) and the clock earns the increment. The exact solve starts
        // once its expected time fits in the hard limit, planned at 20 empties; spending
        // the increments of the solved moves before it, the plan may arrive two empties
        // later, still with twice the solve's expected time on the clock. Planned down to
        // 16 empties with a reserve of four moves, a real game had 1.35 s of 4 s left when
        // the solve started, and most of it was never used.
        let (mut remaining, increment) = (ms(4_000), ms(50));
        let mut empties = 52;
        loop {
            let c = Clock {
                remaining,
                increment,
                moves_to_go: None,
            };
            let plan = for_clock(&c, empties, 8, &M);
            let hard = plan.hard.unwrap();
            if estimated_solve_time(8, empties) <= hard {
                assert!(empties >= 18, "solved at {empties} empties");
                assert!(
                    remaining < ms(1_000),
                    "{remaining:?} left at {empties} empties"
                );
                let needed = estimated_solve_time(8, empties) * 2;
                assert!(remaining >= needed, "{remaining:?} at {empties}");
                break;
            }
            assert!(empties > 16, "no solve before 16 empties");
            remaining = remaining - plan.soft.unwrap() + increment;
            empties -= 2;
        }
    }

    #[test]
    fn the_midgame_gets_more_of_the_clock_than_the_opening() {
        // A move that spends its share leaves the next one a share that is, of the clock
        // at the start, its weight over the total: one plan for the game, made once.
        let (start, mut left) = (60, 1.0f64);
        let total = left / clock_share(start, 8, 16) * phase_weight(start, 8);
        let mut spent = Vec::new();
        for empties in (18..=start).rev().step_by(2) {
            let share = left * clock_share(empties, 8, 16);
            let planned = phase_weight(empties, 8) / total;
            assert!(
                (share - planned).abs() < 1e-12,
                "{empties}: {share} {planned}"
            );
            spent.push((empties, share));
            left -= share;
        }
        // What is left is the solving move's share.
        let solving = phase_weight(16, 8) / total;
        assert!((left - solving).abs() < 1e-12, "{left} {solving}");
        let at = |e: u32| spent.iter().find(|&&(x, _)| x == e).unwrap().1;
        assert!(at(36) > 2.0 * at(60) && at(36) > 1.5 * at(20));
        // A board size's midgame is where its share of empties says.
        assert!(phase_weight(64, 10) > phase_weight(90, 10));
        assert!(phase_weight(64, 10) > phase_weight(30, 10));
    }

    #[test]
    fn moves_after_the_solvable_point_get_no_share_of_the_clock() {
        // 8x8 from the start, solved at 16 empties: 22 own moves before it and the solving
        // move.
        assert_eq!(moves_to_search(60, 16), 23);
        assert_eq!(moves_to_search(20, 16), 3);
        assert_eq!(moves_to_search(16, 16), 2);
        assert_eq!(moves_to_search(60, 22), 20);
        // Never more than the moves left to play.
        assert_eq!(moves_to_search(2, 16), 1);
        assert_eq!(moves_to_search(96, solve_empties(10)), 43);
        // The same clock gives a midgame move more than a share over every move left: 10 s
        // plan the solve at 21 empties and keep 1.5 s for it.
        let with_solve = for_clock(&clock(10_000, 0), 40, 8, &M).soft.unwrap();
        let usable = ms(10_000) - M.clock(ms(10_000), own_moves_left(40));
        assert_eq!(planned_solve_empties(8, usable, Duration::ZERO), 21);
        assert!(with_solve > usable / own_moves_left(40));
        let shared = usable - solve_reserve(8, 21);
        assert_eq!(with_solve, shared.mul_f64(clock_share(40, 8, 21)));
    }

    #[test]
    fn the_margin_counts_every_move_still_to_play() {
        // 10 s with 30 own moves: 90 ms of overhead, 10 ms of pause, 500 ms (5 %).
        assert_eq!(M.clock(ms(10_000), 30), ms(600));
        assert_eq!(M.clock(ms(10_000), 1), ms(513));
        // Never more than the clock.
        assert_eq!(M.clock(ms(50), 30), ms(50));
    }

    #[test]
    fn byo_yomi_shares_the_period_over_its_moves() {
        let period = Clock {
            remaining: ms(10_000),
            increment: Duration::ZERO,
            moves_to_go: Some(5),
        };
        let plan = for_clock(&period, 40, 8, &M);
        let usable = ms(10_000) - M.clock(ms(10_000), 5);
        assert_eq!(plan.soft, Some(usable / 5));
        // The last move of a period gets at most half of what is left.
        let last = Clock {
            moves_to_go: Some(1),
            ..period
        };
        assert_eq!(
            for_clock(&last, 40, 8, &M).hard,
            Some((ms(10_000) - M.clock(ms(10_000), 1)) / 2)
        );
    }

    #[test]
    fn the_solvable_point_gets_more_time_than_the_midgame() {
        let usable = ms(30_000) - M.clock(ms(30_000), own_moves_left(30));
        let at = planned_solve_empties(8, usable, Duration::ZERO);
        let midgame = for_clock(&clock(30_000, 0), 30, 8, &M).soft.unwrap();
        let solving = for_clock(&clock(30_000, 0), at, 8, &M).soft.unwrap();
        assert!(solving.as_secs_f64() > 2.0 * midgame.as_secs_f64());
    }

    #[test]
    fn no_move_may_use_more_than_half_the_usable_clock() {
        for remaining in [0, 1, 3, 10, 50, 100, 1_000, 10_000, 600_000] {
            for empties in [0, 1, 2, 10, 20, 21, 40, 60, 140] {
                for increment in [0, 100, 10_000] {
                    let c = clock(remaining, increment);
                    let plan = for_clock(&c, empties, 8, &M);
                    let moves = own_moves_left(empties);
                    let usable = c.remaining.saturating_sub(M.clock(c.remaining, moves));
                    let (soft, hard) = (plan.soft.unwrap(), plan.hard.unwrap());
                    assert!(soft <= hard, "{remaining} {empties}");
                    assert!(hard <= usable / 2, "{remaining} {empties} {increment}");
                    assert!(hard <= plan.backstop.unwrap());
                    assert!(hard < c.remaining || remaining == 0);
                }
            }
        }
    }

    #[test]
    fn short_clocks_keep_a_wide_margin() {
        // Nearly out of time: answer at once rather than risk a pause of the machine.
        assert_eq!(
            for_clock(&clock(8, 0), 30, 8, &M).hard,
            Some(Duration::ZERO)
        );
        // 25 ms left: at most a quarter of it.
        let hard = for_clock(&clock(25, 0), 2, 8, &M).hard.unwrap();
        assert!(hard <= Duration::from_micros(6_250), "{hard:?}");
        // 100 ms left: at most 40 ms.
        assert!(for_clock(&clock(100, 0), 2, 8, &M).hard.unwrap() <= ms(40));
    }

    #[test]
    fn the_last_moves_are_not_rushed() {
        // With 2 s left and 4 empties, a move still gets a fair slice: its weight, the
        // end's, against the other move's, over a tenth of the clock.
        let soft = for_clock(&clock(2_000, 0), 4, 8, &M).soft.unwrap();
        assert!(soft > ms(200), "{soft:?}");
    }

    #[test]
    fn plans_combine_limits() {
        let limits = Limits {
            move_time: Some(ms(100)),
            clock: Some(clock(1_000, 0)),
            ..Limits::default()
        };
        let p = plan(&limits, 60, 8, &M);
        assert!(p.hard.unwrap() <= ms(94));
        assert!(p.soft.unwrap() < ms(40));
        assert_eq!(p.backstop, Some(ms(100)));
        let depth_only = Limits {
            depth: Some(5),
            ..Limits::default()
        };
        assert_eq!(plan(&depth_only, 60, 8, &M), TimePlan::UNLIMITED);
    }

    #[test]
    fn iterations_stop_starting_after_the_soft_share() {
        let p = TimePlan {
            soft: Some(ms(100)),
            hard: Some(ms(400)),
            backstop: None,
        };
        assert!(p.may_start_iteration(ms(59), 1.0));
        assert!(!p.may_start_iteration(ms(61), 1.0));
        assert!(TimePlan::UNLIMITED.may_start_iteration(ms(1_000_000), 1.0));
        assert!(p.may_start_iteration(ms(100), 2.0));
        assert!(!p.may_start_iteration(ms(30), 0.25));
        // The hard deadline is not scaled.
        assert!(!p.may_start_iteration(ms(400), 100.0));
    }

    #[test]
    fn an_unsettled_choice_gets_more_time_than_a_settled_one() {
        let iterations = |moves: &[(usize, i32)]| {
            let mut stability = Stability::new(10);
            for &(best, score) in moves {
                stability.record(best, score);
            }
            stability.scale()
        };
        let settled = iterations(&[(3, 0), (3, 10), (3, -20), (3, 0)]);
        let changed_lately = iterations(&[(3, 0), (3, 10), (3, -20), (5, 0)]);
        let changed_earlier = iterations(&[(3, 0), (5, 10), (5, -20), (5, 0)]);
        let changing = iterations(&[(3, 0), (5, 10), (3, -20), (5, 0)]);
        let falling = iterations(&[(3, 0), (3, 10), (3, -20), (3, -300)]);
        assert!(settled < 1.0, "{settled}");
        assert!(changed_lately > 1.0, "{changed_lately}");
        assert!(changed_earlier > settled && changed_earlier < changed_lately);
        assert!(changing > changed_lately);
        assert!(changing <= MAX_SCALE);
        assert!(falling > settled);
        let mut forced = Stability::new(1);
        forced.record(7, 0);
        assert!(forced.scale() < settled);
        assert_eq!(Stability::new(2).scale(), SETTLED_SCALE);
    }

    #[test]
    fn estimates_grow_with_the_empties() {
        assert_eq!(estimated_solve_time(8, 20), ms(300));
        assert!(estimated_solve_time(8, 21) > ms(700) && estimated_solve_time(8, 21) < ms(800));
        assert!(estimated_solve_time(8, 10) < ms(1));
        for size in [6, 10, 12] {
            assert!(estimated_solve_time(size, 21) > estimated_solve_time(size, 20));
        }
        // From the start of the game: longer than any clock, not an overflow; 6x6 solves
        // from the start in minutes.
        for size in [8, 10, 12] {
            let start = (size * size - 4) as u32;
            assert!(estimated_solve_time(size, start) > Duration::from_secs(1 << 40));
        }
        let six = estimated_solve_time(6, 32);
        assert!(six > Duration::from_secs(60) && six < Duration::from_secs(3600));
        // The bigger the board, the more moves a position has and the slower its solve.
        assert!(estimated_solve_time(6, 20) < estimated_solve_time(8, 20));
        assert!(estimated_solve_time(8, 20) < estimated_solve_time(10, 20));
        assert!(estimated_solve_time(10, 20) <= estimated_solve_time(12, 20));
    }

    #[test]
    fn the_solver_is_used_when_it_should_finish_in_time() {
        let timed = |hard| TimePlan {
            soft: Some(ms(hard) / 3),
            hard: Some(ms(hard)),
            backstop: None,
        };
        // Too deep for the time: the midgame search alone.
        assert_eq!(ExactPlan::new(8, 26, &timed(1_000), u32::MAX, None), None);
        // Within the time: a short midgame search first, then the solve.
        let p = ExactPlan::new(8, 20, &timed(1_000), u32::MAX, None).unwrap();
        assert_eq!(p.deadline, Some(ms(1_000)));
        assert_eq!(p.midgame.unwrap().hard, Some(ms(250)));
        // Cheap: an even shorter midgame search.
        let p = ExactPlan::new(8, 12, &timed(1_000), u32::MAX, None).unwrap();
        assert_eq!(p.midgame.unwrap().hard, Some(ms(100)));
        // A depth limit short of the end keeps the midgame search.
        assert_eq!(ExactPlan::new(8, 12, &timed(1_000), 8, None), None);
        // No time limit: the solver alone when it should take a second at most...
        assert_eq!(
            ExactPlan::new(8, 20, &TimePlan::UNLIMITED, u32::MAX, None),
            Some(ExactPlan {
                midgame: None,
                midgame_nodes: None,
                deadline: None
            })
        );
        // ... and after a short midgame search when longer, which answers a stop.
        let p = ExactPlan::new(8, 23, &TimePlan::UNLIMITED, u32::MAX, None).unwrap();
        assert_eq!(p.deadline, None);
        let prelude = p.midgame.unwrap().hard.unwrap();
        assert!(prelude > ms(100) && prelude < estimated_solve_time(8, 23) / 10);
        let p = ExactPlan::new(8, 40, &TimePlan::UNLIMITED, u32::MAX, None).unwrap();
        assert_eq!(p.midgame.unwrap().hard, Some(ms(2_000)));
        // A node limit: a midgame search first with a share of the nodes, when the solve
        // should fit in them or the depth asks for the end (a `solve`)...
        let p = ExactPlan::new(8, 14, &TimePlan::UNLIMITED, u32::MAX, Some(100_000)).unwrap();
        assert_eq!(p.midgame_nodes, Some(25_000));
        assert_eq!(p.midgame, Some(TimePlan::UNLIMITED));
        let p = ExactPlan::new(8, 14, &TimePlan::UNLIMITED, 14, Some(1000)).unwrap();
        assert_eq!(p.midgame_nodes, Some(250));
        let p = ExactPlan::new(8, 12, &timed(1_000), u32::MAX, Some(10_000)).unwrap();
        assert_eq!(p.midgame_nodes, Some(1_000));
        // ... and the midgame search alone when the nodes could not finish the solve.
        assert_eq!(
            ExactPlan::new(8, 14, &TimePlan::UNLIMITED, u32::MAX, Some(1000)),
            None
        );
        assert_eq!(
            ExactPlan::new(10, 96, &TimePlan::UNLIMITED, u32::MAX, Some(3000)),
            None
        );
    }

    #[test]
    fn a_whole_process_keeps_time_for_writing_and_exiting() {
        assert_eq!(process_move_time(ms(1_000)), ms(895));
        assert_eq!(process_move_time(ms(10_000)), ms(9_795));
        assert_eq!(process_move_time(ms(3)), ms(1));
    }

    #[test]
    fn watchdog_fires_only_when_not_disarmed() {
        // Deadlines far enough off that a busy machine's pauses between two statements do
        // not decide the test, and a generous wait for the one that must fire.
        let stop = Arc::new(AtomicBool::new(false));
        let mut watchdog = Watchdog::new(Arc::clone(&stop));
        drop(watchdog.arm(Some(Instant::now() + ms(200))));
        thread::sleep(ms(300));
        assert!(!stop.load(Ordering::SeqCst));
        drop(watchdog.arm(None));
        thread::sleep(ms(20));
        assert!(!stop.load(Ordering::SeqCst));
        // The same thread serves the next deadline.
        let _armed = watchdog.arm(Some(Instant::now() + ms(5)));
        let until = Instant::now() + ms(5_000);
        while !stop.load(Ordering::SeqCst) && Instant::now() < until {
            thread::sleep(ms(1));
        }
        assert!(stop.load(Ordering::SeqCst));
    }

    #[test]
    fn the_watchdog_thread_is_started_with_the_watchdog_not_in_a_search() {
        // Arming it (in a search's time) then only sends a command to a waiting thread.
        let watchdog = Watchdog::new(Arc::new(AtomicBool::new(false)));
        assert!(watchdog.commands.is_some());
    }

    #[test]
    fn delays_are_remembered_for_a_few_searches() {
        let delay = AtomicU64::new(0);
        remember_delay(&delay, ms(8));
        assert_eq!(delay.load(Ordering::Relaxed), 8_000);
        remember_delay(&delay, ms(1));
        assert_eq!(delay.load(Ordering::Relaxed), 6_000);
        remember_delay(&delay, ms(10));
        assert_eq!(delay.load(Ordering::Relaxed), 10_000);
        for _ in 0..20 {
            remember_delay(&delay, Duration::ZERO);
        }
        assert!(delay.load(Ordering::Relaxed) < 100);
    }

    #[test]
    fn time_lost_outside_the_searches_is_learned_from_the_clocks() {
        let mut unseen = UnseenTime::default();
        let on = |remaining| clock(remaining, 0);
        // A 1 s game: 300 ms of it are kept back from the start.
        unseen.observe(0, &on(1_000), 60);
        assert_eq!(unseen.margins(M, 0).clock_reserve, ms(300));
        assert_eq!(unseen.margins(M, 0).per_move, M.per_move);
        // The referee took 950 ms off for a search of 50 ms: 50 ms were lost outside it.
        unseen.record(0, &on(1_000), 60, ms(50));
        unseen.observe(0, &on(900), 58);
        assert_eq!(unseen.lately(), (ms(50), Duration::from_micros(12_500)));
        let learned = unseen.margins(M, 0);
        assert_eq!(learned.clock_reserve, ms(350));
        assert_eq!(learned.per_move, Duration::from_micros(12_500));
        assert!(learned.clock(ms(900), 29) > M.clock(ms(900), 29) + ms(350));
        // A move that lost nothing: the largest loss fades, the mean falls.
        unseen.record(0, &on(900), 58, ms(100));
        unseen.observe(0, &on(800), 56);
        assert_eq!(unseen.lately(), (ms(45), Duration::from_micros(9_375)));
        // The other side has its own clock and its own game.
        unseen.observe(1, &on(300), 59);
        assert_eq!(unseen.margins(M, 1).clock_reserve, ms(90) + ms(45));
        // A new game (more empties) starts from its own clock; the machine's losses stay.
        unseen.record(0, &on(800), 56, ms(10));
        unseen.observe(0, &on(5_000), 60);
        assert_eq!(unseen.margins(M, 0).clock_reserve, ms(300) + ms(45));
        assert_eq!(unseen.lately().0, ms(45));
        // A clock that gives each move the same time is not one game's clock: nothing is
        // learned from it.
        unseen.record(0, &on(1_500), 58, ms(100));
        unseen.observe(0, &on(1_500), 56);
        assert_eq!(unseen.lately().0, ms(45));
        // Nor from byo-yomi periods, renewed as they end.
        let period = Clock {
            moves_to_go: Some(5),
            ..on(1_000)
        };
        unseen.record(0, &period, 56, ms(100));
        unseen.observe(
            0,
            &Clock {
                remaining: ms(100),
                ..period
            },
            54,
        );
        assert_eq!(unseen.lately().0, ms(45));
        // A plan never counts on what is kept back.
        let c = on(1_000);
        let learned = unseen.margins(M, 1);
        let hard = for_clock(&c, 40, 8, &learned).hard.unwrap();
        assert!(hard <= (ms(1_000) - learned.clock_reserve) / 2, "{hard:?}");
    }

    #[test]
    fn margins_grow_with_the_scheduling_delay() {
        let loaded = M.with_delay(ms(5));
        assert_eq!(loaded.clock_pause, M.clock_pause + ms(10));
        assert_eq!(loaded.per_move, M.per_move + Duration::from_micros(2500));
        assert!(loaded.clock(ms(1000), 20) > M.clock(ms(1000), 20) + ms(50));
        assert_eq!(loaded.move_time(ms(100)), ms(21));
        assert!(for_move_time(ms(100), &loaded).hard < for_move_time(ms(100), &M).hard);
        assert_eq!(M.with_delay(Duration::ZERO), M);
    }
}
