//! The engine on the page: searches and move values of a position given as a board string,
//! each finished iteration reported to a JavaScript function as JSON.

use std::time::Duration;

use emilia::board::Position;
use emilia::engine::Engine;
use emilia::search::Limits;
use wasm_bindgen::prelude::*;

use crate::json;

#[wasm_bindgen]
extern "C" {
    /// A JavaScript function of one string, told of progress (`text => …`).
    pub type Listener;

    #[wasm_bindgen(method, js_name = call)]
    fn call(this: &Listener, context: &JsValue, text: &str);
}

impl Listener {
    /// Calls the function with `text`.
    pub fn tell(&self, text: &str) {
        self.call(&JsValue::NULL, text);
    }
}

/// The engine of one page (or worker): its tables stay from search to search.
#[wasm_bindgen]
pub struct WebEngine {
    engine: Engine,
}

/// The limits of one search: `depth` plies, or `millis` milliseconds; 0 for none.
fn limits(depth: u32, millis: f64) -> Limits {
    Limits {
        depth: (depth > 0).then_some(depth),
        move_time: (millis > 0.0).then(|| Duration::from_secs_f64(millis / 1000.0)),
        ..Limits::default()
    }
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
        let mut engine = if book {
            Engine::try_with_hash(hash_mib).map_err(|e| e.to_string())?
        } else {
            Engine::without_book(hash_mib)
        };
        engine
            .set_option("threads", "1")
            .map_err(|e| e.to_string())?;
        Ok(WebEngine { engine })
    }

    /// The move to play in `board` within the limits, as JSON; `progress` gets each
    /// finished iteration's report.
    pub fn search_json(
        &mut self,
        board: &str,
        depth: u32,
        millis: f64,
        progress: &mut dyn FnMut(&str),
    ) -> Result<String, String> {
        let position = playable(board)?;
        let report = self
            .engine
            .search(&position, &limits(depth, millis), &mut |r| {
                progress(&json::report(r))
            });
        Ok(json::report(&report))
    }

    /// The value of every legal move of `board` within the limits (the book's first), as
    /// JSON; `progress` gets them after each finished depth.
    pub fn hint_json(
        &mut self,
        board: &str,
        depth: u32,
        millis: f64,
        progress: &mut dyn FnMut(&str),
    ) -> Result<String, String> {
        let position = playable(board)?;
        let count = position.legal_moves().len();
        let mut last = None;
        let scores = self.engine.hint(
            &position,
            count,
            &limits(depth, millis),
            &mut |report, scores| {
                progress(&json::hint(report, scores));
                last = Some(report.clone());
            },
        );
        let report = last.ok_or("the search finished no depth")?;
        Ok(json::hint(&report, &scores))
    }
}

#[wasm_bindgen]
impl WebEngine {
    /// [`WebEngine::create`] for JavaScript.
    #[wasm_bindgen(constructor)]
    pub fn new(hash_mib: usize, book: bool) -> Result<WebEngine, JsError> {
        WebEngine::create(hash_mib, book).map_err(|e| JsError::new(&e))
    }

    /// [`WebEngine::search_json`] for JavaScript.
    pub fn search(
        &mut self,
        board: &str,
        depth: u32,
        millis: f64,
        progress: &Listener,
    ) -> Result<String, JsError> {
        self.search_json(board, depth, millis, &mut |text| progress.tell(text))
            .map_err(|e| JsError::new(&e))
    }

    /// [`WebEngine::hint_json`] for JavaScript.
    pub fn hint(
        &mut self,
        board: &str,
        depth: u32,
        millis: f64,
        progress: &Listener,
    ) -> Result<String, JsError> {
        self.hint_json(board, depth, millis, &mut |text| progress.tell(text))
            .map_err(|e| JsError::new(&e))
    }

    /// Forgets what earlier searches learned.
    pub fn clear(&mut self) {
        self.engine.clear_hash();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn searches_and_hints_answer_json_and_refuse_bad_boards() {
        let mut engine = WebEngine::create(8, false).unwrap();
        let start = Position::start(8).unwrap().to_string();
        let mut seen = Vec::new();
        let report = engine
            .search_json(&start, 4, 0.0, &mut |t| seen.push(t.to_string()))
            .unwrap();
        assert!(report.contains("\"depth\":4"), "{report}");
        assert_eq!(seen.len(), 4, "one report an iteration");
        let hint = engine.hint_json(&start, 3, 0.0, &mut |_| {}).unwrap();
        for square in ["d3", "c4", "f5", "e6"] {
            assert!(hint.contains(&format!("\"move\":\"{square}\"")), "{hint}");
        }
        assert!(engine.search_json("XO X", 4, 0.0, &mut |_| {}).is_err());
        let over = format!("{} X", "X".repeat(64));
        let err = engine.hint_json(&over, 3, 0.0, &mut |_| {}).unwrap_err();
        assert!(err.contains("over"), "{err}");
    }
}
