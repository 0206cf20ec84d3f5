//! The engine on the page: searches and move values of a position given as a board string,
//! each finished iteration reported to a JavaScript function as JSON.

use std::cell::{RefCell, RefMut};
use std::time::Duration;

use emilia_core::board::{Board8, Position};
use emilia_core::book::packed::PackedBook;
use emilia_core::engine::Source;
use emilia_core::eval::pattern::PatternEval;
use emilia_core::search::Limits;
use emilia_core::{Config, Engine};
use wasm_bindgen::prelude::*;

use crate::{args, json};

#[wasm_bindgen]
extern "C" {
    /// A JavaScript function of one string, told of progress (`text => …`).
    pub type Listener;

    #[wasm_bindgen(method, catch, js_name = call)]
    fn call(this: &Listener, context: &JsValue, text: &str) -> Result<JsValue, JsValue>;
}

impl Listener {
    /// Calls the function with `text`; what it throws comes back as the error.
    pub fn tell(&self, text: &str) -> Result<(), JsValue> {
        self.call(&JsValue::NULL, text).map(|_| ())
    }
}

/// `value` as a progress function, or why not.
fn listener<'a>(value: &'a JsValue, name: &str) -> Result<&'a Listener, String> {
    if value.is_function() {
        Ok(value.unchecked_ref())
    } else {
        Err(format!(
            "{name}: expected a function, got {}",
            args::describe(value)
        ))
    }
}

/// Calls `progress` with each text until it throws; the first error is kept in `failed`
/// and stops the search (through `stopper`), which then answers with that error.
fn relay<'a>(
    progress: &'a Listener,
    failed: &'a mut Option<String>,
    stopper: emilia_core::engine::Stopper,
) -> impl FnMut(&str) + 'a {
    move |text| {
        if failed.is_some() {
            return;
        }
        if let Err(error) = progress.tell(text) {
            *failed = Some(format!(
                "the progress function threw: {}",
                args::describe(&error)
            ));
            stopper.stop();
        }
    }
}

/// A search or a hint of [`WebEngine`], as [`WebEngine::run_for_js`] runs it.
type Call = fn(&WebEngine, &str, &Limits, &mut dyn FnMut(&str)) -> Result<String, String>;

/// The engine of one page (or worker): its tables stay from search to search. Held in a
/// cell so that a call from inside a progress function is refused with a message, not
/// left to the bindings' borrow check.
#[wasm_bindgen]
pub struct WebEngine {
    engine: RefCell<Engine>,
}

/// Deepest search a caller may ask for: every empty square of the largest board.
pub const MAX_DEPTH: u32 = 144;
/// Longest search a caller may ask for, in milliseconds (an hour).
pub const MAX_MILLIS: f64 = 3_600_000.0;
/// Largest table a caller may ask for, in MiB.
pub const MAX_HASH_MIB: usize = 1024;

/// The limits of one search: `depth` plies, `level` (a depth in the midgame and the end of
/// the game from a few more empties, [`Limits::level`]) or `millis` milliseconds; 0 for
/// none. Refused, naming the value, outside 0 to [`MAX_DEPTH`] whole plies and 0 to
/// [`MAX_MILLIS`] milliseconds.
pub fn limits(depth: f64, level: f64, millis: f64) -> Result<Limits, String> {
    let depth = args::whole(depth, "depth", 0, MAX_DEPTH)?;
    let level = args::whole(level, "level", 0, MAX_DEPTH)?;
    if !(0.0..=MAX_MILLIS).contains(&millis) {
        return Err(format!(
            "millis: {millis} is not a time from 0 to {MAX_MILLIS} milliseconds"
        ));
    }
    Ok(Limits {
        depth: (depth > 0).then_some(depth),
        level: (level > 0).then_some(level),
        move_time: (millis > 0.0).then(|| Duration::from_secs_f64(millis / 1000.0)),
        ..Limits::default()
    })
}

/// The position of a board string, refused when it is malformed or the game is over.
fn playable(board: &str) -> Result<Position, String> {
    let position: Position = board.parse().map_err(|e| format!("{e}"))?;
    if position.is_game_over() {
        return Err("the game is over: neither side can move".to_string());
    }
    Ok(position)
}

