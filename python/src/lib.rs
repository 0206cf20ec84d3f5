//! `emilia._emilia`, the compiled part of the Python package: the rules ([`PyBoard`], Python's
//! `emilia.Board`) and the engine ([`EngineCore`], wrapped by `emilia.Engine` in Python),
//! in-process. It translates between Python and the engine's library and decides nothing of
//! its own: every rule and every search is the library's.
//!
//! What comes from Python is checked where it enters, each refusal a typed error naming the
//! value; every search runs on a thread of its own while the caller's thread waits without
//! the GIL and answers Ctrl-C ([`wait_answering_signals`]); no panic reaches Python.

use std::any::Any;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{mpsc, Arc, Mutex, PoisonError};
use std::time::Duration;

use emilia_core::board::{Board, BoardSize, Color, Move, Position, Square, MAX_SIZE, SIZES};
use emilia_core::engine::{check_option, Config, Engine, Source, Stopper};
use emilia_core::formats::game_text::{read_game, GameTextError};
use emilia_core::game::{Game, PlayError};
use emilia_core::perft::{perft_stoppable, Convention};
use emilia_core::search::{Clock, Limits, MoveScore, SearchReport};
use pyo3::create_exception;
use pyo3::exceptions::{PyIndexError, PyRuntimeError, PyValueError};
use pyo3::prelude::*;
use pyo3::sync::GILOnceCell;
use pyo3::types::{PyDict, PyList, PyString};

create_exception!(
    _emilia,
    IllegalMoveError,
    PyValueError,
    "A move that is not legal on the board, or not a move at all; the board is unchanged."
);
create_exception!(
    _emilia,
    InvalidBoardError,
    PyValueError,
    "A board size, board string, side, array or transcript that cannot be read."
);
create_exception!(
    _emilia,
    GameOverError,
    PyValueError,
    "A search of a position where neither side can move."
);
create_exception!(
    _emilia,
    OptionError,
    PyValueError,
    "An engine option that is unknown, out of range, or cannot be had."
);
create_exception!(
    _emilia,
    LimitError,
    PyValueError,
    "A search bound (depth, time, nodes, clock, multipv) or perft depth out of range."
);

/// The index of `"pass"` in [`move_names`], after the squares of the largest board.
const PASS: usize = MAX_SIZE * MAX_SIZE;

/// The names of the squares of the largest board, row by row (`a1`, `b1`, ...), then
/// `"pass"`: made once, so that listing moves creates no strings, and a name listed here
/// and handed back to `play` is known by its address.
fn move_names(py: Python<'_>) -> &[Py<PyString>] {
    static NAMES: GILOnceCell<Vec<Py<PyString>>> = GILOnceCell::new();
    NAMES.get_or_init(py, || {
        (0..MAX_SIZE * MAX_SIZE)
            .map(|i| Square::from_index(i, MAX_SIZE).to_string())
            .chain(["pass".to_string()])
            .map(|name| PyString::intern(py, &name).unbind())
            .collect()
    })
}

/// The index in [`move_names`] of square `index` of a board of side `size`.
fn name_index(index: usize, size: usize) -> u8 {
    (index / size * MAX_SIZE + index % size) as u8
}

/// The square whose name is `move_names()[name]`.
fn named_square(name: u8) -> Square {
    Square::from_index(usize::from(name), MAX_SIZE)
}

fn invalid(error: impl std::fmt::Display) -> PyErr {
    InvalidBoardError::new_err(error.to_string())
}

/// A whole number from Python (not a bool, not a float), or why not, naming `what`.
fn whole(value: &Bound<'_, PyAny>, what: &str) -> Result<i128, String> {
    if value.is_instance_of::<pyo3::types::PyBool>() {
        return Err(format!(
            "{what} {value}: expected a whole number, not a bool"
        ));
    }
    value
        .extract::<i128>()
        .map_err(|_| format!("{what} {}: expected a whole number", show(value)))
}

/// `repr()` of a value for a message, cut to 60 characters.
fn show(value: &Bound<'_, PyAny>) -> String {
    let text = value
        .repr()
        .map_or_else(|_| "?".to_string(), |r| r.to_string());
    if text.chars().count() > 60 {
        text.chars().take(57).chain("...".chars()).collect()
    } else {
        text
    }
}

/// A board size from Python, checked by the core.
fn read_size(value: &Bound<'_, PyAny>) -> PyResult<BoardSize> {
    let side = whole(value, "board size").map_err(invalid)?;
    let side = usize::try_from(side)
        .map_err(|_| invalid(format!("board size {side}: expected 6, 8, 10 or 12")))?;
    BoardSize::new(side).map_err(invalid)
}

