//! File formats for positions and games: readers that turn files written by other Othello
//! programs into this crate's types, with clear errors for damaged input, and the GGF
//! writer.

pub mod ggf;
pub mod obf;
pub mod wthor;
