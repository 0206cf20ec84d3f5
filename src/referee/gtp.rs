//! The referee's side of GTP: standard commands only (`boardsize`, `clear_board`, `play`,
//! `genmove`, `time_settings`, `time_left`), so that any Othello engine speaking GTP can
//! play; Emilia's extensions only when the engine is Emilia and lists them (`setoption
//! depth N` for a depth limit, `last_search` for the depth it reached, and when asked for,
//! its clock or move time with `genmove`).

use std::collections::HashSet;
use std::time::{Duration, Instant};

use super::client::{Answer, Client, Fault, GameSetup, MoveBudget};
use super::engine_process::{too_long, EngineProcess, ReadError};
use super::EngineSpec;
use emilia_core::board::{BoardSize, Color, Move};

/// An engine spoken to in GTP.
pub(crate) struct GtpClient {
    process: EngineProcess,
    name: String,
    known: HashSet<String>,
    timeout: Duration,
    size: Option<BoardSize>,
    /// Its own depth limit (`depth=N`), over the match's.
    depth: Option<u32>,
    /// Whether `time_left` takes fractional seconds; GTP specifies whole ones, which some
    /// engines insist on, so the first refusal switches to whole seconds.
    fractional_time: bool,
    /// Whether an Emilia engine is given its limits with `genmove` (see [`EngineSpec`]).
    limits_in_genmove: bool,
}

/// Lines outside replies tolerated while waiting for one reply.
const MAX_STRAY_LINES: usize = 100;

/// How long the lines of a reply after its first, and the blank line that ends it, may
/// take to come.
const REPLY_END_GRACE: Duration = Duration::from_secs(2);

/// Seconds as GTP time commands take them: whole when whole, else to the millisecond.
fn seconds(duration: Duration) -> String {
    let millis = duration.as_millis();
    if millis.is_multiple_of(1000) {
        (millis / 1000).to_string()
    } else {
        format!("{:.3}", duration.as_secs_f64())
    }
}

impl GtpClient {
    /// Starts the engine and asks its name and commands. `timeout` bounds every answer that
    /// is not a move.
    pub(crate) fn start(
        spec: &EngineSpec,
        label: &str,
        timeout: Duration,
    ) -> Result<GtpClient, Fault> {
        let process = EngineProcess::spawn(&spec.command, spec.dir.as_deref(), spec.stderr, label)
            .map_err(|e| Fault::Start(e.to_string()))?;
        let mut client = GtpClient {
            process,
            name: String::new(),
            known: HashSet::new(),
            timeout,
            size: None,
            depth: spec.depth,
            fractional_time: true,
            limits_in_genmove: spec.limits_in_genmove,
        };
        let name = client.ask("name")?;
        let version = client.ask("version").unwrap_or_default();
        client.name = format!("{name} {version}").trim().to_string();
        // An engine without list_commands is assumed to know the standard ones only.
        if let Ok(list) = client.ask("list_commands") {
            client.known = list.lines().map(|l| l.trim().to_string()).collect();
        }
        Ok(client)
    }

    fn knows(&self, command: &str) -> bool {
        self.known.contains(command)
    }

    /// Whether the engine is Emilia and lists extension `command`: other engines may
    /// have commands of the same name that mean something else.
    fn extension(&self, command: &str) -> bool {
        self.name.starts_with("Emilia") && self.knows(command)
    }

