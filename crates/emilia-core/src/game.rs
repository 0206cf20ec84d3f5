//! A game record: the position it started from and every ply since, passes included, with
//! what front-ends derive from it: the current position, undo, the result, the transcript
//! and clocks. GGF reads and writes it ([`crate::formats::ggf`]).

use std::fmt;
use std::time::Duration;

use crate::board::{BoardSizeError, Color, Move, MoveError, Position, PositionError};

/// One ply of a game.
#[derive(Clone, Debug, PartialEq)]
pub struct Ply {
    /// Who played it.
    pub color: Color,
    /// The move, or `Move::Pass`.
    pub mv: Move,
    /// A pass nobody asked for: the record inserted it because the other side moved while
    /// this side had no move. `undo` removes it together with the move that caused it.
    pub implicit: bool,
    /// The evaluation given with the move (discs, mover's view), if any.
    pub eval: Option<f64>,
    /// Seconds the player used for it, if known.
    pub seconds: Option<f64>,
}

/// How a game clock is set: time for the whole game and time added after each move.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ClockSetting {
    /// Time for the whole game.
    pub main: Duration,
    /// Time added after each of the player's moves.
    pub increment: Duration,
}

/// Why a move cannot be recorded.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PlayError {
    /// The move is illegal in the current position.
    Illegal(MoveError),
    /// A move for the side not to move, while the side to move has moves of its own.
    WrongSide {
        /// The colour that asked to move.
        asked: Color,
        /// The side to move.
        to_move: Color,
        /// Its legal moves.
        moves: Vec<Move>,
    },
    /// Neither side can move any more; `result` is the final score (`B+12`).
    GameOver {
        /// The final result.
        result: String,
    },
}

impl fmt::Display for PlayError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PlayError::Illegal(e) => e.fmt(f),
            PlayError::WrongSide {
                asked,
                to_move,
                moves,
            } => {
                let list: Vec<String> = moves.iter().map(Move::to_string).collect();
                write!(
                    f,
                    "wrong side to move: {asked} asked to move but {to_move} is to move \
                     and has legal moves ({})",
                    list.join(" ")
                )
            }
            PlayError::GameOver { result } => {
                write!(f, "game over: {result} (neither side can move)")
            }
        }
    }
}

impl std::error::Error for PlayError {}

/// Any error of a move chooser in [`Game::play_out`] (`?` turns every error type into it).
pub type ChooseError = Box<dyn std::error::Error + Send + Sync>;

/// Why [`Game::play_out`] stopped before the end of the game.
#[derive(Debug)]
pub enum PlayOutError {
    /// The rules refused the move chosen.
    Play(PlayError),
    /// The chooser failed.
    Choose(ChooseError),
}

impl fmt::Display for PlayOutError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PlayOutError::Play(e) => e.fmt(f),
            PlayOutError::Choose(e) => e.fmt(f),
        }
    }
}

impl std::error::Error for PlayOutError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            PlayOutError::Play(e) => Some(e),
            PlayOutError::Choose(e) => Some(e.as_ref()),
        }
    }
}

/// A game from a start position, with every ply played since.
///
/// ```
/// use emilia_core::board::{Color, Move, Position};
/// use emilia_core::game::{Game, PlayError};
///
/// # fn main() -> Result<(), Box<dyn std::error::Error>> {
/// let mut game = Game::standard(8).unwrap();
/// game.play("f5".parse()?)?;
/// game.play("d6".parse()?)?;
/// assert_eq!(game.transcript(), "f5d6");
/// assert_eq!(game.position().to_move, Color::Black);
/// assert_eq!(game.result(), "0"); // three discs each
///
/// // An illegal move is refused and changes nothing.
/// let refused = game.play("a1".parse()?).unwrap_err();
/// assert!(matches!(refused, PlayError::Illegal(_)), "{refused}");
/// assert_eq!(game.plies().len(), 2);
///
/// // Undo takes back the last move.
/// assert_eq!(game.undo(), Some("d6".parse()?));
/// assert_eq!(game.transcript(), "f5");
/// assert_eq!(game.result(), "B+3");
///
/// // A game played to its end on 6x6, each side taking its first legal move (a pass
/// // when it has none): the result is the final disc difference.
/// let mut game = Game::standard(6).unwrap();
/// while !game.is_over() {
///     let mv = game.position().legal_moves()[0];
///     game.play(mv)?;
/// }
/// let end = *game.position();
/// assert_eq!(game.positions().len(), game.plies().len() + 1);
/// assert_eq!(game.score_for_black(), end.final_score_for(Color::Black));
/// let margin = game.score_for_black();
/// let expected = match margin {
///     0 => "0".to_string(),
///     m if m > 0 => format!("B+{m}"),
///     m => format!("W+{}", -m),
/// };
/// assert_eq!(game.result(), expected);
/// assert!(matches!(game.play(Move::Pass), Err(PlayError::GameOver { .. })));
///
/// // The transcript replays the same game.
/// let replayed = Game::from_transcript(Position::start(6).unwrap(), &game.transcript())?;
/// assert_eq!(replayed.position(), &end);
/// # Ok(())
/// # }
/// ```
#[derive(Clone, Debug)]
pub struct Game {
    /// Positions before each ply, then the current one: always one more than `plies`.
    positions: Vec<Position>,
    plies: Vec<Ply>,
    /// Black's name, for records.
    pub black: String,
    /// White's name, for records.
    pub white: String,
    /// Black's and White's clocks (index 0 is Black), if the game is timed.
    pub clocks: [Option<ClockSetting>; 2],
}

