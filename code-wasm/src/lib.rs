//! The bounded-code compiler (`rustpython-parser` and the checker) as a
//! second WebAssembly module, so the default download carries no parser.
//!
//! One export, `compile(source, limitsJson)`, returns
//! `holaryn_code::encode`'s JSON: the checked program or the compile
//! error. The main module's core never trusts it: `holaryn_code::decode`
//! re-checks the structure against the session's own limits.

use holaryn_code::{compile as compile_program, encode, CodeLimits};
use wasm_bindgen::prelude::*;

/// Compile `source` under `limits` (a `CodeLimits` JSON object) into wire JSON.
#[wasm_bindgen]
pub fn compile(source: &str, limits: &str) -> Result<String, JsError> {
    let limits: CodeLimits =
        serde_json::from_str(limits).map_err(|e| JsError::new(&format!("bad limits: {e}")))?;
    Ok(encode(&compile_program(source, &limits)))
}
