//! The front-ends for people and file-passing referees, through the real binary:
//! `emilia play`, `emilia move`, `--help` and `--version`.

mod common;

use std::path::PathBuf;
use std::process::Command;
use std::time::Duration;

use common::Emilia;
use emilia_core::board::{Move, Position};

fn emilia(args: &[&str]) -> (bool, String, String) {
    let output = Command::new(env!("CARGO_BIN_EXE_emilia"))
        .args(args)
        .output()
        .expect("emilia runs");
    (
        output.status.success(),
        String::from_utf8_lossy(&output.stdout).into_owned(),
        String::from_utf8_lossy(&output.stderr).into_owned(),
    )
}

#[test]
fn help_lists_everything_and_version_prints() {
    let (ok, text, _) = emilia(&["--help"]);
    assert!(ok);
    for sub in ["play", "move", "perft", "bench", "protocol.md"] {
        assert!(text.contains(sub), "--help lacks {sub}: {text}");
    }
    for (sub, needle) in [
        ("play", "--color"),
        ("move", "<board-file>"),
        ("bench", "clock"),
        ("perft", "<depth>"),
    ] {
        let (ok, text, _) = emilia(&[sub, "--help"]);
        assert!(ok, "{sub} --help");
        assert!(text.contains(needle), "{sub} --help: {text}");
    }
    let (ok, text, _) = emilia(&["--version"]);
    assert!(ok);
    assert_eq!(text.trim(), format!("emilia {}", env!("CARGO_PKG_VERSION")));
    let (ok, _, err) = emilia(&["fly"]);
    assert!(!ok);
    assert!(err.contains("unknown subcommand 'fly'"), "{err}");
}

#[test]
fn a_whole_game_at_the_terminal() {
    let mut session = Emilia::start(&["play", "--time", "0.02", "--color", "white"]);
    let mut moves_typed = 0;
    let mut first_bad = true;
    let result = loop {
        let line = session.line();
        let line = line.trim_start_matches("> ");
        if let Some(legal) = line.strip_prefix("Legal moves: ") {
            if first_bad {
                // Illegal input is explained and the game goes on.
                session.send("a1");
                first_bad = false;
                continue;
            }
            let first = legal.split_whitespace().next().unwrap().to_string();
            session.send(&first);
            moves_typed += 1;
        }
        if line.starts_with("illegal move a1") {
            assert!(line.contains("Legal moves:"), "{line}");
        }
        if let Some(result) = line.strip_prefix("Game over: ") {
            break result.to_string();
        }
    };
    assert!(moves_typed > 10);
    assert!(
        result.ends_with("You win.")
            || result.ends_with("Emilia wins.")
            || result.ends_with("A draw."),
        "{result}"
    );
    let (status, stderr) = session.wait(Duration::from_secs(10));
    assert!(status.success());
    assert_eq!(stderr, "");
}

/// A board file's rows, read independently of Emilia's reader.
fn board_file(position: &Position) -> String {
    let squares = position.squares_string();
    let size = position.size();
    (0..size)
        .map(|r| format!("{}\n", &squares[r * size..(r + 1) * size]))
        .collect()
}

