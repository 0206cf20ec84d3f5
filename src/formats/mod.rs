//! File formats for positions and games.

pub mod obf;
