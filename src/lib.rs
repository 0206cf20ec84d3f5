//! Emilia, an Othello (Reversi) engine.
//!
//! The crate is layered so that each part knows only the parts below it:
//! [`board`] holds the rules and notation; [`score`] is the unit every evaluation and search
//! counts in; [`formats`] reads files of positions and games; [`perft`] counts game trees;
//! [`eval`] scores positions; [`endgame`] solves endgames exactly; [`search`] looks ahead,
//! and owns the vocabulary of a search (its limits, clock and reports), which [`timeman`]
//! turns into a budget and the baseline [`players`] take too; [`engine`] is the persistent
//! engine front-ends drive; [`game`] records games; [`selfplay`] plays in-process games;
//! [`protocol`] serves the text and NBoard protocols; [`referee`] runs matches between
//! engine processes; [`train`] fits the pattern evaluation; [`cli`] is the command line.

pub mod board;
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
pub mod rng;
pub mod score;
pub mod search;
pub mod selfplay;
pub mod train;
