//! The midgame search through the engine's public interface: legal moves on every size,
//! passes and ended games, reproducibility, exactness against brute force and published
//! endgame values, the warm transposition table, limits and hints.

mod common;

use std::time::{Duration, Instant};

use common::rng::Rng;

use emilia_core::board::{Color, Move, Position, SIZES};
use emilia_core::engine::{Config, Engine, Source};
use emilia_core::score::Score;
use emilia_core::search::Limits;

fn depth(d: u32) -> Limits {
    Limits {
        depth: Some(d),
        ..Limits::default()
    }
}

/// A small engine on one thread (reproducible node counts): tests do not need the default
/// 64 MiB table.
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

/// 8x8 positions of `empties` empty squares with a move to play, from `random_positions`.
fn eight_by_eight(seed: u64, games: usize, empties: u32) -> Vec<Position> {
    random_positions(seed, games, |p| {
        p.size() == 8 && p.board.counts().2 == empties && p.board.has_moves()
    })
}

/// Reproducible random playouts on every size; `keep` picks positions along the way.
fn random_positions(seed: u64, games: usize, keep: impl Fn(&Position) -> bool) -> Vec<Position> {
    let mut rng = Rng::new(seed);
    let mut found = Vec::new();
    for game in 0..games {
        let size = SIZES[game % SIZES.len()];
        let mut position = Position::start(size).unwrap();
        loop {
            if keep(&position) {
                found.push(position);
            }
            if position.is_game_over() {
                break;
            }
            position = position.play(*rng.pick(&position.legal_moves())).unwrap();
        }
    }
    found
}

/// Exact final disc difference for the side to move by plain minimax over every line.
fn brute_force(position: &Position) -> i32 {
    if position.is_game_over() {
        return position.final_score_for(position.to_move);
    }
    position
        .legal_moves()
        .into_iter()
        .map(|mv| -brute_force(&position.play(mv).unwrap()))
        .max()
        .unwrap()
}

#[test]
fn fixed_depth_search_plays_legal_moves_on_every_size() {
    let mut engine = engine();
    let positions = random_positions(11, 8, |p| {
        let (_, _, empties) = p.board.counts();
        empties % 9 == 0
    });
    assert!(positions.iter().any(|p| p.size() == 12));
    for position in positions.iter().filter(|p| !p.is_game_over()) {
        let report = engine.search(position, &depth(3), &mut |_| {});
        assert!(
            position.play(report.best).is_ok(),
            "{position}: {}",
            report.best
        );
        assert_eq!(report.pv.first(), Some(&report.best));
        assert!(report.depth >= 1);
    }
}

#[test]
fn a_forced_pass_is_answered_with_pass_and_a_search_from_the_other_side() {
    let passes = random_positions(5, 40, |p| !p.board.has_moves() && !p.is_game_over());
    assert!(passes.len() >= 3, "found {} pass positions", passes.len());
    let mut engine = engine();
    for position in passes.iter().take(6) {
        let mut reports = 0;
        let report = engine.search(position, &depth(4), &mut |r| {
            reports += 1;
            assert_eq!(r.best, Move::Pass);
        });
        assert_eq!(report.best, Move::Pass, "{position}");
        assert_eq!(report.pv.first(), Some(&Move::Pass));
        assert!(reports >= 1);
        // The pv goes on with a legal move of the opponent.
        let after = position.play(Move::Pass).unwrap();
        if let Some(&next) = report.pv.get(1) {
            assert!(after.play(next).is_ok(), "{position}: {next}");
        }
    }
}

#[test]
fn a_finished_game_reports_its_exact_result() {
    let ended = random_positions(3, 4, Position::is_game_over);
    assert_eq!(ended.len(), 4);
    let mut engine = engine();
    for position in ended {
        let report = engine.search(&position, &depth(5), &mut |_| {});
        assert_eq!(report.best, Move::Pass);
        assert!(report.exact);
        assert_eq!(
            report.score,
            Score::from_discs(position.final_score_for(position.to_move))
        );
    }
}