impl WebEngine {
    /// An engine with `hash_mib` MiB of tables, searching on one thread, with the built-in
    /// opening book (8x8) when `book`.
    pub fn create(hash_mib: usize, book: bool) -> Result<WebEngine, String> {
        if !(1..=MAX_HASH_MIB).contains(&hash_mib) {
            return Err(format!(
                "hash: {hash_mib} MiB is not from 1 to {MAX_HASH_MIB}"
            ));
        }
        // In WebAssembly the files come from the page (files.rs): an engine is not made
        // without them, rather than playing on without its evaluation or book.
        if let Err(e) = PatternEval::embedded() {
            return Err(format!("no 8x8 weights ({e}): supply emilia.weights first"));
        }
        if book && PackedBook::embedded().scores(&Board8::START).is_none() {
            return Err("no book: supply emilia.book first, or make the engine without one".into());
        }
        let engine = Engine::new(Config {
            hash_mib,
            threads: 1,
            book: if book { Source::BuiltIn } else { Source::Off },
            ..Config::default()
        })
        .map_err(|e| e.to_string())?;
        Ok(WebEngine {
            engine: RefCell::new(engine),
        })
    }

    /// The engine for one call, refused while another call (from a progress function)
    /// holds it.
    fn engine(&self) -> Result<RefMut<'_, Engine>, String> {
        self.engine.try_borrow_mut().map_err(|_| {
            "the engine is busy with a search: a progress function cannot call it".to_string()
        })
    }

    /// The move to play in `board` within `limits`, as JSON; `progress` gets each finished
    /// iteration's report.
    pub fn search_json(
        &self,
        board: &str,
        limits: &Limits,
        progress: &mut dyn FnMut(&str),
    ) -> Result<String, String> {
        let position = playable(board)?;
        let report = self
            .engine()?
            .search(&position, limits, &mut |r| progress(&json::report(r)));
        Ok(json::report(&report))
    }

    /// The value of every legal move of `board` within `limits` (the book's first), as
    /// JSON; `progress` gets them after each finished depth.
    pub fn hint_json(
        &self,
        board: &str,
        limits: &Limits,
        progress: &mut dyn FnMut(&str),
    ) -> Result<String, String> {
        let position = playable(board)?;
        let count = position.legal_moves().len();
        let mut last = None;
        let scores = self
            .engine()?
            .hint(&position, count, limits, &mut |report, scores| {
                progress(&json::hint(report, scores));
                last = Some(report.clone());
            });
        let report = last.ok_or("the search finished no depth")?;
        Ok(json::hint(&report, &scores))
    }

    /// Runs `call` (a search or hint) for JavaScript: the arguments checked, progress
    /// relayed until the function throws, and every failure a JavaScript error.
    fn run_for_js(
        &self,
        board: &JsValue,
        (depth, millis, level): (f64, f64, Option<f64>),
        progress: &JsValue,
        call: Call,
    ) -> Result<String, JsError> {
        let checked = || -> Result<String, String> {
            let board = args::text(board, "board")?;
            let limits = limits(depth, level.unwrap_or(0.0), millis)?;
            let progress = listener(progress, "progress")?;
            let stopper = self.engine()?.stopper();
            let mut failed = None;
            let answer = call(
                self,
                &board,
                &limits,
                &mut relay(progress, &mut failed, stopper),
            );
            match failed {
                Some(error) => Err(error),
                None => answer,
            }
        };
        checked().map_err(|e| JsError::new(&e))
    }
}

#[wasm_bindgen]
impl WebEngine {
    /// [`WebEngine::create`] for JavaScript: `hash_mib` a whole number from 1 to
    /// [`MAX_HASH_MIB`].
    #[wasm_bindgen(constructor)]
    pub fn new(hash_mib: f64, book: bool) -> Result<WebEngine, JsError> {
        let hash =
            args::whole(hash_mib, "hash", 1, MAX_HASH_MIB as u32).map_err(|e| JsError::new(&e))?;
        WebEngine::create(hash as usize, book).map_err(|e| JsError::new(&e))
    }

