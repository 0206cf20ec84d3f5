//! The client loop: log in, choose the Othello service and its board-block updates, open
//! for games, answer requests by the policy, hand each game's messages to its thread, keep
//! the connection alive, reconnect with backoff when it drops, and leave cleanly when told
//! to stop.

use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{self, Sender};
use std::sync::Arc;
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use anyhow::{anyhow, bail, Result};

use emilia_core::engine::{Engine, Session, Timekeeping};
use emilia_core::search::Limits;

use super::clock::Setting;
use super::connection::{self, Incoming, Log, Reader, Writer};
use super::game::{self, GameSetup, ToGame};
use super::message::{GameType, Message, Outcome, Parser, Request};
use super::policy::Policy;
use super::record::Records;

/// A challenge to send once logged in: `ts ask TYPE CLOCK OPPONENT`.
#[derive(Clone, Debug)]
pub(crate) struct Ask {
    pub(crate) kind: GameType,
    pub(crate) setting: Setting,
    pub(crate) opponent: String,
}

/// Everything the client is told.
pub(crate) struct Options {
    pub(crate) host: String,
    pub(crate) port: u16,
    pub(crate) login: String,
    pub(crate) password: String,
    pub(crate) policy: Policy,
    /// Games played at once (`ts open N`).
    pub(crate) open: u32,
    pub(crate) ask: Option<Ask>,
    /// Ends the session once this many games have finished.
    pub(crate) games: Option<usize>,
    /// Search threads in all, shared by the games running.
    pub(crate) threads: usize,
    pub(crate) limits: Limits,
    pub(crate) lag: Duration,
    /// An empty line is sent after this long without sending anything.
    pub(crate) keepalive: Duration,
    /// Attempts to reconnect in a row before giving up (0: never reconnect).
    pub(crate) reconnects: u32,
    /// Longest wait between two attempts.
    pub(crate) max_backoff: Duration,
}

/// Makes the engine of each game.
pub(crate) type EngineMaker = Arc<dyn Fn() -> Result<Engine> + Send + Sync>;

/// A game being played: its thread and its inbox.
struct Running {
    inbox: Sender<ToGame>,
    thread: JoinHandle<()>,
    /// When the connection it was on dropped (it is ended if no join brings it back).
    orphaned: Option<Instant>,
}

/// How long a game whose connection dropped waits for the server to bring it back.
const ORPHAN_WAIT: Duration = Duration::from_secs(10);
/// How long the login may take.
const LOGIN_WAIT: Duration = Duration::from_secs(20);

/// Why a connection's loop ended.
enum Ended {
    Stopped,
    Done,
    Dropped,
}

/// The client's state across connections.
pub(crate) struct Client {
    options: Options,
    make_engine: EngineMaker,
    writer: Arc<Writer>,
    records: Arc<Records>,
    stop: &'static AtomicBool,
    games: HashMap<String, Running>,
    /// Type and rating of each match started, by match id.
    matches: HashMap<String, (GameType, bool)>,
    /// Clock setting of each request seen, by the players' names.
    settings: HashMap<(String, String), Setting>,
    /// Black's name in each game running.
    black_names: HashMap<String, String>,
    finished: usize,
    asked: bool,
}

impl Client {
    pub(crate) fn new(
        options: Options,
        make_engine: EngineMaker,
        log: Log,
        records: Arc<Records>,
        stop: &'static AtomicBool,
    ) -> Client {
        Client {
            options,
            make_engine,
            writer: Writer::new(log),
            records,
            stop,
            games: HashMap::new(),
            matches: HashMap::new(),
            settings: HashMap::new(),
            black_names: HashMap::new(),
            finished: 0,
            asked: false,
        }
    }

    fn log(&self) -> &Log {
        self.writer.log()
    }