#[test]
fn fixed_depth_search_is_reproducible_from_a_fresh_engine() {
    let start = Position::start(8).unwrap();
    let (position, _) = start.play_transcript("f5d6c3d3c4f4f6f3e6e7").unwrap();
    let runs: Vec<_> = (0..2)
        .map(|_| engine().search(&position, &depth(7), &mut |_| {}))
        .collect();
    assert_eq!(runs[0].best, runs[1].best);
    assert_eq!(runs[0].score, runs[1].score);
    assert_eq!(runs[0].nodes, runs[1].nodes);
    assert_eq!(runs[0].pv, runs[1].pv);
    assert_eq!(runs[0].depth, 7);
    assert_eq!(runs[0].pv.len(), 7, "{:?}", runs[0].pv);
    // Replaying the principal variation is legal all along.
    let mut p = position;
    for &mv in &runs[0].pv {
        p = p.play(mv).unwrap();
    }
}

#[test]
fn node_limited_search_is_reproducible_too() {
    let position = Position::start(10).unwrap();
    let limits = Limits {
        nodes: Some(3_000),
        ..Limits::default()
    };
    let a = engine().search(&position, &limits, &mut |_| {});
    let b = engine().search(&position, &limits, &mut |_| {});
    assert_eq!((a.best, a.score, a.nodes), (b.best, b.score, b.nodes));
    assert!(a.nodes >= 3_000 && a.nodes < 3_100, "{}", a.nodes);
}

#[test]
fn small_endgames_are_solved_exactly_as_brute_force_says() {
    let positions = random_positions(17, 12, |p| {
        let (_, _, empties) = p.board.counts();
        (6..=8).contains(&empties) && p.size() <= 8 && !p.is_game_over()
    });
    assert!(positions.len() >= 10);
    let mut engine = engine();
    for position in positions.iter().step_by(2) {
        let truth = brute_force(position);
        let report = engine.solve(position, &Limits::default(), &mut |_| {});
        assert!(report.exact, "{position}");
        assert_eq!(report.score, Score::from_discs(truth), "{position}");
        // The chosen move keeps the value.
        let after = position.play(report.best).unwrap();
        assert_eq!(-brute_force(&after), truth, "{position}: {}", report.best);
        // And a midgame search deep enough is exact as well.
        let midgame = engine.search(position, &depth(60), &mut |_| {});
        assert!(midgame.exact);
        assert_eq!(midgame.score, Score::from_discs(truth));
    }
}

#[test]
fn published_endgame_values_are_reproduced() {
    // Positions with 13 and 14 empties and their perfect-play scores (Black's view).
    let text = include_str!("data/endgames/eg_13_14_sample.txt");
    let mut engine = Engine::new(Config {
        hash_mib: 16,
        ..Config::default()
    })
    .unwrap();
    for line in text.lines().take(6) {
        let fields: Vec<&str> = line.split_whitespace().collect();
        let side = if fields[1] == "Black" { "X" } else { "O" };
        let position = Position::from_parts(fields[0], side).unwrap();
        let black_score: i32 = fields[3].parse().unwrap();
        let report = engine.solve(&position, &Limits::default(), &mut |_| {});
        let expected = if position.to_move == Color::Black {
            black_score
        } else {
            -black_score
        };
        assert!(report.exact);
        assert_eq!(report.score, Score::from_discs(expected), "{line}");
    }
}

#[test]
fn ffo_positions_with_14_empties_are_solved_to_their_published_scores() {
    let suite = include_str!("data/ffo/fforum-1-19.obf");
    let mut engine = Engine::new(Config {
        hash_mib: 16,
        ..Config::default()
    })
    .unwrap();
    for line in suite.lines().take(3) {
        let position: Position = line.parse().unwrap();
        // `MOVE:SCORE` pairs, best first.
        let scored: Vec<(Move, i32)> = line
            .split(';')
            .skip(1)
            .filter_map(|part| part.trim().split_once(':'))
            .map(|(mv, score)| (mv.parse().unwrap(), score.parse().unwrap()))
            .collect();
        let best_score = scored[0].1;
        let report = engine.solve(&position, &Limits::default(), &mut |_| {});
        assert!(report.exact);
        assert_eq!(report.score, Score::from_discs(best_score), "{line}");
        let chosen = scored.iter().find(|(mv, _)| *mv == report.best);
        assert_eq!(
            chosen.map(|c| c.1),
            Some(best_score),
            "{line}: {}",
            report.best
        );
    }
}

#[test]
fn a_timed_8x8_search_hands_a_small_endgame_to_the_solver() {
    let suite = include_str!("data/ffo/fforum-1-19.obf");
    let line = suite.lines().next().unwrap();
    let position: Position = line.parse().unwrap();
    let limits = Limits {
        move_time: Some(Duration::from_secs(2)),
        ..Limits::default()
    };
    let report = engine().search(&position, &limits, &mut |_| {});
    assert!(report.exact, "{line}");
    assert_eq!(report.score, Score::from_discs(18));
    assert_eq!(report.best, "g8".parse().unwrap());
}

