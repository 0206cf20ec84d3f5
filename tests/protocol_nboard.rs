//! NBoard mode through the real binary: a whole game, the NBoard GUI's traffic replayed,
//! passes, interruptions and bad input, with standard error silent throughout.

mod common;

use std::time::{Duration, Instant};

use common::{data_dir, Emilia};
use emilia_core::board::Move;
use emilia_core::formats::ggf;
use emilia_core::game::Game;

const START: &str = "(;GM[Othello]PC[NBoard]TI[5:00]TY[8]BO[8 ---------------------------O*------*O--------------------------- *];)";

/// Reads lines until one starts with `last`, checking that every line is something the
/// engine may send; returns them all.
fn read_until(emilia: &mut Emilia, last: &str) -> Vec<String> {
    let mut lines = Vec::new();
    loop {
        let line = emilia.line();
        let kind = line.split_whitespace().next().unwrap_or("");
        assert!(
            [
                "===",
                "pong",
                "status",
                "search",
                "book",
                "nodestats",
                "set",
                "learned",
                "analysis"
            ]
            .contains(&kind),
            "unexpected line from the engine: {line:?}"
        );
        lines.push(line.clone());
        if line.starts_with(last) {
            return lines;
        }
    }
}

/// The move of a `=== MOVE/eval/time` line.
fn answered_move(line: &str) -> Move {
    let text = line.strip_prefix("=== ").expect(line);
    let mv = text.split('/').next().unwrap();
    mv.parse().unwrap_or_else(|e| panic!("{line}: {e}"))
}

/// Checks a `search <pv> <eval> 0 <depth>` line (or a `book` line, the same with the
/// number of games for the 0): its first move is legal in `game`.
fn check_search_line(line: &str, game: &Game) {
    let words: Vec<&str> = line.split_whitespace().collect();
    assert_eq!(words.len(), 5, "{line}");
    let first: Move = words[1][..2].parse().unwrap();
    assert!(game.position().play(first).is_ok(), "{line}");
    assert!(words[2].parse::<f64>().is_ok(), "{line}");
    assert_eq!(words[3], "0", "{line}");
    assert!(
        words[4].parse::<u32>().is_ok() || words[4] == "100%",
        "{line}"
    );
}

#[test]
fn a_whole_game_driven_like_the_gui() {
    let mut emilia = Emilia::start(&[]);
    emilia.send("nboard 2");
    assert_eq!(emilia.line(), "set myname Emilia10");
    emilia.send("set depth 2");
    assert_eq!(emilia.line(), "set myname Emilia2");
    emilia.send(&format!("set game {START}"));
    let mut game = ggf::parse(START).unwrap();
    let mut ping = 0;
    while !game.is_over() {
        ping += 1;
        emilia.send(&format!("ping {ping}"));
        assert_eq!(emilia.line(), format!("pong {ping}"));
        emilia.send("go");
        let lines = read_until(&mut emilia, "===");
        // Book moves come as `book <move> <eval> <games> <depth>`, searches likewise.
        let reports = |l: &&String| l.starts_with("search ") || l.starts_with("book ");
        for line in lines.iter().filter(reports) {
            check_search_line(line, &game);
        }
        let answer = lines.last().unwrap();
        let mv = answered_move(answer);
        if game.must_pass() {
            assert_eq!(answer, "=== PA");
        }
        game.play(mv).unwrap_or_else(|e| panic!("{answer}: {e}"));
        let eval = answer.split('/').nth(1).unwrap_or("");
        emilia.send(&format!(
            "move {}/{eval}/0.01",
            answer[4..].split('/').next().unwrap()
        ));
        assert!(ping < 200);
    }
    // The GUI's view of the game and the engine's agree: analyze covers every position.
    emilia.send("analyze");
    let lines = read_until(&mut emilia, "status");
    let lines = if lines.len() == 1 {
        read_until(&mut emilia, "status")
    } else {
        lines
    };
    let analysis: Vec<&String> = lines.iter().filter(|l| l.starts_with("analysis")).collect();
    assert_eq!(analysis.len(), game.positions().len());
    let last = game.plies().len();
    assert_eq!(
        analysis[0],
        &format!("analysis {last} {}.00", game.position().board.final_score())
    );
    emilia.send("learn");
    assert_eq!(emilia.line(), "learned");
    emilia.send("quit");
    let (status, stderr) = emilia.wait(Duration::from_secs(10));
    assert!(status.success());
    assert_eq!(stderr, "");
}

