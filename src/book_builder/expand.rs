//! Growing a book where the engine's own play goes: at positions of the book down to a
//! given ply, the best move that is not yet a link (the position's leaf, as deepening
//! found it) becomes a link when it is worth about as much as the position's best move,
//! and the position it leads to joins the book, unscored. Deepening then scores the new
//! positions and the next-best move of the positions that grew, and the next expansion can
//! add that one too: round by round, the best and near-best replies to the games' moves
//! enter the book, as Edax's `book deviate` does. Expanding searches nothing.

use emilia_core::board::Board;
use emilia_core::book::{next, Book, Key, Leaf, Next};

/// Where a book grows.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ExpandOptions {
    /// Positions after at most this many moves grow.
    pub max_ply: u32,
    /// A leaf becomes a link when it is at most this much worse than the position's best
    /// move, hundredths of a disc.
    pub margin: i32,
}

/// What [`expand`] added.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Expanded {
    /// New links.
    pub links: usize,
    /// Positions new to the book.
    pub positions: usize,
}

/// Makes the leaf of every fully scored position within `options` a link when it is near
/// enough to the best, adding the position it leads to; the values that rest on positions
/// that grew are unscored until `deepen` scores their new leaves.
pub fn expand(book: &mut Book, options: &ExpandOptions) -> Expanded {
    let mut expanded = Expanded::default();
    for key in book.sorted_keys() {
        let board = key.board();
        if 60 - board.empties() > options.max_ply {
            continue;
        }
        let node = book.node(&key).expect("key from the book");
        let (Some((best, _)), Leaf::Move(leaf)) = (node.value(), node.leaf) else {
            continue;
        };
        if (leaf.value as i32) < best as i32 - options.margin {
            continue;
        }
        // A move that ends the game stays a leaf: its value is final, and a link leads to
        // a position of the book.
        let Next::Position { board: child, .. } = next(&board, leaf.square as usize) else {
            continue;
        };
        let child = Key::of(&child).0;
        if book.node(&child).is_none() {
            book.entry(child);
            expanded.positions += 1;
        }
        if book.add_link(&key, leaf.square as usize) {
            expanded.links += 1;
        }
    }
    // Values that rest on a position that grew wait for its new leaf.
    book.negamax();
    expanded
}

#[cfg(test)]
mod tests {
    use super::super::after_moves;
    use super::super::build::{build, BuildOptions};
    use super::super::coverage::coverage;
    use super::super::deepen::{deepen_to_end, DeepenOptions};
    use super::super::games::{transcript_game, GameLine};
    use super::*;
    use emilia_core::board::Board8;
    use emilia_core::book::format::{decode, encode};
    use emilia_core::book::{Backing, BookMove};

    /// Scores `book` at depth 4.
    fn deepen(book: &mut Book) {
        let options = DeepenOptions {
            depth: 4,
            solve_empties: 0,
            hash_mib: 1,
            ..DeepenOptions::default()
        };
        deepen_to_end(book, options);
    }

    #[test]
    fn a_leaf_that_ends_the_game_stays_a_leaf() {
        // Black to move, 13 discs against White's 3; g1 takes all three and ends the game.
        let board = Board8 {
            player: 0xc7c_140e_0400,
            opponent: 0x810_2000,
        };
        let g1 = 6;
        assert_eq!(next(&board, g1), Next::End(64));
        let (key, k) = Key::of(&board);
        let mut book = Book::new();
        book.entry(key).leaf = Leaf::Move(BookMove {
            square: emilia_core::eval::pattern::symmetry::square(k, g1) as u8,
            value: 6400,
            backing: Backing::Exact,
        });
        let grown = expand(
            &mut book,
            &ExpandOptions {
                max_ply: 60,
                margin: 6400,
            },
        );
        assert_eq!(grown, Expanded::default());
        assert_eq!(book.len(), 1);
        // Every link of a book file leads to a position of the book: it still reads back.
        assert_eq!(decode(&encode(&book)).unwrap(), book);
    }

    #[test]
    fn the_best_replies_join_the_book_down_to_the_ply() {
        let lines = ["f5d6c3d3c4", "f5d6c3d3c4f4", "f5d6c3"];
        let games: Vec<GameLine> = lines.iter().map(|l| transcript_game(l).unwrap()).collect();
        let mut book = build(
            &games,
            &BuildOptions {
                min_games: 2,
                max_ply: 60,
            },
        );
        deepen(&mut book);
        let before = book.len();
        // Nothing is near enough to the best with a margin of -1: only moves better than
        // the best would do.
        let none = expand(
            &mut book,
            &ExpandOptions {
                max_ply: 60,
                margin: -1,
            },
        );
        assert_eq!(none, Expanded::default());
        // Down to ply 2 with a margin of 64 discs: the leaf of every position with at most
        // two moves played that has one becomes a link.
        let grown = expand(
            &mut book,
            &ExpandOptions {
                max_ply: 2,
                margin: 6400,
            },
        );
        // The start's moves are all images of f5, a link already: no leaf. f5 and f5d6
        // have leaves.
        assert_eq!(grown.links, 2);
        assert_eq!(grown.positions, 2);
        assert_eq!(book.len(), before + 2);
        // A game that leaves the lines at ply 2 with the engine's best other reply now
        // stays in the book once the new positions are scored.
        let f5 = transcript_game("f5").unwrap().moves[0];
        let board = after_moves(&[f5]);
        let (key, k) = Key::of(&board);
        let node = book.node(&key).unwrap();
        assert_eq!(node.leaf, Leaf::Unscored);
        let new = node.links.last().unwrap().square as usize;
        // The new link in the key's orientation; the reply is the board's square for it.
        let reply = board
            .moves()
            .find(|&m| emilia_core::eval::pattern::symmetry::square(k, m) == new)
            .unwrap();
        let deviation = GameLine::standard(vec![f5, reply]);
        assert_eq!(
            coverage(&book, std::slice::from_ref(&deviation)).scored,
            vec![0]
        );
        deepen(&mut book);
        assert_eq!(coverage(&book, &[deviation]).scored, vec![2]);
    }
}
