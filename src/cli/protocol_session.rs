//! The protocol session: what `emilia` runs with no subcommand, the text protocol and NBoard
//! on stdin and stdout (protocol.md), with its log of `--log FILE`.

use std::sync::Arc;

use super::engines::{new_engine, EngineOptions};
use super::output::note;
use crate::protocol::session_log::SessionLog;

/// What `emilia` alone says on stderr when a person types at it.
const TERMINAL_HINT: &str = "emilia: reading protocol commands (type help for them, quit or \
     Ctrl-D to leave); `emilia play` plays a game here, `emilia --help` lists the rest";

/// The protocol loop on stdin and stdout. A panic is logged (stderr is protocol-silent
/// unless RUST_LOG asks) and answered by the session, never printed over the protocol.
pub(super) fn run(options: &EngineOptions, log: Option<Arc<SessionLog>>) -> anyhow::Result<()> {
    std::panic::set_hook(Box::new(|info| log::error!("internal error: {info}")));
    if std::io::IsTerminal::is_terminal(&std::io::stdin()) {
        // A person at a terminal: a word on how to go on, never on stdout (protocol only).
        note(TERMINAL_HINT);
    }
    crate::protocol::serve_stdio(new_engine(options)?, log);
    Ok(())
}

/// The protocol log of `--log FILE`, opened for appending.
pub(super) fn open_log(path: Option<&std::path::Path>) -> anyhow::Result<Option<Arc<SessionLog>>> {
    path.map(|path| {
        SessionLog::open(path).map_err(|e| anyhow::anyhow!("--log {}: {e}", path.display()))
    })
    .transpose()
}
