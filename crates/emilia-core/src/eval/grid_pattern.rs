//! The pattern evaluation of the boards other than 8x8 (6x6, 10x10, 12x12): learned weights
//! for the contents of corner blocks, edges and diagonals, plus the mobility of both sides,
//! one weight set per stage of twelve empty squares. Scores are for the side to move, in
//! hundredths of a disc.
//!
//! Each shape is written once, at the a1 corner, and placed at every corner and in both
//! directions by the board's symmetries, all images sharing one table (a shape whose images
//! coincide as sets of squares is placed once). The weights correct the classic evaluation
//! ([`super::Classic`]): where a pattern was rarely seen its weight stays near zero and the
//! classic evaluation speaks alone. They come from `emilia train --size N` on self-play
//! games of that size and are built in (`crates/emilia-core/weights/emilia-N.weights`); a weights file (option
//! `weights`) replaces those of its size.

use std::sync::OnceLock;

use super::weights::{Weights, WeightsError};
use crate::board::bitset::BitSet;
use crate::board::geometry::Geometry;
use crate::board::{BitboardRef, Board, Cell, GridBoard, Six, Ten, Twelve};

/// Empty squares a stage spans.
const EMPTIES_PER_STAGE: usize = 12;

/// Largest mobility with a weight of its own; more counts as this.
const MOBILITY_CAP: usize = 30;

/// Largest score the evaluation returns on a board of `squares` squares, just short of a
/// whole-board win.
fn max_score(squares: usize) -> i32 {
    100 * squares as i32 - 1
}

/// The contents of `squares` on `board` as a base-3 number, the first square the least
/// significant digit: 0 empty, 1 the side to move's disc, 2 the opponent's.
fn contents<B: Board>(board: &B, squares: &[usize]) -> usize {
    squares.iter().rev().fold(0, |index, &square| {
        3 * index
            + match board.cell(square) {
                Cell::Empty => 0,
                Cell::Player => 1,
                Cell::Opponent => 2,
            }
    })
}

/// Where the features of one board size sit among a stage's weights.
#[derive(Clone, Debug)]
pub struct GridPatternLayout {
    size: usize,
    stages: usize,
    /// Each shape's first weight, and its number of squares.
    shapes: Vec<(usize, usize)>,
    /// Every placed shape: its shape and its squares (row-major indices), the first
    /// square the least significant base-3 digit.
    instances: Vec<(usize, Vec<usize>)>,
    /// For each placed shape, how the evaluation's fast path reads its index from the
    /// bitboards.
    gathers: Vec<Gather>,
    /// The tables [`Gather::table`] points into.
    gather_tables: Vec<u16>,
    /// First weight of the player's and of the opponent's mobility, and of the constant.
    player_mobility: usize,
    opponent_mobility: usize,
    constant: usize,
    per_stage: usize,
}

/// How one placed shape's index is read from the bitboards: its squares' bits gathered
/// word by word into one small binary number per side (in bit order), which a table turns
/// into the base-3 index in the shape's square order. Faster than reading square by square:
/// a placed shape costs two gathers a word and two table reads.
#[derive(Clone, Debug)]
struct Gather {
    /// The shape's first weight.
    base: usize,
    /// The words the squares lie in: (word, its squares' mask, bits gathered from the words
    /// before).
    parts: [(usize, u64, u32); 3],
    /// How many of `parts` are used.
    words: usize,
    /// Where the shape's table of 2^squares entries starts in the gather tables.
    table: usize,
}

impl Gather {
    /// The gather of a shape with first weight `base` on `bits`.
    fn new(base: usize, bits: &[usize]) -> Gather {
        let mut masks = [0u64; 3];
        for &bit in bits {
            masks[bit / 64] |= 1 << (bit % 64);
        }
        let mut parts = [(0, 0, 0); 3];
        let (mut words, mut before) = (0, 0);
        for (word, &mask) in masks.iter().enumerate() {
            if mask != 0 {
                parts[words] = (word, mask, before);
                words += 1;
                before += mask.count_ones();
            }
        }
        Gather {
            base,
            parts,
            words,
            table: 0,
        }
    }

