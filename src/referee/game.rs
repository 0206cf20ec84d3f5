//! One refereed game: the referee keeps its own board, asks each engine for its moves,
//! checks them and the clock, and scores any failure as a loss for the engine at fault.

use std::time::{Duration, Instant};

use super::client::{Client, Fault, FaultKind, GameSetup, MoveBudget};
use super::{start_client, EngineSpec, MatchConfig, TimeControl};
use emilia_core::board::{Color, Move, Position};
use emilia_core::formats::ggf::GgfMove;

/// One move of a refereed game, with the time it took when known.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RecordedMove {
    /// The move.
    pub mv: Move,
    /// Thinking time.
    pub elapsed: Option<Duration>,
}

impl RecordedMove {
    /// The move as a GGF record keeps it.
    pub(crate) fn to_ggf(self) -> GgfMove {
        GgfMove {
            mv: self.mv,
            eval: None,
            seconds: self.elapsed.map(|t| t.as_secs_f64()),
        }
    }
}

/// How a game ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Ending {
    /// Played to the end.
    Finished {
        /// Black's discs.
        black: u32,
        /// White's discs.
        white: u32,
        /// Black's final margin, empty squares to the winner.
        margin: i32,
    },
    /// Lost by `loser` for the stated reason.
    Forfeit {
        /// The side at fault.
        loser: Color,
        /// The category of the failure.
        kind: FaultKind,
        /// What happened, for the results file.
        reason: String,
    },
}

/// A finished game with everything the report and the results files need.
#[derive(Clone, Debug)]
pub struct GameRecord {
    /// Game number, from 1.
    pub number: usize,
    /// Which engine (0 or 1) played Black.
    pub black: usize,
    /// The opening played, as a transcript (empty without openings).
    pub opening: String,
    /// The start position.
    pub start: Position,
    /// Every move from the start, the opening's included (those without times).
    pub moves: Vec<RecordedMove>,
    /// How it ended.
    pub ending: Ending,
    /// Per engine: depths reported, summed, and how many moves reported one.
    pub depth: [(u64, u32); 2],
    /// Per engine: thinking time summed, and moves asked.
    pub time: [(Duration, u32); 2],
}

impl GameRecord {
    /// Which engine played `color`.
    pub fn engine(&self, color: Color) -> usize {
        match color {
            Color::Black => self.black,
            Color::White => 1 - self.black,
        }
    }

    /// Points of engine `index`: 1, ½ or 0.
    pub fn points(&self, index: usize) -> f64 {
        let black_points = match &self.ending {
            Ending::Finished { margin, .. } => match margin.signum() {
                1 => 1.0,
                0 => 0.5,
                _ => 0.0,
            },
            Ending::Forfeit { loser, .. } => {
                if *loser == Color::Black {
                    0.0
                } else {
                    1.0
                }
            }
        };
        if index == self.black {
            black_points
        } else {
            1.0 - black_points
        }
    }
}

/// What one game is: its number, its opening and who plays Black.
#[derive(Clone, Debug)]
pub(crate) struct GameSpec {
    /// Game number, from 1.
    pub number: usize,
    /// Opening text and moves (empty: the start position).
    pub opening: (String, Vec<Move>),
    /// Which engine plays Black.
    pub black: usize,
}

/// A pair of engines kept between games; `None` where one must be (re)started.
pub(crate) type Pair = [Option<Box<dyn Client>>; 2];

struct Referee<'a> {
    config: &'a MatchConfig,
    record: GameRecord,
}

/// Plays one game between the engines of `pair` (starting any that is not running).
/// Engines that fail in a way that leaves their state unknown are dropped (killed) so that
/// the next game restarts them.
pub(crate) fn play(
    pair: &mut Pair,
    config: &MatchConfig,
    names: &[String; 2],
    spec: &GameSpec,
) -> GameRecord {
    let start = Position::start_of(config.size);
    let mut referee = Referee {
        config,
        record: GameRecord {
            number: spec.number,
            black: spec.black,
            opening: spec.opening.0.clone(),
            start,
            moves: Vec::new(),
            ending: Ending::Finished {
                black: 0,
                white: 0,
                margin: 0,
            },
            depth: [(0, 0); 2],
            time: [(Duration::ZERO, 0); 2],
        },
    };
    if let Err((color, fault)) = referee.run(pair, names, &spec.opening.1) {
        let index = referee.record.engine(color);
        if fault.needs_restart() {
            if let Some(mut client) = pair[index].take() {
                if matches!(
                    fault,
                    Fault::Timeout { .. } | Fault::Garbage { .. } | Fault::Malformed { .. }
                ) {
                    drop(client); // killed: it may still be thinking or out of step
                } else {
                    client.quit();
                }
            }
        }
        let name = &names[index];
        referee.record.ending = Ending::Forfeit {
            loser: color,
            kind: fault.kind(),
            reason: format!("{color} ({name}) {fault}"),
        };
    }
    referee.record
}

/// A failure of the engine playing the colour.
type Failure = (Color, Fault);

