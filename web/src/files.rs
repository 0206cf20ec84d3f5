//! The engine's data files, which the module does not carry: the page fetches each when a
//! board size first needs it (the 8x8 weights before the first engine, another size's
//! weights before a search on it, the book before an engine that plays from it) and hands
//! it over here, where it is read and checked at once so that a bad file is refused with a
//! message instead of leaving an engine without its evaluation.

use wasm_bindgen::prelude::*;

use crate::args;

/// Hands the shipped file `name` (`emilia.weights`, `emilia-6.weights`, `emilia-10.weights`,
/// `emilia-12.weights` or `emilia.book`) to the engine; a file supplied again changes
/// nothing.
#[wasm_bindgen(js_name = supplyFile)]
pub fn supply_file(name: &JsValue, bytes: Vec<u8>) -> Result<(), JsError> {
    supply(name, bytes).map_err(|e| JsError::new(&e))
}

fn supply(name: &JsValue, bytes: Vec<u8>) -> Result<(), String> {
    use emilia_core::board::Board8;
    use emilia_core::book::packed::PackedBook;
    use emilia_core::eval::grid_pattern::GridPatternEval;
    use emilia_core::eval::pattern::PatternEval;

    let name = args::text(name, "file")?;
    emilia_core::platform::supply_file(&name, bytes).map_err(|e| format!("file: {e}"))?;
    let refused = |why: String| format!("{name}: {why}");
    match name.as_str() {
        "emilia.weights" => PatternEval::embedded()
            .map(|_| ())
            .map_err(|e| refused(e.to_string())),
        "emilia.book" => match PackedBook::embedded().scores(&Board8::START) {
            Some(_) => Ok(()),
            None => Err(refused("not a book of the start position".to_string())),
        },
        _ => {
            let size = name
                .trim_start_matches("emilia-")
                .trim_end_matches(".weights")
                .parse()
                .unwrap_or(0);
            match GridPatternEval::built_in(size) {
                Some(_) => Ok(()),
                None => Err(refused(format!("not {size}x{size} weights"))),
            }
        }
    }
}