/// A colour from `"black"`/`"white"` (or `X`/`O`, `b`/`w`) or from the array's 1/2.
fn read_color(value: &Bound<'_, PyAny>) -> PyResult<Color> {
    if let Ok(text) = value.downcast::<PyString>() {
        return text.to_cow()?.parse().map_err(invalid);
    }
    match cell_code(value) {
        Some(1) => Ok(Color::Black),
        Some(2) => Ok(Color::White),
        _ => Err(invalid(format!(
            "side {}: expected \"black\" or \"white\" (or 1 for Black, 2 for White)",
            show(value)
        ))),
    }
}

/// A cell of an array as a whole number: Python and numpy integers and bools, and floats
/// that are whole (numpy's default arrays hold floats); `None` for anything else.
fn cell_code(value: &Bound<'_, PyAny>) -> Option<i64> {
    if let Ok(code) = value.extract::<i64>() {
        return Some(code);
    }
    if let Ok(flag) = value.extract::<bool>() {
        return Some(flag as i64);
    }
    if value.is_instance_of::<PyString>() {
        return None;
    }
    let number = value.extract::<f64>().ok()?;
    (number.fract() == 0.0 && number.abs() < 1e6).then_some(number as i64)
}

/// A move from a game that leaves forced passes implicit: a pass first when the mover has
/// no move and the move is not a pass. Every pass is recorded as a ply of its own, as
/// `play("pass")` records it, so that `pop` takes it back on its own.
fn play_implicitly(game: &mut Game, mv: Move) -> Result<(), PlayError> {
    if mv != Move::Pass && game.must_pass() {
        game.play(Move::Pass)?;
        if let Err(e) = game.play(mv) {
            game.undo();
            return Err(e);
        }
        return Ok(());
    }
    game.play(mv)
}

/// A board of side 6, 8, 10 or 12 with the side to move: the core's game record, from the
/// position it was set up in, every ply since (passes included) kept for undo and the
/// transcript.
#[pyclass(module = "emilia", name = "Board")]
#[derive(Clone)]
struct PyBoard {
    game: Game,
    /// The mover's legal squares in the current position, as indices in [`move_names`],
    /// kept with it: listing and playing moves and `is_game_over` read them instead of
    /// generating them again.
    moves: Vec<u8>,
}

impl PyBoard {
    fn new_game(game: Game) -> PyBoard {
        let mut board = PyBoard {
            game,
            moves: Vec::new(),
        };
        board.find_moves();
        board
    }

    fn from_position(position: Position) -> PyBoard {
        PyBoard::new_game(Game::new(position))
    }

    fn position(&self) -> &Position {
        self.game.position()
    }

    /// Lists the mover's legal squares of the current position in `moves`, reusing its
    /// memory.
    fn find_moves(&mut self) {
        fn list(board: &impl Board, moves: &mut Vec<u8>) {
            let size = board.size();
            moves.extend(board.moves().map(|i| name_index(i, size)));
        }
        self.moves.clear();
        emilia_core::with_board!(&self.game.position().board, b => list(b, &mut self.moves));
    }

    /// The move `value` names: a name from `legal_moves()` is known by its address; other
    /// text is read as the protocols read moves.
    fn read_move(&self, value: &Bound<'_, PyAny>) -> PyResult<Move> {
        let names = move_names(value.py());
        for &name in &self.moves {
            if names[usize::from(name)].as_ptr() == value.as_ptr() {
                return Ok(Move::Play(named_square(name)));
            }
        }
        let Ok(text) = value.downcast::<PyString>() else {
            return Err(IllegalMoveError::new_err(format!(
                "move {}: expected a square such as 'f5', or 'pass'",
                show(value)
            )));
        };
        let text = text.to_cow()?;
        text.trim()
            .parse()
            .map_err(|e| IllegalMoveError::new_err(format!("{text:?}: {e}")))
    }

    /// Plays `mv` for the side to move, or says why not, the board unchanged.
    fn play_move(&mut self, mv: Move) -> PyResult<()> {
        self.game
            .play(mv)
            .map_err(|e| IllegalMoveError::new_err(e.to_string()))?;
        self.find_moves();
        Ok(())
    }

    /// The board reached by `moves` (forced passes implicit) from the start of `size`.
    fn from_moves(moves: &Bound<'_, PyAny>, size: BoardSize) -> PyResult<PyBoard> {
        let mut game = Game::new(Position::start_of(size));
        // A game has at most a move and a pass for every square.
        let most = 2 * size.squares();
        let size = size.side();
        for (number, item) in moves.try_iter().map_err(invalid)?.enumerate() {
            let item = item?;
            if number == most {
                return Err(invalid(format!(
                    "the game has more than {most} moves: no {size}x{size} game is that long"
                )));
            }
            let Ok(text) = item.downcast::<PyString>() else {
                return Err(invalid(format!(
                    "move {} of the game is {}: expected a square such as 'f5', or 'pass'",
                    number + 1,
                    show(&item)
                )));
            };
            let text = text.to_cow()?;
            let mv: Move = text
                .trim()
                .parse()
                .map_err(|e| invalid(format!("move {} of the game, {text:?}: {e}", number + 1)))?;
            play_implicitly(&mut game, mv)
                .map_err(|e| invalid(format!("move {} of the game, {text}: {e}", number + 1)))?;
        }
        Ok(PyBoard::new_game(game))
    }

