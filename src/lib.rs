//! Emilia, an Othello (Reversi) engine.
//!
//! The crate is layered so that each part knows only the parts below it:
//! [`board`] holds the rules and notation; [`formats`] reads files of positions and games;
//! [`perft`] counts game trees; [`endgame`] solves endgames exactly; [`eval`] scores positions; [`search`] looks ahead within
//! the budget of [`timeman`]; [`engine`] is the persistent engine front-ends drive;
//! [`selfplay`] plays in-process games; [`game`] records games; [`protocol`] serves the
//! text and NBoard protocols; [`cli`] is the command line.

pub mod board;
pub mod book;
pub mod cli;
pub mod endgame;
pub mod engine;
pub mod eval;
pub mod formats;
pub mod game;
pub mod perft;
pub mod players;
pub mod protocol;
pub mod referee;
pub mod search;
pub mod selfplay;
pub mod timeman;
pub mod train;
