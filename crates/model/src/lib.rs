//! The vocabulary every Holaryn crate shares, and nothing above it.
//!
//! Stable codes ([`Code`]) and errors ([`Error`]), tool descriptors as a host
//! supplies them and as the registry keeps them ([`ToolSpec`],
//! [`ToolDescriptor`]), the names the runtime reserves and the wire names
//! model APIs accept ([`meaning`], [`wire_names`]), what the gate says
//! happened to a call ([`CallOutcome`]), the model formats ([`Format`]),
//! arguments the runtime cannot pass on unchanged ([`unrepresentable`]), JSON
//! helpers ([`json_len`], [`exact_in_js`], [`escape_token`]) and digests
//! ([`json_digest`], [`hmac_sha256`]).
//!
//! This crate depends on no other Holaryn crate; search, the bounded-code
//! compiler and the core build on it. Modules are private: the API is the
//! `pub use` list below.

#![forbid(unsafe_code)]
#![warn(missing_docs)]
#![warn(unreachable_pub)]
// `Error` carries its location (file, pointer, line:column, suggestions) inline;
// errors are the cold path, so the size of `Result` is an accepted cost.
#![allow(clippy::result_large_err)]

mod args;
mod blob;
#[macro_use]
mod pack;
mod codes;
mod descriptor;
mod error;
mod format;
mod hash;
mod json;
mod names;
mod outcome;

pub use args::{mark_json_text, oversized, oversized_marker, unrepresentable};
pub use blob::{Blob, Reader};
pub use codes::Code;
pub use descriptor::{
    summary_text, Annotations, ApprovalMode, Invokability, Provider, ProviderStatus, SchemaDialect,
    Source, SummarySpan, ToolDescriptor, ToolRole, ToolSpec, Trust, Visibility,
};
pub use error::{line_col_utf16, Error, ErrorCode, Result};
pub use format::Format;
pub use hash::{
    canonical_json, canonical_json_into, ct_eq, digest_text, hex, hmac_sha256, json_digest,
    json_string_into, sha256, unhex, HashSink, Sink,
};
pub use json::{escape_token, exact_in_js, json_len};
pub use names::{
    check_provider_id, check_spec as check_reserved_names, is_discovery_tool, is_provider_safe,
    is_provider_slug, meaning, provider_slug, push_rewritten_wire_name, tag_wire_names,
    wire_contested, wire_name, wire_names, Meaning, DISCOVERY_TOOLS, HANDLE_PREFIX, MAX_NAME_BYTES,
    RUNTIME_PROVIDER, RUNTIME_TOOL_NAMES, RUN_TOOL_CODE, RUN_TOOL_SCRIPT, TOOL_INSPECT, TOOL_LIST,
    TOOL_SEARCH,
};
pub use outcome::{ArgError, CallOutcome, CallPath, CallStatus, Stage};
pub use pack::{Pack, Unpack};
