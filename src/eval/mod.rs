//! Static evaluation of positions.

pub mod pattern;
pub mod weights;
