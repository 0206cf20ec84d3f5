//! The front-ends for people and file-passing referees, through the real binary:
//! `emilia play`, `emilia move`, `--help` and `--version`.

mod common;

use std::path::PathBuf;
use std::process::Command;
use std::time::Duration;

use common::Emilia;
use emilia::board::{Move, Position};

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
