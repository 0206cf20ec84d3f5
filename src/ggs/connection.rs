//! The connection to the server: lines in (CRLF or LF, Latin-1, each with a length bound,
//! read with a short timeout so that the client loop stays awake), lines out through a
//! shared writer that game threads use too, and the session log with the password
//! redacted from every line.

use std::io::{ErrorKind, Read, Write};
use std::net::{TcpStream, ToSocketAddrs};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use anyhow::{anyhow, Context, Result};

use crate::protocol::session_log::{Direction, SessionLog};

use super::message::MAX_LINE;

/// What replaces the password wherever it would be written.
const REDACTED: &str = "********";

/// The session log, with the password kept out of it.
#[derive(Clone)]
pub(crate) struct Log {
    file: Option<Arc<SessionLog>>,
    secret: Arc<String>,
}

impl Log {
    pub(crate) fn new(file: Option<Arc<SessionLog>>, secret: &str) -> Log {
        Log {
            file,
            secret: Arc::new(secret.to_string()),
        }
    }

    /// `text` with the password replaced.
    pub(crate) fn redact(&self, text: &str) -> String {
        if self.secret.is_empty() {
            text.to_string()
        } else {
            text.replace(self.secret.as_str(), REDACTED)
        }
    }

    fn line(&self, direction: Direction, text: &str) {
        if let Some(file) = &self.file {
            file.line(direction, &self.redact(text));
        }
    }

    /// A note of the client's own (decisions, results, reconnections).
    pub(crate) fn note(&self, text: &str) {
        log::info!("{}", self.redact(text));
        self.line(Direction::Note, text);
    }
}

/// The writing half, shared with the game threads; replaced on reconnection.
pub(crate) struct Writer {
    stream: Mutex<Option<TcpStream>>,
    log: Log,
}

impl Writer {
    pub(crate) fn new(log: Log) -> Arc<Writer> {
        Arc::new(Writer {
            stream: Mutex::new(None),
            log,
        })
    }

    pub(crate) fn log(&self) -> &Log {
        &self.log
    }

    fn attach(&self, stream: Option<TcpStream>) {
        if let Ok(mut slot) = self.stream.lock() {
            *slot = stream;
        }
    }

    /// Sends one line (`\n` added); an error when there is no connection or it failed.
    pub(crate) fn send(&self, line: &str) -> Result<()> {
        self.log.line(Direction::Out, line);
        self.write(line)
    }

    /// Sends the password: the log shows it redacted.
    pub(crate) fn send_secret(&self, secret: &str) -> Result<()> {
        self.log.line(Direction::Out, REDACTED);
        self.write(secret)
    }

    fn write(&self, line: &str) -> Result<()> {
        let mut slot = self
            .stream
            .lock()
            .map_err(|_| anyhow!("the connection's lock is poisoned"))?;
        let stream = slot.as_mut().ok_or_else(|| anyhow!("not connected"))?;
        // Latin-1, as the server speaks it; other characters become '?'.
        let mut bytes: Vec<u8> = line
            .chars()
            .map(|c| u8::try_from(u32::from(c)).unwrap_or(b'?'))
            .collect();
        bytes.push(b'\n');
        stream.write_all(&bytes).context("writing to the server")
    }

    /// Closes the connection (a blocked reader sees its end).
    pub(crate) fn close(&self) {
        if let Ok(mut slot) = self.stream.lock() {
            if let Some(stream) = slot.take() {
                let _ = stream.shutdown(std::net::Shutdown::Both);
            }
        }
    }
}

/// The reading half.
pub(crate) struct Reader {
    stream: TcpStream,
    pending: Vec<u8>,
    /// Whether the line being read is already too long (its rest is dropped).
    overlong: bool,
    log: Log,
}

/// What one read gave.
pub(crate) enum Incoming {
    Line(String),
    /// Nothing within the poll interval.
    Quiet,
    /// The server closed the connection.
    Closed,
}

