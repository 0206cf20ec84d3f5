//! The text protocol through the real binary: whole games, real Quarry traffic, the three
//! pass styles, every kind of bad input, random command streams, and clean endings.

mod common;

use std::time::{Duration, Instant};

use common::rng::Rng;
use common::{data_dir, Emilia};
use emilia_core::board::{Color, Move, Position};
use emilia_core::game::{Game, PlayError};

/// Fast searches for tests.
fn quick() -> Emilia {
    let mut emilia = Emilia::start(&[]);
    emilia.ok("setoption depth 2");
    emilia.ok("setoption movetime 50");
    emilia
}

/// Everything a client can see of the state: the record and the board.
fn state(emilia: &mut Emilia) -> (String, String, String) {
    (
        emilia
            .ask("history ggf")
            .replace(|c: char| c.is_ascii_digit(), ""),
        emilia.ask("showboard"),
        emilia.ask("final_score"),
    )
}

/// White to move with no legal move; Black then has c1, which ends the game.
fn white_must_pass() -> String {
    let mut squares = vec!['-'; 64];
    squares[0] = 'X';
    squares[1] = 'O';
    squares.into_iter().collect()
}

#[test]
fn a_whole_game_with_genmove_for_both_sides() {
    let mut emilia = quick();
    let mut game = Game::standard(8).unwrap();
    let mut replies = 0;
    loop {
        let color = game.position().to_move;
        let reply = emilia.ask(&format!("genmove {color}"));
        replies += 1;
        if game.is_over() {
            assert!(reply.starts_with("? game over: "), "{reply}");
            assert!(reply.contains(&game.result()), "{reply}");
            break;
        }
        let mv: Move = reply.strip_prefix("= ").expect(&reply).parse().unwrap();
        game.play(mv).unwrap_or_else(|e| panic!("{mv}: {e}"));
        assert!(replies < 200, "the game ends");
    }
    assert_eq!(emilia.ok("final_score"), game.result());
    assert_eq!(emilia.ok("history"), game.transcript());
    // The GGF record reads back to the same game.
    let ggf = emilia.ok("history ggf");
    let again = emilia_core::formats::ggf::parse(&ggf).unwrap();
    assert_eq!(again.positions(), game.positions());
}

#[test]
fn every_command_in_list_commands_is_documented_and_answers() {
    let spec = std::fs::read_to_string(
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("protocol.md"),
    )
    .unwrap();
    let mut emilia = quick();
    let list = emilia.ok("list_commands");
    let commands: Vec<&str> = list.lines().collect();
    assert!(commands.len() >= 26, "{list}");
    for command in &commands {
        assert!(
            spec.contains(&format!("### `{command}")) || spec.contains(&format!("- `{command}`")),
            "protocol.md documents no command {command} (a '### `{command}' heading or a \
             '- `{command}`' item)"
        );
        assert_eq!(emilia.ok(&format!("known_command {command}")), "true");
        if *command == "quit" {
            continue;
        }
        // Without arguments every command answers: an answer or a usage message.
        let reply = emilia.ask(command);
        assert!(
            !reply.contains("unknown command"),
            "{command} is listed but unknown: {reply}"
        );
        emilia.ok("newgame 8");
    }
    assert_eq!(emilia.ask("quit"), "=");
    let (status, stderr) = emilia.wait(Duration::from_secs(10));
    assert!(status.success());
    assert_eq!(stderr, "");
}

/// Sends `line` and checks the reply against the model `game`, as a referee would:
/// moves legal, errors exactly when the model refuses, the model updated on success.
fn check_against_model(emilia: &mut Emilia, game: &mut Game, line: &str) -> String {
    let reply = emilia.ask(line);
    let words: Vec<&str> = line.split_whitespace().collect();
    match words.as_slice() {
        ["genmove", color] => {
            let color: Color = color.parse().unwrap();
            let mut probe = game.clone();
            match probe.turn_for(color) {
                Err(PlayError::GameOver { .. }) => {
                    assert!(reply.starts_with("? game over"), "{line}: {reply}")
                }
                Err(PlayError::WrongSide { .. }) => {
                    assert!(reply.starts_with("? wrong side to move"), "{line}: {reply}")
                }
                Err(e) => panic!("{e}"),
                Ok(()) => {
                    let mv: Move = reply
                        .strip_prefix("= ")
                        .unwrap_or_else(|| panic!("{line}: {reply}"))
                        .parse()
                        .unwrap();
                    game.play_as(color, mv)
                        .unwrap_or_else(|e| panic!("{line} answered {mv}: {e}"));
                }
            }
        }
        ["play", color, mv] => {
            let color: Color = color.parse().unwrap();
            let mv: Move = mv.parse().unwrap();
            match game.play_as(color, mv) {
                Ok(()) => assert_eq!(reply, "=", "{line}"),
                Err(e) => {
                    assert!(reply.starts_with("? "), "{line}: {reply}");
                    let kind = e.to_string();
                    let prefix = kind.split(':').next().unwrap();
                    assert!(reply.contains(prefix), "{line}: {reply} (expected {kind})");
                }
            }
        }
        ["protocol_version"] => assert_eq!(reply, "= 2"),
        ["name"] => assert_eq!(reply, "= Emilia"),
        ["version"] => assert_eq!(reply, format!("= {}", env!("CARGO_PKG_VERSION"))),
        ["list_commands"] => {
            for needed in ["genmove", "play", "boardsize", "time_left", "list_games"] {
                assert!(reply.lines().any(|l| l.trim_start_matches("= ") == needed));
            }
        }
        ["list_games"] => assert_eq!(reply, "= Othello"),
        _ => assert_eq!(reply, "=", "{line}"),
    }
    reply
}

fn quarry_lines() -> Vec<String> {
    std::fs::read_to_string(data_dir().join("sessions/quarry-gui-to-gtp-engine.txt"))
        .unwrap()
        .lines()
        .map(str::to_string)
        .collect()
}

#[test]
fn quarry_traffic_replayed_line_by_line() {
    // Emilia's moves differ from the recorded engine's, so White's recorded moves soon
    // stop fitting: every reply is checked against a model game all the same.
    let mut emilia = quick();
    let mut game = Game::standard(8).unwrap();
    let mut refused = 0;
    for line in quarry_lines() {
        if check_against_model(&mut emilia, &mut game, &line).starts_with('?') {
            refused += 1;
        }
    }
    assert_eq!(emilia.ok("history"), game.transcript());
    assert!(refused < 100);
}