impl Game {
    /// A game starting at `start`.
    pub fn new(start: Position) -> Game {
        Game {
            positions: vec![start],
            plies: Vec::new(),
            black: String::new(),
            white: String::new(),
            clocks: [None, None],
        }
    }

    /// A game from the start position of a `size`x`size` board, or why there is no such
    /// board.
    pub fn standard(size: usize) -> Result<Game, BoardSizeError> {
        Position::start(size).map(Game::new)
    }

    /// The position the game started from.
    pub fn start(&self) -> &Position {
        &self.positions[0]
    }

    /// The current position.
    pub fn position(&self) -> &Position {
        self.positions
            .last()
            .expect("a game has a current position")
    }

    /// Every position of the game, the start first and the current last.
    pub fn positions(&self) -> &[Position] {
        &self.positions
    }

    /// The plies played, passes included.
    pub fn plies(&self) -> &[Ply] {
        &self.plies
    }

    /// Whether neither side can move.
    pub fn is_over(&self) -> bool {
        self.position().is_game_over()
    }

    /// Whether the side to move has no move but the game goes on.
    pub fn must_pass(&self) -> bool {
        self.position().legal_moves() == [Move::Pass]
    }

    /// Plays `mv` for the side to move.
    pub fn play(&mut self, mv: Move) -> Result<(), PlayError> {
        self.play_annotated(mv, None, None)
    }

    /// Plays `mv` for the side to move, recording an evaluation and the time used.
    pub fn play_annotated(
        &mut self,
        mv: Move,
        eval: Option<f64>,
        seconds: Option<f64>,
    ) -> Result<(), PlayError> {
        // The position refuses any move once the game is over, before any other check.
        let position = *self.position();
        match position.play(mv) {
            Ok(next) => {
                self.push(position.to_move, mv, false, eval, seconds, next);
                Ok(())
            }
            Err(MoveError::GameOver) => Err(self.over_error()),
            Err(e) => Err(PlayError::Illegal(e)),
        }
    }

    /// Makes it `color`'s turn: nothing when it already is; a recorded implicit pass when
    /// the side to move has no move (clients that never send passes move the same colour
    /// twice); an error otherwise.
    pub fn turn_for(&mut self, color: Color) -> Result<(), PlayError> {
        if self.is_over() {
            return Err(self.over_error());
        }
        let position = *self.position();
        if position.to_move == color {
            return Ok(());
        }
        if !self.must_pass() {
            return Err(PlayError::WrongSide {
                asked: color,
                to_move: position.to_move,
                moves: position.legal_moves(),
            });
        }
        let next = position.play(Move::Pass).map_err(PlayError::Illegal)?;
        self.push(position.to_move, Move::Pass, true, None, None, next);
        Ok(())
    }

    /// Plays `mv` for `color`, passing implicitly for the other side when it has no move.
    /// On error the game is unchanged.
    pub fn play_as(&mut self, color: Color, mv: Move) -> Result<(), PlayError> {
        self.play_as_annotated(color, mv, None, None)
    }

