//! Every subcommand ends quietly when the reader of its output goes away
//! (`emilia perft 10 | head -2`): no panic, a clean exit.

mod common;

use std::io::{BufRead, BufReader};
use std::path::PathBuf;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use common::core_data_dir;

/// Runs `emilia args`, reads `lines` lines of its output, closes the output, and checks
/// that the process ends by itself, successfully, with no error on stderr.
fn ends_quietly(args: &[&str], lines: usize) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_emilia"))
        .args(args)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("emilia starts");
    let mut stdout = BufReader::new(child.stdout.take().unwrap());
    for _ in 0..lines {
        let mut line = String::new();
        stdout.read_line(&mut line).unwrap();
        assert!(!line.is_empty(), "{args:?} ended before {lines} lines");
    }
    drop(stdout);
    let deadline = Instant::now() + Duration::from_secs(60);
    let status = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break status;
        }
        if Instant::now() > deadline {
            let _ = child.kill();
            panic!("{args:?} still runs after its output was closed");
        }
        std::thread::sleep(Duration::from_millis(10));
    };
    let mut stderr = String::new();
    std::io::Read::read_to_string(&mut child.stderr.take().unwrap(), &mut stderr).unwrap();
    assert!(!stderr.contains("panicked"), "{args:?}: {stderr}");
    assert!(status.success(), "{args:?}: {status}: {stderr}");
    assert!(!stderr.contains("emilia: "), "{args:?}: {stderr}");
}

fn scratch_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("emilia-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

#[test]
fn help_and_version() {
    ends_quietly(&["--help"], 0);
    ends_quietly(&["help"], 0);
    ends_quietly(&["--version"], 0);
    for sub in [
        "perft", "solve", "bench", "match", "play", "move", "train", "tune", "selfplay",
    ] {
        ends_quietly(&[sub, "--help"], 0);
    }
}

#[test]
fn perft_solve_and_bench() {
    ends_quietly(&["perft", "10"], 1);
    let endgames = core_data_dir().join("endgames/eg_13_14_sample.txt");
    ends_quietly(&["solve", "--endgames", endgames.to_str().unwrap()], 1);
    ends_quietly(&["bench", "perft", "--depth", "8"], 0);
}

#[test]
fn play_and_move() {
    ends_quietly(&["play", "--time", "0.01"], 0);
    let dir = scratch_dir("closed-output");
    let board = "--------\n--------\n--------\n---OX---\n---XO---\n--------\n--------\n--------\n";
    let file = dir.join("game-01");
    std::fs::write(&file, board).unwrap();
    ends_quietly(&["move", file.to_str().unwrap(), "black", "0.05"], 0);
    // The move was made all the same.
    assert!(dir.join("game-02").exists());
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn match_train_and_tune() {
    let script = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/engines/fake_engine.py");
    let first = format!("python3 {script} --seed 1");
    let second = format!("python3 {script} --seed 2");
    ends_quietly(
        &[
            "match", "--engine", &first, "--engine", &second, "--games", "1", "--tc", "20",
        ],
        0,
    );
    ends_quietly(&["tune", "--games", "10", "--depth", "1"], 0);
    let dir = scratch_dir("closed-output-train");
    let games = core_data_dir().join("WTH_2003.wtb");
    let out = dir.join("w.weights");
    ends_quietly(
        &[
            "train",
            "--games",
            games.to_str().unwrap(),
            "--iterations",
            "1",
            "--solve",
            "0",
            "--out",
            out.to_str().unwrap(),
        ],
        0,
    );
    let _ = std::fs::remove_dir_all(&dir);
}
