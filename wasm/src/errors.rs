//! Core errors → JavaScript `Error`s with `name`, `code` and location data.
//!
//! The `name` is the error family (`PolicyError`, `HandleError`, …) so hosts
//! can branch on it; the JS entry re-parents these objects onto exported
//! `HolarynError` subclasses so `instanceof` works too.

use holaryn_core::{Error, ErrorCode};
use js_sys::{Array, Reflect};
use wasm_bindgen::JsValue;

/// The JS class name for an error code.
pub fn family(code: ErrorCode) -> &'static str {
    let s = code.as_str();
    match s.split('.').next().unwrap_or("") {
        "descriptor" => "DescriptorError",
        "catalog" => "CatalogError",
        "tool" | "provider" => "ToolError",
        "handle" => "HandleError",
        "session" => "SessionError",
        "policy" => "PolicyError",
        "input" => "InputError",
        "config" => "ConfigError",
        "code" => "CodeError",
        _ => "HolarynError",
    }
}

fn set(obj: &JsValue, key: &str, value: JsValue) {
    // Setting a property on a fresh Error object cannot fail.
    let _ = Reflect::set(obj, &JsValue::from_str(key), &value);
}

/// Build the JS error for a core error.
pub fn to_js(err: &Error) -> JsValue {
    let e = js_sys::Error::new(&err.to_string());
    e.set_name(family(err.code));
    let v: JsValue = e.into();
    set(&v, "code", JsValue::from_str(err.code.as_str()));
    set(&v, "detail", JsValue::from_str(&err.message));
    let opt = |k: &str, val: &Option<String>| {
        if let Some(s) = val {
            set(&v, k, JsValue::from_str(s));
        }
    };
    opt("tool", &err.tool);
    opt("field", &err.field);
    opt("file", &err.file);
    opt("pointer", &err.pointer);
    opt("nextAction", &err.next_action);
    if let Some(l) = err.line {
        set(&v, "line", JsValue::from_f64(l as f64));
    }
    if let Some(c) = err.column {
        set(&v, "column", JsValue::from_f64(c as f64));
    }
    if !err.suggestions.is_empty() {
        let arr: Array = err
            .suggestions
            .iter()
            .map(|s| JsValue::from_str(s))
            .collect();
        set(&v, "suggestions", arr.into());
    }
    v
}

/// A JS error for a bad argument at the boundary (wrong shape from JS).
pub fn input(message: impl Into<String>) -> JsValue {
    to_js(&Error::new(ErrorCode::InputInvalid, message))
}

/// Shorthand: map a core result's error to JS.
pub fn js<T>(r: holaryn_core::Result<T>) -> Result<T, JsValue> {
    r.map_err(|e| to_js(&e))
}
