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
mod perft;
mod play;
mod solve;
mod train;
mod tune;

pub use args::Args;

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
    text.push_str(
        "  --player NAME  play as a baseline player instead of the real search: emilia \
         (default),\n                 random, greedy, squares, quadrant, kukreja, phased\n",
    );
    text.push_str("  --seed N       seed of the baseline players' random choices\n");
    text.push_str("  --eval NAME    evaluation: pattern (default), classic or squares\n");
    text.push_str("  --weights FILE the pattern evaluation's weights file (default: built in)\n");
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
        let name = match flag.as_str() {
            "--player" => "player",
            "--seed" => "seed",
            "--eval" => "eval",
            "--weights" => "weights",
            _ => break,
        };
        let [value, tail @ ..] = tail else {
            anyhow::bail!("{flag} needs a value");
        };
        // Checked now so that a typo fails before any protocol session starts.
        crate::engine::Engine::with_hash(1).set_option(name, value)?;
        options.push((name.to_string(), value.clone()));
        rest = tail;
    }
    Ok((options, rest))
}

/// The protocol loop on stdin and stdout. A panic is logged (stderr is protocol-silent
/// unless RUST_LOG asks) and answered by the session, never printed over the protocol.
fn serve_stdio(options: &EngineOptions) -> anyhow::Result<()> {
    std::panic::set_hook(Box::new(|info| log::error!("internal error: {info}")));
    let mut engine = crate::engine::Engine::new();
    for (name, value) in options {
        engine.set_option(name, value)?;
    }
    crate::protocol::serve(engine, std::io::stdin(), std::io::stdout().lock());
    Ok(())
}

/// Runs the command line `args` (without the program name); returns the exit code.
pub fn run(args: &[String]) -> i32 {
    let (engine_options, args) = match global_options(args) {
        Ok(parsed) => parsed,
        Err(e) => {
            eprintln!("emilia: {e:#}");
            return 2;
        }
    };
    let (command, rest) = match args.split_first() {
        Some((first, rest)) => (first.as_str(), rest),
        None => ("", &[][..]),
    };
    let result = match command {
        "-h" | "--help" | "help" => {
            print!("{}", usage());
            Ok(())
        }
        "-V" | "--version" => {
            println!("emilia {}", env!("CARGO_PKG_VERSION"));
            Ok(())
        }
        "perft" => perft::run(rest),
        "bench" => bench::run(rest),
        "play" => play::run(rest),
        "move" => move_file::run(rest),
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
        Err(e) => {
            eprintln!("emilia: {e:#}");
            2
        }
    }
}
