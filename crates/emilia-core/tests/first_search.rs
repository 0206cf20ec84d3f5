//! Making an engine makes every table the process shares (`emilia_core::setup`): the first
//! searches of every board size, stage and evaluation, and the exact solver's, then make
//! none, so that none is paid for inside a search's time. A file of its own, so that it
//! runs in a process of its own, where no other test has made the tables first.

use emilia_core::board::{Position, SIZES};
use emilia_core::engine::{Config, Engine, Source};
use emilia_core::search::Limits;
use emilia_core::setup;

/// Positions of a game of side `size` that always plays the last legal move: at the
/// start, in the middle, and 14 and 8 empty squares from the end (or the last before
/// the game ended).
fn stages(size: usize) -> Vec<Position> {
    let squares = (size * size) as u32;
    let wanted = [squares - 4, squares / 2, 14, 8];
    let mut position = Position::start(size).expect("a playable size");
    let mut found = Vec::new();
    for &empties in &wanted {
        while position.board.counts().2 > empties && !position.is_game_over() {
            let moves = position.legal_moves();
            let next = position.play(*moves.last().expect("a move or a pass"));
            position = next.expect("a legal move");
        }
        if !position.is_game_over() {
            found.push(position);
        }
    }
    found
}

#[test]
fn searches_of_every_size_stage_and_evaluation_make_no_table_once_an_engine_is_made() {
    let mut engine = Engine::new(Config {
        hash_mib: 16,
        book: Source::Off,
        ..Config::default()
    })
    .unwrap();
    engine.set_option("threads", "1").unwrap();
    let made = setup::tables_made();
    assert!(made > 0, "making an engine made the shared tables");
    let shallow = Limits {
        depth: Some(3),
        ..Limits::default()
    };
    let to_the_end = Limits {
        nodes: Some(200_000),
        ..Limits::default()
    };
    for eval in ["pattern", "classic", "squares"] {
        engine.set_option("eval", eval).unwrap();
        for size in SIZES {
            for position in stages(size) {
                engine.search(&position, &shallow, &mut |_| {});
                let (_, _, empties) = position.board.counts();
                if empties <= 14 {
                    engine.solve(&position, &to_the_end, &mut |_| {});
                }
                assert_eq!(
                    setup::tables_made(),
                    made,
                    "{eval} on {size}x{size} at {empties} empties made a table"
                );
            }
        }
    }
}
