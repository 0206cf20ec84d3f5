//! A position on the bitboard of one board size: [`GridBoard`] plays 6x6, 10x10 and 12x12
//! through the [`Board`] trait with the kernels of its [`Geometry`].

use std::marker::PhantomData;

use super::bitset::{BitSet, SetBits};
use super::geometry::{self, Geometry};
use super::{mix64, BitboardRef, Board, Cell, SquareSet};

/// Iterator over the squares of a bit set as row-major indices, in ascending order.
#[derive(Clone, Copy, Debug)]
pub struct Squares<G: Geometry>(SetBits<G::Bits>);

impl<G: Geometry> Iterator for Squares<G> {
    type Item = usize;

    #[inline(always)]
    fn next(&mut self) -> Option<usize> {
        self.0.next().map(G::index)
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        self.0.size_hint()
    }
}

impl<G: Geometry> ExactSizeIterator for Squares<G> {}

/// The bit set of `G` holding the squares of `set` (row-major indices).
pub(super) fn bits_of<G: Geometry>(set: SquareSet) -> G::Bits {
    if G::STRIDE == G::SIZE {
        return G::Bits::from_words(set.0);
    }
    set.fold(G::Bits::EMPTY, |bits, index| {
        bits | G::Bits::bit(G::bit(index))
    })
}

/// The squares of a bit set of `G` as row-major indices.
#[cfg(test)]
pub fn set_of<G: Geometry>(bits: G::Bits) -> SquareSet {
    let mut set = SquareSet::default();
    for bit in bits.iter() {
        set.insert(G::index(bit));
    }
    set
}

/// A position seen from the side to move: one bit set per side, bit `i` being square `i`
/// in row-major order (a1 = 0).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Default)]
pub struct GridBoard<G: Geometry> {
    /// Discs of the side to move.
    pub player: G::Bits,
    /// Discs of the other side.
    pub opponent: G::Bits,
    geometry: PhantomData<G>,
}

impl<G: Geometry> GridBoard<G> {
    /// The position with these discs; they must not overlap and must lie on the board.
    #[inline(always)]
    pub fn new(player: G::Bits, opponent: G::Bits) -> GridBoard<G> {
        debug_assert!((player & opponent).is_empty());
        debug_assert!(((player | opponent) & !geometry::board::<G>()).is_empty());
        GridBoard {
            player,
            opponent,
            geometry: PhantomData,
        }
    }

    /// The position with the discs of two square sets (row-major, as [`super::BoardN`]).
    pub fn from_sets(player: SquareSet, opponent: SquareSet) -> GridBoard<G> {
        GridBoard::new(bits_of::<G>(player), bits_of::<G>(opponent))
    }

    /// The legal moves as a bit set.
    #[inline(always)]
    pub fn move_mask(&self) -> G::Bits {
        G::legal_moves(self.player, self.opponent)
    }

    /// The discs flipped by a move on `bit` (empty if it flips nothing).
    #[inline(always)]
    pub fn flips(&self, bit: usize) -> G::Bits {
        G::flips(self.player, self.opponent, bit)
    }

    /// The position after a move on `bit` that flips `flipped`, opponent to move.
    #[inline(always)]
    pub fn after(&self, bit: usize, flipped: G::Bits) -> GridBoard<G> {
        GridBoard::new(
            self.opponent ^ flipped,
            self.player ^ flipped ^ G::Bits::bit(bit),
        )
    }

    /// Empty squares as a bit set.
    #[inline(always)]
    pub fn empty_mask(&self) -> G::Bits {
        !(self.player | self.opponent) & geometry::board::<G>()
    }
}

impl<G: Geometry> Board for GridBoard<G> {
    type Moves = Squares<G>;

    fn start(size: usize) -> GridBoard<G> {
        assert_eq!(size, G::SIZE, "this board is {0}x{0} only", G::SIZE);
        let (low, high) = (size / 2 - 1, size / 2);
        let disc = |row: usize, col: usize| G::Bits::bit(G::bit(row * size + col));
        GridBoard::new(
            disc(low, high) | disc(high, low),
            disc(low, low) | disc(high, high),
        )
    }

    #[inline(always)]
    fn size(&self) -> usize {
        G::SIZE
    }

    #[inline(always)]
    fn moves(&self) -> Squares<G> {
        Squares(self.move_mask().iter())
    }

    #[inline(always)]
    fn move_count(&self) -> u32 {
        self.move_mask().count()
    }

    #[inline(always)]
    fn has_moves(&self) -> bool {
        !self.move_mask().is_empty()
    }

    #[inline(always)]
    fn is_legal(&self, index: usize) -> bool {
        index < G::SIZE * G::SIZE && self.move_mask().contains(G::bit(index))
    }

    #[inline(always)]
    fn flip_count(&self, index: usize) -> u32 {
        self.flips(G::bit(index)).count()
    }

    #[inline(always)]
    fn play(&self, index: usize) -> GridBoard<G> {
        let bit = G::bit(index);
        self.after(bit, self.flips(bit))
    }

