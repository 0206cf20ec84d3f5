//! A 10x10 game: the engine at 50 ms a move against a random mover.
//!
//! `cargo run --release -p emilia-core --example random_mover`

use std::time::Duration;

use emilia_core::rng::Rng;
use emilia_core::{Color, Config, Engine, Game, Limits};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    // 64 MiB of tables; the opening book is 8x8 only, so on 10x10 every move is searched.
    let mut engine = Engine::new(Config::default())?;
    let mut rng = Rng::new(1);
    let limits = Limits {
        move_time: Some(Duration::from_millis(50)),
        ..Limits::default()
    };
    let mut game = Game::standard(10)?;
    // Black is the engine. The game asks for a move wherever a side can move, and passes
    // for a side that cannot; the random mover is never asked at the end of a game.
    game.play_out(|position| match position.to_move {
        Color::Black => Ok(engine.search(position, &limits, &mut |_| {}).best),
        Color::White => Ok(*rng.pick(&position.legal_moves()).ok_or("no legal move")?),
    })?;
    println!("{}", game.transcript());
    println!("{} (Black is the engine)", game.result());
    Ok(())
}
