//! Reading command lines: bounded in length, checked for UTF-8, on a thread of their own so
//! that a `ping` can stop a search while the main thread is busy with it, and so that a
//! client that dies (its end of the pipes closed) stops the search at once.

use std::io::{BufRead, BufReader, Read};
use std::os::fd::RawFd;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{self, Receiver};
use std::sync::Arc;
use std::thread;
use std::time::Duration;

use super::session_log::SessionLog;
use emilia_core::engine::Stopper;

/// Longest command line accepted, in bytes (a 12x12 GGF game with evaluations and times
/// fits several times over).
pub(crate) const MAX_LINE: usize = 16 * 1024;

/// One line of input, or why it cannot be used.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Line {
    /// A complete line, without its line ending.
    Text(String),
    /// A line longer than [`MAX_LINE`]; its length in bytes.
    TooLong(usize),
    /// A line that is not UTF-8; its text with the bad bytes replaced.
    NotUtf8(String),
    /// The input ended in the middle of this line (no line ending).
    Unterminated(String),
}

/// The line as a session log shows it: its text, or what was wrong with it.
impl std::fmt::Display for Line {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Line::Text(text) => f.write_str(text),
            Line::TooLong(bytes) => write!(f, "[{bytes} bytes, too long]"),
            Line::NotUtf8(text) => write!(f, "{text} [not UTF-8]"),
            Line::Unterminated(text) => write!(f, "{text} [no line ending]"),
        }
    }
}

/// Reads lines of at most [`MAX_LINE`] bytes, discarding the rest of longer ones. A UTF-8
/// byte-order mark at the start of the input (some editors write one) is dropped.
pub(crate) struct LineReader<R> {
    input: R,
    first: bool,
}

/// The UTF-8 byte-order mark.
const BOM: &[u8] = b"\xEF\xBB\xBF";

impl<R: BufRead> LineReader<R> {
    /// A reader over `input`.
    pub(crate) fn new(input: R) -> LineReader<R> {
        LineReader { input, first: true }
    }

    /// The next line, or `None` at the end of the input (or on a read error).
    pub(crate) fn next_line(&mut self) -> Option<Line> {
        // Kept: a line of MAX_LINE bytes, with room for a byte-order mark and a CR.
        const KEPT: usize = MAX_LINE + BOM.len() + 1;
        let mut bytes = Vec::new();
        let mut length = 0usize;
        let mut last = None;
        let terminated = loop {
            let chunk = match self.input.fill_buf() {
                Ok(chunk) => chunk,
                Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
                Err(_) => break false,
            };
            if chunk.is_empty() {
                break false;
            }
            let (used, found) = match chunk.iter().position(|&b| b == b'\n') {
                Some(i) => (i + 1, true),
                None => (chunk.len(), false),
            };
            let content = if found { &chunk[..used - 1] } else { chunk };
            length += content.len();
            last = content.last().copied().or(last);
            if bytes.len() < KEPT {
                let room = KEPT - bytes.len();
                bytes.extend_from_slice(&content[..content.len().min(room)]);
            }
            self.input.consume(used);
            if found {
                break true;
            }
        };
        if !terminated && length == 0 {
            return None;
        }
        if std::mem::take(&mut self.first) && bytes.starts_with(BOM) {
            bytes.drain(..BOM.len());
            length -= BOM.len();
        }
        if last == Some(b'\r') && length > 0 {
            length -= 1;
            bytes.truncate(length);
        }
        if length > MAX_LINE {
            return Some(Line::TooLong(length));
        }
        let text = match String::from_utf8(bytes) {
            Ok(text) => text,
            Err(e) => {
                return Some(Line::NotUtf8(
                    String::from_utf8_lossy(e.as_bytes()).into_owned(),
                ))
            }
        };
        Some(if terminated {
            Line::Text(text)
        } else {
            Line::Unterminated(text)
        })
    }
}

/// Interruptions (NBoard `ping` and `quit`, the text protocol's `stop`): the engine's stop
/// requests, made as soon as they are read, marked handled when answered; and whether the
/// client is gone.
#[derive(Clone)]
pub(crate) struct Interrupts {
    /// The engine's stopper, which the reader requests stops of.
    pub(crate) stopper: Stopper,
    gone: Arc<AtomicBool>,
}

impl Interrupts {
    /// Interruptions that stop the engine of `stopper`.
    pub(crate) fn new(stopper: Stopper) -> Interrupts {
        let gone = Arc::new(AtomicBool::new(false));
        Interrupts { stopper, gone }
    }

    /// Records that the client is gone: the search in progress stops, every later one is
    /// the shortest, and the session ends without answering anything more.
    pub(crate) fn client_gone(&self) {
        self.gone.store(true, Ordering::SeqCst);
        self.stopper.request();
    }

    /// Whether the client is gone.
    pub(crate) fn is_gone(&self) -> bool {
        self.gone.load(Ordering::SeqCst)
    }
}

/// The next line, for a session that waits (pondering perhaps) meanwhile. With
/// `ends_process`, the end of the input or a `quit` (`is_quit` writes its answer) ends the
/// process at once: stopping pondering first would wait until every search thread got a
/// core to see the stop, long with many threads on few cores.
pub(crate) fn next_line(
    lines: &Receiver<Line>,
    ends_process: bool,
    is_quit: impl FnOnce(&Line) -> bool,
) -> Result<Line, mpsc::RecvError> {
    let line = lines.recv();
    if ends_process && line.as_ref().map_or(true, is_quit) {
        std::process::exit(0);
    }
    line
}

