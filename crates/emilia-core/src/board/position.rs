//! Positions with colours, legal play with explained errors, and the text formats: board
//! strings (`X`/`O`/`-` per square, then the side to move) and transcripts (`f5d6c3…`).

use std::fmt;
use std::str::FromStr;

use super::square::PASS_WORDS;
use super::{
    Board, Board10, Board12, Board6, Board8, BoardSize, BoardSizeError, Cell, Color, Move, Square,
    SquareError, SquareSet, SIZES,
};

/// A board of any supported size, each on its own bitboards.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum AnyBoard {
    /// 6x6.
    Six(Board6),
    /// 8x8.
    Eight(Board8),
    /// 10x10.
    Ten(Board10),
    /// 12x12.
    Twelve(Board12),
}

/// Runs generic code on whichever board an [`AnyBoard`] holds:
/// `with_board!(any, b => b.move_count())`.
#[macro_export]
macro_rules! with_board {
    ($any:expr, $board:ident => $body:expr) => {
        match $any {
            $crate::board::AnyBoard::Six($board) => $body,
            $crate::board::AnyBoard::Eight($board) => $body,
            $crate::board::AnyBoard::Ten($board) => $body,
            $crate::board::AnyBoard::Twelve($board) => $body,
        }
    };
}

impl AnyBoard {
    /// The start position on a board of side `size`, or why there is no such board.
    pub fn start(size: usize) -> Result<AnyBoard, BoardSizeError> {
        Ok(AnyBoard::start_of(BoardSize::new(size)?))
    }

    /// The start position on a board of `size`.
    pub fn start_of(size: BoardSize) -> AnyBoard {
        match size.side() {
            6 => AnyBoard::Six(Board6::start(6)),
            8 => AnyBoard::Eight(Board8::START),
            10 => AnyBoard::Ten(Board10::start(10)),
            _ => AnyBoard::Twelve(Board12::start(12)),
        }
    }

    /// Squares per side.
    pub fn size(&self) -> usize {
        with_board!(self, b => b.size())
    }

    /// What is on square `index`.
    pub fn cell(&self, index: usize) -> Cell {
        with_board!(self, b => b.cell(index))
    }

    /// Legal moves of the side to move, as row-major indices in ascending order.
    pub fn moves(&self) -> Vec<usize> {
        with_board!(self, b => b.moves().collect())
    }

    /// Whether `index` is a legal move.
    pub fn is_legal(&self, index: usize) -> bool {
        with_board!(self, b => b.is_legal(index))
    }

    /// Discs flipped by the move on `index`.
    pub fn flip_count(&self, index: usize) -> u32 {
        with_board!(self, b => b.flip_count(index))
    }

    /// The position after the legal move on `index`.
    pub fn play(&self, index: usize) -> AnyBoard {
        match self {
            AnyBoard::Six(b) => AnyBoard::Six(b.play(index)),
            AnyBoard::Eight(b) => AnyBoard::Eight(b.play(index)),
            AnyBoard::Ten(b) => AnyBoard::Ten(b.play(index)),
            AnyBoard::Twelve(b) => AnyBoard::Twelve(b.play(index)),
        }
    }

    /// The position after a move on `index` if it is legal ([`Board::play_if_legal`]).
    fn play_if_legal(&self, index: usize) -> Option<AnyBoard> {
        match self {
            AnyBoard::Six(b) => b.play_if_legal(index).map(AnyBoard::Six),
            AnyBoard::Eight(b) => b.play_if_legal(index).map(AnyBoard::Eight),
            AnyBoard::Ten(b) => b.play_if_legal(index).map(AnyBoard::Ten),
            AnyBoard::Twelve(b) => b.play_if_legal(index).map(AnyBoard::Twelve),
        }
    }

    /// The position after a pass.
    pub fn pass(&self) -> AnyBoard {
        match self {
            AnyBoard::Six(b) => AnyBoard::Six(b.pass()),
            AnyBoard::Eight(b) => AnyBoard::Eight(b.pass()),
            AnyBoard::Ten(b) => AnyBoard::Ten(b.pass()),
            AnyBoard::Twelve(b) => AnyBoard::Twelve(b.pass()),
        }
    }

    /// Whether the side to move has a legal move.
    pub fn has_moves(&self) -> bool {
        with_board!(self, b => b.has_moves())
    }

