//! The pattern evaluation: learned weights for the contents of edges, corners, lines and
//! diagonals, plus mobility (also where on the edges and the lines next to them each side
//! may move), potential mobility and parity, one weight set per game stage.
//! Scores are for the side to move, in hundredths of a disc of final disc difference.
//!
//! The weights come from `emilia train` and ship inside the binary
//! (`crates/emilia-core/weights/emilia.weights`), laid out into full tables when the program is built;
//! [`PatternEval::from_bytes`] loads any other file.

mod indices;
mod position_features;
#[cfg(test)]
mod shipped;

// The layout knows no board: it lives with the file encodings, where the build script
// lays the shipped weights out by it.
pub use emilia_codec::pattern::symmetry;
use emilia_codec::pattern::{layout, shapes};

use std::sync::OnceLock;

pub(crate) use indices::after_move;
#[cfg(test)]
use indices::indices_by_squares;
pub use indices::{indices, IncrementalIndices, Indices};
use layout::INSTANCE_OFFSETS;
pub use layout::{stage, Layout, FEATURE_COUNT, FULL_LEN, STAGES};
use position_features::global_features;
pub use position_features::slot_features;

use super::grid_pattern::GridPatternEval;
use super::weights::{Weights, WeightsError, WeightsFileError};
use super::{Classic, Evaluator};
use crate::board::{Board, Board8};
use crate::memory::TableMemory;

/// The shipped weights' full tables, every stage's one after the other, laid out when the
/// program was built (`build.rs`) in the target's byte order; empty when the shipped weights
/// do not fit this evaluation's layout.
#[cfg(not(target_family = "wasm"))]
static BUILT_IN_TABLES: &PageAligned<[u8]> = &PageAligned(*include_bytes!(concat!(
    env!("OUT_DIR"),
    "/emilia-tables.bin"
)));

/// Bytes that start on a page: aligned for any entry type, and no page of them is shared
/// with other data.
#[cfg(not(target_family = "wasm"))]
#[repr(C, align(4096))]
struct PageAligned<T: ?Sized>(T);

/// The shipped weights as stored (symmetric contents share one weight), decoded when the
/// program was built (see `build.rs` for the layout), for the tests of the expansion.
/// WebAssembly's module carries no weights: the page supplies the shipped file
/// (`platform::supply_file`), which is a quarter of the size of these.
#[cfg(test)]
static EMBEDDED_WEIGHTS: &[u8] = include_bytes!(concat!(env!("OUT_DIR"), "/emilia-weights.bin"));

/// Bytes before the weights in [`EMBEDDED_WEIGHTS`].
#[cfg(test)]
const EMBEDDED_HEADER: usize = 16;

/// Largest score the evaluation returns: just short of a whole-board win, so that no
/// estimate looks like a proven result.
pub const MAX_SCORE: i32 = 6399;

/// A loaded pattern evaluation.
pub struct PatternEval {
    tables: Tables,
}

/// Full tables of each stage (one entry per content, ready to index), one after the other:
/// 31 stages of 547,669 entries, 34 MB.
enum Tables {
    /// Laid out when the program was built and read where the program file is mapped:
    /// nothing to compute or clear when a process starts (expanding them took about 27 ms
    /// of processor time and 34 MB of memory cleared, once per process), and each page, read
    /// from the file cache at its first touch, is shared by every process of the program
    /// (docs/experiments.md, First searches of fresh processes).
    #[cfg(not(target_family = "wasm"))]
    BuiltIn(&'static [i16]),
    /// Expanded from dense weights when the evaluation was made.
    Expanded(TableMemory<i16>),
}

/// The full tables built into the program, when they fit this evaluation.
#[cfg(not(target_family = "wasm"))]
fn built_in_tables() -> Option<&'static [i16]> {
    let bytes: &'static [u8] = &BUILT_IN_TABLES.0;
    if bytes.len() != STAGES * FULL_LEN * std::mem::size_of::<i16>() {
        return None;
    }
    // SAFETY: the bytes start on a page, so aligned for i16, and hold STAGES * FULL_LEN
    // of them in the target's byte order (any bits are a valid i16); they are immutable
    // and live as long as the program.
    Some(unsafe { std::slice::from_raw_parts(bytes.as_ptr().cast::<i16>(), STAGES * FULL_LEN) })
}

