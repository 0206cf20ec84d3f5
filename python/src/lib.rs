//! `emilia._emilia`, the compiled part of the Python package: the rules ([`PyBoard`], Python's
//! `emilia.Board`) and the engine ([`EngineCore`], wrapped by `emilia.Engine` in Python),
//! in-process. It translates between Python and the engine's library and decides nothing of
//! its own: every rule and every search is the library's.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use emilia::board::{transcript, Color, Move, Position, Square, MAX_SIZE, SIZES};
use emilia::engine::{Config, Engine, Source, Stopper};
use emilia::perft::{perft_any, Convention};
use emilia::search::{Clock, Limits, MoveScore, SearchReport};
use pyo3::create_exception;
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::sync::GILOnceCell;
use pyo3::types::{PyList, PyString};

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

/// The index of `"pass"` in [`move_names`], after the squares of the largest board.
const PASS: usize = MAX_SIZE * MAX_SIZE;

/// The names of the squares of the largest board, row by row (`a1`, `b1`, ...), then
/// `"pass"`: made once, so that listing moves creates no strings.
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

fn invalid(error: impl std::fmt::Display) -> PyErr {
    InvalidBoardError::new_err(error.to_string())
}

/// A board of side 6, 8, 10 or 12 with the side to move, and the moves played on it since
/// it was set up (for its transcript).
#[pyclass(module = "emilia", name = "Board")]
#[derive(Clone)]
struct PyBoard {
    position: Position,
    /// Moves played since, passes included.
    moves: Vec<Move>,
}

impl PyBoard {
    fn from_position(position: Position) -> PyBoard {
        PyBoard {
            position,
            moves: Vec::new(),
        }
    }

    fn parse_move(&self, text: &str) -> PyResult<Move> {
        text.trim()
            .parse()
            .map_err(|e| IllegalMoveError::new_err(format!("{text:?}: {e}")))
    }
}

/// A colour from `"black"`/`"white"` (or `X`/`O`, `b`/`w`) or from the array's 1/2.
fn read_color(value: &Bound<'_, PyAny>) -> PyResult<Color> {
    if let Ok(text) = value.extract::<String>() {
        return text.parse().map_err(invalid);
    }
    match value.extract::<i64>() {
        Ok(1) => Ok(Color::Black),
        Ok(2) => Ok(Color::White),
        _ => Err(invalid(format!(
            "side {value}: expected \"black\" or \"white\" (or 1 for Black, 2 for White)"
        ))),
    }
}

#[pymethods]
impl PyBoard {
    /// The start position on a board of side `size`, Black to move.
    #[new]
    #[pyo3(signature = (size = 8))]
    fn new(size: usize) -> PyResult<PyBoard> {
        Position::start(size)
            .map(PyBoard::from_position)
            .map_err(|e| invalid(e.to_string()))
    }

    /// The board reached by a transcript (`"f5d6c3"`; passes implicit or as `pass`/`PA`)
    /// from the start position of side `size`.
    #[staticmethod]
    #[pyo3(signature = (transcript, size = 8))]
    fn from_transcript(transcript: &str, size: usize) -> PyResult<PyBoard> {
        let start = PyBoard::new(size)?.position;
        let (position, moves) = start.play_transcript(transcript).map_err(invalid)?;
        Ok(PyBoard { position, moves })
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
    /// numpy arrays included; `rows[0][0]` is a1, `rows[r][c]` row `r + 1`, column `c`.
    #[staticmethod]
    #[pyo3(signature = (rows, turn = None))]
    fn from_array(rows: &Bound<'_, PyAny>, turn: Option<&Bound<'_, PyAny>>) -> PyResult<PyBoard> {
        let color = turn.map(read_color).transpose()?.unwrap_or(Color::Black);
        let mut squares = String::new();
        let mut size = 0;
        for (r, row) in rows.try_iter().map_err(invalid)?.enumerate() {
            let mut cells = 0;
            for cell in row?.try_iter().map_err(invalid)? {
                let cell = cell?;
                squares.push(match cell.extract::<i64>() {
                    Ok(0) => '-',
                    Ok(1) => 'X',
                    Ok(2) => 'O',
                    _ => {
                        return Err(invalid(format!(
                            "row {r}, column {cells} is {cell}: expected 0, 1 (Black) or 2 (White)"
                        )))
                    }
                });
                cells += 1;
            }
            if r > 0 && cells != size {
                return Err(invalid(format!(
                    "row {r} has {cells} cells, row 0 has {size}: the board is not square"
                )));
            }
            size = cells;
        }
        if !SIZES.contains(&size) || squares.len() != size * size {
            return Err(invalid(format!(
                "the array is {} rows of {size}: expected a square of side 6, 8, 10 or 12",
                squares.len().checked_div(size).unwrap_or(0)
            )));
        }
        let side = color.disc_char().to_string();
        PyBoard::from_squares(&squares, &side)
    }

    /// Squares per side.
    #[getter]
    fn size(&self) -> usize {
        self.position.size()
    }

    /// The side to move: `"black"` or `"white"`.
    #[getter]
    fn turn(&self) -> String {
        self.position.to_move.to_string()
    }

    /// The legal moves as the protocol names them (`"f5"`); `["pass"]` when the mover must
    /// pass; empty when the game is over.
    fn legal_moves<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        let names = move_names(py);
        let size = self.position.size();
        let moves = self.position.board.moves();
        if moves.is_empty() {
            let pass = (!self.position.is_game_over()).then(|| names[PASS].bind(py));
            return PyList::new(py, pass);
        }
        PyList::new(
            py,
            moves
                .into_iter()
                .map(|i| names[i / size * MAX_SIZE + i % size].bind(py)),
        )
    }