    /// Whether neither side can move.
    pub fn is_game_over(&self) -> bool {
        with_board!(self, b => b.is_game_over())
    }

    /// Discs of the side to move, of the opponent, and empty squares.
    pub fn counts(&self) -> (u32, u32, u32) {
        with_board!(self, b => (b.player_discs(), b.opponent_discs(), b.empties()))
    }

    /// Final disc difference for the side to move, empties to the winner.
    pub fn final_score(&self) -> i32 {
        with_board!(self, b => b.final_score())
    }

    /// Position hash.
    pub fn hash_key(&self) -> u64 {
        with_board!(self, b => b.hash_key())
    }

    fn from_cells(size: usize, cells: &[Cell]) -> AnyBoard {
        let mut player = SquareSet::default();
        let mut opponent = SquareSet::default();
        for (index, cell) in cells.iter().enumerate() {
            match cell {
                Cell::Player => player.insert(index),
                Cell::Opponent => opponent.insert(index),
                Cell::Empty => {}
            }
        }
        match size {
            6 => AnyBoard::Six(Board6::from_sets(player, opponent)),
            8 => AnyBoard::Eight(Board8 {
                player: player.0[0],
                opponent: opponent.0[0],
            }),
            10 => AnyBoard::Ten(Board10::from_sets(player, opponent)),
            _ => AnyBoard::Twelve(Board12::from_sets(player, opponent)),
        }
    }
}

/// Why a move cannot be played.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MoveError {
    /// The square is not on this board.
    OffBoard(Square, usize),
    /// The square already holds a disc.
    Occupied(Square),
    /// A disc there would flip nothing.
    NoFlips(Square),
    /// A pass was asked for but the side to move has a move.
    CannotPass,
    /// Neither side can move any more.
    GameOver,
}

impl fmt::Display for MoveError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            MoveError::OffBoard(sq, size) => {
                write!(f, "illegal move {sq}: off the {size}x{size} board")
            }
            MoveError::Occupied(sq) => write!(f, "illegal move {sq}: square is occupied"),
            MoveError::NoFlips(sq) => write!(f, "illegal move {sq}: no discs to flip"),
            MoveError::CannotPass => f.write_str("illegal move pass: a legal move exists"),
            MoveError::GameOver => f.write_str("game over: neither side can move"),
        }
    }
}

impl std::error::Error for MoveError {}

/// Why a board string or transcript could not be read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PositionError {
    /// The squares part has a length that is no supported board.
    Length(usize),
    /// A character that is no disc or empty square.
    BadChar(char, usize),
    /// The side to move is missing or unreadable.
    Side(String),
    /// A malformed square in a transcript.
    Square(SquareError),
    /// An illegal move in a transcript, with its 1-based ply.
    Illegal(usize, MoveError),
}

impl fmt::Display for PositionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PositionError::Length(n) => write!(
                f,
                "board has {n} squares: expected 36, 64, 100 or 144 of X, O and -"
            ),
            PositionError::BadChar(c, i) => write!(
                f,
                "board square {} is {c:?}: expected X (black), O (white) or - (empty)",
                i + 1
            ),
            PositionError::Side(s) if s.is_empty() => {
                f.write_str("board has no side to move: add X (black) or O (white)")
            }
            PositionError::Side(s) => write!(
                f,
                "side to move '{s}' is not a colour: expected X (black) or O (white)"
            ),
            PositionError::Square(e) => write!(f, "transcript: {e}"),
            PositionError::Illegal(ply, e) => write!(f, "transcript move {ply}: {e}"),
        }
    }
}

impl std::error::Error for PositionError {}

/// Why words cannot set up a position ([`Position::from_words`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SetupError {
    /// A whole board and its side to move, then more words (the last such reading).
    AfterSide {
        /// The side to move read.
        side: String,
        /// The word after it.
        extra: String,
    },
    /// A word holding a character no square is (such as a size before the rows).
    NotSquares {
        /// The word.
        word: String,
        /// The character.
        found: char,
    },
    /// Otherwise malformed.
    Position(PositionError),
}

impl fmt::Display for SetupError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SetupError::AfterSide { side, extra } => {
                write!(f, "unexpected '{extra}' after the side to move '{side}'")
            }
            SetupError::NotSquares { word, found } => write!(
                f,
                "'{word}' is not squares of the board ('{found}' is none of X, O and -): give \
                 the squares (rows may be split by spaces), then the side to move"
            ),
            SetupError::Position(e) => e.fmt(f),
        }
    }
}

