//! Command-line front-end: picks the subcommand and reports errors. Each subcommand lives in
//! its own module and only calls the library.

mod args;
mod bench;
mod bench_clock;
mod bench_eval;
mod bench_perft;
mod bench_search;
mod match_cmd;
mod move_file;
mod output;
mod perft;
mod play;
mod solve;
mod train;
mod tune;

pub(crate) use args::Args;
use output::{note, out, outln};

/// One line per subcommand for `emilia --help`.
const SUBCOMMANDS: &[(&str, &str)] = &[
    (
        "perft",
        "count game-tree leaves to a depth (move generation check)",
    ),
    ("bench", "run the speed benchmarks"),
    ("play", "play a game against Emilia at the terminal"),
    (
        "move",
        "play one move on a board file, writing the next file (for referees)",
    ),
    ("solve", "solve 8x8 endgame positions exactly"),
    ("tune", "fit the evaluation weights to self-play games"),
    (
        "match",
        "play two engines against each other and report the score",
    ),
    (
        "train",
        "fit the pattern evaluation to game records, write a weights file",
    ),
];

fn usage() -> String {
    let mut text = String::from(
        "emilia - an Othello engine\n\nUsage: emilia [SUBCOMMAND] [OPTIONS]\n\n\
         With no subcommand, reads protocol commands on stdin (see protocol.md).\n\n\
         Subcommands:\n",
    );
    for (name, what) in SUBCOMMANDS {
        text.push_str(&format!("  {name:<8} {what}\n"));
    }
    text.push_str("\nOptions:\n  -h, --help     this help; `emilia SUBCOMMAND --help` for one\n");
    text.push_str("  -V, --version  print the version\n");
    text.push_str("\nEngine options, before any subcommand (as setoption NAME VALUE):\n");
    text.push_str(&crate::engine::command_line_help());
    text.push_str(
        "  (they set the engine of the protocol session, `play` and `move`; other\n  \
         subcommands refuse them)\n",
    );
    text
}

/// Engine options as `(name, value)` pairs for `Engine::set_option`.
type EngineOptions = Vec<(String, String)>;

/// Engine options given before the subcommand (`emilia --player greedy`), and the
/// arguments after them.
fn global_options(args: &[String]) -> anyhow::Result<(EngineOptions, &[String])> {
    let mut options = Vec::new();
    let mut rest = args;
    while let [flag, tail @ ..] = rest {
        let Some(name) = flag
            .strip_prefix("--")
            .filter(|name| crate::engine::find_option(name).is_some())
        else {
            break;
        };
        let [value, tail @ ..] = tail else {
            anyhow::bail!("{flag} needs a value");
        };
        // Checked now so that a typo fails before any protocol session starts.
        crate::engine::check_option(name, value)?;
        options.push((name.to_string(), value.clone()));
        rest = tail;
    }
    Ok((options, rest))
}

/// An engine with the options given before the subcommand.
fn new_engine(options: &EngineOptions) -> anyhow::Result<crate::engine::Engine> {
    let mut engine = crate::engine::Engine::new();
    for (name, value) in options {
        engine.set_option(name, value)?;
    }
    Ok(engine)
}

/// Fails when engine options were given before a subcommand that has no use for them,
/// rather than ignoring them.
fn refuse_engine_options(command: &str, options: &EngineOptions) -> anyhow::Result<()> {
    let Some((name, _)) = options.first() else {
        return Ok(());
    };
    let instead = match command {
        "match" => "; give it in an engine's command: --engine \"emilia --player greedy\"",
        "bench" => "; see `emilia bench --help` for the benchmarks' own options",
        "solve" | "perft" => ": it plays no moves of its own choosing",
        _ => "",
    };
    anyhow::bail!(
        "--{name} sets the engine of the protocol session, `play` and `move`; \
         `{command}` does not use it{instead}"
    )
}

/// The protocol loop on stdin and stdout. A panic is logged (stderr is protocol-silent
/// unless RUST_LOG asks) and answered by the session, never printed over the protocol.
fn serve_stdio(options: &EngineOptions) -> anyhow::Result<()> {
    std::panic::set_hook(Box::new(|info| log::error!("internal error: {info}")));
    crate::protocol::serve_stdio(new_engine(options)?);
    Ok(())
}

/// Runs the command line `args` (without the program name); returns the exit code.
/// `started` is when the process started: `emilia move` counts its time from then.
pub fn run(args: &[String], started: std::time::Instant) -> i32 {
    let (engine_options, args) = match global_options(args) {
        Ok(parsed) => parsed,
        Err(e) => {
            note(&format!("emilia: {e:#}"));
            return 2;
        }
    };
    let (command, rest) = match args.split_first() {
        Some((first, rest)) => (first.as_str(), rest),
        None => ("", &[][..]),
    };
    let result = match command {
        "-h" | "--help" | "help" => out!("{}", usage()),
        "-V" | "--version" => outln!("emilia {}", env!("CARGO_PKG_VERSION")),
        "play" => play::run(rest, || new_engine(&engine_options)),
        "move" => move_file::run(rest, started, || new_engine(&engine_options)),
        "perft" | "bench" | "solve" | "tune" | "match" | "train" if !engine_options.is_empty() => {
            refuse_engine_options(command, &engine_options)
        }
        "perft" => perft::run(rest),
        "bench" => bench::run(rest),
        "solve" => solve::run(rest),
        "tune" => tune::run(rest),
        "match" => match_cmd::run(rest),
        "train" => train::run(rest),
        "" => serve_stdio(&engine_options),
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