#[test]
fn the_table_survives_between_searches() {
    let start = Position::start(8).unwrap();
    let (position, _) = start.play_transcript("f5f6e6f4e3c5c4e7").unwrap();
    let mut engine = engine();
    // Without ProbCut, whose cut nodes leave no entry, the second search finds much of its
    // work in the table (a cleared table would make it search exactly as many nodes again;
    // the principal variation and bounds outside the new windows are searched again).
    engine.set_option("probcut", "0").unwrap();
    let cold = engine.search(&position, &depth(11), &mut |_| {});
    let warm = engine.search(&position, &depth(11), &mut |_| {});
    assert!(
        warm.nodes * 3 < cold.nodes * 2,
        "cold {} warm {}",
        cold.nodes,
        warm.nodes
    );
    engine.clear_hash();
    let cleared = engine.search(&position, &depth(11), &mut |_| {});
    assert_eq!(cleared.nodes, cold.nodes);
}

#[test]
fn probcut_prunes_the_midgame_but_leaves_exact_scores_alone() {
    let start = Position::start(8).unwrap();
    let (midgame, _) = start.play_transcript("f5f6e6f4e3c5c4e7").unwrap();
    let mut plain = engine();
    plain.set_option("probcut", "0").unwrap();
    let full = plain.search(&midgame, &depth(10), &mut |_| {});
    // With the built-in Multi-ProbCut table, and with one fixed margin for all depths.
    let mut fixed = engine();
    fixed.set_option("mpc", "off").unwrap();
    for mut pruning in [engine(), fixed] {
        let pruned = pruning.search(&midgame, &depth(10), &mut |_| {});
        assert!(
            pruned.nodes * 3 < full.nodes * 2,
            "{} {}",
            pruned.nodes,
            full.nodes
        );
    }
    let endgames = random_positions(29, 8, |p| {
        let (_, _, empties) = p.board.counts();
        empties == 9 && p.size() == 8 && !p.is_game_over()
    });
    for position in endgames.iter().take(3) {
        let report = engine().solve(position, &Limits::default(), &mut |_| {});
        assert_eq!(
            report.score,
            Score::from_discs(brute_force(position)),
            "{position}"
        );
    }
}

#[test]
fn probcut_auto_is_a_margin_that_depends_on_the_board_size() {
    // The default margin: 10 tenths of a standard deviation on 8x8, 5 on 10x10 and 12x12,
    // node for node the same search as that margin given explicitly, and not the other.
    for (size, transcript, auto, other) in [
        (8, "f5f6e6f4e3c5c4e7", "10", "5"),
        (12, "e6g5h5e5f5i5h4d7", "5", "10"),
    ] {
        let (position, _) = Position::start(size)
            .unwrap()
            .play_transcript(transcript)
            .unwrap();
        let nodes = |margin: &str| {
            let mut engine = engine();
            engine.set_option("mpc", "off").unwrap();
            engine.set_option("probcut", margin).unwrap();
            engine.search(&position, &depth(9), &mut |_| {}).nodes
        };
        assert_eq!(nodes("auto"), nodes(auto), "{size}x{size}");
        assert_ne!(nodes("auto"), nodes(other), "{size}x{size}");
    }
}

#[test]
fn probcut_does_not_hide_a_wipe_out() {
    // A 10x10 game that the greedy player won 50-0 against Emilia: here White wipes Black
    // out by j2. With ProbCut in this lopsided position (Black 6 discs, White 41) a
    // depth-12 search saw Black 55 discs ahead and played d6.
    let start = Position::start(10).unwrap();
    let (position, _) = start
        .play_transcript(
            "f7g5g4g7g6g3h6e7h5i5e4e3f8e8h7i8d4c3f4g8h4f3d5c5d8c8i6j6i7h8f9f10j7j8d3c2i4j3d2\
             c1c4b4i3",
        )
        .unwrap();
    assert_eq!(position.to_move, Color::White);
    let report = engine().search(&position, &depth(12), &mut |_| {});
    assert_eq!(report.best.to_string(), "j2");
    assert_eq!(report.score, Score::from_discs(100));
}

