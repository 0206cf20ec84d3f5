//! The midgame search against the exact solver: searched to the end, alone or lending its
//! small endgames to the solver, and with Multi-ProbCut levels before the exact search, it
//! reports the solver's scores.

use std::sync::atomic::AtomicBool;

use crate::board::{Position, SIZES};
use crate::engine::{Config, Engine, Source};
use crate::rng::Rng;
use crate::search::{Limits, SearchSettings};

/// A small engine on one thread (reproducible node counts).
fn engine() -> Engine {
    let mut engine = Engine::new(Config {
        hash_mib: 4,
        book: Source::Off,
        ..Config::default()
    })
    .unwrap();
    engine.set_option("threads", "1").unwrap();
    engine
}

/// 8x8 positions of `empties` empty squares with a move to play, from reproducible random
/// playouts on every size.
fn eight_by_eight(seed: u64, games: usize, empties: u32) -> Vec<Position> {
    let mut rng = Rng::new(seed);
    let mut found = Vec::new();
    for game in 0..games {
        let size = SIZES[game % SIZES.len()];
        let mut position = Position::start(size).unwrap();
        loop {
            if position.size() == 8
                && position.board.counts().2 == empties
                && position.board.has_moves()
            {
                found.push(position);
            }
            if position.is_game_over() {
                break;
            }
            let mv = *rng
                .pick(&position.legal_moves())
                .expect("the game is not over");
            position = position.play(mv).unwrap();
        }
    }
    found
}

#[test]
fn the_midgame_search_to_the_end_agrees_with_the_8x8_solver() {
    use crate::board::{AnyBoard, Board};
    use crate::eval::Classic;
    use crate::search::{search, tt::TranspositionTable};

    // Past the solver's small endgames (12 empties), so that a search lending them to the
    // solver works out the nodes above them itself.
    let positions = eight_by_eight(41, 24, 15);
    assert!(positions.len() >= 4);
    let mut engine = engine();
    let solver = crate::endgame::Solver::new(4);
    let stop = AtomicBool::new(false);
    let alone = SearchSettings::by_depth(60, &stop);
    let lending = SearchSettings {
        small_solver: Some(solver.small_solver()),
        ..alone
    };
    // On 1 to 4 threads: the parallel search is exact too.
    for (threads, position) in positions.iter().take(4).enumerate() {
        let AnyBoard::Eight(board) = position.board else {
            unreachable!()
        };
        let solved = engine.solve(position, &Limits::default(), &mut |_| {});
        assert!(solved.exact);
        assert_eq!(board.empties(), solved.depth);
        for settings in [&alone, &lending] {
            let tt = TranspositionTable::new(4);
            let searched = search(
                &board,
                &Classic::default(),
                &tt,
                settings,
                1 + threads,
                &mut |_, _| {},
            );
            assert!(searched.report.exact);
            assert_eq!(searched.report.score, solved.score, "{position}");
        }
    }
}

#[test]
fn with_the_solver_lent_a_search_three_plies_short_of_the_end_goes_there() {
    use crate::board::AnyBoard;
    use crate::eval::Classic;
    use crate::search::{search, tt::TranspositionTable};

    let positions = eight_by_eight(7, 60, 6);
    assert!(positions.len() >= 4);
    let mut engine = engine();
    let solver = crate::endgame::Solver::new(4);
    let stop = AtomicBool::new(false);
    let alone = SearchSettings::by_depth(3, &stop);
    let lending = SearchSettings {
        small_solver: Some(solver.small_solver()),
        ..alone
    };
    let mut short_alone = 0;
    for position in positions.iter().take(8) {
        let AnyBoard::Eight(board) = position.board else {
            unreachable!()
        };
        let solved = engine.solve(position, &Limits::default(), &mut |_| {});
        let run = |settings| {
            let tt = TranspositionTable::new(4);
            search(
                &board,
                &Classic::default(),
                &tt,
                settings,
                1,
                &mut |_, _| {},
            )
            .report
        };
        let lent = run(&lending);
        assert!(lent.exact, "{position}");
        assert_eq!(lent.score, solved.score, "{position}");
        short_alone += usize::from(!run(&alone).exact);
    }
    // Alone, the same searches mostly stop at depth 3 with evaluated leaves.
    assert!(short_alone >= 4, "{short_alone}");
}

#[test]
fn a_selective_search_to_the_end_is_never_reported_exact_before_the_exact_one() {
    use crate::board::AnyBoard;
    use crate::eval::Classic;
    use crate::search::mpc::{shallow_depth, Cut, Line, Table, LEVELS};
    use crate::search::{search, tt::TranspositionTable};

    // A table that predicts the exact result from a shallow search with a small error, so
    // that cuts happen at every level.
    let lines = (12..=20)
        .map(|empties| Line::End {
            empties,
            cut: Cut {
                shallow: shallow_depth(empties),
                slope: 1.0,
                intercept: 0.0,
                sigma: 100.0,
                samples: 1,
            },
        })
        .collect();
    let table = Table::new(lines).unwrap();
    let positions = eight_by_eight(17, 40, 16);
    assert!(positions.len() >= 2);
    let mut engine = engine();
    let stop = AtomicBool::new(false);
    let settings = SearchSettings {
        mpc: Some(&table),
        ..SearchSettings::by_depth(60, &stop)
    };
    for position in positions.iter().take(2) {
        let AnyBoard::Eight(board) = position.board else {
            unreachable!()
        };
        let tt = TranspositionTable::new(4);
        let mut at_the_end = Vec::new();
        let outcome = search(
            &board,
            &Classic::default(),
            &tt,
            &settings,
            1,
            &mut |r, _| {
                if r.depth == 16 {
                    at_the_end.push((r.exact, r.probability));
                }
            },
        );
        let solved = engine.solve(position, &Limits::default(), &mut |_| {});
        // Every level in turn, each with its probability and never exact, then the exact
        // search, whose score is the solver's.
        let levels: Vec<(bool, Option<u32>)> = LEVELS
            .iter()
            .map(|&t| (false, Some(crate::search::mpc::probability(t))))
            .collect();
        assert_eq!(at_the_end[..levels.len()], levels[..], "{position}");
        assert_eq!(at_the_end.last(), Some(&(true, None)));
        assert!(outcome.report.exact);
        assert_eq!(outcome.report.score, solved.score, "{position}");
    }
}