impl std::fmt::Debug for PatternEval {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("PatternEval")
            .field("stages", &STAGES)
            .finish()
    }
}

impl PatternEval {
    /// The evaluation from a weights file's bytes, checked for damage and for fitting this
    /// evaluation's features.
    pub fn from_bytes(bytes: &[u8]) -> Result<PatternEval, WeightsError> {
        PatternEval::from_weights(&Weights::decode(bytes)?)
    }

    /// The evaluation from decoded weights, checked for fitting this evaluation's features.
    pub fn from_weights(weights: &Weights) -> Result<PatternEval, WeightsError> {
        let layout = Layout::get();
        if weights.stages != STAGES || weights.per_stage != layout.dense_len {
            return Err(WeightsError::Mismatch(format!(
                "{} stages of {} weights, this evaluation needs {} of {}",
                weights.stages, weights.per_stage, STAGES, layout.dense_len
            )));
        }
        if weights.fingerprint != layout.fingerprint() {
            return Err(WeightsError::Mismatch(
                "trained for another set of patterns".to_string(),
            ));
        }
        PatternEval::expanded(|stage| weights.stage(stage).to_vec())
    }

    /// The evaluation whose full tables are expanded now from the dense weights of each
    /// stage, `stage_weights(stage)` (each [`Layout::dense_len`] long).
    fn expanded(stage_weights: impl Fn(usize) -> Vec<i16>) -> Result<PatternEval, WeightsError> {
        let mut tables = TableMemory::zeroed(STAGES * FULL_LEN)
            .map_err(|e| WeightsError::Memory(e.to_string()))?;
        let full_to_dense = &Layout::get().full_to_dense;
        for (stage, table) in tables.chunks_exact_mut(FULL_LEN).enumerate() {
            let dense = stage_weights(stage);
            for (entry, &at) in table.iter_mut().zip(full_to_dense) {
                *entry = dense[at as usize];
            }
        }
        Ok(PatternEval {
            tables: Tables::Expanded(tables),
        })
    }

    /// The full table of stage `stage`.
    #[inline(always)]
    fn table(&self, stage: usize) -> &[i16; FULL_LEN] {
        // One kind of tables in WebAssembly, two elsewhere.
        #[cfg_attr(target_family = "wasm", allow(clippy::infallible_destructuring_match))]
        let all: &[i16] = match &self.tables {
            #[cfg(not(target_family = "wasm"))]
            Tables::BuiltIn(tables) => tables,
            Tables::Expanded(tables) => tables,
        };
        let start = stage * FULL_LEN;
        all[start..start + FULL_LEN]
            .try_into()
            .expect("a stage's table has FULL_LEN entries")
    }

    /// The evaluation from the weights built into the program.
    pub fn load_embedded() -> Result<PatternEval, WeightsError> {
        #[cfg(not(target_family = "wasm"))]
        return match built_in_tables() {
            Some(tables) => Ok(PatternEval {
                tables: Tables::BuiltIn(tables),
            }),
            None => Err(WeightsError::Mismatch(
                "the built-in weights were trained for another set of patterns".to_string(),
            )),
        };
        #[cfg(target_family = "wasm")]
        PatternEval::expand_supplied()
    }

    /// The evaluation from the weights file the embedder supplied (WebAssembly).
    #[cfg(target_family = "wasm")]
    fn expand_supplied() -> Result<PatternEval, WeightsError> {
        #[cfg(target_os = "unknown")]
        let file = crate::platform::supplied_file("emilia.weights");
        #[cfg(not(target_os = "unknown"))]
        let file: Option<&[u8]> = None;
        let bytes = file.ok_or_else(|| {
            WeightsError::Mismatch(
                "the 8x8 weights were not supplied (platform::supply_file)".to_string(),
            )
        })?;
        PatternEval::from_bytes(bytes)
    }

