//! The referee as an NBoard GUI: `nboard 2`, `set depth`, `set game <GGF>`, `move`, `go`
//! answered by `=== <move>`, and `ping`/`pong` to stay in step. NBoard engines play 8x8
//! and search to a depth; the referee still enforces the clock.

use std::time::{Duration, Instant};

use super::client::{Answer, Client, Fault, GameSetup, MoveBudget};
use super::engine_process::{too_long, EngineProcess, ReadError};
use super::EngineSpec;
use emilia_core::board::{BoardSize, Color, Move};
use emilia_core::formats::ggf::{self, GgfMove, GgfRecord};
use emilia_core::game::ClockSetting;

/// An engine spoken to in the NBoard protocol.
pub(crate) struct NboardClient {
    process: EngineProcess,
    name: String,
    timeout: Duration,
    depth: u32,
    ping: u32,
}

/// What a line read while waiting means.
enum Line<T> {
    /// What was waited for.
    Done(T),
    /// Informational (status, node counts, names): keep waiting.
    Skip,
    /// A malformed answer.
    Bad,
}

impl NboardClient {
    /// Starts the engine, sets its search depth and waits until it answers a ping.
    pub(crate) fn start(
        spec: &EngineSpec,
        label: &str,
        timeout: Duration,
        depth: u32,
    ) -> Result<NboardClient, Fault> {
        let process = EngineProcess::spawn(&spec.command, spec.dir.as_deref(), spec.stderr, label)
            .map_err(|e| Fault::Start(e.to_string()))?;
        let mut client = NboardClient {
            process,
            name: String::new(),
            timeout,
            depth,
            ping: 0,
        };
        client.send("nboard 2")?;
        let depth = client.depth;
        client.send(&format!("set depth {depth}"))?;
        client.sync("nboard 2")?;
        Ok(client)
    }

    fn send(&mut self, line: &str) -> Result<(), Fault> {
        self.process.send(line).map_err(|_| Fault::Exited {
            waiting_for: line.to_string(),
            status: self.process.exit_status(Duration::from_millis(500)),
        })
    }

    /// Reads lines until `classify` accepts one, skipping what the protocol lets engines
    /// say at any time.
    fn wait_for<T>(
        &mut self,
        waiting_for: &str,
        deadline: Instant,
        limit: Duration,
        clock: bool,
        mut classify: impl FnMut(&str) -> Line<T>,
    ) -> Result<T, Fault> {
        loop {
            let line = match self.process.read_line(deadline) {
                Ok(line) => line,
                Err(ReadError::Timeout) => {
                    return Err(Fault::Timeout {
                        waiting_for: waiting_for.to_string(),
                        limit,
                        clock,
                    })
                }
                Err(ReadError::Closed) => {
                    return Err(Fault::Exited {
                        waiting_for: waiting_for.to_string(),
                        status: self.process.exit_status(Duration::from_millis(500)),
                    })
                }
                Err(ReadError::TooLong) => return Err(too_long(waiting_for)),
            };
            let line = line.trim();
            if let Some(name) = line.strip_prefix("set myname ") {
                self.name = name.trim().to_string();
                continue;
            }
            match classify(line) {
                Line::Done(value) => return Ok(value),
                Line::Skip => log::trace!("ignored: {line}"),
                Line::Bad => {
                    return Err(Fault::Garbage {
                        waiting_for: waiting_for.to_string(),
                        line: line.to_string(),
                    })
                }
            }
        }
    }

    /// Pings and waits for the matching pong: the engine has read everything sent before.
    fn sync(&mut self, after: &str) -> Result<(), Fault> {
        self.ping += 1;
        let ping = self.ping;
        self.send(&format!("ping {ping}"))?;
        let expected = format!("pong {ping}");
        let deadline = Instant::now() + self.timeout;
        let waiting_for = format!("{after} (ping {ping})");
        self.wait_for(&waiting_for, deadline, self.timeout, false, |line| {
            if line == expected {
                Line::Done(())
            } else {
                Line::Skip
            }
        })
    }
}

/// Reads the move from a `=== <move>[/eval[/time]]` line (Edax separates with spaces).
fn parse_answer(line: &str) -> Line<Move> {
    let Some(rest) = line.strip_prefix("===") else {
        return Line::Skip;
    };
    let word = rest.split_whitespace().next().unwrap_or("");
    let mv = word.split('/').next().unwrap_or("");
    match mv.parse() {
        Ok(mv) => Line::Done(mv),
        Err(_) => Line::Bad,
    }
}

fn move_text(mv: Move) -> String {
    match mv {
        Move::Pass => "PA".to_string(),
        Move::Play(sq) => sq.to_string().to_uppercase(),
    }
}

impl Client for NboardClient {
    fn reported_name(&self) -> &str {
        &self.name
    }

    fn supports_depth(&self) -> bool {
        true
    }

    fn new_game(&mut self, setup: &GameSetup) -> Result<(), Fault> {
        if setup.size != BoardSize::EIGHT {
            return Err(Fault::Refused {
                command: format!("boardsize {}", setup.size.side()),
                message: "NBoard engines play 8x8 only".to_string(),
            });
        }
        let start = setup.start();
        let clock = setup.clock.map(|main| ClockSetting {
            main,
            increment: setup.increment,
        });
        let record = ggf::write(&GgfRecord {
            place: "emilia match",
            names: [&setup.names[0], &setup.names[1]],
            result: "?".to_string(),
            clocks: [clock; 2],
            start: &start,
            moves: setup
                .moves
                .iter()
                .map(|&mv| GgfMove {
                    mv,
                    eval: None,
                    seconds: None,
                })
                .collect(),
        });
        self.send(&format!("set game {record}"))?;
        self.sync("set game")
    }

    fn moved(
        &mut self,
        _color: Color,
        mv: Move,
        _own: bool,
        elapsed: Duration,
    ) -> Result<(), Fault> {
        // NBoard engines never play their own move: the GUI tells them every move.
        self.send(&format!(
            "move {}//{:.2}",
            move_text(mv),
            elapsed.as_secs_f64()
        ))
    }

    fn genmove(&mut self, _color: Color, budget: &MoveBudget) -> Result<Answer, Fault> {
        if let Some(depth) = budget.depth.filter(|&d| d != self.depth) {
            self.depth = depth;
            self.send(&format!("set depth {depth}"))?;
        }
        self.send("go")?;
        let mv = self.wait_for(
            "go",
            budget.deadline,
            budget.allowed,
            budget.timed,
            parse_answer,
        )?;
        Ok(Answer { mv, depth: None })
    }

    fn quit(&mut self) {
        let _ = self.send("quit");
        self.process.shut_down(Duration::from_secs(1));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn answer(line: &str) -> Option<Option<Move>> {
        match parse_answer(line) {
            Line::Done(mv) => Some(Some(mv)),
            Line::Bad => Some(None),
            Line::Skip => None,
        }
    }

    #[test]
    fn answers_parse_in_ntest_and_edax_styles() {
        let f5 = "f5".parse().unwrap();
        assert_eq!(answer("=== F5/1.23/0.5"), Some(Some(f5)));
        assert_eq!(answer("=== f5 1.00 0.1"), Some(Some(f5)));
        assert_eq!(answer("=== PA"), Some(Some(Move::Pass)));
        assert_eq!(answer("=== x"), Some(None));
        assert_eq!(answer("status thinking"), None);
    }
}
