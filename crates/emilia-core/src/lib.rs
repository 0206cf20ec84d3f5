//! The core of Emilia, an Othello (Reversi) engine for boards of 6x6, 8x8, 10x10 and 12x12.
//!
//! This crate is what the `emilia` program and every other front-end play with: the rules
//! and their notations, an [`Engine`] that searches positions and keeps its
//! tables between moves and games, an exact endgame solver, and readers of the usual file
//! formats.
//!
//! # The main types
//!
//! The dozen an embedder starts with are re-exported here: [`Engine`], [`Config`],
//! [`Session`], [`Stopper`], [`Position`], [`Game`], [`Move`], [`Square`], [`Color`],
//! [`BoardSize`], [`Limits`], [`SearchReport`], [`Score`], [`Solver`] and [`Solution`].
//! By module:
//!
//! - [`board`]: [`Position`] (a board with the colour to move; read from a
//!   transcript or a board string, played on with [`Move`]s), [`Square`],
//!   [`Color`], and the [`Board`](board::Board) trait over the board types of
//!   every size.
//! - [`game`]: [`Game`], a game record with passes, undo, clocks and result.
//! - [`engine`]: [`Engine`], the persistent engine, set up with a typed
//!   [`Config`] (or named options, [`OPTIONS`](engine::OPTIONS)), stopped
//!   from any thread by its [`Stopper`]; [`Session`], the
//!   engine playing one game with its record and clocks.
//! - [`search`]: what a search is given and gives back: [`Limits`] (depth,
//!   level, time, clock, nodes), [`SearchReport`] (move, score, depth,
//!   principal variation) and [`MoveScore`](search::MoveScore).
//! - [`score`]: [`Score`], the unit of every evaluation and result
//!   (hundredths of a disc).
//! - [`endgame`]: the exact solver; [`eval`]: the evaluations an engine can use.
//! - [`files`]: every file the core reads, read with a size bound and a type check.
//! - [`formats`]: GGF games, OBF and endgame lists of positions, WTHOR databases;
//!   [`perft`] counts game trees; [`bench`](mod@bench) is the midgame benchmark, the
//!   engine's node-count fingerprint.
//! - [`platform`]: the clock and threads the core takes from the system (on WebAssembly the
//!   embedder gives the clock).
//!
//! Errors are typed: each fallible function returns its own error type (with `Display` and
//! `std::error::Error`), whose message says what was wrong with the input.
//!
//! # Examples
//!
//! A whole game between two engines of different depths is the crate's example
//! `examples/two_engines.rs` (`cargo run --release -p emilia-core --example two_engines`).
//! Below, set up a position, search it, read the result and play the move:
//!
//! ```
//! use emilia_core::engine::Source;
//! use emilia_core::{Color, Config, Engine, Limits, Position};
//!
//! # fn main() -> Result<(), Box<dyn std::error::Error>> {
//! // The 8x8 position after 1. f5 d6 c3, from its transcript.
//! let (position, _moves) = Position::start(8)?.play_transcript("f5d6c3")?;
//! assert_eq!(position.to_move, Color::White);
//!
//! // An engine with 16 MiB of tables, searching on one thread: `Engine::new` takes a
//! // `Config`, whose fields are every option. Its opening book (on by default) holds this
//! // position: the move comes from the book, and nothing is searched.
//! let config = Config {
//!     hash_mib: 16,
//!     threads: 1,
//!     ..Config::default()
//! };
//! let mut engine = Engine::new(config.clone())?;
//! let limits = Limits {
//!     depth: Some(8),
//!     ..Limits::default()
//! };
//! assert!(engine.search(&position, &limits, &mut |_| {}).book);
//!
//! // Without the book, the engine searches.
//! engine.configure(Config {
//!     book: Source::Off,
//!     ..config
//! })?;
//! let report = engine.search(&position, &limits, &mut |_iteration| {});
//! assert!(!report.book && position.legal_moves().contains(&report.best));
//! assert_eq!(report.depth, 8);
//! assert_eq!(report.pv.first(), Some(&report.best));
//! println!("{} scores {} discs for White", report.best, report.score);
//!
//! // The same board as a string of squares (`X` Black, `O` White, `-` empty) and the side to
//! // move; then the engine's move played on it.
//! let same = Position::from_parts(&position.squares_string(), "O")?;
//! assert_eq!(same, position);
//! let next = position.play(report.best)?;
//! assert_eq!(next.to_move, Color::Black);
//!
//! // Bad input is refused with the reason.
//! let err = Position::from_parts("X-O", "X").unwrap_err();
//! assert!(err.to_string().starts_with("board has 3 squares"), "{err}");
//! # Ok(())
//! # }
//! ```

pub use board::{BoardSize, Color, Move, Position, Square};
pub use endgame::{Solution, Solver};
pub use engine::{Config, Engine, Session, Stopper};
pub use game::Game;
pub use score::Score;
pub use search::{Limits, SearchReport};

pub mod bench;
pub mod board;
pub mod book;
pub mod endgame;
pub mod engine;
pub mod eval;
pub mod files;
pub mod formats;
use emilia_codec::frame;
pub mod game;
pub mod memory;
pub mod perft;
pub mod platform;
pub(crate) mod players;
pub mod rng;
pub mod score;
pub mod search;
pub mod setup;
pub mod training;
