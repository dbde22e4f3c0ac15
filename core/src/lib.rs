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
mod activity;
mod availability;
mod builtin;
mod catalog;
mod config;
mod content;
mod dialect;
mod embeddings;
mod formats;
mod gate;
mod gateway_config;
mod handle;
mod json_text;
mod policy;
mod registry;
mod runtime;
mod session;
mod snapshot;
mod validate;

// Internals: reached only through the items re-exported here and the methods
// of `Runtime`.
mod schema_check;
mod schemas;
mod version_tree;
mod working_set;

// The public API at the crate root. The shared vocabulary comes from
// `holaryn-model` and is re-exported here for hosts that depend on the core only.
pub use activity::{ActivityKind, ActivityRecord};
pub use availability::{availability, ApprovalReason, Availability, AvailabilityState};
pub use builtin::code_tool_entry;
pub use catalog::{
    parse_catalog, parse_catalog_text, parse_catalog_value, parse_provider_list, CatalogOptions,
    ParsedCatalog, ProviderList, Renamed,
};
pub use config::{resolve_switch, ENV_CODE_MODE, ENV_DYNAMIC};
pub use content::model_bytes;
pub use embeddings::{base64_decode, base64_encode, EmbeddingModel, Encoding};
pub use formats::{object_arguments_field, parse_call, result_shape};
pub use gate::{
    ApprovalAnswer, ApprovalRequest, CallState, ExecAnswer, ExecuteRequest, GateStep, HookAnswer,
    HookPhase, HookRequest, ScreenAnswer, ScreenRequest,
};
pub use gateway_config::{
    parse_gateway_config, ApprovalFallback, GatewayConfig, GatewayServer, GatewaySettings,
    ServerTransport, TextPosition, GATEWAY_SETTINGS,
};
pub use handle::{Binding, HandleTable, MIN_SECRET_BYTES};
pub use holaryn_code::{CodeLimits, CodeResult, CodeStatus};
pub use holaryn_model::{
    json_len, meaning, ArgError, CallOutcome, CallPath, CallStatus, Code, Error, ErrorCode,
    Meaning, Result, Source, Stage, ToolDescriptor, ToolSpec, RUNTIME_PROVIDER, RUNTIME_TOOL_NAMES,
};
pub use policy::{
    parse_patterns, parse_policy_file, CompiledPolicy, Decision, Pattern, Policy, Rules, Scope,
    POLICY_SCHEMA,
};
pub use registry::{Registry, RegistryChange, Update};
pub use runtime::api::{ExportMode, ExportOptions, Resolved, SearchOutput, ToolSummary};
pub use runtime::catalog_read::CatalogRead;
pub use runtime::deferred::reference_result;
pub use runtime::listed::list_elements;
pub use runtime::model_call::{Finish, GateCall, ModelCallStep, SearchCall};
pub use runtime::providers::{ListChange, ProviderSync};
pub use runtime::search_view::{SearchView, SummaryView};
pub use runtime::semantic::{EmbedFailure, EmbedRequest, EmbeddingStats, SearchStep, EMBED_BATCH};
pub use runtime::{Event, Runtime};
pub use schema_check::Uncompilable;
pub use schemas::SchemaPool;
pub use session::{PolicyFile, SessionOptions};
pub use snapshot::{FORMAT as SNAPSHOT_FORMAT, MAGIC as SNAPSHOT_MAGIC};
pub use validate::{parse_spec, parse_spec_owned};
pub use version_tree::VersionTree;
pub use working_set::{WorkingSet, MAX_WORKING_SET};
