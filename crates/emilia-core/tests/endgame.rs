//! The endgame solver against independent data: the FFO suite, solved endgame lists, and a
//! plain minimax on random positions.

mod common;

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};

use common::rng::Rng;
use emilia_core::board::{AnyBoard, Board, Board8, BoardN, Cell, Move, SquareSet};
use emilia_core::endgame::{Outcome, SolveLimits, Solver, MOST_NODES_PAST_LIMIT};
use emilia_core::formats::obf::{read_endgames, read_obf, Record};

fn data(path: &str) -> String {
    let full = format!("{}/tests/data/{path}", env!("CARGO_MANIFEST_DIR"));
    std::fs::read_to_string(&full).unwrap_or_else(|e| panic!("{full}: {e}"))
}

/// Plain negamax over the whole tree: the definition of the exact score.
fn minimax(board: &Board8) -> i32 {
    let moves: Vec<usize> = board.moves().collect();
    if moves.is_empty() {
        let passed = board.pass();
        if !passed.has_moves() {
            return board.final_score();
        }
        return -minimax(&passed);
    }
    moves
        .into_iter()
        .map(|m| -minimax(&board.play(m)))
        .max()
        .unwrap()
}

/// Random positions reached by random play from the start, with `empties` empty squares.
fn random_positions(count: usize, empties: u32, seed: u64) -> Vec<Board8> {
    let mut rng = Rng::new(seed);
    let mut found = Vec::new();
    while found.len() < count {
        let mut board = Board8::START;
        while board.empties() > empties {
            let moves: Vec<usize> = board.moves().collect();
            if moves.is_empty() {
                board = board.pass();
                if !board.has_moves() {
                    break;
                }
                continue;
            }
            board = board.play(*rng.pick(&moves));
        }
        if board.empties() == empties {
            found.push(board);
        }
    }
    found
}

#[test]
fn matches_minimax_on_random_positions() {
    let mut solver = Solver::new(4);
    for empties in 0..=10 {
        let count = if empties <= 8 { 60 } else { 15 };
        for board in random_positions(count, empties, 0x5EED + empties as u64) {
            let expected = minimax(&board);
            let any = AnyBoard::Eight(board);
            let solution = solver.solve_exact(&any);
            assert_eq!(solution.score, expected, "{board:?} ({empties} empties)");
            match solution.best.index(8) {
                Some(m) => assert_eq!(-minimax(&board.play(m)), expected, "{board:?}"),
                None => assert!(!board.has_moves()),
            }
            // Null windows around the score agree with it.
            assert!(solver.solve(&any, expected - 1, expected + 1).score == expected);
            assert!(solver.solve(&any, expected, expected + 1).score <= expected);
            assert!(solver.solve(&any, expected - 1, expected).score >= expected);
        }
    }
}

/// Solves every OBF record: the score must be the file's, and the move one of those the
/// file lists with that score.
fn check_obf(records: &[Record], solver: &mut Solver) {
    for (i, record) in records.iter().enumerate() {
        let solution = solver.solve_exact(&record.position.board);
        let expected = record.score.expect("a listed score");
        assert_eq!(
            solution.score,
            expected,
            "position {} ({})",
            i + 1,
            record.position
        );
        let best = record.best_moves();
        assert!(
            best.contains(&solution.best),
            "position {}: {:?} is not among the best {:?}",
            i + 1,
            solution.best,
            best
        );
    }
}

#[test]
fn solves_ffo_1_to_19() {
    let records = read_obf(&data("ffo/fforum-1-19.obf")).unwrap();
    assert_eq!(records.len(), 19);
    check_obf(&records, &mut Solver::new(16));
}

#[test]
fn solves_ffo_20_to_39() {
    let records = read_obf(&data("ffo/fforum-20-39.obf")).unwrap();
    assert_eq!(records.len(), 20);
    check_obf(&records, &mut Solver::new(32));
}

/// Every `step`-th position of an endgame list, starting at `offset`.
fn sample(file: &str, step: usize, offset: usize) -> Vec<Record> {
    let records = read_endgames(&data(&format!("endgames/{file}"))).unwrap();
    assert!(records.len() > 400, "{file}");
    records.into_iter().skip(offset).step_by(step).collect()
}

