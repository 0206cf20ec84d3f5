//! Checking a book against fresh searches: on a random sample of its scored positions, the
//! book's value against the engine's own search at the depth the book's value rests on
//! (an exact solve for exact values), from an empty transposition table.

use emilia_core::board::{AnyBoard, Color, Position};
use emilia_core::book::{Backing, Book, Key};
use emilia_core::engine::Source;
use emilia_core::rng::Rng;
use emilia_core::search::Limits;
use emilia_core::{Config, Engine};

/// One sampled position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Check {
    /// The position.
    pub key: Key,
    /// The book's value, hundredths of a disc.
    pub book: i32,
    /// The fresh search's.
    pub fresh: i32,
    /// What the book's value rests on (and the fresh search was given).
    pub backing: Backing,
}

impl Check {
    /// The difference in hundredths of a disc.
    pub fn difference(&self) -> i32 {
        (self.book - self.fresh).abs()
    }
}

/// How well a sample agrees.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Agreement {
    /// Every sampled position.
    pub checks: Vec<Check>,
}

impl Agreement {
    /// Share of positions within `discs` discs, 0 to 1.
    pub fn share_within(&self, discs: i32) -> f64 {
        if self.checks.is_empty() {
            return 0.0;
        }
        let within = self
            .checks
            .iter()
            .filter(|c| c.difference() <= discs * 100)
            .count();
        within as f64 / self.checks.len() as f64
    }

    /// Mean absolute difference, discs.
    pub fn mean_difference(&self) -> f64 {
        if self.checks.is_empty() {
            return 0.0;
        }
        let total: i64 = self.checks.iter().map(|c| c.difference() as i64).sum();
        total as f64 / self.checks.len() as f64 / 100.0
    }

    /// The largest difference, discs.
    pub fn worst(&self) -> f64 {
        self.checks.iter().map(Check::difference).max().unwrap_or(0) as f64 / 100.0
    }
}

/// Compares `sample` positions of `book`, drawn at random with `seed`, with fresh searches
/// by an engine with a `hash_mib` table; `each` is called after every position.
pub fn verify(
    book: &Book,
    sample: usize,
    seed: u64,
    hash_mib: usize,
    each: &mut dyn FnMut(&Check, usize),
) -> Agreement {
    let mut scored: Vec<(Key, i16, Backing)> = book
        .nodes()
        .filter_map(|(key, node)| node.value().map(|(v, b)| (*key, v, b)))
        .collect();
    scored.sort_unstable_by_key(|(key, _, _)| *key);
    // A partial Fisher-Yates shuffle: the first `sample` are a uniform draw.
    let mut rng = Rng::new(seed);
    let sample = sample.min(scored.len());
    for i in 0..sample {
        let j = i + rng.below(scored.len() - i);
        scored.swap(i, j);
    }
    let mut engine = Engine::new(Config {
        hash_mib,
        book: Source::Off,
        ..Config::default()
    })
    .unwrap_or_else(|e| panic!("{e}"));
    // One thread: the fresh searches, like the book's own, repeat node for node.
    engine.set_option("threads", "1").expect("threads takes 1");
    let mut agreement = Agreement::default();
    for &(key, value, backing) in &scored[..sample] {
        engine.clear_hash();
        let position = Position {
            board: AnyBoard::Eight(key.board()),
            to_move: Color::Black,
        };
        let fresh = match backing {
            Backing::Depth(depth) => {
                let limits = Limits {
                    depth: Some(depth as u32),
                    ..Limits::default()
                };
                engine.search(&position, &limits, &mut |_| {}).score
            }
            _ => {
                engine
                    .solve(&position, &Limits::default(), &mut |_| {})
                    .score
            }
        };
        let check = Check {
            key,
            book: value as i32,
            fresh: fresh.hundredths(),
            backing,
        };
        agreement.checks.push(check);
        each(&check, agreement.checks.len());
    }
    agreement
}
