//! WTHOR game databases (`.wtb`), the French Othello Federation's format for 8x8 game
//! records, also used by other programs for opening books.
//!
//! Layout, little endian: a 16-byte header (creation date, number of games, number of name
//! records, year of the games, board size, game type, depth of the theoretical score), then
//! one 68-byte record per game: tournament, Black and White player ids (`u16` each), Black's
//! real and theoretical final disc counts (`u8` each) and 60 move bytes `10*row + col`
//! (`11` = a1, `88` = h8), `0` marking the end of a game that stopped early. Passes are not
//! stored: a side with no legal move passes implicitly.
//!
//! This module reads the bytes only; it does not check that the moves are legal.

use std::fmt;
use std::path::Path;

use crate::board::Square;

/// Bytes in the file header.
pub const HEADER_LEN: usize = 16;
/// Bytes in one game record.
pub const GAME_LEN: usize = 68;
/// Move bytes in one game record: one per empty square of the 8x8 start position.
pub const MOVES_PER_GAME: usize = 60;

/// The 16-byte file header.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct WthorHeader {
    /// Year the file was written (century byte times 100 plus year byte).
    pub created_year: u16,
    /// Month the file was written, 1 to 12.
    pub created_month: u8,
    /// Day of the month the file was written.
    pub created_day: u8,
    /// Number of game records that follow.
    pub game_count: u32,
    /// Number of name records (player or tournament files); 0 in game files.
    pub record_count: u16,
    /// Year the games were played.
    pub games_year: u16,
    /// Board side; the byte is 0 or 8 for 8x8, the only size this reader accepts.
    pub board_size: u8,
    /// Game type byte (0 for ordinary games).
    pub game_type: u8,
    /// Empty squares at which the theoretical score was computed by perfect play (24 in the
    /// federation's files; 0 when the file carries no theoretical scores).
    pub theoretical_depth: u8,
}

/// One game record.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct WthorGame {
    /// Tournament id (an index into the federation's tournament file).
    pub tournament: u16,
    /// Black player id (an index into the federation's player file).
    pub black_player: u16,
    /// White player id.
    pub white_player: u16,
    /// Black's disc count at the end of the game as played.
    pub black_discs: u8,
    /// Black's final disc count under perfect play from the position with
    /// [`WthorHeader::theoretical_depth`] empty squares, when the file has that depth.
    pub theoretical_black_discs: u8,
    /// The moves in order, passes left out.
    pub moves: Vec<Square>,
}

/// A whole `.wtb` file.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct WthorFile {
    /// The file header.
    pub header: WthorHeader,
    /// The games, in file order.
    pub games: Vec<WthorGame>,
}

/// Why a WTHOR file could not be read.
#[derive(Debug)]
pub enum WthorError {
    /// The file could not be opened or read.
    Io(std::io::Error),
    /// Fewer bytes than a header.
    ShortHeader(usize),
    /// A board size other than 8x8.
    BoardSize(u8),
    /// The header announces more games than the file holds: (announced, bytes after the
    /// header).
    Truncated(u32, usize),
    /// Bytes left over after the announced games: (announced, bytes after the header).
    TrailingBytes(u32, usize),
    /// A move byte that names no square: (1-based game, 1-based move, byte).
    BadMove(usize, usize, u8),
    /// A move after the end-of-game byte: (1-based game, 1-based move).
    MoveAfterEnd(usize, usize),
}

impl fmt::Display for WthorError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            WthorError::Io(e) => write!(f, "cannot read WTHOR file: {e}"),
            WthorError::ShortHeader(len) => write!(
                f,
                "not a WTHOR file: {len} bytes, shorter than the {HEADER_LEN}-byte header"
            ),
            WthorError::BoardSize(size) => write!(
                f,
                "WTHOR header gives board size {size}: only 8x8 game files (0 or 8) are supported"
            ),
            WthorError::Truncated(games, bytes) => write!(
                f,
                "WTHOR file truncated: header announces {games} games ({} bytes) but only {bytes} \
                 bytes follow the header",
                *games as usize * GAME_LEN
            ),
            WthorError::TrailingBytes(games, bytes) => write!(
                f,
                "WTHOR file damaged: header announces {games} games ({} bytes) but {bytes} bytes \
                 follow the header",
                *games as usize * GAME_LEN
            ),
            WthorError::BadMove(game, ply, byte) => write!(
                f,
                "WTHOR game {game}, move {ply}: byte {byte} is no square (expected 10*row+col, \
                 11 to 88)"
            ),
            WthorError::MoveAfterEnd(game, ply) => write!(
                f,
                "WTHOR game {game}, move {ply}: a move follows the end-of-game marker"
            ),
        }
    }
}

