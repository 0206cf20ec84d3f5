//! Emilia, an Othello (Reversi) engine.
//!
//! The crate is layered so that each part knows only the parts below it:
//! [`board`] holds the rules and notation; [`formats`] reads files of positions and games;
//! [`perft`] counts game trees; [`engine`] is the persistent engine front-ends drive;
//! [`cli`] is the command line.

pub mod board;
pub mod cli;
pub mod engine;
pub mod eval;
pub mod formats;
pub mod perft;
pub mod train;
