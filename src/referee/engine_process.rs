//! An engine as a child process: lines to its stdin, lines from its stdout with deadlines.
//! Its stdout is read on a thread feeding a channel, so that a hung engine can be timed out
//! and killed instead of blocking the referee.

use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::time::{Duration, Instant};

use anyhow::{anyhow, bail, Context, Result};

/// Why no line came.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum ReadError {
    /// The deadline passed first.
    Timeout,
    /// The engine closed its output: it exited or crashed.
    Closed,
}

/// A running engine.
pub(crate) struct EngineProcess {
    child: Child,
    stdin: Option<ChildStdin>,
    lines: Receiver<String>,
    label: String,
}

impl EngineProcess {
    /// Starts the command line `command` (words split as a shell would, see
    /// [`split_command_line`]) in directory `dir`, with its stderr shown or discarded.
    /// `label` names the engine in logs.
    pub(crate) fn spawn(
        command: &str,
        dir: Option<&Path>,
        show_stderr: bool,
        label: &str,
    ) -> Result<EngineProcess> {
        let words = split_command_line(command)?;
        let (program, args) = words
            .split_first()
            .ok_or_else(|| anyhow!("empty engine command"))?;
        let mut process = Command::new(resolve_program(program));
        process
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(if show_stderr {
                Stdio::inherit()
            } else {
                Stdio::null()
            });
        if let Some(dir) = dir {
            process.current_dir(dir);
        }
        let mut child = process
            .spawn()
            .with_context(|| format!("cannot start engine '{command}'"))?;
        let stdout = child.stdout.take().expect("stdout is piped");
        let stdin = child.stdin.take();
        let (sender, lines) = mpsc::channel();
        let thread_label = label.to_string();
        std::thread::Builder::new()
            .name(format!("read {label}"))
            .spawn(move || {
                let mut reader = BufReader::new(stdout);
                let mut bytes = Vec::new();
                loop {
                    bytes.clear();
                    match reader.read_until(b'\n', &mut bytes) {
                        Ok(0) | Err(_) => break,
                        Ok(_) => {
                            let line = String::from_utf8_lossy(&bytes);
                            let line = line.trim_end_matches(['\n', '\r']).to_string();
                            log::debug!("{thread_label} > {line}");
                            if sender.send(line).is_err() {
                                break;
                            }
                        }
                    }
                }
            })
            .context("cannot start a reader thread")?;
        log::debug!("started {label}: {command}");
        Ok(EngineProcess {
            child,
            stdin,
            lines,
            label: label.to_string(),
        })
    }

    /// Sends one line. Fails when the engine no longer reads its input.
    pub(crate) fn send(&mut self, line: &str) -> Result<(), ReadError> {
        log::debug!("{} < {line}", self.label);
        let stdin = self.stdin.as_mut().ok_or(ReadError::Closed)?;
        let sent = stdin
            .write_all(line.as_bytes())
            .and_then(|_| stdin.write_all(b"\n"))
            .and_then(|_| stdin.flush());
        sent.map_err(|_| ReadError::Closed)
    }

    /// The next line of output, waiting until `deadline` at most.
    pub(crate) fn read_line(&mut self, deadline: Instant) -> Result<String, ReadError> {
        let wait = deadline.saturating_duration_since(Instant::now());
        match self.lines.recv_timeout(wait) {
            Ok(line) => Ok(line),
            Err(RecvTimeoutError::Timeout) => Err(ReadError::Timeout),
            Err(RecvTimeoutError::Disconnected) => Err(ReadError::Closed),
        }
    }

    /// How the process ended, waiting up to `grace` for it; `None` if it still runs.
    pub(crate) fn exit_status(&mut self, grace: Duration) -> Option<String> {
        let until = Instant::now() + grace;
        loop {
            match self.child.try_wait() {
                Ok(Some(status)) => return Some(describe_exit(status)),
                Ok(None) if Instant::now() < until => std::thread::sleep(Duration::from_millis(5)),
                Ok(None) => return None,
                Err(e) => return Some(format!("unknown exit ({e})")),
            }
        }
    }

    /// Closes its input, gives it `grace` to exit on its own, then kills it.
    pub(crate) fn shut_down(&mut self, grace: Duration) {
        self.stdin = None;
        if self.exit_status(grace).is_none() {
            self.kill();
        }
    }

