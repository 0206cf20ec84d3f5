//! ReplayedGame records for training: WTHOR files replayed into positions, with the exact values
//! the records carry.

use std::path::{Path, PathBuf};

use anyhow::{Context, Result};

use crate::selfplay::data::LabelledGame;
use emilia_core::board::{Board, Board8};
use emilia_core::formats::wthor::WthorFile;

/// A position of a game, as the side to move saw it before playing.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct GamePosition {
    /// The discs, side to move first.
    pub(crate) board: Board8,
    /// Whether Black is to move.
    pub(crate) black_to_move: bool,
}

impl GamePosition {
    /// Empty squares.
    pub(crate) fn empties(&self) -> u32 {
        self.board.empty_mask().count_ones()
    }
}

/// One replayed game.
#[derive(Clone, Debug)]
pub(crate) struct ReplayedGame {
    /// Every position in which a move was played, in order (positions where the side to
    /// move had to pass are left out).
    pub(crate) positions: Vec<GamePosition>,
    /// Exact values known along the game: `(empties, Black's final disc difference under
    /// perfect play from the game's position with that many empty squares)`, most empties
    /// first.
    pub(crate) exact: Vec<(u32, i32)>,
}

/// Files named by `paths`: `.wtb` files as given, directories searched (not recursively)
/// for `.wtb` files, in name order so that runs are reproducible.
pub(crate) fn game_files(paths: &[PathBuf]) -> Result<Vec<PathBuf>> {
    crate::files::named_files(paths, "wtb", ".wtb game files")
}

/// Reads and replays every game of a WTHOR file. Games that do not replay legally are
/// skipped and counted in the second value.
pub(crate) fn read_wthor(path: &Path) -> Result<(Vec<ReplayedGame>, usize)> {
    let file = WthorFile::read(path).with_context(|| format!("{}", path.display()))?;
    let depth = file.header.theoretical_depth as u32;
    let mut games = Vec::with_capacity(file.games.len());
    let mut skipped = 0;
    for record in &file.games {
        let moves: Vec<usize> = record
            .moves
            .iter()
            .map(|square| square.row() * 8 + square.col())
            .collect();
        match replay(&moves) {
            Some((positions, end)) => {
                let mut exact = Vec::new();
                // The theoretical score belongs to the position with `depth` empties; a game
                // that ended earlier has it as its final result, known exactly anyway.
                let reached = positions.iter().any(|p| p.empties() == depth)
                    || (end.board.empties() == depth && end.board.is_game_over());
                if depth > 0 && reached {
                    exact.push((depth, 2 * record.theoretical_black_discs as i32 - 64));
                }
                if end.board.is_game_over() {
                    let black = if end.black_to_move {
                        end.board.final_score()
                    } else {
                        -end.board.final_score()
                    };
                    let empties = end.board.empties();
                    if exact.last().is_none_or(|&(e, _)| e > empties) {
                        exact.push((empties, black));
                    }
                }
                games.push(ReplayedGame { positions, exact });
            }
            None => skipped += 1,
        }
    }
    Ok((games, skipped))
}

/// A self-play game as a training game. Its opening moves (a shared line and random moves)
/// are left out; every position the solver played has the final result as its exact value,
/// which the earlier positions inherit.
pub(crate) fn from_selfplay(played: &LabelledGame) -> ReplayedGame {
    let (mut positions, end) =
        replay(&played.moves).expect("self-play games are checked when read");
    positions.drain(..(played.opening_moves as usize).min(positions.len()));
    let mut exact = vec![(played.solved_from, played.black_result)];
    let end_empties = end.board.empties();
    if end_empties < played.solved_from {
        exact.push((end_empties, played.black_result));
    }
    ReplayedGame { positions, exact }
}

/// Plays `moves` (square indices) from the start, passing whenever the side to move has no
/// legal move. Returns the positions moved from and the final position, or `None` at an
/// illegal move.
pub(crate) fn replay(moves: &[usize]) -> Option<(Vec<GamePosition>, GamePosition)> {
    let mut position = GamePosition {
        board: Board8::START,
        black_to_move: true,
    };
    let mut positions = Vec::with_capacity(moves.len());
    for &index in moves {
        if position.board.move_mask() == 0 {
            position = GamePosition {
                board: position.board.pass(),
                black_to_move: !position.black_to_move,
            };
        }
        if position.board.move_mask() >> index & 1 == 0 {
            return None;
        }
        positions.push(position);
        position = GamePosition {
            board: position.board.play(index),
            black_to_move: !position.black_to_move,
        };
    }
    if position.board.move_mask() == 0 && !position.board.is_game_over() {
        position = GamePosition {
            board: position.board.pass(),
            black_to_move: !position.black_to_move,
        };
    }
    Some((positions, position))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn data(name: &str) -> PathBuf {
        Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("crates/emilia-core/tests/data")
            .join(name)
    }

    #[test]
    fn wthor_games_replay_with_their_exact_values() {
        let (games, skipped) = read_wthor(&data("WTH_2003.wtb")).unwrap();
        assert_eq!((games.len(), skipped), (3771, 0));
        let first = &games[0];
        assert_eq!(first.positions[0].board, Board8::START);
        assert!(first.positions[0].black_to_move);
        // The theoretical value sits at 24 empties and is a disc difference.
        assert_eq!(first.exact[0].0, 24);
        for game in &games {
            for &(_, value) in &game.exact {
                assert!(value.abs() <= 64 && value % 2 == 0, "{:?}", game.exact);
            }
            // Games that reach 24 empties carry their theoretical value there; the few
            // that end earlier (wipe-outs) only their final result.
            let reaches_24 = game.positions.iter().any(|p| p.empties() == 24);
            assert_eq!(reaches_24, game.exact[0].0 == 24, "{:?}", game.exact);
        }
        // Most games are played out: their final result is exact too.
        let finished = games.iter().filter(|g| g.exact.len() == 2).count();
        assert!(finished > 3000, "{finished}");
    }

    #[test]
    fn an_illegal_move_stops_the_replay() {
        // f5 (index 37) is legal from the start, a1 (0) is not.
        assert!(replay(&[37]).is_some());
        assert!(replay(&[0]).is_none());
    }
}
