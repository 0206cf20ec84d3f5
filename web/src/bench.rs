//! `emilia bench midgame` in WebAssembly: the core's benchmark with the program's engine
//! settings and lines, so that the node counts of a fixed depth compare with the native
//! program's (211,270 at depth 12 on both).

use std::time::Duration;

use emilia_core::bench;
use emilia_core::engine::Source;
use emilia_core::search::Limits;
use emilia_core::{Config, Engine};
use wasm_bindgen::prelude::*;

use crate::engine::Listener;

/// Runs the benchmark to `depth` (if given) or for `seconds` a position, one thread, no
/// book, the default table; `line` gets each line of the output. Fails when the engine
/// cannot be made.
pub fn midgame(depth: Option<u32>, seconds: f64, line: &mut dyn FnMut(&str)) -> Result<(), String> {
    let mut engine = Engine::new(Config {
        threads: 1,
        book: Source::Off,
        ..Config::default()
    })
    .map_err(|e| e.to_string())?;
    let limits = match depth {
        Some(d) => Limits {
            depth: Some(d),
            ..Limits::default()
        },
        None => Limits {
            move_time: Some(Duration::from_secs_f64(seconds)),
            ..Limits::default()
        },
    };
    let mut run = bench::midgame(&mut engine, &limits);
    for result in &mut run {
        line(&result.to_string());
    }
    line(&run.total().to_string());
    Ok(())
}

/// [`midgame`] for JavaScript: `depth` 0 for a time limit of `seconds` a position.
#[wasm_bindgen(js_name = benchMidgame)]
pub fn bench_midgame(depth: u32, seconds: f64, line: &Listener) -> Result<(), String> {
    midgame((depth > 0).then_some(depth), seconds, &mut |text| {
        // A function that throws loses its lines; the benchmark runs on.
        let _ = line.tell(text);
    })
}