    /// Sends `command` and reads its reply until `deadline`: `Ok(Ok(text))` for `=`,
    /// `Ok(Err(message))` for `?`.
    fn exchange(
        &mut self,
        command: &str,
        deadline: Instant,
        limit: Duration,
        clock: bool,
    ) -> Result<Result<String, String>, Fault> {
        let fail = |process: &mut EngineProcess, error: ReadError| match error {
            ReadError::Timeout => Fault::Timeout {
                waiting_for: command.to_string(),
                limit,
                clock,
            },
            ReadError::Closed => Fault::Exited {
                waiting_for: command.to_string(),
                status: process.exit_status(Duration::from_millis(500)),
            },
            ReadError::TooLong => too_long(command),
        };
        if let Err(e) = self.process.send(command) {
            return Err(fail(&mut self.process, e));
        }
        // A reply opens with `=` or `?`. Lines before it are not GTP, but some engines print
        // diagnostics there (Edax: "*** SEARCH STILL RUNNING ? ***") and then answer
        // properly: they are logged and skipped, up to a limit past which they are garbage.
        let mut stray = 0;
        let (first, success) = loop {
            match self.process.read_line(deadline) {
                Ok(line) => match line.chars().next() {
                    Some('=') => break (line, true),
                    Some('?') => break (line, false),
                    _ if line.trim().is_empty() => continue,
                    _ if stray < MAX_STRAY_LINES => {
                        log::info!("{} printed outside a reply: {line}", self.name);
                        stray += 1;
                    }
                    _ => {
                        return Err(Fault::Garbage {
                            waiting_for: command.to_string(),
                            line,
                        })
                    }
                },
                Err(e) => return Err(fail(&mut self.process, e)),
            }
        };
        // `=[id] text`: drop the sign and an optional numeric id.
        let mut text = first[1..].trim_start_matches(|c: char| c.is_ascii_digit());
        text = text.trim();
        let mut reply = text.to_string();
        loop {
            // The rest of a reply comes with its first line: one that does not end is
            // malformed, however much time the engine had left for its move.
            match self.process.read_line(Instant::now() + REPLY_END_GRACE) {
                Ok(line) if line.trim().is_empty() => break,
                Ok(line) => {
                    reply.push('\n');
                    reply.push_str(line.trim_end());
                }
                Err(ReadError::Timeout) => {
                    return Err(Fault::Malformed {
                        waiting_for: command.to_string(),
                        problem: format!(
                            "no blank line ended the reply '{}' within {} s",
                            first.trim(),
                            REPLY_END_GRACE.as_secs()
                        ),
                    })
                }
                Err(e) => return Err(fail(&mut self.process, e)),
            }
        }
        Ok(if success { Ok(reply) } else { Err(reply) })
    }

    /// A command that is not a move: answered within the timeout, `?` is a refusal.
    fn ask(&mut self, command: &str) -> Result<String, Fault> {
        let deadline = Instant::now() + self.timeout;
        match self.exchange(command, deadline, self.timeout, false)? {
            Ok(text) => Ok(text),
            Err(message) => Err(Fault::Refused {
                command: command.to_string(),
                message,
            }),
        }
    }

    /// Sends the game clock before a move, when the engine takes `time_left`.
    fn send_time_left(&mut self, color: Color, budget: &MoveBudget) -> Result<(), Fault> {
        if !self.knows("time_left") {
            return Ok(());
        }
        let command = |fractional: bool| {
            let (time, stones) = match (budget.clock, budget.move_time) {
                (Some(left), _) => (left, 0),
                (None, Some(t)) => (t, 1),
                (None, None) => return None,
            };
            let text = if fractional {
                seconds(time)
            } else if stones == 0 {
                time.as_secs().to_string() // never more than it has
            } else {
                time.as_secs().max(1).to_string() // time_settings promised at least 1
            };
            Some(format!("time_left {color} {text} {stones}"))
        };
        let Some(fractional) = command(self.fractional_time) else {
            return Ok(());
        };
        match self.ask(&fractional) {
            Err(Fault::Refused { .. }) if self.fractional_time => {
                self.fractional_time = false;
                let whole = command(false).expect("same budget");
                if whole == fractional {
                    return Err(Fault::Refused {
                        command: whole,
                        message: "time_left refused".to_string(),
                    });
                }
                self.ask(&whole).map(|_| ())
            }
            other => other.map(|_| ()),
        }
    }
}

impl GtpClient {
    /// Tells the engine about a move. Some engines (GRhino) pass implicitly and reject
    /// `play <colour> pass`; the referee only sends forced passes, so such a refusal is
    /// harmless: were the engine's board out of step, its next move would be illegal.
    fn play(&mut self, color: Color, mv: Move) -> Result<(), Fault> {
        match self.ask(&format!("play {color} {mv}")) {
            Err(Fault::Refused { message, .. }) if mv == Move::Pass => {
                log::debug!("{} refused a forced pass ({message}): implicit", self.name);
                Ok(())
            }
            other => other.map(|_| ()),
        }
    }
}

/// Reads `depth N` from a `last_search` reply.
fn parse_depth(text: &str) -> Option<u32> {
    let mut words = text.split_whitespace();
    while let Some(word) = words.next() {
        if word == "depth" {
            return words.next()?.parse().ok();
        }
    }
    None
}

/// Reads a move from a `genmove` reply.
fn parse_move(reply: &str) -> Option<Move> {
    let word = reply.split_whitespace().next()?;
    word.parse().ok()
}