#[test]
fn quarry_traffic_replayed_on_the_recorded_game() {
    // After each `genmove black` (answer checked), the game is put back on the recorded
    // line with `undo` and `play black <recorded move>`, so that every White move fits
    // and White's pass (two `genmove black` in a row) happens as it did.
    let text =
        std::fs::read_to_string(data_dir().join("sessions/quarry-game-reconstructed.txt")).unwrap();
    let transcript = text.lines().find(|l| !l.starts_with('#')).unwrap();
    let (_, moves) = Position::start(8)
        .unwrap()
        .play_transcript(transcript)
        .unwrap();
    let mut record = Game::standard(8).unwrap();
    let mut black_moves = Vec::new();
    for mv in &moves {
        if record.position().to_move == Color::Black && *mv != Move::Pass {
            black_moves.push(*mv);
        }
        record.play(*mv).unwrap();
    }
    assert!(record.is_over(), "the recorded game ends");
    let mut black_moves = black_moves.into_iter();

    let mut emilia = quick();
    let mut game = Game::standard(8).unwrap();
    let mut passes_seen = 0;
    for line in quarry_lines() {
        if line == "genmove black" && game.position().to_move == Color::White {
            passes_seen += 1;
        }
        check_against_model(&mut emilia, &mut game, &line);
        if line == "genmove black" {
            assert_eq!(emilia.ask("undo"), "=");
            game.undo();
            let mv = black_moves.next().expect("a recorded Black move");
            check_against_model(&mut emilia, &mut game, &format!("play black {mv}"));
        }
    }
    assert_eq!(passes_seen, 1, "White's one pass");
    assert!(game.is_over());
    assert_eq!(game.positions().last(), record.positions().last());
    assert_eq!(emilia.ok("final_score"), record.result());
    assert_eq!(emilia.ok("history"), record.transcript());
    assert!(emilia.ask("genmove white").starts_with("? game over"));
}

#[test]
fn passes_in_all_three_styles() {
    let board = white_must_pass();
    let mut emilia = quick();
    // 1. An explicit pass.
    emilia.ok(&format!("setboard {board} O"));
    assert!(emilia
        .ask("play black pass")
        .starts_with("? illegal move pass"));
    emilia.ok("play white pass");
    emilia.ok("play black c1");
    assert_eq!(emilia.ok("final_score"), "B+64");
    // 2. The same colour twice, as Quarry does: Black after Black.
    emilia.ok("newgame");
    emilia.ok(&format!("setboard {board} O"));
    emilia.ok("play black c1");
    assert!(emilia.ok("history ggf").contains("W[PA]B[C1]"));
    emilia.ok("undo");
    assert_eq!(emilia.ok("history"), "");
    // And genmove for the side that did not just pass.
    assert_eq!(emilia.ok("genmove black"), "c1");
    // 3. Implicit in a setboard: the side to move must pass, genmove says so.
    emilia.ok(&format!("setboard {board} O"));
    assert_eq!(emilia.ok("genmove 1000"), "pass");
    assert_eq!(emilia.ok("genmove"), "c1");
    assert!(emilia.ask("genmove").starts_with("? game over: B+64"));
    // ... and implicit in a transcript: the recorded Quarry game has White pass once.
    let text =
        std::fs::read_to_string(data_dir().join("sessions/quarry-game-reconstructed.txt")).unwrap();
    let transcript = text.lines().find(|l| !l.starts_with('#')).unwrap();
    emilia.ok(&format!("loadgame {transcript}"));
    assert_eq!(emilia.ok("history"), transcript);
    assert!(emilia.ok("history ggf").contains("W[PA]"));
    assert!(emilia.ask("genmove").starts_with("? game over"));
    // Undo takes back the last move, then the one before the implicit pass with it.
    emilia.ok("undo");
    emilia.ok("undo");
    emilia.ok("undo");
    let history = emilia.ok("history");
    assert_eq!(history, transcript[..transcript.len() - 6]);
    // White has no move after Black's g1: Black moves twice in a row again.
    emilia.ok("play black f2");
    assert_eq!(emilia.ok("history"), transcript[..transcript.len() - 4]);
}

#[test]
fn bad_input_is_refused_and_changes_nothing() {
    let mut emilia = quick();
    emilia.ok("play f5");
    emilia.ok("play d6");
    let before = state(&mut emilia);
    let long = format!("play {}", "f".repeat(20_000));
    let start_squares = Position::start(8).unwrap().squares_string();
    let extra = format!("setboard {start_squares} X extra");
    let cases: Vec<(&str, &str)> =
        vec![
        (&extra, "unexpected 'extra' after the side to move 'X'"),
        ("genmove black depth 3 depth 4", "depth given twice"),
        (
            "genmove black movetime 10 movetime 20",
            "movetime given twice",
        ),
        ("genmove black 100 200", "the clock given twice"),
        ("hint nodes 5 nodes 6", "nodes given twice"),
        ("loadgame a123", "'a123' is not a square"),
        (
            "genmov black",
            "unknown command 'genmov': did you mean 'genmove'?",
        ),
        ("frobnicate", "unknown command 'frobnicate'"),
        // Three edits away from komi: no suggestion.
        ("foo", "unknown command 'foo': help lists them all"),
        ("play purple c3", "'purple' is not a colour"),
        ("genmove purple", "'purple' is not a colour"),
        (
            "genmove -5",
            "genmove: clock '-5' is not a whole number of milliseconds",
        ),
        (
            "genmove white 1.5",
            "genmove: clock '1.5' is not a whole number of milliseconds",
        ),
        ("play black z9", "'z9' is off the board"),
        ("play black f55", "'f55' is off the board"),
        ("play black 5f", "'5f' is not a square"),
        ("play black a1", "illegal move a1: no discs to flip"),
        ("play black f5", "illegal move f5: square is occupied"),
        ("play white c3", "wrong side to move"),
        ("genmove white", "wrong side to move"),
        ("play black pass", "illegal move pass: a legal move exists"),
        ("play", "usage: play [color] <move>"),
        ("setboard XXX X", "malformed board: board has 3 squares"),
        ("setboard", "usage: setboard"),
        (
            "boardsize 9",
            "unacceptable size: no 9x9 board: Emilia plays 6, 8, 10 and 12",
        ),
        ("boardsize x", "unacceptable size: board size 'x' is not a number"),
        ("komi lots", "komi 'lots' is not a number"),
        (
            "time_left black soon 0",
            "'soon' is not a number of seconds",
        ),
        ("time_settings 1 2", "usage: time_settings"),
        ("genmove black depth", "depth needs a value"),
        ("genmove black depth x", "depth 'x' is not a whole number"),
        ("genmove black fast", "unexpected 'fast'"),
        ("hint 0", "at least 1"),
        ("perft 99", "perft depth '99'"),
        ("solve depth 3", "solve searches to the end"),
        ("setoption colour blue", "unknown option 'colour'"),
        ("setoption hash", "usage: setoption hash <value>"),
        ("set_game Chess", "unsupported game 'Chess'"),
        ("loadgame (;GM[Othello]BO[8 --- *];)", "GGF: BO says size 8"),
        ("loadgame (;GM[Othello]B[F5]", "GGF: the game does not end"),
        ("loadgame f5f5", "malformed transcript: move 2: illegal move f5"),
        ("loadgame a123", "malformed transcript: 'a123' is not a square"),
        // A 10x10 game on an 8x8 board: the size it is a game of is named.
        (
            "loadgame g6",
            "malformed transcript: move 1: illegal move g6: no discs to flip \
             (on 8x8; it is a game of 10x10)",
        ),
        (
            "setboard 8 -------- -------- -------- ---OX--- ---XO--- -------- -------- -------- X",
            "malformed board: '8' is not squares of the board",
        ),
        ("genmove black 1.5", "a bare number is the mover's whole remaining clock"),
        ("legal_moves all", "legal_moves takes no arguments"),
        ("position now", "position takes no arguments"),
        ("help me", "help takes no arguments"),
        ("loadgame", "usage: loadgame"),
        ("history json", "usage: history [ggf]"),
        ("name please", "name takes no arguments"),
        (
            "99999999999999999999 name",
            "id '99999999999999999999' is too large",
        ),
        (&long, "line too long: 20005 bytes"),
    ];
    for (line, expected) in &cases {
        let reply = emilia.ask(line);
        assert!(reply.starts_with('?'), "{line}: {reply}");
        assert!(
            reply.contains(expected),
            "{line}: {reply} (expected {expected})"
        );
        assert_eq!(state(&mut emilia), before, "{line} changed the state");
    }
    // Bytes that are not UTF-8, with an id kept.
    emilia.send_raw(b"7 play black \xff\xfe\n");
    assert_eq!(emilia.reply(), "?7 invalid UTF-8 in the command line");
    assert_eq!(state(&mut emilia), before);
    // After the end of the game.
    let mut squares = vec!['X'; 64];
    squares[63] = 'O';
    let full: String = squares.into_iter().collect();
    emilia.ok(&format!("setboard {full} O"));
    let reply = emilia.ask("play white a1");
    assert_eq!(reply, "? game over: B+62 (neither side can move)");
    assert!(emilia.ask("genmove").starts_with("? game over"));
    assert!(emilia.ask("hint").starts_with("? game over"));
    assert!(emilia.ask("solve").starts_with("? game over"));
    // The input ends in the middle of a command.
    emilia.send_raw(b"12 genmove bl");
    emilia.close_stdin();
    assert_eq!(
        emilia.reply(),
        "?12 incomplete command '12 genmove bl': the input ended before the end of the line"
    );
    let (status, stderr) = emilia.wait(Duration::from_secs(10));
    assert!(status.success());
    assert_eq!(stderr, "");
}

