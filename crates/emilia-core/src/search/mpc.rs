//! Multi-ProbCut (Buro): a shallow search predicts a deep one, and the deep one is skipped
//! when the prediction lies far enough outside the window. How far is "far enough" comes
//! from a table measured by `emilia tune mpc`: for each stage of the game (empty squares)
//! and deep depth, the shallow depth used, the regression `deep ≈ slope × shallow +
//! intercept` of deep on shallow scores, and the standard deviation `sigma` of its error.
//! A node is cut when the shallow score puts the deep one more than `t × sigma` beyond the
//! window, `t` being the search's selectivity.
//!
//! The endgame part predicts the exact result (a search to the end of the game) from a
//! shallow search, for a selective search to the end before the exact solve; its results
//! are right with a probability set by `t` and are never reported as exact.
//!
//! # File format
//!
//! Text, one entry a line, built into the program from `crates/emilia-core/weights/emilia.mpc`:
//!
//! ```text
//! # comment lines start with '#'
//! crc32 1a2b3c4d
//! mid <empties from> <empties to> <depth> <shallow depth> <slope> <intercept> <sigma> <samples>
//! end <empties> <shallow depth> <slope> <intercept> <sigma> <samples>
//! ```
//!
//! Scores (intercept, sigma) are in hundredths of a disc. `samples` is the number of
//! positions the entry was measured on, 0 for an entry extrapolated from the measured ones.
//! The CRC-32 covers every line after its own (each with its newline), so a damaged or
//! edited table is refused.

use std::fmt::{self, Write as _};
use std::sync::OnceLock;

use crate::frame::crc32;

/// The table built into the program.
pub static EMBEDDED_TABLE: &str =
    include_str!(concat!(env!("CARGO_MANIFEST_DIR"), "/weights/emilia.mpc"));

/// Deepest depth the table holds; deeper searches use its deepest entry.
pub const MAX_DEPTH: u32 = 40;

/// Empty squares of a board, at most.
const MAX_EMPTIES: usize = 60;

/// Selectivity levels of the selective endgame search, in tenths of a standard deviation:
/// results right with probability 73, 87, 95, 98 and 99 %, as Edax's levels.
pub const LEVELS: [u32; 5] = [11, 15, 20, 23, 26];

/// The probability, in percent, that a normally distributed error stays within `t` tenths
/// of a standard deviation: how often a cut with selectivity `t` is right.
pub fn probability(t: u32) -> u32 {
    // erf(x / sqrt 2) by Abramowitz and Stegun 7.1.26 (error below 1.5e-7).
    let x = t as f64 / 10.0 / std::f64::consts::SQRT_2;
    let k = 1.0 / (1.0 + 0.327_591_1 * x);
    let poly = k
        * (0.254_829_592
            + k * (-0.284_496_736
                + k * (1.421_413_741 + k * (-1.453_152_027 + k * 1.061_405_429))));
    let erf = 1.0 - poly * (-x * x).exp();
    (100.0 * erf).round() as u32
}

/// One depth pair's regression.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Cut {
    /// Depth of the shallow search.
    pub shallow: u32,
    /// Deep score per shallow score.
    pub slope: f32,
    /// Deep score at shallow score 0, hundredths of a disc.
    pub intercept: f32,
    /// Standard deviation of the deep score around the prediction, hundredths of a disc.
    pub sigma: f32,
    /// Positions measured (0: extrapolated).
    pub samples: u32,
}

impl Cut {
    /// The shallow score at or above which the deep score is at least `beta` with
    /// selectivity `t` (tenths of a standard deviation).
    #[inline]
    pub fn high(&self, beta: i32, t: u32) -> i32 {
        let target = beta as f32 + self.sigma * t as f32 / 10.0;
        ((target - self.intercept) / self.slope).ceil() as i32
    }

    /// The shallow score at or below which the deep score is at most `alpha`.
    #[inline]
    pub fn low(&self, alpha: i32, t: u32) -> i32 {
        let target = alpha as f32 - self.sigma * t as f32 / 10.0;
        ((target - self.intercept) / self.slope).floor() as i32
    }
}

