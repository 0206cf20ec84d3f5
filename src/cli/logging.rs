//! The log: `-v` sets its level, `RUST_LOG` wins where it is set; messages go to stderr,
//! or into the protocol log when there is one.

use std::sync::Arc;

use crate::protocol::session_log::SessionLog;

/// Starts the logger: `-v` sets the level, `RUST_LOG` (which can name modules) wins where
/// it is set; messages go to stderr, or into the protocol log when there is one.
pub(super) fn start_logging(verbosity: u8, log: Option<&Arc<SessionLog>>) {
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