    /// For each of `bits` (in the shape's square order), its bit in the gathered number.
    fn positions(&self, bits: &[usize]) -> Vec<usize> {
        bits.iter()
            .map(|&bit| {
                let parts = &self.parts[..self.words];
                let &(_, mask, before) = parts.iter().find(|p| p.0 == bit / 64).unwrap();
                before as usize + (mask & ((1u64 << (bit % 64)) - 1)).count_ones() as usize
            })
            .collect()
    }

    /// The gathered squares of `words`, one bit each.
    #[inline(always)]
    fn binary(&self, words: &[u64; 3]) -> usize {
        use crate::board::bitboard::gather;
        self.parts[..self.words]
            .iter()
            .fold(0, |binary, &(word, mask, before)| {
                binary | (gather(words[word], mask) as usize) << before
            })
    }
}

/// For every binary number of `order.len()` bits, the base-3 number with digit `k` one
/// where bit `order[k]` is set: a side's discs gathered in bit order, as a shape's index.
fn ternary_table(order: &[usize]) -> Vec<u16> {
    (0..1usize << order.len())
        .map(|binary| {
            order
                .iter()
                .rev()
                .fold(0, |index, &bit| 3 * index + (binary >> bit & 1) as u16)
        })
        .collect()
}

/// The shapes on a board of side `size`, as (row, column) squares at the a1 corner.
fn shapes(size: usize) -> Vec<Vec<(usize, usize)>> {
    let line = size.min(10);
    let diagonal = size.min(8);
    let mut shapes = vec![
        // The corner's 3x3 block.
        (0..9).map(|i| (i / 3, i % 3)).collect(),
        // The corner's 2x5 block along the edge.
        (0..10).map(|i| (i / 5, i % 5)).collect::<Vec<_>>(),
        // The diagonal from the corner.
        (0..diagonal).map(|i| (i, i)).collect(),
    ];
    // Every line parallel to the edge up to the middle, from the corner (all of it up to
    // 10 squares).
    for row in 0..size / 2 {
        shapes.push((0..line).map(|c| (row, c)).collect());
    }
    shapes
}

impl GridPatternLayout {
    /// The layout of boards of side `size` (6, 10 or 12).
    pub fn new(size: usize) -> GridPatternLayout {
        let squares = size * size;
        let stages = (squares - 4) / EMPTIES_PER_STAGE + 1;
        let mut shapes_at = Vec::new();
        let mut instances = Vec::new();
        let mut next = 0;
        for (shape, squares_at_a1) in shapes(size).into_iter().enumerate() {
            shapes_at.push((next, squares_at_a1.len()));
            next += 3usize.pow(squares_at_a1.len() as u32);
            let mut seen: Vec<Vec<usize>> = Vec::new();
            for symmetry in 0..8 {
                let placed: Vec<usize> = squares_at_a1
                    .iter()
                    .map(|&(r, c)| {
                        let (r, c) = if symmetry & 4 != 0 { (c, r) } else { (r, c) };
                        let r = if symmetry & 1 != 0 { size - 1 - r } else { r };
                        let c = if symmetry & 2 != 0 { size - 1 - c } else { c };
                        r * size + c
                    })
                    .collect();
                let mut set = placed.clone();
                set.sort_unstable();
                if !seen.contains(&set) {
                    seen.push(set);
                    instances.push((shape, placed));
                }
            }
        }
        let bit: fn(usize) -> usize = match size {
            6 => <Six as Geometry>::bit,
            10 => <Ten as Geometry>::bit,
            _ => <Twelve as Geometry>::bit,
        };
        let mut gather_tables = Vec::new();
        let mut orders: Vec<(Vec<usize>, usize)> = Vec::new();
        let gathers = instances
            .iter()
            .map(|(shape, squares): &(usize, Vec<usize>)| {
                let bits: Vec<usize> = squares.iter().map(|&s| bit(s)).collect();
                let mut gather = Gather::new(shapes_at[*shape].0, &bits);
                // Where each digit's bit lands in the gathered word; instances that land
                // alike share a table.
                let order = gather.positions(&bits);
                gather.table = match orders.iter().find(|(o, _)| *o == order) {
                    Some(&(_, table)) => table,
                    None => {
                        let table = gather_tables.len();
                        gather_tables.extend(ternary_table(&order));
                        orders.push((order, table));
                        table
                    }
                };
                gather
            })
            .collect();
        let player_mobility = next;
        let opponent_mobility = player_mobility + MOBILITY_CAP + 1;
        // Two constants: an even and an odd number of empties.
        let constant = opponent_mobility + MOBILITY_CAP + 1;
        GridPatternLayout {
            size,
            stages,
            shapes: shapes_at,
            instances,
            gathers,
            gather_tables,
            player_mobility,
            opponent_mobility,
            constant,
            per_stage: constant + 2,
        }
    }