fn traffic() -> Vec<String> {
    std::fs::read_to_string(data_dir().join("sessions/nboard-gui-to-engine.txt"))
        .unwrap()
        .lines()
        .map(str::to_string)
        .collect()
}

/// Follows the GUI's lines on a model game: `set game` replaces it, `move` plays.
fn follow(game: &mut Game, line: &str) {
    if let Some(text) = line.strip_prefix("set game ") {
        *game = ggf::parse(text).unwrap();
    } else if let Some(mv) = line.strip_prefix("move ") {
        let mv: Move = mv.split('/').next().unwrap().parse().unwrap();
        game.play_implicit(mv, None, None).unwrap();
    }
}

/// Replays the GUI's traffic line by line, reading each line's answers before the next is
/// sent, and checks them as it goes; returns every line the engine wrote.
fn replay_line_by_line(args: &[&str]) -> Vec<String> {
    let mut emilia = Emilia::start(args);
    let mut game = Game::standard(8).unwrap();
    let mut answers = 0;
    let mut all = Vec::new();
    for line in traffic() {
        emilia.send(&line);
        follow(&mut game, &line);
        let words: Vec<&str> = line.split_whitespace().collect();
        match words.as_slice() {
            ["nboard", _] => {
                let answer = emilia.line();
                assert_eq!(answer, "set myname Emilia10");
                all.push(answer);
            }
            ["set", "depth", n] => {
                let answer = emilia.line();
                assert_eq!(answer, format!("set myname Emilia{n}"));
                all.push(answer);
            }
            ["ping", n] => {
                let answer = emilia.line();
                assert_eq!(answer, format!("pong {n}"));
                all.push(answer);
            }
            ["go"] => {
                let lines = read_until(&mut emilia, "===");
                let mv = answered_move(lines.last().unwrap());
                assert!(game.position().play(mv).is_ok(), "{lines:?}");
                answers += 1;
                all.extend(lines);
            }
            ["hint", n] => {
                let lines = read_until(&mut emilia, "status");
                assert_eq!(lines, ["status Emilia is analysing"]);
                all.extend(lines);
                let lines = read_until(&mut emilia, "status");
                let searches: Vec<&String> =
                    lines.iter().filter(|l| l.starts_with("search ")).collect();
                let n: usize = n.parse().unwrap();
                // The best n legal moves at each depth, up to the set depth 4.
                let legal = game.position().legal_moves().len();
                assert_eq!(searches.len() % n.min(legal), 0, "{lines:?}");
                assert!(searches.last().unwrap().ends_with(" 0 4"), "{lines:?}");
                for line in searches {
                    check_search_line(line, &game);
                }
                assert_eq!(lines.last().unwrap(), "status");
                all.extend(lines);
            }
            _ => {}
        }
    }
    assert_eq!(answers, 61, "every go answered");
    // The last position: White's only move is h2.
    assert_eq!(
        game.position().legal_moves(),
        ["h2".parse::<Move>().unwrap()]
    );
    emilia.send("ping 99");
    assert_eq!(emilia.line(), "pong 99");
    assert_eq!(emilia.line_within(Duration::from_millis(200)), None);
    let (status, stderr) = emilia.wait(Duration::from_secs(10));
    assert!(status.success());
    assert_eq!(stderr, "");
    all
}

#[test]
fn nboard_traffic_replayed_waiting_for_each_answer() {
    // Hints are searched at every depth: without the book, which answers its positions.
    replay_line_by_line(&["--book", "off"]);
}

