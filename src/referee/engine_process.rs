//! An engine as a child process: lines to its stdin, lines from its stdout with deadlines.
//! Its stdout is read on a thread feeding a channel, so that a hung engine can be timed out
//! and killed instead of blocking the referee. Each engine runs in a process group of its
//! own, which is killed as a whole: an engine started by a wrapper script goes with it. A
//! signal that ends the referee (Ctrl-C, `kill`, a closed terminal) ends every engine's
//! group first: in groups of their own, the engines would not get the terminal's signal.

use std::io::{BufRead, BufReader, Read, Write};
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::atomic::{AtomicI32, Ordering};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::time::{Duration, Instant};

use super::client::Fault;

/// Longest line read from an engine, in bytes: far more than any answer needs, and a
/// bound on what an engine that never ends its line can make the referee hold.
pub(crate) const MAX_LINE: usize = 256 * 1024;

/// Why no line came.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum ReadError {
    /// The deadline passed first.
    Timeout,
    /// The engine closed its output: it exited or crashed.
    Closed,
    /// The engine wrote a line longer than [`MAX_LINE`]; nothing more is read from it.
    TooLong,
}

/// The fault of an engine that wrote a line longer than [`MAX_LINE`] while answering
/// `waiting_for`.
pub(crate) fn too_long(waiting_for: &str) -> Fault {
    Fault::Malformed {
        waiting_for: waiting_for.to_string(),
        problem: format!("a line longer than {} KiB", MAX_LINE / 1024),
    }
}

/// What the reader thread passes on: a line, or the end of what it reads.
enum Output {
    Line(String),
    TooLong,
}

/// Reads one line of at most [`MAX_LINE`] bytes (without its line ending); `Ok(None)` at
/// the end of the output.
fn read_bounded_line(reader: &mut impl BufRead) -> std::io::Result<Option<Output>> {
    let mut bytes = Vec::new();
    let found = (&mut *reader)
        .take(MAX_LINE as u64 + 1)
        .read_until(b'\n', &mut bytes)?;
    if found == 0 {
        return Ok(None);
    }
    if bytes.last() == Some(&b'\n') {
        bytes.pop();
    } else if bytes.len() > MAX_LINE {
        return Ok(Some(Output::TooLong));
    }
    let line = String::from_utf8_lossy(&bytes);
    Ok(Some(Output::Line(line.trim_end_matches('\r').to_string())))
}

/// How many engine groups [`RUNNING_GROUPS`] holds: far more than any match runs at once.
const MAX_RUNNING: usize = 1024;

/// The process groups of the engines not yet reaped, for [`end_engines`]: a table of
/// atomics because a signal handler may neither lock nor allocate; 0 marks a free slot.
static RUNNING_GROUPS: [AtomicI32; MAX_RUNNING] = [const { AtomicI32::new(0) }; MAX_RUNNING];

/// The signals that end the referee, whose handler ends the engines first.
const ENDING_SIGNALS: [libc::c_int; 4] = [libc::SIGINT, libc::SIGTERM, libc::SIGHUP, libc::SIGQUIT];

/// The handler of [`ENDING_SIGNALS`]: kills every engine's group, then ends the process by
/// the same signal (its action was reset to the default on entry, and the signal is blocked
/// until the handler returns).
extern "C" fn end_engines(signal: libc::c_int) {
    for slot in &RUNNING_GROUPS {
        let group = slot.load(Ordering::SeqCst);
        if group > 0 {
            // SAFETY: kill is async-signal-safe; the group's leader is not reaped yet (its
            // slot is cleared before it is), so the group is still an engine's.
            unsafe { libc::kill(-group, libc::SIGKILL) };
        }
    }
    // SAFETY: raise is async-signal-safe.
    unsafe { libc::raise(signal) };
}

/// Installs [`end_engines`] for each of [`ENDING_SIGNALS`] that has its default action
/// (one that is ignored, as under `nohup`, stays ignored), once per process.
fn end_engines_on_signals() {
    static INSTALL: std::sync::Once = std::sync::Once::new();
    INSTALL.call_once(|| {
        for signal in ENDING_SIGNALS {
            // SAFETY: sigaction with fully initialised structures; the handler only makes
            // async-signal-safe calls.
            unsafe {
                let mut old: libc::sigaction = std::mem::zeroed();
                if libc::sigaction(signal, std::ptr::null(), &mut old) != 0
                    || old.sa_sigaction != libc::SIG_DFL
                {
                    continue;
                }
                let mut action: libc::sigaction = std::mem::zeroed();
                action.sa_sigaction =
                    end_engines as extern "C" fn(libc::c_int) as libc::sighandler_t;
                action.sa_flags = libc::SA_RESETHAND;
                libc::sigemptyset(&mut action.sa_mask);
                libc::sigaction(signal, &action, std::ptr::null_mut());
            }
        }
    });
}

