//! The protocol front-ends: `emilia` with no arguments reads commands on stdin and answers
//! on stdout. The first line picks the protocol: `nboard <version>` opens an NBoard
//! session, anything else is the text protocol (GTP framing, Othello commands). Both drive
//! the engine only through its public interface.

pub(crate) mod diagram;
pub(crate) mod input;
mod names;
pub(crate) mod nboard;
pub(crate) mod session_log;
pub(crate) mod text;

use std::io::{Read, Write};
use std::sync::Arc;

use emilia_core::engine::Engine;
use input::{is_nboard_hello, spawn_reader, AtEnd, Interrupts, Line};
use session_log::{Direction, SessionLog};

/// Runs `handle` on the line `what`; a panic in it is logged and becomes an internal
/// error, so that the session goes on answering.
fn guarded<T>(what: &str, handle: impl FnOnce() -> T) -> Result<T, String> {
    std::panic::catch_unwind(std::panic::AssertUnwindSafe(handle)).map_err(|cause| {
        let cause = cause
            .downcast_ref::<&str>()
            .map(|s| s.to_string())
            .or_else(|| cause.downcast_ref::<String>().cloned())
            .unwrap_or_default();
        log::error!("internal error in '{what}': {cause}");
        format!("internal error: {cause}")
    })
}

/// Replies on their way out: every write is flushed at once, and a failed write (the
/// reader went away) closes the output for good, so the session ends quietly.
pub(crate) struct Output<W: Write> {
    sink: W,
    open: bool,
    log: Option<Arc<SessionLog>>,
}

impl<W: Write> Output<W> {
    /// Output to `sink`.
    pub(crate) fn new(sink: W) -> Output<W> {
        Output {
            sink,
            open: true,
            log: None,
        }
    }

    /// Writes `text` and flushes; `false` once the output is closed.
    pub(crate) fn send(&mut self, text: &str) -> bool {
        if let Some(log) = &self.log {
            log.output(text);
        }
        if self.open {
            let written = self
                .sink
                .write_all(text.as_bytes())
                .and_then(|_| self.sink.flush());
            self.open = written.is_ok();
        }
        self.open
    }

    /// Writes one line.
    pub(crate) fn line(&mut self, text: &str) -> bool {
        self.send(&format!("{text}\n"))
    }

    /// Whether writes still succeed.
    pub(crate) fn is_open(&self) -> bool {
        self.open
    }
}

/// Serves one session on the process's standard input and output. At the end of the input
/// a session answers what it has read, in order, unless its output is closed too: then the
/// client is gone, the search in progress stops and the session ends (the process too,
/// should it not notice within a second).
/// With `log`, every line read and written is appended to it, after a note of the
/// engine's version and options.
pub(crate) fn serve_stdio(engine: Engine, log: Option<Arc<SessionLog>>) {
    let at_end = AtEnd {
        output: Some(std::os::fd::AsRawFd::as_raw_fd(&std::io::stdout())),
        exit: true,
    };
    if let Some(log) = &log {
        log_start(log, &engine);
    }
    serve_until(
        engine,
        std::io::stdin(),
        std::io::stdout().lock(),
        at_end,
        log,
    );
}

/// Notes the session's start in the log: when, which version, and every option's value
/// as the engine holds it (what the command line set, seen from the engine).
fn log_start(log: &SessionLog, engine: &Engine) {
    let options: Vec<String> = emilia_core::engine::OPTIONS
        .iter()
        .map(|o| format!("{} {}", o.name, engine.option(o.name).unwrap_or_default()))
        .collect();
    log.line(
        Direction::Note,
        &format!(
            "emilia {} session started {}, process {}",
            env!("CARGO_PKG_VERSION"),
            emilia_core::formats::ggf::now_utc(),
            std::process::id()
        ),
    );
    log.line(Direction::Note, &format!("options: {}", options.join(", ")));
}

/// Serves one session on `input` and `output` until `quit`, the end of the input (as
/// `at_end` says), or a closed output; logs every line to `log` if given.
fn serve_until<R: Read + Send + 'static, W: Write>(
    engine: Engine,
    input: R,
    output: W,
    at_end: AtEnd,
    log: Option<Arc<SessionLog>>,
) {
    let interrupts = Interrupts::new(engine.stopper());
    let lines = spawn_reader(input, interrupts.clone(), at_end, log.clone());
    let mut out = Output::new(output);
    out.log = log;
    let Ok(first) = lines.recv() else {
        return;
    };
    match first {
        Line::Text(ref hello) if is_nboard_hello(hello) => {
            nboard::serve(engine, &lines, &mut out, interrupts, at_end.exit)
        }
        first => text::serve(engine, first, &lines, &mut out, &interrupts, at_end.exit),
    }
}
