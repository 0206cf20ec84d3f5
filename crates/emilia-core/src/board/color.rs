//! The two colours and their spellings.

use std::fmt;
use std::str::FromStr;

/// A player's colour. Black moves first.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Color {
    /// The first player, `X` in board strings.
    Black,
    /// The second player, `O` in board strings.
    White,
}

impl Color {
    /// The other colour.
    pub fn opponent(self) -> Color {
        match self {
            Color::Black => Color::White,
            Color::White => Color::Black,
        }
    }

    /// The character used in board strings: `X` or `O`.
    pub fn disc_char(self) -> char {
        match self {
            Color::Black => 'X',
            Color::White => 'O',
        }
    }

    /// Black 0, White 1: the colour's place in per-colour arrays.
    pub fn index(self) -> usize {
        match self {
            Color::Black => 0,
            Color::White => 1,
        }
    }

    /// `B` or `W`, as in scores such as `B+12` and in GGF.
    pub fn initial(self) -> char {
        match self {
            Color::Black => 'B',
            Color::White => 'W',
        }
    }
}

impl fmt::Display for Color {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Color::Black => "black",
            Color::White => "white",
        })
    }
}

/// Text that names no colour.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ColorError(pub String);

impl fmt::Display for ColorError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "'{}' is not a colour: expected black, b, X, white, w or O",
            self.0
        )
    }
}

impl std::error::Error for ColorError {}

impl FromStr for Color {
    type Err = ColorError;

    /// Accepts `black`, `b`, `X`, `*` and `white`, `w`, `O`, in any case.
    fn from_str(s: &str) -> Result<Color, ColorError> {
        match s.to_ascii_lowercase().as_str() {
            "black" | "b" | "x" | "*" => Ok(Color::Black),
            "white" | "w" | "o" => Ok(Color::White),
            _ => Err(ColorError(s.to_string())),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn colours_parse_in_every_spelling() {
        for s in ["black", "BLACK", "b", "B", "x", "X", "*"] {
            assert_eq!(s.parse::<Color>().unwrap(), Color::Black);
        }
        for s in ["white", "White", "w", "W", "o", "O"] {
            assert_eq!(s.parse::<Color>().unwrap(), Color::White);
        }
        for s in ["", "red", "0", "bl", "blacks"] {
            assert!(s.parse::<Color>().is_err(), "{s:?}");
        }
        assert_eq!(
            Color::Black.to_string().parse::<Color>().unwrap(),
            Color::Black
        );
        assert_eq!(Color::White.opponent(), Color::Black);
    }
}
