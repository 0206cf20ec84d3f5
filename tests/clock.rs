//! Whole games on short clocks through `emilia bench clock`: two processes, a referee
//! counting wall time, `genmove <color> <ms>` every move. No game may be lost on time.
//! (100 ms games are in the benchmark's default set; on a machine loaded several times
//! over, process wake-ups alone can eat such a clock, so the test starts at 1 s.)

use std::process::Command;

/// The report of `emilia bench clock` with `args`, which must succeed.
fn bench_clock(args: &[&str]) -> String {
    let output = Command::new(env!("CARGO_BIN_EXE_emilia"))
        .args(["bench", "clock"])
        .args(args)
        .output()
        .expect("emilia runs");
    let report = String::from_utf8_lossy(&output.stdout).into_owned();
    let errors = String::from_utf8_lossy(&output.stderr);
    assert!(output.status.success(), "{report}\n{errors}");
    report
}

#[test]
fn short_clocks_are_never_lost_on_time() {
    let report = bench_clock(&["--clocks", "1000,3000", "--games", "1"]);
    assert!(report.contains("lost on time: 0 of 2 games"), "{report}");
    // Each game used most of its clock without running out.
    let games: Vec<&str> = report
        .lines()
        .filter(|l| l.trim_end().ends_with("yes"))
        .collect();
    assert_eq!(games.len(), 2, "{report}");
}

#[test]
fn clocks_with_an_increment_are_never_lost_on_time() {
    let report = bench_clock(&["--clocks", "500", "--increment", "20"]);
    assert!(report.contains("lost on time: 0 of 1 games"), "{report}");
    assert!(
        report.lines().any(|l| l.trim_start().starts_with("500+20")),
        "{report}"
    );
}
