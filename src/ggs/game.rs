//! One game on the server, played on a thread of its own with its own [`Session`]: the
//! board blocks keep the session's game and clocks in step with the server's (a block
//! that disagrees resynchronises the game from the board it carries), its turns are
//! searched within the told clocks, and its end is recorded.

use std::sync::mpsc::{Receiver, RecvTimeoutError};
use std::sync::Arc;
use std::time::Duration;

use emilia_core::board::{Color, Move, Position};
use emilia_core::engine::Session;
use emilia_core::game::{ClockSetting, Game};
use emilia_core::search::Limits;

use super::clock::{self, Setting};
use super::connection::Writer;
use super::message::{Block, GameType};
use super::record::{Finished, Records};

/// What the client loop tells a game.
#[derive(Debug)]
pub(crate) enum ToGame {
    /// A board block: a join (`true`: the start and every move so far) or an update
    /// after a move.
    Board(Block, bool),
    /// The server refused the last move sent.
    Refused(String),
    /// Main time ran out for `login` (the extension follows).
    Timeout { login: String, fatal: bool },
    /// The game ended: Black's score when the server gave one, and how it ended.
    End {
        black_score: Option<f64>,
        how: String,
    },
    /// A new share of the search threads.
    Threads(usize),
}

/// What a game needs besides its messages.
pub(crate) struct GameSetup {
    pub(crate) id: String,
    pub(crate) me: String,
    pub(crate) kind: Option<GameType>,
    pub(crate) setting: Option<Setting>,
    pub(crate) rated: bool,
    pub(crate) limits: Limits,
    /// Taken off the server's clock for the messages' time on the way, per move to come.
    pub(crate) lag: Duration,
    pub(crate) writer: Arc<Writer>,
    pub(crate) records: Arc<Records>,
}

/// The game's thread: follows the game until it ends or the client lets it go.
pub(crate) fn play(mut session: Session, setup: GameSetup, inbox: Receiver<ToGame>) {
    let mut game = GameState {
        setup,
        color: None,
        server: None,
        refused: Vec::new(),
        timeouts: Vec::new(),
        names: [String::new(), String::new()],
        offset: 0,
        server_number: 0,
    };
    let log = game.setup.writer.log().clone();
    loop {
        // The reply expected is pondered while the opponent thinks (option ponder).
        let message = session.wait_pondering(|| inbox.recv_timeout(Duration::from_secs(3600)));
        let message = match message {
            Ok(message) => message,
            Err(RecvTimeoutError::Timeout) => continue,
            Err(RecvTimeoutError::Disconnected) => {
                game.finish(&session, None, "unfinished: the client stopped");
                return;
            }
        };
        match message {
            ToGame::Board(block, join) => {
                game.follow(&mut session, block, join);
                game.move_if_to_move(&mut session);
            }
            ToGame::Refused(text) => {
                log.note(&format!("{}: refused: {text}", game.setup.id));
                game.resynchronise_after_refusal(&mut session);
                game.move_if_to_move(&mut session);
            }
            ToGame::Timeout { login, fatal } => {
                let what = if fatal { "extension" } else { "main time" };
                log.note(&format!("{}: {login} is out of {what}", game.setup.id));
                game.timeouts.push(login);
            }
            ToGame::Threads(n) => {
                if let Err(e) = session.set_option("threads", &n.to_string()) {
                    log.note(&format!("{}: threads {n}: {e}", game.setup.id));
                }
            }
            ToGame::End { black_score, how } => {
                game.finish(&session, black_score, &how);
                return;
            }
        }
    }
}

struct GameState {
    setup: GameSetup,
    /// The colour played, once a block names it.
    color: Option<Color>,
    /// The last block's board: the server's game as it is.
    server: Option<Position>,
    /// Moves the server refused in the position now.
    refused: Vec<Move>,
    /// Who ran out of main time.
    timeouts: Vec<String>,
    /// Black's and White's names.
    names: [String; 2],
    /// The server's number of the last move before the game held starts (not zero once
    /// the game was taken from a board).
    offset: u32,
    /// The server's number of the last move made, as of its last block.
    server_number: u32,
}

impl GameState {
    /// Brings the session's game in step with `block`.
    fn follow(&mut self, session: &mut Session, block: Block, join: bool) {
        let log = self.setup.writer.log().clone();
        for player in &block.players {
            self.names[player.color.index()] = player.name.clone();
            if player.name == self.setup.me {
                self.color = Some(player.color);
            }
        }
        let Some(now) = block.now else {
            log.note(&format!(
                "{}: a block without a board, kept as it was",
                self.setup.id
            ));
            return;
        };
        let before = *session.game().position();
        let in_step = match &block.first {
            Some(first) if join => {
                self.offset = 0;
                self.rebuild(session, *first, &block);
                *session.game().position() == now
            }
            _ => self.apply_update(session, &block, now),
        };
        if !in_step {
            log.note(&format!(
                "{}: the server's board differs from the game held; taken from the board",
                self.setup.id
            ));
            self.offset = block.moves.last().map_or(0, |m| m.number);
            let mut game = Game::new(now);
            self.name(&mut game);
            if session.set_game(game).is_err() {
                log.note(&format!(
                    "{}: a board the engine cannot play",
                    self.setup.id
                ));
            }
        }
        if *session.game().position() != before {
            self.refused.clear();
        }
        self.server = Some(now);
        self.server_number = self.offset + session.game().plies().len() as u32;
        let main = self.setup.setting.map_or(Duration::ZERO, |s| s.main);
        let to_come = session.game().position().board.counts().2.div_ceil(2);
        let reserve = self.setup.lag * to_come;
        for player in &block.players {
            if let Some(reading) = &player.clock {
                clock::tell(session.clocks_mut(), player.color, reading, main, reserve);
            }
        }
    }