#[test]
fn players_with_8x8_tables_refuse_other_sizes_by_every_command() {
    // Before, setboard and loadgame took a 6x6 board and `squares` played random moves.
    let six = format!("{}--O*----*O--{}", "-".repeat(12), "-".repeat(12));
    for player in ["squares", "quadrant"] {
        let mut emilia = Emilia::start(&["--player", player]);
        emilia.ok("play f5");
        let before = state(&mut emilia);
        for line in [
            "boardsize 6".to_string(),
            "newgame 10".to_string(),
            format!("setboard {} X", six.replace('*', "X")),
            format!("loadgame (;GM[Othello]PC[x]TY[6]BO[6 {six} *];)"),
            format!("loadgame (;GM[Othello]PC[x]TY[6]BO[6 {six} *]B[c2];)"),
        ] {
            let reply = emilia.ask(&line);
            assert_eq!(
                reply,
                format!("? player {player} plays 8x8 only"),
                "{player}: {line}"
            );
            assert_eq!(state(&mut emilia), before, "{line} changed the state");
        }
        let (status, stderr) = emilia.wait(Duration::from_secs(10));
        assert!(status.success());
        assert_eq!(stderr, "");
    }
}

#[test]
fn a_player_with_8x8_tables_is_refused_after_another_size_too() {
    // Before, `boardsize 6` then `setoption player squares` was taken, and genmove answered
    // with a random move.
    for player in ["squares", "quadrant"] {
        let mut emilia = Emilia::start(&[]);
        emilia.ok("boardsize 6");
        emilia.ok("setoption player greedy");
        let before = state(&mut emilia);
        assert_eq!(
            emilia.ask(&format!("setoption player {player}")),
            format!("? option player: player {player} plays 8x8 only, and the board is 6x6")
        );
        assert_eq!(state(&mut emilia), before);
        let options = emilia.ok("setoption");
        assert!(options.contains("\nplayer greedy ("), "{options}");
        emilia.ok("boardsize 8");
        emilia.ok(&format!("setoption player {player}"));
        let (status, stderr) = emilia.wait(Duration::from_secs(10));
        assert!(status.success());
        assert_eq!(stderr, "");
    }
}

#[test]
fn a_byte_order_mark_before_the_first_command_is_dropped() {
    let mut emilia = Emilia::start(&[]);
    emilia.send_raw(b"\xEF\xBB\xBF1 name\n");
    assert_eq!(emilia.reply(), "=1 Emilia");
    // Only there: elsewhere it is part of the command.
    emilia.send_raw(b"\xEF\xBB\xBFname\n");
    assert!(emilia.reply().starts_with("? unknown command"));
    let (status, stderr) = emilia.wait(Duration::from_secs(10));
    assert!(status.success());
    assert_eq!(stderr, "");
}

#[test]
fn the_longest_line_is_as_long_with_a_cr_or_a_byte_order_mark() {
    let longest = "x".repeat(16 * 1024);
    for ending in ["\n", "\r\n", "\r\n\u{feff}"] {
        let mut emilia = Emilia::start(&[]);
        let (ending, bom) = ending.split_at(ending.find('\u{feff}').unwrap_or(ending.len()));
        emilia.send_raw(format!("{bom}{longest}{ending}").as_bytes());
        let reply = emilia.reply();
        assert!(reply.starts_with("? unknown command 'xxx"), "{reply}");
        emilia.send_raw(format!("{longest}x{ending}").as_bytes());
        assert_eq!(
            emilia.reply(),
            "? line too long: 16385 bytes, the limit is 16384"
        );
        emilia.send_raw(b"\n5 name\r\n");
        assert_eq!(emilia.reply(), "=5 Emilia");
        // A last line without its line ending is refused, not run.
        emilia.send_raw(b"quit");
        emilia.close_stdin();
        assert_eq!(
            emilia.reply(),
            "? incomplete command 'quit': the input ended before the end of the line"
        );
    }
}

#[test]
fn junk_transcripts_are_refused_in_linear_time() {
    // 16,370 characters of junk took 0.7 s a command, the tokens being re-copied from each
    // position to the end. Twenty of them now take milliseconds; the bound is generous.
    let mut rng = Rng::new(5);
    let alphabet: Vec<char> = "abcdefgh12345678xyz".chars().collect();
    let mut emilia = quick();
    let before = state(&mut emilia);
    let start = Instant::now();
    for _ in 0..20 {
        let junk: String = (0..16_370).map(|_| *rng.pick(&alphabet)).collect();
        let reply = emilia.ask(&format!("loadgame {junk}"));
        assert!(reply.starts_with("? malformed transcript"), "{reply}");
    }
    let took = start.elapsed();
    assert!(
        took < Duration::from_secs(3),
        "20 junk loadgames took {took:?}"
    );
    assert_eq!(state(&mut emilia), before);
}