    /// The evaluation expanded from the dense weights decoded when the program was built
    /// (for tests).
    #[cfg(test)]
    fn expand_embedded() -> Result<PatternEval, WeightsError> {
        let u32_at = |at: usize| {
            let bytes = EMBEDDED_WEIGHTS[at..at + 4].try_into().expect("4 bytes");
            u32::from_le_bytes(bytes) as usize
        };
        let fingerprint = u64::from_le_bytes(EMBEDDED_WEIGHTS[8..16].try_into().expect("8 bytes"));
        let layout = Layout::get();
        let (stages, per_stage) = (u32_at(0), u32_at(4));
        if stages != STAGES
            || per_stage != layout.dense_len
            || fingerprint != layout.fingerprint()
            || EMBEDDED_WEIGHTS.len() != EMBEDDED_HEADER + 2 * stages * per_stage
        {
            return Err(WeightsError::Mismatch(
                "the built-in weights were trained for another set of patterns".to_string(),
            ));
        }
        let values = &EMBEDDED_WEIGHTS[EMBEDDED_HEADER..];
        PatternEval::expanded(|stage| {
            values[2 * stage * per_stage..2 * (stage + 1) * per_stage]
                .chunks_exact(2)
                .map(|pair| i16::from_le_bytes([pair[0], pair[1]]))
                .collect()
        })
    }

    /// The built-in evaluation, loaded once and shared.
    pub fn embedded() -> Result<&'static PatternEval, WeightsError> {
        static SHARED: OnceLock<Result<PatternEval, WeightsError>> = OnceLock::new();
        // In WebAssembly, nothing is kept before the file is supplied.
        #[cfg(all(target_arch = "wasm32", target_os = "unknown"))]
        if SHARED.get().is_none() && crate::platform::supplied_file("emilia.weights").is_none() {
            return Err(WeightsError::Mismatch(
                "the 8x8 weights were not supplied (platform::supply_file)".to_string(),
            ));
        }
        crate::setup::once(&SHARED, PatternEval::load_embedded)
            .as_ref()
            .map_err(WeightsError::clone)
    }

    /// The weights of the stage of `board`, and the sum of its global features' weights
    /// (`moves`: the legal moves of its side to move).
    #[inline(always)]
    fn stage_table(&self, board: &Board8, moves: u64) -> (&[i16; FULL_LEN], i32) {
        let table = self.table(stage(board.empty_mask().count_ones()));
        let globals = global_features(board, moves)
            .iter()
            .map(|&feature| {
                debug_assert!(feature < FULL_LEN);
                // SAFETY: a global feature's position is its table's start plus a content
                // below that table's size, capped or masked in `global_features`.
                (unsafe { *table.get_unchecked(feature) }) as i32
            })
            .sum();
        (table, globals)
    }

    /// The score of `board` for the side to move, in hundredths of a disc.
    #[inline]
    pub fn evaluate(&self, board: &Board8) -> i32 {
        self.evaluate_moving(board, board.move_mask())
    }

    /// [`PatternEval::evaluate`] of `board`, whose side to move has the legal moves `moves`.
    #[inline(always)]
    fn evaluate_moving(&self, board: &Board8, moves: u64) -> i32 {
        // All indices first, then all lookups: the table reads, often cache misses, are
        // then independent of each other and overlap (adding each weight as soon as its
        // index is known measured half as fast again).
        let indices = indices(board);
        if board.player & board.opponent != 0 {
            // Not a position (a square of both sides): its indices may leave the tables.
            return self.evaluate_with(board, &indices);
        }
        self.evaluate_known(board, &indices, moves)
    }

    /// [`PatternEval::evaluate_with`] for indices this module computed (`indices` of a
    /// position, `after_move` of a move of it), which lie within their instances' tables:
    /// read without bounds checks, which cost a noticeable share of a search's time (`bench
    /// replay`; docs/experiments.md). `moves`: the legal moves of `board`'s side to move.
    #[inline(always)]
    fn evaluate_known(&self, board: &Board8, indices: &Indices, moves: u64) -> i32 {
        let (table, mut sum) = self.stage_table(board, moves);
        for (&offset, &contents) in INSTANCE_OFFSETS.iter().zip(indices) {
            let at = offset as usize + contents as usize;
            debug_assert!(at < FULL_LEN);
            // SAFETY: `contents` of an instance computed here is below 3 to the power of
            // its squares, the size of its table, which starts at `offset` and ends within
            // the stage's full table (FULL_LEN entries); `evaluate_with` checks the others.
            sum += unsafe { *table.get_unchecked(at) } as i32;
        }
        sum.clamp(-MAX_SCORE, MAX_SCORE)
    }

    /// The score of `board`, reached by a legal move on `square` flipping `flipped` from a
    /// position whose indices seen from the side not to move are `waiter` (the indices
    /// follow by [`after_move`], so they need no range check).
    #[inline(always)]
    pub(crate) fn evaluate_after_move(
        &self,
        board: &Board8,
        waiter: &Indices,
        square: usize,
        flipped: u64,
    ) -> i32 {
        let indices = after_move(waiter, square, flipped);
        self.evaluate_known(board, &indices, board.move_mask())
    }

    /// The score of `board` whose instance contents `indices` are already known (for
    /// example kept by [`IncrementalIndices`]).
    #[inline(always)]
    pub fn evaluate_with(&self, board: &Board8, indices: &Indices) -> i32 {
        let in_tables = INSTANCE_OFFSETS
            .iter()
            .zip(indices)
            .all(|(&offset, &contents)| (offset as usize + contents as usize) < FULL_LEN);
        assert!(
            in_tables,
            "instance contents beyond the evaluation's tables"
        );
        self.evaluate_known(board, indices, board.move_mask())
    }
}

