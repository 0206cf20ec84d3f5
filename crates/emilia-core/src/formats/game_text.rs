//! Reading a game from text, the one reader every front-end uses: a transcript (`f5d6c3`,
//! spaces allowed), a board string (the squares, rows may be split by spaces, then the side
//! to move: `---…--- X`, as [`Position::from_words`] reads it), or a GGF game (its size
//! from its `BO` property). A leading byte-order mark is ignored; errors are typed and
//! quote at most a short excerpt of what they were given.
//!
//! ```
//! use emilia_core::formats::game_text::{read_game, GameTextError};
//!
//! let game = read_game("f5d6c3", Some(8)).unwrap();
//! assert_eq!(game.transcript(), "f5d6c3");
//! // A 10x10 transcript read as 8x8 says which size it fits.
//! let e = read_game("g6", Some(8)).unwrap_err();
//! assert!(matches!(e, GameTextError::Transcript { fits: Some(10), .. }), "{e}");
//! // Without a size, 8x8 is tried first, then the other sizes.
//! assert_eq!(read_game("g6", None).unwrap().position().size(), 10);
//! ```

use std::fmt;

use super::ggf::{self, GgfError};
use crate::board::{BoardSizeError, Color, Position, PositionError, SetupError, SIZES};
use crate::game::Game;

/// Most characters of the input quoted in an error.
const EXCERPT: usize = 40;

/// Why a text is no game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum GameTextError {
    /// The text is empty.
    Empty,
    /// The board size asked for is none the engine plays.
    Size(usize),
    /// A GGF game refused.
    Ggf(GgfError),
    /// A board string refused (the error names the word at fault).
    Board(SetupError),
    /// A transcript that is no game of `size`: why (naming the move and its token), and
    /// the first other size it is a game of, if any.
    Transcript {
        /// The size it was read on.
        size: usize,
        /// Why it is no game of that size.
        error: PositionError,
        /// Another size whose game it is.
        fits: Option<usize>,
    },
    /// A text of several games holds fewer than the one asked for.
    Missing {
        /// The game asked for, from 1.
        number: usize,
        /// The games the text holds.
        count: usize,
    },
    /// The game numbered `number` (from 1) of a text of several games is refused.
    InGame(usize, Box<GameTextError>),
}

impl fmt::Display for GameTextError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            GameTextError::Empty => f.write_str("no game: the text is empty"),
            GameTextError::Size(size) => BoardSizeError(*size).fmt(f),
            GameTextError::Ggf(e) => f.write_str(&excerpt(&e.to_string(), 4 * EXCERPT)),
            GameTextError::Board(e) => write!(f, "malformed board: {e}"),
            GameTextError::Transcript { size, error, fits } => {
                match error {
                    PositionError::Square(e) => write!(f, "malformed transcript: {e}")?,
                    PositionError::Illegal(ply, e) => {
                        write!(f, "malformed transcript: move {ply}: {e}")?
                    }
                    e => write!(f, "malformed transcript: {e}")?,
                }
                match fits {
                    Some(fits) => write!(f, " (on {size}x{size}; it is a game of {fits}x{fits})"),
                    None => Ok(()),
                }
            }
            GameTextError::Missing { number, count } => {
                write!(f, "the text holds {count} games, not {number}")
            }
            GameTextError::InGame(number, e) => write!(f, "game {number}: {e}"),
        }
    }
}

impl std::error::Error for GameTextError {}

impl GameTextError {
    /// For a transcript that is no game of the size it was read on, the size whose game
    /// it is, if any.
    pub fn fits(&self) -> Option<usize> {
        match self {
            GameTextError::Transcript { fits, .. } => *fits,
            GameTextError::InGame(_, e) => e.fits(),
            _ => None,
        }
    }
}

/// At most `most` characters of `text`, with `…` where it was cut.
pub fn excerpt(text: &str, most: usize) -> String {
    match text.char_indices().nth(most) {
        Some((at, _)) => format!("{}…", &text[..at]),
        None => text.to_string(),
    }
}

/// The game `text` holds: GGF, a board string or a transcript. A transcript is read on a
/// board of `size`; without one, on 8x8 if it is a game of 8x8, else on the first other
/// size it is a game of. GGF and board strings carry their own size; a given `size` other
/// than theirs is not checked here (the caller says what it wants of it).
pub fn read_game(text: &str, size: Option<usize>) -> Result<Game, GameTextError> {
    let text = crate::files::without_bom(text).trim();
    if text.is_empty() {
        return Err(GameTextError::Empty);
    }
    if let Some(size) = size.filter(|s| !SIZES.contains(s)) {
        return Err(GameTextError::Size(size));
    }
    if ggf::is_ggf(text) {
        return ggf::parse(text).map_err(GameTextError::Ggf);
    }
    let words: Vec<&str> = text.split_whitespace().collect();
    if is_board_string(&words) {
        return read_board(&words).map_err(GameTextError::Board);
    }
    let tried = size.unwrap_or(8);
    let first = transcript_game(text, tried);
    let Err(error) = first else { return first };
    let fits = SIZES
        .iter()
        .copied()
        .find(|&other| other != tried && transcript_game(text, other).is_ok());
    match (size, fits) {
        (None, Some(fits)) => transcript_game(text, fits),
        _ => Err(GameTextError::Transcript {
            size: tried,
            error: match error {
                GameTextError::Transcript { error, .. } => error,
                _ => unreachable!("transcript_game fails only so"),
            },
            fits,
        }),
    }
}

