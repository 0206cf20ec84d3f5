//! The book builder: makes an opening book from game records ([`build`]), scores it with
//! the engine's searches ([`deepen`]), grows it where play leaves it ([`expand`]), checks
//! its values against fresh searches ([`verify`]) and measures how far games stay in it
//! ([`coverage`]). Play reads books through the core's `book` module.

pub(crate) mod build;
pub(crate) mod coverage;
pub(crate) mod deepen;
pub(crate) mod expand;
pub(crate) mod games;
pub(crate) mod verify;

#[cfg(test)]
mod blunders;

#[cfg(test)]
use emilia_core::board::Board8;

/// The position after `moves` (squares 0 to 63) from the start, passing where the mover
/// has no move (the builder's tests).
#[cfg(test)]
fn after_moves(moves: &[usize]) -> Board8 {
    use emilia_core::board::Board;
    moves.iter().fold(Board8::START, |b, &m| {
        let b = if b.has_moves() { b } else { b.pass() };
        b.play(m)
    })
}
