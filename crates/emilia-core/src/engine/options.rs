//! The engine's options, in one table: name, values, default, help and setter of each.
//! The text protocol's `setoption`, NBoard's `set`, the command line's `--NAME VALUE` and
//! its `--help`, and the option list in protocol.md (checked by a test) all come from
//! [`OPTIONS`].

use std::fmt;
use std::time::Duration;

use super::{Config, Engine, Source};
use crate::memory::MemoryError;

/// What values an option takes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OptionKind {
    /// A whole number in `min..=max`.
    Number {
        /// Smallest value.
        min: u64,
        /// Largest value.
        max: u64,
    },
    /// A limit of every search: a whole number in `1..=max`, or `0`, `none` or `off` for
    /// no limit.
    Limit {
        /// Largest value.
        max: u64,
    },
    /// One of a list of words, in any case.
    Choice(&'static [&'static str]),
    /// Free text, such as a file path.
    Text,
    /// A number of threads in `1..=max`, or `all` for as many as the system offers.
    Threads {
        /// Largest value.
        max: u64,
    },
    /// A whole number in `min..=max`, or `auto` for a value that depends on the board.
    NumberOrAuto {
        /// Smallest value.
        min: u64,
        /// Largest value.
        max: u64,
    },
}

impl fmt::Display for OptionKind {
    /// The values as the option list in protocol.md and `--help` give them.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            OptionKind::Number { min, max } => write!(f, "{min} to {}", show_max(*max)),
            OptionKind::Limit { max } => write!(f, "1 to {}, or 0, none or off", show_max(*max)),
            OptionKind::Choice(words) => f.write_str(&words.join(", ")),
            OptionKind::Text => f.write_str("text"),
            OptionKind::Threads { max } => write!(f, "1 to {max}, or all"),
            OptionKind::NumberOrAuto { min, max } => {
                write!(f, "{min} to {}, or auto", show_max(*max))
            }
        }
    }
}

fn show_max(max: u64) -> String {
    if max == u64::MAX {
        "2^64-1".to_string()
    } else {
        max.to_string()
    }
}

/// A value read for an option, checked against its [`OptionKind`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum OptionValue<'a> {
    /// A number within the option's range.
    Number(u64),
    /// No limit (`0`, `none` or `off` for a [`OptionKind::Limit`]).
    Off,
    /// `auto` for a [`OptionKind::NumberOrAuto`].
    Auto,
    /// One of the option's words (in lower case), or its text.
    Text(&'a str),
}

/// Why an option could not be set. The engine is left as it was.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum OptionError {
    /// No option has this name.
    Unknown {
        /// The name asked for.
        name: String,
    },
    /// No value was given.
    MissingValue {
        /// The option.
        name: &'static str,
    },
    /// The value should be a whole number.
    NotANumber {
        /// The option.
        name: &'static str,
        /// The value given.
        value: String,
    },
    /// The number lies outside the option's range.
    OutOfRange {
        /// The option.
        name: &'static str,
        /// The value given.
        value: u64,
        /// What the option takes.
        kind: OptionKind,
    },
    /// The value is none of the option's words.
    NotAChoice {
        /// The option.
        name: &'static str,
        /// The value given.
        value: String,
        /// The words the option takes.
        choices: &'static [&'static str],
    },
    /// The value is well formed but cannot be used (a weights file that does not load).
    Refused {
        /// The option.
        name: &'static str,
        /// Why.
        reason: String,
    },
    /// A new engine ([`Engine::new`]) could not have even the smallest search tables.
    Memory(MemoryError),
}

impl fmt::Display for OptionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            OptionError::Unknown { name } => {
                let known: Vec<&str> = OPTIONS.iter().map(|o| o.name).collect();
                write!(
                    f,
                    "unknown option '{name}': known options are {}",
                    known.join(", ")
                )
            }
            OptionError::MissingValue { name } => write!(f, "option {name} needs a value"),
            OptionError::NotANumber { name, value } => {
                write!(f, "option {name}: '{value}' is not a whole number")
            }
            OptionError::OutOfRange { name, value, kind } => {
                write!(f, "option {name}: {value} is out of range ({kind})")
            }
            OptionError::NotAChoice {
                name,
                value,
                choices,
            } => write!(
                f,
                "option {name}: '{value}' is not one of {}",
                choices.join(", ")
            ),
            OptionError::Refused { name, reason } => write!(f, "option {name}: {reason}"),
            OptionError::Memory(e) => e.fmt(f),
        }
    }
}