    /// The board of a game the core read, every pass of it a ply of its own, as
    /// [`play_implicitly`] records them.
    fn from_record(record: &Game) -> PyResult<PyBoard> {
        let mut game = Game::new(*record.start());
        for (number, ply) in record.plies().iter().enumerate() {
            game.play(ply.mv)
                .map_err(|e| invalid(format!("move {} of the game: {e}", number + 1)))?;
        }
        Ok(PyBoard::new_game(game))
    }
}

#[pymethods]
impl PyBoard {
    /// The start position on a board of side `size`, Black to move.
    #[new]
    #[pyo3(signature = (size = None))]
    fn new(size: Option<&Bound<'_, PyAny>>) -> PyResult<PyBoard> {
        let size = size.map(read_size).transpose()?;
        Ok(PyBoard::from_position(Position::start_of(
            size.unwrap_or(BoardSize::EIGHT),
        )))
    }

    /// The board reached by a game: a transcript (`"f5d6c3"`; passes implicit or as
    /// `pass`/`PA`) or a sequence of moves (`["f5", "d6"]`) from the start position of side
    /// `size`, or text the core reads as a game of its own size: a board string
    /// (`"---…--- X"`) or a GGF game (`"(;GM[Othello]…;)"`).
    #[staticmethod]
    #[pyo3(signature = (transcript, size = None))]
    fn from_transcript(
        transcript: &Bound<'_, PyAny>,
        size: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<PyBoard> {
        let size = size.map(read_size).transpose()?.unwrap_or(BoardSize::EIGHT);
        let Ok(text) = transcript.downcast::<PyString>() else {
            return PyBoard::from_moves(transcript, size);
        };
        match read_game(&text.to_cow()?, Some(size.side())) {
            Ok(game) => PyBoard::from_record(&game),
            // A game of no moves yet, as `transcript()` gives it.
            Err(GameTextError::Empty) => Ok(PyBoard::from_position(Position::start_of(size))),
            Err(e) => Err(invalid(e)),
        }
    }

    /// A board from the protocol's square string (`X` Black, `O` White, `-` empty; a1, b1,
    /// ... row by row) and the side to move (`"X"`/`"O"`, `"black"`/`"white"`).
    #[staticmethod]
    #[pyo3(signature = (squares, side = "X"))]
    fn from_squares(squares: &str, side: &str) -> PyResult<PyBoard> {
        Position::from_parts(squares, side)
            .map(PyBoard::from_position)
            .map_err(invalid)
    }

    /// A board from rows of 0 (empty), 1 (Black) and 2 (White): any sequence of sequences,
    /// numpy arrays included (of integers, whole floats or bools); `rows[0][0]` is a1,
    /// `rows[r][c]` row `r + 1`, column `c`. At most 12 rows of 12 are read.
    #[staticmethod]
    #[pyo3(signature = (rows, turn = None))]
    fn from_array(rows: &Bound<'_, PyAny>, turn: Option<&Bound<'_, PyAny>>) -> PyResult<PyBoard> {
        let color = turn.map(read_color).transpose()?.unwrap_or(Color::Black);
        let mut squares = String::new();
        let mut size = 0;
        let mut count = 0;
        for (r, row) in rows.try_iter().map_err(invalid)?.enumerate() {
            let row = row?;
            if r == MAX_SIZE {
                return Err(invalid(format!(
                    "the array has more than {MAX_SIZE} rows: expected a square of side 6, 8, \
                     10 or 12"
                )));
            }
            let cells = row.try_iter().map_err(|_| {
                invalid(format!(
                    "row {r} is {}, not a sequence of cells: expected rows of cells (a flat \
                     list of cells? give it as rows)",
                    show(&row)
                ))
            })?;
            let mut columns = 0;
            for cell in cells {
                let cell = cell?;
                if columns == MAX_SIZE {
                    return Err(invalid(format!(
                        "row {r} has more than {MAX_SIZE} cells: expected a square of side 6, \
                         8, 10 or 12"
                    )));
                }
                squares.push(match cell_code(&cell) {
                    Some(0) => '-',
                    Some(1) => 'X',
                    Some(2) => 'O',
                    _ => {
                        return Err(invalid(format!(
                            "row {r}, column {columns} is {}: expected 0, 1 (Black) or 2 (White)",
                            show(&cell)
                        )))
                    }
                });
                columns += 1;
            }
            if r > 0 && columns != size {
                return Err(invalid(format!(
                    "row {r} has {columns} cells, row 0 has {size}: the board is not square"
                )));
            }
            size = columns;
            count += 1;
        }
        if !SIZES.contains(&size) || count != size {
            return Err(invalid(format!(
                "the array is {count} rows of {size}: expected a square of side 6, 8, 10 or 12"
            )));
        }
        let side = color.disc_char().to_string();
        PyBoard::from_squares(&squares, &side)
    }

    /// Squares per side.
    #[getter]
    fn size(&self) -> usize {
        self.position().size()
    }

    /// The side to move: `"black"` or `"white"`.
    #[getter]
    fn turn(&self) -> &'static str {
        match self.position().to_move {
            Color::Black => "black",
            Color::White => "white",
        }
    }

