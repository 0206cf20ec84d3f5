//! The NBoard protocol (version 2), as spoken by the NBoard GUI and NTest: the GUI sends the
//! game (`set game <GGF>`, `move`), asks for a move (`go`) or an analysis (`hint N`,
//! `analyze`), and synchronises with `ping N` / `pong N`. Unknown lines are ignored, as the
//! protocol asks; nothing but protocol goes to stdout and nothing at all to stderr.

use std::io::Write;
use std::sync::mpsc::Receiver;
use std::time::Instant;

use emilia_core::board::Move;
use emilia_core::engine::{self, Engine, Session, Timekeeping};
use emilia_core::formats::ggf;
use emilia_core::score::Score;
use emilia_core::search::{Limits, MoveScore, SearchReport};

use super::input::{next_line, Interrupts, Line};
use super::Output;

/// Level used before the GUI sends `set depth`.
pub(crate) const DEFAULT_DEPTH: u32 = 10;

/// One NBoard session.
pub(crate) struct NboardSession<'a, W: Write> {
    session: Session,
    depth: u32,
    out: &'a mut Output<W>,
    interrupts: Interrupts,
    quit: bool,
}

/// An evaluation as NBoard reads it: discs for the side to move, two decimals.
fn eval_text(score: Score) -> String {
    format!("{:.2}", score.discs())
}

/// A move as NBoard writes it: `F5`, or `PA` for a pass.
fn move_text(mv: Move) -> String {
    match mv {
        Move::Pass => "PA".to_string(),
        Move::Play(sq) => sq.to_string().to_ascii_uppercase(),
    }
}

impl<'a, W: Write> NboardSession<'a, W> {
    /// A session writing to `out`; `interrupts` counts `ping`s read but not yet answered.
    pub(crate) fn new(engine: Engine, out: &'a mut Output<W>, interrupts: Interrupts) -> Self {
        NboardSession {
            session: Session::new(engine, Timekeeping::Record),
            depth: DEFAULT_DEPTH,
            out,
            interrupts,
            quit: false,
        }
    }

    /// Whether the session is over: `quit` handled, the output closed, or the GUI gone
    /// (the end of the input with the output hung up).
    pub(crate) fn finished(&self) -> bool {
        self.quit || !self.out.is_open() || self.interrupts.is_gone()
    }

    /// Handles one line from the GUI.
    pub(crate) fn handle(&mut self, line: &str) {
        let mut words = line.split_whitespace();
        let command = words.next().unwrap_or("");
        let rest = line.trim_start()[command.len()..].trim();
        match command {
            // NBoard and the engines it drives answer the handshake with the name.
            "nboard" => {
                self.out.line(&format!("set myname Emilia{}", self.depth));
            }
            "set" => self.set(rest),
            "move" => self.play(rest),
            "ping" => {
                self.interrupts.stopper.handled();
                let n = words.next().unwrap_or("");
                self.out.line(format!("pong {n}").trim_end());
            }
            "go" => self.go(),
            "hint" => {
                let count = words.next().and_then(|n| n.parse().ok()).unwrap_or(1);
                self.hint(count);
            }
            "learn" => {
                self.out.line("learned");
            }
            "analyze" => self.analyze(),
            "quit" => {
                self.interrupts.stopper.handled();
                self.quit = true;
            }
            _ => log::debug!("ignored: {line}"),
        }
    }

    fn set(&mut self, rest: &str) {
        let what = rest.split_whitespace().next().unwrap_or("");
        let value = rest[what.len()..].trim();
        match what {
            "depth" => match value.parse::<u32>() {
                Ok(depth) if (1..=60).contains(&depth) => {
                    self.depth = depth;
                    self.out.line(&format!("set myname Emilia{depth}"));
                }
                _ => self.status(&format!("depth '{value}' ignored: expected 1 to 60")),
            },
            // The search has no notion of contempt (the value of a draw).
            "contempt" => log::debug!("ignored: set {rest}"),
            "game" => {
                let set = ggf::parse(value).map_err(|e| e.to_string());
                if let Err(e) =
                    set.and_then(|g| self.session.set_game(g).map_err(|e| e.to_string()))
                {
                    self.status(&format!("game ignored: {e}"));
                }
            }
            // The engine's own options (`set hash 128`), as the text protocol's setoption.
            name if engine::find_option(name).is_some() => {
                if let Err(e) = self.session.set_option(name, value) {
                    self.status(&e.to_string());
                }
            }
            _ => log::debug!("ignored: set {rest}"),
        }
    }

    fn play(&mut self, text: &str) {
        let mut parts = text.split('/');
        let mv = parts.next().unwrap_or("").trim();
        let number = |t: Option<&str>| t.and_then(|t| t.trim().parse::<f64>().ok());
        let eval = number(parts.next());
        let seconds = number(parts.next());
        let result = mv
            .parse::<Move>()
            .map_err(|e| e.to_string())
            .and_then(|mv| {
                self.session
                    .game_mut()
                    .play_implicit(mv, eval, seconds)
                    .map_err(|e| e.to_string())
            });
        if let Err(e) = result {
            self.status(&format!("move '{text}' ignored: {e}"));
        }
    }

