//! Making a book from games: the positions that enough games reached, linked by the moves
//! played between them ([`build`]), and adding the lines of played games to a book
//! ([`learn`]). Values come later, from [`super::deepen`].

use std::collections::HashSet;

use super::games::GameLine;
use emilia_core::board::Board;
use emilia_core::book::{Book, Key, Leaf};
use emilia_core::eval::pattern::symmetry;

/// What goes into a book built from games.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BuildOptions {
    /// A position is kept when at least this many games reached it (and played a move).
    pub min_games: u32,
    /// Positions after more moves than this are left out.
    pub max_ply: usize,
}

impl Default for BuildOptions {
    fn default() -> BuildOptions {
        BuildOptions {
            min_games: 2,
            max_ply: 60,
        }
    }
}

/// The hash under which positions are counted: the key's, well mixed.
fn key_hash(key: &Key) -> u64 {
    key.board().hash_key()
}

/// The positions of `game` within the first `max_ply` moves, each with its key, the
/// symmetry onto the key and the move played. Games were checked when read.
fn keyed(game: &GameLine, max_ply: usize) -> Vec<(Key, usize, usize)> {
    game.positions()
        .unwrap_or_default()
        .into_iter()
        .take(max_ply)
        .map(|(board, square)| {
            let (key, k) = Key::of(&board);
            (key, k, square)
        })
        .collect()
}

/// A book of the positions at which at least `min_games` of `games` played a move, with
/// the number of games for each and a link for every move played from one of them to
/// another. Nothing is scored.
pub fn build(games: &[GameLine], options: &BuildOptions) -> Book {
    // Count by hash first: a sorted vector of hashes takes far less memory than a map of
    // every position of every game.
    let mut hashes: Vec<u64> = Vec::new();
    for game in games {
        hashes.extend(
            keyed(game, options.max_ply)
                .iter()
                .map(|(key, _, _)| key_hash(key)),
        );
    }
    hashes.sort_unstable();
    let mut kept = HashSet::new();
    for run in hashes.chunk_by(|a, b| a == b) {
        if run.len() >= options.min_games.max(1) as usize {
            kept.insert(run[0]);
        }
    }
    drop(hashes);
    let mut book = Book::new();
    for game in games {
        let mut previous: Option<(Key, usize, usize)> = None;
        for (key, k, square) in keyed(game, options.max_ply) {
            if !kept.contains(&key_hash(&key)) {
                previous = None;
                continue;
            }
            book.entry(key).games += 1;
            if let Some((parent, pk, played)) = previous {
                book.add_link(&parent, symmetry::square(pk, played));
            }
            previous = Some((key, k, square));
        }
    }
    book
}

/// What [`learn`] added.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Learned {
    /// Games read.
    pub games: usize,
    /// Positions new to the book.
    pub positions: usize,
    /// Links new to the book.
    pub links: usize,
}

/// Adds the lines of `games` to `book`: every position at which a move was played, down to
/// the first with at most `last_empties` empty squares, linked by the moves. New positions
/// and positions whose leaf became a link are left unscored for [`super::deepen`].
pub fn learn(book: &mut Book, games: &[GameLine], last_empties: u32) -> Learned {
    let mut learned = Learned {
        games: games.len(),
        ..Learned::default()
    };
    for game in games {
        let mut previous: Option<(Key, usize, usize)> = None;
        for (key, k, square) in keyed(game, usize::MAX) {
            if book.node(&key).is_none() {
                learned.positions += 1;
            }
            book.entry(key).games += 1;
            if let Some((parent, pk, played)) = previous {
                if book.add_link(&parent, symmetry::square(pk, played)) {
                    learned.links += 1;
                }
            }
            if key.board().empties() <= last_empties {
                break;
            }
            previous = Some((key, k, square));
        }
    }
    learned
}

/// Positions whose leaf is not scored: what `deepen` has left to do at the least.
pub fn unscored(book: &Book) -> usize {
    book.nodes()
        .filter(|(_, n)| n.leaf == Leaf::Unscored)
        .count()
}

#[cfg(test)]
mod tests {
    use super::super::games::transcript_game;
    use super::*;
    use emilia_core::board::Board8;

    fn games(lines: &[&str]) -> Vec<GameLine> {
        lines.iter().map(|l| transcript_game(l).unwrap()).collect()
    }