impl std::error::Error for SetupError {}

impl From<SquareError> for PositionError {
    fn from(e: SquareError) -> PositionError {
        PositionError::Square(e)
    }
}

/// A board with colours: whose discs are whose, and who is to move.
///
/// A position is a value: [`Position::play`] returns the next one and leaves this one as it
/// was. It prints as its board string (squares in a1, b1, … order, then the side to move)
/// and reads back from it.
///
/// ```
/// use emilia_core::board::{transcript, Color, Move, Position};
///
/// # fn main() -> Result<(), Box<dyn std::error::Error>> {
/// let start = Position::start(8).unwrap();
/// assert_eq!(start.to_move, Color::Black);
/// assert_eq!((start.count(Color::Black), start.count(Color::White)), (2, 2));
///
/// // Black's four openings, and one of them played.
/// let moves = start.legal_moves();
/// let names: Vec<String> = moves.iter().map(Move::to_string).collect();
/// assert_eq!(names.len(), 4);
/// for name in ["d3", "c4", "f5", "e6"] {
///     assert!(names.contains(&name.to_string()), "{name} in {names:?}");
/// }
/// let f5: Move = "f5".parse()?;
/// let after = start.play(f5)?;
/// assert_eq!(after.to_move, Color::White);
/// assert_eq!((after.count(Color::Black), after.count(Color::White)), (4, 1));
/// assert_eq!((start.empties(), after.empties()), (60, 59));
///
/// // An illegal move is refused; the position stays as it was.
/// assert!(after.play("a1".parse()?).is_err());
///
/// // The board string and back.
/// assert_eq!(after.squares_string().len(), 64);
/// assert_eq!(Position::from_parts(&after.squares_string(), "O")?, after);
/// assert_eq!(after.to_string().parse::<Position>()?, after);
///
/// // A transcript played from the start, and written again from its moves.
/// let (reached, played) = start.play_transcript("F5d6C3")?;
/// assert_eq!(played.len(), 3);
/// assert_eq!(transcript(&played), "f5d6c3");
/// assert_eq!(reached, after.play("d6".parse()?)?.play("c3".parse()?)?);
/// assert!(start.play_transcript("f5f5").is_err());
///
/// // The other sizes: 6x6, 10x10, 12x12 (and no other).
/// assert_eq!(Position::start(6).unwrap().legal_moves().len(), 4);
/// assert_eq!(Position::start(12).unwrap().size(), 12);
/// assert!(Position::start(7).is_err());
/// # Ok(())
/// # }
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct Position {
    /// The board from the side to move's point of view.
    pub board: AnyBoard,
    /// The colour of the side to move.
    pub to_move: Color,
}

impl Position {
    /// The start position on a board of side `size` (6, 8, 10 or 12), Black to move, or
    /// why there is no such board.
    pub fn start(size: usize) -> Result<Position, BoardSizeError> {
        Ok(Position::start_of(BoardSize::new(size)?))
    }

    /// The start position on a board of `size`, Black to move.
    pub fn start_of(size: BoardSize) -> Position {
        Position {
            board: AnyBoard::start_of(size),
            to_move: Color::Black,
        }
    }

    /// The number of empty squares.
    pub fn empties(&self) -> u32 {
        self.board.counts().2
    }

    /// Squares per side.
    pub fn size(&self) -> usize {
        self.board.size()
    }

    /// The colour of the disc on `index`, if any.
    pub fn disc(&self, index: usize) -> Option<Color> {
        match self.board.cell(index) {
            Cell::Empty => None,
            Cell::Player => Some(self.to_move),
            Cell::Opponent => Some(self.to_move.opponent()),
        }
    }

    /// Discs of `color`.
    pub fn count(&self, color: Color) -> u32 {
        let (player, opponent, _) = self.board.counts();
        if color == self.to_move {
            player
        } else {
            opponent
        }
    }

    /// Legal moves of the side to move as squares; `[Move::Pass]` when it must pass, empty
    /// when the game is over.
    pub fn legal_moves(&self) -> Vec<Move> {
        let size = self.size();
        let moves: Vec<Move> = self
            .board
            .moves()
            .into_iter()
            .map(|i| Move::Play(Square::from_index(i, size)))
            .collect();
        if moves.is_empty() && !self.board.is_game_over() {
            vec![Move::Pass]
        } else {
            moves
        }
    }