#[test]
fn random_command_streams_always_get_answers() {
    let names = [
        "play",
        "genmove",
        "undo",
        "showboard",
        "final_score",
        "boardsize",
        "clear_board",
        "newgame",
        "setboard",
        "hint",
        "history",
        "loadgame",
        "komi",
        "time_settings",
        "time_left",
        "known_command",
        "list_games",
        "set_game",
        "name",
        "version",
        "perft",
        "protocol_version",
        "list_commands",
        "bogus",
        "genmov",
        "PLAY",
        "",
        "#",
    ];
    let words = [
        "black",
        "white",
        "b",
        "w",
        "X",
        "O",
        "purple",
        "f5",
        "d6",
        "c3",
        "e6",
        "a1",
        "h8",
        "l12",
        "z9",
        "pass",
        "PA",
        "0",
        "1",
        "2",
        "3",
        "6",
        "8",
        "10",
        "12",
        "20",
        "-1",
        "depth",
        "movetime",
        "nodes",
        "ggf",
        "Othello",
        "f5d6c3",
        "(;",
        "[",
        "]",
        "é",
        "\t",
        "1e99",
        "3.5",
        "---------------------------OX------XO---------------------------",
    ];
    let mut rng = Rng::new(2024);
    let mut emilia = quick();
    let mut expected = 0;
    for i in 0..600 {
        let mut line = String::new();
        if rng.below(4) == 0 {
            line.push_str(&format!("{} ", rng.below(1000)));
        }
        let name = *rng.pick(&names);
        line.push_str(name);
        for _ in 0..rng.below(4) {
            line.push(' ');
            let word = *rng.pick(&words);
            line.push_str(word);
        }
        if name == "perft" {
            line = format!("perft {}", rng.below(4));
        }
        let visible = line.split('#').next().unwrap().trim().to_string();
        emilia.send(&line);
        if !visible.is_empty() {
            expected += 1;
            let reply = emilia.reply();
            assert!(
                reply.starts_with('=') || reply.starts_with('?'),
                "line {i} '{line}': {reply}"
            );
            assert!(
                !reply.contains("internal error"),
                "line {i} '{line}': {reply}"
            );
        }
    }
    assert!(expected > 500);
    assert_eq!(emilia.ok("name"), "Emilia");
    let (status, stderr) = emilia.wait(Duration::from_secs(10));
    assert!(status.success());
    assert_eq!(stderr, "");
}

#[test]
fn end_of_input_and_closed_output_end_cleanly() {
    // End of input: the answers already asked for come, then a clean exit.
    let mut emilia = Emilia::start(&[]);
    emilia.send("1 name");
    emilia.send("2 genmove black depth 1");
    emilia.close_stdin();
    assert_eq!(emilia.reply(), "=1 Emilia");
    assert!(emilia.reply().starts_with("=2 "));
    let (status, stderr) = emilia.wait(Duration::from_secs(10));
    assert!(status.success(), "{status}");
    assert_eq!(stderr, "");
    // A reader that goes away: writes fail, the process ends without a panic.
    let mut emilia = Emilia::start(&[]);
    emilia.close_stdout();
    for _ in 0..2000 {
        if !emilia.try_send("showboard") {
            break;
        }
    }
    let (status, stderr) = emilia.wait(Duration::from_secs(10));
    assert!(status.success(), "{status}");
    assert_eq!(stderr, "");
    // quit.
    let mut emilia = Emilia::start(&[]);
    assert_eq!(emilia.ask("quit"), "=");
    let (status, _) = emilia.wait(Duration::from_secs(10));
    assert!(status.success());
}

#[test]
fn a_client_that_dies_stops_the_search_and_the_process() {
    // The input and the output both close during a long search: the search stops and the
    // process ends (before: it searched on to its limit).
    for command in ["genmove movetime 600000", "solve"] {
        let (status, took) = common::client_dies(
            &format!("1 name\n{command}\n"),
            Some("=1 Emilia"),
            Duration::from_millis(300),
            Duration::from_secs(3),
        );
        assert!(status.success(), "{command}: {status}");
        assert!(took < Duration::from_secs(3), "{command}: {took:?}");
    }
}

#[test]
fn the_end_of_input_alone_stops_nothing() {
    // Commands read before the end of the input are answered in full while the output
    // is read: a search keeps its time (without the opening book, which would answer the
    // start position at once).
    let mut emilia = Emilia::start(&["--book", "off"]);
    emilia.send("genmove black movetime 400");
    emilia.send("last_search");
    emilia.close_stdin();
    assert!(emilia.reply().starts_with("= "));
    let last = emilia.reply();
    let words: Vec<&str> = last.split_whitespace().collect();
    let at = words.iter().position(|&w| w == "time").expect("a time") + 1;
    let time: f64 = words[at].parse().unwrap();
    assert!(time >= 0.3, "the search was cut short: {last}");
    let (status, stderr) = emilia.wait(Duration::from_secs(10));
    assert!(status.success(), "{status}");
    assert_eq!(stderr, "");
}

#[test]
fn genmove_keeps_to_its_budget() {
    let mut emilia = Emilia::start(&[]);
    emilia.ok("name");
    let start = Instant::now();
    emilia.ok("genmove black movetime 200");
    let took = start.elapsed();
    assert!(
        took < Duration::from_millis(600),
        "movetime 200 took {took:?}"
    );
    // A 3 s clock at the start: one move gets a small share of it.
    let start = Instant::now();
    emilia.ok("genmove white 3000");
    let took = start.elapsed();
    assert!(
        took < Duration::from_millis(1500),
        "3 s clock took {took:?}"
    );
    // GTP clocks: time_left in byo-yomi gives the time for the next stones.
    emilia.ok("time_settings 0 1 4");
    emilia.ok("time_left black 1 4");
    let start = Instant::now();
    emilia.ok("genmove black");
    let took = start.elapsed();
    assert!(
        took < Duration::from_millis(500),
        "byo-yomi move took {took:?}"
    );
}

#[test]
fn other_board_sizes_play_too() {
    let mut emilia = quick();
    for size in [6, 10, 12] {
        emilia.ok(&format!("boardsize {size}"));
        let mv = emilia.ok("genmove black");
        let position = Position::start(size).unwrap();
        assert!(position.play(mv.parse().unwrap()).is_ok(), "{size}: {mv}");
        let board = emilia.ok("showboard");
        assert_eq!(board.lines().count(), size + 3, "{board}");
    }
    let squares = "-".repeat(100);
    assert!(emilia
        .ask(&format!("setboard {squares} X"))
        .starts_with('='));
}

/// Sends `command`, then `stop` after `wait`: the command answers within two seconds of
/// the stop, then the stop itself. Returns the command's reply and the time it took.
fn stopped(emilia: &mut Emilia, command: &str, wait: Duration) -> String {
    emilia.send(command);
    std::thread::sleep(wait);
    let sent = Instant::now();
    emilia.send("7 stop");
    let reply = emilia.reply();
    let took = sent.elapsed();
    assert!(
        took < Duration::from_secs(2),
        "{command}: {took:?} after stop"
    );
    assert_eq!(emilia.reply(), "=7", "{command}: stop answered after it");
    reply
}

#[test]
fn stop_ends_a_deep_perft() {
    // perft 16 from the start takes hours; before, nothing ended it.
    let mut emilia = Emilia::start(&[]);
    let reply = stopped(&mut emilia, "perft 16", Duration::from_millis(300));
    assert_eq!(reply, "? perft 16 stopped before the end of its count");
    assert_eq!(emilia.ok("perft 5"), "1396", "shallow counts are whole");
}