    /// Plays until stopped, done (`--games`), or the server cannot be reached again.
    pub(crate) fn run(&mut self) -> Result<()> {
        let mut failures = 0u32;
        loop {
            let ended = match self.connect() {
                Ok(mut reader) => {
                    failures = 0;
                    self.serve(&mut reader).unwrap_or_else(|e| {
                        self.log().note(&format!("connection: {e:#}"));
                        Ended::Dropped
                    })
                }
                Err(e) => {
                    self.log().note(&format!("connection: {e:#}"));
                    if self.games.is_empty() && self.finished == 0 && failures == 0 && !self.asked {
                        // The first connection failed: most likely a wrong host, port or
                        // password, which trying again will not mend.
                        self.end_games("unfinished: not connected");
                        return Err(e);
                    }
                    Ended::Dropped
                }
            };
            match ended {
                Ended::Stopped => {
                    self.leave();
                    return Ok(());
                }
                Ended::Done => {
                    self.leave();
                    return Ok(());
                }
                Ended::Dropped => {}
            }
            self.writer.close();
            for running in self.games.values_mut() {
                running.orphaned.get_or_insert_with(Instant::now);
            }
            failures += 1;
            if failures > self.options.reconnects {
                self.end_games("unfinished: the connection was lost");
                bail!(
                    "the connection to the server was lost, and {} attempts to reconnect failed",
                    failures - 1
                );
            }
            let wait = Duration::from_secs(1 << failures.min(6)).min(self.options.max_backoff);
            self.log().note(&format!(
                "connection lost; reconnecting in {}s (attempt {failures})",
                wait.as_secs()
            ));
            if self.sleep(wait) {
                self.end_games("unfinished: stopped");
                return Ok(());
            }
        }
    }

    /// Sleeps `wait`, or less when a stop comes; whether one came.
    fn sleep(&self, wait: Duration) -> bool {
        let end = Instant::now() + wait;
        while Instant::now() < end {
            if self.stop.load(Ordering::SeqCst) {
                return true;
            }
            std::thread::sleep(Duration::from_millis(50));
        }
        self.stop.load(Ordering::SeqCst)
    }

    /// Connects, logs in and sets the service up.
    fn connect(&mut self) -> Result<Reader> {
        let o = &self.options;
        let log = self.log().clone();
        log.note(&format!(
            "connecting to {}:{} as {}",
            o.host, o.port, o.login
        ));
        let mut reader =
            connection::connect(&o.host, o.port, Duration::from_secs(10), &self.writer)?;
        reader.wait_for(&["Enter login"], LOGIN_WAIT)?;
        self.writer.send(&o.login)?;
        reader.wait_for(&["Enter your password"], LOGIN_WAIT)?;
        self.writer.send_secret(&o.password)?;
        // A wrong password brings the login prompt back.
        if reader.wait_for(&["READY", "Enter login"], LOGIN_WAIT)? == 1 {
            bail!(
                "the server refused the login {} with this password",
                o.login
            );
        }
        log.note(&format!("logged in as {}", o.login));
        for command in [
            "ms /os".to_string(),
            // Board blocks: every update carries the board and both clocks.
            "ts client -".to_string(),
            format!("ts open {}", o.open),
            // Adjourned games, if the server kept any.
            "ts continue".to_string(),
        ] {
            self.writer.send(&command)?;
        }
        if let Some(ask) = o.ask.clone().filter(|_| !self.asked) {
            self.writer.send(&format!(
                "ts ask {} {} {}",
                ask.kind.text,
                ask.setting.text(),
                ask.opponent
            ))?;
            self.asked = true;
        }
        Ok(reader)
    }

    /// Reads and answers the server until stopped, done or dropped.
    fn serve(&mut self, reader: &mut Reader) -> Result<Ended> {
        let mut parser = Parser::default();
        let mut last_sent = Instant::now();
        loop {
            if self.stop.load(Ordering::SeqCst) {
                return Ok(Ended::Stopped);
            }
            if self.options.games.is_some_and(|n| self.finished >= n) && self.games.is_empty() {
                return Ok(Ended::Done);
            }
            self.end_orphans();
            if last_sent.elapsed() >= self.options.keepalive {
                // Something on the line now and then, so that nothing between here and
                // the server takes the connection for dead; the server answers READY.
                if self.writer.send("").is_err() {
                    return Ok(Ended::Dropped);
                }
                last_sent = Instant::now();
            }
            let line = match reader.next()? {
                Incoming::Line(line) => line,
                Incoming::Quiet => continue,
                Incoming::Closed => return Ok(Ended::Dropped),
            };
            for message in parser.line(&line) {
                self.handle(message);
            }
        }
    }

