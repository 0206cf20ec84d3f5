//! Finished games: each appended as one GGF line to the record file, and a one-line
//! result said for it.

use std::fs::OpenOptions;
use std::io::Write;
use std::path::PathBuf;
use std::sync::Mutex;

use emilia_core::board::Color;
use emilia_core::formats::ggf;
use emilia_core::game::Game;

use super::connection::Log;

/// A game as it ended.
pub(crate) struct Finished {
    pub(crate) id: String,
    pub(crate) game: Game,
    pub(crate) me: String,
    pub(crate) color: Option<Color>,
    pub(crate) kind: Option<String>,
    pub(crate) rated: bool,
    /// Black's score as the server gave it.
    pub(crate) black_score: Option<f64>,
    /// How it ended (`score`, `NAME left`, `aborted`, …).
    pub(crate) how: String,
    /// Who first ran out of main time, if anyone did.
    pub(crate) timed_out: Option<String>,
}

/// Where finished games go.
pub(crate) struct Records {
    file: Option<PathBuf>,
    log: Log,
    /// Says one result line (the program prints it).
    say: Box<dyn Fn(&str) + Send + Sync>,
    /// Results said so far, in order.
    pub(crate) results: Mutex<Vec<String>>,
}

impl Records {
    pub(crate) fn new(
        file: Option<PathBuf>,
        log: Log,
        say: Box<dyn Fn(&str) + Send + Sync>,
    ) -> Records {
        Records {
            file,
            log,
            say,
            results: Mutex::new(Vec::new()),
        }
    }

    /// Appends the game's record and says its result.
    pub(crate) fn finish(&self, finished: Finished) {
        let line = result_line(&finished);
        if let Some(path) = &self.file {
            let record = ggf_text(&finished);
            let written = OpenOptions::new()
                .append(true)
                .create(true)
                .open(path)
                .and_then(|mut f| f.write_all(format!("{record}\n").as_bytes()));
            if let Err(e) = written {
                self.log.note(&format!(
                    "{}: record not written to {}: {e}",
                    finished.id,
                    path.display()
                ));
            }
        }
        self.log.note(&line);
        (self.say)(&self.log.redact(&line));
        if let Ok(mut results) = self.results.lock() {
            results.push(line);
        }
    }
}

/// The `RE` of a record: Black's margin as the server gave it (the board's when it gave
/// none and the game is over), `:t` when someone ran out of main time, `?` when unknown.
fn result_text(f: &Finished) -> String {
    let margin = match f.black_score {
        Some(score) => Some(score.round() as i32),
        None if f.game.is_over() => Some(f.game.score_for_black()),
        None => None,
    };
    match margin {
        Some(m) if f.timed_out.is_some() => format!("{}:t", ggf::result(m)),
        Some(m) => ggf::result(m),
        None => "?".to_string(),
    }
}

fn ggf_text(f: &Finished) -> String {
    ggf::write_game_with_result(&f.game, "GGS/os", result_text(f))
}

/// `result .4 8 U alice (black) 40-24 bob (white): alice +16, won` and the like.
fn result_line(f: &Finished) -> String {
    let game = &f.game;
    let (black, white) = (
        game.position().count(Color::Black),
        game.position().count(Color::White),
    );
    let kind = f.kind.as_deref().unwrap_or("?");
    let rated = if f.rated { "R" } else { "U" };
    let mut line = format!(
        "result {} {kind} {rated} {} (black) {black}-{white} {} (white)",
        f.id, game.black, game.white
    );
    let mine = f.color.map(|c| {
        let sign = if c == Color::Black { 1.0 } else { -1.0 };
        f.black_score.map(|s| s * sign)
    });
    match mine.flatten() {
        Some(score) => {
            let verdict = if score > 0.0 {
                "won"
            } else if score < 0.0 {
                "lost"
            } else {
                "drawn"
            };
            line.push_str(&format!(": {} {score:+.0}, {verdict}", f.me));
        }
        None => line.push_str(": no score"),
    }
    if f.how != "score" {
        line.push_str(&format!(" ({})", f.how));
    }
    if let Some(who) = &f.timed_out {
        line.push_str(&format!(" ({who} out of main time)"));
    }
    line
}