impl std::error::Error for OptionError {}

/// One engine option.
pub struct EngineOption {
    /// Its name, as `setoption` and `--NAME` take it.
    pub name: &'static str,
    /// The values it takes.
    pub kind: OptionKind,
    /// Its value in a new engine.
    pub default: &'static str,
    /// What it does.
    pub help: &'static str,
    get: fn(&Config) -> String,
    set: fn(&mut Config, OptionValue),
}

impl EngineOption {
    /// Checks `text` against the option's kind.
    fn read<'a>(&self, text: &'a str) -> Result<OptionValue<'a>, OptionError> {
        let name = self.name;
        let number = || {
            text.parse::<u64>().map_err(|_| OptionError::NotANumber {
                name,
                value: text.to_string(),
            })
        };
        let within = |value: u64, min: u64, max: u64| {
            if (min..=max).contains(&value) {
                Ok(OptionValue::Number(value))
            } else {
                Err(OptionError::OutOfRange {
                    name,
                    value,
                    kind: self.kind,
                })
            }
        };
        if text.is_empty() {
            return Err(OptionError::MissingValue { name });
        }
        match self.kind {
            OptionKind::Number { min, max } => within(number()?, min, max),
            OptionKind::Limit { .. } if is_off(text) => Ok(OptionValue::Off),
            OptionKind::Limit { max } => within(number()?, 1, max),
            OptionKind::Choice(words) => words
                .iter()
                .find(|w| w.eq_ignore_ascii_case(text))
                .map(|w| OptionValue::Text(w))
                .ok_or_else(|| OptionError::NotAChoice {
                    name,
                    value: text.to_string(),
                    choices: words,
                }),
            OptionKind::Text => Ok(OptionValue::Text(text)),
            OptionKind::Threads { .. } if text.eq_ignore_ascii_case("all") => Ok(
                OptionValue::Number(super::available_cores().min(MAX_THREADS as usize) as u64),
            ),
            OptionKind::Threads { max } => within(number()?, 1, max),
            OptionKind::NumberOrAuto { .. } if text.eq_ignore_ascii_case("auto") => {
                Ok(OptionValue::Auto)
            }
            OptionKind::NumberOrAuto { min, max } => within(number()?, min, max),
        }
    }
}

fn is_off(text: &str) -> bool {
    text == "0" || text.eq_ignore_ascii_case("none") || text.eq_ignore_ascii_case("off")
}

/// The option named `name` (in any case).
pub fn find(name: &str) -> Option<&'static EngineOption> {
    OPTIONS.iter().find(|o| o.name.eq_ignore_ascii_case(name))
}

/// Checks that option `name` exists and takes `value`, without setting it (values that
/// name a file are only tried when set).
pub fn check(name: &str, value: &str) -> Result<(), OptionError> {
    let option = find(name).ok_or_else(|| OptionError::Unknown {
        name: name.chars().take(40).collect(),
    })?;
    option.read(value.trim()).map(|_| ())
}

/// The number of threads `text` asks for, read as the option `threads` reads it (for
/// commands that take `--threads` without an engine).
pub fn threads(text: &str) -> Result<usize, OptionError> {
    let option = find("threads").expect("the option table has threads");
    Ok(number(option.read(text.trim())?) as usize)
}

/// The player names `player` takes: the real search, then the baseline players.
const PLAYERS: [&str; 7] = [
    "emilia", "random", "greedy", "squares", "quadrant", "kukreja", "phased",
];

/// Most threads a search takes: one where threads cannot be started
/// ([`platform`](crate::platform)).
const MAX_THREADS: u64 = if crate::platform::HAS_THREADS { 64 } else { 1 };

