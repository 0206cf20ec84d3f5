//! The game records a book is made from and learns from: WTHOR databases, GGF games,
//! transcripts (`f5d6c3…`, one game a line) and the results files of `emilia match`.

use std::fmt;
use std::path::{Path, PathBuf};

use emilia_core::board::{
    AnyBoard, Board, Board8, BoardSize, Move, Position, PositionError, Square,
};
use emilia_core::formats::ggf::{self, GgfError};
use emilia_core::formats::wthor::{WthorError, WthorFile};

/// Why game records were refused; an error found in a file or a game says where.
#[derive(Debug)]
pub enum GamesError {
    /// A move (numbered from 1) that is illegal where it was played.
    Illegal(usize, Square),
    /// A transcript that cannot be played from the start.
    Transcript(String, PositionError),
    /// A WTHOR database refused.
    Wthor(WthorError),
    /// A GGF game (numbered from 1) without its closing `;)`.
    UnendedGgf(usize),
    /// A GGF game (numbered from 1) refused.
    Ggf(usize, GgfError),
    /// A GGF game (numbered from 1) on another board than 8x8.
    NotEightByEight(usize),
    /// A text that looked like GGF holds no game.
    NoGgf,
    /// A file could not be read (the error names it).
    Read(emilia_core::files::FileError),
    /// The error is in this file.
    InFile(PathBuf, Box<GamesError>),
    /// The error is in this game (numbered from 1).
    InGame(usize, Box<GamesError>),
    /// The error is on this line (numbered from 1).
    OnLine(usize, Box<GamesError>),
}

impl fmt::Display for GamesError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            GamesError::Illegal(ply, square) => write!(f, "move {ply} ({square}) is illegal"),
            GamesError::Transcript(text, e) => write!(f, "malformed transcript '{text}': {e}"),
            GamesError::Wthor(e) => write!(f, "{e}"),
            GamesError::UnendedGgf(n) => write!(f, "GGF game {n} does not end with ';)'"),
            GamesError::Ggf(n, e) => write!(f, "GGF game {n}: {e}"),
            GamesError::NotEightByEight(n) => write!(f, "GGF game {n} is not on an 8x8 board"),
            GamesError::NoGgf => f.write_str("no GGF game found"),
            GamesError::Read(e) => write!(f, "{e}"),
            GamesError::InFile(path, e) => write!(f, "{}: {e}", path.display()),
            GamesError::InGame(n, e) => write!(f, "game {n}: {e}"),
            GamesError::OnLine(n, e) => write!(f, "line {n}: {e}"),
        }
    }
}

impl std::error::Error for GamesError {}

type Result<T> = std::result::Result<T, GamesError>;

/// One game: the moves played from its start position, passes left implicit.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameLine {
    /// The start position, side to move first.
    pub start: Board8,
    /// The squares played, a1 = 0.
    pub moves: Vec<usize>,
}

impl GameLine {
    /// A game from the standard start position.
    pub fn standard(moves: Vec<usize>) -> GameLine {
        GameLine {
            start: Board8::START,
            moves,
        }
    }

    /// Every position in which a move was played, with the move, passing where the side
    /// to move had none. An illegal move is an error naming it (1-based).
    pub fn positions(&self) -> Result<Vec<(Board8, usize)>> {
        let mut board = self.start;
        let mut out = Vec::with_capacity(self.moves.len());
        for (ply, &square) in self.moves.iter().enumerate() {
            if !board.has_moves() {
                board = board.pass();
            }
            if square >= 64 || !board.is_legal(square) {
                let name = Square::from_index(square.min(63), 8);
                return Err(GamesError::Illegal(ply + 1, name));
            }
            out.push((board, square));
            board = board.play(square);
        }
        Ok(out)
    }
}

/// The games of the WTHOR file at `path`. A damaged file, or a game with an illegal move,
/// is an error that names the file, the game and the move.
pub fn read_wthor(path: &Path) -> Result<Vec<GameLine>> {
    let in_file = |e| GamesError::InFile(path.to_path_buf(), Box::new(e));
    let file = WthorFile::read(path).map_err(|e| in_file(GamesError::Wthor(e)))?;
    let mut games = Vec::with_capacity(file.games.len());
    for (number, record) in file.games.iter().enumerate() {
        let moves = record
            .moves
            .iter()
            .map(|square| square.row() * 8 + square.col())
            .collect();
        let game = GameLine::standard(moves);
        game.positions()
            .map_err(|e| in_file(GamesError::InGame(number + 1, Box::new(e))))?;
        games.push(game);
    }
    Ok(games)
}