    /// The legal moves as the protocol names them (`"f5"`), row by row; `["pass"]` when
    /// the mover must pass; empty when the game is over.
    fn legal_moves<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        let names = move_names(py);
        if self.moves.is_empty() {
            let pass = (!self.position().is_game_over()).then(|| names[PASS].bind(py));
            return PyList::new(py, pass);
        }
        PyList::new(
            py,
            self.moves
                .iter()
                .map(|&name| names[usize::from(name)].bind(py)),
        )
    }

    /// Plays `move` (a square such as `"f5"`, or `"pass"`) for the side to move; raises
    /// IllegalMoveError, leaving the board as it was, if it is not legal.
    fn play(&mut self, mv: &Bound<'_, PyAny>) -> PyResult<()> {
        let mv = self.read_move(mv)?;
        self.play_move(mv)
    }

    /// `play`, by python-chess's name: the move goes onto `move_stack`.
    fn push(&mut self, mv: &Bound<'_, PyAny>) -> PyResult<()> {
        self.play(mv)
    }

    /// Takes back the last move (a pass is a move of its own) and returns it; IndexError
    /// when no move was played since the board was set up.
    fn pop(&mut self) -> PyResult<String> {
        let mv = self.game.undo().ok_or_else(|| {
            PyIndexError::new_err("pop from a board with no moves played since it was set up")
        })?;
        self.find_moves();
        Ok(mv.to_string())
    }

    /// The moves played since the board was set up, passes included (`"pass"`), oldest
    /// first: playing them on the board it was set up as gives this board.
    #[getter]
    fn move_stack(&self) -> Vec<String> {
        self.game.plies().iter().map(|p| p.mv.to_string()).collect()
    }

    /// Whether `move` is legal for the side to move (malformed text is not).
    fn is_legal(&self, mv: &Bound<'_, PyAny>) -> bool {
        self.read_move(mv)
            .is_ok_and(|mv| self.position().play(mv).is_ok())
    }

    /// Whether neither side can move.
    fn is_game_over(&self) -> bool {
        self.moves.is_empty() && self.position().is_game_over()
    }

    /// `"*"` while the game goes on; when it is over, Black's result as the protocol gives
    /// it: `"B+12"`, `"W+4"` or `"0"` (empty squares go to the winner).
    fn result(&self) -> String {
        if !self.is_game_over() {
            return "*".to_string();
        }
        self.game.result()
    }

    /// Discs of each colour: `(black, white)`.
    fn discs(&self) -> (u32, u32) {
        let position = self.position();
        (position.count(Color::Black), position.count(Color::White))
    }

    /// The protocol's square string: `X` Black, `O` White, `-` empty, a1, b1, ... row by row.
    fn squares(&self) -> String {
        self.position().squares_string()
    }

    /// The side to move as the protocol writes it: `"X"` (Black) or `"O"` (White).
    fn side(&self) -> String {
        self.position().to_move.disc_char().to_string()
    }

    /// The moves played since the board was set up, as a transcript (passes implicit).
    fn transcript(&self) -> String {
        self.game.transcript()
    }

    /// Rows of 0 (empty), 1 (Black), 2 (White); `[0][0]` is a1. `numpy.array(...)` of it
    /// is the array course simulators use.
    fn to_array(&self) -> Vec<Vec<u32>> {
        let position = self.position();
        let size = position.size();
        (0..size)
            .map(|row| {
                (0..size)
                    .map(|col| match position.disc(row * size + col) {
                        None => 0,
                        Some(Color::Black) => 1,
                        Some(Color::White) => 2,
                    })
                    .collect()
            })
            .collect()
    }

    /// Leaves of the game tree `depth` plies below (a forced pass is a ply; a game that
    /// ends earlier adds nothing further), counted without holding the GIL; Ctrl-C ends
    /// the count.
    fn perft(slf: &Bound<'_, Self>, depth: &Bound<'_, PyAny>) -> PyResult<u64> {
        let py = slf.py();
        let depth = whole(depth, "perft depth")
            .ok()
            .and_then(|d| u32::try_from(d).ok())
            .ok_or_else(|| {
                LimitError::new_err(format!(
                    "perft depth {}: expected a whole number of plies, 0 or more",
                    show(depth)
                ))
            })?;
        // A copy: the board stays free for its owner while the count runs.
        let board = slf.borrow().position().board;
        let stop = AtomicBool::new(false);
        let stopped = || stop.load(Ordering::Relaxed);
        let count = py.allow_threads(|| {
            wait_answering_signals(
                || perft_stoppable(&board, depth, Convention::EndedDropOut, &stopped),
                || stop.store(true, Ordering::Relaxed),
            )
        });
        match count {
            (_, Some(interrupt)) => Err(interrupt),
            (Ok(Some(leaves)), None) => Ok(leaves),
            (Ok(None), None) => Err(PyRuntimeError::new_err("perft stopped")),
            (Err(panic), None) => Err(engine_failed(py, &*panic, "perft", "")),
        }
    }

    /// An independent copy (its history too).
    fn copy(&self) -> PyBoard {
        self.clone()
    }

    fn __copy__(&self) -> PyBoard {
        self.clone()
    }

    fn __deepcopy__(&self, _memo: &Bound<'_, PyAny>) -> PyBoard {
        self.clone()
    }

    /// Boards are equal when their discs and side to move are (histories aside).
    fn __eq__(&self, other: &Bound<'_, PyAny>) -> bool {
        other
            .downcast::<PyBoard>()
            .is_ok_and(|other| other.borrow().position() == self.position())
    }

    fn __hash__(&self) -> u64 {
        let position = self.position();
        let side = position.to_move as u64;
        position.board.hash_key() ^ side.wrapping_mul(0x9e37_79b9_7f4a_7c15)
    }

    /// The board as a grid, row 1 on top (`X` Black, `O` White, `.` empty, as the command
    /// line draws it), then who is to move or the result.
    fn __str__(&self) -> String {
        let position = self.position();
        let size = position.size();
        let letters: String = (0..size)
            .map(|c| format!(" {}", (b'a' + c as u8) as char))
            .collect();
        let mut text = format!("  {letters}\n");
        for row in 0..size {
            text.push_str(&format!("{:>2}", row + 1));
            for col in 0..size {
                let disc = position.disc(row * size + col);
                text.push(' ');
                text.push(disc.map_or('.', Color::disc_char));
            }
            text.push('\n');
        }
        if position.is_game_over() {
            text.push_str(&format!("game over: {}", self.result()));
        } else {
            text.push_str(&format!("{} to move", position.to_move));
        }
        text
    }

    fn __repr__(&self) -> String {
        format!(
            "Board.from_squares({:?}, {:?})",
            self.squares(),
            self.side()
        )
    }
}

