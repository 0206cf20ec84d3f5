//! `emilia analyze` through the real binary: a WTHOR game valued move by move, its exact
//! end checked against the database's result, and the SVG chart opened in a real headless
//! browser where one is installed.

mod common;

use std::path::PathBuf;
use std::process::Command;

use common::core_data_dir;
use emilia_core::board::{Color, Position};
use emilia_core::formats::wthor::WthorFile;

fn emilia(args: &[&str]) -> (bool, String, String) {
    let output = Command::new(env!("CARGO_BIN_EXE_emilia"))
        .args(args)
        .output()
        .unwrap();
    (
        output.status.success(),
        String::from_utf8_lossy(&output.stdout).into_owned(),
        String::from_utf8_lossy(&output.stderr).into_owned(),
    )
}

fn scratch(name: &str) -> PathBuf {
    let path = std::env::temp_dir().join(format!("emilia-analyze-{}-{name}", std::process::id()));
    let _ = std::fs::remove_file(&path);
    path
}

/// The table rows of an analysis: ply, empties, mover, move, value, best, best value,
/// loss, kind, Black's value.
fn rows(report: &str) -> Vec<Vec<String>> {
    report
        .lines()
        .map(|l| l.split_whitespace().map(str::to_string).collect::<Vec<_>>())
        .filter(|w| w.len() == 10 && w[0].parse::<usize>().is_ok())
        .collect()
}

#[test]
fn a_wthor_game_is_valued_and_its_exact_end_is_the_recorded_result() {
    let wtb = core_data_dir().join("WTH_2003.wtb");
    let file = WthorFile::read(&wtb).unwrap();
    let record = &file.games[0];
    let svg = scratch("chart.svg");
    let (ok, out, err) = emilia(&[
        "analyze",
        wtb.to_str().unwrap(),
        "--game",
        "1",
        "--depth",
        "4",
        "--exact",
        "12",
        "--svg",
        svg.to_str().unwrap(),
    ]);
    assert!(ok, "{err}");
    let rows = rows(&out);
    assert_eq!(rows.len(), record.moves.len(), "{out}");
    for row in &rows {
        let value: f64 = row[4].parse().unwrap();
        let best: f64 = row[6].parse().unwrap();
        let loss: f64 = row[7].parse().unwrap();
        assert!(
            best >= value && (best - value - loss).abs() < 0.011,
            "{row:?}"
        );
    }
    // Perfect-play values can only fall for the side that moves: after a Black move,
    // Black's exact score is at most what it was before, after a White move at least.
    let exact: Vec<&Vec<String>> = rows.iter().filter(|r| r[8] == "exact").collect();
    assert!(exact.len() >= 12, "{out}");
    for pair in exact.windows(2) {
        let (before, after): (f64, f64) =
            (pair[0][9].parse().unwrap(), pair[1][9].parse().unwrap());
        match pair[1][2].as_str() {
            "black" => assert!(after <= before, "{pair:?}"),
            _ => assert!(after >= before, "{pair:?}"),
        }
    }
    // The last move's exact value is the game's result, as the database records it (its
    // disc count gives empty squares to the winner).
    let last = rows.last().unwrap();
    assert_eq!(last[8], "exact");
    let recorded = 2 * i32::from(record.black_discs) - 64;
    assert_eq!(
        last[9].parse::<f64>().unwrap(),
        f64::from(recorded),
        "{out}"
    );
    assert!(err.contains("analysed 1 of "), "{err}");
    // The chart exists; it is not replaced without --force.
    let chart = std::fs::read_to_string(&svg).unwrap();
    assert_eq!(chart.matches("<polyline").count(), 2, "searched and exact");
    let (ok, _, err) = emilia(&["analyze", "f5d6c3", "--svg", svg.to_str().unwrap()]);
    assert!(!ok && err.contains("--force"), "{err}");
    assert_eq!(std::fs::read_to_string(&svg).unwrap(), chart);
    opens_in_a_browser(&svg);
    std::fs::remove_file(&svg).unwrap();
}

/// Opens the chart in headless Chromium, where installed, and checks that the browser
/// parsed it as SVG and drew its lines; skipped, with a message, without Chromium.
fn opens_in_a_browser(svg: &std::path::Path) {
    let Some(browser) = ["chromium", "chromium-browser", "google-chrome"]
        .into_iter()
        .find(|b| Command::new(b).arg("--version").output().is_ok())
    else {
        eprintln!("no chromium installed: the chart is not opened in a browser");
        return;
    };
    let output = Command::new(browser)
        .args([
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--dump-dom",
            svg.to_str().unwrap(),
        ])
        .output()
        .unwrap();
    let dom = String::from_utf8_lossy(&output.stdout);
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    assert!(!dom.contains("parsererror"), "{dom}");
    assert!(dom.contains("<polyline") && dom.contains("</svg>"), "{dom}");
}

#[test]
fn transcripts_are_games_and_bad_input_is_refused() {
    let (ok, out, _) = emilia(&["analyze", "f5d6c3d3c4", "--depth", "2"]);
    assert!(ok);
    assert_eq!(rows(&out).len(), 5, "{out}");
    for (args, message) in [
        (
            vec!["analyze", "f5f5"],
            "neither a file nor a transcript of 8x8",
        ),
        (
            vec!["analyze", "f5", "--size", "7"],
            "--size 7: no 7x7 board: Emilia plays 6, 8, 10 and 12",
        ),
        (vec!["analyze", "f5", "--threads", "0"], "--threads 0"),
        (
            vec!["analyze", "f5", "--book", "no-such-book"],
            "--book no-such-book",
        ),
        (vec!["analyze"], "expected one game"),
        (vec!["analyze", "f5", "--depth", "0"], "--depth 0"),
        (vec!["analyze", "f5", "--frobnicate"], "unknown option"),
    ] {
        let (ok, _, err) = emilia(&args);
        assert!(!ok && err.contains(message), "{args:?}: {err}");
    }
}

