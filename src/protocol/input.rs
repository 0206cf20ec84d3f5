//! Reading command lines: bounded in length, checked for UTF-8, on a thread of their own so
//! that a `ping` can stop a search while the main thread is busy with it.

use std::io::{BufRead, BufReader, Read};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::mpsc::{self, Receiver};
use std::sync::Arc;
use std::thread;

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

/// Reads lines of at most [`MAX_LINE`] bytes, discarding the rest of longer ones.
pub(crate) struct LineReader<R> {
    input: R,
}

impl<R: BufRead> LineReader<R> {
    /// A reader over `input`.
    pub(crate) fn new(input: R) -> LineReader<R> {
        LineReader { input }
    }

    /// The next line, or `None` at the end of the input (or on a read error).
    pub(crate) fn next_line(&mut self) -> Option<Line> {
        let mut bytes = Vec::new();
        let mut length = 0usize;
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
            if bytes.len() < MAX_LINE {
                let room = MAX_LINE - bytes.len();
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
        if bytes.last() == Some(&b'\r') {
            bytes.pop();
            length -= 1;
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

/// Counts interruptions (NBoard `ping` and `quit`) read but not yet handled, and raises
/// the engine's stop flag when one arrives.
#[derive(Clone)]
pub(crate) struct Interrupts {
    pending: Arc<AtomicUsize>,
    stop: Arc<AtomicBool>,
}

impl Interrupts {
    /// Interruptions that raise `stop`.
    pub(crate) fn new(stop: Arc<AtomicBool>) -> Interrupts {
        Interrupts {
            pending: Arc::new(AtomicUsize::new(0)),
            stop,
        }
    }

    /// Records an interruption read from the input.
    pub(crate) fn raise(&self) {
        self.pending.fetch_add(1, Ordering::SeqCst);
        self.stop.store(true, Ordering::SeqCst);
    }

    /// Marks one interruption as handled.
    pub(crate) fn handled(&self) {
        let _ = self
            .pending
            .fetch_update(Ordering::SeqCst, Ordering::SeqCst, |n| n.checked_sub(1));
    }

    /// Whether an interruption is waiting: a search started now should return at once.
    pub(crate) fn pending(&self) -> bool {
        self.pending.load(Ordering::SeqCst) > 0
    }
}

/// Whether an NBoard line asks the engine to stop thinking.
pub(crate) fn is_nboard_interrupt(line: &str) -> bool {
    matches!(line.split_whitespace().next(), Some("ping" | "quit"))
}

/// Whether a first line opens an NBoard session.
pub(crate) fn is_nboard_hello(line: &str) -> bool {
    line.split_whitespace().next() == Some("nboard")
}

/// Reads `input` on a new thread. Once the first line shows an NBoard session, `ping` and
/// `quit` lines raise `interrupts` as soon as they are read.
pub(crate) fn spawn_reader<R: Read + Send + 'static>(
    input: R,
    interrupts: Interrupts,
) -> Receiver<Line> {
    let (sender, receiver) = mpsc::channel();
    thread::Builder::new()
        .name("stdin".into())
        .spawn(move || {
            let mut reader = LineReader::new(BufReader::new(input));
            let mut nboard = None;
            while let Some(line) = reader.next_line() {
                if let Line::Text(text) = &line {
                    let is_nboard = *nboard.get_or_insert_with(|| is_nboard_hello(text));
                    if is_nboard && is_nboard_interrupt(text) {
                        interrupts.raise();
                    }
                } else if nboard.is_none() {
                    nboard = Some(false);
                }
                if sender.send(line).is_err() {
                    break;
                }
            }
        })
        .expect("the input thread starts");
    receiver
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lines(input: &[u8]) -> Vec<Line> {
        let mut reader = LineReader::new(input);
        std::iter::from_fn(|| reader.next_line()).collect()
    }

    #[test]
    fn splits_lines_and_reports_what_is_wrong() {
        assert_eq!(
            lines(b"name\r\n\nplay f5\nquit"),
            vec![
                Line::Text("name".into()),
                Line::Text(String::new()),
                Line::Text("play f5".into()),
                Line::Unterminated("quit".into()),
            ]
        );
        let mut long = vec![b'x'; MAX_LINE + 10];
        long.extend_from_slice(b"\nname\n");
        assert_eq!(
            lines(&long),
            vec![Line::TooLong(MAX_LINE + 10), Line::Text("name".into())]
        );
        assert_eq!(
            lines(b"play \xff\xfe\nname\n"),
            vec![
                Line::NotUtf8("play \u{fffd}\u{fffd}".into()),
                Line::Text("name".into())
            ]
        );
        assert_eq!(lines(b""), vec![]);
    }

    #[test]
    fn interrupts_count_and_stop() {
        let stop = Arc::new(AtomicBool::new(false));
        let interrupts = Interrupts::new(Arc::clone(&stop));
        let receiver = spawn_reader(&b"nboard 2\nping 1\ngo\nquit\n"[..], interrupts.clone());
        let all: Vec<Line> = receiver.iter().collect();
        assert_eq!(all.len(), 4);
        assert!(stop.load(Ordering::SeqCst));
        assert!(interrupts.pending());
        interrupts.handled();
        interrupts.handled();
        interrupts.handled();
        assert!(!interrupts.pending());
    }
}
