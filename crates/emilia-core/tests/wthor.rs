//! WTHOR game records replayed through our rules: every game of the 2003 file (3,771
//! tournament games) must be legal move by move, with passes implicit as the format says,
//! and must end with the score the file records.

use emilia_core::board::{Color, Move, Position};
use emilia_core::formats::wthor::{
    WthorError, WthorFile, WthorGame, WthorHeader, GAME_LEN, HEADER_LEN,
};

fn data(name: &str) -> String {
    format!("{}/tests/data/{name}", env!("CARGO_MANIFEST_DIR"))
}

/// How a replayed game went.
struct Replay {
    /// The position after the last recorded move.
    end: Position,
    /// Passes inserted because the side to move had no legal move.
    passes: usize,
    /// Whether the game reached 24 empty squares, where its theoretical score starts.
    reached_24_empties: bool,
}

/// Plays the recorded moves from the start, passing whenever the side to move must.
fn replay(game: &WthorGame, number: usize) -> Replay {
    let mut position = Position::start(8).unwrap();
    let mut passes = 0;
    let mut reached_24_empties = false;
    for (ply, &square) in game.moves.iter().enumerate() {
        if position.legal_moves() == [Move::Pass] {
            position = position.play(Move::Pass).unwrap();
            passes += 1;
        }
        position = position
            .play(Move::Play(square))
            .unwrap_or_else(|e| panic!("game {number}, move {}: {e}", ply + 1));
        reached_24_empties |= position.board.counts().2 == 24;
    }
    Replay {
        end: position,
        passes,
        reached_24_empties,
    }
}

/// Black's disc count under the world rule: empty squares go to the winner, a draw is 32-32.
fn black_count_empties_to_winner(end: &Position) -> i32 {
    32 + end.final_score_for(Color::Black) / 2
}

#[test]
fn the_2003_file_has_the_expected_header() {
    let file = WthorFile::read(data("WTH_2003.wtb")).unwrap();
    assert_eq!(
        file.header,
        WthorHeader {
            created_year: 2007,
            created_month: 3,
            created_day: 5,
            game_count: 3771,
            record_count: 0,
            games_year: 2003,
            board_size: 8,
            game_type: 0,
            theoretical_depth: 24,
        }
    );
    assert_eq!(file.games.len(), 3771);
}

#[test]
fn every_2003_game_replays_legally_to_its_recorded_score() {
    let file = WthorFile::read(data("WTH_2003.wtb")).unwrap();
    let f5 = "f5".parse().unwrap();
    let mut unfinished = Vec::new();
    let mut with_passes = 0;
    let mut ended_with_empties = 0;
    let mut draws = 0;
    let mut short = Vec::new();
    for (i, game) in file.games.iter().enumerate() {
        let number = i + 1;
        // The format stores every game from the f5 opening, rotating others onto it.
        assert_eq!(game.moves.first(), Some(&f5), "game {number}");
        assert!(game.theoretical_black_discs <= 64, "game {number}");
        let Replay {
            end,
            passes,
            reached_24_empties,
        } = replay(game, number);
        with_passes += (passes > 0) as usize;
        // The same game as a transcript string reaches the same end with the same passes.
        let text: String = game.moves.iter().map(|sq| sq.to_string()).collect();
        let (from_text, played) = Position::start(8).unwrap().play_transcript(&text).unwrap();
        assert_eq!(from_text, end, "game {number}");
        assert_eq!(
            played.iter().filter(|m| **m == Move::Pass).count(),
            passes,
            "game {number}"
        );
        if !reached_24_empties {
            // Over before perfect play would start: the theoretical score is the real one.
            assert!(end.is_game_over(), "game {number}");
            assert_eq!(
                game.theoretical_black_discs, game.black_discs,
                "game {number}"
            );
            short.push(number);
        }
        if end.is_game_over() {
            // Finished games: the real score gives the empty squares to the winner.
            assert_eq!(
                game.black_discs as i32,
                black_count_empties_to_winner(&end),
                "game {number}: {end}"
            );
            let (_, _, empties) = end.board.counts();
            ended_with_empties += (empties > 0) as usize;
            draws += (end.final_score_for(Color::Black) == 0) as usize;
        } else {
            // Stopped with moves left (resignation, time, adjudication): the recorded score
            // is the tournament's result and cannot be derived from the board.
            unfinished.push(number);
        }
    }
    assert_eq!(unfinished, [40, 956, 965]);
    assert_eq!(short, [3606]);
    // The file exercises forced passes, games ended before the board filled, and draws.
    assert_eq!(with_passes, 2054);
    assert_eq!(ended_with_empties, 158);
    assert_eq!(draws, 226);
}

#[test]
fn truncated_logistello_book_is_reported_and_its_games_replay() {
    // The first 20 records of Logistello's 1999 book (37,709 games): the header still
    // announces the whole book.
    let bytes = std::fs::read(data("logistello_book_1999_head.wtb")).unwrap();
    let header = WthorHeader::parse(&bytes).unwrap();
    assert_eq!(
        header,
        WthorHeader {
            created_year: 1999,
            created_month: 12,
            created_day: 5,
            game_count: 37709,
            record_count: 0,
            games_year: 1999,
            board_size: 8,
            game_type: 0,
            theoretical_depth: 0,
        }
    );
    let err = WthorFile::parse(&bytes).unwrap_err();
    assert!(matches!(err, WthorError::Truncated(37709, 1360)), "{err}");

    let mut patched = bytes.clone();
    let games = ((bytes.len() - HEADER_LEN) / GAME_LEN) as u32;
    patched[4..8].copy_from_slice(&games.to_le_bytes());
    let file = WthorFile::parse(&patched).unwrap();
    assert_eq!(file.games.len(), 20);
    for (i, game) in file.games.iter().enumerate() {
        let end = replay(game, i + 1).end;
        assert!(end.is_game_over(), "book game {}", i + 1);
        assert_eq!(
            game.black_discs as i32,
            black_count_empties_to_winner(&end),
            "book game {}",
            i + 1
        );
    }
}
