//! The options before the subcommand (`emilia --hash 256 -v ...`): engine options, the
//! protocol log and how much to log, and the refusal of them before a subcommand that has no
//! use for them.

use super::engines::EngineOptions;

/// What comes before the subcommand: engine options, the protocol log and how much to log.
#[derive(Debug, Default)]
pub(super) struct Globals {
    /// Engine options, in the order given.
    pub(super) engine: EngineOptions,
    /// `--log FILE`: the protocol session's log.
    pub(super) log_file: Option<std::path::PathBuf>,
    /// How many `-v`: 1 logs information, 2 debugging, 3 everything.
    pub(super) verbosity: u8,
}

/// The options given before the subcommand (`emilia --player greedy -v`), and the
/// arguments after them.
pub(super) fn global_options(args: &[String]) -> anyhow::Result<(Globals, &[String])> {
    let mut globals = Globals::default();
    let mut rest = args;
    while let [flag, tail @ ..] = rest {
        if let Some(count) = verbosity(flag) {
            globals.verbosity = globals.verbosity.saturating_add(count);
            rest = tail;
            continue;
        }
        let Some(name) = flag
            .strip_prefix("--")
            .filter(|name| *name == "log" || emilia_core::engine::find_option(name).is_some())
        else {
            break;
        };
        let [value, tail @ ..] = tail else {
            anyhow::bail!("{flag} needs a value");
        };
        if name == "log" {
            globals.log_file = Some(value.into());
        } else {
            // Checked now so that a typo fails before any protocol session starts.
            emilia_core::engine::check_option(name, value)?;
            globals.engine.push((name.to_string(), value.clone()));
        }
        rest = tail;
    }
    Ok((globals, rest))
}

/// The `-v` count of `-v`, `-vv`, `-vvv` or `--verbose`.
fn verbosity(flag: &str) -> Option<u8> {
    if flag == "--verbose" {
        return Some(1);
    }
    let vs = flag.strip_prefix('-')?;
    (!vs.is_empty() && vs.bytes().all(|b| b == b'v')).then(|| vs.len().min(3) as u8)
}

/// The subcommands that take a flag of an engine option's name themselves (their `--help`
/// names each), for the refusal of that option before them.
const OWN_FLAGS: &[(&str, &[&str])] = &[
    (
        "bench",
        &["depth", "eval", "movetime", "mpc", "probcut", "threads"],
    ),
    ("book", &["book", "depth", "hash", "seed"]),
    ("solve", &["threads"]),
    ("tune", &["depth"]),
    ("match", &["depth"]),
    ("train", &["threads"]),
    ("analyze", &["book", "depth", "threads"]),
    ("selfplay", &["depth", "hash", "seed", "threads"]),
];

/// Fails when engine options (or a protocol log) were given before a subcommand that has
/// no use for them, rather than ignoring them.
pub(super) fn refuse_engine_options(command: &str, globals: &Globals) -> anyhow::Result<()> {
    if globals.log_file.is_some() {
        anyhow::bail!(
            "--log records a protocol session (emilia without a subcommand); `{command}` is none"
        );
    }
    let Some((name, value)) = globals.engine.first() else {
        return Ok(());
    };
    let own = OWN_FLAGS
        .iter()
        .any(|(c, flags)| *c == command && flags.contains(&name.as_str()));
    if own {
        anyhow::bail!(
            "--{name} before a subcommand sets the engine of the protocol session, `play` and \
             `move`; `{command}` takes its own after its name: emilia {command} ... --{name} {value}"
        );
    }
    let instead = match command {
        "match" => "; give it in an engine's command: --engine \"emilia --player greedy\"",
        "bench" => "; see `emilia bench --help` for the benchmarks' own options",
        "solve" | "perft" => ": it plays no moves of its own choosing",
        "book" => "; its commands take a book file of their own (`emilia book --help`)",
        _ => "",
    };
    anyhow::bail!(
        "--{name} sets the engine of the protocol session, `play` and `move`; \
         `{command}` does not use it{instead}"
    )
}
