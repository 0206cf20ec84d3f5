//! Files of positions with exact values, for measuring the evaluation on positions that
//! come from elsewhere than the training games. One position a line:
//! `<64 squares: X Black, O White, - empty> <Black|White to move> <best move> <score>`, the
//! score being Black's final disc difference under perfect play.

use std::path::Path;

use anyhow::{anyhow, bail, Context, Result};

use emilia_core::board::Board8;

/// A position and its exact value for the side to move, in discs.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ExactPosition {
    /// The discs, side to move first.
    pub board: Board8,
    /// Final disc difference for the side to move under perfect play.
    pub value: i32,
}

/// Reads one line.
pub fn parse_line(line: &str) -> Result<ExactPosition> {
    let fields: Vec<&str> = line.split_whitespace().collect();
    let [squares, side, _best, score] = fields[..] else {
        bail!("expected '<squares> <Black|White> <best> <score>'");
    };
    if squares.len() != 64 {
        bail!("{} squares, expected 64", squares.len());
    }
    let (mut black, mut white) = (0u64, 0u64);
    for (i, c) in squares.bytes().enumerate() {
        match c {
            b'X' | b'x' | b'*' => black |= 1 << i,
            b'O' | b'o' => white |= 1 << i,
            b'-' | b'.' => {}
            _ => bail!("'{}' is no square content", c as char),
        }
    }
    let score: i32 = score
        .parse()
        .map_err(|_| anyhow!("'{score}' is no score"))?;
    match side.to_ascii_lowercase().as_str() {
        "black" | "x" => Ok(ExactPosition {
            board: Board8 {
                player: black,
                opponent: white,
            },
            value: score,
        }),
        "white" | "o" => Ok(ExactPosition {
            board: Board8 {
                player: white,
                opponent: black,
            },
            value: -score,
        }),
        _ => bail!("'{side}' is no side to move"),
    }
}

/// Reads a whole file.
pub fn read(path: &Path) -> Result<Vec<ExactPosition>> {
    let text = emilia_core::files::read_text(path, crate::files::POSITIONS)?;
    text.lines()
        .enumerate()
        .filter(|(_, line)| !line.trim().is_empty())
        .map(|(n, line)| parse_line(line).with_context(|| format!("{}:{}", path.display(), n + 1)))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_give_the_value_for_the_side_to_move() {
        let line = "----X------OXX-X-OOOOOX-OOOXOOOOOOXOOO--OOXOOO--XOXXXO--OOXXX--- Black 3 -28";
        let p = parse_line(line).unwrap();
        assert_eq!(p.value, -28);
        assert_eq!(p.board.player >> 4 & 1, 1);
        let white = line.replace("Black", "White");
        let q = parse_line(&white).unwrap();
        assert_eq!((q.value, q.board.opponent), (28, p.board.player));
        assert!(parse_line("XO Black 1 2").is_err());
        assert!(parse_line(&line.replace("Black", "Red")).is_err());
    }

    #[test]
    fn exact_results_at_21_and_22_empties_are_predicted_within_a_few_discs() {
        // Solved positions from outside the training games (independent data).
        let path = concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/crates/emilia-core/tests/data/endgames/eg_21_22.txt"
        );
        let positions = read(std::path::Path::new(path)).unwrap();
        assert!(positions.len() > 400);
        let eval = emilia_core::eval::pattern::PatternEval::load_embedded().unwrap();
        let (mut error, mut zero) = (0.0, 0.0);
        for p in &positions {
            error += (emilia_core::score::to_discs(eval.evaluate(&p.board)) - p.value as f64).abs();
            zero += (p.value as f64).abs();
        }
        let (mae, zero_mae) = (
            error / positions.len() as f64,
            zero / positions.len() as f64,
        );
        assert!(mae < 8.0, "mean absolute error {mae:.2} discs");
        assert!(
            mae < 0.5 * zero_mae,
            "{mae:.2} vs {zero_mae:.2} for always 0"
        );
    }
}