/// Every engine option, in the order `setoption` lists them.
pub static OPTIONS: [EngineOption; 14] = [
    EngineOption {
        name: "hash",
        kind: OptionKind::Number { min: 1, max: 65536 },
        default: "64",
        help: "memory of all search tables together, in MiB: the exact solver's large \
               table takes half of it rounded down to a power of two, its near table 1 MiB, \
               the midgame table the rest",
        get: |c| c.hash_mib.to_string(),
        set: |c, v| c.hash_mib = number(v) as usize,
    },
    EngineOption {
        name: "threads",
        kind: OptionKind::Threads { max: MAX_THREADS },
        default: "all",
        help: "threads of every search: all takes every core the system offers; the \
               midgame search runs them as lazy SMP, the exact solver as young brothers \
               wait; with 1, searches are the same on every run, node for node",
        get: |c| c.threads.to_string(),
        set: |c, v| c.threads = number(v) as usize,
    },
    EngineOption {
        name: "ponder",
        kind: OptionKind::Choice(&["off", "on"]),
        default: "off",
        help: "on: after answering genmove (in NBoard mode, once the move go answered is \
               played), the engine searches the expected reply until the next command comes, \
               and a search of that position starts from what it found",
        get: |c| if c.ponder { "on" } else { "off" }.to_string(),
        set: |c, v| c.ponder = text(v) == "on",
    },
    EngineOption {
        name: "eval",
        kind: OptionKind::Choice(&["pattern", "classic", "squares"]),
        default: "pattern",
        help: "evaluation: pattern (learned pattern weights, on every board size), classic \
               (stage-weighted features) or squares (square table only)",
        get: |c| c.eval.to_string(),
        set: |c, v| c.eval = text(v).parse().expect("one of the choices"),
    },
    EngineOption {
        name: "probcut",
        kind: OptionKind::NumberOrAuto { min: 0, max: 100 },
        default: "auto",
        help: "Multi-ProbCut margin in tenths of a standard deviation: midgame lines a \
               shallow search puts this far outside the window are pruned, and on 8x8 \
               searches to the end are selective (73 % to 99 %) before exact; 0 turns it \
               off; auto is 10 on 6x6 and 8x8, 5 on 10x10 and 12x12",
        get: |c| c.probcut.map_or("auto".to_string(), |t| t.to_string()),
        set: |c, v| {
            c.probcut = match v {
                OptionValue::Auto => None,
                other => Some(number(other) as u32),
            }
        },
    },
    EngineOption {
        name: "mpc",
        kind: OptionKind::Text,
        default: "on",
        help: "the Multi-ProbCut table that calibrates probcut by stage and depth with the \
               pattern evaluation on 8x8: on (built in), off (one fixed error estimate for \
               all, no selective endgame), or the path of a table file written by emilia \
               tune mpc",
        get: |c| show_source(&c.mpc),
        set: |c, v| c.mpc = source(text(v)),
    },
    EngineOption {
        name: "weights",
        kind: OptionKind::Text,
        default: "builtin",
        help: "the pattern evaluation's weights: builtin, or the path of a weights file \
               written by emilia train (for 8x8, or with --size for 6x6, 10x10 or 12x12, \
               which then play with them)",
        get: |c| {
            c.weights
                .as_ref()
                .map_or("builtin".to_string(), |p| p.display().to_string())
        },
        set: |c, v| {
            let value = text(v);
            c.weights = (!value.eq_ignore_ascii_case("builtin")).then(|| value.into());
        },
    },
    EngineOption {
        name: "depth",
        kind: OptionKind::Limit { max: 200 },
        default: "none",
        help: "deepest midgame iteration of every search, in plies, unless the search \
               sets its own",
        get: |c| show_limit(c.limits.depth),
        set: |c, v| c.limits.depth = limit(v).map(|d| d as u32),
    },
    EngineOption {
        name: "movetime",
        kind: OptionKind::Limit { max: u64::MAX },
        default: "none",
        help: "time of every search in milliseconds, unless the search sets its own",
        get: |c| show_limit(c.limits.move_time.map(|t| t.as_millis())),
        set: |c, v| c.limits.move_time = limit(v).map(Duration::from_millis),
    },
    EngineOption {
        name: "nodes",
        kind: OptionKind::Limit { max: u64::MAX },
        default: "none",
        help: "node budget of every search, unless the search sets its own",
        get: |c| show_limit(c.limits.nodes),
        set: |c, v| c.limits.nodes = limit(v),
    },
    EngineOption {
        name: "player",
        kind: OptionKind::Choice(&PLAYERS),
        default: "emilia",
        help: "emilia (the real search) or a baseline player that answers searches instead",
        get: |c| c.player.clone().unwrap_or_else(|| "emilia".to_string()),
        set: |c, v| c.player = Some(text(v)).filter(|p| *p != "emilia").map(str::to_string),
    },
    EngineOption {
        name: "seed",
        kind: OptionKind::Number {
            min: 0,
            max: u64::MAX,
        },
        default: "0",
        help: "seed of the random choices of the baseline players and of the opening book",
        get: |c| c.seed.to_string(),
        set: |c, v| c.seed = number(v),
    },
    EngineOption {
        name: "book",
        kind: OptionKind::Text,
        default: "on",
        help: "the opening book, used on 8x8: on (the built-in book), off, or the path of a \
               book file written by emilia book; a book move is played at once",
        get: |c| show_source(&c.book),
        set: |c, v| c.book = source(text(v)),
    },
    EngineOption {
        name: "book_randomness",
        kind: OptionKind::Number { min: 0, max: 64 },
        default: "0",
        help: "book moves up to this many discs worse than the best are played too, if at \
               least 100 games of the book's database played them, chosen at random, the \
               better more often (see seed); 0 always plays the best",
        get: |c| c.book_randomness.to_string(),
        set: |c, v| c.book_randomness = number(v) as u32,
    },
];