#[test]
fn stop_interrupts_genmove_hint_and_solve_with_their_best_so_far() {
    // Without the book, which would answer the opening at once.
    let mut emilia = Emilia::start(&["--book", "off"]);
    // A search of 100 s, stopped: the best move so far, played.
    let reply = stopped(
        &mut emilia,
        "genmove black movetime 100000",
        Duration::from_millis(300),
    );
    let mv = reply.strip_prefix("= ").expect(&reply);
    assert!(["d3", "c4", "f5", "e6"].contains(&mv), "{reply}");
    assert_eq!(emilia.ok("history"), mv);
    // A hint of 100 s: after a second it writes progress to stderr; stopped, it answers
    // the best two moves as deep as it got.
    let reply = stopped(
        &mut emilia,
        "hint 2 movetime 100000",
        Duration::from_secs(4),
    );
    let lines: Vec<&str> = reply.lines().collect();
    assert_eq!(lines.len(), 2, "{reply}");
    assert!(
        lines[0].starts_with("= ") && lines[1].contains(" depth "),
        "{reply}"
    );
    // An exact solve of 40 empties cannot finish: stopped, it answers the estimate of the
    // midgame search that ran before it.
    emilia.ok("loadgame f5d6c3d3c4f4f6f3e6e7");
    let reply = stopped(&mut emilia, "solve", Duration::from_millis(300));
    let words: Vec<&str> = reply.split_whitespace().collect();
    assert!(
        words.len() == 5 && words[0] == "=" && words[3] == "depth",
        "{reply}"
    );
    let depth: u32 = words[4].parse().expect(&reply);
    assert!(depth > 0, "{reply}");
    // A stop with nothing to stop is answered, and the next search runs in full.
    assert_eq!(emilia.ask("stop"), "=");
    emilia.ok("genmove depth 3");
    assert!(emilia.ok("last_search").starts_with("depth 3 "));
    // A stop sent right behind a search, before it started, still stops it at once.
    emilia.send("genmove movetime 100000");
    emilia.send("stop");
    let start = Instant::now();
    assert!(emilia.reply().starts_with("= "));
    assert_eq!(emilia.reply(), "=");
    assert!(start.elapsed() < Duration::from_secs(2));
    let (status, stderr) = emilia.wait(Duration::from_secs(10));
    assert!(status.success());
    assert!(stderr.lines().count() >= 1, "{stderr}");
    for line in stderr.lines() {
        assert!(
            line.starts_with("hint: depth ") && line.contains(" nodes/s time "),
            "{line}"
        );
    }
}

#[test]
fn reg_genmove_answers_the_move_and_changes_nothing() {
    let mut emilia = quick();
    emilia.ok("play f5");
    let before = state(&mut emilia);
    let mv = emilia.ok("reg_genmove white depth 3");
    assert!(["d6", "f6", "f4"].contains(&mv.as_str()), "{mv}");
    assert_eq!(state(&mut emilia), before);
    assert_eq!(emilia.ok("genmove white depth 3"), mv);
    assert!(emilia
        .ask("reg_genmove white")
        .starts_with("? wrong side to move"));
    assert!(emilia
        .ask("reg_genmove black fast")
        .starts_with("? reg_genmove: unexpected 'fast'"));
}

/// `play`, `genmove`, `undo` and `setboard` at random moments while Emilia ponders: every
/// answer is checked against a model game, and a second Emilia that does not ponder, given
/// the same changes, ends on the same board. `quit` while pondering ends the process.
#[test]
fn commands_at_random_moments_during_pondering_get_their_answers() {
    let mut emilia = Emilia::start(&["--ponder", "on", "--threads", "2", "--hash", "8"]);
    emilia.ok("setoption movetime 20");
    let mut reference = Emilia::start(&["--threads", "1", "--hash", "1"]);
    // FFO #1 (14 empties, Black to move): pondering there solves exactly.
    let (squares, side) = (
        "--XXXXX--OOOXX-O-OOOXXOX-OXOXOXXOXXXOXXX--XOXOXX-XXXOOO--OOOOO--",
        "X",
    );
    let setboard = format!("setboard {squares} {side}");
    let ffo_1: Position = format!("{squares} {side}").parse().unwrap();
    let mut game = Game::standard(8).unwrap();
    let mut rng = Rng::new(2026);
    for step in 0..60 {
        if game.is_over() {
            emilia.ok(&setboard);
            reference.ok(&setboard);
            game = Game::new(ffo_1);
        }
        let color = game.position().to_move;
        let reply = check_against_model(&mut emilia, &mut game, &format!("genmove {color}"));
        reference.ok(&format!("play {color} {}", reply.trim_start_matches("= ")));
        // Emilia ponders now; the next command comes at some moment of it.
        std::thread::sleep(Duration::from_millis(rng.below(25) as u64));
        match rng.below(5) {
            0 | 1 if !game.is_over() => {
                let color = game.position().to_move;
                let moves = game.position().legal_moves();
                let mv = moves.get(rng.below(moves.len().max(1))).copied();
                let line = format!("play {color} {}", mv.unwrap_or(Move::Pass));
                check_against_model(&mut emilia, &mut game, &line);
                reference.ok(&line);
            }
            2 => {
                let reply = emilia.ask("undo");
                if game.undo().is_some() {
                    assert_eq!(reply, "=", "step {step}");
                    reference.ok("undo");
                } else {
                    assert!(reply.starts_with("? cannot undo"), "{reply}");
                }
            }
            3 if step % 4 == 3 => {
                emilia.ok(&setboard);
                reference.ok(&setboard);
                game = Game::new(ffo_1);
            }
            // Otherwise the next genmove comes while Emilia ponders.
            _ => {}
        }
    }
    assert_eq!(emilia.ask("showboard"), reference.ask("showboard"));
    assert_eq!(emilia.ask("history"), reference.ask("history"));
    // Nothing but answers came out: every reply was read in turn, and no more is waiting.
    assert_eq!(emilia.line_within(Duration::from_millis(100)), None);
    // quit while pondering.
    emilia.ok(&setboard);
    emilia.ask("genmove black");
    std::thread::sleep(Duration::from_millis(20));
    assert_eq!(emilia.ask("quit"), "=");
    let (status, stderr) = emilia.wait(Duration::from_secs(5));
    assert!(status.success(), "{status}");
    assert_eq!(stderr, "");
}

/// Leaving does not wait for pondering to stop: `quit` is answered and the end of the input
/// ends the process while the pondering search runs on (the engine's log notes "pondered"
/// when a pondering search has stopped; it must not appear). With many search threads on
/// few cores, waiting for every one of them to see the stop kept `quit` waiting.
#[test]
fn leaving_while_pondering_does_not_wait_for_the_search_to_stop() {
    for by_quit in [true, false] {
        let mut emilia = Emilia::start(&[
            "-v",
            "--ponder",
            "on",
            "--threads",
            "2",
            "--hash",
            "8",
            "--book",
            "off",
        ]);
        emilia.ok("genmove black movetime 50");
        // From the start position pondering goes on far longer than this.
        std::thread::sleep(Duration::from_millis(100));
        if by_quit {
            assert_eq!(emilia.ask("quit"), "=");
        } else {
            emilia.close_stdin();
        }
        let (status, stderr) = emilia.wait(Duration::from_secs(5));
        assert!(status.success(), "{status}");
        assert!(stderr.contains("depth"), "the log is on: {stderr}");
        assert!(!stderr.contains("pondered"), "quit {by_quit}: {stderr}");
    }
}

