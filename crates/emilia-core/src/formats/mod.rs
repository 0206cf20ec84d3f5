//! File formats for positions and games ([`game_text`] reads a game in any of its text
//! forms): readers that turn files written by other Othello
//! programs into this crate's types, with clear errors for damaged input, and the GGF
//! writer.

pub mod game_text;
pub mod ggf;
pub mod obf;
pub mod wthor;