    fn handle(&mut self, message: Message) {
        let log = self.log().clone();
        match message {
            Message::Request(request, true) => self.answer(&request),
            Message::Request(..) | Message::Ready | Message::LoginPrompt => {}
            Message::PasswordPrompt => log.note("the server asks for the password again"),
            Message::MatchStart {
                id,
                players,
                kind,
                rated,
            } => {
                log.note(&format!(
                    "match {id}: {} vs {} {} {}",
                    players[0],
                    players[1],
                    kind.text,
                    if rated { "rated" } else { "unrated" }
                ));
                self.matches.insert(id, (kind, rated));
            }
            Message::Board {
                id,
                join,
                kind,
                block,
            } => {
                let ours = block.players.iter().any(|p| p.name == self.options.login);
                if !self.games.contains_key(&id) {
                    if !(join && ours) {
                        log.note(&format!("{id}: a board of a game not played here, ignored"));
                        return;
                    }
                    if let Err(e) = self.start_game(&id, kind, &block) {
                        log.note(&format!("{id}: cannot play: {e:#}"));
                        return;
                    }
                }
                if let Some(running) = self.games.get_mut(&id) {
                    running.orphaned = None;
                    let _ = running.inbox.send(ToGame::Board(block, join));
                }
            }
            Message::Error { id: Some(id), text } if self.games.contains_key(&id) => {
                self.tell(&id, ToGame::Refused(text));
            }
            Message::Error { text, .. } => log.note(&format!("server: {text}")),
            Message::Timeout { id, login, fatal } => {
                self.tell(&id, ToGame::Timeout { login, fatal });
            }
            Message::GameEnd { id, first, score } => {
                let how = "score".to_string();
                let black_score = self.black_score(&id, &first, score);
                self.end(&id, black_score, how);
            }
            Message::MatchEnd {
                id,
                players,
                outcome,
            } => {
                let ids: Vec<String> = self
                    .games
                    .keys()
                    .filter(|g| **g == id || g.starts_with(&format!("{id}.")))
                    .cloned()
                    .collect();
                for game in ids {
                    let (score, how) = match &outcome {
                        Outcome::Score(s) => {
                            (self.black_score(&game, &players[0], *s), "score".into())
                        }
                        Outcome::Left(name) => (None, format!("{name} left")),
                        Outcome::Other(text) => (None, text.clone()),
                    };
                    self.end(&game, score, how);
                }
                self.matches.remove(&id);
            }
            Message::Ignored(line) => {
                if !line.trim().is_empty() {
                    log::debug!("ignored: {}", log.redact(&line));
                }
            }
        }
    }

    /// Black's score from the first-named player's, using the colours the game's blocks
    /// named.
    fn black_score(&self, id: &str, first: &str, score: f64) -> Option<f64> {
        let black = self.black_names.get(id)?;
        Some(if black == first { score } else { -score })
    }

    /// Accepts or declines a request addressed to this login.
    fn answer(&mut self, request: &Request) {
        let me = &self.options.login;
        if request.from == *me {
            self.settings
                .insert((request.from.clone(), request.to.clone()), request.setting);
            return;
        }
        if request.to != *me {
            return;
        }
        self.settings
            .insert((request.from.clone(), request.to.clone()), request.setting);
        let log = self.log().clone();
        match self.options.policy.judge(request) {
            Ok(()) => {
                log.note(&format!(
                    "accept {} from {}: {} {}",
                    request.id,
                    request.from,
                    request.kind.text,
                    request.setting.text()
                ));
                let _ = self.writer.send(&format!("ts accept {}", request.id));
            }
            Err(why) => {
                log.note(&format!(
                    "decline {} from {}: {why}",
                    request.id, request.from
                ));
                let _ = self.writer.send(&format!("ts decline {}", request.id));
            }
        }
    }

