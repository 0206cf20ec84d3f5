//! The match tally, its progress line and final report, and the per-game results lines.

use std::time::Duration;

use super::client::FaultKind;
use super::game::{Ending, GameRecord};
use super::stats::{elo, format_elo};
use emilia_core::board::{transcript, Color, Move};

/// Running totals from the first engine's point of view, with per-engine details.
#[derive(Clone, Debug, Default)]
pub struct Tally {
    /// Games finished.
    pub games: u32,
    /// Games the first engine won.
    pub wins: u32,
    /// Drawn games.
    pub draws: u32,
    /// Games the first engine lost.
    pub losses: u32,
    /// Sum of the first engine's final disc margins over games played to the end.
    pub disc_sum: i64,
    /// Games played to the end.
    pub finished: u32,
    /// Per engine: lost games by failure kind.
    pub faults: [Vec<(FaultKind, u32)>; 2],
    /// Per engine: summed reported depths and how many moves reported one.
    pub depth: [(u64, u32); 2],
    /// Per engine: thinking time and moves.
    pub time: [(Duration, u32); 2],
}

impl Tally {
    /// Adds a game.
    pub(crate) fn add(&mut self, game: &GameRecord) {
        self.games += 1;
        match game.points(0) {
            p if p > 0.75 => self.wins += 1,
            p if p < 0.25 => self.losses += 1,
            _ => self.draws += 1,
        }
        match &game.ending {
            Ending::Finished { margin, .. } => {
                let first_is_black = game.black == 0;
                self.disc_sum += i64::from(if first_is_black { *margin } else { -margin });
                self.finished += 1;
            }
            Ending::Forfeit { loser, kind, .. } => {
                let faults = &mut self.faults[game.engine(*loser)];
                match faults.iter_mut().find(|(k, _)| k == kind) {
                    Some((_, n)) => *n += 1,
                    None => faults.push((*kind, 1)),
                }
            }
        }
        for i in 0..2 {
            self.depth[i].0 += game.depth[i].0;
            self.depth[i].1 += game.depth[i].1;
            self.time[i].0 += game.time[i].0;
            self.time[i].1 += game.time[i].1;
        }
    }

    /// The first engine's points.
    pub fn points(&self) -> f64 {
        f64::from(self.wins) + f64::from(self.draws) / 2.0
    }

    /// Lost games of engine `index` by `kind`.
    pub fn fault_count(&self, index: usize, kind: FaultKind) -> u32 {
        self.faults[index]
            .iter()
            .find(|(k, _)| *k == kind)
            .map_or(0, |(_, n)| *n)
    }

    /// One line of progress: games done and the score so far.
    pub(crate) fn progress(&self, total: usize, names: &[String; 2]) -> String {
        let score = self.points();
        format!(
            "{}/{total} games: {} {score} - {} {} (+{} ={} -{}, {:.1}%)",
            self.games,
            names[0],
            f64::from(self.games) - score,
            names[1],
            self.wins,
            self.draws,
            self.losses,
            100.0 * score / f64::from(self.games.max(1))
        )
    }

    /// The final report, several lines.
    pub(crate) fn report(&self, names: &[String; 2], description: &str) -> String {
        let mut out = String::new();
        let width = names.iter().map(|n| n.len()).max().unwrap_or(0).max(12);
        out.push_str(&format!(
            "Match: {} vs {}, {description}\n",
            names[0], names[1]
        ));
        out.push_str(&format!(
            "Score of {} vs {}: {} - {} - {} (wins - draws - losses), {} / {} = {:.1}%\n",
            names[0],
            names[1],
            self.wins,
            self.draws,
            self.losses,
            self.points(),
            self.games,
            100.0 * self.points() / f64::from(self.games.max(1))
        ));
        if self.finished > 0 {
            out.push_str(&format!(
                "Disc difference for {}: {:+.2} per game over the {} games played to the end\n",
                names[0],
                self.disc_sum as f64 / f64::from(self.finished),
                self.finished
            ));
        }
        if let Some(e) = elo(self.wins, self.draws, self.losses) {
            out.push_str(&format!(
                "Elo difference: {} (95% interval {} to {})\n",
                format_elo(e.difference),
                format_elo(e.lower),
                format_elo(e.upper)
            ));
        }
        out.push_str(&format!(
            "\n{:<22}{:>w$}  {:>w$}\n",
            "",
            names[0],
            names[1],
            w = width
        ));
        for kind in FaultKind::ALL {
            let counts = [self.fault_count(0, kind), self.fault_count(1, kind)];
            if kind == FaultKind::Time || kind == FaultKind::Illegal || counts != [0, 0] {
                out.push_str(&format!(
                    "{:<22}{:>w$}  {:>w$}\n",
                    kind.label(),
                    counts[0],
                    counts[1],
                    w = width
                ));
            }
        }
        let depth = |i: usize| {
            let (sum, n) = self.depth[i];
            if n == 0 {
                "-".to_string()
            } else {
                format!("{:.1}", sum as f64 / f64::from(n))
            }
        };
        out.push_str(&format!(
            "{:<22}{:>w$}  {:>w$}\n",
            "average depth",
            depth(0),
            depth(1),
            w = width
        ));
        let time = |i: usize| {
            let (sum, n) = self.time[i];
            format!("{:.3} s", sum.as_secs_f64() / f64::from(n.max(1)))
        };
        out.push_str(&format!(
            "{:<22}{:>w$}  {:>w$}\n",
            "average time a move",
            time(0),
            time(1),
            w = width
        ));
        out
    }
}

/// The header of the results file.
pub(crate) const RESULTS_HEADER: &str =
    "# game\tblack\twhite\twinner\tdiscs\treason\topening\ttranscript";

/// One game as a results line: number, players, winner, discs (Black-White), reason,
/// opening and the whole transcript from the start position.
pub(crate) fn results_line(game: &GameRecord, names: &[String; 2]) -> String {
    let black = &names[game.engine(Color::Black)];
    let white = &names[game.engine(Color::White)];
    let (winner, discs, reason) = match &game.ending {
        Ending::Finished {
            black: b,
            white: w,
            margin,
        } => {
            let winner = match margin.signum() {
                1 => "black",
                -1 => "white",
                _ => "draw",
            };
            (winner, format!("{b}-{w}"), "game over".to_string())
        }
        Ending::Forfeit { loser, reason, .. } => {
            let winner = match loser {
                Color::Black => "white",
                Color::White => "black",
            };
            (winner, "-".to_string(), reason.clone())
        }
    };
    let moves: Vec<Move> = game.moves.iter().map(|m| m.mv).collect();
    let opening = if game.opening.is_empty() {
        "-"
    } else {
        &game.opening
    };
    format!(
        "{}\t{black}\t{white}\t{winner}\t{discs}\t{}\t{opening}\t{}",
        game.number,
        reason.replace(['\t', '\n'], " "),
        transcript(&moves)
    )
}

/// The GGF `RE[]` value of a game: Black's margin, or ±all squares with `:t` (time) or
/// `:r` (any other forfeit).
pub(crate) fn ggf_result(game: &GameRecord) -> String {
    match &game.ending {
        Ending::Finished { margin: 0, .. } => "0".to_string(),
        Ending::Finished { margin, .. } => format!("{margin:+}"),
        Ending::Forfeit { loser, kind, .. } => {
            let squares = (game.start.size() * game.start.size()) as i32;
            let margin = if *loser == Color::Black {
                -squares
            } else {
                squares
            };
            let how = if *kind == FaultKind::Time { "t" } else { "r" };
            format!("{margin:+}:{how}")
        }
    }
}