/// The games of a text file: GGF games (`(;GM[Othello]…;)`, any number), or one game a
/// line, either a transcript from the standard start or a line of a results file written
/// by `emilia match` (tab-separated, the transcript last). Empty lines and lines starting
/// with `#` are skipped. Games on other boards than 8x8 are errors.
pub fn read_text(path: &Path) -> Result<Vec<GameLine>> {
    let text = emilia_core::files::read_text(path, crate::files::TRAINING_GAMES)
        .map_err(GamesError::Read)?;
    parse_text(&text).map_err(|e| GamesError::InFile(path.to_path_buf(), Box::new(e)))
}

/// The games of a file, by its kind: `.wtb` files are WTHOR databases, others text.
pub fn read(path: &Path) -> Result<Vec<GameLine>> {
    if path
        .extension()
        .is_some_and(|e| e.eq_ignore_ascii_case("wtb"))
    {
        read_wthor(path)
    } else {
        read_text(path)
    }
}

/// The games of a text (see [`read_text`]).
pub fn parse_text(text: &str) -> Result<Vec<GameLine>> {
    if text.trim_start().starts_with("(;") {
        return parse_ggf(text);
    }
    let mut games = Vec::new();
    for (number, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let transcript = line.rsplit('\t').next().unwrap_or(line);
        let game =
            transcript_game(transcript).map_err(|e| GamesError::OnLine(number + 1, Box::new(e)))?;
        games.push(game);
    }
    Ok(games)
}

/// A transcript from the 8x8 start position.
pub fn transcript_game(transcript: &str) -> Result<GameLine> {
    let start = Position::start_of(BoardSize::EIGHT);
    let (_, moves) = start
        .play_transcript(transcript)
        .map_err(|e| GamesError::Transcript(transcript.to_string(), e))?;
    Ok(GameLine::standard(squares(&moves)))
}

fn squares(moves: &[Move]) -> Vec<usize> {
    moves
        .iter()
        .filter_map(|m| match m {
            Move::Play(sq) => sq.index(8),
            Move::Pass => None,
        })
        .collect()
}

/// Every GGF game in `text`, each `(;` … `;)`.
fn parse_ggf(text: &str) -> Result<Vec<GameLine>> {
    let mut games = Vec::new();
    let mut rest = text;
    while let Some(start) = rest.find("(;") {
        let end = rest[start..]
            .find(";)")
            .map(|e| start + e + 2)
            .ok_or(GamesError::UnendedGgf(games.len() + 1))?;
        let number = games.len() + 1;
        let game = ggf::parse(&rest[start..end]).map_err(|e| GamesError::Ggf(number, e))?;
        let AnyBoard::Eight(board) = game.start().board else {
            return Err(GamesError::NotEightByEight(number));
        };
        let moves: Vec<Move> = game.plies().iter().map(|p| p.mv).collect();
        games.push(GameLine {
            start: board,
            moves: squares(&moves),
        });
        rest = &rest[end..];
    }
    if games.is_empty() {
        return Err(GamesError::NoGgf);
    }
    Ok(games)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn transcripts_results_lines_and_ggf_are_read() {
        let text = "# comment\nf5d6c3\n\n1\temilia\tntest\tblack\t40-24\tgame over\t-\tf5f6e6\n";
        let games = parse_text(text).unwrap();
        assert_eq!(games.len(), 2);
        assert_eq!(games[0].moves.len(), 3);
        assert_eq!(games[1].positions().unwrap().len(), 3);
        let ggf = "(;GM[Othello]BO[8 ---------------------------O*------*O--------------------------- *]B[F5]W[D6/0.5/1];)\n(;GM[Othello]BO[8 ---------------------------O*------*O--------------------------- *]B[D3];)";
        let games = parse_text(ggf).unwrap();
        assert_eq!(games.len(), 2);
        assert_eq!(games[0].moves, vec![37, 43]);
        let err = parse_text("f5f5").unwrap_err();
        assert!(
            format!("{err:#}").contains("line 1: malformed transcript"),
            "{err:#}"
        );
        let squares = format!("{}O*{}*O{}", "-".repeat(44), "-".repeat(8), "-".repeat(44));
        let ten = format!("(;GM[Othello]BO[10 {squares} *];)");
        let err = parse_text(&ten).unwrap_err();
        assert!(
            format!("{err:#}").contains("not on an 8x8 board"),
            "{err:#}"
        );
    }

    #[test]
    fn illegal_moves_are_named() {
        let game = GameLine::standard(vec![37, 37]);
        let err = game.positions().unwrap_err().to_string();
        assert_eq!(err, "move 2 (f5) is illegal");
    }
}
