//! Two engines play a game of Othello in-process: one searching 4 plies, the other 8.
//!
//! `cargo run --release -p emilia-core --example two_engines`

use emilia_core::board::Color;
use emilia_core::engine::{Config, Engine, Source};
use emilia_core::game::Game;
use emilia_core::search::Limits;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    // Two engines, each with 16 MiB of tables and one thread, without the opening book.
    let config = Config {
        hash_mib: 16,
        threads: 1,
        book: Source::Off,
        ..Config::default()
    };
    let mut engines = [Engine::new(config.clone())?, Engine::new(config)?];
    let depths = [4, 8];
    let mut game = Game::standard(8).expect("8x8 is a board size");
    // The game asks for a move wherever a side can move, and passes for a side that cannot.
    game.play_out(|position| {
        let side = usize::from(position.to_move == Color::White);
        let limits = Limits {
            depth: Some(depths[side]),
            ..Limits::default()
        };
        let report = engines[side].search(position, &limits, &mut |_| {});
        println!(
            "{:?} plays {} ({} discs)",
            position.to_move, report.best, report.score
        );
        Ok(report.best)
    })?;
    println!("{}: {}", game.transcript(), game.result());
    Ok(())
}
