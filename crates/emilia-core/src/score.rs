//! Scores: how good a position is for the side to move, in hundredths of a disc of final
//! disc difference. Evaluations, searches and their reports all count in this unit; the
//! conversions between it and whole discs live here and nowhere else.
//!
//! Hot code (evaluations, the search) works on bare `i32` scores and converts exact results
//! with [`from_discs`]; what leaves the search ([`crate::search::SearchReport`]) carries a
//! [`Score`], which prints as discs.

use std::fmt;
use std::ops::Neg;

/// Score units in one disc.
const PER_DISC: i32 = 100;

/// The score of a final disc difference of `discs`: an exact result in score units.
#[inline(always)]
pub const fn from_discs(discs: i32) -> i32 {
    discs * PER_DISC
}

/// A score (or a spread of scores) in score units as discs, for fitting and reporting.
#[inline]
pub fn to_discs(score: impl Into<f64>) -> f64 {
    score.into() / f64::from(PER_DISC)
}

/// Discs (possibly fractional) in score units, unrounded: for weights fitted in discs.
#[inline]
pub fn discs_to_units(discs: f64) -> f64 {
    discs * f64::from(PER_DISC)
}

/// A score for the side to move, in hundredths of a disc. It prints as discs with a sign
/// and two decimals: `+1.25`, `-38.00`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Score(i32);

impl Score {
    /// A score of `hundredths` hundredths of a disc.
    pub const fn from_hundredths(hundredths: i32) -> Score {
        Score(hundredths)
    }

    /// The exact score of a final disc difference of `discs`.
    pub const fn from_discs(discs: i32) -> Score {
        Score(from_discs(discs))
    }

    /// The score in hundredths of a disc.
    pub const fn hundredths(self) -> i32 {
        self.0
    }

    /// The score in discs.
    pub fn discs(self) -> f64 {
        to_discs(self.0)
    }

    /// The whole discs of the score, rounded towards zero: the disc difference of an exact
    /// result.
    pub const fn whole_discs(self) -> i32 {
        self.0 / PER_DISC
    }
}

impl Neg for Score {
    type Output = Score;

    fn neg(self) -> Score {
        Score(-self.0)
    }
}

impl fmt::Display for Score {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let sign = if self.0 < 0 { '-' } else { '+' };
        let abs = self.0.unsigned_abs();
        let per_disc = PER_DISC.unsigned_abs();
        let text = format!("{sign}{}.{:02}", abs / per_disc, abs % per_disc);
        f.pad(&text)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scores_print_as_discs() {
        assert_eq!(Score::from_hundredths(125).to_string(), "+1.25");
        assert_eq!(Score::from_hundredths(-5).to_string(), "-0.05");
        assert_eq!(Score::from_hundredths(0).to_string(), "+0.00");
        assert_eq!(Score::from_discs(-38).to_string(), "-38.00");
        assert_eq!(format!("{:>7}", Score::from_hundredths(125)), "  +1.25");
    }

    #[test]
    fn discs_convert_both_ways() {
        assert_eq!(from_discs(12), 1200);
        assert_eq!(Score::from_discs(-4).whole_discs(), -4);
        assert_eq!(Score::from_hundredths(-399).whole_discs(), -3);
        assert!((Score::from_hundredths(-150).discs() + 1.5).abs() < 1e-12);
        assert!((discs_to_units(0.5) - 50.0).abs() < 1e-12);
        assert_eq!(-Score::from_discs(3), Score::from_discs(-3));
    }
}
