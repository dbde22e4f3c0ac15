//! `rt.snapshot()` and `HolarynRuntime.restore(bytes, options)`: bytes in
//! and out of the core's snapshot (`core/src/snapshot`), stamped with the
//! build id the JS entry installs once (`setBuild`: the package version and
//! the digest of this wasm file, written by scripts/build.sh).

use crate::errors::js;
use crate::runtime::{HolarynRuntime, RuntimeOptions};
use holaryn_core::Runtime;
use std::cell::RefCell;
use wasm_bindgen::prelude::*;

thread_local! {
    /// The build id snapshots are stamped with and checked against.
    static BUILD: RefCell<String> = RefCell::new(concat!(env!("CARGO_PKG_VERSION"), "+unstamped").into());
}

/// Install the build id (internal: the JS entry calls it with the one scripts/build.sh wrote).
#[wasm_bindgen(js_name = setBuild)]
pub fn set_build(build: &str) {
    BUILD.with(|b| *b.borrow_mut() = build.to_string());
}

fn build() -> String {
    BUILD.with(|b| b.borrow().clone())
}

#[wasm_bindgen]
impl HolarynRuntime {
    /// The registry, search index, embeddings and the options that shaped
    /// them as bytes to keep; `HolarynRuntime.restore` takes them back.
    /// Sessions, their policies, secrets and handles are not in it.
    pub fn snapshot(&self) -> Result<Vec<u8>, JsValue> {
        Ok(self.shared.core_ref()?.snapshot(&build()))
    }

    /// A runtime from a snapshot of this build, with no session; a
    /// `SnapshotError` (`snapshot.refused`) when the bytes are not one,
    /// changed, or from another build or format: register the tools instead.
    pub fn restore(
        bytes: &[u8],
        #[wasm_bindgen(unchecked_optional_param_type = "RuntimeOptions")] options: JsValue,
    ) -> Result<HolarynRuntime, JsValue> {
        let opts = RuntimeOptions::of(options)?;
        let rt = js(Runtime::restore(bytes, &build(), opts.require_input_schema))?;
        Ok(HolarynRuntime::around(rt, &opts))
    }
}