/// The lists give plain disc differences: where perfect play ends the game with empty squares
/// left, the world-rule score is further from zero by the empties left. Every other score must
/// match, and the file's move must reach the file's score.
#[test]
fn solves_endgame_list_samples() {
    let mut solver = Solver::new(16);
    let (mut checked, mut plain) = (0, 0);
    // About 100 positions, fewer of the slower ones with many empties.
    for (file, step) in [
        ("eg_13_14.txt", 15),
        ("eg_15_16.txt", 15),
        ("eg_17_18.txt", 20),
        ("eg_19_20.txt", 40),
        ("eg_21_22.txt", 100),
    ] {
        for record in sample(file, step, 3) {
            let board = record.position.board;
            let expected = record.score.unwrap();
            let score = solver.solve_exact(&board).score;
            checked += 1;
            if score != expected {
                // Same winner, and the gap no more than the empties.
                let gap = score.abs() - expected.abs();
                assert!(
                    score.signum() == expected.signum()
                        && gap > 0
                        && gap <= board.counts().2 as i32,
                    "{}: {score} against the file's {expected}",
                    record.position
                );
                plain += 1;
                continue;
            }
            if let Some(&(Move::Play(square), _)) = record.moves.first() {
                let after = board.play(square.index(8).unwrap());
                assert_eq!(
                    -solver.solve_exact(&after).score,
                    expected,
                    "{}",
                    record.position
                );
            }
        }
    }
    assert!(
        checked >= 100 && plain * 10 < checked,
        "{plain} of {checked} differ"
    );
}

#[test]
fn a_forced_pass_has_no_best_move() {
    let mut solver = Solver::new(1);
    let mut found = 0;
    for empties in 6..=12 {
        for board in random_positions(300, empties, 77) {
            if board.has_moves() || !board.pass().has_moves() {
                continue;
            }
            let solution = solver.solve_exact(&AnyBoard::Eight(board));
            assert_eq!(solution.best, Move::Pass);
            assert_eq!(solution.score, -minimax(&board.pass()));
            found += 1;
        }
    }
    assert!(found > 0);
}

#[test]
fn win_loss_draw_agrees_with_the_exact_score() {
    let records = read_obf(&data("ffo/fforum-1-19.obf")).unwrap();
    let mut solver = Solver::new(16);
    for record in &records {
        let (outcome, solution) = solver.solve_wld(&record.position.board);
        let expected = match record.score.unwrap() {
            s if s > 0 => Outcome::Win,
            0 => Outcome::Draw,
            _ => Outcome::Loss,
        };
        assert_eq!(outcome, expected, "{}", record.position);
        // A winning or drawing move must keep the result.
        if let Some(m) = solution.best.index(8) {
            let after = record.position.board.play(m);
            let score = -solver.solve_exact(&after).score;
            assert_eq!(score.signum(), record.score.unwrap().signum());
        }
    }
}

#[test]
fn limits_stop_the_search_and_leave_the_solver_usable() {
    // FFO #40 (20 empties): millions of nodes.
    let records = read_obf(&data("ffo/fforum-40-59.obf")).unwrap();
    let board = records[0].position.board;
    let mut solver = Solver::new(16);

    let stop = AtomicBool::new(true);
    let limits = SolveLimits {
        stop: Some(&stop),
        ..SolveLimits::NONE
    };
    assert_eq!(solver.solve_within(&board, -65, 65, &limits), None);

    let limits = SolveLimits {
        max_nodes: Some(100_000),
        ..SolveLimits::NONE
    };
    assert_eq!(solver.solve_within(&board, -65, 65, &limits), None);

    let limits = SolveLimits {
        deadline: Some(std::time::Instant::now()),
        ..SolveLimits::NONE
    };
    let start = std::time::Instant::now();
    assert_eq!(solver.solve_within(&board, -65, 65, &limits), None);
    assert!(start.elapsed().as_millis() < 500);

    // Another thread raises the flag while the solve runs.
    let stop = AtomicBool::new(false);
    let limits = SolveLimits {
        stop: Some(&stop),
        ..SolveLimits::NONE
    };
    let hard = records[9].position.board; // FFO #49, 26 empties
    let result = std::thread::scope(|scope| {
        scope.spawn(|| {
            std::thread::sleep(std::time::Duration::from_millis(50));
            stop.store(true, std::sync::atomic::Ordering::Relaxed);
        });
        solver.solve_within(&hard, -65, 65, &limits)
    });
    assert_eq!(result, None);

    // Nothing half-done was kept: the full solve is still right.
    let solution = solver.solve_exact(&board);
    assert_eq!((solution.score, solution.best), (38, "a2".parse().unwrap()));
}

