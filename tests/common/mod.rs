//! Driving the real `emilia` binary through pipes, as clients do.
#![allow(dead_code)]

#[path = "../../crates/emilia-core/tests/common/rng.rs"]
pub mod rng;

use std::io::{BufRead, BufReader, Read, Write};
use std::path::PathBuf;
use std::process::{Child, ChildStdin, Command, ExitStatus, Stdio};
use std::sync::mpsc::{self, Receiver};
use std::thread;
use std::time::{Duration, Instant};

/// How long any reply may take before a test gives up.
pub const REPLY_TIMEOUT: Duration = Duration::from_secs(60);

/// Starts `command` with at most `bytes` of address space (`ulimit -v`), so that a test of
/// memory limits sees the engine's own refusals, and a runaway allocation fails fast.
pub fn limit_address_space(command: &mut Command, bytes: u64) {
    use std::os::unix::process::CommandExt;
    // SAFETY: only setrlimit, which is async-signal-safe, runs in the child.
    unsafe {
        command.pre_exec(move || {
            let limit = libc::rlimit {
                rlim_cur: bytes as libc::rlim_t,
                rlim_max: bytes as libc::rlim_t,
            };
            if libc::setrlimit(libc::RLIMIT_AS, &limit) != 0 {
                return Err(std::io::Error::last_os_error());
            }
            Ok(())
        });
    }
}

/// A running `emilia` with its pipes.
pub struct Emilia {
    child: Child,
    stdin: Option<ChildStdin>,
    lines: Receiver<String>,
    stderr: Receiver<String>,
}

/// The test data directory.
pub fn data_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/data")
}

/// The core's test data directory (WTHOR games, solved endgames, FFO), read by the
/// program's tests too.
pub fn core_data_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("crates/emilia-core/tests/data")
}

fn pump<R: Read + Send + 'static>(input: R) -> Receiver<String> {
    let (sender, receiver) = mpsc::channel();
    thread::spawn(move || {
        let mut reader = BufReader::new(input);
        loop {
            let mut bytes = Vec::new();
            match reader.read_until(b'\n', &mut bytes) {
                Ok(0) | Err(_) => break,
                Ok(_) => {
                    let line = String::from_utf8_lossy(&bytes);
                    let line = line.strip_suffix('\n').unwrap_or(&line).to_string();
                    if sender.send(line).is_err() {
                        break;
                    }
                }
            }
        }
    });
    receiver
}

impl Emilia {
    /// Starts `emilia` with `args`.
    pub fn start(args: &[&str]) -> Emilia {
        let mut child = Command::new(env!("CARGO_BIN_EXE_emilia"))
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("emilia starts");
        let lines = pump(child.stdout.take().unwrap());
        let stderr = pump(child.stderr.take().unwrap());
        Emilia {
            stdin: child.stdin.take(),
            child,
            lines,
            stderr,
        }
    }

    /// Sends raw bytes.
    pub fn send_raw(&mut self, bytes: &[u8]) {
        let stdin = self.stdin.as_mut().expect("stdin open");
        stdin.write_all(bytes).expect("write to emilia");
        stdin.flush().expect("flush to emilia");
    }

    /// Sends one line; `false` if the process no longer reads.
    pub fn try_send(&mut self, line: &str) -> bool {
        let stdin = self.stdin.as_mut().expect("stdin open");
        stdin
            .write_all(format!("{line}\n").as_bytes())
            .and_then(|_| stdin.flush())
            .is_ok()
    }

    /// Sends one line.
    pub fn send(&mut self, line: &str) {
        self.send_raw(format!("{line}\n").as_bytes());
    }

    /// The next output line, or `None` if none comes within `timeout` or stdout closed.
    pub fn line_within(&mut self, timeout: Duration) -> Option<String> {
        self.lines.recv_timeout(timeout).ok()
    }

    /// The next output line; panics after [`REPLY_TIMEOUT`].
    pub fn line(&mut self) -> String {
        self.line_within(REPLY_TIMEOUT)
            .expect("emilia answers within the timeout")
    }