    /// [`Game::play_as`] with an evaluation and the time used.
    pub fn play_as_annotated(
        &mut self,
        color: Color,
        mv: Move,
        eval: Option<f64>,
        seconds: Option<f64>,
    ) -> Result<(), PlayError> {
        let before = self.plies.len();
        self.turn_for(color)?;
        if let Err(e) = self.play_annotated(mv, eval, seconds) {
            self.truncate(before);
            return Err(e);
        }
        Ok(())
    }

    /// Plays a move for whoever it fits: the side to move, or, when the side to move has
    /// no move, the other side after an implicit pass. This is how transcripts and
    /// colourless move commands read.
    pub fn play_implicit(
        &mut self,
        mv: Move,
        eval: Option<f64>,
        seconds: Option<f64>,
    ) -> Result<(), PlayError> {
        if mv != Move::Pass && self.must_pass() {
            let other = self.position().to_move.opponent();
            return self.play_as_annotated(other, mv, eval, seconds);
        }
        self.play_annotated(mv, eval, seconds)
    }

    /// The game a transcript plays from `start`, every pass in it implicit, as
    /// [`Game::play_implicit`] records them; a pass at the end is kept (as an implicit
    /// pass), so the game reaches the position the transcript does.
    pub fn from_transcript(start: Position, text: &str) -> Result<Game, PositionError> {
        let (_, moves) = start.play_transcript(text)?;
        let mut game = Game::new(start);
        for mv in moves {
            // The transcript played: each move is legal, after a pass where it needs one.
            let played = match mv {
                Move::Pass => game.turn_for(game.position().to_move.opponent()),
                mv => game.play_implicit(mv, None, None),
            };
            played.expect("a transcript's moves are legal");
        }
        Ok(game)
    }

    /// Plays on to the end of the game, the one loop every in-process game goes through:
    /// `choose` gives the move in each position where the side to move has a legal move,
    /// and a side without one passes (recorded as an implicit pass) without being asked.
    /// Stops at the first error of `choose` ([`PlayOutError::Choose`], any error type), or
    /// at a move the rules refuse ([`PlayOutError::Play`]); the game then holds every ply
    /// before it.
    ///
    /// ```
    /// use emilia_core::board::{Color, Move, MoveError};
    /// use emilia_core::game::{Game, PlayError, PlayOutError};
    ///
    /// # fn main() -> Result<(), Box<dyn std::error::Error>> {
    /// // Black takes its first legal move, White its last, to the end of a 6x6 game.
    /// let mut game = Game::standard(6)?;
    /// game.play_out(|position| {
    ///     let moves = position.legal_moves();
    ///     assert_ne!(moves, [Move::Pass], "passes are not asked for");
    ///     Ok(match position.to_move {
    ///         Color::Black => moves[0],
    ///         Color::White => moves[moves.len() - 1],
    ///     })
    /// })?;
    /// assert!(game.is_over());
    /// println!("{}: {}", game.transcript(), game.result());
    ///
    /// // A move the rules refuse ends the loop; the game keeps the plies before it.
    /// let mut game = Game::standard(8)?;
    /// let f5: Move = "f5".parse()?;
    /// let refused = game.play_out(|_| Ok(f5)).unwrap_err();
    /// assert!(matches!(refused, PlayOutError::Play(PlayError::Illegal(MoveError::Occupied(_)))));
    /// assert_eq!(game.transcript(), "f5");
    /// // So does an error of the chooser's own, any error (`?` converts it).
    /// let stopped = game.play_out(|_| Ok("z9".parse()?)).unwrap_err();
    /// assert!(matches!(stopped, PlayOutError::Choose(_)), "{stopped}");
    /// # Ok(())
    /// # }
    /// ```
    pub fn play_out(
        &mut self,
        mut choose: impl FnMut(&Position) -> Result<Move, ChooseError>,
    ) -> Result<(), PlayOutError> {
        while !self.is_over() {
            if self.must_pass() {
                let other = self.position().to_move.opponent();
                self.turn_for(other).map_err(PlayOutError::Play)?;
            }
            let mv = choose(self.position()).map_err(PlayOutError::Choose)?;
            self.play(mv).map_err(PlayOutError::Play)?;
        }
        Ok(())
    }

