//! The `emilia` binary: the protocol loop by default, tools as subcommands.

fn main() {
    // First of all: `emilia move` counts its seconds from here, as a referee timing the
    // whole process does.
    let started = std::time::Instant::now();
    // Logs go to stderr and are off unless RUST_LOG asks for them: stdout is protocol only.
    env_logger::Builder::from_env(env_logger::Env::default().default_filter_or("off")).init();
    let args: Vec<String> = std::env::args().skip(1).collect();
    std::process::exit(emilia::cli::run(&args, started));
}