/// What must not depend on how the lines arrive: every line except the progress of a
/// search (`search`, `book`, `nodestats`), and of a move answered only that it is one (a
/// `ping` read during a search stops it, as NBoard asks, so the move may differ).
fn answers_in_order(lines: &[String]) -> Vec<String> {
    let progress = ["search ", "book ", "nodestats "];
    lines
        .iter()
        .filter(|l| !progress.iter().any(|p| l.starts_with(p)))
        .map(|l| if l.starts_with("=== ") { "===" } else { l }.to_string())
        .collect()
}

#[test]
fn nboard_traffic_piped_at_once_is_answered_as_line_by_line() {
    // A script or a GUI that writes its whole session into a pipe and closes it: every line
    // read is answered, in order, before the engine ends. The moves may differ (a ping
    // read during a search stops it), the answers may not.
    let lines = traffic();
    let one_by_one = replay_line_by_line(&["--book", "off"]);
    let mut emilia = Emilia::start(&["--book", "off"]);
    let mut all = lines.join("\n");
    all.push_str("\nping 99\n");
    emilia.send_raw(all.as_bytes());
    emilia.close_stdin();
    let mut out = Vec::new();
    while let Some(line) = emilia.line_within(common::REPLY_TIMEOUT) {
        out.push(line);
    }
    let (status, stderr) = emilia.wait(Duration::from_secs(10));
    assert!(status.success());
    assert_eq!(stderr, "");
    assert_eq!(
        answers_in_order(&out),
        answers_in_order(&[one_by_one, vec!["pong 99".to_string()]].concat())
    );
    // Every move answered is legal where it was asked for.
    let mut game = Game::standard(8).unwrap();
    let mut answers = out.iter().filter(|l| l.starts_with("=== "));
    for line in &lines {
        follow(&mut game, line);
        if line == "go" {
            let answer = answers.next().unwrap();
            let mv = answered_move(answer);
            assert!(game.position().play(mv).is_ok(), "{answer}");
        }
    }
    assert_eq!(answers.next(), None);
}

/// Everything `emilia` writes for `input`, written at once into its standard input,
/// closed `pause` later; fails unless it then ends by itself, successfully and silently.
fn piped(input: &str, pause: Duration) -> Vec<String> {
    let mut emilia = Emilia::start(&[]);
    emilia.send_raw(input.as_bytes());
    std::thread::sleep(pause);
    emilia.close_stdin();
    let mut out = Vec::new();
    while let Some(line) = emilia.line_within(common::REPLY_TIMEOUT) {
        out.push(line);
    }
    let (status, stderr) = emilia.wait(Duration::from_secs(10));
    assert!(status.success(), "{status}");
    assert_eq!(stderr, "");
    out
}

#[test]
fn a_session_piped_at_once_is_answered_before_it_ends() {
    // Before, the first two printed nothing: the end of the input (or quit) ended the
    // session before the lines read were answered.
    assert_eq!(
        piped("nboard 2\nping 1\nquit\n", Duration::ZERO),
        ["set myname Emilia10", "pong 1"]
    );
    let at_once = piped("nboard 2\nset depth 4\nping 1\ngo\n", Duration::ZERO);
    let held_open = piped(
        "nboard 2\nset depth 4\nping 1\ngo\n",
        Duration::from_secs(2),
    );
    assert_eq!(answers_in_order(&at_once), answers_in_order(&held_open));
    assert_eq!(
        answers_in_order(&at_once),
        [
            "set myname Emilia10",
            "set myname Emilia4",
            "pong 1",
            "status Emilia is thinking",
            "==="
        ],
        "{at_once:?}"
    );
    // quit ends the session once the lines before it are answered; none after it is.
    let out = piped(
        &format!("nboard 2\nset book off\nset depth 3\nset game {START}\ngo\nhint 2\nping 7\nquit\ngo\nping 8\n"),
        Duration::ZERO,
    );
    let answers = answers_in_order(&out);
    assert_eq!(
        answers,
        [
            "set myname Emilia10",
            "set myname Emilia3",
            "status Emilia is thinking",
            "===",
            "status Emilia is analysing",
            "status",
            "pong 7"
        ],
        "{out:?}"
    );
}