/// Plain negamax on the square-by-square reference board.
fn reference_minimax(board: &BoardN) -> i32 {
    let moves: Vec<usize> = board.moves().collect();
    if moves.is_empty() {
        let passed = board.pass();
        if !passed.has_moves() {
            return board.final_score();
        }
        return -reference_minimax(&passed);
    }
    moves
        .into_iter()
        .map(|m| -reference_minimax(&board.play(m)))
        .max()
        .unwrap()
}

/// The square-by-square copy of `board`.
fn reference(board: &AnyBoard) -> BoardN {
    let (mut player, mut opponent) = (SquareSet::default(), SquareSet::default());
    for index in 0..board.size() * board.size() {
        match board.cell(index) {
            Cell::Player => player.insert(index),
            Cell::Opponent => opponent.insert(index),
            Cell::Empty => {}
        }
    }
    BoardN::from_sets(board.size(), player, opponent)
}

/// A position `empties` empty squares from the end of a random game on `size`, or `None`
/// when the game ended before.
fn random_position(size: usize, empties: u32, rng: &mut Rng) -> Option<AnyBoard> {
    let mut board = AnyBoard::start(size).unwrap();
    while board.counts().2 > empties {
        let moves = board.moves();
        if moves.is_empty() {
            board = board.pass();
            if !board.has_moves() {
                return None;
            }
            continue;
        }
        board = board.play(moves[(rng.next_u64() % moves.len() as u64) as usize]);
    }
    Some(board)
}

/// Every path that solves 6x6 and 8x8 positions gives the same score: the solver on one
/// thread and on three (the parallel split, from 16 empties), an outcome proof, the midgame
/// search searching to the end (on 8x8 handing its small endgames to the solver), and up
/// to 9 empties the square-by-square minimax. (The protocol's `solve` is compared with the
/// solver by the program's `tests/protocol_text.rs`.)
#[test]
fn every_path_solves_6x6_and_8x8_positions_to_the_same_score() {
    use emilia_core::board::{Color, Position};
    use emilia_core::engine::{Config, Engine, Source};
    use emilia_core::search::Limits;

    let mut rng = Rng::new(52);
    let (mut one, mut three) = (Solver::new(4), Solver::new(4));
    three.set_threads(3);
    // The engine searched to the end of the game, on one thread with a fresh table.
    let to_the_end = Limits {
        depth: Some(60),
        ..Limits::default()
    };
    for (size, empties, count) in [
        (6, 8, 6),
        (6, 14, 4),
        (6, 18, 3),
        (8, 9, 6),
        (8, 14, 4),
        (8, 18, 2),
    ] {
        let mut found = 0;
        while found < count {
            let Some(board) = random_position(size, empties, &mut rng) else {
                continue;
            };
            if board.is_game_over() {
                continue;
            }
            found += 1;
            let exact = Solver::new(4).solve_exact(&board).score;
            if empties <= 9 {
                assert_eq!(exact, reference_minimax(&reference(&board)), "{board:?}");
            }
            three.clear();
            assert_eq!(
                three.solve_exact(&board).score,
                exact,
                "three threads: {board:?}"
            );
            let (_, outcome) = one.solve_wld(&board);
            assert_eq!(outcome.score.signum(), exact.signum(), "outcome: {board:?}");
            let mut engine = Engine::new(Config {
                hash_mib: 4,
                book: Source::Off,
                ..Config::default()
            })
            .unwrap();
            engine.set_option("threads", "1").unwrap();
            let position = Position {
                board,
                to_move: Color::Black,
            };
            let searched = engine.search(&position, &to_the_end, &mut |_| {});
            assert_eq!(
                searched.score.whole_discs(),
                exact,
                "engine search: {board:?}"
            );
        }
    }
}

#[test]
fn every_size_solves_to_the_square_by_square_minimax() {
    let mut rng = Rng::new(17);
    let mut solver = Solver::new(1);
    // The last 6x6 positions have 10 empties: the reference's tree then has about a
    // million leaves, the solver's a few thousand nodes.
    for (size, empties, count) in [(6, 7, 30), (6, 10, 3), (10, 7, 6), (12, 7, 6)] {
        let mut checked = 0;
        while checked < count {
            let Some(board) = random_position(size, empties, &mut rng) else {
                continue;
            };
            let slow = reference(&board);
            let expected = reference_minimax(&slow);
            solver.clear();
            let solution = solver.solve_exact(&board);
            assert_eq!(solution.score, expected, "{size}x{size}: {slow:?}");
            match solution.best.index(size) {
                Some(m) => assert_eq!(-reference_minimax(&slow.play(m)), expected),
                None => assert!(!slow.has_moves()),
            }
            // A window: a bound on the right side outside it.
            let limits = SolveLimits::NONE;
            let above = solver.solve_within(&board, expected - 5, expected - 1, &limits);
            assert!(above.unwrap().score >= expected - 1);
            checked += 1;
        }
    }
}