    /// Side of the board.
    pub fn size(&self) -> usize {
        self.size
    }

    /// Number of stages.
    pub fn stages(&self) -> usize {
        self.stages
    }

    /// Weights per stage.
    pub fn per_stage(&self) -> usize {
        self.per_stage
    }

    /// Features a position has: one weight each.
    pub fn features_per_position(&self) -> usize {
        self.instances.len() + 3
    }

    /// The stage of a position with `empties` empty squares.
    pub fn stage(&self, empties: u32) -> usize {
        (empties as usize / EMPTIES_PER_STAGE).min(self.stages - 1)
    }

    /// A fingerprint of the layout: weights fitted for another layout are refused.
    pub fn fingerprint(&self) -> u64 {
        let mut hash = 0xCBF2_9CE4_8422_2325u64 ^ self.size as u64;
        let mut add = |x: usize| {
            hash = (hash ^ x as u64).wrapping_mul(0x0100_0000_01B3);
        };
        add(self.stages);
        add(MOBILITY_CAP);
        for (shape, squares) in &self.instances {
            add(*shape);
            squares.iter().for_each(|&s| add(s));
        }
        hash
    }

    /// Refuses weights fitted for another layout (other stages, sizes or shapes).
    pub fn check(&self, weights: &Weights) -> Result<(), WeightsError> {
        if weights.stages != self.stages
            || weights.per_stage != self.per_stage
            || weights.fingerprint != self.fingerprint()
        {
            return Err(WeightsError::Mismatch(format!(
                "trained for another {0}x{0} pattern layout",
                self.size
            )));
        }
        Ok(())
    }

    /// The weights `board`'s features use within its stage, written to `out` (cleared).
    pub fn features<B: Board>(&self, board: &B, out: &mut Vec<usize>) {
        debug_assert_eq!(board.size(), self.size);
        out.clear();
        for (shape, squares) in &self.instances {
            out.push(self.shapes[*shape].0 + contents(board, squares));
        }
        let mobility = board.move_count() as usize;
        let replies = board.pass().move_count() as usize;
        out.push(self.player_mobility + mobility.min(MOBILITY_CAP));
        out.push(self.opponent_mobility + replies.min(MOBILITY_CAP));
        out.push(self.constant + (board.empties() & 1) as usize);
    }
}

/// A pattern evaluation of one board size.
#[derive(Debug)]
pub struct GridPatternEval {
    layout: GridPatternLayout,
    /// The evaluation the weights correct.
    classic: super::Classic,
    /// Hundredths of a disc, stage by stage.
    weights: Vec<i16>,
}

impl GridPatternEval {
    /// The evaluation of boards of side `size` with `weights`, checked for fitting them.
    pub fn from_weights(size: usize, weights: &Weights) -> Result<GridPatternEval, WeightsError> {
        let layout = GridPatternLayout::new(size);
        layout.check(weights)?;
        Ok(GridPatternEval {
            layout,
            classic: super::Classic::default(),
            weights: weights.values.clone(),
        })
    }

    /// [`GridPatternEval::from_weights`] keeping `weights`' values rather than a copy: the
    /// built-in evaluations are made when an engine is made, and a copy doubled the
    /// memory cleared then.
    fn from_owned_weights(size: usize, weights: Weights) -> Result<GridPatternEval, WeightsError> {
        let layout = GridPatternLayout::new(size);
        layout.check(&weights)?;
        Ok(GridPatternEval {
            layout,
            classic: super::Classic::default(),
            weights: weights.values,
        })
    }

    /// The layout of the evaluation's features.
    pub fn layout(&self) -> &GridPatternLayout {
        &self.layout
    }

