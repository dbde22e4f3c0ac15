//! serde ⇄ JS conversions for boundary types, through `JSON` so that key
//! order, integers and `toJSON` behave exactly as JavaScript developers expect.

use serde::de::DeserializeOwned;
use serde::Serialize;
use wasm_bindgen::JsValue;

/// Serialise to a plain JS value via `JSON.parse`.
pub fn to_js<T: Serialize + ?Sized>(value: &T) -> Result<JsValue, JsValue> {
    let text = serde_json::to_string(value)
        .map_err(|e| crate::errors::input(format!("cannot convert to JavaScript: {e}")))?;
    js_sys::JSON::parse(&text)
}

/// Deserialise from a JS value via `JSON.stringify`; `what` names the argument in errors.
pub fn from_js<T: DeserializeOwned>(value: JsValue, what: &str) -> Result<T, JsValue> {
    let text = stringify(&value, what)?;
    serde_json::from_str(&text).map_err(|e| crate::errors::input(format!("invalid {what}: {e}")))
}

/// A JS value as `serde_json::Value` (undefined → null).
pub fn json(value: JsValue, what: &str) -> Result<serde_json::Value, JsValue> {
    if value.is_undefined() {
        return Ok(serde_json::Value::Null);
    }
    from_js(value, what)
}

/// Model-supplied input (call arguments, a model tool call, discovery-tool
/// input) as `serde_json::Value`; lone surrogates and over-long integers
/// become markers the core refuses with their pointer (see
/// `holaryn_core::args`) instead of a parse error about serialised JSON.
pub fn json_marked(value: JsValue, what: &str) -> Result<serde_json::Value, JsValue> {
    json_marked_within(value, what, u64::MAX)
}

/// [`json_marked`] for input under a size cap: JSON text over `cap` bytes is
/// not parsed; it becomes `holaryn_model::oversized_marker`, which the gate
/// refuses as `args.too_large` (the cap is the session's, from the core).
pub fn json_marked_within(
    value: JsValue,
    what: &str,
    cap: u64,
) -> Result<serde_json::Value, JsValue> {
    let text = stringify(&value, what)?;
    if text.len() as u64 > cap {
        return Ok(holaryn_model::oversized_marker(text.len()));
    }
    let text = holaryn_model::mark_json_text(&text);
    serde_json::from_str(&text).map_err(|e| crate::errors::input(format!("invalid {what}: {e}")))
}

#[wasm_bindgen::prelude::wasm_bindgen]
extern "C" {
    /// The platform's UTF-8 encoder.
    type TextEncoder;
    #[wasm_bindgen(constructor)]
    fn new() -> TextEncoder;
    #[wasm_bindgen(method)]
    fn encode(this: &TextEncoder, text: &js_sys::JsString) -> Vec<u8>;
}

/// A JS value's JSON text (`JSON.stringify`; undefined → `null`), brought
/// over as `TextEncoder` bytes: one native encode and copy, where passing a
/// JS string walks a long ASCII text one character at a time in JS
/// (registering 10,000 tools passes ~22 MB).
pub fn json_text(value: &JsValue, what: &str) -> Result<String, JsValue> {
    if value.is_undefined() {
        return Ok("null".into());
    }
    let not_json = || crate::errors::input(format!("{what} is not JSON-serialisable"));
    let text = js_sys::JSON::stringify(value).map_err(|_| not_json())?;
    if !text.is_string() {
        return Err(not_json());
    }
    String::from_utf8(TextEncoder::new().encode(&text)).map_err(|_| not_json())
}

/// A JS string brought over as [`json_text`] brings JSON text (lone
/// surrogates become U+FFFD, as passing a `&str` makes them); `what` names
/// it when it is no string.
pub fn text_of(text: &js_sys::JsString, what: &str) -> Result<String, JsValue> {
    if !text.is_string() {
        return Err(js_sys::TypeError::new(&format!("{what} must be a string")).into());
    }
    Ok(String::from_utf8(TextEncoder::new().encode(text))
        .unwrap_or_else(|e| String::from_utf8_lossy(e.as_bytes()).into_owned()))
}

fn stringify(value: &JsValue, what: &str) -> Result<String, JsValue> {
    if value.is_undefined() {
        return Ok("null".into());
    }
    let s = js_sys::JSON::stringify(value)
        .map_err(|_| crate::errors::input(format!("{what} is not JSON-serialisable")))?;
    s.as_string()
        .ok_or_else(|| crate::errors::input(format!("{what} is not JSON-serialisable")))
}