/// A search's report as `PlayResult`'s fields.
fn report<'py>(py: Python<'py>, report: &SearchReport) -> PyResult<Bound<'py, PyDict>> {
    let fields = PyDict::new(py);
    fields.set_item("move", report.best.to_string())?;
    fields.set_item("score", report.score.discs())?;
    fields.set_item("depth", report.depth)?;
    fields.set_item("nodes", report.nodes)?;
    let pv: Vec<String> = report.pv.iter().map(Move::to_string).collect();
    fields.set_item("pv", pv)?;
    fields.set_item("exact", report.exact)?;
    fields.set_item("book", report.book)?;
    fields.set_item("seconds", report.elapsed.as_secs_f64())?;
    Ok(fields)
}

/// One move's value: move, score in discs for the mover, depth, exact, book (the order of
/// `PlayResult.of_move`).
type Scored = (String, f64, u32, bool, bool);

fn scored(score: &MoveScore) -> Scored {
    (
        score.mv.to_string(),
        score.score.discs(),
        score.depth,
        score.exact,
        score.book,
    )
}

/// Longest time a search bound may give, in seconds, as the protocols take them.
const MAX_SECONDS: f64 = 1e9;

/// Seconds from Python: a number from 0 to [`MAX_SECONDS`].
fn duration(value: Option<&Bound<'_, PyAny>>, what: &str) -> PyResult<Option<Duration>> {
    let Some(value) = value else {
        return Ok(None);
    };
    let refused = || {
        LimitError::new_err(format!(
            "{what} {}: expected seconds from 0 to {MAX_SECONDS:e}",
            show(value)
        ))
    };
    if value.is_instance_of::<pyo3::types::PyBool>() || value.is_instance_of::<PyString>() {
        return Err(refused());
    }
    let seconds: f64 = value.extract().map_err(|_| refused())?;
    if !(0.0..=MAX_SECONDS).contains(&seconds) {
        return Err(refused());
    }
    Ok(Some(Duration::from_secs_f64(seconds)))
}