/// The game of a board string's words (the squares, then the side to move), with no moves.
pub fn read_board(words: &[&str]) -> Result<Game, SetupError> {
    Position::from_words(words).map(Game::new)
}

/// The game numbered `number` (from 1) of a text of several: the GGF games in it, or else
/// one game a line (transcripts or board strings; empty lines and lines starting with `#`
/// are skipped), each read as [`read_game`] reads it.
pub fn read_nth_game(
    text: &str,
    number: usize,
    size: Option<usize>,
) -> Result<Game, GameTextError> {
    let text = crate::files::without_bom(text);
    if ggf::is_ggf(text) {
        let games: Vec<&str> = text.split("(;").skip(1).collect();
        let one = nth(&games, number)?;
        return read_game(&format!("(;{}", one.trim_end()), size)
            .map_err(|e| GameTextError::InGame(number, Box::new(e)));
    }
    let lines: Vec<&str> = text
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .collect();
    read_game(nth(&lines, number)?, size).map_err(|e| GameTextError::InGame(number, Box::new(e)))
}

fn nth<'a>(games: &[&'a str], number: usize) -> Result<&'a str, GameTextError> {
    number
        .checked_sub(1)
        .and_then(|i| games.get(i))
        .copied()
        .ok_or(GameTextError::Missing {
            number,
            count: games.len(),
        })
}

/// Whether `words` are a board string rather than a transcript: more than one word, the
/// last a side to move, and no digit (every square of a transcript has one).
fn is_board_string(words: &[&str]) -> bool {
    words.len() > 1
        && words.last().is_some_and(|w| w.parse::<Color>().is_ok())
        && words.iter().all(|w| !w.chars().any(|c| c.is_ascii_digit()))
}

fn transcript_game(text: &str, size: usize) -> Result<Game, GameTextError> {
    let start = Position::start(size).map_err(|_| GameTextError::Size(size))?;
    Game::from_transcript(start, text).map_err(|error| GameTextError::Transcript {
        size,
        error,
        fits: None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_three_forms_are_read() {
        let game = read_game("\u{feff} f5 d6 c3 ", Some(8)).unwrap();
        assert_eq!(game.transcript(), "f5d6c3");
        let start = Position::start(6).unwrap();
        let board = read_game(&start.to_string(), Some(8)).unwrap();
        assert_eq!(*board.position(), start);
        let ggf = "(;GM[Othello]BO[8 -------- -------- -------- ---O*--- ---*O--- -------- \
                   -------- -------- *]B[F5];)";
        assert_eq!(read_game(ggf, None).unwrap().transcript(), "f5");
    }

    #[test]
    fn errors_name_the_token_and_the_size_a_transcript_fits() {
        let e = read_game("f5d6\u{feff}c3", Some(8)).unwrap_err();
        assert!(e.to_string().contains("is not a square"), "{e}");
        let e = read_game("f5f5", Some(8)).unwrap_err();
        assert_eq!(
            e.to_string(),
            "malformed transcript: move 2: illegal move f5: square is occupied"
        );
        let e = read_game("g6", Some(8)).unwrap_err().to_string();
        assert!(e.ends_with("(on 8x8; it is a game of 10x10)"), "{e}");
        assert_eq!(read_game("  ", None).err(), Some(GameTextError::Empty));
        assert_eq!(read_game("f5", Some(7)).err(), Some(GameTextError::Size(7)));
        // A size is worded where it is checked, by the board's own error.
        assert_eq!(
            GameTextError::Size(7).to_string(),
            BoardSizeError(7).to_string()
        );
    }

    #[test]
    fn the_nth_game_of_a_text_is_found() {
        let text = "# openings\nf5d6\n\nf5f6\n";
        assert_eq!(read_nth_game(text, 2, None).unwrap().transcript(), "f5f6");
        assert_eq!(
            read_nth_game(text, 3, None).err(),
            Some(GameTextError::Missing {
                number: 3,
                count: 2
            })
        );
        assert!(read_nth_game(text, 0, None).is_err());
        let ggf = "(;BO[8 -------- -------- -------- ---O*--- ---*O--- -------- -------- \
                   -------- *]B[F5];)\n(;B[F5]W[D6];)";
        assert_eq!(read_nth_game(ggf, 2, None).unwrap().transcript(), "f5d6");
    }

    #[test]
    fn excerpts_are_short() {
        assert_eq!(excerpt("abcdef", 3), "abc…");
        assert_eq!(excerpt("abc", 3), "abc");
        assert_eq!(excerpt("ééé", 2), "éé…");
    }
}
