//! Emilia, an Othello (Reversi) engine.
//!
//! The crate is layered so that each part knows only the parts below it:
//! [`board`] holds the rules and notation; [`perft`] counts game trees.

pub mod board;
pub mod cli;
pub mod engine;
pub mod eval;
pub mod perft;