    /// Takes back the last move asked for (with any implicit pass it caused) and returns
    /// it, or `None` at the start of the game.
    pub fn undo(&mut self) -> Option<Move> {
        let last = self.plies.iter().rposition(|p| !p.implicit)?;
        let mv = self.plies[last].mv;
        let mut keep = last;
        while keep > 0 && self.plies[keep - 1].implicit {
            keep -= 1;
        }
        self.truncate(keep);
        Some(mv)
    }

    /// Black's disc difference: the final score (empty squares to the winner) when the game
    /// is over, else the current count.
    pub fn score_for_black(&self) -> i32 {
        let position = self.position();
        if position.is_game_over() {
            position.final_score_for(Color::Black)
        } else {
            position.count(Color::Black) as i32 - position.count(Color::White) as i32
        }
    }

    /// The score as `B+12`, `W+4` or `0`.
    pub fn result(&self) -> String {
        let score = self.score_for_black();
        match score.signum() {
            1 => format!("B+{score}"),
            -1 => format!("W+{}", -score),
            _ => "0".to_string(),
        }
    }

    /// The moves as a transcript (`f5d6c3`), passes left implicit.
    pub fn transcript(&self) -> String {
        let moves: Vec<Move> = self.plies.iter().map(|p| p.mv).collect();
        crate::board::transcript(&moves)
    }

    /// Time used by `color` so far, from the recorded move times.
    pub fn time_used(&self, color: Color) -> Duration {
        let seconds: f64 = self
            .plies
            .iter()
            .filter(|p| p.color == color)
            .filter_map(|p| p.seconds)
            .filter(|s| s.is_finite() && *s > 0.0)
            .sum();
        Duration::from_secs_f64(seconds.min(1e9))
    }

    /// Time left on `color`'s clock, with increments earned, if the game is timed.
    pub fn time_left(&self, color: Color) -> Option<Duration> {
        let clock = self.clocks[color.index()]?;
        let moves = self.plies.iter().filter(|p| p.color == color).count() as u32;
        let earned = clock.main + clock.increment * moves;
        Some(earned.saturating_sub(self.time_used(color)))
    }

    /// The clock of `color`, if the game is timed.
    pub fn clock(&self, color: Color) -> Option<ClockSetting> {
        self.clocks[color.index()]
    }

    fn push(
        &mut self,
        color: Color,
        mv: Move,
        implicit: bool,
        eval: Option<f64>,
        seconds: Option<f64>,
        next: Position,
    ) {
        self.plies.push(Ply {
            color,
            mv,
            implicit,
            eval,
            seconds,
        });
        self.positions.push(next);
    }

    fn truncate(&mut self, plies: usize) {
        self.plies.truncate(plies);
        self.positions.truncate(plies + 1);
    }

