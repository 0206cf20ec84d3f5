//! The opening book against the engine's own search: a move that many games repeated and
//! a search puts far below the best is kept in the book but never recommended.

use std::path::PathBuf;

use super::after_moves;
use super::build::{build, BuildOptions};
use super::deepen::{deepen_to_end, DeepenOptions};
use super::games::{read_wthor, GameLine};
use emilia_core::board::{AnyBoard, Board, Board8, Color, Move, Position};
use emilia_core::book::packed::PackedBook;
use emilia_core::book::Key;
use emilia_core::engine::{Config, Engine, Source};
use emilia_core::search::Limits;

/// The core's test data directory.
fn data_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("crates/emilia-core/tests/data")
}

const CORNERS: [usize; 4] = [0, 7, 56, 63];

#[test]
fn a_blunder_repeated_in_many_games_is_not_recommended() {
    // In a real game, find a position where a move hands the opponent a corner and a
    // search puts it at least 8 discs below the best.
    let game = read_wthor(&data_dir().join("WTH_2003.wtb"))
        .unwrap()
        .remove(0);
    let mut engine = Engine::new(Config {
        hash_mib: 16,
        book: Source::Off,
        ..Config::default()
    })
    .unwrap();
    let searched = |engine: &mut Engine, board: Board8| {
        let position = Position {
            board: AnyBoard::Eight(board),
            to_move: Color::Black,
        };
        let limits = Limits {
            depth: Some(8),
            ..Limits::default()
        };
        engine.hint(&position, 64, &limits, &mut |_, _| {})
    };
    let (prefix, blunder) = (12..40)
        .find_map(|ply| {
            let board = after_moves(&game.moves[..ply]);
            let scores = searched(&mut engine, board);
            let best = scores[0].score;
            scores.iter().find_map(|s| {
                let Move::Play(sq) = s.mv else { return None };
                let square = sq.index(8).unwrap();
                let next = board.play(square);
                let gives_corner = CORNERS.iter().any(|&c| next.is_legal(c))
                    && !CORNERS.iter().any(|&c| board.is_legal(c));
                (gives_corner && s.score.hundredths() <= best.hundredths() - 800)
                    .then_some((ply, square))
            })
        })
        .expect("a blunder within the first 40 moves");
    // Ten games play the blunder and go on without taking the corner; five play the move
    // of the real game.
    let mut line = game.moves[..prefix].to_vec();
    line.push(blunder);
    for _ in 0..4 {
        let board = after_moves(&line);
        let board = if board.has_moves() {
            board
        } else {
            board.pass()
        };
        let quiet = board.moves().find(|m| !CORNERS.contains(m)).unwrap();
        line.push(quiet);
    }
    let mut games = vec![GameLine::standard(line); 10];
    games.extend(vec![GameLine::standard(game.moves.clone()); 5]);
    let mut book = build(
        &games,
        &BuildOptions {
            min_games: 5,
            max_ply: prefix + 4,
        },
    );
    let before = after_moves(&game.moves[..prefix]);
    let (key, k) = Key::of(&before);
    let image = emilia_core::eval::pattern::symmetry::square(k, blunder) as u8;
    assert!(book
        .node(&key)
        .unwrap()
        .links
        .iter()
        .any(|l| l.square == image));
    deepen_to_end(
        &mut book,
        DeepenOptions {
            depth: 8,
            solve_empties: 14,
            hash_mib: 16,
            ..DeepenOptions::default()
        },
    );
    let scores = book.scores(&before).unwrap();
    let played = scores.iter().find(|s| s.square == blunder).unwrap();
    assert_ne!(scores[0].square, blunder);
    assert!(played.value <= scores[0].value - 400, "{scores:?}");
    // Play looks the book up packed.
    let packed = PackedBook::new(&book);
    let mut rng = emilia_core::rng::Rng::new(1);
    for _ in 0..20 {
        assert_ne!(
            packed.choose(&before, 200, &mut rng).unwrap().square,
            blunder
        );
    }
}