/// Emilia (Black, pondering) against a second Emilia (White): when White plays the reply
/// Emilia expected, Emilia's next search starts from what pondering found, and
/// `last_search` says so.
#[test]
fn a_ponder_hit_starts_the_next_search_deeper() {
    let mut emilia = Emilia::start(&["--ponder", "on", "--threads", "1", "--hash", "8"]);
    let mut white = Emilia::start(&["--threads", "1", "--hash", "8"]);
    // White thinks longer: the time Emilia has to ponder, enough on a busy machine too.
    emilia.ok("setoption movetime 50");
    white.ok("setoption movetime 300");
    let (mut hits, mut deeper, mut searches) = (0, 0, 0);
    let mut longest_ponder = 0.0f64;
    for _ in 0..30 {
        let black = emilia.ask("genmove black");
        if black.starts_with("? game over") {
            break;
        }
        let black = black.trim_start_matches("= ").to_string();
        if black != "pass" {
            searches += 1;
            let last = emilia.ask("last_search");
            if last.contains("ponder_depth ") {
                hits += 1;
                let words: Vec<&str> = last.split_whitespace().collect();
                let value = |key: &str| -> f64 {
                    let i = words.iter().position(|w| *w == key).unwrap();
                    words[i + 1].parse().unwrap()
                };
                // Exact results found while pondering are found again in the table, from
                // depth 1; others start where pondering was.
                longest_ponder = longest_ponder.max(value("ponder_time"));
                if value("ponder_depth") > 1.0 {
                    deeper += 1;
                    assert!(value("depth") >= value("ponder_depth"), "{last}");
                }
            }
        }
        white.ok(&format!("play black {black}"));
        let reply = white.ask("genmove white");
        if reply.starts_with("? game over") {
            break;
        }
        emilia.ok(&format!("play white {}", reply.trim_start_matches("= ")));
    }
    assert!(searches > 10, "{searches}");
    assert!(hits > 0, "no ponder hit in {searches} searches");
    assert!(deeper > 0, "no ponder hit started deeper ({hits} hits)");
    // The `last_search` after each move does not end pondering for good: it goes on while
    // White thinks. Before, it stopped there, after about 15 ms.
    assert!(longest_ponder >= 0.1, "pondered {longest_ponder} s at most");
}

#[test]
fn every_limit_is_kept_by_the_solver_too() {
    // protocol.md's example: 14 empties, which the solver takes over at once.
    let example = "-OOOOOO---OOOO-XXXOOXXXX-OOXXOOX-OXOOOXX-XXXXXXX--OOXX-X-OOOO-X- X";
    let mut emilia = Emilia::start(&[]);
    emilia.ok(&format!("setboard {example}"));
    // Before: the solver looked at the node limit only every 16,384 nodes, and solved.
    let reply = emilia.ask("solve nodes 1000");
    assert!(
        reply.starts_with("? solve stopped before the end of the game: best so far "),
        "{reply}"
    );
    assert_eq!(emilia.ok("solve"), "a5 -34");
    // Before: 2,843 nodes. Budgets too small to solve 14 empties are kept by the midgame
    // search alone, shared out among its threads; with a larger one the midgame search
    // stops at its share exactly and the solver looks at the limit when it reaches it.
    for limit in [100u64, 1000, 3000, 100_000] {
        emilia.ok(&format!("setboard {example}"));
        emilia.ok(&format!("genmove nodes {limit}"));
        let last = emilia.ok("last_search");
        let nodes: u64 = last
            .split_whitespace()
            .skip_while(|w| *w != "nodes")
            .nth(1)
            .and_then(|n| n.parse().ok())
            .unwrap_or_else(|| panic!("{last}"));
        assert!(nodes <= limit, "genmove nodes {limit}: {last}");
    }
}

#[test]
fn a_table_size_that_cannot_be_had_is_refused_and_the_old_one_kept() {
    let mut emilia = Emilia::start(&[]);
    let reply = emilia.ask("setoption hash 65536");
    if reply == "=" {
        eprintln!("SKIPPED: this machine has 64 GiB to spare, so the refusal was not tested");
        return;
    }
    // Before: the process aborted ("memory allocation of ... bytes failed").
    assert!(
        reply.starts_with("? option hash: cannot have 65536 MiB of tables: "),
        "{reply}"
    );
    let options = emilia.ok("setoption");
    assert!(options.starts_with("hash 64 "), "{options}");
    assert_eq!(emilia.ok("genmove black depth 3").len(), 2);
}

#[test]
fn a_refused_table_size_is_named_whole_not_by_the_part_refused() {
    use std::io::Write;
    let mut command = std::process::Command::new(env!("CARGO_BIN_EXE_emilia"));
    command
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped());
    common::limit_address_space(&mut command, 1 << 30);
    let mut child = command.spawn().unwrap();
    // Within 1 GiB of address space the midgame part of 900 MiB fits, the solver's not.
    child
        .stdin
        .take()
        .unwrap()
        .write_all(b"setoption hash 900\nsetoption\n")
        .unwrap();
    let output = child.wait_with_output().unwrap();
    let text = String::from_utf8_lossy(&output.stdout);
    assert!(
        text.starts_with("? option hash: cannot have 900 MiB of tables: "),
        "{text}"
    );
    assert!(
        text.contains("\n\n= hash 64 "),
        "the old tables are kept: {text}"
    );
}

#[test]
fn a_search_keeps_its_time_with_as_many_threads_as_the_option_takes() {
    // Before: `threads` took up to 1024, and on two cores `genmove movetime 50` with 1024
    // took 26.9 s, the helpers searching on until the starved main thread returned.
    let mut emilia = Emilia::start(&["--book", "off"]);
    let refused = emilia.ask("setoption threads 65");
    assert!(
        refused.starts_with("? option threads: 65 is out of range (1 to 64, or all)"),
        "{refused}"
    );
    emilia.ok("setoption threads 64");
    for _ in 0..3 {
        let start = Instant::now();
        emilia.ok("genmove movetime 50");
        let took = start.elapsed();
        assert!(
            took < Duration::from_millis(1000),
            "movetime 50 on 64 threads took {took:?}"
        );
    }
}