    /// The next GTP reply: its lines up to the blank line that ends it, joined by `\n`.
    pub fn reply(&mut self) -> String {
        let mut lines: Vec<String> = Vec::new();
        loop {
            let line = self.line();
            if line.is_empty() {
                assert!(!lines.is_empty(), "a reply never starts with a blank line");
                return lines.join("\n");
            }
            lines.push(line);
        }
    }

    /// Sends `line` and returns its reply.
    pub fn ask(&mut self, line: &str) -> String {
        self.send(line);
        self.reply()
    }

    /// Sends `line` and returns the text of its `=` reply, failing on `?`.
    pub fn ok(&mut self, line: &str) -> String {
        let reply = self.ask(line);
        assert!(reply.starts_with('='), "'{line}' failed: {reply}");
        reply[1..].trim().to_string()
    }

    /// Closes stdin (end of input).
    pub fn close_stdin(&mut self) {
        self.stdin.take();
    }

    /// Waits for the process to end by itself; returns its status and everything it wrote
    /// to stderr. Panics if it does not end within `timeout`.
    pub fn wait(mut self, timeout: Duration) -> (ExitStatus, String) {
        self.close_stdin();
        let deadline = Instant::now() + timeout;
        let status = loop {
            if let Some(status) = self.child.try_wait().expect("try_wait") {
                break status;
            }
            if Instant::now() > deadline {
                let _ = self.child.kill();
                panic!("emilia did not exit within {timeout:?}");
            }
            thread::sleep(Duration::from_millis(5));
        };
        let stderr: Vec<String> = self.stderr.try_iter().collect();
        (status, stderr.join("\n"))
    }

    /// Lines still unread on stdout after the process ended.
    pub fn rest(&mut self) -> Vec<String> {
        self.lines.try_iter().collect()
    }

    /// Stops reading stdout: the pipe's read end is dropped, so the next writes fail.
    pub fn close_stdout(&mut self) {
        let (_, empty) = mpsc::channel();
        self.lines = empty;
    }
}

impl Drop for Emilia {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Plays a client that dies during a search: starts `emilia`, sends `input`, reads its
/// output up to a line starting with `until` (if given), waits `pause` for the search to
/// be under way, then closes both ends of the pipes. Returns the process's status and how
/// long it took to end after that; panics if it runs on past `limit`.
pub fn client_dies(
    input: &str,
    until: Option<&str>,
    pause: Duration,
    limit: Duration,
) -> (ExitStatus, Duration) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_emilia"))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("emilia starts");
    let mut stdin = child.stdin.take().unwrap();
    stdin.write_all(input.as_bytes()).unwrap();
    stdin.flush().unwrap();
    let mut stdout = BufReader::new(child.stdout.take().unwrap());
    if let Some(until) = until {
        loop {
            let mut line = String::new();
            let read = stdout.read_line(&mut line).unwrap();
            assert!(read > 0, "output ended before '{until}'");
            if line.starts_with(until) {
                break;
            }
        }
    }
    thread::sleep(pause);
    drop(stdin);
    drop(stdout);
    let closed = Instant::now();
    loop {
        if let Some(status) = child.try_wait().expect("try_wait") {
            return (status, closed.elapsed());
        }
        if closed.elapsed() > limit {
            let _ = child.kill();
            let _ = child.wait();
            panic!("emilia still runs {limit:?} after its client died");
        }
        thread::sleep(Duration::from_millis(5));
    }
}

/// Runs `tests/python/<script>` with `python3` against the real binary (its path in
/// `EMILIA`) and returns what the script wrote on standard error once it succeeded; `None`,
/// saying so past the harness's capture, where no `python3` is installed.
pub fn run_python_tests(script: &str, what: &str) -> Option<String> {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/python")
        .join(script);
    let output = match Command::new("python3")
        .arg(&path)
        .env("EMILIA", env!("CARGO_BIN_EXE_emilia"))
        .output()
    {
        Ok(output) => output,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            let _ = writeln!(
                std::io::stderr(),
                "SKIPPED: python3 is not installed, so the {what} test did not run"
            );
            return None;
        }
        Err(e) => panic!("running python3: {e}"),
    };
    let report = String::from_utf8_lossy(&output.stderr).into_owned();
    assert!(output.status.success(), "the {what} failed:\n{report}");
    assert!(report.contains("OK"), "{report}");
    Some(report)
}
