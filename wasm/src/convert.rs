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

fn stringify(value: &JsValue, what: &str) -> Result<String, JsValue> {
    if value.is_undefined() {
        return Ok("null".into());
    }
    let s = js_sys::JSON::stringify(value)
        .map_err(|_| crate::errors::input(format!("{what} is not JSON-serialisable")))?;
    s.as_string()
        .ok_or_else(|| crate::errors::input(format!("{what} is not JSON-serialisable")))
}
