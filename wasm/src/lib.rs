//! WebAssembly bindings of the Holaryn capability runtime.
//!
//! The only crate that knows JavaScript: wasm-bindgen classes
//! ([`HolarynRuntime`], [`HolarynSession`]), Promise-returning host callbacks
//! awaited with wasm-bindgen-futures, AbortSignals, and typed errors with
//! stable codes. All logic lives in `holaryn-core`; this crate drives it.

// See holaryn-core: `Error` is large by design (location data inline).
#![allow(clippy::result_large_err)]

mod code;
mod convert;
mod driver;
mod embedder;
mod errors;
mod host;
mod runtime;
mod session;
mod shared;
mod snapshot;
mod types;
mod wire;

#[cfg(test)]
mod tests;

pub use runtime::HolarynRuntime;
pub use session::HolarynSession;