    /// The game from `first` and the block's moves.
    fn rebuild(&self, session: &mut Session, first: Position, block: &Block) {
        let mut game = Game::new(first);
        self.name(&mut game);
        for m in &block.moves {
            if game.play_annotated(m.mv, m.eval, m.seconds).is_err() {
                break;
            }
        }
        let _ = session.set_game(game);
    }

    /// Applies an update's last move when it is the next one; whether the game then
    /// shows the block's board.
    fn apply_update(&self, session: &mut Session, block: &Block, now: Position) -> bool {
        if *session.game().position() == now {
            return true;
        }
        let Some(last) = block.moves.last() else {
            return false;
        };
        let game = session.game_mut();
        if last.number as usize == self.offset as usize + game.plies().len() + 1 {
            let _ = game.play_annotated(last.mv, last.eval, last.seconds);
        }
        *session.game().position() == now
    }

    fn name(&self, game: &mut Game) {
        game.black = self.names[0].clone();
        game.white = self.names[1].clone();
        if let Some(s) = self.setup.setting {
            let clock = ClockSetting {
                main: s.main,
                increment: s.increment,
            };
            game.clocks = [Some(clock), Some(clock)];
        }
    }

    /// After a refusal: the move sent is taken back, and the game is taken from the last
    /// board the server sent when it differs.
    fn resynchronise_after_refusal(&mut self, session: &mut Session) {
        let Some(server) = self.server else { return };
        let game = session.game_mut();
        if game.position().to_move != self.color.unwrap_or(game.position().to_move)
            || *game.position() != server
        {
            if let Some(mv) = game.undo() {
                self.refused.push(mv);
            }
        }
        if *session.game().position() != server {
            self.offset = self.server_number;
            let mut game = Game::new(server);
            self.name(&mut game);
            let _ = session.set_game(game);
        }
    }

    /// Searches and sends a move when it is this side's turn.
    fn move_if_to_move(&mut self, session: &mut Session) {
        let Some(color) = self.color else { return };
        let game = session.game();
        if game.is_over() || game.position().to_move != color {
            return;
        }
        let log = self.setup.writer.log().clone();
        let choice = match session.go(Some(color), self.setup.limits.clone(), &mut |_| {}) {
            Ok(choice) => choice,
            Err(e) => {
                log.note(&format!("{}: no move: {e}", self.setup.id));
                return;
            }
        };
        let mut mv = choice.mv;
        let mut eval = choice.report.as_ref().map(|r| r.score.discs());
        if self.refused.contains(&mv) {
            // Refused in this very position already: another legal move, if there is one.
            let position = *session.game().position();
            if let Some(other) = position
                .legal_moves()
                .into_iter()
                .find(|m| !self.refused.contains(m))
            {
                log.note(&format!(
                    "{}: {mv} was refused here; {other} instead",
                    self.setup.id
                ));
                mv = other;
                eval = None;
            }
        }
        let seconds = choice.used.as_secs_f64();
        let text = match (mv, eval) {
            (Move::Pass, _) => "pa".to_string(),
            (Move::Play(sq), Some(e)) => format!("{sq}/{e:+.2}/{seconds:.2}"),
            (Move::Play(sq), None) => format!("{sq}//{seconds:.2}"),
        };
        if let Err(e) = self
            .setup
            .writer
            .send(&format!("tell /os play {} {text}", self.setup.id))
        {
            log.note(&format!("{}: the move was not sent: {e:#}", self.setup.id));
            return;
        }
        let played = if mv == choice.mv {
            session.play_choice(choice)
        } else {
            session.game_mut().play(mv)
        };
        if let Err(e) = played {
            log.note(&format!("{}: {mv} not kept: {e}", self.setup.id));
        }
    }

    /// Records the game and says its result.
    fn finish(&self, session: &Session, black_score: Option<f64>, how: &str) {
        let mut game = session.game().clone();
        self.name(&mut game);
        let timed_out = self.timeouts.first().cloned();
        self.setup.records.finish(Finished {
            id: self.setup.id.clone(),
            game,
            me: self.setup.me.clone(),
            color: self.color,
            kind: self.setup.kind.as_ref().map(|k| k.text.clone()),
            rated: self.setup.rated,
            black_score,
            how: how.to_string(),
            timed_out,
        });
    }
}