#[test]
fn under_a_memory_limit_the_session_answers_or_refuses_to_start() {
    // Under `ulimit -v` a search's allocation aborted the process (exit 134, no answer),
    // or tables sized to the limit left no room for a thread (exit 101). Now the tables
    // fit with room to spare, and a limit too small for any is a message at the start.
    if !std::path::Path::new("/bin/sh").exists() || !cfg!(target_os = "linux") {
        eprintln!("SKIPPED: no /bin/sh to set the limit");
        return;
    }
    let mut sessions = 0;
    for kib in (60_000..=160_000).step_by(20_000) {
        let output = std::process::Command::new("/bin/sh")
            .arg("-c")
            .arg(format!(
                "ulimit -v {kib} && printf 'genmove black depth 5\\nhint\\nname\\n' | \"$0\" --book off",
            ))
            .arg(env!("CARGO_BIN_EXE_emilia"))
            .output()
            .unwrap();
        let stdout = String::from_utf8_lossy(&output.stdout);
        let stderr = String::from_utf8_lossy(&output.stderr);
        match output.status.code() {
            Some(0) => {
                let answers: Vec<&str> = stdout.split("\n\n").filter(|a| !a.is_empty()).collect();
                assert_eq!(answers.len(), 3, "{kib} KiB: {stdout}");
                assert!(answers[0].starts_with("= "), "{kib} KiB: {stdout}");
                assert!(answers[1].starts_with("= "), "{kib} KiB: {stdout}");
                assert_eq!(answers[2], "= Emilia", "{kib} KiB: {stdout}");
                sessions += 1;
            }
            Some(2) => {
                assert_eq!(stdout, "", "{kib} KiB");
                assert!(
                    stderr.starts_with("emilia: cannot have"),
                    "{kib} KiB: {stderr}"
                );
            }
            _ => panic!("{kib} KiB: {} {stdout} {stderr}", output.status),
        }
    }
    assert!(sessions > 0, "no limit left room for a session");
}

/// The tests below read whole replies, with the blank line that ends them.
mod replies {
    use super::common::Emilia;

    fn ask(emilia: &mut Emilia, line: &str) -> String {
        emilia.ask(line) + "\n\n"
    }

    #[test]
    fn framing_follows_gtp() {
        let mut e = Emilia::start(&[]);
        assert_eq!(ask(&mut e, "protocol_version"), "= 2\n\n");
        assert_eq!(ask(&mut e, "12 name"), "=12 Emilia\n\n");
        assert_eq!(ask(&mut e, "\t7\tname # comment"), "=7 Emilia\n\n");
        // A comment alone and an empty line get no reply: the next reply is the next line's.
        e.send("   # only a comment");
        e.send("");
        assert_eq!(ask(&mut e, "1 name"), "=1 Emilia\n\n");
        assert_eq!(ask(&mut e, "3 komi 6.5"), "=3\n\n");
        assert!(ask(&mut e, "4 genmov b")
            .starts_with("?4 unknown command 'genmov': did you mean 'genmove'?"));
        assert!(ask(&mut e, "showboard").starts_with("=\n    a b c d e f g h\n"));
        assert!(ask(&mut e, "list_commands").ends_with("loadgame\n\n"));
        assert_eq!(ask(&mut e, "known_command genmove"), "= true\n\n");
        assert_eq!(ask(&mut e, "known_command fly"), "= false\n\n");
        assert!(ask(&mut e, "99999999999999999999999 name").starts_with("? id"));
        assert_eq!(ask(&mut e, "5"), "?5 no command after the id\n\n");
    }

    #[test]
    fn lists_moves_and_gives_the_position_setboard_takes_back() {
        let mut e = Emilia::start(&[]);
        assert_eq!(ask(&mut e, "legal_moves"), "= d3 c4 f5 e6\n\n");
        let start = "---------------------------OX------XO--------------------------- X";
        assert_eq!(ask(&mut e, "position"), format!("= {start}\n\n"));
        ask(&mut e, "loadgame f5d6c3d3c4f4f6f3e6e7");
        let position = ask(&mut e, "position");
        let line = position.trim_start_matches("= ").trim_end().to_string();
        ask(&mut e, "newgame");
        assert_eq!(ask(&mut e, &format!("setboard {line}")), "=\n\n");
        assert_eq!(ask(&mut e, "position"), position);
        // The moves listed are the squares `play` accepts, in board order.
        let mut accepted = Vec::new();
        for row in 1..=8 {
            for column in 'a'..='h' {
                let square = format!("{column}{row}");
                if ask(&mut e, &format!("play {square}")) == "=\n\n" {
                    accepted.push(square);
                    ask(&mut e, "undo");
                }
            }
        }
        assert_eq!(
            ask(&mut e, "legal_moves"),
            format!("= {}\n\n", accepted.join(" "))
        );
        assert!(accepted.len() > 3, "{accepted:?}");
        // Only a pass, then nothing once neither side can move.
        let mut squares = vec!['-'; 64];
        squares[0] = 'X';
        squares[1] = 'O';
        let board: String = squares.into_iter().collect();
        ask(&mut e, &format!("setboard {board} O"));
        assert_eq!(ask(&mut e, "legal_moves"), "= pass\n\n");
        ask(&mut e, "play pass");
        assert_eq!(ask(&mut e, "legal_moves"), "= c1\n\n");
        ask(&mut e, "play c1");
        assert_eq!(ask(&mut e, "legal_moves"), "=\n\n");
        assert!(ask(&mut e, "legal_moves now").starts_with("? legal_moves takes no arguments"));
    }

    #[test]
    fn help_gives_every_command_a_line() {
        let mut e = Emilia::start(&[]);
        let help = ask(&mut e, "help");
        let lines: Vec<&str> = help.lines().skip(1).filter(|l| !l.is_empty()).collect();
        let listed = ask(&mut e, "list_commands");
        let names: Vec<&str> = listed.trim_start_matches("= ").trim_end().lines().collect();
        assert_eq!(lines.len(), names.len(), "{help}");
        for (name, line) in names.iter().zip(&lines) {
            assert!(line.starts_with(&format!("{name} ")), "{line}");
        }
        assert!(
            names.contains(&"legal_moves") && names.contains(&"help"),
            "{listed}"
        );
        let genmove = lines.iter().find(|l| l.starts_with("genmove ")).unwrap();
        assert!(genmove.contains("whole remaining clock") && genmove.contains("movetime"));
        assert_eq!(ask(&mut e, "known_command help"), "= true\n\n");
    }

    #[test]
    fn refusals_name_what_is_wrong() {
        let mut e = Emilia::start(&[]);
        let rows = "-------- -------- -------- ---OX--- ---XO--- -------- -------- --------";
        assert_eq!(
            ask(&mut e, &format!("setboard 8 {rows} X")),
            "? malformed board: '8' is not squares of the board ('8' is none of X, O and -): \
             give the squares (rows may be split by spaces), then the side to move\n\n"
        );
        assert_eq!(ask(&mut e, &format!("setboard {rows} X")), "=\n\n");
        for clock in ["1.5", "1000ms", "2s"] {
            assert_eq!(
                ask(&mut e, &format!("genmove black {clock}")),
                format!(
                    "? genmove: clock '{clock}' is not a whole number of milliseconds: a bare \
                     number is the mover's whole remaining clock (movetime MS gives one move's \
                     time)\n\n"
                )
            );
        }
        assert!(ask(&mut e, "genmove 1.5").starts_with("? genmove: clock '1.5'"));
        assert_eq!(
            ask(&mut e, "loadgame a123"),
            "? malformed transcript: 'a123' is not a square: expected a column letter and a \
             row number, like f5\n\n"
        );
        assert_eq!(
            ask(&mut e, "loadgame f5f5"),
            "? malformed transcript: move 2: illegal move f5: square is occupied\n\n"
        );
        assert_eq!(ask(&mut e, "history"), "=\n\n");
    }

