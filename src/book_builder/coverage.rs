//! How far played games stay in a book: each game is replayed from the start and counted
//! until the first position the book cannot answer. A position is *in the book* as play
//! uses it: present, with every examined move scored ([`Book::scores`]). The *structural*
//! count asks only that the position be present, scored or not: what an unscored book
//! will cover once it is scored.

use super::games::GameLine;
use emilia_core::book::{Book, Key};

/// Plies each game stayed in a book.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Coverage {
    /// For each game, the number of its first moves played from positions in the book with
    /// every move scored.
    pub scored: Vec<usize>,
    /// For each game, the number of its first moves played from positions in the book,
    /// scored or not.
    pub present: Vec<usize>,
}

/// How far each of `games` stays in `book`.
pub fn coverage(book: &Book, games: &[GameLine]) -> Coverage {
    let mut coverage = Coverage::default();
    for game in games {
        let positions = game.positions().unwrap_or_default();
        let scored = positions
            .iter()
            .take_while(|(board, _)| book.scores(board).is_some())
            .count();
        let present = positions
            .iter()
            .take_while(|(board, _)| book.node(&Key::of(board).0).is_some())
            .count();
        coverage.scored.push(scored);
        coverage.present.push(present);
    }
    coverage
}

/// The median of `plies` (the mean of the two middle ones for an even count); 0 for none.
pub fn median(plies: &[usize]) -> f64 {
    let mut sorted = plies.to_vec();
    sorted.sort_unstable();
    match sorted.len() {
        0 => 0.0,
        n if n % 2 == 1 => sorted[n / 2] as f64,
        n => (sorted[n / 2 - 1] + sorted[n / 2]) as f64 / 2.0,
    }
}

/// The share of `plies`, 0 to 1, that is at least `least`.
pub fn share_at_least(plies: &[usize], least: usize) -> f64 {
    if plies.is_empty() {
        return 0.0;
    }
    plies.iter().filter(|&&p| p >= least).count() as f64 / plies.len() as f64
}

#[cfg(test)]
mod tests {
    use super::super::build::{build, BuildOptions};
    use super::super::games::transcript_game;
    use super::*;
    use emilia_core::book::{Backing, BookMove, Leaf};

    #[test]
    fn games_are_counted_until_they_leave_the_book() {
        let lines = ["f5d6c3d3c4", "f5d6c3d3c4f4", "f5f6e6f4", "d3c5f6"];
        let games: Vec<GameLine> = lines.iter().map(|l| transcript_game(l).unwrap()).collect();
        let mut book = build(
            &games,
            &BuildOptions {
                min_games: 2,
                max_ply: 60,
            },
        );
        // The book holds the start, f5, f5d6, f5d6c3 and f5d6c3d3 (and their images): the
        // first game stays in it to its end, the second leaves it at its sixth move.
        let found = coverage(&book, &games);
        assert_eq!(found.present, vec![5, 5, 2, 3]);
        // Nothing is scored yet: no game is in the book as play uses it.
        assert_eq!(found.scored, vec![0; 4]);
        // Score every leaf, made up: every position is then in the book.
        let keys = book.sorted_keys();
        for key in keys {
            let board = key.board();
            let node = book.node_mut(&key).unwrap();
            let free = emilia_core::book::unplayed(&board, node);
            node.leaf = match free.first() {
                Some(&square) => Leaf::Move(BookMove {
                    square: square as u8,
                    value: 0,
                    backing: Backing::Depth(4),
                }),
                None => Leaf::Nothing,
            };
        }
        book.negamax();
        let found = coverage(&book, &games);
        assert_eq!(found.scored, found.present);
        assert_eq!(median(&found.scored), 4.0);
        assert_eq!(share_at_least(&found.scored, 3), 0.75);
        assert_eq!(share_at_least(&found.scored, 5), 0.5);
        assert_eq!(share_at_least(&found.scored, 6), 0.0);
        assert_eq!(median(&[1, 5, 2]), 2.0);
        assert_eq!(median(&[]), 0.0);
    }
}
