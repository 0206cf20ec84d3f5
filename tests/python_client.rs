//! Runs the tests of the Python client (examples/emilia_client.py, standard library only)
//! against the real binary, so that `cargo test` covers the client that protocol users copy:
//! it must end, with an error, when the engine dies or stops answering. Where no `python3`
//! is installed the test says so on the terminal (not in captured output) and passes.

use std::io::Write;
use std::process::Command;

#[test]
fn python_client_ends_when_the_engine_dies() {
    let script =
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/python/test_client.py");
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
                "SKIPPED: python3 is not installed, so the Python client test did not run"
            );
            return;
        }
        Err(e) => panic!("running python3: {e}"),
    };
    let report = String::from_utf8_lossy(&output.stderr);
    assert!(
        output.status.success(),
        "the Python client failed:\n{report}"
    );
    assert!(report.contains("OK"), "{report}");
    assert!(!report.contains("skipped"), "{report}");
}
