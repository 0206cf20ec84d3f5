//! The exact solve of a 20-empty position: FFO #40, whose published value is +38 for
//! Black, by a2.
//!
//! `cargo run --release -p emilia-core --example solve_twenty`

use emilia_core::engine::Source;
use emilia_core::{Config, Engine, Limits, Position};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let squares = "O--OOOOX-OOOOOOXOOXXOOOXOOXOOOXXOOOOOOXX---OOOOX----O--X--------";
    let position = Position::from_parts(squares, "X")?;
    assert_eq!(position.empties(), 20);
    // No limits: the solve runs to the end; its report says whether it is exact.
    let mut engine = Engine::new(Config {
        hash_mib: 64,
        book: Source::Off,
        ..Config::default()
    })?;
    let report = engine.solve(&position, &Limits::default(), &mut |_| {});
    assert!(report.exact, "a solve without limits is exact");
    let published = ("a2".parse()?, 38);
    assert_eq!((report.best, report.score.whole_discs()), published);
    println!(
        "{} {:+} ({} nodes)",
        report.best,
        report.score.whole_discs(),
        report.nodes
    );
    Ok(())
}