    /// The error for any move once the game is over, naming the result.
    pub fn over_error(&self) -> PlayError {
        PlayError::GameOver {
            result: self.result(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn mv(text: &str) -> Move {
        text.parse().unwrap()
    }

    /// A position where White (to move) must pass and Black can still move.
    fn white_must_pass() -> Position {
        // Black X on a1 b1, White O on c1; Black to move plays d1... build directly:
        // row 1: X O - ... with White to move: White has no move, Black has c1.
        let mut squares = vec!['-'; 64];
        squares[0] = 'X';
        squares[1] = 'O';
        let squares: String = squares.into_iter().collect();
        Position::from_parts(&squares, "O").unwrap()
    }

    #[test]
    fn plays_undoes_and_scores() {
        let mut game = Game::standard(8).unwrap();
        game.play(mv("f5")).unwrap();
        game.play_as(Color::White, mv("d6")).unwrap();
        assert_eq!(game.transcript(), "f5d6");
        assert_eq!(game.plies().len(), 2);
        let err = game.play_as(Color::White, mv("c3")).unwrap_err();
        assert!(
            matches!(err, PlayError::WrongSide { .. }),
            "{err}: white moved twice while black has moves"
        );
        assert!(err.to_string().starts_with("wrong side to move"), "{err}");
        assert_eq!(game.transcript(), "f5d6", "errors leave the game unchanged");
        assert_eq!(game.undo(), Some(mv("d6")));
        assert_eq!(game.undo(), Some(mv("f5")));
        assert_eq!(game.undo(), None);
        assert_eq!(*game.position(), Position::start(8).unwrap());
        assert_eq!(game.result(), "0");
    }

    #[test]
    fn implicit_passes_are_recorded_and_undone_with_their_move() {
        let mut game = Game::new(white_must_pass());
        assert!(game.must_pass());
        game.play_as(Color::Black, mv("c1")).unwrap();
        assert_eq!(game.plies().len(), 2);
        assert!(game.plies()[0].implicit);
        assert_eq!(game.plies()[0].mv, Move::Pass);
        assert!(game.is_over());
        assert_eq!(game.result(), "B+64");
        assert!(matches!(
            game.play(mv("d1")),
            Err(PlayError::GameOver { .. })
        ));
        assert_eq!(game.undo(), Some(mv("c1")));
        assert!(
            game.plies().is_empty(),
            "the implicit pass goes with its move"
        );
        // An explicit pass is undone on its own.
        game.play(Move::Pass).unwrap();
        assert!(!game.plies()[0].implicit);
        assert_eq!(game.undo(), Some(Move::Pass));
        // A colourless move after a forced pass.
        game.play_implicit(mv("c1"), None, None).unwrap();
        assert_eq!(game.plies().len(), 2);
    }

    #[test]
    fn transcripts_keep_their_passes_implicit_and_their_last_pass() {
        let start = white_must_pass();
        let passed = Game::from_transcript(start, "pass").unwrap();
        assert_eq!(passed.position(), &start.play(Move::Pass).unwrap());
        assert!(passed.plies()[0].implicit);
        for text in ["c1", "pass c1", "PAc1"] {
            let game = Game::from_transcript(start, text).unwrap();
            assert_eq!(game.plies().len(), 2, "{text}");
            assert!(game.plies()[0].implicit && game.is_over(), "{text}");
        }
    }

    #[test]
    fn failed_moves_after_an_implicit_pass_leave_no_pass() {
        let mut game = Game::new(white_must_pass());
        let err = game.play_as(Color::Black, mv("h8")).unwrap_err();
        assert!(matches!(err, PlayError::Illegal(MoveError::NoFlips(_))));
        assert!(game.plies().is_empty());
    }

    #[test]
    fn play_out_passes_for_a_side_without_moves_and_stops_at_errors() {
        // White must pass; the chooser is asked only for Black's c1, which ends the game.
        let mut game = Game::new(white_must_pass());
        let mut asked = Vec::new();
        game.play_out(|position| {
            asked.push(*position);
            Ok(mv("c1"))
        })
        .unwrap();
        assert_eq!(asked.len(), 1);
        assert_eq!(asked[0].to_move, Color::Black);
        let plies: Vec<(Color, Move, bool)> = game
            .plies()
            .iter()
            .map(|p| (p.color, p.mv, p.implicit))
            .collect();
        assert_eq!(
            plies,
            [
                (Color::White, Move::Pass, true),
                (Color::Black, mv("c1"), false)
            ]
        );
        assert_eq!(game.result(), "B+64");
        // A finished game asks nothing.
        game.play_out(|_| panic!("asked after the end")).unwrap();

        // The chooser's own error ends the loop, with the plies before it kept.
        let mut game = Game::standard(8).unwrap();
        let mut first = true;
        let stopped = game.play_out(|_| {
            if std::mem::take(&mut first) {
                Ok(mv("f5"))
            } else {
                Err("the chooser gave up".into())
            }
        });
        let stopped = stopped.unwrap_err();
        assert!(matches!(stopped, PlayOutError::Choose(_)), "{stopped:?}");
        assert_eq!(stopped.to_string(), "the chooser gave up");
        assert_eq!(game.transcript(), "f5");
        // A pass while a move exists is refused by the rules, the game unchanged.
        let refused = game.play_out(|_| Ok(Move::Pass)).unwrap_err();
        assert!(
            matches!(
                refused,
                PlayOutError::Play(PlayError::Illegal(MoveError::CannotPass))
            ),
            "{refused:?}"
        );
        assert_eq!(game.transcript(), "f5");
    }

    #[test]
    fn clocks_count_down_with_recorded_times() {
        let mut game = Game::standard(8).unwrap();
        game.clocks = [Some(ClockSetting {
            main: Duration::from_secs(60),
            increment: Duration::from_secs(1),
        }); 2];
        game.play_annotated(mv("f5"), Some(0.5), Some(10.0))
            .unwrap();
        assert_eq!(game.time_left(Color::Black), Some(Duration::from_secs(51)));
        assert_eq!(game.time_left(Color::White), Some(Duration::from_secs(60)));
    }
}