#[test]
fn quit_during_a_search_ends_the_session_at_once() {
    // Goal: within 0.1 s of the quit being written. The machine may be busy with other
    // work, so the best of three tries must keep to it; without the stop, a search at
    // depth 40 would run for hours.
    let mut fastest = Duration::MAX;
    for _ in 0..3 {
        let mut emilia = Emilia::start(&["--book", "off"]);
        emilia.send("nboard 2");
        assert_eq!(emilia.line(), "set myname Emilia10");
        emilia.send("set depth 40");
        assert_eq!(emilia.line(), "set myname Emilia40");
        emilia.send("go");
        assert_eq!(emilia.line(), "status Emilia is thinking");
        // The search is under way once it reports its first iteration.
        assert!(emilia.line().starts_with("search "));
        std::thread::sleep(Duration::from_millis(200));
        emilia.send("quit");
        let sent = Instant::now();
        let (status, stderr) = emilia.wait(Duration::from_secs(5));
        let took = sent.elapsed();
        assert!(status.success(), "{status}");
        assert_eq!(stderr, "");
        fastest = fastest.min(took);
        if fastest <= Duration::from_millis(100) {
            return;
        }
    }
    panic!("quit took {fastest:?} at best");
}

#[test]
fn at_the_end_of_input_lines_are_answered_unless_the_gui_is_gone() {
    // Before: `printf 'nboard 2\nset depth 40\ngo\n' | emilia` searched on at 100 % CPU.
    let (status, took) = common::client_dies(
        "nboard 2\nset depth 40\ngo\n",
        Some("status Emilia is thinking"),
        Duration::from_millis(300),
        Duration::from_secs(3),
    );
    assert!(status.success(), "{status}");
    assert!(took < Duration::from_secs(3), "{took:?}");
    // Its input closed, its output still open: the search goes on and is answered, then
    // the session ends.
    let mut emilia = Emilia::start(&["--book", "off"]);
    emilia.send("nboard 2");
    assert_eq!(emilia.line(), "set myname Emilia10");
    emilia.send("set depth 8");
    assert_eq!(emilia.line(), "set myname Emilia8");
    emilia.send("go");
    assert_eq!(emilia.line(), "status Emilia is thinking");
    emilia.close_stdin();
    let lines = read_until(&mut emilia, "===");
    assert!(lines.last().unwrap().starts_with("=== "), "{lines:?}");
    assert_eq!(emilia.line_within(Duration::from_secs(10)), None);
    let (status, stderr) = emilia.wait(Duration::from_secs(3));
    assert!(status.success(), "{status}");
    assert_eq!(stderr, "");
}

#[test]
fn ping_stops_a_long_search() {
    // Without the book, which would answer the start at once.
    let mut emilia = Emilia::start(&["--book", "off"]);
    emilia.send("nboard 2");
    assert_eq!(emilia.line(), "set myname Emilia10");
    emilia.send("set depth 60");
    assert_eq!(emilia.line(), "set myname Emilia60");
    emilia.send(
        &START
            .replace("TI[5:00]", "TI[10:00:00]")
            .replace("(;", "set game (;"),
    );
    emilia.send("go");
    assert_eq!(emilia.line(), "status Emilia is thinking");
    std::thread::sleep(Duration::from_millis(300));
    let start = Instant::now();
    emilia.send("ping 1");
    let lines = read_until(&mut emilia, "pong");
    let took = start.elapsed();
    assert!(took < Duration::from_secs(2), "ping took {took:?}");
    let answer = lines
        .iter()
        .find(|l| l.starts_with("==="))
        .expect("go answered first");
    assert!(
        ["D3", "C4", "F5", "E6"].contains(&&answer[4..6]),
        "{answer}"
    );
}