/// Enters `group` in [`RUNNING_GROUPS`]; its slot, or `None` when the table is full.
fn register_group(group: libc::pid_t) -> Option<usize> {
    let slot = RUNNING_GROUPS.iter().position(|slot| {
        slot.compare_exchange(0, group, Ordering::SeqCst, Ordering::SeqCst)
            .is_ok()
    });
    if slot.is_none() {
        log::warn!("more than {MAX_RUNNING} engines: a signal would not end engine group {group}");
    }
    slot
}

/// Starts `command` in a process group of its own, led by the child, entered in the table
/// of groups that a signal ending this process kills first ([`end_engines`]). Returns the
/// child and its slot in that table, for [`kill_group`].
fn spawn_in_own_group(command: &mut Command) -> std::io::Result<(Child, Option<usize>)> {
    command.process_group(0);
    end_engines_on_signals();
    let child = command.spawn()?;
    let slot = libc::pid_t::try_from(child.id())
        .ok()
        .and_then(register_group);
    Ok((child, slot))
}

/// Kills the group of `child`, started by [`spawn_in_own_group`] with the table slot
/// `slot` (whatever it started goes too), and reaps it.
fn kill_group(
    child: &mut Child,
    slot: &mut Option<usize>,
) -> std::io::Result<std::process::ExitStatus> {
    if let Ok(group) = libc::pid_t::try_from(child.id()) {
        // SAFETY: a plain system call. The child leads the group and is not reaped yet, so
        // the group is still its own.
        unsafe { libc::kill(-group, libc::SIGKILL) };
    }
    let _ = child.kill();
    // Out of the table before the reaping frees the number for another process.
    if let Some(slot) = slot.take() {
        RUNNING_GROUPS[slot].store(0, Ordering::SeqCst);
    }
    child.wait()
}