/// How long one read waits before the loop looks at its clocks and flags.
const POLL: Duration = Duration::from_millis(50);

/// Connects to `host:port` within `timeout`, attaching the writing half to `writer`.
pub(crate) fn connect(host: &str, port: u16, timeout: Duration, writer: &Writer) -> Result<Reader> {
    let addresses: Vec<_> = (host, port)
        .to_socket_addrs()
        .with_context(|| format!("looking up {host}"))?
        .collect();
    let mut last = anyhow!("{host} has no address");
    for address in addresses {
        match TcpStream::connect_timeout(&address, timeout) {
            Ok(stream) => {
                stream.set_read_timeout(Some(POLL))?;
                stream.set_write_timeout(Some(Duration::from_secs(10)))?;
                let _ = stream.set_nodelay(true);
                writer.attach(Some(stream.try_clone()?));
                return Ok(Reader {
                    stream,
                    pending: Vec::new(),
                    overlong: false,
                    log: writer.log.clone(),
                });
            }
            Err(e) => last = anyhow!("connecting to {address}: {e}"),
        }
    }
    Err(last)
}

impl Reader {
    /// The next line, or `Quiet` after the poll interval. A prompt that ends without a
    /// line end (`: Enter your password.`) counts as a line once the server pauses.
    pub(crate) fn next(&mut self) -> Result<Incoming> {
        loop {
            if let Some(end) = self.pending.iter().position(|&b| b == b'\n') {
                let rest = self.pending.split_off(end + 1);
                let line = std::mem::replace(&mut self.pending, rest);
                let overlong = std::mem::take(&mut self.overlong);
                if overlong {
                    self.log
                        .line(Direction::Note, "a line over the length bound, cut");
                }
                return Ok(Incoming::Line(self.text(&line)));
            }
            if self.pending.len() > MAX_LINE {
                self.pending.truncate(MAX_LINE);
                self.overlong = true;
            }
            let mut chunk = [0u8; 8192];
            match self.stream.read(&mut chunk) {
                Ok(0) => return Ok(Incoming::Closed),
                Ok(n) => {
                    if self.overlong {
                        // Drop the rest of an overlong line up to its end.
                        match chunk[..n].iter().position(|&b| b == b'\n') {
                            Some(end) => self.pending.extend_from_slice(&chunk[end..n]),
                            None => continue,
                        }
                    } else {
                        self.pending.extend_from_slice(&chunk[..n]);
                    }
                }
                Err(e) if matches!(e.kind(), ErrorKind::WouldBlock | ErrorKind::TimedOut) => {
                    if self.pending.starts_with(b": Enter") {
                        let line = std::mem::take(&mut self.pending);
                        return Ok(Incoming::Line(self.text(&line)));
                    }
                    return Ok(Incoming::Quiet);
                }
                Err(e) if e.kind() == ErrorKind::Interrupted => {}
                Err(_) => return Ok(Incoming::Closed),
            }
        }
    }

    /// Waits up to `within` for a line containing one of `texts`; which one.
    pub(crate) fn wait_for(&mut self, texts: &[&str], within: Duration) -> Result<usize> {
        let end = Instant::now() + within;
        while Instant::now() < end {
            match self.next()? {
                Incoming::Line(line) => {
                    if let Some(found) = texts.iter().position(|t| line.contains(t)) {
                        return Ok(found);
                    }
                }
                Incoming::Quiet => {}
                Incoming::Closed => return Err(anyhow!("the server closed the connection")),
            }
        }
        Err(anyhow!(
            "no '{}' from the server within {}s",
            texts[0],
            within.as_secs()
        ))
    }

    /// A line's text: Latin-1 decoded, line end and control characters gone, logged.
    fn text(&self, bytes: &[u8]) -> String {
        let text: String = bytes
            .iter()
            .map(|&b| char::from(b))
            .filter(|c| !c.is_control())
            .collect();
        self.log.line(Direction::In, &text);
        text
    }
}