/// The pattern evaluation as a search's evaluator: 8x8 boards by the learned patterns,
/// another size by its own pattern weights when it has built-in ones (10x10) or a weights
/// file for it was read, and otherwise by the classic evaluation.
#[derive(Clone, Debug)]
pub struct Pattern {
    eval: WeightsRef,
    /// Weights read from a file for one of the other sizes, in place of the built-in ones.
    grid_pattern: Option<std::sync::Arc<GridPatternEval>>,
    other_sizes: Classic,
}

/// The built-in weights, shared by every engine of the process, or weights read from a file.
#[derive(Clone, Debug)]
enum WeightsRef {
    Embedded(&'static PatternEval),
    Loaded(std::sync::Arc<PatternEval>),
}

impl Pattern {
    /// The evaluator with the built-in weights, loaded once per process.
    pub fn embedded() -> Result<Pattern, WeightsError> {
        Ok(Pattern {
            eval: WeightsRef::Embedded(PatternEval::embedded()?),
            grid_pattern: None,
            other_sizes: Classic::default(),
        })
    }

    /// The evaluator with the weights file at `path`: 8x8 weights, or those of another
    /// board size (`emilia train --size N`), which then replace that size's built-in ones.
    pub fn from_file(path: &std::path::Path) -> Result<Pattern, WeightsFileError> {
        let weights = super::read_weights(path)?;
        let eight = match PatternEval::from_weights(&weights) {
            Ok(eval) => eval,
            Err(e) => {
                for size in [6, 10, 12] {
                    if let Ok(grid_pattern) = GridPatternEval::from_weights(size, &weights) {
                        let eight = PatternEval::embedded()
                            .map_err(|e| WeightsFileError::Refused(path.to_path_buf(), e))?;
                        return Ok(Pattern {
                            eval: WeightsRef::Embedded(eight),
                            grid_pattern: Some(std::sync::Arc::new(grid_pattern)),
                            other_sizes: Classic::default(),
                        });
                    }
                }
                return Err(WeightsFileError::Refused(path.to_path_buf(), e));
            }
        };
        Ok(Pattern {
            eval: WeightsRef::Loaded(std::sync::Arc::new(eight)),
            grid_pattern: None,
            other_sizes: Classic::default(),
        })
    }

    /// The evaluation of boards of side `size` other than 8: weights read for it, or the
    /// built-in ones.
    #[inline]
    fn grid_pattern(&self, size: usize) -> Option<&GridPatternEval> {
        match &self.grid_pattern {
            Some(eval) if eval.layout().size() == size => Some(eval),
            _ => GridPatternEval::built_in(size),
        }
    }

    /// The 8x8 evaluation.
    #[inline(always)]
    pub fn patterns(&self) -> &PatternEval {
        match &self.eval {
            WeightsRef::Embedded(eval) => eval,
            WeightsRef::Loaded(eval) => eval,
        }
    }
}

impl Evaluator for Pattern {
    type Kept = Option<KeptIndices>;

    #[inline]
    fn evaluate<B: Board>(&self, board: &B) -> i32 {
        match board.as_board8() {
            Some(board) => self.patterns().evaluate(board),
            None => match self.grid_pattern(board.size()) {
                Some(eval) => eval.evaluate(board),
                None => self.other_sizes.evaluate(board),
            },
        }
    }