    fn status(&mut self, text: &str) {
        self.out.line(&format!("status Emilia: {text}"));
    }

    /// The level (`set depth`) as limits; the session adds the game's clock.
    fn level(&self) -> Limits {
        Limits {
            level: Some(self.depth),
            ..Limits::default()
        }
    }

    fn go(&mut self) {
        let game = self.session.game();
        if game.is_over() {
            self.status("the game is over");
        } else if !game.must_pass() {
            // A forced pass is answered at once, without thinking.
            self.out.line("status Emilia is thinking");
        }
        let (start, level) = (Instant::now(), self.level());
        let out = &mut *self.out;
        // A report that differs from the last only in its nodes comes from a running exact
        // solve: the GUI gets the count as `nodestats`, not the same line again.
        let mut last_line = String::new();
        let choice = self.session.go(None, level, &mut |r| {
            let line = search_line(r);
            if line == last_line {
                let seconds = r.elapsed.as_secs_f64();
                out.line(&format!("nodestats {} {seconds:.2}", r.nodes));
            } else {
                out.line(&line);
                last_line = line;
            }
        });
        let Some((choice, report)) = choice.ok().and_then(|c| c.report.clone().map(|r| (c, r)))
        else {
            self.out.line("=== PA");
            return;
        };
        if let Some(hit) = choice.ponder_hit {
            log::info!("ponder hit: started at depth {}", hit.depth);
        }
        let seconds = start.elapsed().as_secs_f64();
        self.out
            .line(&format!("nodestats {} {seconds:.2}", report.nodes));
        self.out.line(&format!(
            "=== {}/{}/{seconds:.2}",
            move_text(choice.mv),
            eval_text(report.score)
        ));
    }

    /// The best `count` moves at every depth of the level, as the engine finds them.
    fn hint(&mut self, count: usize) {
        if self.session.game().is_over() {
            self.status("the game is over");
            return;
        }
        self.out.line("status Emilia is analysing");
        let (level, stopper) = (self.level(), self.interrupts.stopper.clone());
        let out = &mut *self.out;
        let _ = self
            .session
            .hint(count.clamp(1, 64), level, &mut |_, scores| {
                if stopper.pending() {
                    // A ping came before or while this depth was searched: its numbers
                    // are stale.
                    return;
                }
                for s in scores {
                    out.line(&score_line(&[s.mv], s, None));
                }
            });
        self.out.line("status");
    }

    /// Retrograde analysis: every position of the game from the last to the first, each
    /// with its evaluation for the side to move.
    fn analyze(&mut self) {
        self.out.line("status Emilia is analysing the game");
        let (level, out) = (self.level(), &mut *self.out);
        self.session.analyze(&level, &mut |moves_made, score| {
            out.line(&format!("analysis {moves_made} {}", eval_text(score)))
        });
        self.out.line("status");
    }
}

/// A progress report as NBoard's `search <pv> <eval> 0 <depth>`.
fn search_line(r: &SearchReport) -> String {
    let pv: Vec<Move> = if r.pv.is_empty() {
        vec![r.best]
    } else {
        r.pv.clone()
    };
    let line = MoveScore {
        mv: r.best,
        score: r.score,
        exact: r.exact,
        depth: r.depth,
        book: r.book,
    };
    score_line(&pv, &line, r.probability)
}

/// A move's line as NBoard's `search <pv> <eval> 0 <depth>` (book moves `book …`, NBoard's
/// `<games>` 0): the depth `100%` when exact, `24@95%` for a selective search to the end.
fn score_line(pv: &[Move], s: &MoveScore, probability: Option<u32>) -> String {
    let pv: String = pv.iter().map(|&m| move_text(m)).collect();
    let depth = match (s.exact, probability) {
        (true, _) => "100%".to_string(),
        (false, Some(percent)) => format!("{}@{percent}%", s.depth),
        (false, None) => s.depth.to_string(),
    };
    let kind = if s.book { "book" } else { "search" };
    format!("{kind} {pv} {} 0 {depth}", eval_text(s.score))
}

/// Serves an NBoard session whose `nboard` line has been read, answering every line in
/// order; returns at `quit`, once every line before the end of the input is answered, or
/// when the GUI is gone (the output closed). A `ping` or `quit` stops the search under way
/// as soon as it is read (the reader raises the stop flag); the search still answers.
/// With `ends_process`, a `quit` or the end of the input read while waiting ends the process.
pub(crate) fn serve<W: Write>(
    engine: Engine,
    lines: &Receiver<Line>,
    out: &mut Output<W>,
    interrupts: Interrupts,
    ends_process: bool,
) {
    let mut session = NboardSession::new(engine, out, interrupts);
    session.handle("nboard 2");
    while !session.finished() {
        let is_quit = |line: &Line| matches!(line, Line::Text(t) if t.trim() == "quit");
        let next = || next_line(lines, ends_process, is_quit);
        match session.session.wait_pondering(next) {
            Ok(Line::Text(text)) => {
                let _ = super::guarded(&text, || session.handle(&text));
            }
            // Lines that cannot be commands are ignored, like unknown ones.
            Ok(other) => log::debug!("ignored: {other:?}"),
            Err(_) => return,
        }
    }
}