    /// Starts the thread of game `id`.
    fn start_game(
        &mut self,
        id: &str,
        kind: Option<GameType>,
        block: &super::message::Block,
    ) -> Result<()> {
        let match_id = match id.rsplit_once('.') {
            Some((m, _)) if id.matches('.').count() > 1 => m.to_string(),
            _ => id.to_string(),
        };
        let (kind, rated) = match self.matches.get(&match_id) {
            Some((k, r)) => (Some(k.clone()), *r),
            None => (kind, false),
        };
        let names: Vec<String> = block.players.iter().map(|p| p.name.clone()).collect();
        let setting = self
            .settings
            .iter()
            .find(|((a, b), _)| names.contains(a) && (names.contains(b) || b.is_empty()))
            .map(|(_, s)| *s);
        if let Some(black) = block
            .players
            .iter()
            .find(|p| p.color == emilia_core::board::Color::Black)
        {
            self.black_names.insert(id.to_string(), black.name.clone());
        }
        let mut session = Session::new((self.make_engine)()?, Timekeeping::Told);
        let size = kind.as_ref().map_or(8, |k| k.size);
        session
            .new_game(size)
            .map_err(|e| anyhow!("board {size}: {e}"))?;
        let setup = GameSetup {
            id: id.to_string(),
            me: self.options.login.clone(),
            kind,
            setting,
            rated,
            limits: self.options.limits.clone(),
            lag: self.options.lag,
            writer: Arc::clone(&self.writer),
            records: Arc::clone(&self.records),
        };
        let (inbox, rx) = mpsc::channel();
        let thread = std::thread::Builder::new()
            .name(format!("ggs game {id}"))
            .spawn(move || game::play(session, setup, rx))?;
        self.log().note(&format!("{id}: game started"));
        self.games.insert(
            id.to_string(),
            Running {
                inbox,
                thread,
                orphaned: None,
            },
        );
        self.share_threads();
        Ok(())
    }

    /// Splits the search threads between the games running.
    fn share_threads(&self) {
        let each = (self.options.threads / self.games.len().max(1)).max(1);
        for running in self.games.values() {
            let _ = running.inbox.send(ToGame::Threads(each));
        }
    }

    fn tell(&self, id: &str, message: ToGame) {
        if let Some(running) = self.games.get(id) {
            let _ = running.inbox.send(message);
        }
    }

    /// Ends game `id`: its thread records it.
    fn end(&mut self, id: &str, black_score: Option<f64>, how: String) {
        if let Some(running) = self.games.remove(id) {
            let _ = running.inbox.send(ToGame::End { black_score, how });
            if running.thread.join().is_err() {
                self.log().note(&format!("{id}: the game's thread failed"));
            }
            self.black_names.remove(id);
            self.finished += 1;
            self.share_threads();
            self.ask_again();
        }
    }

    /// With `--ask`, challenges again once the games asked for have ended, until
    /// `--games` have been played.
    fn ask_again(&mut self) {
        let more = self.options.games.is_none_or(|n| self.finished < n);
        if let (Some(ask), true, true) = (&self.options.ask, more, self.games.is_empty()) {
            let command = format!(
                "ts ask {} {} {}",
                ask.kind.text,
                ask.setting.text(),
                ask.opponent
            );
            let _ = self.writer.send(&command);
        }
    }

    /// Ends the games the server did not bring back after a reconnection.
    fn end_orphans(&mut self) {
        let gone: Vec<String> = self
            .games
            .iter()
            .filter(|(_, r)| r.orphaned.is_some_and(|t| t.elapsed() > ORPHAN_WAIT))
            .map(|(id, _)| id.clone())
            .collect();
        for id in gone {
            self.log().note(&format!(
                "{id}: not resumed by the server after the connection was lost"
            ));
            self.end(&id, None, "left: the connection was lost".into());
        }
    }

    /// Ends every game still running with `how`.
    fn end_games(&mut self, how: &str) {
        let ids: Vec<String> = self.games.keys().cloned().collect();
        for id in ids {
            self.end(&id, None, how.to_string());
        }
    }

    /// Leaves the server: the games still running are recorded as unfinished, then `quit`.
    fn leave(&mut self) {
        self.end_games("unfinished: the client left");
        let _ = self.writer.send("quit");
        std::thread::sleep(Duration::from_millis(200));
        self.writer.close();
        self.log().note("left the server");
    }
}
