//! A depth-60 search of the 8x8 start, stopped from another thread after 100 ms: the
//! search returns the best move of its deepest finished iteration.
//!
//! `cargo run --release -p emilia-core --example stop_from_thread`

use std::thread;
use std::time::{Duration, Instant};

use emilia_core::engine::Source;
use emilia_core::{Config, Engine, Limits, Position};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    // Without the opening book, which would answer the start position at once.
    let mut engine = Engine::new(Config {
        hash_mib: 64,
        book: Source::Off,
        ..Config::default()
    })?;
    let stopper = engine.stopper();
    let start = Position::start(8)?;
    let limits = Limits {
        depth: Some(60),
        ..Limits::default()
    };
    let began = Instant::now();
    let report = thread::scope(|scope| {
        scope.spawn(|| {
            thread::sleep(Duration::from_millis(100));
            stopper.stop();
        });
        engine.search(&start, &limits, &mut |_| {})
    });
    let waited = began.elapsed();
    assert!(report.depth < 60 && start.legal_moves().contains(&report.best));
    println!(
        "stopped after {waited:?} at depth {}: {}",
        report.depth, report.best
    );
    Ok(())
}
