//! Command-line front-end: picks the subcommand and reports errors. Each subcommand lives in
//! its own module and only calls the library; what several share has a module of its own
//! (`args`, `output`, `engines`, `signals`, `cpu_time`).

mod analyze;
mod args;
mod bench;
mod bench_clock;
mod bench_eval;
mod bench_perft;
mod bench_search;
mod book;
mod cpu_time;
mod engines;
mod ggs;
mod globals;
mod logging;
mod match_cmd;
mod move_file;
mod output;
mod perft;
mod play;
mod protocol_session;
mod selfplay;
mod signals;
mod solve;
mod train;
mod tune;
mod tune_mpc;

use engines::{new_engine, new_engine_with_hash};
use globals::{global_options, refuse_engine_options};
use logging::start_logging;
use output::{note, out, outln};

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
    let log = match protocol_session::open_log(
        globals.log_file.as_deref().filter(|_| command.is_empty()),
    ) {
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
        "" => protocol_session::run(engine_options, log),
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
