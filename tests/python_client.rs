//! Runs the tests of the Python client (examples/emilia_client.py, standard library only)
//! against the real binary, so that `cargo test` covers the client that protocol users copy:
//! it must end, with an error, when the engine dies or stops answering. Where no `python3`
//! is installed the test says so on the terminal (not in captured output) and passes.

mod common;

#[test]
fn python_client_ends_when_the_engine_dies() {
    if let Some(report) = common::run_python_tests("test_client.py", "Python client") {
        assert!(!report.contains("skipped"), "{report}");
    }
}
