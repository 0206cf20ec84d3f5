//! The protocol log (`emilia --log FILE`): every line read and written in a session, with
//! the seconds since the session started, appended to a file. GUI users cannot see the
//! pipes between their GUI and the engine; the log shows them what went over them.

use std::fs::{File, OpenOptions};
use std::io::Write;
use std::path::Path;
use std::sync::{Arc, Mutex};
use std::time::Instant;

/// Where a logged line went.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Direction {
    /// Read from the client.
    In,
    /// Written to the client.
    Out,
    /// A note of the engine's own (the session's start, log messages).
    Note,
}

impl Direction {
    /// The mark of the direction, as protocol.md's transcripts write it.
    fn mark(self) -> char {
        match self {
            Direction::In => '>',
            Direction::Out => '<',
            Direction::Note => '#',
        }
    }
}

/// An open protocol log, shared by the input thread, the output and the logger.
pub(crate) struct SessionLog {
    file: Mutex<File>,
    start: Instant,
}

impl SessionLog {
    /// Opens `path` for appending (creating it if needed): earlier sessions stay.
    pub(crate) fn open(path: &Path) -> std::io::Result<Arc<SessionLog>> {
        let file = OpenOptions::new().append(true).create(true).open(path)?;
        Ok(Arc::new(SessionLog {
            file: Mutex::new(file),
            start: Instant::now(),
        }))
    }

    /// Appends one line: seconds since the start, the direction's mark, the text. A line is
    /// written with one call, so that lines from several threads do not mix; a failed write
    /// is ignored (the session matters more than its log).
    pub(crate) fn line(&self, direction: Direction, text: &str) {
        let seconds = self.start.elapsed().as_secs_f64();
        let line = format!("{seconds:9.3} {} {text}\n", direction.mark());
        let line = line.replace(" \n", "\n");
        if let Ok(mut file) = self.file.lock() {
            let _ = file.write_all(line.as_bytes());
        }
    }

    /// Appends every line of `text` written to the client (a blank line too: it ends a
    /// text-protocol reply).
    pub(crate) fn output(&self, text: &str) {
        for line in text.lines() {
            self.line(Direction::Out, line);
        }
    }

    /// Appends a line read from the client, or what was wrong with it.
    pub(crate) fn input(&self, line: &str) {
        self.line(Direction::In, line);
    }

    /// A writer of log messages into the log, each line as a note.
    pub(crate) fn messages(self: &Arc<SessionLog>) -> Messages {
        Messages(Arc::clone(self))
    }
}

/// Log messages written into a [`SessionLog`] (the logger's target with `--log`).
pub(crate) struct Messages(Arc<SessionLog>);

impl Write for Messages {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        for line in String::from_utf8_lossy(buf).lines() {
            self.0.line(Direction::Note, line);
        }
        Ok(buf.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::protocol::input::Line;

    #[test]
    fn lines_are_appended_with_time_and_direction() {
        let path = std::env::temp_dir().join(format!("emilia-log-{}.txt", std::process::id()));
        std::fs::write(&path, "earlier session\n").unwrap();
        let log = SessionLog::open(&path).unwrap();
        log.input("genmove black");
        log.output("= f5\n\n");
        log.input(&Line::TooLong(20000).to_string());
        writeln!(log.messages(), "INFO emilia: depth 3").unwrap();
        let text = std::fs::read_to_string(&path).unwrap();
        std::fs::remove_file(&path).unwrap();
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines[0], "earlier session");
        let shown: Vec<&str> = lines[1..].iter().map(|l| &l[10..]).collect();
        assert_eq!(
            shown,
            [
                "> genmove black",
                "< = f5",
                "<",
                "> [20000 bytes, too long]",
                "# INFO emilia: depth 3"
            ]
        );
        assert!(lines[1][..9].trim().parse::<f64>().is_ok(), "{}", lines[1]);
    }
}