/// The parallel solver (2 to 4 threads, more than this machine may have cores) gives the
/// scores of the files: FFO positions and exact endgames with enough empty squares for the
/// threads to split the work.
#[test]
fn more_threads_solve_to_the_same_scores() {
    let ffo: Vec<Record> = read_obf(&data("ffo/fforum-1-19.obf"))
        .unwrap()
        .into_iter()
        .chain(read_obf(&data("ffo/fforum-20-39.obf")).unwrap())
        .step_by(3)
        .collect();
    for (i, chunk) in ffo.chunks(3).enumerate() {
        let mut solver = Solver::new(16);
        solver.set_threads(2 + i % 3);
        check_obf(chunk, &mut solver);
    }
    let lists = sample("eg_17_18.txt", 100, 7)
        .into_iter()
        .chain(sample("eg_19_20.txt", 100, 11))
        .chain(sample("eg_21_22.txt", 100, 13));
    let mut checked = 0;
    for (i, record) in lists.enumerate() {
        let board = record.position.board;
        let mut one = Solver::new(8);
        let mut more = Solver::new(8);
        more.set_threads(2 + i % 3);
        let (a, b) = (one.solve_exact(&board), more.solve_exact(&board));
        assert_eq!(a.score, b.score, "{}", record.position);
        // Another best move must reach the same score.
        if a.best != b.best {
            let after = board.play(b.best.index(8).expect("a move"));
            assert_eq!(
                -one.solve_exact(&after).score,
                a.score,
                "{}",
                record.position
            );
        }
        checked += 1;
    }
    assert!(checked >= 12, "{checked}");
}

#[test]
fn a_parallel_solve_stops_on_its_limits_and_stays_right() {
    let records = read_obf(&data("ffo/fforum-40-59.obf")).unwrap();
    let board = records[0].position.board;
    let mut solver = Solver::new(16);
    solver.set_threads(3);
    let limits = SolveLimits {
        max_nodes: Some(200_000),
        ..SolveLimits::NONE
    };
    assert_eq!(solver.solve_within(&board, -65, 65, &limits), None);
    let stop = AtomicBool::new(false);
    let limits = SolveLimits {
        stop: Some(&stop),
        ..SolveLimits::NONE
    };
    let hard = records[9].position.board; // FFO #49, 26 empties
    let started = std::time::Instant::now();
    let result = std::thread::scope(|scope| {
        scope.spawn(|| {
            std::thread::sleep(std::time::Duration::from_millis(30));
            stop.store(true, std::sync::atomic::Ordering::Relaxed);
        });
        solver.solve_within(&hard, -65, 65, &limits)
    });
    assert_eq!(result, None);
    assert!(started.elapsed().as_secs() < 5);
    let solution = solver.solve_exact(&board);
    assert_eq!((solution.score, solution.best), (38, "a2".parse().unwrap()));
}

/// A solve keeps the counter of `SolveLimits::nodes_seen` up to date, on one thread or
/// several and on every size: what progress reports show while it runs.
#[test]
fn a_solve_keeps_its_node_count_where_progress_reports_read_it() {
    let records = read_obf(&data("ffo/fforum-40-59.obf")).unwrap();
    let mut rng = Rng::new(5);
    let ten = loop {
        if let Some(board) = random_position(10, 16, &mut rng) {
            break board;
        }
    };
    for (board, threads) in [
        (records[0].position.board, 1),
        (records[0].position.board, 2),
        (ten, 1),
    ] {
        let mut solver = Solver::new(8);
        solver.set_threads(threads);
        let seen = std::sync::atomic::AtomicU64::new(0);
        let limits = SolveLimits {
            nodes_seen: Some(&seen),
            ..SolveLimits::NONE
        };
        let solution = solver.solve_within(&board, -65, 65, &limits).unwrap();
        let seen = seen.into_inner();
        assert!(solution.nodes > 100_000, "{}", solution.nodes);
        assert!(
            seen > 0 && seen <= solution.nodes,
            "{threads} threads: {seen} of {} nodes",
            solution.nodes
        );
        // The counter follows the whole solve, not only its first window.
        assert!(seen >= solution.nodes / 2, "{seen} of {}", solution.nodes);
    }
}

