//! For the `emilia ggs` tests: the real GGS server (../shared/ggs-server, or the folder
//! EMILIA_GGS_SERVER names) built once and started on its own ports in a folder of its own,
//! either once for every test of a test program or for one test alone, a small line client
//! to play against the client under test, and the client run as a process whose output,
//! log and record files are kept. With EMILIA_GGS_KEEP set, the scratch folders (the
//! clients' logs and records, the servers' logs) stay in the temporary directory after the
//! test, for a look at a failure.
#![allow(dead_code)]

use std::io::{Read, Write};
use std::net::{Shutdown, TcpListener, TcpStream};
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::{Arc, Mutex, OnceLock};
use std::time::{Duration, Instant};

use emilia_core::board::{Color, Move, Position};

/// The folder holding the server's source and scripts, if there is one.
pub fn server_source() -> Option<PathBuf> {
    let dir = match std::env::var_os("EMILIA_GGS_SERVER") {
        Some(dir) => PathBuf::from(dir),
        None => PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../shared/ggs-server"),
    };
    dir.join("build.sh").is_file().then_some(dir)
}

/// The built server (build.sh's folder), built on first use; `None` with a message when
/// the source is absent or the build fails.
pub fn built_server() -> Option<(PathBuf, PathBuf)> {
    static BUILT: OnceLock<Option<(PathBuf, PathBuf)>> = OnceLock::new();
    BUILT
        .get_or_init(|| {
            let Some(source) = server_source() else {
                eprintln!(
                    "skipped: the GGS server's source is absent (../shared/ggs-server beside the \
                     clone, or EMILIA_GGS_SERVER)"
                );
                return None;
            };
            let out = Command::new("bash")
                .arg(source.join("build.sh"))
                .stderr(Stdio::inherit())
                .output()
                .ok()?;
            let dir = String::from_utf8_lossy(&out.stdout).trim().to_string();
            if !out.status.success() || dir.is_empty() {
                eprintln!("skipped: the GGS server did not build");
                return None;
            }
            Some((source, PathBuf::from(dir)))
        })
        .clone()
}

/// A scratch folder removed on drop.
pub struct Scratch(pub PathBuf);

impl Scratch {
    pub fn new(name: &str) -> Scratch {
        let dir = Scratch::dir(name);
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        Scratch(dir)
    }

    /// Where [`Scratch::new`] puts the folder `name` of this process.
    fn dir(name: &str) -> PathBuf {
        std::env::temp_dir().join(format!("emilia-ggs-{name}-{}", std::process::id()))
    }

    pub fn path(&self, name: &str) -> PathBuf {
        self.0.join(name)
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        if std::env::var_os("EMILIA_GGS_KEEP").is_none() {
            let _ = std::fs::remove_dir_all(&self.0);
        }
    }
}

/// A real server: one test's, stopped on drop (also when the test fails), or the one the
/// tests of a test program share ([`Server::shared`]).
pub struct Server {
    pub port: u16,
    source: PathBuf,
    home: Scratch,
}

impl Server {
    /// Starts a fresh server on `port` (it takes port+1 and port+2 too) with `users`
    /// (`name:password`); `None` (the test skips) where the server is absent.
    pub fn start(port: u16, users: &[&str]) -> Option<Server> {
        let (source, built) = built_server()?;
        Some(Server::start_built(&source, &built, port, users))
    }

