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