    #[inline]
    fn evaluate_to_move<B: Board>(&self, board: &B) -> Option<i32> {
        match board.as_board8() {
            Some(board) => {
                let moves = board.move_mask();
                (moves != 0).then(|| self.patterns().evaluate_moving(board, moves))
            }
            None => board.has_moves().then(|| self.evaluate(board)),
        }
    }

    #[inline]
    fn keep<B: Board>(&self, board: &B) -> Option<KeptIndices> {
        board.as_board8().and_then(KeptIndices::new)
    }

    #[inline]
    fn keep_child<B: Board>(
        &self,
        kept: &Option<KeptIndices>,
        parent: &B,
        m: usize,
        child: &B,
    ) -> Option<KeptIndices> {
        let child = child.as_board8()?;
        // The parent's indices serve when they are the parent's and the child follows it.
        let follows = KeptIndices::of(kept, parent).and_then(|kept| {
            flipped_by_move(&kept.board, m, child).map(|flipped| (kept.indices, flipped))
        });
        let Some((mut indices, flipped)) = follows else {
            return KeptIndices::new(child);
        };
        indices.play(m, flipped);
        Some(KeptIndices {
            board: *child,
            indices,
        })
    }

    #[inline]
    fn keep_passed(&self, kept: &Option<KeptIndices>) -> Option<KeptIndices> {
        kept.map(|kept| {
            let mut indices = kept.indices;
            indices.pass();
            KeptIndices {
                board: kept.board.pass(),
                indices,
            }
        })
    }

    /// On 8x8, the parent's indices seen from the opponent come from `kept` (or are
    /// computed once); each child's follow from them by the squares its move changed.
    fn children<'a, B: Board>(
        &'a self,
        parent: &B,
        kept: &Option<KeptIndices>,
    ) -> impl FnMut(usize, &B) -> Option<i32> + 'a {
        // A parent with a square of both sides is no position: its children are evaluated
        // alone, as its indices may leave the tables.
        let parent = match KeptIndices::of(kept, parent) {
            Some(kept) => {
                debug_assert_eq!(kept.indices.indices(), &indices(&kept.board));
                Some((kept.board, *kept.indices.waiter()))
            }
            None => parent
                .as_board8()
                .filter(|p| p.player & p.opponent == 0)
                .map(|p| (*p, indices(&p.pass()))),
        };
        move |index, child: &B| match (&parent, child.as_board8()) {
            (Some((parent, waiter)), Some(child)) => {
                let Some(flipped) = flipped_by_move(parent, index, child) else {
                    return self.evaluate_to_move(child);
                };
                let moves = child.move_mask();
                if moves == 0 {
                    return None;
                }
                let child_indices = after_move(waiter, index, flipped);
                Some(self.patterns().evaluate_known(child, &child_indices, moves))
            }
            _ => self.evaluate_to_move(child),
        }
    }
}

/// What the pattern evaluation keeps of an 8x8 position for its children
/// ([`Evaluator::Kept`]): the position and its indices from both sides' points of view,
/// which only this module makes, so that they always belong to the position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct KeptIndices {
    board: Board8,
    indices: IncrementalIndices,
}

impl KeptIndices {
    /// The kept indices of `board`, or none when it is no position (a square of both
    /// sides), whose indices may leave the tables.
    fn new(board: &Board8) -> Option<KeptIndices> {
        (board.player & board.opponent == 0).then(|| KeptIndices {
            board: *board,
            indices: IncrementalIndices::new(board),
        })
    }

    /// `kept` when it holds the indices of `board`: the one test before kept indices are
    /// read without bounds checks.
    #[inline(always)]
    fn of<'k, B: Board>(kept: &'k Option<KeptIndices>, board: &B) -> Option<&'k KeptIndices> {
        kept.as_ref()
            .filter(|kept| board.as_board8() == Some(&kept.board))
    }
}

/// The discs that the move on `index` of `parent` flipped when `child` is the position
/// after it; `None` when it is not. Only such a child keeps every updated digit a digit (0
/// to 2), and so its indices within their tables.
#[inline(always)]
fn flipped_by_move(parent: &Board8, index: usize, child: &Board8) -> Option<u64> {
    let flipped = parent.opponent ^ child.player;
    let placed = 1u64.checked_shl(index as u32).unwrap_or(0);
    let follows = placed != 0
        && placed & (parent.player | parent.opponent) == 0
        && child.player & !parent.opponent == 0
        && child.opponent == parent.player | placed | flipped;
    follows.then_some(flipped)
}

