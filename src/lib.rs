//! The `emilia` program's library: what the program is made of around the engine. The
//! engine itself (rules, notations, file formats, evaluations, search, endgame solver, the
//! engine and its opening book) is the `emilia-core` crate, which this crate uses under its
//! own name (`emilia_core::...`). This crate adds the protocol front-ends, the command line,
//! the [`referee`] that plays matches between engine programs, self-play, training and the
//! book builder.

pub(crate) mod book_builder;
mod cli;
pub(crate) mod files;
pub(crate) mod ggs;
pub(crate) mod protocol;
pub mod referee;
pub(crate) mod selfplay;
pub(crate) mod train;

/// Runs the `emilia` command line `args` (without the program name) and returns the exit
/// code; `started` is when the process started. The `emilia` binary's one call: its tools
/// are built on the crate's internals, which are not part of the library.
#[doc(hidden)]
pub fn run_command_line(args: &[String], started: std::time::Instant) -> i32 {
    emilia_core::memory::fit_allocator_to_address_limit();
    cli::run(args, started)
}

#[cfg(test)]
mod what_cargo_test_runs {
    /// Says at the start of `cargo test` (the program's own unit tests run first) what the
    /// command runs and needs, and checks that README.md says it too.
    #[test]
    fn the_readme_says_what_cargo_test_runs_and_needs() {
        let readme = include_str!("../README.md");
        let needs = [
            "cargo test -p emilia-core",
            "network",
            "python3",
            "npm",
            "Chromium",
            "skipped",
        ];
        for needed in needs {
            assert!(
                readme.contains(needed),
                "README.md's cargo test does not name {needed}"
            );
        }
        // Straight to stderr: the test harness shows it even when the test passes.
        use std::io::Write;
        let _ = writeln!(
            std::io::stderr(),
            "cargo test: the program's and the core's Rust suites, then the Python package's \
             tests and the page's test in Chromium (README.md, Set up, says what they need); \
             from a fresh clone on two cores, about 7 minutes, most of it compiling"
        );
    }
}
