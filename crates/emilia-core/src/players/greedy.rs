//! `greedy`: the move that flips the most discs, ties broken at random.

use super::{BaselinePlayer, Choice};
use crate::board::{Move, Position, Square};
use crate::rng::Rng;
use crate::search::Limits;

/// Plays the move flipping the most discs; among equals, a seeded random one.
pub(crate) struct Greedy {
    rng: Rng,
}

impl Greedy {
    /// A greedy player whose tie-breaks depend only on `seed`.
    pub(crate) fn new(seed: u64) -> Greedy {
        Greedy {
            rng: Rng::new(seed),
        }
    }
}

impl BaselinePlayer for Greedy {
    fn name(&self) -> &'static str {
        "greedy"
    }

    fn supports(&self, _size: usize) -> bool {
        true
    }

    fn choose(&mut self, position: &Position, _limits: &Limits) -> Choice {
        let moves = position.board.moves();
        let most = moves
            .iter()
            .map(|&m| position.board.flip_count(m))
            .max()
            .unwrap_or(0);
        let best: Vec<usize> = moves
            .into_iter()
            .filter(|&m| position.board.flip_count(m) == most)
            .collect();
        let mv = if best.is_empty() {
            Move::Pass
        } else {
            let index = best[self.rng.below(best.len())];
            Move::Play(Square::from_index(index, position.size()))
        };
        Choice {
            mv,
            score: most as i32,
            depth: 1,
            nodes: best.len() as u64,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn takes_the_move_that_flips_most() {
        // Every choice must flip as many discs as any move, in a position where the moves
        // differ in flips (so a wrong choice would show).
        let start = Position::start(8).unwrap();
        let (position, _) = start.play_transcript("f5d6c3d3c4f4c5b3c2").unwrap();
        let flips: Vec<u32> = position
            .board
            .moves()
            .into_iter()
            .map(|m| position.board.flip_count(m))
            .collect();
        let most = *flips.iter().max().unwrap();
        assert!(flips.iter().any(|&f| f < most), "{flips:?}");
        let mut greedy = Greedy::new(0);
        for _ in 0..20 {
            let Move::Play(sq) = greedy.choose(&position, &Limits::default()).mv else {
                panic!("greedy passed with moves available");
            };
            assert_eq!(position.board.flip_count(sq.index(8).unwrap()), most);
        }
    }
}