#[cfg(test)]
mod tests {
    use super::layout::{
        FIRST_LINE_TABLE, LINE_ENTRIES, LINE_TABLES, MOBILITY_LINES, OPPONENT_MOBILITY,
        OPPONENT_POTENTIAL, PARITY, PLAYER_MOBILITY, PLAYER_POTENTIAL,
    };
    use super::*;
    use crate::board::bitboard::Bits;
    use crate::board::Board;
    use crate::rng::Rng;

    /// The position after a random legal move, or after a pass when the mover has none;
    /// `None` when the game is over.
    fn random_step(board: &Board8, rng: &mut Rng) -> Option<Board8> {
        let moves = board.move_mask();
        if moves == 0 {
            let passed = board.pass();
            return (passed.move_mask() != 0).then_some(passed);
        }
        let pick = rng.below(moves.count_ones() as usize);
        Some(board.play(Bits(moves).nth(pick).unwrap_or(0)))
    }

    /// Random weights, so that symmetry cannot hold by accident of zero tables.
    fn random_eval() -> PatternEval {
        let layout = Layout::get();
        let mut rng = Rng::new(99u64);
        let values = (0..STAGES * layout.dense_len)
            .map(|_| (rng.next_u64() % 201) as i16 - 100)
            .collect();
        let weights = Weights {
            stages: STAGES,
            per_stage: layout.dense_len,
            fingerprint: layout.fingerprint(),
            values,
        };
        PatternEval::from_weights(&weights).unwrap()
    }

    #[test]
    fn the_eight_board_symmetries_evaluate_alike() {
        let evals = [random_eval(), PatternEval::load_embedded().unwrap()];
        let mut rng = Rng::new(5u64);
        for _ in 0..200 {
            let mut board = Board8::START;
            let plies = rng.next_u64() % 60;
            for _ in 0..plies {
                match random_step(&board, &mut rng) {
                    Some(next) => board = next,
                    None => break,
                }
            }
            for eval in &evals {
                let value = eval.evaluate(&board);
                for k in 1..symmetry::COUNT {
                    let image = Board8 {
                        player: symmetry::bits(k, board.player),
                        opponent: symmetry::bits(k, board.opponent),
                    };
                    assert_eq!(eval.evaluate(&image), value, "symmetry {k} of {board:?}");
                }
            }
        }
    }

    #[test]
    fn children_scored_from_the_parent_score_as_evaluated_alone() {
        let pattern = Pattern::embedded().unwrap();
        let mut rng = Rng::new(17u64);
        let mut board = Board8::START;
        for _ in 0..2000 {
            let moves = board.move_mask();
            if moves == 0 {
                board = Board8::START;
                continue;
            }
            // With the parent's kept indices, and without (computed at the parent).
            let kept = pattern.keep(&board);
            let mut from_kept = pattern.children(&board, &kept);
            let mut from_parent = pattern.children(&board, &None);
            for m in Bits(moves) {
                let child = board.play(m);
                let alone = child.has_moves().then(|| pattern.evaluate(&child));
                assert_eq!(pattern.evaluate_to_move(&child), alone);
                assert_eq!(from_kept(m, &child), alone);
                assert_eq!(from_parent(m, &child), alone);
            }
            let pick = (rng.next_u64() % moves.count_ones() as u64) as usize;
            board = board.play(Bits(moves).nth(pick).unwrap_or(0));
        }
    }

