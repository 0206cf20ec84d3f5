//! Emilia in the browser: the rules and the engine of the `emilia` program compiled to
//! WebAssembly for a web page (and Node), through wasm-bindgen.
//!
//! - [`WebGame`]: a game record on the page's side (legal moves, play, passes, undo and
//!   redo, the result, transcript and GGF export), read from the protocol's formats.
//! - [`WebEngine`]: the engine, single-threaded, in a Web Worker: a search for the move to
//!   play and the values of every legal move, each reporting every finished iteration.
//! - [`bench_midgame`]: `emilia bench midgame` with the same positions and lines.
//! - `supplyFile`: the weights and the book, which the module does not carry, handed over
//!   by the page as each is first needed.
//!
//! Results cross to JavaScript as JSON text (one small writer, [`json`]), which the page
//! reads with `JSON.parse`: no serialisation crate is needed for a few flat records.

mod args;
mod bench;
mod engine;
#[cfg(all(target_arch = "wasm32", target_os = "unknown"))]
mod files;
mod game;
mod json;

pub use bench::bench_midgame;
pub use engine::{Listener, WebEngine};
#[cfg(all(target_arch = "wasm32", target_os = "unknown"))]
pub use files::supply_file;
pub use game::WebGame;

/// Gives the engine its clocks when the module starts: `performance.now()` to time its
/// searches and `Date.now()` to date exported games (WebAssembly has no clock of its own);
/// and makes a panic a JavaScript error that says what went wrong.
#[cfg(all(target_arch = "wasm32", target_os = "unknown"))]
#[wasm_bindgen::prelude::wasm_bindgen(start)]
pub fn start() {
    emilia_core::platform::set_clock(clock::performance_now);
    emilia_core::platform::set_wall_clock(clock::date_now);
    std::panic::set_hook(Box::new(|info| {
        // Thrown as an error named for what it is, instead of the trap that follows a
        // panic ("RuntimeError: unreachable"). The module's memory is not to be trusted
        // after it: the worker that owns it is replaced (web/www/app.js).
        wasm_bindgen::throw_str(&format!("{PANIC_PREFIX}{info}"))
    }));
}

/// How the message of an error thrown by a panic starts: the page starts a new engine
/// after one.
pub const PANIC_PREFIX: &str = "emilia: internal error, the engine must be restarted: ";

/// Panics: what tests call to see what a panic does (an error carrying its message, and
/// on the page a new engine worker).
#[wasm_bindgen::prelude::wasm_bindgen(js_name = panicForTests)]
pub fn panic_for_tests() {
    panic!("a panic asked for by a test");
}

/// [`PANIC_PREFIX`] for JavaScript.
#[wasm_bindgen::prelude::wasm_bindgen(js_name = panicPrefix)]
pub fn panic_prefix() -> String {
    PANIC_PREFIX.to_string()
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
