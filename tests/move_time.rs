//! `emilia move` counts its seconds from the start of the process, as a referee that times
//! the whole process does. A test binary of its own, so that no sibling test competes with
//! it for the processor.

use std::path::PathBuf;
use std::process::Command;
use std::time::{Duration, Instant};

#[test]
fn move_counts_its_seconds_from_the_start_of_the_process() {
    let dir: PathBuf =
        std::env::temp_dir().join(format!("emilia-move-time-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    // The quickest of three runs, so that a moment's load elsewhere does not decide.
    let seconds = 1.0;
    let quickest = (0..3)
        .map(|run| {
            let first = dir.join(format!("run{run}-01"));
            std::fs::write(
                &first,
                "--------\n--------\n--------\n---OX---\n---XO---\n--------\n--------\n--------\n",
            )
            .unwrap();
            let started = Instant::now();
            let output = Command::new(env!("CARGO_BIN_EXE_emilia"))
                .args(["move", first.to_str().unwrap(), "black", "1.0"])
                .output()
                .expect("emilia runs");
            let took = started.elapsed();
            assert!(
                output.status.success(),
                "{}",
                String::from_utf8_lossy(&output.stderr)
            );
            eprintln!("run {run}: {took:?}");
            took
        })
        .min()
        .unwrap();
    assert!(
        quickest < Duration::from_secs_f64(seconds),
        "the whole process took {quickest:?} of {seconds} s"
    );
    let _ = std::fs::remove_dir_all(&dir);
}