    /// The server every test of this test program shares, started by the first test that
    /// asks with `users`, every login any of them needs (each test with logins of its own,
    /// so that none sees another's requests or games); `None` (the test skips) where the
    /// server is absent. Statics are never dropped: a watcher process stops the server and
    /// removes its folder once this process has ended, however it ended.
    pub fn shared(users: &[&str]) -> Option<&'static Server> {
        static SHARED: OnceLock<Option<(Server, Child)>> = OnceLock::new();
        SHARED
            .get_or_init(|| {
                let (source, built) = built_server()?;
                let port = free_ports(15400);
                let home = Scratch::dir(&format!("server{port}"));
                let watcher = Server::watch(&source, &home);
                let server = Server::start_built(&source, &built, port, users);
                Some((server, watcher))
            })
            .as_ref()
            .map(|(server, _)| server)
    }

    /// Starts a process that stops the server in `home` (and removes the folder, unless
    /// EMILIA_GGS_KEEP is set) when its input ends: the end of a pipe only this process
    /// holds, closed when it exits or is killed. A process group of its own keeps it alive
    /// through a Ctrl-C to the tests. Never waited for: it is to outlive this process.
    fn watch(source: &Path, home: &Path) -> Child {
        let keep = std::env::var_os("EMILIA_GGS_KEEP").is_some();
        Command::new("sh")
            .arg("-c")
            .arg(r#"read -r line; python3 "$0" stop "$1"; [ "$2" = keep ] || rm -rf "$1""#)
            .arg(source.join("serve.py"))
            .arg(home)
            .arg(if keep { "keep" } else { "remove" })
            .stdin(Stdio::piped())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .process_group(0)
            .spawn()
            .expect("starting the shared server's watcher")
    }

    fn start_built(source: &Path, built: &Path, port: u16, users: &[&str]) -> Server {
        // serve.py gives up when the machine is too loaded to answer in its time: once more.
        for attempt in 0..3 {
            if let Some(server) = Server::try_start(source, built, port, users) {
                return server;
            }
            eprintln!(
                "serve.py start failed on port {port} (attempt {})",
                attempt + 1
            );
        }
        panic!("the GGS server did not start on port {port}");
    }

    fn try_start(source: &Path, built: &Path, port: u16, users: &[&str]) -> Option<Server> {
        let home = Scratch::new(&format!("server{port}"));
        // A folder of its own (fresh databases, logs, pids) over the built programs.
        let status = Command::new("cp")
            .arg("-as")
            .arg(built.join("GGS"))
            .arg(home.path("GGS"))
            .status()
            .unwrap();
        assert!(status.success(), "copying the server's folder");
        let server = Server {
            port,
            source: source.to_path_buf(),
            home,
        };
        let mut command = Command::new("python3");
        command
            .arg(server.source.join("serve.py"))
            .arg("start")
            .arg(&server.home.0)
            .args(["--port", &port.to_string()]);
        for user in users {
            command.args(["--user", user]);
        }
        let out = command.stderr(Stdio::inherit()).output().unwrap();
        // On failure, dropping `server` stops what started.
        out.status.success().then_some(server)
    }
}

/// The first port from `from` on (in steps of three) that, with the next two, nothing
/// listens on, so that a server's ports clash with no other server's here.
fn free_ports(from: u16) -> u16 {
    (from..from + 300)
        .step_by(3)
        .find(|&port| (port..port + 3).all(|p| TcpListener::bind(("127.0.0.1", p)).is_ok()))
        .expect("three free ports for the GGS server")
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = Command::new("python3")
            .arg(self.source.join("serve.py"))
            .arg("stop")
            .arg(&self.home.0)
            .status();
    }
}

/// `emilia ggs` running, with its files; killed on drop.
pub struct Client {
    child: Child,
    pub stdout: PathBuf,
    pub stderr: PathBuf,
    pub log: PathBuf,
    pub record: PathBuf,
    pub password: String,
}

impl Client {
    /// Starts `emilia ggs` on 127.0.0.1:`port` as `login`, its files in `scratch` named
    /// after the login; `extra` are more options.
    pub fn start(
        scratch: &Scratch,
        port: u16,
        login: &str,
        password: &str,
        extra: &[&str],
    ) -> Client {
        Client::start_with(scratch, port, login, password, &[], extra)
    }

    /// [`Client::start`] with engine options before the subcommand.
    pub fn start_with(
        scratch: &Scratch,
        port: u16,
        login: &str,
        password: &str,
        engine: &[&str],
        extra: &[&str],
    ) -> Client {
        let stdout = scratch.path(&format!("{login}.out"));
        let stderr = scratch.path(&format!("{login}.err"));
        let log = scratch.path(&format!("{login}.log"));
        let record = scratch.path(&format!("{login}.ggf"));
        let mut command = Command::new(env!("CARGO_BIN_EXE_emilia"));
        ended_with_the_tests(&mut command);
        let child = command
            .args(engine)
            .args(["ggs", "--host", "127.0.0.1", "--port", &port.to_string()])
            .args(["--login", login, "--threads", "1", "--hash", "8"])
            .arg("--log")
            .arg(&log)
            .arg("--record")
            .arg(&record)
            .args(extra)
            .env("EMILIA_GGS_PASSWORD", password)
            .env("RUST_LOG", "debug")
            .stdin(Stdio::null())
            .stdout(std::fs::File::create(&stdout).unwrap())
            .stderr(std::fs::File::create(&stderr).unwrap())
            .spawn()
            .unwrap();
        Client {
            child,
            stdout,
            stderr,
            log,
            record,
            password: password.to_string(),
        }
    }