impl Referee<'_> {
    fn spec(&self, color: Color) -> &EngineSpec {
        &self.config.engines[self.record.engine(color)]
    }

    /// The time control of the engine playing `color`.
    fn time(&self, color: Color) -> TimeControl {
        self.config.time_of(self.spec(color))
    }

    fn run(
        &mut self,
        pair: &mut Pair,
        names: &[String; 2],
        opening: &[Move],
    ) -> Result<(), Failure> {
        for color in [Color::Black, Color::White] {
            let index = self.record.engine(color);
            if pair[index].is_none() {
                let label = format!("engine {}", index + 1);
                let client = start_client(self.spec(color), &label, self.config)
                    .map_err(|fault| (color, fault))?;
                pair[index] = Some(client);
            }
        }
        let black_name = names[self.record.black].clone();
        let white_name = names[1 - self.record.black].clone();
        // Each engine is told its own time control.
        let setups = [Color::Black, Color::White].map(|color| {
            let (clock, increment, move_time, depth) = match self.time(color) {
                TimeControl::Clock { base, increment } => (Some(base), increment, None, None),
                TimeControl::MoveTime(t) => (None, Duration::ZERO, Some(t), None),
                TimeControl::Depth(d) => (None, Duration::ZERO, None, Some(d)),
            };
            GameSetup {
                size: self.config.size,
                moves: opening.to_vec(),
                names: [black_name.clone(), white_name.clone()],
                clock,
                increment,
                move_time,
                depth,
            }
        });
        for (color, setup) in [Color::Black, Color::White].into_iter().zip(&setups) {
            self.client(pair, color)
                .new_game(setup)
                .map_err(|fault| (color, fault))?;
        }
        let mut position = self.record.start;
        for &mv in opening {
            position = position.play(mv).expect("openings were checked");
            self.record.moves.push(RecordedMove { mv, elapsed: None });
        }
        let mut clocks = setups.map(|setup| setup.clock.unwrap_or_default());
        while !position.is_game_over() {
            let color = position.to_move;
            if position.legal_moves() == [Move::Pass] {
                // Forced passes are the referee's call: both engines are told.
                self.tell(pair, color, Move::Pass, Duration::ZERO)?;
                position = position.play(Move::Pass).expect("a forced pass is legal");
                self.record.moves.push(RecordedMove {
                    mv: Move::Pass,
                    elapsed: None,
                });
                continue;
            }
            let budget = self.budget(color, clocks[color as usize]);
            let started = Instant::now();
            let answer = self
                .client(pair, color)
                .genmove(color, &budget)
                .map_err(|fault| (color, fault))?;
            let elapsed = started.elapsed();
            let index = self.record.engine(color);
            self.record.time[index].0 += elapsed;
            self.record.time[index].1 += 1;
            let reported = match answer.depth {
                Some(d) => Some(d),
                None => self
                    .client(pair, color)
                    .last_depth()
                    .map_err(|fault| (color, fault))?,
            };
            if let Some(d) = reported {
                self.record.depth[index].0 += u64::from(d);
                self.record.depth[index].1 += 1;
            }
            if budget.timed && elapsed > budget.allowed + self.config.margin {
                return Err((
                    color,
                    Fault::Timeout {
                        waiting_for: format!("genmove {color}"),
                        limit: budget.allowed,
                        clock: true,
                    },
                ));
            }
            position = match position.play(answer.mv) {
                Ok(next) => next,
                Err(error) => return Err((color, Fault::Illegal(error.to_string()))),
            };
            if let TimeControl::Clock { increment, .. } = self.time(color) {
                let left = &mut clocks[color as usize];
                *left = left.saturating_sub(elapsed) + increment;
            }
            self.record.moves.push(RecordedMove {
                mv: answer.mv,
                elapsed: Some(elapsed),
            });
            self.tell(pair, color, answer.mv, elapsed)?;
        }
        let black = position.count(Color::Black);
        let white = position.count(Color::White);
        self.record.ending = Ending::Finished {
            black,
            white,
            margin: position.final_score_for(Color::Black),
        };
        Ok(())
    }

    fn client<'p>(&self, pair: &'p mut Pair, color: Color) -> &'p mut Box<dyn Client> {
        pair[self.record.engine(color)]
            .as_mut()
            .expect("engines are started before the game")
    }

    /// Tells both engines that `color` played `mv`.
    fn tell(
        &self,
        pair: &mut Pair,
        color: Color,
        mv: Move,
        elapsed: Duration,
    ) -> Result<(), Failure> {
        for (listener, own) in [(color, mv != Move::Pass), (color.opponent(), false)] {
            self.client(pair, listener)
                .moved(color, mv, own, elapsed)
                .map_err(|fault| (listener, fault))?;
        }
        Ok(())
    }

    /// What `color` may spend on its next move, with `clock` left on its game clock.
    fn budget(&self, color: Color, clock: Duration) -> MoveBudget {
        let margin = self.config.margin;
        let now = Instant::now();
        let depth = self.spec(color).depth;
        match self.time(color) {
            TimeControl::Clock { increment, .. } => MoveBudget {
                clock: Some(clock),
                increment,
                move_time: None,
                depth,
                allowed: clock,
                deadline: now + clock + margin,
                timed: true,
            },
            TimeControl::MoveTime(t) => MoveBudget {
                clock: None,
                increment: Duration::ZERO,
                move_time: Some(t),
                depth,
                allowed: t,
                deadline: now + t + margin,
                timed: true,
            },
            TimeControl::Depth(d) => MoveBudget {
                clock: None,
                increment: Duration::ZERO,
                move_time: None,
                depth: Some(depth.unwrap_or(d)),
                allowed: self.config.timeout,
                deadline: now + self.config.timeout,
                timed: false,
            },
        }
    }
}