    #[test]
    fn keeps_positions_enough_games_reached_and_links_them() {
        let games = games(&["f5d6c3d3c4", "f5d6c3d3c4f4", "f5f6e6f4", "d3c5f6"]);
        let book = build(
            &games,
            &BuildOptions {
                min_games: 2,
                max_ply: 60,
            },
        );
        // Kept: the start (4 games), f5 and d3 (images of each other: 4), f5d6 and d3c5
        // (3), f5d6c3 and f5d6c3d3 (2 each).
        let start = book.node(&Key::of(&Board8::START).0).unwrap();
        assert_eq!(start.games, 4);
        // All four first moves lead to one position: a single link.
        assert_eq!(start.links.len(), 1);
        let after = |t: &str| {
            let g = transcript_game(t).unwrap();
            let mut b = Board8::START;
            for &m in &g.moves {
                b = b.play(m);
            }
            Key::of(&b).0
        };
        assert_eq!(book.node(&after("f5")).unwrap().games, 4);
        // f5 then d6 (3 games with d3c5) or f6 (1 game): one link.
        assert_eq!(book.node(&after("f5")).unwrap().links.len(), 1);
        assert_eq!(book.node(&after("f5d6")).unwrap().games, 3);
        assert_eq!(book.node(&after("f5d6c3d3")).unwrap().games, 2);
        assert!(book.node(&after("f5f6")).is_none());
        assert!(book.node(&after("f5d6c3d3c4")).is_none());
        assert_eq!(book.len(), 5);
        assert_eq!(unscored(&book), 5);
        // A ply limit cuts the lines.
        let short = build(
            &games,
            &BuildOptions {
                min_games: 2,
                max_ply: 2,
            },
        );
        assert_eq!(short.len(), 2);
    }

    #[test]
    fn learning_adds_lines_down_to_the_last_empties() {
        let mut book = Book::new();
        let learned = learn(&mut book, &games(&["f5d6c3d3c4f4f6"]), 56);
        // Positions with 60, 59, 58, 57, 56 empties; the line stops at 56.
        assert_eq!(learned.positions, 5);
        assert_eq!(learned.links, 4);
        let again = learn(&mut book, &games(&["f5d6c3d3c4f4f6", "f5f6e6"]), 56);
        assert_eq!(again.positions, 1);
        assert_eq!(again.links, 1);
        assert_eq!(book.node(&Key::of(&Board8::START).0).unwrap().games, 3);
    }

    #[test]
    fn merging_unites_links_and_keeps_leaves_that_are_no_links() {
        use emilia_core::book::{Backing, BookMove};
        use emilia_core::eval::pattern::symmetry;
        let f5_square = "f5".parse::<emilia_core::board::Square>().unwrap();
        let f5 = Key::of(&Board8::START.play(f5_square.index(8).unwrap()));
        let image = |name: &str| {
            let square = name.parse::<emilia_core::board::Square>().unwrap();
            symmetry::square(f5.1, square.index(8).unwrap()) as u8
        };
        let leaf = |name: &str, depth: u8| {
            Leaf::Move(BookMove {
                square: image(name),
                value: 0,
                backing: Backing::Depth(depth),
            })
        };
        let mut a = Book::new();
        learn(&mut a, &[transcript_game("f5d6c3").unwrap()], 0);
        a.entry(f5.0).leaf = leaf("f6", 10);
        let mut b = Book::new();
        learn(&mut b, &[transcript_game("f5f6e6").unwrap()], 0);
        b.entry(f5.0).leaf = leaf("f4", 8);
        let mut merged = a.clone();
        merged.merge(&b);
        assert_eq!(merged.len(), 4);
        let node = merged.node(&f5.0).unwrap();
        assert_eq!(node.games, 2);
        let mut links: Vec<u8> = node.links.iter().map(|l| l.square).collect();
        links.sort_unstable();
        let mut expected = vec![image("d6"), image("f6")];
        expected.sort_unstable();
        assert_eq!(links, expected);
        // a's leaf f6 is a link now: b's leaf stands, though less deep.
        assert_eq!(node.leaf, leaf("f4", 8));
        // Two valid leaves: the deeper one.
        let mut c = b.clone();
        c.entry(f5.0).leaf = leaf("d6", 12);
        let mut merged = b.clone();
        merged.merge(&c);
        assert_eq!(merged.node(&f5.0).unwrap().leaf, leaf("d6", 12));
    }
}
