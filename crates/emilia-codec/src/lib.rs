//! The byte-level encodings that Emilia's core reads at run time and its build script
//! reads at build time: the framed file layout ([`frame`]), the weights file
//! ([`weights`]) and the opening book's record layout ([`book_layout`]). A crate of its
//! own, with no dependency, so that the build script and the core share one decoder.

pub mod book_layout;
pub mod frame;
pub mod weights;