/// The counts of discs after `transcript` from the start of `size`, as `analyze` reports
/// an unfinished game.
fn unfinished(size: usize, transcript: &str) -> String {
    let (position, _) = Position::start(size)
        .unwrap()
        .play_transcript(transcript)
        .unwrap();
    format!(
        "result: unfinished, discs Black {} White {}",
        position.count(Color::Black),
        position.count(Color::White)
    )
}

#[test]
fn book_values_say_so_and_the_book_and_threads_are_options() {
    let opening = "f5d6c3d3c4f4f6f3e6e7";
    let (ok, out, err) = emilia(&["analyze", opening, "--depth", "2", "--threads", "1"]);
    assert!(ok, "{err}");
    let booked = rows(&out);
    assert_eq!(booked.len(), 10, "{out}");
    assert!(booked.iter().all(|r| r[8] == "book"), "{out}");
    assert!(out.contains(&unfinished(8, opening)), "{out}");
    let (ok, out, err) = emilia(&["analyze", opening, "--depth", "2", "--book", "off"]);
    assert!(ok, "{err}");
    let searched = rows(&out);
    assert_eq!(searched.len(), 10, "{out}");
    assert!(searched.iter().all(|r| r[8] == "search"), "{out}");
    // A search to depth 2 and the book (built from deep searches) do not agree throughout.
    assert!(
        booked.iter().zip(&searched).any(|(b, s)| b[4] != s[4]),
        "{out}"
    );
    // Before the subcommand these options are the protocol engine's: the refusal shows
    // where analyze takes its own.
    let (ok, _, err) = emilia(&["--threads", "1", "analyze", opening]);
    assert!(!ok, "{err}");
    assert!(err.contains("emilia analyze ... --threads 1"), "{err}");
}

#[test]
fn transcripts_of_other_sizes_are_read_with_size() {
    // The first legal move twice over from the 10x10 start: no 8x8 game.
    let mut position = Position::start(10).unwrap();
    let mut transcript = String::new();
    for _ in 0..2 {
        let mv = position.legal_moves()[0];
        transcript.push_str(&mv.to_string());
        position = position.play(mv).unwrap();
    }
    let (ok, _, err) = emilia(&["analyze", &transcript, "--depth", "1"]);
    assert!(!ok && err.contains("of 8x8"), "{transcript}: {err}");
    let (ok, out, err) = emilia(&["analyze", &transcript, "--size", "10", "--depth", "2"]);
    assert!(ok, "{err}");
    assert_eq!(rows(&out).len(), 2, "{out}");
    assert!(out.contains(&unfinished(10, &transcript)), "{out}");
    assert!(out.lines().next() == Some(transcript.as_str()), "{out}");
}

/// The exit code and stderr of `emilia args` with at most 1 GiB of address space, so that a
/// runaway read fails fast instead of eating the machine's memory.
fn emilia_in_1gib(args: &[&str]) -> (Option<i32>, String) {
    let mut command = Command::new(env!("CARGO_BIN_EXE_emilia"));
    command.args(args);
    common::limit_address_space(&mut command, 1 << 30);
    let output = command.output().unwrap();
    (
        output.status.code(),
        String::from_utf8_lossy(&output.stderr).into_owned(),
    )
}

#[test]
fn game_files_are_bounded_typed_and_quoted_briefly() {
    let dir = scratch("bounded");
    std::fs::create_dir_all(&dir).unwrap();
    let file = |name: &str| dir.join(name).to_str().unwrap().to_string();
    // 10 MB of garbage on one line: a short message, not the line.
    std::fs::write(file("garbage.txt"), "z".repeat(10_000_000)).unwrap();
    // A sparse file of 1 TiB: refused from its size.
    std::fs::File::create(file("sparse.txt"))
        .unwrap()
        .set_len(1 << 40)
        .unwrap();
    for (path, words) in [
        (file("garbage.txt"), "is not a square"),
        (
            file("sparse.txt"),
            "larger than 64 MiB, the most a game file may hold",
        ),
        ("/dev/zero".to_string(), "/dev/zero: a character device"),
        (dir.to_str().unwrap().to_string(), "a directory"),
    ] {
        let (code, err) = emilia_in_1gib(&["analyze", &path, "--depth", "1"]);
        assert_eq!(code, Some(2), "{path}: {err}");
        assert!(err.contains(words), "{path}: {err}");
        assert!(err.len() < 1000, "{path}: {} bytes of message", err.len());
    }
    // A transcript on the command line is quoted briefly too.
    let long = "f5".repeat(5000);
    let (code, err) = emilia_in_1gib(&["analyze", &long]);
    assert_eq!(code, Some(2), "{err}");
    assert!(err.len() < 1000, "{} bytes of message", err.len());
    // A byte-order mark before a transcript is no square.
    std::fs::write(file("bom.txt"), "\u{feff}f5d6c3\n").unwrap();
    let (ok, out, err) = emilia(&["analyze", &file("bom.txt"), "--depth", "1", "--book", "off"]);
    assert!(ok, "{err}");
    assert_eq!(out.lines().next(), Some("f5d6c3"), "{out}");
    // A 10x10 transcript read as 8x8 says which size it is a game of.
    std::fs::write(file("ten.txt"), "g6\n").unwrap();
    let (ok, _, err) = emilia(&["analyze", &file("ten.txt"), "--depth", "1"]);
    assert!(!ok && err.contains("give --size 10"), "{err}");
    let _ = std::fs::remove_dir_all(&dir);
}
