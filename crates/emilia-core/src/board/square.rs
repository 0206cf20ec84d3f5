//! Squares and moves as small value types with parsing and printing.

use std::fmt;
use std::str::FromStr;

/// Largest board side supported (12x12).
pub const MAX_SIZE: usize = 12;

/// A square named by column and row, `a1` at the top left. Valid on any board up to 12x12;
/// whether it lies on a given board is checked against that board's size.
///
/// ```
/// use emilia_core::board::Square;
///
/// let square: Square = "c4".parse().unwrap();
/// assert_eq!((square.col(), square.row()), (2, 3));
/// assert_eq!(square.to_string(), "c4");
/// assert_eq!("C4".parse::<Square>(), Ok(square));
///
/// // Squares are numbered row by row on a board of the given side.
/// assert_eq!(square.index(8), Some(26));
/// assert_eq!(square.index(6), Some(20));
/// assert_eq!("l12".parse::<Square>().unwrap().index(8), None);
/// assert_eq!(Square::from_index(26, 8), square);
///
/// // Not a square: said why.
/// assert!("m1".parse::<Square>().is_err());
/// assert!("c0".parse::<Square>().is_err());
/// assert!("4c".parse::<Square>().is_err());
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, PartialOrd, Ord)]
pub struct Square {
    col: u8,
    row: u8,
}

impl Square {
    /// The square at zero-based `col` and `row`, or `None` beyond the largest board.
    pub fn new(col: usize, row: usize) -> Option<Square> {
        (col < MAX_SIZE && row < MAX_SIZE).then_some(Square {
            col: col as u8,
            row: row as u8,
        })
    }

    /// The square with row-major `index` on a board of side `size`.
    pub fn from_index(index: usize, size: usize) -> Square {
        debug_assert!(index < size * size);
        Square {
            col: (index % size) as u8,
            row: (index / size) as u8,
        }
    }

    /// Zero-based column (`a` is 0).
    pub fn col(self) -> usize {
        self.col as usize
    }

    /// Zero-based row (`1` is 0).
    pub fn row(self) -> usize {
        self.row as usize
    }

    /// Row-major index on a board of side `size`, or `None` if the square is off that board.
    pub fn index(self, size: usize) -> Option<usize> {
        (self.col() < size && self.row() < size).then(|| self.row() * size + self.col())
    }
}

impl fmt::Display for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", (b'a' + self.col) as char, self.row + 1)
    }
}

/// Why a square or move could not be parsed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SquareError {
    /// The text was not a column letter followed by a row number.
    Malformed(String),
    /// A column or row beyond the 12x12 board.
    OutOfRange(String),
}

impl fmt::Display for SquareError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SquareError::Malformed(s) => write!(
                f,
                "'{s}' is not a square: expected a column letter and a row number, like f5"
            ),
            SquareError::OutOfRange(s) => {
                write!(
                    f,
                    "'{s}' is off the board: columns run a-l and rows 1-12 at most"
                )
            }
        }
    }
}

impl std::error::Error for SquareError {}

impl FromStr for Square {
    type Err = SquareError;

    fn from_str(s: &str) -> Result<Square, SquareError> {
        let bytes = s.as_bytes();
        let malformed = || SquareError::Malformed(s.to_string());
        let (&letter, digits) = bytes.split_first().ok_or_else(malformed)?;
        if !letter.is_ascii_alphabetic()
            || digits.is_empty()
            || digits.len() > 2
            || !digits.iter().all(u8::is_ascii_digit)
            || digits[0] == b'0'
        {
            return Err(malformed());
        }
        let col = (letter.to_ascii_lowercase() - b'a') as usize;
        let row: usize = std::str::from_utf8(digits)
            .ok()
            .and_then(|d| d.parse().ok())
            .ok_or_else(malformed)?;
        Square::new(col, row - 1).ok_or_else(|| SquareError::OutOfRange(s.to_string()))
    }
}

/// A move: a disc on a square, or a pass.
///
/// ```
/// use emilia_core::board::{Move, Square};
///
/// let f5: Move = "f5".parse().unwrap();
/// assert_eq!(f5, Move::Play(Square::new(5, 4).unwrap()));
/// assert_eq!(f5.to_string(), "f5");
///
/// // A pass reads in the spellings other programs write, and prints as `pass`.
/// for spelling in ["pass", "PA", "ps", "--", "@@"] {
///     assert_eq!(spelling.parse::<Move>(), Ok(Move::Pass));
/// }
/// assert_eq!(Move::Pass.to_string(), "pass");
/// assert!("f".parse::<Move>().is_err());
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Move {
    /// The side to move has no legal move and passes.
    Pass,
    /// A disc placed on the square.
    Play(Square),
}

impl Move {
    /// The square's row-major index on a board of side `size` (a1 = 0); `None` for a pass
    /// or a square off that board.
    pub fn index(self, size: usize) -> Option<usize> {
        match self {
            Move::Play(square) => square.index(size),
            Move::Pass => None,
        }
    }
}

impl fmt::Display for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Move::Pass => f.write_str("pass"),
            Move::Play(sq) => sq.fmt(f),
        }
    }
}

/// Spellings of a pass, lowercase, longest first where one starts another: `pass` (ours),
/// `pa` and `ps` (other programs' transcripts), `--` and `@@` (GUIs).
pub(crate) const PASS_WORDS: [&str; 5] = ["pass", "pa", "ps", "--", "@@"];

impl FromStr for Move {
    type Err = SquareError;

    /// Accepts squares in either case and `pass`, `pa`, `ps`, `--` or `@@` (any case) for a
    /// pass.
    fn from_str(s: &str) -> Result<Move, SquareError> {
        if PASS_WORDS.contains(&s.to_ascii_lowercase().as_str()) {
            Ok(Move::Pass)
        } else {
            s.parse().map(Move::Play)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn squares_round_trip_on_every_size() {
        for size in [6, 8, 10, 12] {
            for index in 0..size * size {
                let sq = Square::from_index(index, size);
                let text = sq.to_string();
                assert_eq!(text.parse::<Square>().unwrap(), sq);
                assert_eq!(text.to_uppercase().parse::<Square>().unwrap(), sq);
                assert_eq!(sq.index(size), Some(index));
            }
        }
        assert_eq!("l12".parse::<Square>().unwrap().index(12), Some(143));
        assert_eq!("l12".parse::<Square>().unwrap().index(8), None);
    }

    #[test]
    fn malformed_squares_are_rejected_with_reasons() {
        for bad in ["", "f", "5", "f0", "ff", "f5x", "f05", "é5", "f-1", " f5"] {
            assert!(
                matches!(bad.parse::<Square>(), Err(SquareError::Malformed(_))),
                "{bad:?}"
            );
        }
        for far in ["m1", "a13", "z9", "a99"] {
            assert!(
                matches!(far.parse::<Square>(), Err(SquareError::OutOfRange(_))),
                "{far:?}"
            );
        }
        let message = "f0".parse::<Square>().unwrap_err().to_string();
        assert!(message.contains("'f0'"), "{message}");
    }

    #[test]
    fn moves_parse_passes_in_all_spellings() {
        for pass in ["pass", "PASS", "PA", "pa", "ps", "PS", "--", "@@"] {
            assert_eq!(pass.parse::<Move>().unwrap(), Move::Pass);
        }
        assert_eq!(Move::Pass.to_string(), "pass");
        let f5: Move = "F5".parse().unwrap();
        assert_eq!(f5.to_string(), "f5");
    }
}