#[test]
fn passes_explicit_implicit_and_the_end_of_the_game() {
    // White to move with no move; Black's c1 then ends the game.
    let board = format!("XO{}", "-".repeat(62));
    let game = format!("(;GM[Othello]TY[8]BO[8 {board} O];)");
    let mut emilia = Emilia::start(&[]);
    emilia.send("nboard 2");
    assert_eq!(emilia.line(), "set myname Emilia10");
    emilia.send("set depth 3");
    emilia.line();
    emilia.send(&format!("set game {game}"));
    emilia.send("go");
    assert_eq!(emilia.line(), "=== PA");
    emilia.send("move PA");
    emilia.send("go");
    let lines = read_until(&mut emilia, "===");
    assert!(lines.last().unwrap().starts_with("=== C1/"), "{lines:?}");
    // A move for the other side after a forced pass: the pass is implicit.
    emilia.send(&format!("set game {game}"));
    emilia.send("move C1");
    emilia.send("go");
    assert_eq!(emilia.line(), "status Emilia: the game is over");
    assert_eq!(emilia.line(), "=== PA");
    // A GGF game with the pass written out.
    emilia.send(&format!(
        "set game (;GM[Othello]TY[8]BO[8 {board} O]W[PA];)"
    ));
    emilia.send("hint 1");
    let lines = read_until(&mut emilia, "status");
    let lines = [lines, read_until(&mut emilia, "status")].concat();
    assert!(
        lines
            .iter()
            .any(|l| l.starts_with("search C1 64.00 0 100%")),
        "{lines:?}"
    );
    let (status, stderr) = emilia.wait(Duration::from_secs(10));
    assert!(status.success());
    assert_eq!(stderr, "");
}

#[test]
fn bad_lines_are_ignored_or_reported_without_changing_the_game() {
    let mut emilia = Emilia::start(&[]);
    emilia.send("nboard 2");
    assert_eq!(emilia.line(), "set myname Emilia10");
    emilia.send("set depth 2");
    emilia.line();
    emilia.send(&format!("set game {START}"));
    emilia.send("move F5");
    for bad in [
        "frobnicate",
        "set colour blue",
        "genmove black",
        "",
        "hint",
        "set depth",
        "set game (;GM[Othello]BO[8 --- *];)",
        "move F5",
        "move Z9/1.0",
        "move",
        "set game (;GM[Chess];)",
    ] {
        emilia.send(bad);
    }
    emilia.send_raw(b"move \xff\xfe\n");
    emilia.send(&"x".repeat(40_000));
    emilia.send("ping 5");
    let lines = read_until(&mut emilia, "pong 5");
    let statuses: Vec<&String> = lines
        .iter()
        .filter(|l| l.starts_with("status Emilia: "))
        .collect();
    assert_eq!(statuses.len(), 6, "{lines:?}");
    assert!(statuses.iter().any(|l| l.contains("BO says size 8")));
    // The game is still the start after F5: White's go is one of its three moves.
    emilia.send("go");
    let lines = read_until(&mut emilia, "===");
    let answer = lines.last().unwrap();
    assert!(["D6", "F6", "F4"].contains(&&answer[4..6]), "{answer}");
    let (status, stderr) = emilia.wait(Duration::from_secs(10));
    assert!(status.success());
    assert_eq!(stderr, "");
}

/// The score of the first `=== MOVE/eval/secs` answer.
fn answered_eval(line: &str) -> f64 {
    line.split('/').nth(1).unwrap().parse().unwrap()
}

/// The score a fresh text session started with `args` finds at depth 2 from the start.
fn text_session_score(args: &[&str]) -> f64 {
    let mut emilia = Emilia::start(args);
    emilia.ok("genmove black depth 2");
    let search = emilia.ok("last_search");
    let words: Vec<&str> = search.split_whitespace().collect();
    assert_eq!(words[2], "score", "{search}");
    words[3].parse().unwrap()
}