    /// [`WebEngine::search_json`] for JavaScript: `depth` plies and `millis` milliseconds
    /// (0 for none), `progress` a function of one string, `level` (optional) a playing
    /// level. Bad values are refused with an error naming them, and the engine stays usable.
    pub fn search(
        &self,
        board: &JsValue,
        depth: f64,
        millis: f64,
        progress: &JsValue,
        level: Option<f64>,
    ) -> Result<String, JsError> {
        self.run_for_js(board, (depth, millis, level), progress, Self::search_json)
    }

    /// [`WebEngine::hint_json`] for JavaScript, with the arguments of [`WebEngine::search`].
    pub fn hint(
        &self,
        board: &JsValue,
        depth: f64,
        millis: f64,
        progress: &JsValue,
        level: Option<f64>,
    ) -> Result<String, JsError> {
        self.run_for_js(board, (depth, millis, level), progress, Self::hint_json)
    }

    /// Forgets what earlier searches learned.
    pub fn clear(&self) -> Result<(), JsError> {
        self.engine()
            .map(|mut engine| engine.clear_hash())
            .map_err(|e| JsError::new(&e))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn searches_and_hints_answer_json_and_refuse_bad_boards() {
        let engine = WebEngine::create(8, false).unwrap();
        let depth = |d: f64| limits(d, 0.0, 0.0).unwrap();
        let start = Position::start(8).unwrap().to_string();
        let mut seen = Vec::new();
        let report = engine
            .search_json(&start, &depth(4.0), &mut |t| seen.push(t.to_string()))
            .unwrap();
        assert!(report.contains("\"depth\":4"), "{report}");
        assert_eq!(seen.len(), 4, "one report an iteration");
        let hint = engine.hint_json(&start, &depth(3.0), &mut |_| {}).unwrap();
        for square in ["d3", "c4", "f5", "e6"] {
            assert!(hint.contains(&format!("\"move\":\"{square}\"")), "{hint}");
        }
        assert!(engine
            .search_json("XO X", &depth(4.0), &mut |_| {})
            .is_err());
        let over = format!("{} X", "X".repeat(64));
        let err = engine
            .hint_json(&over, &depth(3.0), &mut |_| {})
            .unwrap_err();
        assert!(err.contains("over"), "{err}");
    }

    #[test]
    fn limits_out_of_range_are_refused_naming_the_value() {
        for (depth, level, millis, named) in [
            (-1.0, 0.0, 0.0, "depth: -1"),
            (2.5, 0.0, 0.0, "depth: 2.5"),
            (f64::NAN, 0.0, 0.0, "depth: NaN"),
            (1000.0, 0.0, 0.0, "depth: 1000"),
            (0.0, 21e9, 0.0, "level: 21000000000"),
            (2.0, 0.0, f64::INFINITY, "millis: inf"),
            (2.0, 0.0, -5.0, "millis: -5"),
            (2.0, 0.0, f64::NAN, "millis: NaN"),
        ] {
            let error = limits(depth, level, millis).unwrap_err();
            assert!(error.starts_with(named), "{error}");
        }
        let ok = limits(12.0, 16.0, 1500.0).unwrap();
        assert_eq!((ok.depth, ok.level), (Some(12), Some(16)));
        assert_eq!(ok.move_time, Some(Duration::from_millis(1500)));
        assert!(WebEngine::create(0, false).is_err());
    }

    #[test]
    fn a_call_during_a_search_is_refused_and_the_engine_stays_usable() {
        let engine = WebEngine::create(8, false).unwrap();
        let start = Position::start(8).unwrap().to_string();
        let depth = limits(3.0, 0.0, 0.0).unwrap();
        let mut inner = None;
        engine
            .search_json(&start, &depth, &mut |_| {
                inner.get_or_insert_with(|| engine.search_json(&start, &depth, &mut |_| {}));
            })
            .unwrap();
        assert!(inner.unwrap().unwrap_err().contains("busy"));
        assert!(engine.search_json(&start, &depth, &mut |_| {}).is_ok());
    }
}