/// A running engine.
pub(crate) struct EngineProcess {
    child: Child,
    stdin: Option<ChildStdin>,
    lines: Receiver<Output>,
    label: String,
    /// How it ended, once reaped.
    reaped: Option<String>,
    /// Its entry in [`RUNNING_GROUPS`], until it is reaped.
    group_slot: Option<usize>,
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
    ) -> Result<EngineProcess, SpawnError> {
        let words = split_command_line(command)?;
        let (program, args) = words.split_first().ok_or(SpawnError::Empty)?;
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
        // A group of its own, led by the engine: see `kill`.
        let (mut child, group_slot) = spawn_in_own_group(&mut process)
            .map_err(|e| SpawnError::Start(command.to_string(), e))?;
        let stdout = child.stdout.take().expect("stdout is piped");
        let stdin = child.stdin.take();
        let (sender, lines) = mpsc::channel();
        let thread_label = label.to_string();
        std::thread::Builder::new()
            .name(format!("read {label}"))
            .spawn(move || {
                let mut reader = BufReader::new(stdout);
                while let Ok(Some(output)) = read_bounded_line(&mut reader) {
                    let too_long = matches!(output, Output::TooLong);
                    match &output {
                        Output::Line(line) => log::debug!("{thread_label} > {line}"),
                        Output::TooLong => {
                            log::debug!("{thread_label} > a line of more than {MAX_LINE} bytes")
                        }
                    }
                    if sender.send(output).is_err() || too_long {
                        break;
                    }
                }
            })
            .map_err(SpawnError::Thread)?;
        log::debug!("started {label}: {command}");
        Ok(EngineProcess {
            child,
            stdin,
            lines,
            label: label.to_string(),
            reaped: None,
            group_slot,
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

    /// The next line of output, waiting until `deadline` at most. An engine that exits is
    /// [`ReadError::Closed`] soon after, even while a process it left behind holds its
    /// output open (which keeps the end of the output from coming).
    pub(crate) fn read_line(&mut self, deadline: Instant) -> Result<String, ReadError> {
        /// How often a silent engine is looked at, whether it has exited.
        const LOOK: Duration = Duration::from_millis(50);
        /// How long the lines an engine wrote before exiting may take to come through.
        const LAST_LINES: Duration = Duration::from_millis(100);
        let received = |result| match result {
            Ok(Output::Line(line)) => Ok(line),
            Ok(Output::TooLong) => Err(ReadError::TooLong),
            Err(RecvTimeoutError::Timeout) => Err(ReadError::Timeout),
            Err(RecvTimeoutError::Disconnected) => Err(ReadError::Closed),
        };
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.lines.recv_timeout(left.min(LOOK)) {
                Err(RecvTimeoutError::Timeout) if !left.is_zero() && left > LOOK => {
                    if self.ended().is_some() {
                        return match received(self.lines.recv_timeout(LAST_LINES)) {
                            Err(ReadError::Timeout) => Err(ReadError::Closed),
                            other => other,
                        };
                    }
                }
                result => return received(result),
            }
        }
    }

    /// How the process ended, waiting up to `grace` for it; `None` if it still runs.
    pub(crate) fn exit_status(&mut self, grace: Duration) -> Option<String> {
        let until = Instant::now() + grace;
        loop {
            match self.ended() {
                Some(status) => return Some(status),
                None if Instant::now() < until => std::thread::sleep(Duration::from_millis(5)),
                None => return None,
            }
        }
    }

    /// How the process ended, if it has. It is not reaped: while it is a zombie its number
    /// cannot be reused, so that killing its group cannot hit anyone else.
    fn ended(&mut self) -> Option<String> {
        if let Some(status) = &self.reaped {
            return Some(status.clone());
        }
        let pid: libc::id_t = self.child.id();
        // SAFETY: zeroed siginfo_t is a valid value; waitid writes into it.
        let mut info: libc::siginfo_t = unsafe { std::mem::zeroed() };
        let flags = libc::WEXITED | libc::WNOHANG | libc::WNOWAIT;
        // SAFETY: a plain system call on our own child, with a valid siginfo_t.
        if unsafe { libc::waitid(libc::P_PID, pid, &mut info, flags) } != 0 {
            return Some(format!(
                "unknown exit ({})",
                std::io::Error::last_os_error()
            ));
        }
        // SAFETY: waitid filled in a SIGCHLD siginfo (or left it zeroed: still running).
        let (who, status) = unsafe { (info.si_pid(), info.si_status()) };
        match info.si_code {
            _ if who == 0 => None,
            libc::CLD_EXITED => Some(format!("exit code {status}")),
            _ => Some(format!("killed by signal {status}")),
        }
    }

    /// Closes its input, gives it `grace` to exit on its own, then kills it and whatever
    /// it started.
    pub(crate) fn shut_down(&mut self, grace: Duration) {
        self.stdin = None;
        let _ = self.exit_status(grace);
        self.kill();
    }

    /// Kills the process and its group (whatever it started, say a wrapper script's
    /// engine), and reaps it.
    pub(crate) fn kill(&mut self) {
        if self.reaped.is_some() {
            return;
        }
        let status = kill_group(&mut self.child, &mut self.group_slot);
        self.reaped = Some(status.map_or_else(|e| format!("unknown exit ({e})"), describe_exit));
        log::debug!("{} killed", self.label);
    }
}

impl Drop for EngineProcess {
    fn drop(&mut self) {
        self.kill();
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

/// Why an engine process could not be started.
#[derive(Debug)]
pub(crate) enum SpawnError {
    /// The command line has an unclosed quote (which one) in it.
    Unclosed(char, String),
    /// The command line ends with a backslash that escapes nothing.
    LoneBackslash(String),
    /// The command line has no word.
    Empty,
    /// The program could not be started: the command line and why.
    Start(String, std::io::Error),
    /// The thread that reads the engine's output could not be started.
    Thread(std::io::Error),
}

impl std::fmt::Display for SpawnError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            SpawnError::Unclosed(quote, line) => {
                write!(f, "unclosed {quote} in command line: {line}")
            }
            SpawnError::LoneBackslash(line) => {
                write!(f, "command line ends with a lone backslash: {line}")
            }
            SpawnError::Empty => f.write_str("empty engine command"),
            SpawnError::Start(command, e) => write!(f, "cannot start engine '{command}': {e}"),
            SpawnError::Thread(e) => write!(f, "cannot start a reader thread: {e}"),
        }
    }
}

impl std::error::Error for SpawnError {}

/// Splits a command line into words as a POSIX shell would for plain commands: spaces
/// separate words; single quotes keep everything literally; double quotes keep spaces and
/// honour `\"` and `\\`; a backslash outside quotes escapes the next character.
pub(crate) fn split_command_line(line: &str) -> Result<Vec<String>, SpawnError> {
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
                        None => return Err(SpawnError::Unclosed('\'', line.to_string())),
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
                            None => return Err(SpawnError::Unclosed('"', line.to_string())),
                        },
                        Some(c) => word.push(c),
                        None => return Err(SpawnError::Unclosed('"', line.to_string())),
                    }
                }
            }
            '\\' => {
                in_word = true;
                match chars.next() {
                    Some(c) => word.push(c),
                    None => return Err(SpawnError::LoneBackslash(line.to_string())),
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