    /// Waits for the client to end by itself within `within`; its exit code.
    pub fn wait(&mut self, within: Duration) -> i32 {
        let end = Instant::now() + within;
        loop {
            if let Some(status) = self.child.try_wait().unwrap() {
                return status.code().unwrap_or(-1);
            }
            if Instant::now() > end {
                let _ = self.child.kill();
                panic!(
                    "the client did not end within {within:?}; its log ends:\n{}",
                    tail(&self.log, 40)
                );
            }
            std::thread::sleep(Duration::from_millis(50));
        }
    }

    /// Sends SIGTERM.
    pub fn terminate(&self) {
        // SAFETY: kill with a pid of our own child and a valid signal number.
        unsafe {
            libc::kill(self.child.id() as libc::pid_t, libc::SIGTERM);
        }
    }

    pub fn read(&self, path: &Path) -> String {
        std::fs::read_to_string(path).unwrap_or_default()
    }

    pub fn log_text(&self) -> String {
        self.read(&self.log)
    }

    pub fn out_text(&self) -> String {
        self.read(&self.stdout)
    }

    /// Waits until the log holds `text`.
    pub fn wait_log(&self, text: &str, within: Duration) {
        let end = Instant::now() + within;
        while !self.log_text().contains(text) {
            assert!(
                Instant::now() < end,
                "no {text:?} in the client's log within {within:?}; it ends:\n{}",
                tail(&self.log, 40)
            );
            std::thread::sleep(Duration::from_millis(50));
        }
    }

    /// Waits until the client is logged in and open for games (the server acknowledged
    /// its last setup command).
    pub fn wait_ready(&self) {
        self.wait_log("tell /os continue", Duration::from_secs(60));
    }

    /// Waits until `count` records are written; the last.
    pub fn wait_records(&self, count: usize) -> String {
        let end = Instant::now() + Duration::from_secs(60);
        loop {
            let records = self.records();
            if records.len() >= count {
                return records[count - 1].clone();
            }
            assert!(
                Instant::now() < end,
                "{} records, not {count}",
                records.len()
            );
            std::thread::sleep(Duration::from_millis(50));
        }
    }

    /// The records written, one GGF game a line.
    pub fn records(&self) -> Vec<String> {
        self.read(&self.record)
            .lines()
            .map(str::to_string)
            .collect()
    }

    /// Fails if the password shows in any output, log or record file.
    pub fn assert_password_kept(&self) {
        for path in [&self.stdout, &self.stderr, &self.log, &self.record] {
            let text = self.read(path);
            assert!(
                !text.contains(&self.password),
                "the password shows in {}",
                path.display()
            );
        }
    }
}

impl Drop for Client {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Makes `command`'s process be killed when the thread starting it (a test's) ends, also
/// when the test process is killed: a client left over would play on, and log in again to a
/// later run's server under the same login, closing that run's connection.
fn ended_with_the_tests(command: &mut Command) {
    #[cfg(target_os = "linux")]
    {
        let parent = std::process::id();
        // SAFETY: between fork and exec only prctl, getppid and a preallocated error, all
        // safe there.
        unsafe {
            command.pre_exec(move || {
                if libc::prctl(libc::PR_SET_PDEATHSIG, libc::SIGKILL) == -1 {
                    return Err(std::io::Error::last_os_error());
                }
                // The tests ended before the request: nothing would kill this one.
                if libc::getppid() as u32 != parent {
                    return Err(std::io::Error::from_raw_os_error(libc::ESRCH));
                }
                Ok(())
            });
        }
    }
    #[cfg(not(target_os = "linux"))]
    let _ = command;
}

/// The last `n` lines of a file.
pub fn tail(path: &Path, n: usize) -> String {
    let text = std::fs::read_to_string(path).unwrap_or_default();
    let lines: Vec<&str> = text.lines().collect();
    lines[lines.len().saturating_sub(n)..].join("\n")
}

