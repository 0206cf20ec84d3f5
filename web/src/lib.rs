//! Emilia in the browser: the rules and the engine of the `emilia` program compiled to
//! WebAssembly for a web page (and Node), through wasm-bindgen.
//!
//! - [`WebGame`]: a game record on the page's side (legal moves, play, passes, undo and
//!   redo, the result, transcript and GGF export), read from the protocol's formats.
//! - [`WebEngine`]: the engine, single-threaded, in a Web Worker: a search for the move to
//!   play and the values of every legal move, each reporting every finished iteration.
//! - [`bench_midgame`]: `emilia bench midgame` with the same positions and lines.
//!
//! Results cross to JavaScript as JSON text (one small writer, [`json`]), which the page
//! reads with `JSON.parse`: no serialisation crate is needed for a few flat records.

mod bench;
mod engine;
mod game;
mod json;

pub use bench::bench_midgame;
pub use engine::{Listener, WebEngine};
pub use game::WebGame;

/// Gives the engine its clocks when the module starts: `performance.now()` to time its
/// searches and `Date.now()` to date exported games (WebAssembly has no clock of its own).
#[cfg(all(target_arch = "wasm32", target_os = "unknown"))]
#[wasm_bindgen::prelude::wasm_bindgen(start)]
pub fn start() {
    emilia::platform::set_clock(clock::performance_now);
    emilia::platform::set_wall_clock(clock::date_now);
}

#[cfg(all(target_arch = "wasm32", target_os = "unknown"))]
mod clock {
    use wasm_bindgen::prelude::*;

    #[wasm_bindgen]
    extern "C" {
        #[wasm_bindgen(js_namespace = performance, js_name = now)]
        pub(crate) fn performance_now() -> f64;
        #[wasm_bindgen(js_namespace = Date, js_name = now)]
        pub(crate) fn date_now() -> f64;
    }
}
