//! Our rules against 2,000 random 8x8 games recorded by an independent implementation
//! (OpenSpiel's `othello`): at every ply the board, side to move, legal moves (or the forced
//! pass) and flipped discs must agree, and every game must end where and how it ended there.

use std::collections::BTreeSet;
use std::io::{BufRead, BufReader};

use emilia_core::board::{AnyBoard, Board8, Color, Move, MoveError, Position, Square};
use flate2::read::GzDecoder;
use serde_json::Value;

const GAMES: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/tests/data/openspiel_random_games.jsonl.gz"
);

fn text(value: &Value) -> &str {
    value
        .as_str()
        .unwrap_or_else(|| panic!("expected a string, got {value}"))
}

fn texts(value: &Value) -> BTreeSet<String> {
    value
        .as_array()
        .unwrap_or_else(|| panic!("expected a list, got {value}"))
        .iter()
        .map(|v| text(v).to_string())
        .collect()
}

fn board8(position: &Position) -> Board8 {
    match position.board {
        AnyBoard::Eight(board) => board,
        _ => panic!("8x8 positions use the 8x8 bitboard"),
    }
}

fn square_names(bits: u64) -> BTreeSet<String> {
    (0..64)
        .filter(|i| bits >> i & 1 != 0)
        .map(|i| Square::from_index(i, 8).to_string())
        .collect()
}

/// Squares whose disc changed colour between two positions.
fn turned(before: &Position, after: &Position) -> BTreeSet<String> {
    (0..64)
        .filter(|&i| before.disc(i).is_some() && before.disc(i) != after.disc(i))
        .map(|i| Square::from_index(i, 8).to_string())
        .collect()
}

/// Checks one recorded game; returns its number of passes.
fn check_game(game: &Value) -> usize {
    let id = &game["game"];
    assert_eq!(game["size"], 8, "game {id}");
    let mut position = Position::start(8).unwrap();
    assert_eq!(position.squares_string(), text(&game["start"]), "game {id}");
    let mut passes = 0;
    let plies = game["positions"].as_array().expect("positions");
    for (ply, record) in plies.iter().enumerate() {
        let at = format!("game {id} ply {ply}");
        assert_eq!(record["ply"], ply, "{at}");
        assert_eq!(position.squares_string(), text(&record["board"]), "{at}");
        let side = text(&record["to_move"]);
        assert_eq!(position.to_move.disc_char().to_string(), side, "{at}");
        // The board string read back gives the same position.
        let parsed: Position = format!("{} {side}", text(&record["board"]))
            .parse()
            .unwrap();
        assert_eq!(parsed, position, "{at}");
        assert!(!position.is_game_over(), "{at}: over too early");

        let ours: BTreeSet<String> = position
            .legal_moves()
            .iter()
            .map(|m| m.to_string())
            .collect();
        assert_eq!(ours, texts(&record["legal"]), "{at}: legal moves");

        let mv: Move = text(&record["move"]).parse().unwrap();
        let next = position.play(mv).unwrap_or_else(|e| panic!("{at}: {e}"));
        let flips = texts(&record["flips"]);
        match mv {
            Move::Pass => {
                passes += 1;
                assert!(flips.is_empty(), "{at}");
                assert_eq!(next.squares_string(), position.squares_string(), "{at}");
            }
            Move::Play(square) => {
                let index = square.index(8).unwrap();
                assert_eq!(
                    square_names(board8(&position).flips(index)),
                    flips,
                    "{at}: flips of {square}"
                );
                assert_eq!(turned(&position, &next), flips, "{at}: discs turned");
                assert_eq!(next.disc(index), Some(position.to_move), "{at}");
            }
        }
        position = next;
    }

    let last = &game["final"];
    assert_eq!(last["plies"], plies.len(), "game {id}");
    assert!(position.is_game_over(), "game {id} should be over");
    assert!(position.legal_moves().is_empty(), "game {id}");
    assert_eq!(
        position.play(Move::Pass),
        Err(MoveError::GameOver),
        "game {id}"
    );
    assert_eq!(position.squares_string(), text(&last["board"]), "game {id}");
    let (black, white) = (position.count(Color::Black), position.count(Color::White));
    assert_eq!(last["black"], black, "game {id}");
    assert_eq!(last["white"], white, "game {id}");
    assert_eq!(last["empty"], 64 - black - white, "game {id}");
    let winner = match position.final_score_for(Color::Black) {
        s if s > 0 => "X",
        s if s < 0 => "O",
        _ => "draw",
    };
    assert_eq!(text(&last["winner"]), winner, "game {id}");
    passes
}

#[test]
fn every_recorded_position_agrees_with_the_independent_rules() {
    let file = std::fs::File::open(GAMES).expect("test data");
    let mut games = 0;
    let mut passes = 0;
    for line in BufReader::new(GzDecoder::new(file)).lines() {
        let line = line.expect("readable gzip");
        let game: Value = serde_json::from_str(&line).expect("JSON");
        passes += check_game(&game);
        games += 1;
    }
    assert_eq!(games, 2000);
    // The data set exercises passes, not only straight games.
    assert_eq!(passes, 931);
}
