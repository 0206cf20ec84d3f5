//! The midgame benchmark, the engine's fingerprint: ten fixed 8x8 positions, each searched
//! from an empty table. Its node count at a fixed depth (211,270 at depth 12, one thread,
//! the default settings) changes only when the search does, on every front-end and target.
//!
//! ```
//! use emilia_core::bench;
//! use emilia_core::engine::{Config, Engine, Source};
//! use emilia_core::search::Limits;
//!
//! # fn main() -> Result<(), Box<dyn std::error::Error>> {
//! let mut engine = Engine::new(Config {
//!     hash_mib: 16,
//!     book: Source::Off,
//!     ..Config::default()
//! })?;
//! let limits = Limits {
//!     depth: Some(2),
//!     ..Limits::default()
//! };
//! let mut run = bench::midgame(&mut engine, &limits);
//! let mut nodes = 0;
//! for result in &mut run {
//!     println!("{result}");
//!     nodes += result.report.nodes;
//! }
//! let total = run.total();
//! assert_eq!(total.positions, 10);
//! assert_eq!(total.nodes, nodes);
//! assert_eq!(total.mean_depth(), 2.0);
//! # Ok(())
//! # }
//! ```

use std::fmt;

use crate::board::Position;
use crate::engine::Engine;
use crate::search::{Limits, SearchReport};

/// Six XOT openings (52 empties) and four FFO positions (FFO 41, 43, 47, 51: 22 to 27
/// empties), as transcripts from the start or board strings with the side to move.
const MIDGAME_POSITIONS: [&str; 10] = [
    "f5d6c4d3c2b3b4b5",
    "f5f4g3g6f3g4e3e2",
    "f5f6d3c5d6c7b5e3",
    "f5f6d3c5c6e3c4b4",
    "f5d6c3f4c5d3g3b5",
    "d3c5f6f5e6e3d6f7",
    "-OOOOO----OOOOX--OOOOOO-XXXXXOO--XXOOX--OOXOXX----OXXO---OOO--O- X",
    "--XXXXX---XXXX---OOOXX---OOXXXX--OOXXXO-OOOOXOO----XOX----XXXXX- O",
    "-OOOOO----OOOO---OOOOX--XXXXXX---OXOOX--OOOXOX----OOXX----XXXX-- O",
    "----O-X------X-----XXXO-OXXXXXOO-XXOOXOOXXOXXXOO--OOOO-O----OO-- O",
];

/// The benchmark's ten positions, in the order they are searched.
pub fn midgame_positions() -> Vec<Position> {
    let start = Position::start(8).expect("the 8x8 start");
    MIDGAME_POSITIONS
        .iter()
        .map(|text| {
            if text.contains(' ') {
                text.parse().expect("a valid benchmark board")
            } else {
                start
                    .play_transcript(text)
                    .expect("a legal benchmark opening")
                    .0
            }
        })
        .collect()
}

/// Starts the benchmark: `engine` (set up as the caller wants: threads, evaluation) searches
/// each position within `limits`, its table cleared before each. The run is an iterator of
/// the positions' results; [`MidgameRun::total`] sums them.
pub fn midgame<'e>(engine: &'e mut Engine, limits: &Limits) -> MidgameRun<'e> {
    MidgameRun {
        engine,
        limits: limits.clone(),
        positions: midgame_positions().into_iter(),
        total: MidgameTotal::default(),
    }
}

/// A run of the midgame benchmark: each `next` searches the next position.
pub struct MidgameRun<'e> {
    engine: &'e mut Engine,
    limits: Limits,
    positions: std::vec::IntoIter<Position>,
    total: MidgameTotal,
}

impl MidgameRun<'_> {
    /// The sums over the positions searched so far (all ten once the iterator is done).
    pub fn total(&self) -> MidgameTotal {
        self.total
    }
}

impl Iterator for MidgameRun<'_> {
    type Item = PositionResult;

    fn next(&mut self) -> Option<PositionResult> {
        let position = self.positions.next()?;
        self.engine.clear_hash();
        let report = self.engine.search(&position, &self.limits, &mut |_| {});
        self.total.positions += 1;
        self.total.nodes += report.nodes;
        self.total.seconds += report.elapsed.as_secs_f64();
        self.total.depths += u64::from(report.depth);
        Some(PositionResult {
            number: self.total.positions,
            empties: position.board.counts().2,
            report,
        })
    }
}

/// One position's search; displayed as the benchmark's line for it.
#[derive(Clone, Debug)]
pub struct PositionResult {
    /// The position's number, from 1.
    pub number: usize,
    /// Its empty squares.
    pub empties: u32,
    /// What the search found and spent.
    pub report: SearchReport,
}

impl fmt::Display for PositionResult {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let report = &self.report;
        let seconds = report.elapsed.as_secs_f64();
        write!(
            f,
            "midgame {:2}: {:2} empties, depth {:2}{}, score {:>7}, best {}, {:10} nodes, \
             {:.3} s, {:.2} Mnps",
            self.number,
            self.empties,
            report.depth,
            if report.exact { " exact" } else { "      " },
            report.score,
            report.best,
            report.nodes,
            seconds,
            report.nodes as f64 / seconds.max(1e-9) / 1e6
        )
    }
}

/// The sums of a run; displayed as the benchmark's last line.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct MidgameTotal {
    /// Positions searched.
    pub positions: usize,
    /// Nodes of all the searches: the fingerprint at a fixed depth.
    pub nodes: u64,
    /// Time of all the searches, in seconds.
    pub seconds: f64,
    /// The sum of the depths reached.
    pub depths: u64,
}

impl MidgameTotal {
    /// The mean depth reached (0 before any position).
    pub fn mean_depth(&self) -> f64 {
        self.depths as f64 / self.positions.max(1) as f64
    }
}

impl fmt::Display for MidgameTotal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "midgame total: {} nodes in {:.3} s, {:.2} Mnps, mean depth {:.1}",
            self.nodes,
            self.seconds,
            self.nodes as f64 / self.seconds.max(1e-9) / 1e6,
            self.mean_depth()
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::{Config, Source};

    #[test]
    fn the_positions_are_six_openings_and_four_endgames() {
        let empties: Vec<u32> = midgame_positions()
            .iter()
            .map(|p| p.board.counts().2)
            .collect();
        assert_eq!(empties, [52, 52, 52, 52, 52, 52, 22, 23, 25, 27]);
    }

    #[test]
    fn a_run_sums_its_positions_and_prints_their_lines() {
        let mut engine = Engine::new(Config {
            hash_mib: 1,
            book: Source::Off,
            ..Config::default()
        })
        .unwrap();
        engine.set_option("threads", "1").unwrap();
        let limits = Limits {
            depth: Some(1),
            ..Limits::default()
        };
        let mut run = midgame(&mut engine, &limits);
        let results: Vec<PositionResult> = run.by_ref().collect();
        let total = run.total();
        assert_eq!(results.len(), 10);
        assert_eq!(
            total.nodes,
            results.iter().map(|r| r.report.nodes).sum::<u64>()
        );
        assert_eq!(total.positions, 10);
        assert_eq!(total.mean_depth(), 1.0);
        let first = results[0].to_string();
        assert!(
            first.starts_with("midgame  1: 52 empties, depth  1"),
            "{first}"
        );
        let last = total.to_string();
        assert!(
            last.starts_with(&format!("midgame total: {} nodes in ", total.nodes)),
            "{last}"
        );
        assert!(last.ends_with("mean depth 1.0"), "{last}");
    }
}
