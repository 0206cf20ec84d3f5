//! Command-line front-end: picks the subcommand and reports errors. Each subcommand lives in
//! its own module and only calls the library.

mod analyze;
mod args;
mod bench;
mod bench_clock;
mod bench_eval;
mod bench_perft;
mod bench_search;
mod book;
mod ggs;
mod match_cmd;
mod move_file;
mod output;
mod perft;
mod play;
mod selfplay;
mod signals;
mod solve;
mod train;
mod tune;
mod tune_mpc;

pub(crate) use args::Args;
use output::{note, out, outln};

use std::sync::Arc;

use crate::protocol::session_log::SessionLog;

/// One line per subcommand for `emilia --help`.
const SUBCOMMANDS: &[(&str, &str)] = &[
    (
        "perft",
        "count game-tree leaves to a depth (move generation check)",
    ),
    ("bench", "run the speed benchmarks"),
    ("book", "build, score, show and check opening books"),
    ("play", "play a game against Emilia at the terminal"),
    (
        "move",
        "play one move on a board file, writing the next file (for referees)",
    ),
    (
        "solve",
        "solve endgame positions exactly, on every board size",
    ),
    (
        "tune",
        "fit the classic evaluation to self-play games; `tune mpc`: measure Multi-ProbCut",
    ),
    (
        "match",
        "play two engines against each other and report the score",
    ),
    (
        "selfplay",
        "generate training games by self-play, in resumable chunks",
    ),
    (
        "train",
        "fit the pattern evaluation to game records or self-play, write weights",
    ),
    (
        "analyze",
        "value every move of a game, its best alternative and loss; SVG chart",
    ),
    (
        "ggs",
        "play online on the Generic Game Server's Othello service",
    ),
];

fn usage() -> String {
    let mut text = String::from(
        "emilia - an Othello engine\n\nUsage: emilia [SUBCOMMAND] [OPTIONS]\n\n\
         With no subcommand, reads protocol commands on stdin (`help` lists them;\n\
         see protocol.md).\n\n\
         Subcommands:\n",
    );
    for (name, what) in SUBCOMMANDS {
        text.push_str(&format!("  {name:<8} {what}\n"));
    }
    text.push_str("\nOptions:\n  -h, --help     this help; `emilia SUBCOMMAND --help` for one\n");
    text.push_str("  -V, --version  print the version\n");
    text.push_str("  -v, -vv, -vvv  log information, debugging, everything to stderr (RUST_LOG,\n                 which can name modules, wins where it is set)\n");
    text.push_str(
        "  --log FILE     append every protocol line read and written to FILE, with the\n                 \
         seconds since the start, after the engine's options; log messages (-v)\n                 \
         go there too (only for the protocol session)\n",
    );
    text.push_str("\nEngine options, before any subcommand (as setoption NAME VALUE):\n");
    text.push_str(&emilia_core::engine::command_line_help());
    text.push_str(
        "  (they set the engine of the protocol session, `play` and `move`; other\n  \
         subcommands refuse them)\n",
    );
    text.push_str(
        "\nA GUI's engine list (NBoard's, for one) takes them on the engine's command line,\n\
         for example:\n  \
         emilia --hash 256 --eval pattern --log emilia.log\n",
    );
    text
}

/// What `emilia` alone says on stderr when a person types at it.
const TERMINAL_HINT: &str = "emilia: reading protocol commands (type help for them, quit or \
     Ctrl-D to leave); `emilia play` plays a game here, `emilia --help` lists the rest";

/// Engine options as `(name, value)` pairs for `Engine::set_option`.
type EngineOptions = Vec<(String, String)>;

/// What comes before the subcommand: engine options, the protocol log and how much to log.
#[derive(Debug, Default)]
struct Globals {
    engine: EngineOptions,
    /// `--log FILE`: the protocol session's log.
    log_file: Option<std::path::PathBuf>,
    /// How many `-v`: 1 logs information, 2 debugging, 3 everything.
    verbosity: u8,
}

