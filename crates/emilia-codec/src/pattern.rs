//! The pattern evaluation's layout, which knows no board: the board symmetries
//! ([`symmetry`]), the pattern shapes and their instances ([`shapes`]), and where each
//! weight lives in the full tables and in the dense weights of a file ([`layout`]). The
//! core reads positions through it, and its build script lays the shipped weights out
//! into the full tables with it.

pub mod layout;
pub mod shapes;
pub mod symmetry;