    /// Plays `move` (a square such as `"f5"`, or `"pass"`) for the side to move; raises
    /// IllegalMoveError, leaving the board as it was, if it is not legal.
    fn play(&mut self, r#move: &str) -> PyResult<()> {
        let mv = self.parse_move(r#move)?;
        let size = self.position.size();
        // The common case first: a legal move on a square (the game then goes on).
        let index = match mv {
            Move::Play(square) => square.index(size),
            Move::Pass => None,
        };
        self.position = match index {
            Some(i) if self.position.board.is_legal(i) => Position {
                board: self.position.board.play(i),
                to_move: self.position.to_move.opponent(),
            },
            _ => self
                .position
                .play(mv)
                .map_err(|e| IllegalMoveError::new_err(e.to_string()))?,
        };
        self.moves.push(mv);
        Ok(())
    }

    /// Whether `move` is legal for the side to move (malformed text is not).
    fn is_legal(&self, r#move: &str) -> bool {
        self.parse_move(r#move)
            .is_ok_and(|mv| self.position.play(mv).is_ok())
    }

    /// Whether neither side can move.
    fn is_game_over(&self) -> bool {
        self.position.is_game_over()
    }

    /// `"*"` while the game goes on; when it is over, Black's result as the protocol gives
    /// it: `"B+12"`, `"W+4"` or `"0"` (empty squares go to the winner).
    fn result(&self) -> String {
        if !self.position.is_game_over() {
            return "*".to_string();
        }
        let score = self.position.final_score_for(Color::Black);
        match score.signum() {
            1 => format!("B+{score}"),
            -1 => format!("W+{}", -score),
            _ => "0".to_string(),
        }
    }

    /// Discs of each colour: `(black, white)`.
    fn discs(&self) -> (u32, u32) {
        (
            self.position.count(Color::Black),
            self.position.count(Color::White),
        )
    }

    /// The protocol's square string: `X` Black, `O` White, `-` empty, a1, b1, ... row by row.
    fn squares(&self) -> String {
        self.position.squares_string()
    }

    /// The side to move as the protocol writes it: `"X"` (Black) or `"O"` (White).
    fn side(&self) -> String {
        self.position.to_move.disc_char().to_string()
    }

    /// The moves played since the board was set up, as a transcript (passes implicit).
    fn transcript(&self) -> String {
        transcript(&self.moves)
    }

    /// Rows of 0 (empty), 1 (Black), 2 (White); `[0][0]` is a1. `numpy.array(...)` of it
    /// is the array course simulators use.
    fn to_array(&self) -> Vec<Vec<u32>> {
        let size = self.position.size();
        (0..size)
            .map(|row| {
                (0..size)
                    .map(|col| match self.position.disc(row * size + col) {
                        None => 0,
                        Some(Color::Black) => 1,
                        Some(Color::White) => 2,
                    })
                    .collect()
            })
            .collect()
    }

    /// Leaves of the game tree `depth` plies below (a forced pass is a ply; a game that
    /// ends earlier adds nothing further), counted without holding the GIL.
    fn perft(&self, py: Python<'_>, depth: u32) -> u64 {
        let board = self.position.board;
        py.allow_threads(move || perft_any(&board, depth, Convention::EndedDropOut))
    }

    /// An independent copy (its transcript too).
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
            .is_ok_and(|other| other.borrow().position == self.position)
    }

    fn __hash__(&self) -> u64 {
        let side = self.position.to_move as u64;
        self.position.board.hash_key() ^ side.wrapping_mul(0x9e37_79b9_7f4a_7c15)
    }

    /// The board as a grid, row 1 on top, then who is to move or the result.
    fn __str__(&self) -> String {
        let size = self.position.size();
        let letters: String = (0..size)
            .map(|c| format!(" {}", (b'a' + c as u8) as char))
            .collect();
        let mut text = format!("  {letters}\n");
        for row in 0..size {
            text.push_str(&format!("{:>2}", row + 1));
            for col in 0..size {
                let disc = self.position.disc(row * size + col);
                text.push(' ');
                text.push(disc.map_or('-', Color::disc_char));
            }
            text.push('\n');
        }
        if self.position.is_game_over() {
            text.push_str(&format!("game over: {}", self.result()));
        } else {
            text.push_str(&format!("{} to move", self.position.to_move));
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

/// A search's report for Python: move, score in discs for the mover, depth, nodes,
/// principal variation, exact, book, seconds.
type Report = (String, f64, u32, u64, Vec<String>, bool, bool, f64);

fn report(report: &SearchReport) -> Report {
    (
        report.best.to_string(),
        report.score.discs(),
        report.depth,
        report.nodes,
        report.pv.iter().map(Move::to_string).collect(),
        report.exact,
        report.book,
        report.elapsed.as_secs_f64(),
    )
}

/// One move's value: move, score in discs for the mover, exact, depth, book.
type Scored = (String, f64, bool, u32, bool);

fn scored(score: &MoveScore) -> Scored {
    (
        score.mv.to_string(),
        score.score.discs(),
        score.exact,
        score.depth,
        score.book,
    )
}

/// Seconds from Python, refused when negative or not finite.
fn duration(seconds: Option<f64>, what: &str) -> PyResult<Option<Duration>> {
    seconds
        .map(|s| {
            Duration::try_from_secs_f64(s)
                .map_err(|_| PyValueError::new_err(format!("{what} {s}: expected seconds >= 0")))
        })
        .transpose()
}

/// The engine, in-process. Searches run without the GIL; [`EngineCore::stop`] ends one from
/// any thread.
#[pyclass(module = "emilia._emilia")]
struct EngineCore {
    engine: Arc<Mutex<Engine>>,
    stopper: Stopper,
    /// Whether a search is under way, so that a stop with none under way shortens no later
    /// search.
    searching: Arc<AtomicBool>,
}

impl EngineCore {
    /// Runs `search` on the engine without the GIL, marking it under way; afterwards every
    /// stop it received is marked handled.
    fn run<T: Send>(
        &self,
        py: Python<'_>,
        board: &PyBoard,
        search: impl FnOnce(&mut Engine, &Position) -> T + Send,
    ) -> PyResult<T> {
        let position = board.position;
        if position.is_game_over() {
            return Err(GameOverError::new_err(
                "game over: neither side can move, there is nothing to search",
            ));
        }
        let (engine, stopper, searching) = (&self.engine, &self.stopper, &self.searching);
        py.allow_threads(move || {
            let mut engine = engine.lock().unwrap_or_else(|e| e.into_inner());
            searching.store(true, Ordering::SeqCst);
            let result = search(&mut engine, &position);
            searching.store(false, Ordering::SeqCst);
            while stopper.pending() {
                stopper.handled();
            }
            Ok(result)
        })
    }
}

#[pymethods]
impl EngineCore {
    /// An engine with `hash` MiB of tables, `threads` search threads (None: every core),
    /// the opening book (`"builtin"`, `"off"` or a file) and the evaluation (`"pattern"`,
    /// `"classic"`, `"squares"`).
    #[new]
    #[pyo3(signature = (threads = None, hash = 64, book = "builtin", eval = "pattern"))]
    fn new(
        py: Python<'_>,
        threads: Option<usize>,
        hash: usize,
        book: &str,
        eval: &str,
    ) -> PyResult<EngineCore> {
        if hash == 0 {
            return Err(OptionError::new_err("hash 0: expected at least 1 MiB"));
        }
        if threads == Some(0) {
            return Err(OptionError::new_err("threads 0: expected at least 1"));
        }
        let eval = eval.parse().map_err(OptionError::new_err)?;
        let book = match book {
            "builtin" => Source::BuiltIn,
            "off" => Source::Off,
            path => Source::File(path.into()),
        };
        let engine = py.allow_threads(move || {
            let mut engine = Engine::try_with_hash(hash).map_err(|e| e.to_string())?;
            let config = Config {
                threads: threads.unwrap_or(engine.config().threads),
                eval,
                book,
                ..engine.config().clone()
            };
            engine.configure(config).map_err(|e| e.to_string())?;
            Ok::<Engine, String>(engine)
        });
        let engine = engine.map_err(OptionError::new_err)?;
        Ok(EngineCore {
            stopper: engine.stopper(),
            engine: Arc::new(Mutex::new(engine)),
            searching: Arc::new(AtomicBool::new(false)),
        })
    }

    /// Sets an option by its protocol name and value (`"probcut"`, `"seed"`, ...), as the
    /// protocols' `setoption` does.
    fn set_option(&self, py: Python<'_>, name: &str, value: &str) -> PyResult<()> {
        let engine = &self.engine;
        py.allow_threads(|| {
            let mut engine = engine.lock().unwrap_or_else(|e| e.into_inner());
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
                .unwrap_or_else(|e| e.into_inner())
                .option(name)
        })
    }

    /// The move to play and its search's report.
    // One argument for each of Python's keyword arguments.
    #[allow(clippy::too_many_arguments)]
    #[pyo3(signature = (board, depth = None, time = None, nodes = None, clock = None, increment = None))]
    fn search(
        &self,
        py: Python<'_>,
        board: &PyBoard,
        depth: Option<u32>,
        time: Option<f64>,
        nodes: Option<u64>,
        clock: Option<f64>,
        increment: Option<f64>,
    ) -> PyResult<Report> {
        let limits = limits(depth, time, nodes, clock, increment)?;
        self.run(py, board, |engine, position| {
            report(&engine.search(position, &limits, &mut |_| {}))
        })
    }

    /// The best `count` moves with their values (book moves first), and the nodes and
    /// seconds the search took.
    #[pyo3(signature = (board, count, depth = None, time = None, nodes = None))]
    fn hint(
        &self,
        py: Python<'_>,
        board: &PyBoard,
        count: usize,
        depth: Option<u32>,
        time: Option<f64>,
        nodes: Option<u64>,
    ) -> PyResult<(Vec<Scored>, u64, f64)> {
        if count == 0 {
            return Err(PyValueError::new_err("multipv 0: expected at least 1"));
        }
        let limits = limits(depth, time, nodes, None, None)?;
        self.run(py, board, |engine, position| {
            let started = std::time::Instant::now();
            let mut searched = 0;
            let scores = engine.hint(position, count, &limits, &mut |report, _| {
                searched = report.nodes;
            });
            let scores = scores.iter().map(scored).collect();
            (scores, searched, started.elapsed().as_secs_f64())
        })
    }

    /// The exact result of the position, unless `time` or `nodes` cut the solve short.
    #[pyo3(signature = (board, time = None, nodes = None))]
    fn solve(
        &self,
        py: Python<'_>,
        board: &PyBoard,
        time: Option<f64>,
        nodes: Option<u64>,
    ) -> PyResult<Report> {
        let limits = limits(None, time, nodes, None, None)?;
        self.run(py, board, |engine, position| {
            report(&engine.solve(position, &limits, &mut |_| {}))
        })
    }

    /// Ends the search under way, from any thread: it returns at once with its best move
    /// so far. Does nothing when no search runs.
    fn stop(&self) {
        if self.searching.load(Ordering::SeqCst) {
            self.stopper.request();
        }
    }
}

fn limits(
    depth: Option<u32>,
    time: Option<f64>,
    nodes: Option<u64>,
    clock: Option<f64>,
    increment: Option<f64>,
) -> PyResult<Limits> {
    if depth == Some(0) {
        return Err(PyValueError::new_err("depth 0: expected at least 1"));
    }
    let clock = duration(clock, "clock")?.map(|remaining| Clock {
        increment: Duration::ZERO,
        ..Clock::sudden_death(remaining)
    });
    let increment = duration(increment, "increment")?;
    Ok(Limits {
        depth,
        move_time: duration(time, "time")?,
        nodes,
        clock: clock.map(|c| Clock {
            increment: increment.unwrap_or(c.increment),
            ..c
        }),
        ..Limits::default()
    })
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
    Ok(())
}