    /// The built-in evaluation of boards of side `size` (`weights/emilia-N.weights`),
    /// decoded at its first use ([`crate::setup`]); `None` for a size without built-in
    /// weights.
    pub fn built_in(size: usize) -> Option<&'static GridPatternEval> {
        static SIX: OnceLock<Option<GridPatternEval>> = OnceLock::new();
        static TEN: OnceLock<Option<GridPatternEval>> = OnceLock::new();
        static TWELVE: OnceLock<Option<GridPatternEval>> = OnceLock::new();
        let decoded = match size {
            6 => &SIX,
            10 => &TEN,
            12 => &TWELVE,
            _ => return None,
        };
        if let Some(eval) = decoded.get() {
            return eval.as_ref();
        }
        // Not decoded yet: on WebAssembly, not before the file is supplied.
        let bytes = built_in_weights(size)?;
        crate::setup::once(decoded, || {
            let eval = Weights::decode(bytes)
                .and_then(|weights| GridPatternEval::from_owned_weights(size, weights));
            eval.map_err(|e| log::warn!("built-in {size}x{size} weights: {e}"))
                .ok()
        })
        .as_ref()
    }

    /// The placed shapes' weights on a bitboard of this evaluation's size.
    #[inline(always)]
    fn pattern_sum<G: Geometry>(&self, board: &GridBoard<G>, weights: &[i16]) -> i32 {
        let (player, opponent) = (board.player.words(), board.opponent.words());
        let tables = &self.layout.gather_tables;
        let mut sum = 0;
        for gather in &self.layout.gathers {
            let table = &tables[gather.table..];
            let index = table[gather.binary(&player)] as usize
                + 2 * table[gather.binary(&opponent)] as usize;
            sum += weights[gather.base + index] as i32;
        }
        sum
    }

    /// The score of `board` (of this evaluation's size) for the side to move, in
    /// hundredths of a disc.
    pub fn evaluate<B: Board>(&self, board: &B) -> i32 {
        match board.as_bitboard() {
            Some(BitboardRef::Six(b)) => self.evaluate_grid(b),
            Some(BitboardRef::Ten(b)) => self.evaluate_grid(b),
            Some(BitboardRef::Twelve(b)) => self.evaluate_grid(b),
            Some(BitboardRef::Eight(_)) | None => {
                let layout = &self.layout;
                let mut sum = 0;
                let weights = self.stage_weights(board.empties());
                for (shape, squares) in &layout.instances {
                    sum += weights[layout.shapes[*shape].0 + contents(board, squares)] as i32;
                }
                let mobility = [board.move_count(), board.pass().move_count()];
                sum += self.globals(weights, mobility, board.empties());
                self.clamp(sum + super::Evaluator::evaluate(&self.classic, board))
            }
        }
    }

    /// [`GridPatternEval::evaluate`] on a bitboard: both sides' mobility worked out once, for the
    /// classic evaluation and the mobility weights alike.
    #[inline(always)]
    fn evaluate_grid<G: Geometry>(&self, board: &GridBoard<G>) -> i32 {
        let (p, o) = (board.player, board.opponent);
        let mobility = [G::legal_moves(p, o).count(), G::legal_moves(o, p).count()];
        let weights = self.stage_weights(board.empties());
        let classic = self
            .classic
            .score(board, &super::features::features_grid_with(board, mobility));
        let sum =
            self.pattern_sum(board, weights) + self.globals(weights, mobility, board.empties());
        self.clamp(sum + classic)
    }

    /// The weights of the stage of positions with `empties` empty squares.
    #[inline(always)]
    fn stage_weights(&self, empties: u32) -> &[i16] {
        let layout = &self.layout;
        let stage = layout.stage(empties);
        &self.weights[stage * layout.per_stage..(stage + 1) * layout.per_stage]
    }

    /// The weights of both sides' mobility and of the parity of the empties.
    #[inline(always)]
    fn globals(&self, weights: &[i16], mobility: [u32; 2], empties: u32) -> i32 {
        let layout = &self.layout;
        let cap = |moves: u32| (moves as usize).min(MOBILITY_CAP);
        weights[layout.player_mobility + cap(mobility[0])] as i32
            + weights[layout.opponent_mobility + cap(mobility[1])] as i32
            + weights[layout.constant + (empties & 1) as usize] as i32
    }

    /// `sum` within the board's scores.
    #[inline(always)]
    fn clamp(&self, sum: i32) -> i32 {
        let layout = &self.layout;
        let bound = max_score(layout.size * layout.size);
        sum.clamp(-bound, bound)
    }
}