impl std::error::Error for WthorError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            WthorError::Io(e) => Some(e),
            _ => None,
        }
    }
}

impl From<std::io::Error> for WthorError {
    fn from(e: std::io::Error) -> WthorError {
        WthorError::Io(e)
    }
}

fn u16_at(bytes: &[u8], at: usize) -> u16 {
    u16::from_le_bytes([bytes[at], bytes[at + 1]])
}

impl WthorHeader {
    /// Reads the header from the first [`HEADER_LEN`] bytes of a file.
    pub fn parse(bytes: &[u8]) -> Result<WthorHeader, WthorError> {
        if bytes.len() < HEADER_LEN {
            return Err(WthorError::ShortHeader(bytes.len()));
        }
        Ok(WthorHeader {
            created_year: bytes[0] as u16 * 100 + bytes[1] as u16,
            created_month: bytes[2],
            created_day: bytes[3],
            game_count: u32::from_le_bytes([bytes[4], bytes[5], bytes[6], bytes[7]]),
            record_count: u16_at(bytes, 8),
            games_year: u16_at(bytes, 10),
            board_size: match bytes[12] {
                0 => 8,
                size => size,
            },
            game_type: bytes[13],
            theoretical_depth: bytes[14],
        })
    }
}

/// Decodes a move byte `10*row + col` (1-based row and column) into a square.
fn square_of(byte: u8) -> Option<Square> {
    let (row, col) = (byte / 10, byte % 10);
    if (1..=8).contains(&row) && (1..=8).contains(&col) {
        Square::new(col as usize - 1, row as usize - 1)
    } else {
        None
    }
}

impl WthorGame {
    /// Reads one [`GAME_LEN`]-byte record; `number` is its 1-based place, for errors.
    fn parse(record: &[u8], number: usize) -> Result<WthorGame, WthorError> {
        let mut moves = Vec::with_capacity(MOVES_PER_GAME);
        let mut ended = false;
        for (i, &byte) in record[8..GAME_LEN].iter().enumerate() {
            match (byte, ended) {
                (0, _) => ended = true,
                (_, true) => return Err(WthorError::MoveAfterEnd(number, i + 1)),
                (_, false) => {
                    moves.push(square_of(byte).ok_or(WthorError::BadMove(number, i + 1, byte))?)
                }
            }
        }
        Ok(WthorGame {
            tournament: u16_at(record, 0),
            black_player: u16_at(record, 2),
            white_player: u16_at(record, 4),
            black_discs: record[6],
            theoretical_black_discs: record[7],
            moves,
        })
    }
}

impl WthorFile {
    /// Reads a whole `.wtb` file from its bytes. The length must match the header's game
    /// count exactly, so a truncated or padded file is reported rather than half read.
    pub fn parse(bytes: &[u8]) -> Result<WthorFile, WthorError> {
        let header = WthorHeader::parse(bytes)?;
        if header.board_size != 8 {
            return Err(WthorError::BoardSize(header.board_size));
        }
        let body = &bytes[HEADER_LEN..];
        let expected = header.game_count as usize * GAME_LEN;
        if body.len() < expected {
            return Err(WthorError::Truncated(header.game_count, body.len()));
        }
        if body.len() > expected {
            return Err(WthorError::TrailingBytes(header.game_count, body.len()));
        }
        let games = body
            .chunks_exact(GAME_LEN)
            .enumerate()
            .map(|(i, record)| WthorGame::parse(record, i + 1))
            .collect::<Result<_, _>>()?;
        Ok(WthorFile { header, games })
    }

