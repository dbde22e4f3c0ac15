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
pub mod availability;
pub mod builtin;
pub mod catalog;
pub mod code;
pub mod config;
pub mod content;
pub mod deferred;
pub mod discovery;
pub mod embeddings;
pub mod formats;
pub mod gate;
pub mod handle;
pub mod jsonschema;
pub mod model_call;
pub mod pattern;
pub mod policy;
pub mod registry;
pub mod runtime;
pub mod semantic;
pub mod session;
pub mod skipped;
pub mod validate;

// Internals: reached only through the items re-exported here and the methods
// of `Runtime`.
mod inspect;
mod schema_check;
mod schemas;
mod version_tree;

// The public API at the crate root. The shared vocabulary comes from
// `holaryn-model` and is re-exported here for hosts that depend on the core only.
pub use activity::{ActivityKind, ActivityRecord};
pub use availability::{Availability, AvailabilityState};
pub use code::{CodeLimits, CodeResult, CodeStatus};
pub use deferred::{ExportMode, ExportOptions};
pub use gate::{
    ApprovalAnswer, ApprovalRequest, CallOutcome, CallPath, CallStatus, ExecAnswer, ExecuteRequest,
    GateStep, HookAnswer, HookPhase, HookRequest, ScreenAnswer, ScreenRequest, Stage,
};
pub use holaryn_model::{
    json_len, meaning, Code, Error, ErrorCode, Meaning, Result, Source, ToolDescriptor, ToolSpec,
    RUNTIME_PROVIDER, RUNTIME_TOOL_NAMES,
};
pub use inspect::Resolved;
pub use policy::{Decision, Policy, Scope};
pub use registry::{Registry, RegistryChange};
pub use runtime::{Event, Runtime};
pub use schema_check::Uncompilable;
pub use schemas::SchemaPool;
pub use session::{PolicyFile, SessionOptions};
pub use version_tree::VersionTree;