#[test]
fn an_engine_list_entry_sets_options_that_take_effect_and_logs_the_session() {
    // NBoard users set options only on the engine's command line, as in the GUI's engine
    // list. The GUI's recorded traffic, replayed with depth, evaluation, hash, threads and
    // book set there.
    let log = std::env::temp_dir().join(format!("emilia-nboard-{}.log", std::process::id()));
    let _ = std::fs::remove_file(&log);
    let log_arg = log.to_str().unwrap();
    // Without the book, which would answer the start with its own value.
    let args = [
        "--hash",
        "256",
        "--threads",
        "3",
        "--eval",
        "classic",
        "--depth",
        "2",
        "--book",
        "off",
        "--log",
        log_arg,
    ];
    let mut emilia = Emilia::start(&args);
    let mut game = Game::standard(8).unwrap();
    let mut first_answer = None;
    let mut depths = Vec::new();
    for line in traffic() {
        emilia.send(&line);
        follow(&mut game, &line);
        let words: Vec<&str> = line.split_whitespace().collect();
        let lines = match words.as_slice() {
            ["nboard", _] => {
                assert_eq!(emilia.line(), "set myname Emilia10");
                continue;
            }
            ["set", "depth", n] => {
                assert_eq!(emilia.line(), format!("set myname Emilia{n}"));
                continue;
            }
            ["ping", n] => {
                assert_eq!(emilia.line(), format!("pong {n}"));
                continue;
            }
            ["go"] => read_until(&mut emilia, "==="),
            ["hint", _] => [
                read_until(&mut emilia, "status"),
                read_until(&mut emilia, "status"),
            ]
            .concat(),
            _ => continue,
        };
        for search in lines.iter().filter(|l| l.starts_with("search ")) {
            check_search_line(search, &game);
            depths.push(search.split_whitespace().last().unwrap().to_string());
        }
        if let Some(answer) = lines.iter().find(|l| l.starts_with("===")) {
            assert!(
                game.position().play(answered_move(answer)).is_ok(),
                "{answer}"
            );
            first_answer.get_or_insert(answer.clone());
        }
    }
    emilia.send("quit");
    let (status, stderr) = emilia.wait(Duration::from_secs(10));
    assert!(status.success());
    assert_eq!(stderr, "");
    // --depth 2 bounds the GUI's level 4: no search line deeper than 2 unless exact.
    assert!(depths.iter().any(|d| d == "2"), "{depths:?}");
    assert!(
        depths.iter().all(|d| d == "1" || d == "2" || d == "100%"),
        "{depths:?}"
    );
    // --eval classic: the first move's score (the start, depth 2) is the classic
    // evaluation's, as a text session set up the same way finds it, not the pattern one's.
    let first = answered_eval(&first_answer.unwrap());
    let classic = text_session_score(&["--eval", "classic", "--book", "off"]);
    let pattern = text_session_score(&["--book", "off"]);
    assert_ne!(classic, pattern, "the check tells the evaluations apart");
    assert_eq!(first, classic);
    // The log shows the options as the engine holds them, then every line both ways.
    let text = std::fs::read_to_string(&log).unwrap();
    std::fs::remove_file(&log).unwrap();
    let logged: Vec<&str> = text.lines().map(|l| &l[10..]).collect();
    assert!(logged[0].starts_with("# emilia "), "{}", logged[0]);
    assert!(
        logged[1].starts_with("# options: hash 256, ")
            && logged[1].contains(", threads 3, ")
            && logged[1].contains(", eval classic, ")
            && logged[1].contains("depth 2")
            && logged[1].contains(", book off, "),
        "{}",
        logged[1]
    );
    assert_eq!(logged[2], "> nboard 2");
    let read = logged.iter().filter(|l| l.starts_with("> ")).count();
    assert_eq!(read, traffic().len() + 1, "every line read, and quit");
    assert!(logged.contains(&"< set myname Emilia4"));
    assert_eq!(
        logged.iter().filter(|l| l.starts_with("< === ")).count(),
        61
    );
}

