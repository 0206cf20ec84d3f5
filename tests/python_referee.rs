//! Runs the Python referee (standard library only) against the real binary, so that
//! `cargo test` covers it. Skipped, saying so, only when no `python3` is installed.

use std::io::Write;
use std::process::Command;

#[test]
fn python_referee_plays_two_emilias() {
    let script =
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/python/test_referee.py");
    let output = match Command::new("python3")
        .arg(&script)
        .env("EMILIA", env!("CARGO_BIN_EXE_emilia"))
        .output()
    {
        Ok(output) => output,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            // Written past the test harness's capture, so that the skip shows.
            let _ = writeln!(
                std::io::stderr(),
                "SKIPPED: python3 is not installed, so the Python referee test did not run"
            );
            return;
        }
        Err(e) => panic!("running python3: {e}"),
    };
    let report = String::from_utf8_lossy(&output.stderr);
    assert!(
        output.status.success(),
        "the Python referee failed:\n{report}"
    );
    assert!(report.contains("OK"), "{report}");
}
