//! Runs the Python referee (standard library only) against the real binary, so that
//! `cargo test` covers it. Skipped, saying so, only when no `python3` is installed.

mod common;

#[test]
fn python_referee_plays_two_emilias() {
    common::run_python_tests("test_referee.py", "Python referee");
}
