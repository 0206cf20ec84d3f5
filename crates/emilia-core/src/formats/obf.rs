//! Solved-position files, one position a line:
//!
//! - OBF (as in the FFO endgame suite): `<64 squares> <X|O>; MOVE:SCORE; MOVE:SCORE; …`,
//!   scores for the side to move (`A2:+38`, `H4:+0`, `G5:-4`);
//! - endgame lists: `<64 squares> <Black|White> <best move index, a1 = 0, or -1 for none
//!   given> <score from Black's point of view>`. These scores are plain disc differences:
//!   when perfect play ends the game with empty squares left they do not go to the winner
//!   (odd scores occur), so such positions differ from world-rule scores by the empties left.
//!
//! Both read into a [`Record`]: the position, its score and its listed moves with scores,
//! all for the side to move.

use std::fmt;

use crate::board::{Color, Move, Position, Square};

/// A position with moves and their exact scores for the side to move.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Record {
    /// The position.
    pub position: Position,
    /// The position's score for the side to move, if the file gives it (in OBF files, the
    /// best move's score).
    pub score: Option<i32>,
    /// Listed moves with their scores for the side to move, in file order (best first in
    /// OBF files; the best move only in endgame lists).
    pub moves: Vec<(Move, i32)>,
}

impl Record {
    /// The listed moves that reach the position's score.
    pub fn best_moves(&self) -> Vec<Move> {
        self.moves
            .iter()
            .filter(|&&(_, s)| Some(s) == self.score)
            .map(|&(m, _)| m)
            .collect()
    }
}

/// Why a line could not be read; `line` counts from 1.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FormatError {
    /// The line number, from 1 (0 when reading a single line).
    pub line: usize,
    /// What was wrong.
    pub message: String,
}

impl fmt::Display for FormatError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.line > 0 {
            write!(f, "line {}: {}", self.line, self.message)
        } else {
            f.write_str(&self.message)
        }
    }
}

impl std::error::Error for FormatError {}

fn error(message: impl Into<String>) -> FormatError {
    FormatError {
        line: 0,
        message: message.into(),
    }
}

/// Reads one OBF line.
pub fn parse_obf_line(line: &str) -> Result<Record, FormatError> {
    let mut fields = line.split(';').map(str::trim);
    let head = fields.next().unwrap_or_default();
    let mut words = head.split_whitespace();
    let (squares, side) = match (words.next(), words.next(), words.next()) {
        (Some(squares), Some(side), None) => (squares, side),
        _ => {
            return Err(error(format!(
                "expected '<64 squares> <X|O>' before the first ';', found '{head}'"
            )))
        }
    };
    let position = Position::from_parts(squares, side).map_err(|e| error(e.to_string()))?;
    if position.size() != 8 {
        return Err(error("OBF positions are 8x8 (64 squares)"));
    }
    let mut moves = Vec::new();
    for field in fields.filter(|f| !f.is_empty()) {
        let (mv, score) = field
            .split_once(':')
            .ok_or_else(|| error(format!("expected MOVE:SCORE, found '{field}'")))?;
        let mv = parse_move(mv.trim())?;
        let score: i32 = score
            .trim()
            .parse()
            .map_err(|_| error(format!("score '{}' is not a number", score.trim())))?;
        moves.push((mv, score));
    }
    let score = moves.iter().map(|&(_, s)| s).max();
    Ok(Record {
        position,
        score,
        moves,
    })
}

/// Reads one line of an endgame list.
pub fn parse_endgame_line(line: &str) -> Result<Record, FormatError> {
    let words: Vec<&str> = line.split_whitespace().collect();
    let [squares, side, best, score] = words[..] else {
        return Err(error(format!(
            "expected '<64 squares> <Black|White> <move index> <score>', found {} fields",
            words.len()
        )));
    };
    let position = Position::from_parts(squares, side).map_err(|e| error(e.to_string()))?;
    if position.size() != 8 {
        return Err(error("endgame positions are 8x8 (64 squares)"));
    }
    let best: i32 = best
        .parse()
        .map_err(|_| error(format!("move index '{best}' is not a number")))?;
    let mv = match best {
        -1 => None,
        0..=63 => Some(Move::Play(Square::from_index(best as usize, 8))),
        _ => return Err(error(format!("move index {best} is not -1 or 0-63"))),
    };
    let black_score: i32 = score
        .parse()
        .map_err(|_| error(format!("score '{score}' is not a number")))?;
    let score = match position.to_move {
        Color::Black => black_score,
        Color::White => -black_score,
    };
    Ok(Record {
        position,
        score: Some(score),
        moves: mv.map(|m| (m, score)).into_iter().collect(),
    })
}

