//! `random`: a uniformly random legal move. The floor every engine must beat.

use super::{random_move, BaselinePlayer, Choice};
use crate::board::Position;
use crate::rng::Rng;
use crate::search::Limits;

/// Plays a uniformly random legal move; repeatable for a given seed.
pub(crate) struct RandomPlayer {
    rng: Rng,
}

impl RandomPlayer {
    /// A random player whose choices depend only on `seed` and the positions it is shown.
    pub(crate) fn new(seed: u64) -> RandomPlayer {
        RandomPlayer {
            rng: Rng::new(seed),
        }
    }
}

impl BaselinePlayer for RandomPlayer {
    fn name(&self) -> &'static str {
        "random"
    }

    fn supports(&self, _size: usize) -> bool {
        true
    }

    fn choose(&mut self, position: &Position, _limits: &Limits) -> Choice {
        random_move(position, &mut self.rng)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn same_seed_same_moves_and_every_move_is_reachable() {
        let start = Position::start(8).unwrap();
        let mut a = RandomPlayer::new(3);
        let mut b = RandomPlayer::new(3);
        let mut seen = std::collections::HashSet::new();
        for _ in 0..100 {
            let mv = a.choose(&start, &Limits::default()).mv;
            assert_eq!(mv, b.choose(&start, &Limits::default()).mv);
            seen.insert(mv);
        }
        assert_eq!(seen.len(), 4, "all four opening moves are chosen");
    }
}