    #[test]
    fn indices_kept_move_by_move_and_through_passes_equal_those_from_scratch() {
        let pattern = Pattern::embedded().unwrap();
        let mut rng = Rng::new(29u64);
        let mut board = Board8::START;
        let mut kept = pattern.keep(&board);
        let mut passes = 0;
        for _ in 0..5000 {
            let moves = board.move_mask();
            let next = if moves == 0 {
                let passed = board.pass();
                if !passed.has_moves() {
                    board = Board8::START;
                    kept = pattern.keep(&board);
                    continue;
                }
                passes += 1;
                kept = pattern.keep_passed(&kept);
                passed
            } else {
                let pick = (rng.next_u64() % moves.count_ones() as u64) as usize;
                let m = Bits(moves).nth(pick).unwrap_or(0);
                let child = board.play(m);
                kept = pattern.keep_child(&kept, &board, m, &child);
                child
            };
            assert_eq!(kept, pattern.keep(&next));
            board = next;
        }
        assert!(passes > 0, "no pass in the games");
        // Kept indices of another position are not taken for the child's.
        let other = Board8::START.play(19);
        let wrong = pattern.keep(&other);
        let child = Board8::START.play(26);
        assert_eq!(
            pattern.keep_child(&wrong, &Board8::START, 26, &child),
            pattern.keep(&child)
        );
    }

    #[test]
    fn a_child_that_is_not_the_position_after_the_move_is_evaluated_alone() {
        let pattern = Pattern::embedded().unwrap();
        let board = Board8::START;
        let kept = pattern.keep(&board);
        let mut moves = Bits(board.move_mask());
        let (first, second) = (moves.next().unwrap(), moves.next().unwrap());
        // Another move's position, and a move onto a disc; with the parent's kept indices,
        // another position's, and none.
        let other = board.play(second);
        let on_a_disc = board.player.trailing_zeros() as usize;
        for kept in [kept, pattern.keep(&other), None] {
            let mut score = pattern.children(&board, &kept);
            assert_eq!(score(first, &other), pattern.evaluate_to_move(&other));
            assert_eq!(score(on_a_disc, &other), pattern.evaluate_to_move(&other));
            assert_eq!(score(second, &other), pattern.evaluate_to_move(&other));
        }
    }

    /// The evaluation by its definition: every feature's weight found square by square.
    fn evaluate_by_definition(eval: &PatternEval, board: &Board8) -> i32 {
        let empties = (0..64)
            .filter(|&s| (board.player | board.opponent) >> s & 1 == 0)
            .count();
        let table = eval.table(stage(empties as u32));
        // Flips along rays, not the move generator the evaluation uses.
        let legal = |b: &Board8| {
            (0..64)
                .filter(|&s| (b.player | b.opponent) >> s & 1 == 0 && b.flips(s) != 0)
                .count()
        };
        let mobility = |b: &Board8| legal(b).min(layout::MOBILITY_ENTRIES - 1);
        // Empty squares with a disc of the other side among their eight neighbours.
        let potential = |b: &Board8| {
            let next_to_theirs = |s: i32| {
                let (row, col) = (s / 8, s % 8);
                (-1..=1).any(|dr: i32| {
                    (-1..=1).any(|dc: i32| {
                        let (r, c) = (row + dr, col + dc);
                        (0..8).contains(&r)
                            && (0..8).contains(&c)
                            && b.opponent >> (r * 8 + c) & 1 != 0
                    })
                })
            };
            (0..64)
                .filter(|&s| (b.player | b.opponent) >> s & 1 == 0 && next_to_theirs(s))
                .count()
                .min(layout::POTENTIAL_ENTRIES - 1)
        };
        let mut sum = table[PLAYER_MOBILITY + mobility(board)] as i32
            + table[OPPONENT_MOBILITY + mobility(&board.pass())] as i32
            + table[PARITY + empties % 2] as i32
            + table[PLAYER_POTENTIAL + potential(board)] as i32
            + table[OPPONENT_POTENTIAL + potential(&board.pass())] as i32;
        // Each line of each ring square by square, every one read the other way from the
        // evaluation's reading (its mirror image, of the same weight): the k-th square
        // of each as (row, column).
        let is_legal = |b: &Board8, row: i32, col: i32| {
            let s = (row * 8 + col) as usize;
            (b.player | b.opponent) >> s & 1 == 0 && b.flips(s) != 0
        };
        // The k-th square of a ring's side as (row, column), `line` squares from the edge.
        let ring = |line: i32, side: usize, k: i32| match side {
            0 => (line, 7 - k),
            1 => (7 - k, 7 - line),
            2 => (7 - line, 7 - k),
            _ => (7 - k, line),
        };
        for line in 0..MOBILITY_LINES {
            for side in 0..4 {
                let mut content = 0;
                for k in 0..8 {
                    let (row, col) = ring(line as i32, side, k);
                    content |= (is_legal(board, row, col) as usize) << k;
                    content |= (is_legal(&board.pass(), row, col) as usize) << (8 + k);
                }
                sum += table[FIRST_LINE_TABLE + line * LINE_ENTRIES + content] as i32;
            }
        }
        // The edges' discs with each side's legal moves: a square's low bit for a disc of
        // the side to move or a move, its high bit for the other side's disc or a move.
        for (table_index, mover) in (MOBILITY_LINES..LINE_TABLES).zip([*board, board.pass()]) {
            for side in 0..4 {
                let mut content = 0;
                for k in 0..8 {
                    let (row, col) = ring(0, side, k);
                    let s = row * 8 + col;
                    let moves = is_legal(&mover, row, col);
                    content |= ((board.player >> s & 1 != 0 || moves) as usize) << k;
                    content |= ((board.opponent >> s & 1 != 0 || moves) as usize) << (8 + k);
                }
                sum += table[FIRST_LINE_TABLE + table_index * LINE_ENTRIES + content] as i32;
            }
        }
        for (i, &contents) in indices_by_squares(board).iter().enumerate() {
            sum += table[INSTANCE_OFFSETS[i] as usize + contents as usize] as i32;
        }
        sum.clamp(-MAX_SCORE, MAX_SCORE)
    }

