//! Command-line front-end: picks the subcommand and reports errors. Each subcommand lives in
//! its own module and only calls the library.

mod args;
mod bench;
mod perft;
mod train;

pub use args::Args;

/// One line per subcommand for `emilia --help`.
const SUBCOMMANDS: &[(&str, &str)] = &[
    (
        "perft",
        "count game-tree leaves to a depth (move generation check)",
    ),
    ("bench", "run the speed benchmarks"),
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
    text
}

/// Runs the command line `args` (without the program name); returns the exit code.
pub fn run(args: &[String]) -> i32 {
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
        "train" => train::run(rest),
        "" => {
            eprintln!("{}", usage());
            Ok(())
        }
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
