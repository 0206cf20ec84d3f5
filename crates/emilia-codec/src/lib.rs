//! The byte-level encodings that Emilia's core reads at run time and its build script
//! reads at build time: the framed file layout ([`frame`]), the weights file
//! ([`weights`]), the opening book's record layout ([`book_layout`]) and the pattern
//! evaluation's layout, by which the weights are laid out into full tables
//! ([`pattern`]). A crate of its own, with no dependency, so that the build script and
//! the core share one decoder and one layout.

pub mod book_layout;
pub mod frame;
pub mod pattern;
pub mod weights;
