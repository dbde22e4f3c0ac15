//! The bounded-code compiler is not in this module: it is the separate code
//! module (`code-wasm/`, with the Python parser), which the JS entry loads
//! when a session enables bounded code mode and hands over once with
//! `setCodeCompiler`. Every runtime asks it through [`compiler`]; its answer
//! is JSON that the core re-checks (`holaryn_code::decode`).

use holaryn_code::{CodeLimits, Compiler};
use std::cell::RefCell;
use wasm_bindgen::prelude::*;

thread_local! {
    /// The code module's `compile(source, limitsJson) -> string`, once loaded.
    static COMPILE: RefCell<Option<js_sys::Function>> = const { RefCell::new(None) };
}

/// Install the code module's `compile` function (internal: the JS entry calls it).
#[wasm_bindgen(js_name = setCodeCompiler)]
pub fn set_code_compiler(compile: js_sys::Function) {
    COMPILE.with(|c| *c.borrow_mut() = Some(compile));
}

/// Whether a code module is installed.
#[wasm_bindgen(js_name = hasCodeCompiler)]
pub fn has_code_compiler() -> bool {
    COMPILE.with(|c| c.borrow().is_some())
}

/// The core's view of the installed code module (asked at run time, so a
/// module loaded after the runtime was made is used too).
pub(crate) fn compiler() -> Compiler {
    Compiler(Box::new(|source: &str, limits: &CodeLimits| {
        let compile = COMPILE
            .with(|c| c.borrow().clone())
            .ok_or("the code module is not loaded")?;
        let limits = serde_json::to_string(limits).map_err(|e| e.to_string())?;
        let answer = compile
            .call2(&JsValue::NULL, &source.into(), &limits.into())
            .map_err(|e| {
                let msg = js_sys::Reflect::get(&e, &"message".into())
                    .ok()
                    .and_then(|m| m.as_string());
                format!(
                    "the code module failed: {}",
                    msg.unwrap_or_else(|| "no message".into())
                )
            })?;
        answer
            .as_string()
            .ok_or_else(|| "the code module answered something other than a string".into())
    }))
}