    #[inline(always)]
    fn play_if_legal(&self, index: usize) -> Option<GridBoard<G>> {
        // An empty square is a legal move exactly when a disc there flips some.
        if index >= G::SIZE * G::SIZE || !self.empty_mask().contains(G::bit(index)) {
            return None;
        }
        let bit = G::bit(index);
        let flipped = self.flips(bit);
        (!flipped.is_empty()).then(|| self.after(bit, flipped))
    }

    #[inline(always)]
    fn pass(&self) -> GridBoard<G> {
        GridBoard::new(self.opponent, self.player)
    }

    fn cell(&self, index: usize) -> Cell {
        let bit = G::bit(index);
        if self.player.contains(bit) {
            Cell::Player
        } else if self.opponent.contains(bit) {
            Cell::Opponent
        } else {
            Cell::Empty
        }
    }

    #[inline(always)]
    fn player_discs(&self) -> u32 {
        self.player.count()
    }

    #[inline(always)]
    fn opponent_discs(&self) -> u32 {
        self.opponent.count()
    }

    #[inline(always)]
    fn player_squares(&self) -> Squares<G> {
        Squares(self.player.iter())
    }

    #[inline(always)]
    fn opponent_squares(&self) -> Squares<G> {
        Squares(self.opponent.iter())
    }

    #[inline(always)]
    fn empties(&self) -> u32 {
        (G::SIZE * G::SIZE) as u32 - (self.player | self.opponent).count()
    }

    #[inline(always)]
    fn hash_key(&self) -> u64 {
        // Each word pair is mixed on its own (independent chains), then the three combined.
        let (p, o) = (self.player.words(), self.opponent.words());
        let word = |w: usize| mix64(p[w] ^ mix64(o[w] ^ G::HASH_SEED.rotate_left(w as u32 * 21)));
        match G::Bits::BITS {
            64 => word(0),
            128 => mix64(word(0) ^ word(1).rotate_left(32)),
            _ => mix64(word(0) ^ word(1).rotate_left(21) ^ word(2).rotate_left(42)),
        }
    }

    #[inline(always)]
    fn as_bitboard(&self) -> Option<BitboardRef<'_>> {
        Some(G::bitboard_ref(self))
    }

    #[inline(always)]
    fn potential_mobility(&self) -> u32 {
        (geometry::neighbours::<G>(self.opponent) & self.empty_mask()).count()
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use std::collections::HashMap;

    use super::*;
    use crate::board::BoardN;
    use crate::rng::Rng;

    fn reference<G: Geometry>(board: &GridBoard<G>) -> BoardN {
        BoardN::from_sets(
            G::SIZE,
            set_of::<G>(board.player),
            set_of::<G>(board.opponent),
        )
    }

    /// Plays `games` random games on `G`'s board and on the square-by-square board side by
    /// side: at every ply the legal moves, every move's flips (through the position after
    /// it), passes, the end of the game and its score must agree, and the hash must be a
    /// function of the position that tells apart every position met.
    pub(crate) fn agrees_with_the_reference<G: Geometry>(games: usize, seed: u64) {
        let mut rng = Rng::new(seed);
        let mut seen: HashMap<u64, GridBoard<G>> = HashMap::new();
        let squares = G::SIZE * G::SIZE;
        for game in 0..games {
            let mut fast = GridBoard::<G>::start(G::SIZE);
            let mut slow = BoardN::start(G::SIZE);
            assert_eq!(reference(&fast), slow);
            loop {
                let moves: Vec<usize> = fast.moves().collect();
                assert_eq!(moves, slow.moves().collect::<Vec<_>>(), "game {game}");
                assert_eq!(fast.move_count() as usize, moves.len());
                assert_eq!(fast.potential_mobility(), slow.potential_mobility());
                assert_eq!(fast.has_moves(), !moves.is_empty());
                assert_eq!(
                    (fast.player_discs(), fast.opponent_discs(), fast.empties()),
                    (slow.player_discs(), slow.opponent_discs(), slow.empties())
                );
                if game % 16 == 0 {
                    for index in 0..squares + 8 {
                        assert_eq!(fast.is_legal(index), moves.contains(&index));
                        if index < squares {
                            assert_eq!(fast.cell(index), slow.cell(index));
                        }
                    }
                }
                for &m in &moves {
                    assert_eq!(
                        reference(&fast.play(m)),
                        slow.play(m),
                        "game {game} move {m}"
                    );
                    assert_eq!(fast.flip_count(m), slow.flip_count(m));
                }
                let hash = fast.hash_key();
                let rebuilt =
                    GridBoard::<G>::from_sets(set_of::<G>(fast.player), set_of::<G>(fast.opponent));
                assert_eq!(rebuilt, fast);
                assert_eq!(rebuilt.hash_key(), hash);
                assert_eq!(*seen.entry(hash).or_insert(fast), fast, "hash collision");
                if moves.is_empty() {
                    if fast.is_game_over() {
                        assert!(slow.is_game_over());
                        assert_eq!(fast.final_score(), slow.final_score());
                        break;
                    }
                    assert!(!slow.is_game_over());
                    fast = fast.pass();
                    slow = slow.pass();
                    continue;
                }
                let m = moves[(rng.next_u64() % moves.len() as u64) as usize];
                fast = fast.play(m);
                slow = slow.play(m);
            }
        }
    }
}