/// Whether an NBoard line asks the engine to stop thinking.
pub(crate) fn is_nboard_interrupt(line: &str) -> bool {
    matches!(line.split_whitespace().next(), Some("ping" | "quit"))
}

/// Whether a text-protocol line is `stop` (with or without an id): it stops the search in
/// progress, which then answers with its best result so far.
pub(crate) fn is_text_interrupt(line: &str) -> bool {
    let mut words = line.split_whitespace();
    let first = words.next().unwrap_or("");
    let command = if !first.is_empty() && first.bytes().all(|b| b.is_ascii_digit()) {
        words.next().unwrap_or("")
    } else {
        first
    };
    command.eq_ignore_ascii_case("stop")
}

/// Whether a first line opens an NBoard session.
pub(crate) fn is_nboard_hello(line: &str) -> bool {
    line.split_whitespace().next() == Some("nboard")
}

/// How often the output is checked for a hang-up once the input has ended.
const HANGUP_POLL: Duration = Duration::from_millis(15);

/// How long a session may take to notice that its client is gone before the process is
/// ended: work that no stop flag reaches (a deep `perft`) must not run on for nobody.
const GONE_GRACE: Duration = Duration::from_secs(1);

/// What the reader does once its input has ended.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct AtEnd {
    /// The output's file descriptor: in the text protocol the client is gone when it is
    /// hung up (closed by its reader) after the end of the input.
    pub(crate) output: Option<RawFd>,
    /// Whether to end the process when the session has not returned [`GONE_GRACE`] after
    /// the client left.
    pub(crate) exit: bool,
}

/// Whether `fd` reports a hang-up or error within `wait`: for a pipe, its reader is gone.
fn hung_up(fd: RawFd, wait: Duration) -> bool {
    let mut poll = libc::pollfd {
        fd,
        events: 0,
        revents: 0,
    };
    let millis = wait.as_millis().min(i32::MAX as u128) as libc::c_int;
    // SAFETY: one valid pollfd for the duration of the call.
    let ready = unsafe { libc::poll(&mut poll, 1, millis) };
    ready > 0 && poll.revents & (libc::POLLERR | libc::POLLHUP | libc::POLLNVAL) != 0
}

/// Reads `input` on a new thread. Once the first line shows an NBoard session, `ping` and
/// `quit` lines raise `interrupts` as soon as they are read; in a text session, `stop`
/// lines do. After the end of the input the client is gone once `at_end.output` is hung
/// up as well, in either protocol; lines already read are answered meanwhile.
pub(crate) fn spawn_reader<R: Read + Send + 'static>(
    input: R,
    interrupts: Interrupts,
    at_end: AtEnd,
    log: Option<Arc<SessionLog>>,
) -> Receiver<Line> {
    let (sender, receiver) = mpsc::channel();
    thread::Builder::new()
        .name("stdin".into())
        .spawn(move || {
            let mut reader = LineReader::new(BufReader::new(input));
            let mut nboard = None;
            while let Some(line) = reader.next_line() {
                if let Some(log) = &log {
                    log.input(&line.to_string());
                }
                if let Line::Text(text) = &line {
                    let is_nboard = *nboard.get_or_insert_with(|| is_nboard_hello(text));
                    let interrupt = if is_nboard {
                        is_nboard_interrupt(text)
                    } else {
                        is_text_interrupt(text)
                    };
                    if interrupt {
                        interrupts.stopper.request();
                    }
                } else if nboard.is_none() {
                    nboard = Some(false);
                }
                if sender.send(line).is_err() {
                    return;
                }
            }
            drop(sender);
            let Some(fd) = at_end.output else {
                return;
            };
            while !hung_up(fd, HANGUP_POLL) {}
            interrupts.client_gone();
            thread::sleep(GONE_GRACE);
            if at_end.exit {
                log::warn!("the client is gone and the session does not end: exiting");
                std::process::exit(0);
            }
        })
        .expect("the input thread starts");
    receiver
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn text_stop_is_recognised_with_an_id_and_in_any_case() {
        assert!(is_text_interrupt("stop"));
        assert!(is_text_interrupt("12 STOP"));
        assert!(is_text_interrupt("  stop  # now"));
        assert!(!is_text_interrupt("stopper"));
        assert!(!is_text_interrupt("genmove black"));
        assert!(!is_text_interrupt("12"));
    }

    #[test]
    fn nboard_ping_and_quit_interrupt_as_they_are_read() {
        let stopper = Stopper::default();
        let interrupts = Interrupts::new(stopper.clone());
        let receiver = spawn_reader(
            &b"nboard 2\nping 1\ngo\nquit\n"[..],
            interrupts.clone(),
            AtEnd::default(),
            None,
        );
        let all: Vec<Line> = receiver.iter().collect();
        assert_eq!(all.len(), 4);
        stopper.handled();
        assert!(stopper.pending(), "two interruptions were read");
        stopper.handled();
        assert!(!stopper.pending());
        assert!(
            !interrupts.is_gone(),
            "no output to watch: the lines are answered"
        );
    }
}