/// With `set ponder on` Emilia ponders once the GUI plays the move `go` answered, until
/// the next line: a game driven like the GUI, with lines coming at random moments of the
/// pondering, gets every answer and nothing else, and `quit` while pondering ends it.
#[test]
fn pondering_between_moves_answers_every_line() {
    let mut emilia = Emilia::start(&["--threads", "2", "--hash", "8"]);
    emilia.send("nboard 2");
    assert_eq!(emilia.line(), "set myname Emilia10");
    emilia.send("set ponder on");
    emilia.send("set depth 4");
    assert_eq!(emilia.line(), "set myname Emilia4");
    emilia.send(&format!("set game {START}"));
    let mut game = ggf::parse(START).unwrap();
    let mut rng = common::rng::Rng::new(31);
    let mut ping = 0;
    while !game.is_over() {
        emilia.send("go");
        let lines = read_until(&mut emilia, "===");
        let answer = lines.last().unwrap();
        let mv = answered_move(answer);
        game.play(mv).unwrap_or_else(|e| panic!("{answer}: {e}"));
        emilia.send(&format!("move {}", answer[4..].split('/').next().unwrap()));
        // Emilia ponders now, if the game goes on; lines come at any moment of it.
        std::thread::sleep(Duration::from_millis(rng.below(20) as u64));
        ping += 1;
        emilia.send(&format!("ping {ping}"));
        assert_eq!(emilia.line(), format!("pong {ping}"));
        assert!(ping < 200);
    }
    // Nothing else came out.
    assert_eq!(emilia.line_within(Duration::from_millis(100)), None);
    emilia.send(&format!("set game {START}"));
    emilia.send("go");
    let answer = read_until(&mut emilia, "===").pop().unwrap();
    emilia.send(&format!("move {}", answer[4..].split('/').next().unwrap()));
    std::thread::sleep(Duration::from_millis(30));
    emilia.send("quit");
    let started = Instant::now();
    let (status, stderr) = emilia.wait(Duration::from_secs(5));
    assert!(status.success(), "{status}");
    assert!(started.elapsed() < Duration::from_secs(5));
    assert_eq!(stderr, "");
}

/// The end of the input while pondering ends the process without waiting for the search
/// to stop (the engine's log notes "pondered" when a pondering search has stopped).
#[test]
fn the_end_of_the_input_while_pondering_does_not_wait_for_the_search() {
    let mut emilia = Emilia::start(&["-v", "--threads", "2", "--hash", "8", "--book", "off"]);
    emilia.send("nboard 2");
    assert_eq!(emilia.line(), "set myname Emilia10");
    emilia.send("set ponder on");
    emilia.send(&format!("set game {START}"));
    emilia.send("go");
    let answer = read_until(&mut emilia, "===").pop().unwrap();
    // Nothing but the end of the input may come now: a ping would stop pondering (and
    // note it) before the end.
    emilia.send(&format!("move {}", answer[4..].split('/').next().unwrap()));
    // From the second move pondering goes on far longer than this.
    std::thread::sleep(Duration::from_millis(300));
    emilia.close_stdin();
    let (status, stderr) = emilia.wait(Duration::from_secs(5));
    assert!(status.success(), "{status}");
    assert!(stderr.contains("depth"), "the log is on: {stderr}");
    assert!(!stderr.contains("pondered"), "{stderr}");
}

#[test]
fn a_player_with_8x8_tables_is_refused_with_a_board_of_another_size() {
    let six = "(;GM[Othello]PC[NBoard]TY[6]BO[6 --------------O*----*O-------------- *];)";
    let eight = "(;GM[Othello]PC[NBoard]TY[8]BO[8 ---------------------------O*------*O--------------------------- *];)";
    let mut emilia = Emilia::start(&[]);
    emilia.send("nboard 2");
    assert_eq!(emilia.line(), "set myname Emilia10");
    // The board first, then the player; then the player first, then the board.
    emilia.send(&format!("set game {six}"));
    emilia.send("set player squares");
    assert_eq!(
        emilia.line(),
        "status Emilia: option player: player squares plays 8x8 only, and the board is 6x6"
    );
    emilia.send(&format!("set game {eight}"));
    emilia.send("set player squares");
    emilia.send(&format!("set game {six}"));
    assert_eq!(
        emilia.line(),
        "status Emilia: game ignored: player squares plays 8x8 only"
    );
    emilia.send("ping 1");
    assert_eq!(emilia.line(), "pong 1");
}

