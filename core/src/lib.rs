//! Holaryn core: the sans-IO heart of the capability runtime.
//!
//! No IO happens here: no clock, no randomness, no threads, no host calls.
//! Registry, policy, ranking, sessions, the execution gate and the bounded-code
//! interpreter are plain data and state machines. Where work needs the host
//! (approval, executing a tool, time, randomness for handle secrets), the core
//! returns an effect and the host resumes it with the answer.

#![forbid(unsafe_code)]
#![warn(missing_docs)]
// `Error` carries its location (file, pointer, line:column, suggestions) inline;
// errors are the cold path, so the size of `Result` is an accepted cost.
#![allow(clippy::result_large_err)]

// Modules a host reaches by path (the wasm crate, tests, fuzz targets and
// examples use them); their most used items are re-exported below.
pub mod activity;
pub mod args;
pub mod availability;
pub mod builtin;
pub mod catalog;
pub mod code;
pub mod config;
pub mod content;
pub mod deferred;
pub mod descriptor;
pub mod discovery;
pub mod embeddings;
pub mod error;
pub mod formats;
pub mod gate;
pub mod handle;
pub mod hash;
pub mod model_call;
pub mod policy;
pub mod registry;
pub mod runtime;
pub mod search;
pub mod semantic;
pub mod session;
pub mod skipped;
pub mod validate;

// Internals: reached only through the items re-exported here and the methods
// of `Runtime`.
mod codes;
mod inspect;
mod json_size;
mod names;
mod schema_check;
mod schemas;
mod version_tree;

// The public API at the crate root.
pub use activity::{ActivityKind, ActivityRecord};
pub use availability::{Availability, AvailabilityState};
pub use code::{CodeLimits, CodeResult, CodeStatus};
pub use codes::Code;
pub use deferred::{ExportMode, ExportOptions};
pub use descriptor::{Source, ToolDescriptor, ToolSpec};
pub use error::{Error, ErrorCode, Result};
pub use gate::{
    ApprovalAnswer, ApprovalRequest, CallOutcome, CallPath, CallStatus, ExecAnswer, ExecuteRequest,
    GateStep, HookAnswer, HookPhase, HookRequest, ScreenAnswer, ScreenRequest, Stage,
};
pub use inspect::Resolved;
pub use json_size::json_len;
pub use names::{meaning, Meaning, RUNTIME_PROVIDER, RUNTIME_TOOL_NAMES};
pub use policy::{Decision, Policy, Scope};
pub use registry::{Registry, RegistryChange};
pub use runtime::{Event, Runtime};
pub use schema_check::Uncompilable;
pub use schemas::SchemaPool;
pub use session::{PolicyFile, SessionOptions};
pub use version_tree::VersionTree;