/// A table's source as options name it: `off`, `on` (built in) or a file's path.
fn source(text: &str) -> Source {
    if text.eq_ignore_ascii_case("off") {
        Source::Off
    } else if text.eq_ignore_ascii_case("on") {
        Source::BuiltIn
    } else {
        Source::File(text.into())
    }
}

fn show_source(source: &Source) -> String {
    match source {
        Source::Off => "off".to_string(),
        Source::BuiltIn => "on".to_string(),
        Source::File(path) => path.display().to_string(),
    }
}

/// The number a [`OptionKind::Number`] option was given.
fn number(value: OptionValue) -> u64 {
    match value {
        OptionValue::Number(n) => n,
        other => unreachable!("a number option read {other:?}"),
    }
}

/// The limit a [`OptionKind::Limit`] option was given.
fn limit(value: OptionValue) -> Option<u64> {
    match value {
        OptionValue::Number(n) => Some(n),
        _ => None,
    }
}

/// The word or text a [`OptionKind::Choice`] or [`OptionKind::Text`] option was given.
fn text(value: OptionValue<'_>) -> &str {
    match value {
        OptionValue::Text(t) => t,
        other => unreachable!("a text option read {other:?}"),
    }
}

fn show_limit<T: ToString>(value: Option<T>) -> String {
    value.map_or("none".to_string(), |v| v.to_string())
}

impl Engine {
    /// Sets option `name` (in any case) to `value`, or says why it cannot; on error the
    /// engine is unchanged.
    pub fn set_option(&mut self, name: &str, value: &str) -> Result<(), OptionError> {
        let option = find(name).ok_or_else(|| OptionError::Unknown {
            name: name.chars().take(40).collect(),
        })?;
        let value = option.read(value.trim())?;
        let mut config = self.config.clone();
        (option.set)(&mut config, value);
        self.configure(config)
    }

    /// The current value of option `name`, as text; `None` for an unknown name.
    pub fn option(&self, name: &str) -> Option<String> {
        find(name).map(|o| (o.get)(&self.config))
    }
}

/// The options as the command line's `--help` lists them.
pub fn command_line_help() -> String {
    let mut text = String::new();
    for option in &OPTIONS {
        text.push_str(&format!("  --{} VALUE\n", option.name));
        let what = format!(
            "{} ({}; default {})",
            option.help, option.kind, option.default
        );
        let mut line = String::new();
        for word in what.split(' ') {
            if !line.is_empty() && line.len() + 1 + word.len() > HELP_WIDTH {
                text.push_str(&format!("      {line}\n"));
                line.clear();
            }
            if !line.is_empty() {
                line.push(' ');
            }
            line.push_str(word);
        }
        text.push_str(&format!("      {line}\n"));
    }
    text
}

/// Width of the help's option descriptions, so that `--help` fits 80 columns.
const HELP_WIDTH: usize = 72;

#[cfg(test)]
mod tests {
    use super::*;

    /// The option table of protocol.md, as the table says it should read.
    fn markdown() -> Vec<String> {
        let mut lines = vec![
            "| option | values | default | what it does |".to_string(),
            "|---|---|---|---|".to_string(),
        ];
        for o in &OPTIONS {
            lines.push(format!(
                "| `{}` | {} | {} | {} |",
                o.name, o.kind, o.default, o.help
            ));
        }
        lines
    }

    #[test]
    fn protocol_md_lists_the_options_of_the_table() {
        let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../../protocol.md");
        let text = std::fs::read_to_string(path).unwrap();
        let expected = markdown();
        let start = text
            .lines()
            .position(|l| l == expected[0])
            .expect("protocol.md has the option table");
        let found: Vec<&str> = text
            .lines()
            .skip(start)
            .take_while(|l| l.starts_with('|'))
            .collect();
        assert_eq!(
            found,
            expected,
            "protocol.md's option table, to paste:\n{}",
            expected.join("\n")
        );
    }

