//! The board sizes Emilia plays, as a type: a side checked once where it enters the core.

use std::fmt;
use std::str::FromStr;

use super::SIZES;

/// A board size Emilia plays: 6, 8, 10 or 12 squares a side. Made only by
/// [`BoardSize::new`] (or `"8"`/`"8x8"`.parse()), which refuses every other side with one
/// message, so whatever holds one needs no check of its own.
///
/// ```
/// use emilia_core::BoardSize;
///
/// let ten = BoardSize::new(10)?;
/// assert_eq!((ten.side(), ten.squares()), (10, 100));
/// assert_eq!("12x12".parse::<BoardSize>()?, BoardSize::TWELVE);
/// let err = BoardSize::new(7).unwrap_err();
/// assert_eq!(err.to_string(), "no 7x7 board: Emilia plays 6, 8, 10 and 12");
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct BoardSize(u8);

/// A side that is not one of [`SIZES`] (the side asked for).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BoardSizeError(pub usize);

impl fmt::Display for BoardSizeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let size = self.0;
        write!(f, "no {size}x{size} board: Emilia plays 6, 8, 10 and 12")
    }
}

impl std::error::Error for BoardSizeError {}

impl BoardSize {
    /// 6x6.
    pub const SIX: BoardSize = BoardSize(6);
    /// 8x8, the standard board.
    pub const EIGHT: BoardSize = BoardSize(8);
    /// 10x10.
    pub const TEN: BoardSize = BoardSize(10);
    /// 12x12.
    pub const TWELVE: BoardSize = BoardSize(12);
    /// Every size, smallest first.
    pub const ALL: [BoardSize; 4] = [
        BoardSize::SIX,
        BoardSize::EIGHT,
        BoardSize::TEN,
        BoardSize::TWELVE,
    ];

    /// The size with `side` squares a side, or why there is none.
    pub fn new(side: usize) -> Result<BoardSize, BoardSizeError> {
        if SIZES.contains(&side) {
            Ok(BoardSize(side as u8))
        } else {
            Err(BoardSizeError(side))
        }
    }

    /// Squares a side.
    pub fn side(self) -> usize {
        self.0 as usize
    }

    /// Squares of the board.
    pub fn squares(self) -> usize {
        self.side() * self.side()
    }
}

impl TryFrom<usize> for BoardSize {
    type Error = BoardSizeError;

    fn try_from(side: usize) -> Result<BoardSize, BoardSizeError> {
        BoardSize::new(side)
    }
}

impl From<BoardSize> for usize {
    fn from(size: BoardSize) -> usize {
        size.side()
    }
}

impl fmt::Display for BoardSize {
    /// `8x8`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{0}x{0}", self.0)
    }
}

/// Why a text is not a board size.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ParseBoardSizeError {
    /// Not a number (nor `NxN`).
    NotANumber(String),
    /// A side Emilia does not play.
    Size(BoardSizeError),
}

impl fmt::Display for ParseBoardSizeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ParseBoardSizeError::NotANumber(text) => {
                write!(f, "board size '{text}' is not a number (such as 8 or 8x8)")
            }
            ParseBoardSizeError::Size(e) => e.fmt(f),
        }
    }
}

impl std::error::Error for ParseBoardSizeError {}

impl FromStr for BoardSize {
    type Err = ParseBoardSizeError;

    /// A side (`8`) or both sides (`8x8`).
    fn from_str(text: &str) -> Result<BoardSize, ParseBoardSizeError> {
        let not_a_number = || ParseBoardSizeError::NotANumber(text.to_string());
        let side = match text.split_once(['x', 'X']) {
            Some((a, b)) if a == b => a,
            Some(_) => return Err(not_a_number()),
            None => text,
        };
        let side: usize = side.trim().parse().map_err(|_| not_a_number())?;
        BoardSize::new(side).map_err(ParseBoardSizeError::Size)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_playable_side_and_no_other_is_a_size() {
        for side in 0..=20 {
            assert_eq!(
                BoardSize::new(side).is_ok(),
                SIZES.contains(&side),
                "{side}"
            );
        }
        let sides: Vec<usize> = BoardSize::ALL.iter().map(|s| s.side()).collect();
        assert_eq!(sides, SIZES);
        assert_eq!("8".parse::<BoardSize>(), Ok(BoardSize::EIGHT));
        assert_eq!("6x6".parse::<BoardSize>(), Ok(BoardSize::SIX));
        assert!(matches!(
            "6x8".parse::<BoardSize>(),
            Err(ParseBoardSizeError::NotANumber(_))
        ));
        assert_eq!(
            "9".parse::<BoardSize>(),
            Err(ParseBoardSizeError::Size(BoardSizeError(9)))
        );
        assert_eq!(BoardSize::TEN.to_string(), "10x10");
    }
}
