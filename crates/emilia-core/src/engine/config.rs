//! The engine's settings, typed: what an embedder sets field by field, and what the option
//! table ([`OPTIONS`](super::OPTIONS)) maps the protocols' names and strings onto.

use std::path::PathBuf;
use std::sync::Arc;

use super::{make_tables, Engine, OptionError};
use crate::book::packed::PackedBook;
use crate::eval::{EvalKind, Pattern};
use crate::players;
use crate::rng::Rng;
use crate::search::{Limits, MpcTable};

/// Where a table the engine loads comes from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Source {
    /// None at all.
    Off,
    /// The one built into the program.
    BuiltIn,
    /// A file.
    File(PathBuf),
}

/// Every setting of an engine ([`Engine::config`], [`Engine::configure`]).
///
/// ```
/// use emilia_core::engine::Source;
/// use emilia_core::{Config, Engine, Limits, Position};
///
/// # fn main() -> Result<(), Box<dyn std::error::Error>> {
/// let mut engine = Engine::new(Config {
///     hash_mib: 16,
///     book: Source::Off,
///     ..Config::default()
/// })?;
/// // Every search that sets no limit of its own stops at depth 4, on one thread.
/// let config = Config {
///     threads: 1,
///     limits: Limits {
///         depth: Some(4),
///         ..Limits::default()
///     },
///     ..engine.config().clone()
/// };
/// engine.configure(config.clone())?;
/// assert_eq!(engine.config(), &config);
/// let report = engine.search(&Position::start(6).unwrap(), &Limits::default(), &mut |_| {});
/// assert_eq!(report.depth, 4);
///
/// // What cannot be had is refused, and the engine keeps its settings.
/// let mut missing = config.clone();
/// missing.weights = Some("no/such/weights.bin".into());
/// assert!(engine.configure(missing).is_err());
/// assert_eq!(engine.config(), &config);
/// # Ok(())
/// # }
/// ```
#[derive(Clone, Debug, PartialEq)]
pub struct Config {
    /// Memory of all search tables together, MiB.
    pub hash_mib: usize,
    /// Threads of every search (at least 1).
    pub threads: usize,
    /// Whether the reply a played move expects is searched while the opponent thinks
    /// ([`Engine::wait_pondering`]).
    pub ponder: bool,
    /// The evaluation.
    pub eval: EvalKind,
    /// ProbCut margin in tenths of a standard deviation, 0 for none; `None` for the board
    /// size's default ([`Engine::default_probcut`]).
    pub probcut: Option<u32>,
    /// The Multi-ProbCut table (measured on 8x8 with the pattern evaluation); off: the
    /// ProbCut margin applies to one fixed error estimate, and no search to the end is
    /// selective.
    pub mpc: Source,
    /// The pattern evaluation's weights: `None` for the built-in ones.
    pub weights: Option<PathBuf>,
    /// Limits of every search that does not set its own (depth, move time, nodes).
    pub limits: Limits,
    /// A baseline player that answers searches instead of the real search, by name.
    pub player: Option<String>,
    /// Seed of the baseline players' and the opening book's random choices.
    pub seed: u64,
    /// The opening book, consulted at the start of 8x8 searches.
    pub book: Source,
    /// Book moves up to this many discs below the best may be played.
    pub book_randomness: u32,
}

impl Default for Config {
    /// What [`Engine::new`] starts with: [`Engine::DEFAULT_HASH_MIB`] of tables, a thread a
    /// core, the pattern evaluation, the built-in Multi-ProbCut table and opening book
    /// (which answers 8x8 searches of the positions it holds: [`SearchReport::book`]
    /// says so), no pondering, no limits of its own, no baseline player.
    ///
    /// [`SearchReport::book`]: crate::search::SearchReport::book
    ///
    /// ```
    /// use emilia_core::engine::Source;
    /// use emilia_core::{Config, Engine};
    ///
    /// # fn main() -> Result<(), Box<dyn std::error::Error>> {
    /// let config = Config {
    ///     hash_mib: 16,
    ///     threads: 1,
    ///     book: Source::Off,
    ///     ..Config::default()
    /// };
    /// let engine = Engine::new(config.clone())?;
    /// assert_eq!(engine.config(), &config);
    /// # Ok(())
    /// # }
    /// ```
    fn default() -> Config {
        Config {
            hash_mib: Engine::DEFAULT_HASH_MIB,
            threads: super::available_cores(),
            ponder: false,
            eval: EvalKind::Pattern,
            probcut: None,
            mpc: Source::BuiltIn,
            weights: None,
            limits: Limits::default(),
            player: None,
            seed: 0,
            book: Source::BuiltIn,
            book_randomness: 0,
        }
    }
}

impl Engine {
    /// The engine's settings.
    pub fn config(&self) -> &Config {
        &self.config
    }

