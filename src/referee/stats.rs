//! Match statistics: the Elo difference that a score implies, with a 95% interval from the
//! score's standard error (normal approximation over the per-game results). A clean sweep
//! has no spread to measure; its interval uses the "rule of three" instead (with no loss in
//! n games, the loss rate is below 3/n at 95%).

/// An Elo difference with its 95% interval; infinite when every game went one way.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct Elo {
    /// The difference implied by the score.
    pub(crate) difference: f64,
    /// Lower end of the 95% interval.
    pub(crate) lower: f64,
    /// Upper end of the 95% interval.
    pub(crate) upper: f64,
}

/// The standard normal quantile for a two-sided 95% interval.
const Z95: f64 = 1.959_963_984_540_054;

/// The Elo difference that an expected score `score` (0 to 1) implies.
pub(crate) fn elo_of_score(score: f64) -> f64 {
    if score <= 0.0 {
        f64::NEG_INFINITY
    } else if score >= 1.0 {
        f64::INFINITY
    } else {
        -400.0 * (1.0 / score - 1.0).log10()
    }
}

/// The Elo difference of `wins`, `draws`, `losses` (from the first player's view) with its
/// 95% interval, or `None` without games.
pub(crate) fn elo(wins: u32, draws: u32, losses: u32) -> Option<Elo> {
    let n = f64::from(wins + draws + losses);
    if n == 0.0 {
        return None;
    }
    let (w, d, l) = (f64::from(wins), f64::from(draws), f64::from(losses));
    let score = (w + d / 2.0) / n;
    let variance = (w * (1.0 - score).powi(2) + d * (0.5 - score).powi(2) + l * score.powi(2)) / n;
    let error = (variance / n).sqrt();
    let (lower, upper) = if wins as f64 == n {
        (1.0 - 3.0 / n, 1.0)
    } else if losses as f64 == n {
        (0.0, 3.0 / n)
    } else {
        (score - Z95 * error, score + Z95 * error)
    };
    Some(Elo {
        difference: elo_of_score(score),
        lower: elo_of_score(lower),
        upper: elo_of_score(upper),
    })
}

/// An Elo value for reports: signed, one decimal, `+inf`/`-inf` at the ends.
pub(crate) fn format_elo(value: f64) -> String {
    if value.is_infinite() {
        if value > 0.0 { "+inf" } else { "-inf" }.to_string()
    } else {
        // Adding 0.0 turns -0.0 into 0.0, which would print as "-0.0".
        format!("{:+.1}", value + 0.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn known_scores_give_known_differences() {
        // A 75% score is 400·log10(3) ≈ 190.8 Elo; 50% is 0; the scale is antisymmetric.
        assert!((elo_of_score(0.75) - 190.848_501_887_865).abs() < 1e-9);
        assert_eq!(elo_of_score(0.5), 0.0);
        assert!((elo_of_score(0.25) + elo_of_score(0.75)).abs() < 1e-9);
        assert_eq!(elo_of_score(1.0), f64::INFINITY);
    }

    #[test]
    fn the_interval_follows_the_standard_error() {
        // 60 wins, 20 draws, 20 losses: score 0.7; per-game variance
        // (60·0.09 + 20·0.04 + 20·0.49)/100 = 0.16, standard error 0.04.
        let e = elo(60, 20, 20).unwrap();
        assert!((e.difference - elo_of_score(0.7)).abs() < 1e-9);
        assert!((e.lower - elo_of_score(0.7 - Z95 * 0.04)).abs() < 1e-9);
        assert!((e.upper - elo_of_score(0.7 + Z95 * 0.04)).abs() < 1e-9);
        assert!(e.lower < e.difference && e.difference < e.upper);
        // Even score with draws only: no uncertainty left in this sample.
        let even = elo(0, 10, 0).unwrap();
        assert_eq!((even.lower, even.difference, even.upper), (0.0, 0.0, 0.0));
        assert!(elo(0, 0, 0).is_none());
    }

    #[test]
    fn a_clean_sweep_is_infinite_with_a_finite_lower_end() {
        let e = elo(10, 0, 0).unwrap();
        assert_eq!(format_elo(e.difference), "+inf");
        assert!((e.lower - elo_of_score(0.7)).abs() < 1e-9);
        let e = elo(0, 0, 100).unwrap();
        assert!((e.upper - elo_of_score(0.03)).abs() < 1e-9);
        assert_eq!(e.lower, f64::NEG_INFINITY);
        let mixed = elo(99, 0, 1).unwrap();
        assert!(mixed.lower.is_finite() && mixed.upper.is_infinite());
        assert_eq!(format_elo(-3.04), "-3.0");
        assert_eq!(format_elo(-0.0), "+0.0");
    }
}
