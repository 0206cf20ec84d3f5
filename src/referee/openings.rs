//! Opening files: one opening a line as a transcript (`f5f6e6f4e3c5c4e7`, the XOT format);
//! blank lines and lines starting with `#` are skipped.

use std::fmt;

use emilia_core::board::{transcript, BoardSize, Move, Position, PositionError};

/// Why an opening file was refused; each names the file as given to [`parse`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum OpeningsError {
    /// A line is no transcript of legal moves: the file, the line number and why.
    BadLine(String, usize, PositionError),
    /// An opening plays to the end of the game: the file and the line number.
    EndsTheGame(String, usize),
    /// The file holds no opening.
    Empty(String),
}

impl fmt::Display for OpeningsError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            OpeningsError::BadLine(source, line, e) => write!(f, "{source} line {line}: {e}"),
            OpeningsError::EndsTheGame(source, line) => {
                write!(f, "{source} line {line}: the opening ends the game")
            }
            OpeningsError::Empty(source) => write!(f, "{source} holds no openings"),
        }
    }
}

impl std::error::Error for OpeningsError {}

/// An opening: its text and the moves it plays, forced passes included.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Opening {
    /// The transcript as normalised text.
    pub text: String,
    /// The moves from the start position.
    pub moves: Vec<Move>,
}

/// Reads the openings of `text`, checking every move on a board of `size`. `source`
/// names the file in errors.
pub fn parse(text: &str, size: BoardSize, source: &str) -> Result<Vec<Opening>, OpeningsError> {
    let start = Position::start_of(size);
    let mut openings = Vec::new();
    for (number, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let (end, moves) = start
            .play_transcript(line)
            .map_err(|e| OpeningsError::BadLine(source.to_string(), number + 1, e))?;
        if end.is_game_over() {
            return Err(OpeningsError::EndsTheGame(source.to_string(), number + 1));
        }
        openings.push(Opening {
            text: transcript(&moves),
            moves,
        });
    }
    if openings.is_empty() {
        return Err(OpeningsError::Empty(source.to_string()));
    }
    Ok(openings)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn xot_lines_parse_and_bad_lines_are_located() {
        let text = "# two XOT openings\nf5d6c4d3c2b3b4b5\n\nF5F4G3G6F3G4E3E2\n";
        let openings = parse(text, BoardSize::EIGHT, "xot.txt").unwrap();
        assert_eq!(openings.len(), 2);
        assert_eq!(openings[1].text, "f5f4g3g6f3g4e3e2");
        assert_eq!(openings[0].moves.len(), 8);
        let error = parse("f5d6\nf5f5\n", BoardSize::EIGHT, "bad.txt")
            .unwrap_err()
            .to_string();
        assert!(error.contains("bad.txt line 2"), "{error}");
        assert!(parse("# nothing\n", BoardSize::EIGHT, "empty.txt").is_err());
    }
}