    #[test]
    fn evaluations_match_the_definition_on_random_games() {
        let evals = [random_eval(), PatternEval::load_embedded().unwrap()];
        let mut rng = Rng::new(41u64);
        for _ in 0..200 {
            let mut board = Board8::START;
            loop {
                for eval in &evals {
                    let expected = evaluate_by_definition(eval, &board);
                    assert_eq!(eval.evaluate(&board), expected, "{board:?}");
                    let kept = indices_by_squares(&board);
                    assert_eq!(eval.evaluate_with(&board, &kept), expected);
                }
                match random_step(&board, &mut rng) {
                    Some(next) => board = next,
                    None => break,
                }
            }
        }
    }

    /// The pattern evaluation plays every other size with that size's built-in weights,
    /// not with the classic evaluation they correct.
    #[test]
    fn every_size_plays_with_its_built_in_weights() {
        fn check<B: Board>(pattern: &Pattern, size: usize) {
            let built_in = GridPatternEval::built_in(size).expect("built-in weights");
            let classic = Classic::default();
            let mut rng = Rng::new(size as u64);
            let mut board = B::start(size);
            let mut differs = 0;
            for _ in 0..20 {
                let moves: Vec<usize> = board.moves().collect();
                let Some(&mv) = rng.pick(&moves) else {
                    break;
                };
                board = board.play(mv);
                let score = pattern.evaluate(&board);
                assert_eq!(score, built_in.evaluate(&board), "{size}x{size}");
                differs += (score != classic.evaluate(&board)) as usize;
            }
            assert!(
                differs >= 10,
                "{size}x{size}: {differs} of 20 differ from classic"
            );
        }
        let pattern = Pattern::embedded().unwrap();
        check::<crate::board::Board6>(&pattern, 6);
        check::<crate::board::Board10>(&pattern, 10);
        check::<crate::board::Board12>(&pattern, 12);
    }

    #[test]
    fn the_embedded_weights_load() {
        let eval = PatternEval::load_embedded().unwrap();
        let start = eval.evaluate(&Board8::START);
        assert!(start.abs() <= MAX_SCORE);
    }

    #[test]
    fn weights_for_another_layout_are_refused() {
        let layout = Layout::get();
        let wrong_size = Weights {
            stages: STAGES,
            per_stage: layout.dense_len - 1,
            fingerprint: layout.fingerprint(),
            values: vec![0; STAGES * (layout.dense_len - 1)],
        };
        assert!(matches!(
            PatternEval::from_bytes(&wrong_size.encode()),
            Err(WeightsError::Mismatch(_))
        ));
        let wrong_patterns = Weights {
            fingerprint: layout.fingerprint() ^ 1,
            per_stage: layout.dense_len,
            values: vec![0; STAGES * layout.dense_len],
            ..wrong_size
        };
        let err = PatternEval::from_bytes(&wrong_patterns.encode()).unwrap_err();
        assert!(err.to_string().contains("another set of patterns"));
    }
}