    #[test]
    fn plays_both_colour_styles_and_undoes() {
        let mut e = Emilia::start(&[]);
        assert_eq!(ask(&mut e, "play black f5"), "=\n\n");
        assert_eq!(ask(&mut e, "play d6"), "=\n\n");
        assert!(ask(&mut e, "play white c3").starts_with("? wrong side to move"));
        assert!(ask(&mut e, "play black e3").starts_with("? illegal move e3"));
        assert!(ask(&mut e, "play purple c3").starts_with("? 'purple' is not a colour"));
        assert!(ask(&mut e, "play black z0").starts_with("? 'z0' is not a square"));
        assert_eq!(ask(&mut e, "history"), "= f5d6\n\n");
        assert_eq!(ask(&mut e, "undo"), "=\n\n");
        assert_eq!(ask(&mut e, "undo"), "=\n\n");
        assert!(ask(&mut e, "undo").starts_with("? cannot undo"));
        assert_eq!(ask(&mut e, "final_score"), "= 0\n\n");
    }

    #[test]
    fn last_search_reports_the_last_genmove() {
        let mut e = Emilia::start(&[]);
        assert_eq!(ask(&mut e, "last_search"), "=\n\n");
        // The start position is in the opening book: answered from it, unsearched.
        ask(&mut e, "genmove black depth 3");
        let answer = ask(&mut e, "last_search");
        assert!(answer.contains(" nodes 0 "), "{answer}");
        assert!(answer.trim_end().ends_with(" book true"), "{answer}");
        ask(&mut e, "setoption book off");
        ask(&mut e, "genmove white depth 3");
        let answer = ask(&mut e, "last_search");
        assert!(answer.starts_with("= depth 3 score "), "{answer}");
        assert!(answer.contains(" exact false nodes "), "{answer}");
        assert!(answer.trim_end().ends_with(" book false"), "{answer}");
    }

    #[test]
    fn genmove_answers_legal_moves_and_passes() {
        let mut e = Emilia::start(&[]);
        let answer = ask(&mut e, "genmove black depth 2");
        let mv = answer.trim_start_matches("= ").trim();
        assert!(["d3", "c4", "f5", "e6"].contains(&mv), "{answer}");
        assert!(ask(&mut e, "genmove black depth 2").starts_with("? wrong side to move"));
        // White to move with no move, Black to play c1: the game then ends.
        let mut squares = vec!['-'; 64];
        squares[0] = 'X';
        squares[1] = 'O';
        let board: String = squares.into_iter().collect();
        assert_eq!(ask(&mut e, &format!("setboard {board} O")), "=\n\n");
        assert_eq!(ask(&mut e, "genmove 1000"), "= pass\n\n");
        assert_eq!(ask(&mut e, "genmove black"), "= c1\n\n");
        assert_eq!(
            ask(&mut e, "genmove white"),
            "? game over: B+64 (neither side can move)\n\n"
        );
        assert_eq!(ask(&mut e, "final_score"), "= B+64\n\n");
        // Quarry's style: the same colour twice when the other side has no move.
        ask(&mut e, &format!("setboard {board} O"));
        assert_eq!(ask(&mut e, "play black c1"), "=\n\n");
        assert_eq!(ask(&mut e, "history"), "= c1\n\n");
        assert_eq!(ask(&mut e, "undo"), "=\n\n");
        assert_eq!(ask(&mut e, "history"), "=\n\n");
    }

    #[test]
    fn options_and_unknowns() {
        let mut e = Emilia::start(&[]);
        assert_eq!(ask(&mut e, "setoption depth 3"), "=\n\n");
        assert_eq!(ask(&mut e, "setoption hash 16"), "=\n\n");
        assert!(ask(&mut e, "setoption hash lots").starts_with("? option hash"));
        assert!(ask(&mut e, "setoption colour 1").starts_with("? unknown option 'colour'"));
        assert!(ask(&mut e, "setoption").contains("depth 3"));
        assert!(ask(&mut e, "boardsize 7").starts_with("? unacceptable size"));
        assert_eq!(ask(&mut e, "boardsize 6"), "=\n\n");
        assert_eq!(ask(&mut e, "perft 3"), "= 56\n\n");
        assert!(ask(&mut e, "perft 99").starts_with("? perft depth"));
    }

    #[test]
    fn solves_small_endgames_exactly() {
        let mut e = Emilia::start(&[]);
        // Two empties: a8 and b8... use a board where Black's best is known by hand:
        // all Black except h8 empty and g8 White: Black plays h8 and wins 64-0.
        let mut squares = vec!['X'; 64];
        squares[62] = 'O';
        squares[63] = '-';
        let board: String = squares.into_iter().collect();
        ask(&mut e, &format!("setboard {board} X"));
        assert_eq!(ask(&mut e, "solve"), "= h8 +64\n\n");
        assert_eq!(ask(&mut e, "hint 1"), "= h8 +64 exact\n\n");
    }
}

/// The protocol's `solve` gives the solver's exact score on random 6x6 and 8x8 positions
/// (the core's own tests compare the solver with every other path to the end).
#[test]
fn protocol_solve_gives_the_solvers_exact_score() {
    use emilia_core::endgame::Solver;

    let mut rng = Rng::new(52);
    let mut emilia = Emilia::start(&["--threads", "1"]);
    let mut solver = Solver::new(4);
    for (size, empties) in [(6, 8), (6, 14), (8, 9), (8, 14), (8, 18)] {
        let mut position = Position::start(size).unwrap();
        while position.count(Color::Black) + position.count(Color::White)
            < (size * size - empties) as u32
        {
            let moves = position.legal_moves();
            if moves.is_empty() {
                break;
            }
            position = position.play(*rng.pick(&moves)).unwrap();
        }
        if position.is_game_over() {
            continue;
        }
        let exact = solver.solve_exact(&position.board).score;
        let side = if position.to_move == Color::Black {
            "X"
        } else {
            "O"
        };
        emilia.ok(&format!("setboard {} {side}", position.squares_string()));
        let answer = emilia.ok("solve");
        let score = answer
            .split_whitespace()
            .nth(1)
            .and_then(|s| s.parse::<i32>().ok());
        assert_eq!(score, Some(exact), "protocol solve '{answer}': {position}");
    }
}

#[test]
fn boardsize_takes_a_side_or_both_sides() {
    let mut emilia = Emilia::start(&[]);
    for (size, squares) in [("10", 100), ("6x6", 36), ("12X12", 144)] {
        emilia.ok(&format!("boardsize {size}"));
        let board = emilia.ok("position");
        assert_eq!(
            board.split_whitespace().next().unwrap().len(),
            squares,
            "{board}"
        );
    }
    assert!(emilia
        .ask("boardsize 8x10")
        .starts_with("? unacceptable size"));
}