/// A count from Python checked as the option of the same name checks it (`depth`,
/// `nodes`), none for "no limit" (0) allowed: at least 1.
fn count(value: Option<&Bound<'_, PyAny>>, option: &str, what: &str) -> PyResult<Option<u64>> {
    let Some(value) = value else {
        return Ok(None);
    };
    let refused = |why: String| LimitError::new_err(format!("{what} {}: {why}", show(value)));
    let number = whole(value, what).map_err(|_| refused("expected a whole number".into()))?;
    if number < 1 {
        return Err(refused("expected at least 1".into()));
    }
    check_option(option, &number.to_string()).map_err(|e| refused(e.to_string()))?;
    Ok(Some(number as u64))
}

/// The search bounds Python gives, each checked.
fn limits(
    depth: Option<&Bound<'_, PyAny>>,
    time: Option<&Bound<'_, PyAny>>,
    nodes: Option<&Bound<'_, PyAny>>,
    clock: Option<&Bound<'_, PyAny>>,
    increment: Option<&Bound<'_, PyAny>>,
) -> PyResult<Limits> {
    let clock = duration(clock, "clock")?;
    let increment = duration(increment, "increment")?;
    Ok(Limits {
        depth: count(depth, "depth", "depth")?.map(|d| d as u32),
        move_time: duration(time, "time")?,
        nodes: count(nodes, "nodes", "nodes")?,
        clock: clock.map(|remaining| Clock {
            increment: increment.unwrap_or(Duration::ZERO),
            ..Clock::sudden_death(remaining)
        }),
        ..Limits::default()
    })
}

/// How often a thread waiting for a search looks for signals (Ctrl-C).
const SIGNAL_POLL: Duration = Duration::from_millis(20);

/// Stack of the thread a search runs on: the main thread's, where the binary searches.
const SEARCH_STACK: usize = 8 << 20;

/// Runs `work` on a thread of its own while this thread, which holds no GIL, waits for it
/// and looks for signals every [`SIGNAL_POLL`]: on Ctrl-C (any Python error of a signal
/// handler) it calls `stop` until `work` returns. Gives what `work` returned (its panic,
/// caught) and the signal's error, if one came.
fn wait_answering_signals<T: Send>(
    work: impl FnOnce() -> T + Send,
    stop: impl Fn(),
) -> (Result<T, Box<dyn Any + Send>>, Option<PyErr>) {
    let (done, finished) = mpsc::channel();
    std::thread::scope(|scope| {
        let spawned = std::thread::Builder::new()
            .stack_size(SEARCH_STACK)
            .spawn_scoped(scope, move || {
                let _ = done.send(catch_unwind(AssertUnwindSafe(work)));
            });
        if let Err(e) = spawned {
            let error = PyRuntimeError::new_err(format!("cannot start a search thread: {e}"));
            return (
                Err(Box::new("no thread") as Box<dyn Any + Send>),
                Some(error),
            );
        }
        let mut interrupt = None;
        loop {
            match finished.recv_timeout(SIGNAL_POLL) {
                Ok(result) => return (result, interrupt),
                Err(mpsc::RecvTimeoutError::Disconnected) => {
                    return (Err(Box::new("the search thread vanished")), interrupt)
                }
                Err(mpsc::RecvTimeoutError::Timeout) => {}
            }
            if interrupt.is_none() {
                interrupt = Python::with_gil(|py| py.check_signals().err());
            }
            if interrupt.is_some() {
                stop();
            }
        }
    })
}

/// The message a panic carried.
fn panic_message(panic: &(dyn Any + Send)) -> &str {
    panic
        .downcast_ref::<&str>()
        .copied()
        .or_else(|| panic.downcast_ref::<String>().map(String::as_str))
        .unwrap_or("no message")
}

/// The Python error for a failure of the engine's library (a panic, caught where it
/// happened): the pipe client's `EngineError`, so that both engines fail alike.
fn engine_failed(py: Python<'_>, panic: &(dyn Any + Send), doing: &str, after: &str) -> PyErr {
    let message = format!(
        "the engine failed in {doing}: {}{after}",
        panic_message(panic)
    );
    let class = py
        .import("emilia.engine")
        .and_then(|module| module.getattr("EngineError"));
    match class.and_then(|class| class.call1((message.as_str(),))) {
        Ok(error) => PyErr::from_value(error),
        Err(_) => PyRuntimeError::new_err(message),
    }
}