#[test]
fn iterations_are_reported_in_order() {
    let position = Position::start(6).unwrap();
    let mut depths = Vec::new();
    engine().search(&position, &depth(6), &mut |r| depths.push(r.depth));
    assert_eq!(depths, vec![1, 2, 3, 4, 5, 6]);
}

#[test]
fn a_short_move_time_is_kept_on_every_size() {
    let mut engine = engine();
    for size in SIZES {
        let position = Position::start(size).unwrap();
        let limits = Limits {
            move_time: Some(Duration::from_millis(30)),
            ..Limits::default()
        };
        let started = Instant::now();
        let report = engine.search(&position, &limits, &mut |_| {});
        // Generous bound: the test machine may be busy.
        assert!(started.elapsed() < Duration::from_millis(300), "{size}");
        assert!(position.play(report.best).is_ok());
    }
}

#[test]
fn the_stop_flag_ends_a_long_search() {
    let mut engine = engine();
    let stop = engine.stopper();
    let position = Position::start(8).unwrap();
    let stopper = std::thread::spawn(move || {
        std::thread::sleep(Duration::from_millis(50));
        stop.stop();
    });
    let started = Instant::now();
    let report = engine.search(&position, &Limits::default(), &mut |_| {});
    stopper.join().unwrap();
    assert!(started.elapsed() < Duration::from_millis(800));
    assert!(position.play(report.best).is_ok());
}

#[test]
fn hints_score_every_move_exactly_in_small_endgames() {
    let positions = random_positions(23, 4, |p| {
        let (_, _, empties) = p.board.counts();
        empties == 7 && p.size() <= 8 && p.legal_moves().len() >= 2
    });
    let position = positions.first().expect("a position with 7 empties");
    let hints = engine().hint(position, 10, &depth(20), &mut |_, _| {});
    assert_eq!(hints.len(), position.legal_moves().len().min(10));
    for pair in hints.windows(2) {
        assert!(pair[0].score >= pair[1].score);
    }
    for hint in &hints {
        assert!(hint.exact);
        let after = position.play(hint.mv).unwrap();
        assert_eq!(
            hint.score,
            Score::from_discs(-brute_force(&after)),
            "{position}: {}",
            hint.mv
        );
    }
}

#[test]
fn hints_report_every_depth_and_a_forced_pass_from_the_other_side() {
    let start = Position::start(8).unwrap();
    let mut depths = Vec::new();
    let hints = engine().hint(&start, 2, &depth(3), &mut |_, scores| {
        assert_eq!(scores.len(), 2);
        depths.push(scores[0].depth);
    });
    assert_eq!(depths, [1, 2, 3]);
    assert_eq!(hints.len(), 2);
    let passes = random_positions(5, 40, |p| {
        !p.board.has_moves() && !p.is_game_over() && p.board.counts().2 >= 6
    });
    let position = passes.first().expect("a position with a forced pass");
    let mut reported = 0;
    let hints = engine().hint(position, 3, &depth(2), &mut |_, scores| {
        reported += 1;
        assert_eq!(scores.len(), 1);
        assert_eq!(scores[0].mv, Move::Pass);
    });
    assert_eq!(reported, 2);
    assert_eq!(hints[0].mv, Move::Pass);
    let after = engine().search(&position.play(Move::Pass).unwrap(), &depth(2), &mut |_| {});
    assert_eq!(hints[0].score, -after.score);
}

#[test]
fn a_level_searches_to_the_end_once_few_squares_are_empty() {
    let level = |n| Limits {
        level: Some(n),
        ..Limits::default()
    };
    let positions = random_positions(9, 8, |p| {
        let (_, _, empties) = p.board.counts();
        p.size() == 8 && p.board.has_moves() && (empties == 10 || empties == 11)
    });
    for position in positions.iter().take(4) {
        let (_, _, empties) = position.board.counts();
        // Level 4: exact from 10 empties (4 + 6), a depth-4 search above.
        let report = engine().search(position, &level(4), &mut |_| {});
        if empties <= 10 {
            assert!(report.exact, "{position}");
        } else {
            assert!(!report.exact && report.depth == 4, "{position}");
        }
    }
}

#[test]
fn a_hint_cut_short_still_scores_every_move() {
    let position = Position::start(12).unwrap();
    let limits = Limits {
        nodes: Some(1),
        ..Limits::default()
    };
    let hints = engine().hint(&position, 10, &limits, &mut |_, _| {});
    assert_eq!(hints.len(), 4);
}