/// The options given before the subcommand (`emilia --player greedy -v`), and the
/// arguments after them.
fn global_options(args: &[String]) -> anyhow::Result<(Globals, &[String])> {
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

/// Starts the logger: `-v` sets the level, `RUST_LOG` (which can name modules) wins where
/// it is set; messages go to stderr, or into the protocol log when there is one.
fn start_logging(verbosity: u8, log: Option<&std::sync::Arc<SessionLog>>) {
    use std::io::Write;
    let level = match verbosity {
        0 => log::LevelFilter::Off,
        1 => log::LevelFilter::Info,
        2 => log::LevelFilter::Debug,
        _ => log::LevelFilter::Trace,
    };
    let mut builder = env_logger::Builder::new();
    builder.filter_level(level);
    builder.parse_env(env_logger::Env::default());
    if let Some(log) = log {
        builder
            .target(env_logger::Target::Pipe(Box::new(log.messages())))
            .format(|out, record| {
                writeln!(
                    out,
                    "{} {}: {}",
                    record.level(),
                    record.target(),
                    record.args()
                )
            });
    }
    // Only the first start counts (tests may run the command line more than once).
    let _ = builder.try_init();
}

/// An engine with the options given before the subcommand.
fn new_engine(options: &EngineOptions) -> anyhow::Result<emilia_core::engine::Engine> {
    new_engine_with_hash(options, emilia_core::engine::Engine::DEFAULT_HASH_MIB)
}

/// An engine with `hash_mib` MiB of tables unless `options` set `hash`, then `options`.
fn new_engine_with_hash(
    options: &EngineOptions,
    hash_mib: usize,
) -> anyhow::Result<emilia_core::engine::Engine> {
    let mut engine = emilia_core::Engine::new(emilia_core::Config {
        hash_mib,
        ..emilia_core::Config::default()
    })?;
    for (name, value) in options {
        engine.set_option(name, value)?;
    }
    Ok(engine)
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
fn refuse_engine_options(command: &str, globals: &Globals) -> anyhow::Result<()> {
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

/// The protocol loop on stdin and stdout. A panic is logged (stderr is protocol-silent
/// unless RUST_LOG asks) and answered by the session, never printed over the protocol.
fn serve_stdio(options: &EngineOptions, log: Option<Arc<SessionLog>>) -> anyhow::Result<()> {
    std::panic::set_hook(Box::new(|info| log::error!("internal error: {info}")));
    if std::io::IsTerminal::is_terminal(&std::io::stdin()) {
        // A person at a terminal: a word on how to go on, never on stdout (protocol only).
        note(TERMINAL_HINT);
    }
    crate::protocol::serve_stdio(new_engine(options)?, log);
    Ok(())
}

/// The protocol log of `--log FILE`, opened for appending.
fn open_log(path: Option<&std::path::Path>) -> anyhow::Result<Option<Arc<SessionLog>>> {
    path.map(|path| {
        SessionLog::open(path).map_err(|e| anyhow::anyhow!("--log {}: {e}", path.display()))
    })
    .transpose()
}

/// Runs the command line `args` (without the program name); returns the exit code.
/// `started` is when the process started: `emilia move` counts its time from then.
pub(crate) fn run(args: &[String], started: std::time::Instant) -> i32 {
    let (globals, args) = match global_options(args) {
        Ok(parsed) => parsed,
        Err(e) => {
            start_logging(0, None);
            note(&format!("emilia: {e:#}"));
            return 2;
        }
    };
    let (command, rest) = match args.split_first() {
        Some((first, rest)) => (first.as_str(), rest),
        None => ("", &[][..]),
    };
    let log = match open_log(globals.log_file.as_deref().filter(|_| command.is_empty())) {
        Ok(log) => log,
        Err(e) => {
            start_logging(0, None);
            note(&format!("emilia: {e:#}"));
            return 2;
        }
    };
    start_logging(globals.verbosity, log.as_ref());
    let engine_options = &globals.engine;
    let result = match command {
        "-h" | "--help" | "help" => out!("{}", usage()),
        "-V" | "--version" => outln!("emilia {}", env!("CARGO_PKG_VERSION")),
        "play" | "move" | "ggs" if globals.log_file.is_some() => {
            refuse_engine_options(command, &globals)
        }
        "ggs" => ggs::run(rest, engine_options),
        "play" => play::run(rest, || new_engine(engine_options)),
        "move" => move_file::run(rest, started, |mib| {
            new_engine_with_hash(engine_options, mib)
        }),
        "perft" | "bench" | "book" | "solve" | "tune" | "match" | "train" | "analyze"
        | "selfplay"
            if !engine_options.is_empty() || globals.log_file.is_some() =>
        {
            refuse_engine_options(command, &globals)
        }
        "perft" => perft::run(rest),
        "bench" => bench::run(rest),
        "book" => book::run(rest),
        "solve" => solve::run(rest),
        "tune" if rest.first().is_some_and(|a| a == "mpc") => tune_mpc::run(&rest[1..]),
        "tune" => tune::run(rest),
        "match" => match_cmd::run(rest),
        "train" => train::run(rest),
        "analyze" => analyze::run(rest),
        "selfplay" => selfplay::run(rest),
        "" => serve_stdio(engine_options, log),
        other => Err(anyhow::anyhow!(
            "unknown subcommand '{other}'; `emilia --help` lists them"
        )),
    };
    match result {
        Ok(()) => 0,
        // The reader has gone: nothing more to say to it, and nothing went wrong.
        Err(e) if output::is_closed(&e) => 0,
        Err(e) => {
            note(&format!("emilia: {e:#}"));
            2
        }
    }
}