/// The engine, in-process. Searches run without the GIL; [`EngineCore::stop`] ends one from
/// any thread.
#[pyclass(module = "emilia._emilia")]
struct EngineCore {
    engine: Arc<Mutex<Engine>>,
    /// The engine's stopper (a new one when a failure set the engine up again).
    stopper: Mutex<Stopper>,
}

/// An engine of `config`: its tables, then everything else.
fn engine_of(config: Config) -> Result<Engine, String> {
    Engine::new(config).map_err(|e| e.to_string())
}

/// An engine option's value from Python as the option table reads it: whole numbers,
/// `"all"` for threads.
fn option_text(value: &Bound<'_, PyAny>, name: &str) -> PyResult<String> {
    let text = match whole(value, name) {
        Ok(number) => number.to_string(),
        Err(why) => match value.downcast::<PyString>() {
            Ok(text) => text.to_cow()?.into_owned(),
            Err(_) => return Err(OptionError::new_err(why)),
        },
    };
    check_option(name, &text).map_err(|e| OptionError::new_err(e.to_string()))?;
    Ok(text)
}

impl EngineCore {
    fn stopper(&self) -> Stopper {
        self.stopper
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .clone()
    }

    /// Runs `search` on the engine without the GIL, on a thread of its own, answering
    /// Ctrl-C; a panic of the engine sets it up again and is raised as an EngineError.
    fn run<T: Send>(
        &self,
        py: Python<'_>,
        board: &Bound<'_, PyBoard>,
        doing: &str,
        search: impl FnOnce(&mut Engine, &Position) -> T + Send,
    ) -> PyResult<T> {
        // A copy: the board stays free for its owner while the engine searches.
        let position = *board.borrow().position();
        if position.is_game_over() {
            return Err(GameOverError::new_err(
                "game over: neither side can move, there is nothing to search",
            ));
        }
        let stopper = self.stopper();
        let engine = &self.engine;
        let (result, interrupt, renewed) = py.allow_threads(|| {
            let mut engine = engine.lock().unwrap_or_else(PoisonError::into_inner);
            let config = engine.config().clone();
            let searched: &mut Engine = &mut engine;
            let (result, interrupt) =
                wait_answering_signals(|| search(searched, &position), || stopper.stop());
            let mut renewed = None;
            if result.is_err() {
                // Whatever the search left half done goes with the engine it was.
                if let Ok(fresh) = engine_of(config) {
                    renewed = Some(fresh.stopper());
                    *engine = fresh;
                }
            }
            (result, interrupt, renewed)
        });
        if let Some(stopper) = renewed {
            *self.stopper.lock().unwrap_or_else(PoisonError::into_inner) = stopper;
        }
        match (result, interrupt) {
            (_, Some(interrupt)) => Err(interrupt),
            (Ok(value), None) => Ok(value),
            (Err(panic), None) => Err(engine_failed(
                py,
                &*panic,
                doing,
                "; it was set up again with the same options",
            )),
        }
    }
}

#[pymethods]
impl EngineCore {
    /// An engine with `hash` MiB of tables, `threads` search threads (None: every core),
    /// the opening book (`"builtin"`, `"off"` or a file) and the evaluation (`"pattern"`,
    /// `"classic"`, `"squares"`); each checked as the option of its name is.
    #[new]
    #[pyo3(signature = (threads = None, hash = None, book = "builtin", eval = "pattern"))]
    fn new(
        py: Python<'_>,
        threads: Option<&Bound<'_, PyAny>>,
        hash: Option<&Bound<'_, PyAny>>,
        book: &str,
        eval: &str,
    ) -> PyResult<EngineCore> {
        let threads = threads
            .map(|t| option_text(t, "threads"))
            .transpose()?
            .unwrap_or_else(|| "all".to_string());
        let hash = hash
            .map(|h| option_text(h, "hash"))
            .transpose()?
            .unwrap_or_else(|| Engine::DEFAULT_HASH_MIB.to_string());
        check_option("eval", eval).map_err(|e| OptionError::new_err(e.to_string()))?;
        let eval = eval.parse().map_err(OptionError::new_err)?;
        let book = match book {
            "builtin" => Source::BuiltIn,
            "off" => Source::Off,
            path => Source::File(path.into()),
        };
        let engine = py.allow_threads(move || {
            let mut engine = Engine::new(Config {
                hash_mib: hash.parse().expect("a checked number"),
                eval,
                book,
                ..Config::default()
            })
            .map_err(|e| e.to_string())?;
            engine
                .set_option("threads", &threads)
                .map_err(|e| e.to_string())?;
            Ok::<Engine, String>(engine)
        });
        let engine = engine.map_err(OptionError::new_err)?;
        Ok(EngineCore {
            stopper: Mutex::new(engine.stopper()),
            engine: Arc::new(Mutex::new(engine)),
        })
    }