/// A game record read back: the final position its moves reach, and its `RE`.
pub fn replay(record: &str) -> (Position, String) {
    let game = emilia_core::formats::ggf::parse(record).expect("the record reads back");
    let re = record
        .split("RE[")
        .nth(1)
        .and_then(|r| r.split(']').next())
        .unwrap_or("")
        .to_string();
    (*game.position(), re)
}

/// A line client for the test's own player: logs in, sends, and collects what comes.
pub struct Conn {
    stream: TcpStream,
    pending: Vec<u8>,
    pub seen: String,
}

impl Conn {
    pub fn login(port: u16, login: &str, password: &str) -> Conn {
        let stream = TcpStream::connect(("127.0.0.1", port)).unwrap();
        stream
            .set_read_timeout(Some(Duration::from_millis(100)))
            .unwrap();
        let mut conn = Conn {
            stream,
            pending: Vec::new(),
            seen: String::new(),
        };
        conn.expect("Enter login", Duration::from_secs(10));
        conn.send(login);
        conn.expect("password", Duration::from_secs(10));
        conn.send(password);
        conn.expect("READY", Duration::from_secs(10));
        for command in ["ms /os", "ts client -", "ts open 1"] {
            conn.send(command);
        }
        conn
    }

    pub fn send(&mut self, line: &str) {
        self.stream
            .write_all(format!("{line}\n").as_bytes())
            .unwrap();
    }

    /// The next line, or `None` after the read timeout.
    pub fn line(&mut self) -> Option<String> {
        loop {
            if let Some(end) = self.pending.iter().position(|&b| b == b'\n') {
                let rest = self.pending.split_off(end + 1);
                let line = std::mem::replace(&mut self.pending, rest);
                let line = String::from_utf8_lossy(&line).trim_end().to_string();
                self.seen.push_str(&line);
                self.seen.push('\n');
                return Some(line);
            }
            let mut chunk = [0u8; 4096];
            match self.stream.read(&mut chunk) {
                Ok(0) => return None,
                Ok(n) => self.pending.extend_from_slice(&chunk[..n]),
                Err(_) => {
                    if self.pending.ends_with(b". ") || self.pending.ends_with(b".") {
                        let line =
                            String::from_utf8_lossy(&std::mem::take(&mut self.pending)).to_string();
                        self.seen.push_str(&line);
                        self.seen.push('\n');
                        return Some(line);
                    }
                    return None;
                }
            }
        }
    }

    /// Reads until a line holds `text`; that line.
    pub fn expect(&mut self, text: &str, within: Duration) -> String {
        let end = Instant::now() + within;
        loop {
            if let Some(line) = self.line() {
                if line.contains(text) {
                    return line;
                }
            }
            assert!(
                Instant::now() < end,
                "no {text:?} from the server within {within:?}; last seen:\n{}",
                &self.seen[self.seen.len().saturating_sub(1500)..]
            );
        }
    }

    /// Plays one game as the server shows it, choosing each move with `choose` (passes
    /// sent as `pa`), until `- match`; returns that line and the passes each side made.
    pub fn play_game(
        &mut self,
        login: &str,
        within: Duration,
        choose: &mut dyn FnMut(&Position) -> Move,
    ) -> (String, [u32; 2]) {
        self.play_moves(login, within, usize::MAX, choose)
    }