/// Sessions run as the unit tests of the NBoard front-end once did: every line piped at
/// once, then the end of the input; the output as one text.
mod piped_sessions {
    use std::time::Duration;

    fn run(lines: &[&str]) -> String {
        let mut input = String::new();
        if !lines.first().is_some_and(|l| l.starts_with("nboard")) {
            input.push_str("nboard 2\n");
        }
        for line in lines {
            input.push_str(line);
            input.push('\n');
        }
        let mut out = super::piped(&input, Duration::ZERO);
        if !lines.first().is_some_and(|l| l.starts_with("nboard")) {
            assert_eq!(out.remove(0), "set myname Emilia10");
        }
        out.iter().map(|l| format!("{l}\n")).collect()
    }

    const START: &str = "(;GM[Othello]PC[NBoard]TI[5:00]TY[8]BO[8 ---------------------------O*------*O--------------------------- *];)";

    #[test]
    fn answers_go_ping_and_set_depth() {
        let text = run(&[
            "nboard 2",
            // The start position is in the opening book; the search is under test here.
            "set book off",
            &format!("set game {START}"),
            "set depth 2",
            "ping 1",
            "go",
        ]);
        let lines: Vec<&str> = text.lines().collect();
        // The handshake names the default level, `set depth` the new one.
        assert_eq!(lines[0], "set myname Emilia10");
        assert_eq!(lines[1], "set myname Emilia2");
        assert_eq!(lines[2], "pong 1");
        let answer = lines.last().unwrap();
        let mv = answer.trim_start_matches("=== ").split('/').next().unwrap();
        assert!(["D3", "C4", "F5", "E6"].contains(&mv), "{text}");
        assert!(lines.iter().any(|l| l.starts_with("nodestats ")), "{text}");
        assert!(lines.iter().any(|l| l.starts_with("search ")), "{text}");
    }

    #[test]
    fn moves_update_the_game_and_bad_ones_are_reported() {
        let text = run(&[
            &format!("set game {START}"),
            "move F5/1.00/2.5",
            "move F5",
            "move Z9",
            "learn",
            "frobnicate",
        ]);
        assert_eq!(
            text.lines()
                .filter(|l| l.starts_with("status Emilia: move"))
                .count(),
            2,
            "{text}"
        );
        assert!(text.ends_with("learned\n"), "{text}");
    }

    #[test]
    fn random_lines_never_panic() {
        let words = [
            "nboard", "set", "game", "depth", "contempt", "move", "ping", "go", "hint", "learn",
            "analyze", "F5", "PA", "Z9", "1", "0", "-3", "x", "/", "(;", ";)", "BO[8", "]",
            "B[F5]", "W[PA]", "TI[0:01]", START,
        ];
        let mut rng = super::common::rng::Rng::new(7);
        let mut lines = vec!["set depth 1".to_string()];
        for _ in 0..2000 {
            let count = 1 + rng.below(4);
            let line: Vec<&str> = (0..count).map(|_| *rng.pick(&words)).collect();
            lines.push(line.join(" "));
        }
        let refs: Vec<&str> = lines.iter().map(String::as_str).collect();
        let text = run(&refs);
        assert!(text.lines().count() > 100);
    }

    #[test]
    fn hint_streams_and_analyze_covers_every_position() {
        let text = run(&[
            "set book off",
            &format!("set game {START}"),
            "set depth 2",
            "move F5",
            "hint 3",
            "analyze",
        ]);
        let searches: Vec<&str> = text.lines().filter(|l| l.starts_with("search ")).collect();
        assert_eq!(searches.len(), 6, "3 moves at depths 1 and 2: {text}");
        assert!(searches[5].ends_with(" 0 2"), "{text}");
        let analysis: Vec<&str> = text
            .lines()
            .filter(|l| l.starts_with("analysis "))
            .collect();
        assert_eq!(analysis.len(), 2, "{text}");
        assert!(analysis[0].starts_with("analysis 1 "));
        assert!(analysis[1].starts_with("analysis 0 "));
    }
}