fn scratch_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("emilia-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

#[test]
fn board_files_carry_a_whole_game() {
    let dir = scratch_dir("move");
    let start = Position::start(8).unwrap();
    let first = dir.join("game-07");
    std::fs::write(
        &first,
        format!("# the start position\n{}", board_file(&start)),
    )
    .unwrap();
    let mut position = start;
    let mut number = 7;
    while !position.is_game_over() {
        let file = dir.join(format!("game-{number:02}"));
        let color = position.to_move.to_string();
        let (ok, out, err) = emilia(&["move", file.to_str().unwrap(), &color, "0.02"]);
        assert!(ok, "{err}");
        let mv: Move = out.trim().parse().unwrap();
        position = position.play(mv).unwrap_or_else(|e| panic!("{mv}: {e}"));
        number += 1;
        let next = dir.join(format!("game-{number:02}"));
        let text = std::fs::read_to_string(&next).unwrap();
        assert_eq!(text, board_file(&position));
        assert!(number < 100);
    }
    // A finished game: an error, and no file.
    let last = dir.join(format!("game-{number:02}"));
    let (ok, _, err) = emilia(&["move", last.to_str().unwrap(), "black", "0.1"]);
    assert!(!ok);
    assert!(err.contains("the game is over"), "{err}");
    assert!(!dir.join(format!("game-{:02}", number + 1)).exists());
    // Bad files and arguments are explained.
    std::fs::write(dir.join("bad-1"), "XO-\n").unwrap();
    let bad = dir.join("bad-1");
    let (ok, _, err) = emilia(&["move", bad.to_str().unwrap(), "black", "1"]);
    assert!(!ok && err.contains("3 squares"), "{err}");
    let (ok, _, err) = emilia(&["move", bad.to_str().unwrap(), "purple", "1"]);
    assert!(!ok && err.contains("'purple' is not a colour"), "{err}");
    let (ok, _, err) = emilia(&["move", first.to_str().unwrap(), "black", "soon"]);
    assert!(
        !ok && err.contains("'soon' is not a positive number"),
        "{err}"
    );
    std::fs::write(dir.join("nonumber"), "").unwrap();
    let (ok, _, err) = emilia(&["move", dir.join("nonumber").to_str().unwrap(), "black", "1"]);
    assert!(!ok && err.contains("no number to increment"), "{err}");
    let _ = std::fs::remove_dir_all(&dir);
}

fn start_board() -> String {
    board_file(&Position::start(8).unwrap())
}

/// Runs `emilia args` with at most 1 GiB of address space, so that a runaway read fails
/// fast instead of eating the machine's memory.
fn emilia_in_1gib(args: &[&str]) -> (bool, String, String) {
    let mut command = Command::new(env!("CARGO_BIN_EXE_emilia"));
    command.args(args);
    common::limit_address_space(&mut command, 1 << 30);
    let output = command.output().expect("emilia runs");
    (
        output.status.success(),
        String::from_utf8_lossy(&output.stdout).into_owned(),
        String::from_utf8_lossy(&output.stderr).into_owned(),
    )
}

/// The exit code and stderr of `emilia args` with at most 1 GiB of address space.
fn exit_code_in_1gib(args: &[&str]) -> (Option<i32>, String) {
    let mut command = Command::new(env!("CARGO_BIN_EXE_emilia"));
    command.args(args);
    common::limit_address_space(&mut command, 1 << 30);
    let output = command.output().expect("emilia runs");
    (
        output.status.code(),
        String::from_utf8_lossy(&output.stderr).into_owned(),
    )
}

#[test]
fn times_that_are_not_positive_durations_are_refused_with_a_reason() {
    let chunks = scratch_dir("times").join("chunks");
    let chunks = chunks.to_str().unwrap();
    for args in [
        vec!["bench", "midgame", "--seconds", "-1"],
        vec!["bench", "midgame", "--seconds", "NaN"],
        vec!["bench", "midgame", "--seconds", "0"],
        vec![
            "selfplay", "--out", chunks, "--games", "1", "--report", "inf",
        ],
        vec![
            "selfplay", "--out", chunks, "--games", "1", "--report", "1e300",
        ],
    ] {
        let (code, err) = exit_code_in_1gib(&args);
        assert_eq!(code, Some(2), "{args:?}: {err}");
        assert!(
            err.contains("expected a positive number of seconds"),
            "{args:?}: {err}"
        );
        assert!(!err.contains("panicked"), "{args:?}: {err}");
    }
}

#[test]
fn board_sizes_are_refused_in_the_core_s_words_by_every_front_end() {
    let chunks = scratch_dir("sizes").join("chunks");
    let chunks = chunks.to_str().unwrap();
    for args in [
        vec!["play", "--size", "7"],
        vec!["perft", "1", "--size", "7"],
        vec!["solve", "--size", "7"],
        vec!["analyze", "f5", "--size", "7"],
        vec!["selfplay", "--out", chunks, "--size", "7"],
        vec!["train", "--size", "7"],
        vec!["bench", "perft", "--size", "7"],
        vec!["bench", "strength", "--size", "7"],
        vec!["match", "--engine", "a", "--engine", "b", "--size", "7"],
    ] {
        let (ok, _, err) = emilia(&args);
        assert!(!ok, "{args:?}");
        assert!(
            err.contains("--size 7: no 7x7 board: Emilia plays 6, 8, 10 and 12"),
            "{args:?}: {err}"
        );
    }
}

#[test]
fn table_sizes_that_cannot_be_had_are_refused_with_a_reason() {
    let nearly_full = format!("{}-", "X".repeat(63));
    let dir = scratch_dir("table-sizes");
    let games = dir.join("games.txt");
    std::fs::write(&games, "f5d6c3d3c4\n").unwrap();
    let games = games.to_str().unwrap();
    let chunks = dir.join("chunks");
    let chunks = chunks.to_str().unwrap();
    for (args, words) in [
        // More than the process may have (1 GiB of address space here), within the range.
        (
            vec!["solve", &nearly_full, "X", "--table", "65536"],
            "--table 65536: cannot have",
        ),
        (
            vec!["solve", "--size", "6", "--table", "1000000"],
            "--table 1000000 is out of range 1 to 65536",
        ),
        (
            vec!["solve", "--size", "6", "--table", "0"],
            "--table 0 is out of range",
        ),
        (
            vec!["book", "verify", "--sample", "1", "--hash", "99999999"],
            "--hash 99999999 is out of range",
        ),
        (
            vec!["book", "verify", "--sample", "1", "--hash", "4096"],
            "--hash 4096: cannot have",
        ),
        (
            vec!["book", "deepen", "x.book", "--hash", "65537"],
            "--hash 65537 is out of range",
        ),
        (
            vec!["book", "learn", "x.book", games, "--hash", "0"],
            "--hash 0 is out of range",
        ),
        (
            vec!["selfplay", "--out", chunks, "--hash", "70000"],
            "--hash 70000 is out of range",
        ),
        (
            vec!["selfplay", "--out", chunks, "--hash", "4096"],
            "--hash 4096: cannot have",
        ),
    ] {
        let (code, err) = exit_code_in_1gib(&args);
        assert_eq!(code, Some(2), "{args:?}: {err}");
        assert!(err.contains(words), "{args:?}: {err}");
        assert!(!err.contains("panicked"), "{args:?}: {err}");
    }
    // What can be had is taken.
    let (code, err) = exit_code_in_1gib(&["solve", &nearly_full, "X", "--table", "256"]);
    assert_eq!(code, Some(0), "{err}");
}

#[test]
fn move_on_a_fifo_answers_within_its_seconds() {
    use std::os::unix::ffi::OsStrExt;
    let dir = scratch_dir("move-fifo");
    let fifo = dir.join("board-01");
    let name = std::ffi::CString::new(fifo.as_os_str().as_bytes()).unwrap();
    // SAFETY: a plain system call with a valid path.
    assert_eq!(unsafe { libc::mkfifo(name.as_ptr(), 0o600) }, 0);
    let timed = || {
        let start = std::time::Instant::now();
        let (ok, _, err) = emilia(&["move", fifo.to_str().unwrap(), "black", "0.5"]);
        (ok, err, start.elapsed())
    };
    // No writer: nothing to read. Before, opening it waited for a writer for ever.
    let (ok, err, took) = timed();
    assert!(!ok && err.contains("reading"), "{err}");
    assert!(took < Duration::from_secs(3), "{took:?}");
    // A writer that never writes: refused at the move's seconds.
    let writer = std::fs::OpenOptions::new()
        .read(true)
        .write(true)
        .open(&fifo)
        .unwrap();
    let (ok, err, took) = timed();
    assert!(
        !ok && err.contains("did not come within the move's time"),
        "{err}"
    );
    assert!(took < Duration::from_secs(3), "{took:?}");
    drop(writer);
    assert!(!dir.join("board-02").exists());
}

#[test]
fn move_never_overwrites_unasked_nor_through_a_link() {
    let dir = scratch_dir("move-safe");
    let first = dir.join("game-01");
    let next = dir.join("game-02");
    std::fs::write(&first, start_board()).unwrap();
    // An existing next file stays as it was without --force, and is replaced with it.
    std::fs::write(&next, "precious\n").unwrap();
    let (ok, out, err) = emilia(&["move", first.to_str().unwrap(), "black", "0.05"]);
    assert!(!ok && err.contains("exists: give --force"), "{err}");
    assert_eq!(out, "");
    assert_eq!(std::fs::read_to_string(&next).unwrap(), "precious\n");
    let (ok, out, err) = emilia(&["move", first.to_str().unwrap(), "black", "0.05", "--force"]);
    assert!(ok, "{err}");
    let mv: Move = out.trim().parse().unwrap();
    let after = Position::start(8).unwrap().play(mv).unwrap();
    assert_eq!(std::fs::read_to_string(&next).unwrap(), board_file(&after));
    // A link in the next file's place: neither it nor its target is touched, even with
    // --force.
    let target = dir.join("target.txt");
    std::fs::write(&target, "precious\n").unwrap();
    std::fs::remove_file(&next).unwrap();
    std::os::unix::fs::symlink(&target, &next).unwrap();
    for force in [false, true] {
        let mut args = vec!["move", first.to_str().unwrap(), "black", "0.05"];
        if force {
            args.push("--force");
        }
        let (ok, _, err) = emilia(&args);
        assert!(!ok && err.contains("symbolic link"), "{err}");
        assert_eq!(std::fs::read_to_string(&target).unwrap(), "precious\n");
        assert!(std::fs::symlink_metadata(&next).unwrap().is_symlink());
    }
    // A dangling link too: it would have created its target.
    std::fs::remove_file(&target).unwrap();
    let (ok, _, err) = emilia(&["move", first.to_str().unwrap(), "black", "0.05"]);
    assert!(!ok && err.contains("symbolic link"), "{err}");
    assert!(!target.exists());
    // No temporary file is left behind.
    let names: Vec<String> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    assert!(names.iter().all(|n| !n.contains("tmp")), "{names:?}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn move_refuses_huge_board_files_and_numbers_that_overflow() {
    let dir = scratch_dir("move-limits");
    // A link to an endless device is not read at all.
    let zero = dir.join("zero-1");
    std::os::unix::fs::symlink("/dev/zero", &zero).unwrap();
    let (ok, _, err) = emilia_in_1gib(&["move", zero.to_str().unwrap(), "black", "0.05"]);
    assert!(!ok && err.contains("a character device"), "{err}");
    // A pipe that gives more than a board file can hold is read no further.
    let pipe = dir.join("pipe-1");
    mkfifo(&pipe);
    let writer = {
        let pipe = pipe.clone();
        std::thread::spawn(move || {
            use std::io::Write;
            // Ends with an error when the reader has gone: what a flood's writer sees.
            let mut file = std::fs::OpenOptions::new().write(true).open(pipe).unwrap();
            let _ = file.write_all(&[b'-'; 70_000]);
        })
    };
    let (code, _, err) = session_within(
        &["move", pipe.to_str().unwrap(), "black", "2"],
        "",
        Duration::from_secs(20),
    );
    assert!(
        code == Some(2) && err.contains("larger than 64 KiB"),
        "{err}"
    );
    writer.join().unwrap();
    let big = dir.join("big-1");
    std::fs::write(&big, format!("{}{}", start_board(), "#".repeat(70_000))).unwrap();
    let (ok, _, err) = emilia(&["move", big.to_str().unwrap(), "black", "0.05"]);
    assert!(!ok && err.contains("larger than 64 KiB"), "{err}");
    // The largest number that counts on, and the first that does not.
    let below = dir.join(format!("g-{}", u128::MAX - 1));
    std::fs::write(&below, start_board()).unwrap();
    let (ok, _, err) = emilia(&["move", below.to_str().unwrap(), "black", "0.05"]);
    assert!(ok, "{err}");
    let last = dir.join(format!("g-{}", u128::MAX));
    assert!(last.exists());
    let (ok, _, err) = emilia(&["move", last.to_str().unwrap(), "white", "0.05"]);
    assert!(!ok && err.contains("too large"), "{err}");
    assert!(!err.contains("panicked"), "{err}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// The first move `emilia --player random --seed S` chooses in the protocol.
fn random_players_first_move(seed: &str) -> String {
    let mut session = Emilia::start(&["--player", "random", "--seed", seed]);
    let reply = session.ok("genmove black");
    let (status, _) = session.wait(Duration::from_secs(10));
    assert!(status.success());
    reply
}

#[test]
fn engine_options_before_a_subcommand_are_used_or_refused() {
    // `move` and `play` play as the player asked for: the same moves as the protocol's.
    let dir = scratch_dir("global-options");
    let mut moves = Vec::new();
    for seed in ["1", "2", "3", "4", "5", "6"] {
        let expected = random_players_first_move(seed);
        let first = dir.join(format!("seed{seed}-01"));
        std::fs::write(&first, start_board()).unwrap();
        let (ok, out, err) = emilia(&[
            "--player",
            "random",
            "--seed",
            seed,
            "move",
            first.to_str().unwrap(),
            "black",
            "0.05",
        ]);
        assert!(ok, "{err}");
        assert_eq!(out.trim(), expected, "seed {seed}");
        moves.push(expected);
    }
    moves.sort();
    moves.dedup();
    assert!(
        moves.len() > 1,
        "the seeds chose alike: the test proves nothing"
    );
    let mut session = Emilia::start(&[
        "--player", "random", "--seed", "3", "play", "--color", "white",
    ]);
    let played = loop {
        if let Some(mv) = session.line().strip_prefix("Emilia plays ") {
            break mv.split_whitespace().next().unwrap().to_string();
        }
    };
    assert_eq!(played, random_players_first_move("3"));
    drop(session);
    // Subcommands that have no use for them refuse them.
    for (args, hint) in [
        (vec!["perft", "3"], ""),
        (vec!["solve", "--help"], ""),
        (
            vec!["bench", "perft", "--depth", "3"],
            "emilia bench --help",
        ),
        (
            vec!["match", "--help"],
            "--engine \"emilia --player greedy\"",
        ),
        (vec!["tune", "--help"], ""),
        (vec!["train", "--help"], ""),
    ] {
        let mut all = vec!["--player", "random", "--seed", "1"];
        all.extend(&args);
        let (ok, out, err) = emilia(&all);
        assert!(!ok, "{args:?} took --player: {out}");
        assert!(
            err.contains("--player sets the engine of the protocol session, `play` and `move`"),
            "{err}"
        );
        assert!(err.contains(hint), "{err}");
        assert_eq!(out, "");
    }
    let (ok, _, err) = emilia(&["--eval", "classic", "perft", "2"]);
    assert!(!ok && err.contains("--eval sets the engine"), "{err}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// `emilia train` replaces its output only when asked, and `--size` takes the options of
/// its own fit only; a fit of 6x6 games writes weights the engine then plays 6x6 with.
#[test]
fn train_on_other_sizes_and_never_overwrite_unasked() {
    let dir = scratch_dir("train");
    let games = dir.join("six");
    let games = games.to_str().unwrap();
    let (ok, _, err) = emilia(&[
        "selfplay",
        "--size",
        "6",
        "--out",
        games,
        "--games",
        "30",
        "--depth",
        "1",
        "--solve",
        "10",
        "--threads",
        "1",
    ]);
    assert!(ok, "{err}");
    let out = dir.join("six.weights");
    let out = out.to_str().unwrap();
    std::fs::write(out, "keep me").unwrap();
    let train = [
        "train",
        "--size",
        "6",
        "--selfplay",
        games,
        "--out",
        out,
        "--iterations",
        "10",
    ];
    let (ok, _, err) = emilia(&train);
    assert!(!ok && err.contains("--force"), "{err}");
    assert_eq!(std::fs::read_to_string(out).unwrap(), "keep me");
    let (ok, _, err) = emilia(&[&train[..], &["--games", games]].concat());
    assert!(!ok && err.contains("--games"), "{err}");
    let (ok, text, err) = emilia(&[&train[..], &["--force"]].concat());
    assert!(ok, "{err}");
    assert!(text.contains("held-out positions"), "{text}");
    // The engine plays 6x6 with the weights it was given.
    let mut engine = Emilia::start(&["--weights", out]);
    engine.ok("boardsize 6");
    let reply = engine.ok("genmove black depth 3");
    assert!(
        ["b3", "c2", "d5", "e4"].contains(&reply.as_str()),
        "{reply}"
    );
    engine.close_stdin();
    assert!(engine.wait(Duration::from_secs(10)).0.success());
    // 8x8 training refuses an existing output too.
    let (ok, _, err) = emilia(&["train", "--selfplay", games, "--out", out]);
    assert!(
        !ok && (err.contains("--force") || err.contains("6x6")),
        "{err}"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

/// `bench ffo`'s positions are #40 to #49 of the FFO suite the core's tests check.
#[test]
fn the_benchmark_ships_positions_40_to_49_of_the_suite() {
    let root = env!("CARGO_MANIFEST_DIR");
    let shipped = std::fs::read_to_string(format!("{root}/data/ffo-40-49.obf")).unwrap();
    let suite = format!("{root}/crates/emilia-core/tests/data/ffo/fforum-40-59.obf");
    let suite = std::fs::read_to_string(suite).unwrap();
    let first_ten: Vec<&str> = suite.lines().take(10).collect();
    assert_eq!(shipped.lines().collect::<Vec<_>>(), first_ten);
}

#[test]
fn bench_replay_searches_along_its_games_the_same_way_every_time() {
    let run = || {
        let (ok, out, err) = emilia(&["bench", "replay", "--depth", "3"]);
        assert!(ok, "{err}");
        out
    };
    let out = run();
    let games: Vec<&str> = out.lines().filter(|l| l.starts_with("replay ")).collect();
    assert_eq!(games.len(), 21, "{out}");
    // Black moves at every even count of empties from 52 to 22 in these games.
    for line in &games[..20] {
        assert!(line.contains(": 16 searches to depth 3,"), "{line}");
    }
    assert!(
        games[20].starts_with("replay total: 320 searches, "),
        "{out}"
    );
    let nodes = |out: &str| {
        let total = out.lines().last().unwrap().to_string();
        let nodes = total.split(", ").nth(1).unwrap();
        nodes.split(' ').next().unwrap().parse::<u64>().unwrap()
    };
    assert_eq!(nodes(&out), nodes(&run()), "one thread searches alike");
}

/// The core's example `solve_twenty` (which checks FFO #40's published +38 by a2) and
/// `emilia solve` give the same value for the same position.
#[test]
fn solve_agrees_with_the_cores_example_solve() {
    let example = format!(
        "{}/crates/emilia-core/examples/solve_twenty.rs",
        env!("CARGO_MANIFEST_DIR")
    );
    let source = std::fs::read_to_string(example).unwrap();
    let squares = source.split('"').nth(1).unwrap();
    assert!(source.contains("(\"a2\".parse()?, 38)"), "{source}");
    let (ok, out, err) = emilia(&["solve", squares, "X", "--threads", "1"]);
    assert!(ok, "{out}{err}");
    // `#  empties  move  score  nodes ...`: the position's row.
    let row: Vec<&str> = out
        .lines()
        .find(|l| l.trim_start().starts_with("1 "))
        .unwrap_or_else(|| panic!("{out}"))
        .split_whitespace()
        .collect();
    assert_eq!(row[1..4], ["20", "a2", "+38"], "{out}");
}

#[test]
fn solve_proves_outcomes_that_agree_with_exact_scores() {
    let file = format!(
        "{}/crates/emilia-core/tests/data/endgames/eg_13_14_sample.txt",
        env!("CARGO_MANIFEST_DIR")
    );
    let column = |text: &str| -> Vec<String> {
        text.lines()
            .filter(|l| l.trim_start().starts_with(|c: char| c.is_ascii_digit()))
            .map(|l| l.split_whitespace().nth(3).unwrap().to_string())
            .collect()
    };
    let (ok, exact, _) = emilia(&["solve", "--endgames", &file, "--threads", "1"]);
    assert!(ok, "{exact}");
    let (ok, outcome, _) = emilia(&["solve", "--endgames", &file, "--outcome", "--threads", "1"]);
    assert!(ok, "{outcome}");
    let (exact, outcome) = (column(&exact), column(&outcome));
    assert_eq!(exact.len(), 12);
    assert_eq!(outcome.len(), 12);
    for (score, said) in exact.iter().zip(&outcome) {
        let score: i32 = score.parse().unwrap();
        let expected = ["loss", "draw", "win"][(score.signum() + 1) as usize];
        assert_eq!(said, expected);
    }
    assert!(outcome.iter().any(|s| s == "loss") && outcome.iter().any(|s| s == "win"));
}

/// An engine option before a subcommand is refused, and where the subcommand takes a flag
/// of that name (its `--help` names it), the refusal shows that flag after the subcommand.
#[test]
fn engine_options_before_a_subcommand_point_to_its_own_flags() {
    let values = [
        ("hash", "16"),
        ("threads", "1"),
        ("ponder", "off"),
        ("eval", "classic"),
        ("probcut", "5"),
        ("mpc", "on"),
        ("weights", "builtin"),
        ("depth", "3"),
        ("movetime", "100"),
        ("nodes", "1000"),
        ("player", "greedy"),
        ("seed", "1"),
        ("book", "off"),
        ("book_randomness", "0"),
    ];
    let commands = [
        "perft", "bench", "book", "solve", "tune", "match", "train", "analyze", "selfplay",
    ];
    let mut own = 0;
    for command in commands {
        let (ok, help, _) = emilia(&[command, "--help"]);
        assert!(ok, "{command} --help");
        for (name, value) in values {
            let flag = format!("--{name}");
            // Not counting the engine command lines of examples ("emilia --player greedy").
            let has_flag = help
                .replace("emilia --", "")
                .split(|c: char| !(c.is_ascii_alphanumeric() || c == '-' || c == '_'))
                .any(|word| word == flag);
            let (ok, out, err) = emilia(&[&flag, value, command, "--help"]);
            assert!(!ok && out.is_empty(), "{flag} before {command}: {out}");
            let pointer = format!("emilia {command} ... {flag} {value}");
            assert_eq!(
                err.contains(&pointer),
                has_flag,
                "{flag} before {command}: {err}"
            );
            assert!(
                err.contains("sets the engine of the protocol session"),
                "{err}"
            );
            own += usize::from(has_flag);
        }
    }
    assert!(own >= 10, "too few own flags found: the test proves little");
}

#[test]
fn board_files_refuse_the_mark_of_a_legal_move() {
    let dir = scratch_dir("star");
    let first = dir.join("game-01");
    // The start as showboard draws it, legal moves marked, pasted into a board file.
    let marked = "........\n........\n...*....\n..*OX...\n...XO*..\n....*...\n........\n........\n";
    std::fs::write(&first, marked).unwrap();
    let (ok, out, err) = emilia(&["move", first.to_str().unwrap(), "black", "0.1"]);
    assert!(!ok && out.is_empty(), "{out}");
    assert!(
        err.contains("row 3, square 4: '*' is no disc: showboard and play draw it on a legal move"),
        "{err}"
    );
    assert!(!dir.join("game-02").exists());
    std::fs::write(&first, marked.replace('*', ".")).unwrap();
    let (ok, out, err) = emilia(&["move", first.to_str().unwrap(), "black", "0.1"]);
    assert!(ok, "{err}");
    assert!(["d3", "c4", "f5", "e6"].contains(&out.trim()), "{out}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// `emilia` alone with a terminal on standard input says on stderr how to go on; with a
/// pipe it says nothing; stdout carries only the protocol's replies either way.
#[test]
fn a_person_at_a_terminal_is_told_how_to_start_and_leave() {
    use std::io::Write;
    use std::os::fd::FromRawFd;
    use std::process::Stdio;
    let (mut controller, mut terminal) = (0, 0);
    // SAFETY: openpty writes two new descriptors into the integers given.
    let opened = unsafe {
        libc::openpty(
            &mut controller,
            &mut terminal,
            std::ptr::null_mut(),
            std::ptr::null(),
            std::ptr::null(),
        )
    };
    assert_eq!(opened, 0, "no pseudo-terminal");
    // SAFETY: both descriptors are new and owned here alone.
    let (mut controller, terminal) = unsafe {
        (
            std::fs::File::from_raw_fd(controller),
            Stdio::from_raw_fd(terminal),
        )
    };
    let child = Command::new(env!("CARGO_BIN_EXE_emilia"))
        .stdin(terminal)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    controller.write_all(b"name\nquit\n").unwrap();
    let output = child.wait_with_output().unwrap();
    let err = String::from_utf8_lossy(&output.stderr);
    assert_eq!(String::from_utf8_lossy(&output.stdout), "= Emilia\n\n=\n\n");
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(err.contains("type help") && err.contains("quit"), "{err}");
    let (ok, out, err) = {
        let output = Command::new(env!("CARGO_BIN_EXE_emilia"))
            .stdin(Stdio::null())
            .output()
            .unwrap();
        (
            output.status.success(),
            String::from_utf8_lossy(&output.stdout).into_owned(),
            String::from_utf8_lossy(&output.stderr).into_owned(),
        )
    };
    assert!(ok && out.is_empty() && err.is_empty(), "{out}{err}");
}

/// Runs `emilia args` with `input` on stdin, at most 1 GiB of address space and `timeout`
/// (then killed): the exit code (`None` when killed or aborted), stdout and stderr.
fn session_within(args: &[&str], input: &str, timeout: Duration) -> (Option<i32>, String, String) {
    use std::io::{Read, Write};
    use std::process::Stdio;
    let mut command = Command::new(env!("CARGO_BIN_EXE_emilia"));
    command
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    common::limit_address_space(&mut command, 1 << 30);
    let mut child = command.spawn().expect("emilia runs");
    let mut stdin = child.stdin.take().unwrap();
    let _ = stdin.write_all(input.as_bytes());
    drop(stdin);
    let start = std::time::Instant::now();
    let status = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break Some(status);
        }
        if start.elapsed() > timeout {
            let _ = child.kill();
            let _ = child.wait();
            break None;
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    let mut out = String::new();
    let mut err = String::new();
    child
        .stdout
        .take()
        .unwrap()
        .read_to_string(&mut out)
        .unwrap();
    child
        .stderr
        .take()
        .unwrap()
        .read_to_string(&mut err)
        .unwrap();
    (status.and_then(|s| s.code()), out, err)
}

fn mkfifo(path: &std::path::Path) {
    use std::os::unix::ffi::OsStrExt;
    let name = std::ffi::CString::new(path.as_os_str().as_bytes()).unwrap();
    // SAFETY: a plain system call with a valid path.
    assert_eq!(unsafe { libc::mkfifo(name.as_ptr(), 0o600) }, 0);
}

#[test]
fn book_weights_and_probcut_files_are_bounded_and_typed() {
    let dir = scratch_dir("engine-files");
    let fifo = dir.join("book-fifo");
    mkfifo(&fifo);
    let fifo = fifo.to_str().unwrap();
    let folder = dir.to_str().unwrap();
    // On the command line: refused, naming the file and what it is, without growing.
    for (option, what) in [
        ("--book", "book file /dev/zero"),
        ("--weights", "weights file /dev/zero"),
        ("--mpc", "ProbCut table /dev/zero"),
    ] {
        let (code, out, err) = session_within(&[option, "/dev/zero"], "", Duration::from_secs(20));
        assert_eq!(code, Some(2), "{option}: {out}{err}");
        assert!(
            err.contains(what) && err.contains("a character device"),
            "{option}: {err}"
        );
    }
    // In a session: each refused in its reply, the session going on; a FIFO without a
    // writer is read at once (empty), where opening it waited for a writer for ever.
    let input = format!(
        "setoption book /dev/zero\nsetoption weights /dev/zero\nsetoption mpc /dev/zero\n\
         setoption book {folder}\nsetoption book {fifo}\nname\nquit\n"
    );
    let (code, out, err) = session_within(&[], &input, Duration::from_secs(20));
    assert_eq!(code, Some(0), "{out}{err}");
    let replies: Vec<&str> = out.split("\n\n").filter(|r| !r.is_empty()).collect();
    assert_eq!(replies.len(), 7, "{out}");
    for (reply, words) in replies[..3].iter().zip(["book", "weights", "ProbCut"]) {
        assert!(
            reply.starts_with("? ") && reply.contains(words) && reply.contains("character device"),
            "{reply}"
        );
    }
    assert!(
        replies[3].starts_with("? ") && replies[3].contains("a directory"),
        "{}",
        replies[3]
    );
    assert!(replies[4].starts_with("? "), "{}", replies[4]);
    assert_eq!(replies[5], "= Emilia");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn match_openings_are_bounded_typed_and_may_start_with_a_bom() {
    let dir = scratch_dir("match-openings");
    let engine = env!("CARGO_BIN_EXE_emilia");
    let run = |openings: &str| {
        session_within(
            &[
                "match",
                "--engine",
                engine,
                "--engine",
                engine,
                "--openings",
                openings,
                "--games",
                "0",
            ],
            "",
            Duration::from_secs(20),
        )
    };
    let (code, _, err) = run("/dev/zero");
    assert_eq!(code, Some(2), "{err}");
    assert!(
        err.contains("openings file /dev/zero: a character device"),
        "{err}"
    );
    // A byte-order mark, as an editor may write one: the openings are read (and then
    // zero games are refused, which is what comes after reading them).
    let bom = dir.join("bom.txt");
    std::fs::write(&bom, "\u{feff}f5d6c3\nf5f6e6\n").unwrap();
    let (code, _, err) = run(bom.to_str().unwrap());
    assert_eq!(code, Some(2), "{err}");
    assert!(!err.contains("not a square"), "{err}");
    assert!(err.contains("at least 1"), "{err}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn board_files_are_whole_grids_and_may_start_with_a_bom() {
    let dir = scratch_dir("move-grid");
    let start = start_board();
    // An 8x8 board cut after 40 bytes holds 36 squares: not a 6x6 board.
    let cut = dir.join("cut-01");
    std::fs::write(&cut, &start.as_bytes()[..40]).unwrap();
    let (ok, out, err) = emilia(&["move", cut.to_str().unwrap(), "black", "0.05"]);
    assert!(!ok && out.is_empty(), "{out}{err}");
    assert!(
        err.contains("row 1 has 8 squares and the board 5 rows") && err.contains("whole grid"),
        "{err}"
    );
    assert!(!dir.join("cut-02").exists());
    // Rows of unequal length that add up to a board are refused too.
    let ragged = dir.join("ragged-01");
    let rows: Vec<&str> = start.lines().collect();
    std::fs::write(
        &ragged,
        format!(
            "{}{}\n{}\n",
            rows[..6].join("\n") + "\n",
            rows[6],
            &rows[7][..7]
        ) + "-",
    )
    .unwrap();
    let (ok, _, err) = emilia(&["move", ragged.to_str().unwrap(), "black", "0.05"]);
    assert!(!ok && err.contains("whole grid"), "{err}");
    // A byte-order mark before the first row is no square.
    let bom = dir.join("bom-01");
    std::fs::write(&bom, format!("\u{feff}{start}")).unwrap();
    let (ok, out, err) = emilia(&["move", bom.to_str().unwrap(), "black", "0.05"]);
    assert!(ok, "{err}");
    let mv: Move = out.trim().parse().unwrap();
    assert!(Position::start(8).unwrap().play(mv).is_ok());
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn more_timed_games_at_once_than_cores_are_warned_of() {
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    let many = (cores + 1).to_string();
    // Engines that cannot start: the warning comes before the match does.
    let run = |concurrency: &str| {
        session_within(
            &[
                "match",
                "--engine",
                "/nonexistent/a",
                "--engine",
                "/nonexistent/b",
                "--games",
                &many,
                "--concurrency",
                concurrency,
                "--st",
                "0.01",
            ],
            "",
            Duration::from_secs(30),
        )
    };
    let (_, _, err) = run(&many);
    assert!(
        err.contains(&format!(
            "warning: --concurrency {many}: {many} games at once on {cores} cores"
        )),
        "{err}"
    );
    let (_, _, err) = run("1");
    assert!(!err.contains("warning"), "{err}");
}

/// The README's first sentence on engine options names the subcommands that take them
/// before their name; every other subcommand refuses them there.
#[test]
fn the_readme_says_which_subcommands_take_engine_options_first() {
    let readme =
        std::fs::read_to_string(std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("README.md"))
            .unwrap();
    let options = readme
        .split("## Options")
        .nth(1)
        .expect("an Options section");
    let sentence = options
        .trim_start()
        .split(". ")
        .next()
        .unwrap()
        .replace('\n', " ");
    assert!(!sentence.contains("any subcommand"), "{sentence}");
    let commands = [
        "play", "move", "perft", "bench", "book", "solve", "tune", "match", "train", "analyze",
        "selfplay",
    ];
    for command in commands {
        let named = sentence.contains(&format!("`{command}`"));
        let (ok, _, err) = emilia(&["--threads", "1", command, "--help"]);
        assert_eq!(
            ok, named,
            "emilia --threads 1 {command}: README says {named}: {sentence}: {err}"
        );
    }
}