#[test]
fn the_mpc_option_reads_a_table_file_and_refuses_a_damaged_one() {
    let dir = std::env::temp_dir().join(format!("emilia-mpc-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let good = dir.join("good.mpc");
    let text = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/weights/emilia.mpc"))
        .unwrap();
    std::fs::write(&good, &text).unwrap();
    let damaged = dir.join("damaged.mpc");
    std::fs::write(&damaged, text.replacen("\nmid ", "\nmid  ", 1)).unwrap();
    let mut engine = engine();
    let value = |engine: &Engine| engine.option("mpc").unwrap();
    assert_eq!(value(&engine), "on");
    engine.set_option("mpc", good.to_str().unwrap()).unwrap();
    assert_eq!(value(&engine), good.to_str().unwrap());
    let err = engine
        .set_option("mpc", damaged.to_str().unwrap())
        .unwrap_err();
    assert!(err.to_string().contains("damaged"), "{err}");
    assert!(engine.set_option("mpc", "no/such/file.mpc").is_err());
    assert_eq!(value(&engine), good.to_str().unwrap());
    engine.set_option("mpc", "off").unwrap();
    assert_eq!(value(&engine), "off");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn options_choose_the_evaluation_and_limit_the_depth() {
    let mut engine = engine();
    engine.set_option("eval", "squares").unwrap();
    engine.set_option("depth", "3").unwrap();
    assert!(engine.set_option("eval", "neural").is_err());
    assert!(engine.set_option("probcut", "0").is_ok());
    assert!(engine.set_option("probcut", "500").is_err());
    assert_eq!(engine.option("eval").as_deref(), Some("squares"));
    assert_eq!(engine.option("hash").as_deref(), Some("4"));
    let start = Position::start(8).unwrap();
    let report = engine.search(&start, &Limits::default(), &mut |_| {});
    assert_eq!(report.depth, 3);
}

#[test]
fn a_search_stopped_at_any_moment_on_any_thread_count_plays_a_legal_move() {
    let start = Position::start(8).unwrap();
    let positions = random_positions(5, 6, |p| !p.is_game_over() && p.board.counts().2 > 14);
    // Midgame and solver positions alike, stopped early and late.
    let mut near_end = random_positions(6, 4, |p| (15..=22).contains(&p.board.counts().2));
    near_end.truncate(6);
    for threads in 1..=4 {
        let mut engine = Engine::new(Config {
            hash_mib: 8,
            ..Config::default()
        })
        .unwrap();
        engine.set_option("threads", &threads.to_string()).unwrap();
        let stop = engine.stopper();
        for (i, position) in positions
            .iter()
            .chain(&near_end)
            .chain([&start])
            .enumerate()
        {
            let delay = Duration::from_millis([0, 1, 5, 20][i % 4]);
            let limits = Limits {
                move_time: Some(Duration::from_secs(5)),
                ..Limits::default()
            };
            // A request, as a front-end stops: one that lands before the search has started
            // still stops it (a bare stop then is lost, and the search runs its 5 s).
            let report = std::thread::scope(|scope| {
                scope.spawn(|| {
                    std::thread::sleep(delay);
                    stop.request();
                });
                engine.search(position, &limits, &mut |_| {})
            });
            stop.handled();
            assert!(
                position.play(report.best).is_ok(),
                "{threads} threads, {position}: {}",
                report.best
            );
        }
    }
}

#[test]
fn more_threads_search_to_the_same_exact_results() {
    // Exact results do not depend on the threads: FFO #1 (14 empties) and small endgames,
    // both by the midgame search at full depth and by the solver.
    let position: Position = "--XXXXX--OOOXX-O-OOOXXOX-OXOXOXXOXXXOXXX--XOXOXX-XXXOOO--OOOOO-- X"
        .parse()
        .unwrap();
    for threads in 2..=4 {
        let mut engine = Engine::new(Config {
            hash_mib: 8,
            ..Config::default()
        })
        .unwrap();
        engine.set_option("threads", &threads.to_string()).unwrap();
        let solved = engine.solve(&position, &Limits::default(), &mut |_| {});
        assert_eq!((solved.exact, solved.score), (true, Score::from_discs(18)));
        assert_eq!(solved.best, "g8".parse().unwrap());
    }
    // The midgame search (lazy SMP) solves 6x6 endgames to the same scores.
    let small = random_positions(7, 20, |p| {
        p.size() == 6 && (9..=12).contains(&p.board.counts().2)
    });
    assert!(small.len() >= 5);
    let mut one = engine();
    let mut more = Engine::new(Config {
        hash_mib: 4,
        ..Config::default()
    })
    .unwrap();
    more.set_option("threads", "3").unwrap();
    for position in small.iter().take(8) {
        let a = one.search(position, &depth(20), &mut |_| {});
        let b = more.search(position, &depth(20), &mut |_| {});
        assert!(a.exact && b.exact, "{position}");
        assert_eq!(a.score, b.score, "{position}");
    }
}

/// With more threads, whichever finishes the last iteration first gives the result: it has
/// the depth asked for, its line starts with its move, and the move is legal.
#[test]
fn more_threads_answer_the_depth_asked_for() {
    let start = Position::start(8).unwrap();
    for transcript in ["f5d6c3d3c4f4f6f3e6e7", "f5f6e6f4e3c5c4e7c6e2"] {
        let (position, _) = start.play_transcript(transcript).unwrap();
        for threads in [2, 3] {
            let mut engine = engine();
            engine.set_option("threads", &threads.to_string()).unwrap();
            for d in 6..=10 {
                let report = engine.search(&position, &depth(d), &mut |_| {});
                assert_eq!(report.depth, d, "{threads} threads, {transcript}");
                assert_eq!(report.pv.first(), Some(&report.best), "{threads} threads");
                assert!(position.play(report.best).is_ok(), "{}", report.best);
            }
        }
    }
}

/// Pondering stopped by a command that changes nothing, then resumed, goes on from where it
/// stopped; a search after the hit that finishes no iteration answers what pondering found.
#[test]
fn resumed_pondering_keeps_what_it_found() {
    let mut engine = engine();
    let start = Position::start(8).unwrap();
    let (position, _) = start.play_transcript("f5d6c3d3c4f4f6f3e6e7").unwrap();
    let ponder_for = |engine: &mut Engine, ms: u64| {
        engine.ponder_while(&position, || std::thread::sleep(Duration::from_millis(ms)));
    };
    ponder_for(&mut engine, 150);
    ponder_for(&mut engine, 150);
    // One node: the search stops before it finishes its first iteration.
    let limits = Limits {
        nodes: Some(1),
        ..Limits::default()
    };
    let (report, hit) = engine.go(&position, &limits, &mut |_| {});
    let hit = hit.expect("the pondered position was searched");
    // Both sittings count: one alone is at most 150 ms (each starts a moment after its
    // stopper's sleep, so the sum falls just short of 300 ms).
    assert!(hit.time > Duration::from_millis(225), "{hit:?}");
    assert!(hit.depth > 1, "{hit:?}");
    assert_eq!(report.depth, hit.depth);
    assert!(!report.pv.is_empty());
    assert!(position.play(report.best).is_ok());
}

#[test]
fn a_node_limit_is_never_passed_near_the_end() {
    // Positions whose lines the midgame search hands to the solver, and whose solves the
    // engine starts under a node limit. Before, a line handed over near the limit could
    // pass it by the nodes of a whole small solve.
    let positions: Vec<Position> = [12, 16, 20, 24]
        .into_iter()
        .flat_map(|empties| eight_by_eight(31, 40, empties))
        .collect();
    assert!(positions.len() >= 30, "{}", positions.len());
    let mut engine = engine();
    let mut checked = 0;
    // On one thread and on two, by turns: the midgame search's threads each keep a share,
    // and the solver's threads share out what they are given as they go.
    for (i, position) in positions.iter().enumerate() {
        let threads = if i % 2 == 0 { "1" } else { "2" };
        engine.set_option("threads", threads).unwrap();
        for nodes in [50, 300, 1_000, 3_000, 10_000, 40_000] {
            // Odd limits too, so that the stops fall anywhere in the tree.
            let nodes = nodes + i as u64 * 7;
            let limits = Limits {
                nodes: Some(nodes),
                ..Limits::default()
            };
            let report = engine.search(position, &limits, &mut |_| {});
            assert!(
                report.nodes <= nodes,
                "{position} nodes {nodes}: {report:?}"
            );
            let report = engine.solve(position, &limits, &mut |_| {});
            assert!(
                report.nodes <= nodes,
                "{position} solve nodes {nodes}: {report:?}"
            );
            checked += 1;
        }
    }
    assert!(checked >= 180);
}