    /// Whether neither side can move.
    pub fn is_game_over(&self) -> bool {
        self.board.is_game_over()
    }

    /// Checks `mv` and returns the position after it, or why it is illegal.
    pub fn play(&self, mv: Move) -> Result<Position, MoveError> {
        // The common case first: a legal move is played after one test, which also shows
        // that the game goes on. Anything else is explained below, game over first.
        if let Move::Play(sq) = mv {
            if let Some(board) = sq
                .index(self.size())
                .and_then(|index| self.board.play_if_legal(index))
            {
                return Ok(Position {
                    board,
                    to_move: self.to_move.opponent(),
                });
            }
        }
        if self.is_game_over() {
            return Err(MoveError::GameOver);
        }
        let board = match mv {
            Move::Pass if self.board.has_moves() => return Err(MoveError::CannotPass),
            Move::Pass => self.board.pass(),
            Move::Play(sq) => {
                let index = sq
                    .index(self.size())
                    .ok_or(MoveError::OffBoard(sq, self.size()))?;
                if self.board.cell(index) != Cell::Empty {
                    return Err(MoveError::Occupied(sq));
                }
                if !self.board.is_legal(index) {
                    return Err(MoveError::NoFlips(sq));
                }
                self.board.play(index)
            }
        };
        Ok(Position {
            board,
            to_move: self.to_move.opponent(),
        })
    }

    /// Final disc difference for `color`, empties to the winner.
    pub fn final_score_for(&self, color: Color) -> i32 {
        let score = self.board.final_score();
        if color == self.to_move {
            score
        } else {
            -score
        }
    }

    /// The squares part of the board string: `X`, `O`, `-` in a1, b1, … order.
    pub fn squares_string(&self) -> String {
        (0..self.size() * self.size())
            .map(|i| self.disc(i).map_or('-', Color::disc_char))
            .collect()
    }

    /// Reads a board from words: its squares (rows may be split into words), then the side
    /// to move, as [`Position::from_parts`] reads them; an error names the word at fault.
    pub fn from_words(words: &[&str]) -> Result<Position, SetupError> {
        let Some((side, squares)) = words.split_last() else {
            return Err(SetupError::Position(PositionError::Side(String::new())));
        };
        Position::from_parts(&squares.concat(), side).map_err(|e| {
            let mut count = 0;
            let mut after_side = None;
            for (i, word) in words.iter().enumerate() {
                let whole_board = SIZES.iter().any(|s| s * s == count);
                if whole_board && word.parse::<Color>().is_ok() && i + 1 < words.len() {
                    let (side, extra) = (word.to_string(), words[i + 1].to_string());
                    after_side = Some(SetupError::AfterSide { side, extra });
                }
                count += word.chars().count();
            }
            let PositionError::BadChar(found, index) = e else {
                return after_side.unwrap_or(SetupError::Position(e));
            };
            let mut before = 0;
            let word = squares.iter().find(|word| {
                before += word.chars().count();
                before > index
            });
            match (after_side, word) {
                (Some(after_side), _) => after_side,
                (None, Some(word)) => SetupError::NotSquares {
                    word: word.to_string(),
                    found,
                },
                (None, None) => SetupError::Position(e),
            }
        })
    }

    /// Reads a board from its squares and its side to move (`X`/`O`/`black`/`white`…).
    /// `X` or `*` is Black, `O` is White, `-`, `.` or `_` is empty.
    pub fn from_parts(squares: &str, side: &str) -> Result<Position, PositionError> {
        let chars: Vec<char> = squares.chars().collect();
        // A character that is no square is named first: it may be why the count is wrong.
        let discs: Vec<Option<Color>> = chars
            .iter()
            .enumerate()
            .map(|(i, &c)| match c {
                'X' | 'x' | '*' | 'B' | 'b' => Ok(Some(Color::Black)),
                'O' | 'o' | 'W' | 'w' => Ok(Some(Color::White)),
                '-' | '.' | '_' | 'E' | 'e' => Ok(None),
                _ => Err(PositionError::BadChar(c, i)),
            })
            .collect::<Result<_, _>>()?;
        let size = SIZES
            .into_iter()
            .find(|s| s * s == chars.len())
            .ok_or(PositionError::Length(chars.len()))?;
        let to_move: Color = side
            .parse()
            .map_err(|_| PositionError::Side(side.to_string()))?;
        let mut cells = Vec::with_capacity(chars.len());
        for color in discs {
            cells.push(match color {
                None => Cell::Empty,
                Some(c) if c == to_move => Cell::Player,
                Some(_) => Cell::Opponent,
            });
        }
        Ok(Position {
            board: AnyBoard::from_cells(size, &cells),
            to_move,
        })
    }

