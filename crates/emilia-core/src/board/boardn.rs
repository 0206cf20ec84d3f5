//! Boards of any supported size (6x6 to 12x12), square by square. Exact rather than fast:
//! 8x8 games use [`super::Board8`], which this type cross-checks in tests.

use super::rays::{ray, DIRECTIONS};
use super::{mix64, Board, Cell, MAX_SIZE};

/// A set of squares on boards up to 12x12 (144 squares), by row-major index.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Default)]
pub struct SquareSet(pub [u64; 3]);

impl SquareSet {
    /// Whether `index` is in the set.
    #[inline]
    pub fn contains(&self, index: usize) -> bool {
        self.0[index >> 6] >> (index & 63) & 1 != 0
    }

    /// Adds `index`.
    #[inline]
    pub fn insert(&mut self, index: usize) {
        self.0[index >> 6] |= 1 << (index & 63);
    }

    /// Toggles `index`.
    #[inline]
    fn toggle(&mut self, index: usize) {
        self.0[index >> 6] ^= 1 << (index & 63);
    }

    /// Number of squares in the set.
    #[inline]
    pub fn len(&self) -> u32 {
        self.0.iter().map(|w| w.count_ones()).sum()
    }

    /// Whether the set is empty.
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.0 == [0; 3]
    }
}

impl Iterator for SquareSet {
    type Item = usize;

    #[inline]
    fn next(&mut self) -> Option<usize> {
        for (word_index, word) in self.0.iter_mut().enumerate() {
            if *word != 0 {
                let bit = word.trailing_zeros() as usize;
                *word &= *word - 1;
                return Some(word_index * 64 + bit);
            }
        }
        None
    }
}

/// A position on a board of side 4 to 12 (even), seen from the side to move.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct BoardN {
    size: u8,
    player: SquareSet,
    opponent: SquareSet,
}

impl BoardN {
    /// An empty board of side `size` (even, 4 to 12).
    pub fn empty(size: usize) -> BoardN {
        assert!(
            (4..=MAX_SIZE).contains(&size) && size.is_multiple_of(2),
            "unsupported board size {size}"
        );
        BoardN {
            size: size as u8,
            player: SquareSet::default(),
            opponent: SquareSet::default(),
        }
    }

    /// Builds a board from the two sides' discs; they must not overlap.
    pub fn from_sets(size: usize, player: SquareSet, opponent: SquareSet) -> BoardN {
        let mut board = BoardN::empty(size);
        board.player = player;
        board.opponent = opponent;
        board
    }

    /// Discs of the side to move.
    pub fn player_set(&self) -> SquareSet {
        self.player
    }

    /// Discs of the other side.
    pub fn opponent_set(&self) -> SquareSet {
        self.opponent
    }

    /// The legal moves as a set.
    pub fn move_set(&self) -> SquareSet {
        let mut moves = SquareSet::default();
        for index in 0..self.size() * self.size() {
            if self.is_legal(index) {
                moves.insert(index);
            }
        }
        moves
    }

    /// Calls `flip` on each opponent disc that a move on `index` flips, until it returns
    /// false.
    #[inline]
    fn for_each_flip(&self, index: usize, mut flip: impl FnMut(usize) -> bool) {
        for direction in DIRECTIONS {
            let line = ray(self.size(), index, direction);
            let run = line
                .clone()
                .take_while(|&at| self.opponent.contains(at))
                .count();
            let closed = line
                .clone()
                .nth(run)
                .is_some_and(|at| self.player.contains(at));
            if run > 0 && closed {
                for at in line.take(run) {
                    if !flip(at) {
                        return;
                    }
                }
            }
        }
    }
}

impl Board for BoardN {
    type Moves = SquareSet;

    fn start(size: usize) -> BoardN {
        let mut board = BoardN::empty(size);
        let (low, high) = (size / 2 - 1, size / 2);
        board.opponent.insert(low * size + low);
        board.opponent.insert(high * size + high);
        board.player.insert(low * size + high);
        board.player.insert(high * size + low);
        board
    }

    fn size(&self) -> usize {
        self.size as usize
    }

    fn moves(&self) -> SquareSet {
        self.move_set()
    }

    fn move_count(&self) -> u32 {
        self.move_set().len()
    }

    fn has_moves(&self) -> bool {
        (0..self.size() * self.size()).any(|index| self.is_legal(index))
    }

    fn is_legal(&self, index: usize) -> bool {
        if index >= self.size() * self.size()
            || self.player.contains(index)
            || self.opponent.contains(index)
        {
            return false;
        }
        let mut any = false;
        self.for_each_flip(index, |_| {
            any = true;
            false
        });
        any
    }

    fn flip_count(&self, index: usize) -> u32 {
        let mut count = 0;
        self.for_each_flip(index, |_| {
            count += 1;
            true
        });
        count
    }

    fn play(&self, index: usize) -> BoardN {
        let mut flipped = SquareSet::default();
        self.for_each_flip(index, |at| {
            flipped.insert(at);
            true
        });
        debug_assert!(!flipped.is_empty(), "illegal move {index}");
        let mut next = *self;
        for word in 0..3 {
            next.player.0[word] ^= flipped.0[word];
            next.opponent.0[word] ^= flipped.0[word];
        }
        next.player.toggle(index);
        next.pass()
    }

    fn pass(&self) -> BoardN {
        BoardN {
            size: self.size,
            player: self.opponent,
            opponent: self.player,
        }
    }

    fn cell(&self, index: usize) -> Cell {
        if self.player.contains(index) {
            Cell::Player
        } else if self.opponent.contains(index) {
            Cell::Opponent
        } else {
            Cell::Empty
        }
    }

    fn player_discs(&self) -> u32 {
        self.player.len()
    }

    fn opponent_discs(&self) -> u32 {
        self.opponent.len()
    }

    fn player_squares(&self) -> SquareSet {
        self.player
    }

    fn opponent_squares(&self) -> SquareSet {
        self.opponent
    }

    fn hash_key(&self) -> u64 {
        let mut h = self.size as u64;
        for word in 0..3 {
            h = mix64(h ^ self.player.0[word]);
            h = mix64(h ^ self.opponent.0[word].rotate_left(17));
        }
        h
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Board8;

    fn to_n(board: &Board8) -> BoardN {
        let mut player = SquareSet::default();
        let mut opponent = SquareSet::default();
        for index in 0..64 {
            match board.cell(index) {
                Cell::Player => player.insert(index),
                Cell::Opponent => opponent.insert(index),
                Cell::Empty => {}
            }
        }
        BoardN::from_sets(8, player, opponent)
    }

    #[test]
    fn agrees_with_the_bitboard_over_random_8x8_games() {
        let mut seed = 12345u64;
        for _ in 0..300 {
            let mut fast = Board8::START;
            let mut slow = BoardN::start(8);
            assert_eq!(to_n(&fast), slow);
            loop {
                let moves: Vec<usize> = fast.moves().collect();
                assert_eq!(moves, slow.moves().collect::<Vec<_>>());
                for &m in &moves {
                    assert_eq!(fast.flip_count(m), slow.flip_count(m));
                }
                if moves.is_empty() {
                    if fast.is_game_over() {
                        assert!(slow.is_game_over());
                        assert_eq!(fast.final_score(), slow.final_score());
                        break;
                    }
                    fast = fast.pass();
                    slow = slow.pass();
                    continue;
                }
                seed = mix64(seed);
                let m = moves[(seed % moves.len() as u64) as usize];
                fast = fast.play(m);
                slow = slow.play(m);
                assert_eq!(to_n(&fast), slow);
            }
        }
    }
}
