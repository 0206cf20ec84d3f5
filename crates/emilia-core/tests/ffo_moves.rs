//! The FFO endgame suite (positions 1 to 59) lists, for each position, moves with their
//! exact perfect-play scores. Every listed move must be legal in its position, and the lists
//! must be exactly our legal moves.

use std::collections::BTreeSet;

use emilia_core::board::{Move, Position};

/// One line of an OBF file: the position and its `(move, score)` list.
struct Entry {
    position: Position,
    scored_moves: Vec<(Move, i32)>,
}

/// Reads `<squares> <side>; MOVE:SCORE; MOVE:SCORE; …`.
fn parse_line(line: &str) -> Entry {
    let position: Position = line.parse().unwrap_or_else(|e| panic!("{line}: {e}"));
    let scored_moves = line
        .split(';')
        .skip(1)
        .map(str::trim)
        .filter(|part| !part.is_empty())
        .map(|part| {
            let (mv, score) = part
                .split_once(':')
                .unwrap_or_else(|| panic!("'{part}' is not MOVE:SCORE"));
            let mv: Move = mv.parse().unwrap_or_else(|e| panic!("{part}: {e}"));
            let score: i32 = score.parse().unwrap_or_else(|e| panic!("{part}: {e}"));
            (mv, score)
        })
        .collect();
    Entry {
        position,
        scored_moves,
    }
}

fn read_suite() -> Vec<Entry> {
    ["fforum-1-19.obf", "fforum-20-39.obf", "fforum-40-59.obf"]
        .iter()
        .flat_map(|name| {
            let path = format!("{}/tests/data/ffo/{name}", env!("CARGO_MANIFEST_DIR"));
            let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
            text.lines()
                .filter(|l| !l.trim().is_empty())
                .map(parse_line)
                .collect::<Vec<_>>()
        })
        .collect()
}

#[test]
fn listed_moves_are_exactly_the_legal_moves() {
    let suite = read_suite();
    assert_eq!(suite.len(), 59);
    for (i, entry) in suite.iter().enumerate() {
        let number = i + 1;
        let listed: BTreeSet<String> = entry
            .scored_moves
            .iter()
            .map(|(mv, _)| mv.to_string())
            .collect();
        assert_eq!(
            listed.len(),
            entry.scored_moves.len(),
            "FFO #{number}: repeats"
        );
        for (mv, _) in &entry.scored_moves {
            assert!(
                entry.position.play(*mv).is_ok(),
                "FFO #{number}: {mv} is illegal in {}",
                entry.position
            );
        }
        let legal: BTreeSet<String> = entry
            .position
            .legal_moves()
            .iter()
            .map(|mv| mv.to_string())
            .collect();
        assert_eq!(listed, legal, "FFO #{number}: {}", entry.position);
        // Best first.
        let scores: Vec<i32> = entry.scored_moves.iter().map(|&(_, s)| s).collect();
        assert!(
            scores.windows(2).all(|w| w[0] >= w[1]),
            "FFO #{number}: {scores:?}"
        );
    }
}

#[test]
fn position_40_is_the_known_benchmark_start() {
    let suite = read_suite();
    let ffo40 = &suite[39];
    assert_eq!(ffo40.position.board.counts().2, 20);
    assert_eq!(ffo40.scored_moves[0], ("a2".parse().unwrap(), 38));
}
