//! JSON text of the engine's reports, as the page reads them.

use emilia_core::board::Move;
use emilia_core::search::{MoveScore, SearchReport};

/// `text` as a JSON string literal.
pub(crate) fn string(text: &str) -> String {
    let mut out = String::with_capacity(text.len() + 2);
    out.push('"');
    for c in text.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c if (c as u32) < 0x20 => out.push_str(&format!("\\u{:04x}", c as u32)),
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

/// A search report: the move, its value for the mover in discs, its kind and the effort.
pub(crate) fn report(report: &SearchReport) -> String {
    let pv: Vec<String> = report.pv.iter().map(Move::to_string).collect();
    format!(
        "{{\"best\":{},\"score\":{},\"exact\":{},\"book\":{},\"depth\":{},\"nodes\":{},\
         \"ms\":{:.1},\"pv\":{}}}",
        string(&report.best.to_string()),
        report.score.discs(),
        report.exact,
        report.book,
        report.depth,
        report.nodes,
        report.elapsed.as_secs_f64() * 1000.0,
        string(&pv.join(" "))
    )
}

/// One move's value for the mover, in discs, with its kind.
pub(crate) fn move_score(score: &MoveScore) -> String {
    format!(
        "{{\"move\":{},\"score\":{},\"text\":{},\"exact\":{},\"book\":{},\"depth\":{}}}",
        string(&score.mv.to_string()),
        score.score.discs(),
        string(&score.score.to_string()),
        score.exact,
        score.book,
        score.depth
    )
}

/// The values of moves, best first, with the report of the depth they come from.
pub(crate) fn hint(depth_report: &SearchReport, scores: &[MoveScore]) -> String {
    let moves: Vec<String> = scores.iter().map(move_score).collect();
    format!(
        "{{\"report\":{},\"moves\":[{}]}}",
        report(depth_report),
        moves.join(",")
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn strings_are_escaped() {
        assert_eq!(string("a\"b\\c\nd\u{1}"), "\"a\\\"b\\\\c\\nd\\u0001\"");
    }
}