    #[test]
    fn every_option_takes_its_default_and_shows_it() {
        let mut engine = Engine::new(Config {
            hash_mib: 64,
            ..Config::default()
        })
        .unwrap();
        for option in &OPTIONS {
            // Threads show how many `all` is.
            let default = match option.kind {
                OptionKind::Threads { .. } => super::super::available_cores().to_string(),
                _ => option.default.to_string(),
            };
            let shown = engine.option(option.name).unwrap();
            assert_eq!(shown, default, "{}", option.name);
            engine.set_option(option.name, option.default).unwrap();
            assert_eq!(engine.option(option.name).unwrap(), default);
        }
    }

    #[test]
    fn bad_values_are_refused_with_the_reason_and_change_nothing() {
        let mut engine = Engine::new(Config {
            hash_mib: 4,
            ..Config::default()
        })
        .unwrap();
        let cases = [
            ("hash", "lots", "option hash: 'lots' is not a whole number"),
            ("hash", "0", "option hash: 0 is out of range (1 to 65536)"),
            (
                "probcut",
                "101",
                "option probcut: 101 is out of range (0 to 100, or auto)",
            ),
            (
                "eval",
                "neural",
                "option eval: 'neural' is not one of pattern, classic, squares",
            ),
            (
                "depth",
                "201",
                "option depth: 201 is out of range (1 to 200, or 0, none or off)",
            ),
            ("depth", "", "option depth needs a value"),
            (
                "colour",
                "blue",
                "unknown option 'colour': known options are hash, threads, ponder, eval",
            ),
        ];
        for (name, value, message) in cases {
            let error = engine.set_option(name, value).unwrap_err().to_string();
            assert!(error.starts_with(message), "{name} {value}: {error}");
        }
        assert_eq!(engine.option("hash").as_deref(), Some("4"));
        assert_eq!(engine.option("depth").as_deref(), Some("none"));
        let error = engine.set_option("weights", "Cargo.toml").unwrap_err();
        assert!(
            matches!(
                error,
                OptionError::Refused {
                    name: "weights",
                    ..
                }
            ),
            "{error}"
        );
        assert_eq!(engine.option("weights").as_deref(), Some("builtin"));
    }

    #[test]
    fn limits_take_numbers_or_off_in_any_spelling() {
        let mut engine = Engine::new(Config {
            hash_mib: 4,
            ..Config::default()
        })
        .unwrap();
        engine.set_option("MoveTime", "250").unwrap();
        assert_eq!(engine.option("movetime").as_deref(), Some("250"));
        for off in ["0", "none", "OFF"] {
            engine.set_option("movetime", "250").unwrap();
            engine.set_option("movetime", off).unwrap();
            assert_eq!(engine.option("movetime").as_deref(), Some("none"));
        }
        engine.set_option("eval", "CLASSIC").unwrap();
        assert_eq!(engine.option("eval").as_deref(), Some("classic"));
    }

    #[test]
    fn threads_take_a_number_or_all() {
        let mut engine = Engine::new(Config {
            hash_mib: 4,
            ..Config::default()
        })
        .unwrap();
        engine.set_option("threads", "3").unwrap();
        assert_eq!(engine.option("threads").as_deref(), Some("3"));
        let error = engine.set_option("threads", "0").unwrap_err().to_string();
        assert_eq!(error, "option threads: 0 is out of range (1 to 64, or all)");
        assert!(engine.set_option("threads", "many").is_err());
        assert_eq!(engine.option("threads").as_deref(), Some("3"));
        engine.set_option("threads", "ALL").unwrap();
        let cores = super::super::available_cores().to_string();
        assert_eq!(engine.option("threads"), Some(cores));
    }

    #[test]
    fn probcut_takes_a_margin_or_auto() {
        let mut engine = Engine::new(Config {
            hash_mib: 4,
            ..Config::default()
        })
        .unwrap();
        assert_eq!(engine.option("probcut").as_deref(), Some("auto"));
        engine.set_option("probcut", "7").unwrap();
        assert_eq!(engine.option("probcut").as_deref(), Some("7"));
        let error = engine.set_option("probcut", "101").unwrap_err().to_string();
        assert_eq!(
            error,
            "option probcut: 101 is out of range (0 to 100, or auto)"
        );
        assert!(engine.set_option("probcut", "some").is_err());
        assert_eq!(engine.option("probcut").as_deref(), Some("7"));
        engine.set_option("probcut", "Auto").unwrap();
        assert_eq!(engine.option("probcut").as_deref(), Some("auto"));
    }
}