/// The shallow depth that predicts a search of `depth`: about half, with the same parity
/// (odd and even depths differ by a systematic amount), at least 1 when `depth` is odd.
pub fn shallow_depth(depth: u32) -> u32 {
    let half = depth / 2;
    if half % 2 == depth % 2 {
        half
    } else {
        half.saturating_sub(1).max(depth % 2)
    }
}

/// A Multi-ProbCut table: an entry for every number of empties and depth.
#[derive(Clone, Debug, PartialEq)]
pub struct Table {
    /// `mid[empties][depth]`.
    mid: Vec<Vec<Option<Cut>>>,
    /// `end[empties]`.
    end: Vec<Option<Cut>>,
    /// The entries as listed: `(empties from, empties to, depth)` or endgame `(e, e, 0)`.
    lines: Vec<Line>,
}

/// One line of the file.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Line {
    /// A midgame entry for `from..=to` empties and `depth`.
    Mid {
        /// Fewest empties the entry covers.
        from: u32,
        /// Most empties.
        to: u32,
        /// Deep depth.
        depth: u32,
        /// The regression.
        cut: Cut,
    },
    /// An endgame entry: the exact result at `empties` from a shallow search.
    End {
        /// Empty squares.
        empties: u32,
        /// The regression.
        cut: Cut,
    },
}

/// Why a Multi-ProbCut table was refused.
#[derive(Clone, Debug, PartialEq)]
pub enum TableError {
    /// No line but comments.
    Empty,
    /// The first line is no checksum.
    NoChecksum,
    /// The checksum does not match the lines.
    Damaged {
        /// The checksum of the lines.
        computed: u32,
        /// The checksum the file gives.
        stored: u32,
    },
    /// A line (numbered from 1) was refused.
    Line(usize, Box<TableError>),
    /// A line has the wrong fields.
    Fields,
    /// A field is no count.
    NoCount(String),
    /// A field is no number.
    NoNumber(String),
    /// A regression or intercept out of all reason.
    Implausible(String),
    /// A midgame entry outside the table: from, to (empty squares) and depth.
    MidRange(u32, u32, u32),
    /// A shallow depth not below the depth it predicts: shallow and deep.
    Shallow(u32, u32),
    /// An endgame entry outside the table (empty squares).
    EndRange(u32),
}

impl fmt::Display for TableError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TableError::Empty => f.write_str("empty table"),
            TableError::NoChecksum => f.write_str("the first line is not 'crc32 <hex>'"),
            TableError::Damaged { computed, stored } => write!(
                f,
                "the table is damaged: checksum {computed:08x}, the file says {stored:08x}"
            ),
            TableError::Line(n, e) => write!(f, "table line {n}: {e}"),
            TableError::Fields => f.write_str("expected 'mid' with 8 numbers or 'end' with 6"),
            TableError::NoCount(s) => write!(f, "'{s}' is no count"),
            TableError::NoNumber(s) => write!(f, "'{s}' is no number"),
            TableError::Implausible(what) => write!(f, "implausible {what}"),
            TableError::MidRange(from, to, depth) => {
                write!(f, "midgame entry {from}-{to} at depth {depth} out of range")
            }
            TableError::Shallow(shallow, depth) => {
                write!(f, "shallow depth {shallow} not below {depth}")
            }
            TableError::EndRange(empties) => {
                write!(f, "endgame entry at {empties} empties out of range")
            }
        }
    }
}

impl std::error::Error for TableError {}