/// A proof of the outcome says who wins as the exact solve does, and its move keeps that
/// outcome; a draw is exact.
#[test]
fn outcome_proofs_agree_with_exact_solves() {
    let mut solver = Solver::new(16);
    let (mut wins, mut draws, mut losses) = (0, 0, 0);
    for (file, step) in [("eg_13_14.txt", 10), ("eg_17_18.txt", 40)] {
        for record in sample(file, step, 1) {
            let board = record.position.board;
            let exact = solver.solve_exact(&board).score;
            let (proved, outcome) = solver.solve_wld(&board);
            assert_eq!(
                outcome.score.signum(),
                exact.signum(),
                "{}",
                record.position
            );
            let expected = match exact.signum() {
                1 => Outcome::Win,
                0 => Outcome::Draw,
                _ => Outcome::Loss,
            };
            assert_eq!(proved, expected, "{}", record.position);
            match exact.signum() {
                1 => wins += 1,
                0 => {
                    draws += 1;
                    assert_eq!(outcome.score, 0, "{}", record.position);
                }
                _ => {
                    losses += 1;
                    continue;
                }
            }
            let after = board.play(outcome.best.index(8).unwrap());
            let kept = -solver.solve_exact(&after).score;
            assert_eq!(kept.signum(), exact.signum(), "{}", record.position);
        }
    }
    assert!(
        wins > 5 && draws > 0 && losses > 5,
        "{wins} {draws} {losses}"
    );
}

/// A node limit of `limit`, the solve's count shown in `seen`.
fn node_limited(limit: u64, seen: &AtomicU64) -> SolveLimits<'_> {
    SolveLimits {
        max_nodes: Some(limit),
        nodes_seen: Some(seen),
        ..SolveLimits::NONE
    }
}

#[test]
fn a_node_limit_is_passed_by_at_most_the_squares_solved_without_looking() {
    // Before, the 8x8 solver looked at a node limit only in nodes of 9 empties or more,
    // and its ordering searches never: whole subtrees passed the limit by thousands.
    let mut rng = Rng::new(23);
    let mut solver = Solver::new(1);
    let (mut stopped, mut finished) = (0, 0);
    for (size, empties, count) in [(8, 10, 6), (8, 14, 6), (8, 18, 3), (6, 12, 4), (10, 9, 3)] {
        let mut done = 0;
        while done < count {
            let Some(board) = random_position(size, empties, &mut rng) else {
                continue;
            };
            if !board.has_moves() {
                continue;
            }
            solver.clear();
            let exact = solver.solve_exact(&board).score;
            for limit in [1, 20, 100, 400, 2_000, 10_000, 200_000] {
                // A fresh table each time, so that no solve is answered by an earlier one.
                solver.clear();
                let seen = AtomicU64::new(0);
                let limits = node_limited(limit, &seen);
                let most = limit + MOST_NODES_PAST_LIMIT;
                match solver.solve_within(&board, i32::MIN + 1, i32::MAX, &limits) {
                    Some(solution) => {
                        finished += 1;
                        assert!(
                            solution.nodes <= most,
                            "{size}x{size} {limit}: {solution:?}"
                        );
                        assert_eq!(solution.score, exact, "{size}x{size} {limit}");
                    }
                    None => {
                        stopped += 1;
                        let nodes = seen.load(Ordering::Relaxed);
                        assert!(nodes <= most, "{size}x{size} {limit}: stopped at {nodes}");
                        assert!(nodes >= limit, "{size}x{size} {limit}: stopped at {nodes}");
                    }
                }
            }
            done += 1;
        }
    }
    assert!(
        stopped >= 40 && finished >= 20,
        "{stopped} stopped, {finished} finished"
    );
    // Threads share the limit out as they go: a parallel solve (helpers at 16 empties and
    // more) passes it by at most the bound a thread. Before, each looked at the count of
    // all only every thousand nodes or so.
    for threads in [2, 3] {
        solver.set_threads(threads);
        for board in random_positions(3, 22, 41) {
            let board = AnyBoard::Eight(board);
            for limit in [3_000, 30_000, 300_000] {
                solver.clear();
                let seen = AtomicU64::new(0);
                let limits = node_limited(limit, &seen);
                let most = limit + threads as u64 * MOST_NODES_PAST_LIMIT;
                let nodes = match solver.solve_within(&board, -65, 65, &limits) {
                    Some(solution) => solution.nodes,
                    None => seen.load(Ordering::Relaxed),
                };
                assert!(nodes <= most, "{threads} threads, {limit}: {nodes} nodes");
            }
        }
    }
}