    /// Kills the process and reaps it.
    pub(crate) fn kill(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
        log::debug!("{} killed", self.label);
    }
}

impl Drop for EngineProcess {
    fn drop(&mut self) {
        if matches!(self.child.try_wait(), Ok(None)) {
            self.kill();
        }
    }
}

fn describe_exit(status: std::process::ExitStatus) -> String {
    #[cfg(unix)]
    {
        use std::os::unix::process::ExitStatusExt;
        if let Some(signal) = status.signal() {
            return format!("killed by signal {signal}");
        }
    }
    match status.code() {
        Some(code) => format!("exit code {code}"),
        None => "unknown exit".to_string(),
    }
}

/// A program path with a directory part is taken relative to the referee's working
/// directory, whatever directory the engine runs in.
fn resolve_program(program: &str) -> PathBuf {
    let path = Path::new(program);
    if path.is_relative() && path.components().count() > 1 {
        if let Ok(cwd) = std::env::current_dir() {
            return cwd.join(path);
        }
    }
    path.to_path_buf()
}

/// Splits a command line into words as a POSIX shell would for plain commands: spaces
/// separate words; single quotes keep everything literally; double quotes keep spaces and
/// honour `\"` and `\\`; a backslash outside quotes escapes the next character.
pub(crate) fn split_command_line(line: &str) -> Result<Vec<String>> {
    let mut words = Vec::new();
    let mut word = String::new();
    let mut in_word = false;
    let mut chars = line.chars();
    while let Some(c) = chars.next() {
        match c {
            ' ' | '\t' | '\n' => {
                if in_word {
                    words.push(std::mem::take(&mut word));
                    in_word = false;
                }
            }
            '\'' => {
                in_word = true;
                loop {
                    match chars.next() {
                        Some('\'') => break,
                        Some(c) => word.push(c),
                        None => bail!("unclosed ' in command line: {line}"),
                    }
                }
            }
            '"' => {
                in_word = true;
                loop {
                    match chars.next() {
                        Some('"') => break,
                        Some('\\') => match chars.next() {
                            Some(c @ ('"' | '\\' | '$' | '`')) => word.push(c),
                            Some(c) => {
                                word.push('\\');
                                word.push(c);
                            }
                            None => bail!("unclosed \" in command line: {line}"),
                        },
                        Some(c) => word.push(c),
                        None => bail!("unclosed \" in command line: {line}"),
                    }
                }
            }
            '\\' => {
                in_word = true;
                match chars.next() {
                    Some(c) => word.push(c),
                    None => bail!("command line ends with a lone backslash: {line}"),
                }
            }
            c => {
                in_word = true;
                word.push(c);
            }
        }
    }
    if in_word {
        words.push(word);
    }
    Ok(words)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn command_lines_split_like_a_shell() {
        let words = split_command_line(r#"edax -gtp  -l 10 'a b' "c \"d\"" e\ f ''"#).unwrap();
        assert_eq!(
            words,
            ["edax", "-gtp", "-l", "10", "a b", "c \"d\"", "e f", ""]
        );
        assert!(split_command_line("ntest 'x").is_err());
        assert!(split_command_line("").unwrap().is_empty());
    }

    #[test]
    fn lines_come_back_and_silence_times_out() {
        let mut cat = EngineProcess::spawn("cat", None, false, "cat").unwrap();
        cat.send("hello").unwrap();
        let soon = Instant::now() + Duration::from_secs(5);
        assert_eq!(cat.read_line(soon).unwrap(), "hello");
        let now = Instant::now() + Duration::from_millis(50);
        assert_eq!(cat.read_line(now), Err(ReadError::Timeout));
        cat.shut_down(Duration::from_secs(2));
        assert!(cat.exit_status(Duration::ZERO).is_some());
        let soon = Instant::now() + Duration::from_secs(5);
        assert_eq!(cat.read_line(soon), Err(ReadError::Closed));
    }

    #[test]
    fn a_missing_program_is_an_error_not_a_panic() {
        let error = EngineProcess::spawn("no-such-engine-anywhere", None, false, "x")
            .err()
            .unwrap();
        assert!(error.to_string().contains("no-such-engine-anywhere"));
    }
}