    /// Reads a `.wtb` file from disk.
    pub fn read(path: impl AsRef<Path>) -> Result<WthorFile, WthorError> {
        let path = path.as_ref();
        let bytes = crate::files::read_bytes(path, crate::files::FileKind::GAMES)
            .map_err(std::io::Error::from)?;
        WthorFile::parse(&bytes)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A header for `games` games of 1999, written 2001-02-03, depth 24.
    fn header(games: u32) -> Vec<u8> {
        let mut bytes = vec![20, 1, 2, 3];
        bytes.extend_from_slice(&games.to_le_bytes());
        bytes.extend_from_slice(&0u16.to_le_bytes());
        bytes.extend_from_slice(&1999u16.to_le_bytes());
        bytes.extend_from_slice(&[8, 0, 24, 0]);
        bytes
    }

    /// A game record with ids 7, 300, 2, scores 40 and 36, and the given move bytes.
    fn record(moves: &[u8]) -> Vec<u8> {
        let mut bytes = Vec::new();
        for id in [7u16, 300, 2] {
            bytes.extend_from_slice(&id.to_le_bytes());
        }
        bytes.extend_from_slice(&[40, 36]);
        let mut move_bytes = [0u8; MOVES_PER_GAME];
        move_bytes[..moves.len()].copy_from_slice(moves);
        bytes.extend_from_slice(&move_bytes);
        bytes
    }

    fn sq(name: &str) -> Square {
        name.parse().unwrap()
    }

    #[test]
    fn reads_header_and_games() {
        let mut bytes = header(2);
        bytes.extend(record(&[56, 64, 33, 11, 88, 18, 81]));
        bytes.extend(record(&[]));
        let file = WthorFile::parse(&bytes).unwrap();
        assert_eq!(
            file.header,
            WthorHeader {
                created_year: 2001,
                created_month: 2,
                created_day: 3,
                game_count: 2,
                record_count: 0,
                games_year: 1999,
                board_size: 8,
                game_type: 0,
                theoretical_depth: 24,
            }
        );
        let game = &file.games[0];
        assert_eq!(
            (game.tournament, game.black_player, game.white_player),
            (7, 300, 2)
        );
        assert_eq!((game.black_discs, game.theoretical_black_discs), (40, 36));
        // Byte 56 is row 5, column 6: f5.
        let names = ["f5", "d6", "c3", "a1", "h8", "h1", "a8"];
        assert_eq!(game.moves, names.map(sq).to_vec());
        assert!(file.games[1].moves.is_empty());
    }

    #[test]
    fn board_size_zero_means_eight() {
        let mut bytes = header(0);
        bytes[12] = 0;
        assert_eq!(WthorFile::parse(&bytes).unwrap().header.board_size, 8);
        bytes[12] = 10;
        assert!(matches!(
            WthorFile::parse(&bytes),
            Err(WthorError::BoardSize(10))
        ));
    }

    #[test]
    fn damaged_files_are_reported() {
        assert!(matches!(
            WthorFile::parse(&[20, 1]),
            Err(WthorError::ShortHeader(2))
        ));

        let mut bytes = header(2);
        bytes.extend(record(&[56]));
        let err = WthorFile::parse(&bytes).unwrap_err();
        assert!(matches!(err, WthorError::Truncated(2, 68)), "{err:?}");
        assert!(err.to_string().contains("truncated"), "{err}");

        let mut bytes = header(1);
        bytes.extend(record(&[56]));
        bytes.push(0);
        assert!(matches!(
            WthorFile::parse(&bytes),
            Err(WthorError::TrailingBytes(1, 69))
        ));

        for bad in [9u8, 10, 19, 90, 255] {
            let mut bytes = header(1);
            bytes.extend(record(&[56, 64, bad]));
            let err = WthorFile::parse(&bytes).unwrap_err();
            assert!(
                matches!(err, WthorError::BadMove(1, 3, b) if b == bad),
                "{err:?}"
            );
            assert!(err.to_string().contains("move 3"), "{err}");
        }

        let mut bytes = header(1);
        bytes.extend(record(&[56, 0, 64]));
        assert!(matches!(
            WthorFile::parse(&bytes),
            Err(WthorError::MoveAfterEnd(1, 3))
        ));
    }

    #[test]
    fn missing_file_is_an_error_value() {
        let err = WthorFile::read("no/such/file.wtb").unwrap_err();
        assert!(matches!(err, WthorError::Io(_)));
        assert!(
            err.to_string().starts_with("cannot read WTHOR file"),
            "{err}"
        );
    }
}