fn parse_move(text: &str) -> Result<Move, FormatError> {
    if text.eq_ignore_ascii_case("pa") || text.eq_ignore_ascii_case("pass") {
        return Ok(Move::Pass);
    }
    text.parse::<Square>()
        .map(Move::Play)
        .map_err(|e| error(e.to_string()))
}

/// Reads every record of a file with `parse_line`, skipping blank lines and `%` or `#`
/// comments; errors carry their line number.
pub fn read_records(
    text: &str,
    parse_line: fn(&str) -> Result<Record, FormatError>,
) -> Result<Vec<Record>, FormatError> {
    let mut records = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('%') || line.starts_with('#') {
            continue;
        }
        records.push(parse_line(line).map_err(|mut e| {
            e.line = i + 1;
            e
        })?);
    }
    Ok(records)
}

/// Reads an OBF file's text.
pub fn read_obf(text: &str) -> Result<Vec<Record>, FormatError> {
    read_records(text, parse_obf_line)
}

/// Reads an endgame list's text.
pub fn read_endgames(text: &str) -> Result<Vec<Record>, FormatError> {
    read_records(text, parse_endgame_line)
}

#[cfg(test)]
mod tests {
    use super::*;

    const FFO_40: &str = "O--OOOOX-OOOOOOXOOXXOOOXOOXOOOXXOOOOOOXX---OOOOX----O--X-------- X; \
                          A2:+38; C7:+36; D8:+34; C1:+30;";

    #[test]
    fn reads_an_obf_line() {
        let record = parse_obf_line(FFO_40).unwrap();
        assert_eq!(record.position.to_move, Color::Black);
        assert_eq!(record.moves.len(), 4);
        assert_eq!(record.moves[0], (Move::Play("a2".parse().unwrap()), 38));
        assert_eq!(record.score, Some(38));
        assert_eq!(record.best_moves(), vec![Move::Play("a2".parse().unwrap())]);
        assert_eq!(record.position.board.counts().2, 20);
    }

    #[test]
    fn reads_an_endgame_line_with_the_score_for_the_side_to_move() {
        let line = "XXXXX----XXXXX--OOXOX-O--OOXOOO-XOOOXXO--OOOXXXO-OOOOXXXXXXXXXOO White 5 46";
        let record = parse_endgame_line(line).unwrap();
        assert_eq!(record.position.to_move, Color::White);
        assert_eq!(record.score, Some(-46));
        assert_eq!(record.moves, vec![(Move::Play("f1".parse().unwrap()), -46)]);
        // -1: no move given (here White has a move, b7, but loses every disc).
        let no_move =
            "--OO-----OOO--XXOOXOOXXXOOXXXXXX-OXXXXXX-XXXXXXXX-XXXXXX-XXXXXXX White -1 64";
        let record = parse_endgame_line(no_move).unwrap();
        assert_eq!((record.score, record.moves.len()), (Some(-64), 0));
    }

    #[test]
    fn bad_lines_are_explained_with_their_number() {
        let text = format!("{FFO_40}\n\n% comment\n{}", "XO X; A1:+2");
        let err = read_obf(&text).unwrap_err();
        assert_eq!(err.line, 4);
        assert!(
            err.to_string().starts_with("line 4: board has 2 squares"),
            "{err}"
        );
        assert!(parse_obf_line(&FFO_40.replace("A2:+38", "A2 38")).is_err());
        assert!(parse_obf_line(&FFO_40.replace("A2:+38", "A2:x")).is_err());
        assert!(parse_endgame_line("X O 1").is_err());
        let squares = "-".repeat(64);
        assert!(parse_endgame_line(&format!("{squares} Black 64 0")).is_err());
    }
}
