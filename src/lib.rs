//! Emilia, an Othello (Reversi) engine.
//!
//! The crate is layered so that each part knows only the parts below it:
//! [`board`] holds the rules and notation; `memory` gives the search tables their memory; [`score`] is the unit every evaluation and search
//! counts in; [`rng`] is the one random generator; [`game`] records games and [`formats`]
//! reads and writes files of positions and games; [`perft`] counts game trees; [`eval`]
//! scores positions; [`endgame`] solves endgames exactly; [`search`] looks ahead and owns
//! the vocabulary of a search (its limits, clock and reports) and its time manager, which
//! the baseline players take too; [`engine`] is the persistent engine front-ends drive,
//! with its options; self-play, the protocol front-ends and [`cli`] sit on it; [`referee`]
//! runs matches between engine processes and [`train`] fits the pattern evaluation.
//!
//! The public items are what a library user needs (and the integration tests use): the
//! rules, formats, evaluations, solver, search, engine and referee. The command line's
//! one entry is [`cli::run`], which the `emilia` binary calls.

pub mod board;
pub mod book;
pub mod cli;
pub mod endgame;
pub mod engine;
pub mod eval;
pub mod formats;
pub mod frame;
pub mod game;
pub(crate) mod memory;
pub mod perft;
pub(crate) mod players;
pub(crate) mod protocol;
pub mod referee;
pub mod rng;
pub mod score;
pub mod search;
pub(crate) mod selfplay;
pub mod train;