impl Client for GtpClient {
    fn reported_name(&self) -> &str {
        &self.name
    }

    fn supports_depth(&self) -> bool {
        self.extension("setoption")
    }

    fn new_game(&mut self, setup: &GameSetup) -> Result<(), Fault> {
        if self.size != Some(setup.size) {
            self.ask(&format!("boardsize {}", setup.size.side()))?;
            self.size = Some(setup.size);
        }
        self.ask("clear_board")?;
        if let Some(depth) = self.depth.or(setup.depth) {
            if self.supports_depth() {
                self.ask(&format!("setoption depth {depth}"))?;
            }
        }
        // GTP's time_settings takes whole seconds; time_left then gives the exact time.
        if self.knows("time_settings") {
            let whole = |t: Duration| (t.as_secs_f64().ceil() as u64).max(1);
            if let Some(clock) = setup.clock {
                self.ask(&format!("time_settings {} 0 0", whole(clock)))?;
                // GTP has no increment; Emilia takes it as an extension.
                if !setup.increment.is_zero() && self.extension("time_increment") {
                    self.ask(&format!("time_increment {}", seconds(setup.increment)))?;
                }
            } else if let Some(move_time) = setup.move_time {
                self.ask(&format!("time_settings 0 {} 1", whole(move_time)))?;
            }
        }
        let mut position = setup.start();
        for &mv in &setup.moves {
            let color = position.to_move;
            self.play(color, mv)?;
            position = position.play(mv).expect("openings were checked");
        }
        Ok(())
    }

    fn moved(
        &mut self,
        color: Color,
        mv: Move,
        own: bool,
        _elapsed: Duration,
    ) -> Result<(), Fault> {
        if own {
            return Ok(()); // genmove already played it on the engine's board
        }
        self.play(color, mv)
    }

    fn genmove(&mut self, color: Color, budget: &MoveBudget) -> Result<Answer, Fault> {
        let command = match (budget.clock, budget.move_time) {
            (Some(left), _) if self.limits_in_genmove && self.extension("genmove") => {
                format!("genmove {color} {}", left.as_millis())
            }
            (None, Some(t)) if self.limits_in_genmove && self.extension("genmove") => {
                format!("genmove {color} movetime {}", t.as_millis())
            }
            _ => {
                self.send_time_left(color, budget)?;
                format!("genmove {color}")
            }
        };
        let reply = match self.exchange(&command, budget.deadline, budget.allowed, budget.timed)? {
            Ok(reply) => reply,
            Err(message) => return Err(Fault::Refused { command, message }),
        };
        if reply.trim().eq_ignore_ascii_case("resign") {
            return Err(Fault::Resigned);
        }
        match parse_move(&reply) {
            Some(mv) => Ok(Answer { mv, depth: None }),
            None => Err(Fault::Garbage {
                waiting_for: command,
                line: format!("= {reply}"),
            }),
        }
    }

    fn last_depth(&mut self) -> Result<Option<u32>, Fault> {
        if !self.extension("last_search") {
            return Ok(None);
        }
        Ok(match self.ask("last_search") {
            Ok(text) => parse_depth(&text),
            Err(Fault::Refused { .. }) => None,
            Err(fault) => return Err(fault),
        })
    }

    fn quit(&mut self) {
        let deadline = Instant::now() + Duration::from_secs(1);
        let _ = self.exchange("quit", deadline, Duration::from_secs(1), false);
        self.process.shut_down(Duration::from_secs(1));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn times_are_whole_or_millisecond_seconds() {
        assert_eq!(seconds(Duration::from_secs(60)), "60");
        assert_eq!(seconds(Duration::from_millis(1500)), "1.500");
        assert_eq!(seconds(Duration::from_millis(7)), "0.007");
    }

    #[test]
    fn genmove_replies_parse_in_every_spelling() {
        assert_eq!(parse_move("F5"), Some("f5".parse().unwrap()));
        assert_eq!(parse_move("pass"), Some(Move::Pass));
        assert_eq!(parse_move("PA"), Some(Move::Pass));
        assert_eq!(parse_move("z99"), None);
        assert_eq!(parse_move(""), None);
    }

    #[test]
    fn depths_are_read_from_last_search() {
        assert_eq!(parse_depth("depth 12 score +1.00 exact false"), Some(12));
        assert_eq!(parse_depth(""), None);
        assert_eq!(parse_depth("depth x"), None);
    }
}