/// The shipped weights file of boards of side `size` (6, 10 or 12): built into a native
/// program; on WebAssembly, the file the embedder supplied, if it has
/// (`platform::supply_file`).
fn built_in_weights(size: usize) -> Option<&'static [u8]> {
    #[cfg(not(all(target_arch = "wasm32", target_os = "unknown")))]
    return match size {
        6 => Some(include_bytes!(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/weights/emilia-6.weights"
        ))),
        10 => Some(include_bytes!(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/weights/emilia-10.weights"
        ))),
        12 => Some(include_bytes!(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/weights/emilia-12.weights"
        ))),
        _ => None,
    };
    #[cfg(all(target_arch = "wasm32", target_os = "unknown"))]
    crate::platform::supplied_file(match size {
        6 => "emilia-6.weights",
        10 => "emilia-10.weights",
        12 => "emilia-12.weights",
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Position;
    use crate::rng::Rng;

    #[test]
    fn shapes_are_placed_at_every_corner_once() {
        for size in [6, 10, 12] {
            let layout = GridPatternLayout::new(size);
            // 3x3 and diagonal: 4 places each; 2x5: 8.
            let count = |shape: usize| layout.instances.iter().filter(|i| i.0 == shape).count();
            assert_eq!(count(0), 4);
            assert_eq!(count(1), 8);
            // An edge that is a whole side is placed 4 times.
            assert_eq!(count(3), if size <= 10 { 4 } else { 8 });
            // A diagonal from corner to corner is placed twice.
            assert_eq!(count(2), if size == 6 { 2 } else { 4 });
            for (_, squares) in &layout.instances {
                assert!(squares.iter().all(|&s| s < size * size));
            }
            assert_ne!(
                layout.fingerprint(),
                GridPatternLayout::new(if size == 6 { 10 } else { 6 }).fingerprint()
            );
        }
    }

    #[test]
    fn the_evaluation_sums_the_weights_of_the_features() {
        let mut rng = Rng::new(5);
        for size in [6, 10, 12] {
            let layout = GridPatternLayout::new(size);
            let values: Vec<i16> = (0..layout.stages * layout.per_stage)
                .map(|_| (rng.next_u64() % 21) as i16 - 10)
                .collect();
            let weights = Weights {
                stages: layout.stages,
                per_stage: layout.per_stage,
                fingerprint: layout.fingerprint(),
                values: values.clone(),
            };
            let eval = GridPatternEval::from_weights(size, &weights).unwrap();
            let mut position = Position::start(size).unwrap();
            let mut features = Vec::new();
            // A whole random game: every stage, shapes empty, mixed and full.
            for _ in 0..size * size {
                let moves = position.legal_moves();
                position = position.play(moves[rng.below(moves.len())]).unwrap();
                if position.is_game_over() {
                    break;
                }
                crate::with_board!(position.board, board => {
                    layout.features(&board, &mut features);
                    let stage = layout.stage(board.empties());
                    let expected: i32 = features
                        .iter()
                        .map(|&f| values[stage * layout.per_stage + f] as i32)
                        .sum::<i32>()
                        + crate::eval::Evaluator::evaluate(&crate::eval::Classic::default(), &board);
                    assert_eq!(eval.evaluate(&board), expected);
                });
            }
            let wrong = Weights {
                fingerprint: 1,
                ..weights
            };
            assert!(GridPatternEval::from_weights(size, &wrong).is_err());
        }
    }
}

#[cfg(test)]
mod built_in_tests {
    use super::*;

    /// The shipped weights fit the layout: a change of shapes without retraining fails here.
    #[test]
    fn built_in_weights_load_for_six_ten_and_twelve() {
        for size in [6, 10, 12] {
            let eval = GridPatternEval::built_in(size).expect("built-in weights load");
            assert_eq!(eval.layout().size(), size);
        }
        assert!(GridPatternEval::built_in(8).is_none());
    }
}