    /// Changes the engine's settings to `config`: loads what changed (tables, weights,
    /// book, player) and keeps the rest. When something cannot be had, says why and
    /// leaves the engine as it was.
    pub fn configure(&mut self, config: Config) -> Result<(), OptionError> {
        let old = &self.config;
        let refused =
            |name: &'static str| move |reason: String| OptionError::Refused { name, reason };
        // Everything that can fail first: nothing changes until all of it is had.
        let pattern = match &config.weights {
            _ if config.weights == old.weights => None,
            None => Some(Pattern::embedded().map_err(|e| refused("weights")(e.to_string()))?),
            Some(path) => {
                Some(Pattern::from_file(path).map_err(|e| refused("weights")(e.to_string()))?)
            }
        };
        if config.eval == EvalKind::Pattern && pattern.is_none() && self.pattern.is_none() {
            return Err(refused("eval")(
                "the pattern weights failed to load".to_string(),
            ));
        }
        let mpc = match &config.mpc {
            _ if config.mpc == old.mpc => None,
            Source::Off => Some(None),
            Source::BuiltIn => Some(Some(Arc::new(MpcTable::embedded().clone()))),
            Source::File(path) => {
                let shown = path.display();
                let text = crate::files::read_text(path, crate::files::FileKind::PROBCUT)
                    .map_err(|e| refused("mpc")(e.to_string()))?;
                let table =
                    MpcTable::parse(&text).map_err(|e| refused("mpc")(format!("{shown}: {e}")))?;
                Some(Some(Arc::new(table)))
            }
        };
        let book = match &config.book {
            _ if config.book == old.book => None,
            Source::Off => Some(None),
            Source::BuiltIn => Some(Some(PackedBook::embedded())),
            Source::File(path) => {
                let book =
                    crate::book::format::read(path).map_err(|e| refused("book")(e.to_string()))?;
                Some(Some(Arc::new(PackedBook::new(&book))))
            }
        };
        let player = if config.player != old.player || config.seed != old.seed {
            Some(match &config.player {
                None => None,
                Some(name) => Some(players::create(name, config.seed).map_err(refused("player"))?),
            })
        } else {
            None
        };
        // The new tables are made while the old ones stand, which stay on a refusal.
        let tables = if config.hash_mib != old.hash_mib {
            Some(make_tables(config.hash_mib).map_err(|e| refused("hash")(e.to_string()))?)
        } else {
            None
        };
        if let Some(pattern) = pattern {
            self.pattern = Some(pattern);
        }
        if let Some(mpc) = mpc {
            self.mpc = mpc;
        }
        if let Some(book) = book {
            self.book = book;
        }
        if let Some(player) = player {
            self.player = player;
        }
        if config.seed != old.seed {
            self.book_rng = Rng::new(config.seed);
        }
        if let Some((tt, solver)) = tables {
            self.tt = tt;
            self.solver = solver;
        }
        let config = Config {
            threads: config.threads.max(1),
            ..config
        };
        self.solver.set_threads(config.threads);
        self.config = config;
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Position;

    #[test]
    fn a_new_engine_has_the_default_settings() {
        let engine = Engine::new(Config::default()).unwrap();
        assert_eq!(engine.config(), &Config::default());
        let without = Engine::new(Config {
            book: Source::Off,
            ..Config::default()
        })
        .unwrap();
        let expected = Config {
            book: Source::Off,
            ..Config::default()
        };
        assert_eq!(without.config(), &expected);
    }

    #[test]
    fn typed_settings_and_options_are_one_and_a_refusal_changes_nothing() {
        let mut engine = Engine::new(Config {
            hash_mib: 4,
            ..Config::default()
        })
        .unwrap();
        let mut config = engine.config().clone();
        config.threads = 1;
        config.limits.depth = Some(3);
        config.book = Source::Off;
        config.ponder = true;
        engine.configure(config).unwrap();
        for (name, value) in [
            ("threads", "1"),
            ("depth", "3"),
            ("book", "off"),
            ("ponder", "on"),
        ] {
            assert_eq!(engine.option(name).as_deref(), Some(value), "{name}");
        }
        engine.set_option("hash", "8").unwrap();
        assert_eq!(engine.config().hash_mib, 8);
        let before = engine.config().clone();
        let bad = Config {
            threads: 2,
            book: Source::File("Cargo.toml".into()),
            ..before.clone()
        };
        let err = engine.configure(bad).unwrap_err().to_string();
        assert!(err.contains("not an Emilia book file"), "{err}");
        assert_eq!(engine.config(), &before);
        let start = Position::start(8).unwrap();
        let report = engine.search(&start, &Limits::default(), &mut |_| {});
        assert!(!report.book && report.depth == 3, "{report:?}");
    }
}