impl Table {
    /// A table of the given entries; later lines take precedence where they overlap.
    pub fn new(lines: Vec<Line>) -> Result<Table, TableError> {
        let mut mid = vec![vec![None; MAX_DEPTH as usize + 1]; MAX_EMPTIES + 1];
        let mut end = vec![None; MAX_EMPTIES + 1];
        for line in &lines {
            match *line {
                Line::Mid {
                    from,
                    to,
                    depth,
                    cut,
                } => {
                    check(&cut)?;
                    if from > to || to as usize > MAX_EMPTIES || depth > MAX_DEPTH {
                        return Err(TableError::MidRange(from, to, depth));
                    }
                    if cut.shallow >= depth {
                        return Err(TableError::Shallow(cut.shallow, depth));
                    }
                    for row in &mut mid[from as usize..=to as usize] {
                        row[depth as usize] = Some(cut);
                    }
                }
                Line::End { empties, cut } => {
                    check(&cut)?;
                    if empties as usize > MAX_EMPTIES || cut.shallow >= empties {
                        return Err(TableError::EndRange(empties));
                    }
                    end[empties as usize] = Some(cut);
                }
            }
        }
        Ok(Table { mid, end, lines })
    }

    /// The entries, as given.
    pub fn lines(&self) -> &[Line] {
        &self.lines
    }

    /// The regression for a midgame search of `depth` at `empties` empty squares; depths
    /// past the table use its deepest entry.
    #[inline]
    pub fn mid(&self, empties: u32, depth: u32) -> Option<&Cut> {
        self.mid
            .get(empties as usize)?
            .get(depth.min(MAX_DEPTH) as usize)?
            .as_ref()
    }

    /// The regression of the exact result at `empties` empty squares.
    #[inline]
    pub fn end(&self, empties: u32) -> Option<&Cut> {
        self.end.get(empties as usize)?.as_ref()
    }

    /// Reads and checks a table file's text.
    pub fn parse(text: &str) -> Result<Table, TableError> {
        let mut lines = text.lines().enumerate().filter(|(_, l)| {
            let l = l.trim();
            !l.is_empty() && !l.starts_with('#')
        });
        let (_, crc_line) = lines.next().ok_or(TableError::Empty)?;
        let stored = crc_line
            .strip_prefix("crc32 ")
            .and_then(|hex| u32::from_str_radix(hex.trim(), 16).ok())
            .ok_or(TableError::NoChecksum)?;
        let body_start = text
            .find(crc_line)
            .map(|at| at + crc_line.len())
            .and_then(|at| text[at..].find('\n').map(|nl| at + nl + 1))
            .unwrap_or(text.len());
        let computed = crc32(&text.as_bytes()[body_start..]);
        if computed != stored {
            return Err(TableError::Damaged { computed, stored });
        }
        let mut entries = Vec::new();
        for (n, line) in lines {
            entries.push(parse_line(line).map_err(|e| TableError::Line(n + 1, Box::new(e)))?);
        }
        Table::new(entries)
    }

    /// The file's text, checksummed.
    pub fn to_text(&self, comment: &str) -> String {
        let mut body = String::new();
        for line in &self.lines {
            match line {
                Line::Mid {
                    from,
                    to,
                    depth,
                    cut,
                } => {
                    let _ = writeln!(
                        body,
                        "mid {from} {to} {depth} {} {:.4} {:.1} {:.1} {}",
                        cut.shallow, cut.slope, cut.intercept, cut.sigma, cut.samples
                    );
                }
                Line::End { empties, cut } => {
                    let _ = writeln!(
                        body,
                        "end {empties} {} {:.4} {:.1} {:.1} {}",
                        cut.shallow, cut.slope, cut.intercept, cut.sigma, cut.samples
                    );
                }
            }
        }
        let mut text = String::new();
        for line in comment.lines() {
            let _ = writeln!(text, "# {line}");
        }
        let _ = writeln!(text, "crc32 {:08x}", crc32(body.as_bytes()));
        text + &body
    }

    /// The built-in table, read once.
    pub fn embedded() -> &'static Table {
        static TABLE: OnceLock<Table> = OnceLock::new();
        crate::setup::once(&TABLE, || {
            Table::parse(EMBEDDED_TABLE).unwrap_or_else(|e| {
                log::error!("built-in Multi-ProbCut table: {e:#}; selective search is off");
                Table::new(Vec::new()).expect("an empty table")
            })
        })
    }
}

