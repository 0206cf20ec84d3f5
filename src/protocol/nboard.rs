//! The NBoard protocol (version 2), as spoken by the NBoard GUI and NTest: the GUI sends the
//! game (`set game <GGF>`, `move`), asks for a move (`go`) or an analysis (`hint N`,
//! `analyze`), and synchronises with `ping N` / `pong N`. Unknown lines are ignored, as the
//! protocol asks; nothing but protocol goes to stdout and nothing at all to stderr.

use std::io::Write;
use std::sync::mpsc::Receiver;
use std::time::{Duration, Instant};

use crate::board::{Move, Position};
use crate::engine::{self, Engine};
use crate::formats::ggf;
use crate::game::Game;
use crate::score::Score;
use crate::search::{Clock, Limits, SearchReport};

use super::input::{Interrupts, Line};
use super::Output;

/// Level used before the GUI sends `set depth`.
pub(crate) const DEFAULT_DEPTH: u32 = 10;

/// One NBoard session.
pub(crate) struct NboardSession<'a, W: Write> {
    engine: Engine,
    game: Game,
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
            engine,
            game: Game::standard(8).expect("8x8 is supported"),
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
                self.interrupts.handled();
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
                self.interrupts.handled();
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
            "game" => match ggf::parse(value) {
                Ok(game) => match self.engine.check_size(game.position().size()) {
                    Ok(()) => self.game = game,
                    Err(e) => self.status(&format!("game ignored: {e}")),
                },
                Err(e) => self.status(&format!("game ignored: {e}")),
            },
            // The engine's own options (`set hash 128`), as the text protocol's setoption.
            name if engine::find_option(name).is_some() => {
                let size = self.game.position().size();
                if let Err(e) = super::set_option_at_size(&mut self.engine, name, value, size) {
                    self.status(&e);
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
                self.game
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

    /// Limits for the side to move: the level (`set depth`), and the GGF clock when the
    /// game has one.
    fn limits(&self, position: &Position) -> Limits {
        let mover = position.to_move;
        let clock = self.game.time_left(mover).map(|remaining| Clock {
            remaining,
            increment: self
                .game
                .clock(mover)
                .map_or(Duration::ZERO, |c| c.increment),
            moves_to_go: None,
        });
        Limits {
            level: Some(self.depth),
            clock,
            ..Limits::default()
        }
    }

    fn go(&mut self) {
        let position = *self.game.position();
        if self.game.is_over() {
            self.status("the game is over");
            self.out.line("=== PA");
            return;
        }
        if self.game.must_pass() {
            // Nothing to choose: answered at once, without thinking.
            self.out.line("=== PA");
            return;
        }
        self.out.line("status Emilia is thinking");
        let limits = self.limits(&position);
        let start = Instant::now();
        let out = &mut *self.out;
        // A report that differs from the last only in its nodes comes from a running exact
        // solve: the GUI gets the count as `nodestats`, not the same line again.
        let mut last_line = String::new();
        let (report, hit) = self.engine.go(&position, &limits, &mut |r| {
            let line = search_line(r);
            if line == last_line {
                let seconds = r.elapsed.as_secs_f64();
                out.line(&format!("nodestats {} {seconds:.2}", r.nodes));
            } else {
                out.line(&line);
                last_line = line;
            }
        });
        if let Some(hit) = hit {
            log::info!("ponder hit: started at depth {}", hit.depth);
        }
        let seconds = start.elapsed().as_secs_f64();
        self.out
            .line(&format!("nodestats {} {seconds:.2}", report.nodes));
        self.out.line(&format!(
            "=== {}/{}/{seconds:.2}",
            move_text(report.best),
            eval_text(report.score)
        ));
    }

    /// The best `count` moves at every depth of the level, as the engine finds them.
    fn hint(&mut self, count: usize) {
        let position = *self.game.position();
        if self.game.is_over() {
            self.status("the game is over");
            return;
        }
        self.out.line("status Emilia is analysing");
        let limits = Limits {
            level: Some(self.depth),
            ..Limits::default()
        };
        let out = &mut *self.out;
        let interrupts = &self.interrupts;
        self.engine
            .hint(&position, count.clamp(1, 64), &limits, &mut |_, scores| {
                if interrupts.pending() {
                    // A ping came before or while this depth was searched: its numbers
                    // are stale.
                    return;
                }
                for s in scores {
                    let depth = if s.exact {
                        "100%".to_string()
                    } else {
                        s.depth.to_string()
                    };
                    // Book moves as NBoard's `book <pv> <eval> <games> <depth>`.
                    let kind = if s.book { "book" } else { "search" };
                    out.line(&format!(
                        "{kind} {} {} 0 {depth}",
                        move_text(s.mv),
                        eval_text(s.score)
                    ));
                }
            });
        self.out.line("status");
    }

    /// Retrograde analysis: every position of the game from the last to the first, each
    /// with its evaluation for the side to move.
    fn analyze(&mut self) {
        let positions: Vec<Position> = self.game.positions().to_vec();
        self.out.line("status Emilia is analysing the game");
        for (moves_made, position) in positions.iter().enumerate().rev() {
            if self.interrupts.pending() || !self.out.is_open() {
                break;
            }
            let score = if position.is_game_over() {
                Score::from_discs(position.board.final_score())
            } else {
                let limits = self.limits(position);
                self.engine.search(position, &limits, &mut |_| {}).score
            };
            self.out
                .line(&format!("analysis {moves_made} {}", eval_text(score)));
        }
        self.out.line("status");
    }
}

/// A progress report as NBoard's `search <pv> <eval> 0 <depth>`.
fn search_line(report: &SearchReport) -> String {
    let pv: String = if report.pv.is_empty() {
        move_text(report.best)
    } else {
        report.pv.iter().map(|&m| move_text(m)).collect()
    };
    // A selective search to the end shows its probability, as `24@95%`.
    let depth = match (report.exact, report.probability) {
        (true, _) => "100%".to_string(),
        (false, Some(percent)) => format!("{}@{percent}%", report.depth),
        (false, None) => report.depth.to_string(),
    };
    let kind = if report.book { "book" } else { "search" };
    format!("{kind} {pv} {} 0 {depth}", eval_text(report.score))
}

/// Serves an NBoard session whose `nboard` line has been read, answering every line in
/// order; returns at `quit`, once every line before the end of the input is answered, or
/// when the GUI is gone (the output closed). A `ping` or `quit` stops the search under way
/// as soon as it is read (the reader raises the stop flag); the search still answers.
pub(crate) fn serve<W: Write>(
    engine: Engine,
    lines: &Receiver<Line>,
    out: &mut Output<W>,
    interrupts: Interrupts,
) {
    let mut session = NboardSession::new(engine, out, interrupts);
    session.handle("nboard 2");
    while !session.finished() {
        let now = *session.game.position();
        match session.engine.wait_pondering(&now, || lines.recv()) {
            Ok(Line::Text(text)) => {
                let outcome = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                    session.handle(&text)
                }));
                if outcome.is_err() {
                    log::error!("internal error on '{text}'");
                }
            }
            // Lines that cannot be commands are ignored, like unknown ones.
            Ok(other) => log::debug!("ignored: {other:?}"),
            Err(_) => return,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run(lines: &[&str]) -> String {
        let mut out = Output::new(Vec::new());
        {
            let interrupts = Interrupts::new(crate::engine::Stopper::default());
            let mut session = NboardSession::new(Engine::new(), &mut out, interrupts);
            for line in lines {
                session.handle(line);
            }
        }
        String::from_utf8(out.into_inner()).unwrap()
    }

    const START: &str = "(;GM[Othello]PC[NBoard]TI[5:00]TY[8]BO[8 ---------------------------O*------*O--------------------------- *];)";

    #[test]
    fn answers_go_ping_and_set_depth() {
        let text = run(&[
            "nboard 2",
            // The start position is in the opening book; the search is under test here.
            "set book off",
            &format!("set game {START}"),
            "set depth 2",
            "ping 1",
            "go",
        ]);
        let lines: Vec<&str> = text.lines().collect();
        // The handshake names the default level, `set depth` the new one.
        assert_eq!(lines[0], "set myname Emilia10");
        assert_eq!(lines[1], "set myname Emilia2");
        assert_eq!(lines[2], "pong 1");
        let answer = lines.last().unwrap();
        let mv = answer.trim_start_matches("=== ").split('/').next().unwrap();
        assert!(["D3", "C4", "F5", "E6"].contains(&mv), "{text}");
        assert!(lines.iter().any(|l| l.starts_with("nodestats ")), "{text}");
        assert!(lines.iter().any(|l| l.starts_with("search ")), "{text}");
    }

    #[test]
    fn moves_update_the_game_and_bad_ones_are_reported() {
        let text = run(&[
            &format!("set game {START}"),
            "move F5/1.00/2.5",
            "move F5",
            "move Z9",
            "learn",
            "frobnicate",
        ]);
        assert_eq!(
            text.lines()
                .filter(|l| l.starts_with("status Emilia: move"))
                .count(),
            2,
            "{text}"
        );
        assert!(text.ends_with("learned\n"), "{text}");
    }

    #[test]
    fn random_lines_never_panic() {
        let words = [
            "nboard", "set", "game", "depth", "contempt", "move", "ping", "go", "hint", "learn",
            "analyze", "F5", "PA", "Z9", "1", "0", "-3", "x", "/", "(;", ";)", "BO[8", "]",
            "B[F5]", "W[PA]", "TI[0:01]", START,
        ];
        let mut rng = crate::rng::Rng::new(7);
        let mut lines = vec!["set depth 1".to_string()];
        for _ in 0..2000 {
            let count = 1 + rng.below(4);
            let line: Vec<&str> = (0..count).map(|_| *rng.pick(&words)).collect();
            lines.push(line.join(" "));
        }
        let refs: Vec<&str> = lines.iter().map(String::as_str).collect();
        let text = run(&refs);
        assert!(text.lines().count() > 100);
    }

    #[test]
    fn hint_streams_and_analyze_covers_every_position() {
        let text = run(&[
            "set book off",
            &format!("set game {START}"),
            "set depth 2",
            "move F5",
            "hint 3",
            "analyze",
        ]);
        let searches: Vec<&str> = text.lines().filter(|l| l.starts_with("search ")).collect();
        assert_eq!(searches.len(), 6, "3 moves at depths 1 and 2: {text}");
        assert!(searches[5].ends_with(" 0 2"), "{text}");
        let analysis: Vec<&str> = text
            .lines()
            .filter(|l| l.starts_with("analysis "))
            .collect();
        assert_eq!(analysis.len(), 2, "{text}");
        assert!(analysis[0].starts_with("analysis 1 "));
        assert!(analysis[1].starts_with("analysis 0 "));
    }
}