    /// Sets an option by its protocol name and value (`"probcut"`, `"seed"`, ...), as the
    /// protocols' `setoption` does.
    fn set_option(&self, py: Python<'_>, name: &str, value: &str) -> PyResult<()> {
        let engine = &self.engine;
        py.allow_threads(|| {
            let mut engine = engine.lock().unwrap_or_else(PoisonError::into_inner);
            engine.set_option(name, value)
        })
        .map_err(|e| OptionError::new_err(e.to_string()))
    }

    /// An option's value by its protocol name, None for an unknown name.
    fn option(&self, py: Python<'_>, name: &str) -> Option<String> {
        let engine = &self.engine;
        py.allow_threads(|| {
            engine
                .lock()
                .unwrap_or_else(PoisonError::into_inner)
                .option(name)
        })
    }

    /// The move to play and its search's report, as `PlayResult`'s fields.
    // One argument for each of Python's keyword arguments.
    #[allow(clippy::too_many_arguments)]
    #[pyo3(signature = (board, depth = None, time = None, nodes = None, clock = None, increment = None))]
    fn search<'py>(
        &self,
        py: Python<'py>,
        board: &Bound<'py, PyBoard>,
        depth: Option<&Bound<'py, PyAny>>,
        time: Option<&Bound<'py, PyAny>>,
        nodes: Option<&Bound<'py, PyAny>>,
        clock: Option<&Bound<'py, PyAny>>,
        increment: Option<&Bound<'py, PyAny>>,
    ) -> PyResult<Bound<'py, PyDict>> {
        let limits = limits(depth, time, nodes, clock, increment)?;
        let found = self.run(py, board, "a search", |engine, position| {
            engine.search(position, &limits, &mut |_| {})
        })?;
        report(py, &found)
    }

    /// The best `count` moves with their values (book moves first), and the nodes and
    /// seconds the search took.
    #[pyo3(signature = (board, count, depth = None, time = None, nodes = None))]
    fn hint<'py>(
        &self,
        py: Python<'py>,
        board: &Bound<'py, PyBoard>,
        count: &Bound<'py, PyAny>,
        depth: Option<&Bound<'py, PyAny>>,
        time: Option<&Bound<'py, PyAny>>,
        nodes: Option<&Bound<'py, PyAny>>,
    ) -> PyResult<(Vec<Scored>, u64, f64)> {
        let count = whole(count, "multipv")
            .ok()
            .filter(|&c| c >= 1)
            .map(|c| c.min(usize::MAX as i128) as usize)
            .ok_or_else(|| {
                LimitError::new_err(format!("multipv {}: expected at least 1", show(count)))
            })?;
        let limits = limits(depth, time, nodes, None, None)?;
        self.run(py, board, "an analysis", |engine, position| {
            let started = std::time::Instant::now();
            let mut searched = 0;
            let scores = engine.hint(position, count, &limits, &mut |report, _| {
                searched = report.nodes;
            });
            let scores = scores.iter().map(scored).collect();
            (scores, searched, started.elapsed().as_secs_f64())
        })
    }

    /// The exact result of the position, unless `time` or `nodes` cut the solve short, as
    /// `PlayResult`'s fields.
    #[pyo3(signature = (board, time = None, nodes = None))]
    fn solve<'py>(
        &self,
        py: Python<'py>,
        board: &Bound<'py, PyBoard>,
        time: Option<&Bound<'py, PyAny>>,
        nodes: Option<&Bound<'py, PyAny>>,
    ) -> PyResult<Bound<'py, PyDict>> {
        let limits = limits(None, time, nodes, None, None)?;
        let found = self.run(py, board, "a solve", |engine, position| {
            engine.solve(position, &limits, &mut |_| {})
        })?;
        report(py, &found)
    }

    /// Ends the search under way, from any thread: it returns at once with its best move
    /// so far. A stop with no search under way shortens no later search (the core's
    /// [`Stopper::stop`]).
    fn stop(&self) {
        self.stopper().stop();
    }
}

#[pymodule]
fn _emilia(m: &Bound<'_, PyModule>) -> PyResult<()> {
    let py = m.py();
    m.add_class::<PyBoard>()?;
    m.add_class::<EngineCore>()?;
    m.add("IllegalMoveError", py.get_type::<IllegalMoveError>())?;
    m.add("InvalidBoardError", py.get_type::<InvalidBoardError>())?;
    m.add("GameOverError", py.get_type::<GameOverError>())?;
    m.add("OptionError", py.get_type::<OptionError>())?;
    m.add("LimitError", py.get_type::<LimitError>())?;
    Ok(())
}