fn check(cut: &Cut) -> Result<(), TableError> {
    let plausible = (0.1..10.0).contains(&cut.slope) && (0.0..10_000.0).contains(&cut.sigma);
    if !plausible {
        return Err(TableError::Implausible(format!("regression {cut:?}")));
    }
    if !cut.intercept.is_finite() || cut.intercept.abs() > 10_000.0 {
        return Err(TableError::Implausible(format!(
            "intercept {}",
            cut.intercept
        )));
    }
    Ok(())
}

fn parse_line(line: &str) -> Result<Line, TableError> {
    let fields: Vec<&str> = line.split_whitespace().collect();
    let int = |s: &str| -> Result<u32, TableError> {
        s.parse().map_err(|_| TableError::NoCount(s.to_string()))
    };
    let real = |s: &str| -> Result<f32, TableError> {
        s.parse().map_err(|_| TableError::NoNumber(s.to_string()))
    };
    let cut = |f: &[&str]| -> Result<Cut, TableError> {
        Ok(Cut {
            shallow: int(f[0])?,
            slope: real(f[1])?,
            intercept: real(f[2])?,
            sigma: real(f[3])?,
            samples: int(f[4])?,
        })
    };
    match fields[..] {
        ["mid", from, to, depth, ref rest @ ..] if rest.len() == 5 => Ok(Line::Mid {
            from: int(from)?,
            to: int(to)?,
            depth: int(depth)?,
            cut: cut(rest)?,
        }),
        ["end", empties, ref rest @ ..] if rest.len() == 5 => Ok(Line::End {
            empties: int(empties)?,
            cut: cut(rest)?,
        }),
        _ => Err(TableError::Fields),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cut(shallow: u32, sigma: f32) -> Cut {
        Cut {
            shallow,
            slope: 1.0,
            intercept: 0.0,
            sigma,
            samples: 10,
        }
    }

    #[test]
    fn tables_round_trip_and_refuse_damage() {
        let table = Table::new(vec![
            Line::Mid {
                from: 20,
                to: 23,
                depth: 6,
                cut: cut(2, 310.5),
            },
            Line::End {
                empties: 18,
                cut: Cut {
                    slope: 1.05,
                    intercept: -12.5,
                    ..cut(4, 420.0)
                },
            },
        ])
        .unwrap();
        let text = table.to_text("test table");
        assert_eq!(Table::parse(&text).unwrap(), table);
        assert_eq!(table.mid(21, 6).unwrap().sigma, 310.5);
        assert!(table.mid(24, 6).is_none() && table.mid(21, 7).is_none());
        assert_eq!(table.end(18).unwrap().shallow, 4);
        let damaged = text.replace("310.5", "300.5");
        let err = Table::parse(&damaged).unwrap_err().to_string();
        assert!(err.contains("damaged"), "{err}");
        assert!(Table::parse("mid 1 2 3").is_err());
    }

    #[test]
    fn cut_bounds_follow_the_regression() {
        let c = Cut {
            slope: 0.5,
            intercept: 100.0,
            ..cut(2, 200.0)
        };
        // Deep ≥ beta + 1σ needs 0.5 × shallow + 100 ≥ 300 + 200: shallow ≥ 800.
        assert_eq!(c.high(300, 10), 800);
        // Deep ≤ alpha − 2σ needs 0.5 × shallow + 100 ≤ -100 - 400: shallow ≤ -1200.
        assert_eq!(c.low(-100, 20), -1200);
    }

    #[test]
    fn shallow_depths_keep_parity_and_levels_their_probability() {
        for depth in 3..=40 {
            let s = shallow_depth(depth);
            assert!(s < depth && s >= 1 && s % 2 == depth % 2, "{depth} {s}");
        }
        assert_eq!(shallow_depth(8), 4);
        assert_eq!(shallow_depth(12), 6);
        let levels: Vec<u32> = LEVELS.iter().map(|&t| probability(t)).collect();
        assert_eq!(levels, [73, 87, 95, 98, 99]);
        assert_eq!(probability(10), 68);
        assert_eq!(probability(0), 0);
        assert!(Table::parse(EMBEDDED_TABLE).is_ok());
    }
}