    /// [`Conn::play_game`] until `- match`, or until `updates` updates came (then the
    /// line returned is empty).
    pub fn play_moves(
        &mut self,
        login: &str,
        within: Duration,
        updates: usize,
        choose: &mut dyn FnMut(&Position) -> Move,
    ) -> (String, [u32; 2]) {
        let mut seen = 0;
        let end = Instant::now() + within;
        let mut block: Option<(String, Vec<String>)> = None;
        let mut passes = [0u32; 2];
        let mut me: Option<Color> = None;
        loop {
            assert!(
                Instant::now() < end,
                "the game did not end within {within:?}"
            );
            let Some(line) = self.line() else { continue };
            if let Some(rest) = line.strip_prefix('|') {
                if let Some((_, lines)) = &mut block {
                    lines.push(rest.to_string());
                }
                continue;
            }
            if let Some((id, lines)) = block.take() {
                if let Some(m) = lines
                    .iter()
                    .find(|l| l.contains(&format!("{login} ")) && l.contains('('))
                {
                    me = Some(if m.contains("*)") {
                        Color::Black
                    } else {
                        Color::White
                    });
                }
                if let Some(mv) = lines.iter().rev().find_map(|l| {
                    let (number, text) = l.trim().split_once(": ")?;
                    // `0: PASS` in a join is no move.
                    (number != "0").then_some(())?;
                    text.split('/').next()?.parse::<Move>().ok()
                }) {
                    if mv == Move::Pass {
                        // The mover of a pass: the side to move now is the other.
                        if let Some(p) = board(&lines) {
                            passes[p.to_move.opponent().index()] += 1;
                        }
                    }
                }
                if let (Some(position), Some(me)) = (board(&lines), me) {
                    if position.to_move == me && !position.is_game_over() {
                        let mv = if position.legal_moves() == [Move::Pass] {
                            Move::Pass
                        } else {
                            choose(&position)
                        };
                        let text = if mv == Move::Pass {
                            "pa".to_string()
                        } else {
                            mv.to_string()
                        };
                        self.send(&format!("tell /os play {id} {text}"));
                    }
                }
            }
            if line.starts_with("/os: - match") {
                return (line, passes);
            }
            let words: Vec<&str> = line.split_whitespace().collect();
            if let ["/os:", "join" | "update", id, ..] = words.as_slice() {
                if words[1] == "update" {
                    seen += 1;
                    if seen > updates {
                        return (String::new(), passes);
                    }
                }
                block = Some((id.to_string(), Vec::new()));
            }
        }
    }
}

/// The last board of a block's lines, with the side to move.
pub fn board(lines: &[String]) -> Option<Position> {
    let mut rows = String::new();
    let mut size = 0;
    let mut last = None;
    for line in lines {
        let words: Vec<&str> = line.split_whitespace().collect();
        match words.as_slice() {
            [side, "to", "move"] => {
                last = Position::from_parts(&rows, side).ok();
                rows.clear();
            }
            letters
                if !letters.is_empty()
                    && letters
                        .iter()
                        .all(|w| w.len() == 1 && w.chars().all(|c| c.is_ascii_uppercase())) =>
            {
                size = letters.len();
            }
            [row, cells @ ..] if row.parse::<u32>().is_ok() && cells.len() > size && size > 0 => {
                rows.push_str(&cells[..size].concat());
            }
            _ => {}
        }
    }
    last
}

/// A move of `position`: the one leaving the opponent fewest replies (a pass first).
pub fn squeezing(position: &Position) -> Move {
    position
        .legal_moves()
        .into_iter()
        .min_by_key(|&mv| {
            let after = position.play(mv).unwrap();
            let replies = after.legal_moves();
            if replies == [Move::Pass] {
                0
            } else {
                replies.len() + 1
            }
        })
        .unwrap()
}

/// A TCP relay from a free port of its own to the server, which the test can cut.
pub struct Relay {
    pub port: u16,
    live: Arc<Mutex<Vec<TcpStream>>>,
}

impl Relay {
    pub fn start(server_port: u16) -> Relay {
        let listener = TcpListener::bind(("127.0.0.1", 0)).unwrap();
        let port = listener.local_addr().unwrap().port();
        let live: Arc<Mutex<Vec<TcpStream>>> = Arc::default();
        let streams = Arc::clone(&live);
        std::thread::spawn(move || {
            for client in listener.incoming() {
                let Ok(client) = client else { break };
                let Ok(server) = TcpStream::connect(("127.0.0.1", server_port)) else {
                    continue;
                };
                streams.lock().unwrap().push(client.try_clone().unwrap());
                streams.lock().unwrap().push(server.try_clone().unwrap());
                for (mut from, mut to) in [
                    (client.try_clone().unwrap(), server.try_clone().unwrap()),
                    (server, client),
                ] {
                    std::thread::spawn(move || {
                        let _ = std::io::copy(&mut from, &mut to);
                        let _ = to.shutdown(Shutdown::Both);
                    });
                }
            }
        });
        Relay { port, live }
    }

    /// Cuts every connection relayed so far.
    pub fn cut(&self) {
        for stream in self.live.lock().unwrap().drain(..) {
            let _ = stream.shutdown(Shutdown::Both);
        }
    }
}
