//! Runs the Python package's tests (`python/test.sh`: a fresh virtual environment,
//! `pip install ./python` and pytest) against the binary under test, so that `cargo test`
//! covers the package too. Skipped, saying so, only when no `python3` is installed.

use std::io::Write;
use std::path::PathBuf;
use std::process::Command;

#[test]
fn the_python_package_passes_its_tests() {
    if Command::new("python3").arg("--version").output().is_err() {
        let _ = writeln!(
            std::io::stderr(),
            "SKIPPED: python3 is not installed, so the Python package's tests did not run"
        );
        return;
    }
    let script = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("python/test.sh");
    let output = Command::new("bash")
        .arg(&script)
        .env("EMILIA", env!("CARGO_BIN_EXE_emilia"))
        .output()
        .expect("running python/test.sh");
    let report = format!(
        "{}{}",
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    );
    assert!(
        output.status.success(),
        "the Python package's tests failed:\n{report}"
    );
    assert!(report.contains(" passed"), "{report}");
}