    /// Plays a transcript such as `f5d6c3d3` (squares in either case; forced passes implicit,
    /// or explicit in any spelling [`Move`] reads: `pass`, `PA`, `ps`, `--`, `@@`) from this
    /// position; returns the
    /// position reached and the moves played, passes included.
    pub fn play_transcript(&self, text: &str) -> Result<(Position, Vec<Move>), PositionError> {
        let mut position = *self;
        let mut played = Vec::new();
        for (ply, token) in split_transcript(text)?.into_iter().enumerate() {
            let mv: Move = token.parse()?;
            if let Move::Play(_) = mv {
                if !position.board.has_moves() && !position.is_game_over() {
                    position = position.board_pass();
                    played.push(Move::Pass);
                }
            }
            position = position
                .play(mv)
                .map_err(|e| PositionError::Illegal(ply + 1, e))?;
            played.push(mv);
        }
        Ok((position, played))
    }

    fn board_pass(&self) -> Position {
        Position {
            board: self.board.pass(),
            to_move: self.to_move.opponent(),
        }
    }
}

/// Longest token kept whole in an error message: no square is longer.
const MAX_TOKEN: usize = 4;

/// Splits a transcript into move tokens: squares (a letter then all the digits that follow)
/// and pass words. Linear in the text, however much of it is junk.
fn split_transcript(text: &str) -> Result<Vec<String>, PositionError> {
    let mut tokens = Vec::new();
    let chars: Vec<char> = text.chars().filter(|c| !c.is_whitespace()).collect();
    let longest_pass = PASS_WORDS.iter().map(|w| w.len()).max().unwrap_or(0);
    let mut i = 0;
    while i < chars.len() {
        let ahead: String = chars[i..chars.len().min(i + longest_pass)]
            .iter()
            .collect::<String>()
            .to_ascii_lowercase();
        if let Some(word) = PASS_WORDS.into_iter().find(|w| ahead.starts_with(w)) {
            tokens.push(word.to_string());
            i += word.len();
            continue;
        }
        let start = i;
        i += 1;
        while i < chars.len() && chars[i].is_ascii_digit() {
            i += 1;
        }
        // As typed, so that an error names it; a run too long for any square is cut.
        let mut token: String = chars[start..i.min(start + MAX_TOKEN)].iter().collect();
        if i - start > MAX_TOKEN {
            token.push_str("...");
        }
        tokens.push(token);
    }
    Ok(tokens)
}

/// Writes moves as a transcript, passes left implicit: `f5d6c3`.
pub fn transcript(moves: &[Move]) -> String {
    moves
        .iter()
        .filter_map(|m| match m {
            Move::Play(sq) => Some(sq.to_string()),
            Move::Pass => None,
        })
        .collect()
}

impl fmt::Display for Position {
    /// The board string: squares, a space, then `X` or `O` for the side to move.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} {}", self.squares_string(), self.to_move.disc_char())
    }
}

impl FromStr for Position {
    type Err = PositionError;

