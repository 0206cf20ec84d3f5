//! Values from JavaScript checked where they enter: a wrong type or range is refused with a
//! message naming the value, before any of it reaches the engine (whose checks are Rust's
//! and would otherwise show up as a panic or a fault in the bindings).

use wasm_bindgen::prelude::*;

/// `value` as a string, or an error naming what it is instead.
pub(crate) fn text(value: &JsValue, name: &str) -> Result<String, String> {
    value
        .as_string()
        .ok_or_else(|| format!("{name}: expected a string, got {}", describe(value)))
}

/// `value` as a whole number from `min` to `max`, or an error naming it.
pub(crate) fn whole(value: f64, name: &str, min: u32, max: u32) -> Result<u32, String> {
    if value.fract() == 0.0 && value >= f64::from(min) && value <= f64::from(max) {
        Ok(value as u32)
    } else {
        Err(format!(
            "{name}: {value} is not a whole number from {min} to {max}"
        ))
    }
}

/// A short description of a JavaScript value for a message: a string quoted and cut, a
/// number as written, otherwise its kind.
pub(crate) fn describe(value: &JsValue) -> String {
    if let Some(text) = value.as_string() {
        let cut: String = text.chars().take(60).collect();
        return format!("{cut:?}");
    }
    if let Some(number) = value.as_f64() {
        return number.to_string();
    }
    if value.is_function() {
        return "a function".to_string();
    }
    if value.is_undefined() {
        return "undefined".to_string();
    }
    if value.is_null() {
        return "null".to_string();
    }
    // Errors and other objects: their text (`Error: …`), cut.
    let shown = js_string(value).ok().and_then(|s| s.as_string());
    shown.map_or("a value with no text".to_string(), |s| {
        s.chars().take(200).collect()
    })
}

#[wasm_bindgen]
extern "C" {
    /// `String(value)`: JavaScript's own text of any value.
    #[wasm_bindgen(catch, js_name = String)]
    fn js_string(value: &JsValue) -> Result<JsValue, JsValue>;
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn whole_numbers_in_range_pass_and_others_are_named() {
        assert_eq!(whole(16.0, "level", 1, 20), Ok(16));
        for bad in [0.0, 21.0, 2.5, f64::NAN, f64::INFINITY, -1.0] {
            let error = whole(bad, "level", 1, 20).unwrap_err();
            assert!(error.starts_with(&format!("level: {bad} ")), "{error}");
        }
    }
}