    /// Reads `<squares> <side>`, as in OBF files (anything after a `;` is ignored).
    fn from_str(s: &str) -> Result<Position, PositionError> {
        let s = s.split(';').next().unwrap_or("");
        let mut parts = s.split_whitespace();
        let squares = parts.next().unwrap_or("");
        let side = parts.next().unwrap_or("");
        if let Some(extra) = parts.next() {
            return Err(PositionError::Side(format!("{side} {extra}")));
        }
        Position::from_parts(squares, side)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn playing_if_legal_is_testing_then_playing_on_every_size() {
        let mut rng = crate::rng::Rng::new(3);
        for size in SIZES {
            for _ in 0..4 {
                let mut board = Position::start(size).unwrap().board;
                while !board.is_game_over() {
                    // Every square, the occupied ones included, and one off the board.
                    for index in 0..=size * size {
                        let expected = board.is_legal(index).then(|| board.play(index));
                        assert_eq!(board.play_if_legal(index), expected, "{size}: {index}");
                    }
                    board = match rng.pick(&board.moves()) {
                        Some(&index) => board.play(index),
                        None => board.pass(),
                    };
                }
            }
        }
    }

    #[test]
    fn board_strings_round_trip() {
        for size in SIZES {
            let start = Position::start(size).unwrap();
            let text = start.to_string();
            assert_eq!(text.parse::<Position>().unwrap(), start);
        }
        let start8 = Position::start(8).unwrap();
        assert_eq!(
            start8.to_string(),
            "---------------------------OX------XO--------------------------- X"
        );
    }

    #[test]
    fn malformed_board_strings_say_what_is_wrong() {
        let good = "---------------------------OX------XO---------------------------";
        assert_eq!("".parse::<Position>(), Err(PositionError::Length(0)));
        assert_eq!(
            format!("{} X", &good[1..]).parse::<Position>(),
            Err(PositionError::Length(63))
        );
        let bad_char = format!("{}Z{} X", &good[..10], &good[11..]);
        assert_eq!(
            bad_char.parse::<Position>(),
            Err(PositionError::BadChar('Z', 10))
        );
        assert!(matches!(
            good.parse::<Position>(),
            Err(PositionError::Side(_))
        ));
        assert!(matches!(
            format!("{good} Q").parse::<Position>(),
            Err(PositionError::Side(_))
        ));
        let message = bad_char.parse::<Position>().unwrap_err().to_string();
        assert!(message.contains("square 11"), "{message}");
    }

    #[test]
    fn transcripts_play_and_round_trip() {
        let start = Position::start(8).unwrap();
        let (after, moves) = start.play_transcript("f5d6C3D3c4").unwrap();
        assert_eq!(transcript(&moves), "f5d6c3d3c4");
        assert_eq!(after.to_move, Color::White);
        assert_eq!(after.count(Color::Black) + after.count(Color::White), 9);
        let err = start.play_transcript("f5f5").unwrap_err();
        assert_eq!(
            err,
            PositionError::Illegal(2, MoveError::Occupied("f5".parse().unwrap()))
        );
        let err = start.play_transcript("a1").unwrap_err();
        assert_eq!(
            err.to_string(),
            "transcript move 1: illegal move a1: no discs to flip"
        );
        assert!(start.play_transcript("f5x").is_err());
        // Errors name the token as typed, not a part of it.
        let err = start.play_transcript("f5a123").unwrap_err().to_string();
        assert!(err.contains("'a123' is not a square"), "{err}");
        let err = start
            .play_transcript("f5a12345678")
            .unwrap_err()
            .to_string();
        assert!(err.contains("'a123...' is not a square"), "{err}");
        let ten = Position::start(10).unwrap();
        let (_, moves) = ten.play_transcript("g6e7").unwrap();
        assert_eq!(moves.len(), 2);
    }

    /// A random game in which Black must pass after 8 plies and White after 60 (from an
    /// independent implementation's records).
    const GAME_WITH_PASSES: &str = "f5f6d3g5h5h4g7h6f8h8e7f7f4g6c3b2e6e8c4d7d6h7d2g4c8c5b5c2a1\
        a5d8e2c1b1e1a2b6g3e3f3f2c7b8d1g8b7c6f1b4a7a3b3a8h2a6h3g1g2a4h1";

    #[test]
    fn forced_passes_are_implicit_or_explicit_in_transcripts() {
        let start = Position::start(8).unwrap();
        let (implicit, moves) = start.play_transcript("f5f6d3g5h5h4g7h6f8h8").unwrap();
        assert_eq!(moves.len(), 11);
        assert_eq!(moves[8], Move::Pass);
        assert_eq!(transcript(&moves), "f5f6d3g5h5h4g7h6f8h8");
        assert_eq!(implicit.to_move, Color::White);
        for spelling in ["pass", "PASS", "pa", "PA", "ps", "PS", "--", "@@"] {
            let text = format!("f5f6d3g5h5h4g7h6{spelling}f8h8");
            let (explicit, explicit_moves) = start.play_transcript(&text).unwrap();
            assert_eq!(explicit, implicit, "{text}");
            assert_eq!(explicit_moves, moves, "{text}");
        }
        // A pass when a move exists is refused, counted in transcript tokens.
        assert_eq!(
            start.play_transcript("f5 pass").unwrap_err(),
            PositionError::Illegal(2, MoveError::CannotPass)
        );

        let (end, moves) = start.play_transcript(GAME_WITH_PASSES).unwrap();
        assert_eq!(moves.len(), 62);
        assert_eq!(moves.iter().filter(|m| **m == Move::Pass).count(), 2);
        assert!(end.is_game_over());
        assert!(end.legal_moves().is_empty());
        assert_eq!(end.play(Move::Pass), Err(MoveError::GameOver));
        assert_eq!(transcript(&moves), GAME_WITH_PASSES);
        let err = start
            .play_transcript(&format!("{GAME_WITH_PASSES}pass"))
            .unwrap_err();
        assert_eq!(err, PositionError::Illegal(61, MoveError::GameOver));
    }

    #[test]
    fn transcripts_reach_two_digit_rows_on_12x12() {
        // Always play the last legal move in board order, to reach rows 10 to 12 quickly.
        let mut position = Position::start(12).unwrap();
        let mut moves = Vec::new();
        while !moves
            .iter()
            .any(|m| matches!(m, Move::Play(sq) if sq.row() == 11))
        {
            let mv = *position.legal_moves().last().unwrap();
            position = position.play(mv).unwrap();
            moves.push(mv);
        }
        let text = transcript(&moves);
        assert!(text.contains("12"), "{text}");
        let start = Position::start(12).unwrap();
        for variant in [text.clone(), text.to_uppercase(), moves_spaced(&moves)] {
            let (replayed, replayed_moves) = start.play_transcript(&variant).unwrap();
            assert_eq!(replayed, position, "{variant}");
            assert_eq!(replayed_moves, moves, "{variant}");
        }
        // Board strings of 144 squares read back too.
        assert_eq!(position.to_string().parse::<Position>().unwrap(), position);
        // A 13th row or column does not exist.
        assert!(matches!(
            start.play_transcript("f5a13").unwrap_err(),
            PositionError::Square(SquareError::OutOfRange(_))
        ));
        assert_eq!(
            start.play_transcript("l12").unwrap_err(),
            PositionError::Illegal(1, MoveError::NoFlips("l12".parse().unwrap()))
        );
        let eight = Position::start(8).unwrap();
        assert!(matches!(
            eight.play_transcript("i9").unwrap_err(),
            PositionError::Illegal(1, MoveError::OffBoard(_, 8))
        ));
    }

    fn moves_spaced(moves: &[Move]) -> String {
        moves
            .iter()
            .map(|m| m.to_string())
            .collect::<Vec<_>>()
            .join(" ")
    }

    #[test]
    fn board_strings_accept_every_documented_spelling() {
        let start = Position::start(8).unwrap();
        let canonical = start.to_string();
        let variants = [
            canonical.to_lowercase(),
            canonical.replace('-', "."),
            canonical.replace('-', "_"),
            canonical.replace('X', "*"),
            format!("{} black", start.squares_string()),
            format!("{} B", start.squares_string()),
            format!("  {}   x ; trailing comment", start.squares_string()),
        ];
        for text in variants {
            assert_eq!(text.parse::<Position>(), Ok(start), "{text}");
        }
        let white_to_move = format!("{} O", start.squares_string());
        let parsed: Position = white_to_move.parse().unwrap();
        assert_eq!(parsed.to_move, Color::White);
        assert_eq!(parsed.to_string(), white_to_move);
        assert_eq!(parsed.disc(27), Some(Color::White));
        assert!(matches!(
            format!("{} X O", start.squares_string()).parse::<Position>(),
            Err(PositionError::Side(_))
        ));
    }

    #[test]
    fn illegal_moves_are_explained() {
        let start = Position::start(8).unwrap();
        let e3: Move = "e3".parse().unwrap();
        assert_eq!(
            start.play(e3).unwrap_err().to_string(),
            "illegal move e3: no discs to flip"
        );
        assert_eq!(start.play(Move::Pass), Err(MoveError::CannotPass));
        let off: Move = "i9".parse().unwrap();
        assert!(matches!(start.play(off), Err(MoveError::OffBoard(..))));
        let d4: Move = "d4".parse().unwrap();
        assert!(matches!(start.play(d4), Err(MoveError::Occupied(_))));
    }
}
