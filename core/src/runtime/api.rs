//! The runtime's data vocabulary: what the discovery tools take and answer
//! (`tool_search`, `tool_list`, `tool_inspect`, the Capability Center row and
//! the footprint), their bounds, how a target resolved, and the export
//! options. The runtime's verbs (`discovery.rs`, `inspect.rs`, `semantic.rs`,
//! `deferred.rs`, `model_call.rs`, `providers.rs`) and the gate share these
//! types without importing each other.

use crate::availability::{Availability, AvailabilityState};
use holaryn_model::{Annotations, Source, Trust};
use holaryn_model::{Error, ErrorCode, Result};
use serde::{Deserialize, Serialize};
use serde_json::Value;

/// Most results `tool_search` returns.
pub const MAX_SEARCH_RESULTS: usize = 8;
/// Longest query, in characters.
pub const MAX_QUERY_CHARS: usize = 512;
/// Most alternative phrasings besides `query`.
pub const MAX_ALTERNATIVES: usize = 2;
/// Most results when nothing fits.
pub const NOTHING_FITS_RESULTS: usize = 3;
/// Default and largest `tool_list` page.
pub const LIST_DEFAULT: usize = 50;
/// Largest `tool_list` page.
pub const LIST_MAX: usize = 200;

/// `tool_search` input.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct SearchInput {
    /// The query, 1–512 characters.
    pub query: String,
    /// Up to two other phrasings of the same request, fused into one ranking.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub alternatives: Option<Vec<String>>,
    /// 1–8, default 8.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub limit: Option<i64>,
    /// Only this source.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub source: Option<Source>,
    /// Only this provider id.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub provider: Option<String>,
    /// Only this availability state.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub state: Option<AvailabilityState>,
}

/// `tool_list` input.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct ListInput {
    /// Only this availability state.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub state: Option<AvailabilityState>,
    /// Only this source.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub source: Option<Source>,
    /// Only this provider id.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub provider: Option<String>,
    /// 1–200, default 50.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub limit: Option<i64>,
    /// Opaque cursor from a previous page.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cursor: Option<String>,
}

/// A schema-free descriptor, as search and list return it.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ToolSummary {
    /// Canonical name.
    pub name: String,
    /// Title.
    pub title: String,
    /// One-line summary.
    pub summary: String,
    /// Source.
    pub source: Source,
    /// Provider id.
    pub provider: String,
    /// Availability state.
    pub state: AvailabilityState,
    /// Required permissions.
    pub permissions: Vec<String>,
    /// Trust.
    pub trust: Trust,
    /// Whether its schema is loaded in this session.
    pub schema_loaded: bool,
    /// Which fields matched (search only).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub why: Vec<String>,
    /// The name a client calls it by (its wire name), when not `name`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub call_name: Option<String>,
}

/// `tool_search` output.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct SearchOutput {
    /// Ranked results, best first (at most 8; at most 3 when nothing fits).
    pub results: Vec<ToolSummary>,
    /// True when no tool clears the bar of a real match: the results are
    /// weak guesses, and `hint` says where to look instead.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub nothing_fits: bool,
    /// Where to look when nothing fits (`tool_list` filters, providers).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub hint: Option<String>,
    /// The session's effective registry version.
    pub registry_version: String,
}

/// `tool_list` output.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ListOutput {
    /// This page, in name order.
    pub tools: Vec<ToolSummary>,
    /// Cursor for the next page, when there is one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub next_cursor: Option<String>,
    /// Matching tools in all pages.
    pub total: usize,
    /// The session's effective registry version.
    pub registry_version: String,
}

/// `tool_inspect` output.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct InspectOutput {
    /// Canonical name.
    pub name: String,
    /// The name a client calls it by (its wire name), when not `name`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub call_name: Option<String>,
    /// Title.
    pub title: String,
    /// Full description.
    pub description: String,
    /// Source.
    pub source: Source,
    /// Provider id.
    pub provider: String,
    /// Trust.
    pub trust: Trust,
    /// Required permissions.
    pub permissions: Vec<String>,
    /// Annotations.
    pub annotations: Annotations,
    /// Aliases.
    pub aliases: Vec<String>,
    /// Availability after this inspect (with reason and next safe action).
    pub availability: Availability,
    /// Whether calls ask the host first.
    pub asks_first: bool,
    /// True when the schema is now loaded.
    pub loaded: bool,
    /// Exact input schema (only when loaded).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub schema: Option<Value>,
    /// Output schema (only when loaded and present).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub output_schema: Option<Value>,
    /// Schema hash (only when loaded).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub schema_hash: Option<String>,
    /// Tool version.
    pub version: String,
    /// Opaque handle (only when loaded).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub handle: Option<String>,
    /// How to use a catalog-only entry through its own surface.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub usage: Option<String>,
    /// The older draft the input schema is read in, and why (no `$schema`, invalid as 2020-12).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub dialect: Option<holaryn_model::SchemaDialect>,
}

/// Schema-byte footprint of the model-visible tools.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Footprint {
    /// Bytes now.
    pub now: u64,
    /// Bytes at session creation.
    pub at_creation: u64,
    /// Bytes the static list would have had now.
    pub static_equivalent: u64,
}

/// One Capability Center row.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct CapabilityRow {
    /// Canonical name.
    pub name: String,
    /// Title.
    pub title: String,
    /// Source.
    pub source: Source,
    /// Provider id.
    pub provider: String,
    /// Provider display name.
    pub provider_name: String,
    /// Availability (state, code, reason, next action, scope, rule).
    pub availability: Availability,
    /// Required permissions.
    pub permissions: Vec<String>,
    /// Trust.
    pub trust: Trust,
    /// Provenance: provider id, version and origin in one line.
    pub provenance: String,
    /// Calls ask first.
    pub asks_first: bool,
    /// Labelled "ambient process access" (legacy `run_tool_script`).
    pub ambient_process_access: bool,
    /// The tool declared no input schema, so it takes any object.
    pub schema_missing: bool,
    /// The older draft the input schema is read in, and why.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub dialect: Option<holaryn_model::SchemaDialect>,
}

pub(super) fn bad_input(msg: impl Into<String>, field: &str) -> Error {
    Error::new(ErrorCode::InputInvalid, msg).with_field(field)
}

/// A discovery tool's input; a value the runtime cannot represent (a lone
/// surrogate from JavaScript) is `input.invalid` with its pointer.
pub(crate) fn parse_input<T: serde::de::DeserializeOwned>(tool: &str, input: &Value) -> Result<T> {
    if let Some(e) = holaryn_model::unrepresentable(input) {
        return Err(Error::new(ErrorCode::InputInvalid, e.message)
            .with_tool(tool)
            .with_pointer(e.pointer));
    }
    // A `source` filter that names no source: said in words, with the ones there are.
    if let Some(src) = input.get("source").and_then(Value::as_str) {
        if holaryn_model::Source::parse(src).is_none() {
            let known: Vec<&str> = holaryn_model::Source::ALL
                .iter()
                .map(|s| s.as_str())
                .collect();
            return Err(bad_input(
                format!(
                    "unknown source `{src}`; expected one of {}",
                    known.join(", ")
                ),
                "source",
            )
            .with_tool(tool));
        }
    }
    // Deserialised from the borrowed value: no copy of the input.
    T::deserialize(input).map_err(|e| {
        Error::new(
            ErrorCode::InputInvalid,
            format!("invalid {tool} input: {e}"),
        )
        .with_tool(tool)
    })
}

pub(super) fn bounded(
    value: Option<i64>,
    default: usize,
    max: usize,
    field: &str,
) -> Result<usize> {
    match value {
        None => Ok(default),
        Some(n) if n >= 1 && n as u64 <= max as u64 => Ok(n as usize),
        Some(n) => Err(bad_input(
            format!("`{field}` must be between 1 and {max}, got {n}"),
            field,
        )),
    }
}

/// A validated `tool_search` input and its result limit.
pub(crate) fn search_input(input: &Value) -> Result<(SearchInput, usize)> {
    let input: SearchInput = parse_input(holaryn_model::TOOL_SEARCH, input)?;
    let limit = search_limit(&input)?;
    Ok((input, limit))
}

/// A read `tool_search` input's checks (query, alternatives, limit), and its result limit.
pub(crate) fn search_limit(input: &SearchInput) -> Result<usize> {
    check_query(&input.query, "query")?;
    let alternatives = input.alternatives.as_deref().unwrap_or_default();
    if alternatives.len() > MAX_ALTERNATIVES {
        return Err(bad_input(
            format!(
                "`alternatives` has {} phrasings; at most {MAX_ALTERNATIVES} are allowed",
                alternatives.len()
            ),
            "alternatives",
        ));
    }
    for a in alternatives {
        check_query(a, "alternatives")?;
    }
    bounded(input.limit, MAX_SEARCH_RESULTS, MAX_SEARCH_RESULTS, "limit")
}

impl SearchInput {
    /// The query and its alternative phrasings, in order.
    pub fn phrasings(&self) -> Vec<&str> {
        let mut q = vec![self.query.as_str()];
        q.extend(self.alternatives.iter().flatten().map(String::as_str));
        q
    }
}

fn check_query(query: &str, field: &str) -> Result<()> {
    let chars = query.chars().count();
    if chars == 0 || query.trim().is_empty() {
        return Err(bad_input(format!("`{field}` must not be empty"), field));
    }
    if chars > MAX_QUERY_CHARS {
        return Err(bad_input(
            format!("`{field}` is {chars} characters; at most {MAX_QUERY_CHARS} are allowed"),
            field,
        ));
    }
    Ok(())
}

/// How `exportTools` shapes the tools array.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ExportMode {
    /// The discovery tools plus the tools the model inspected (the default).
    #[default]
    Loaded,
    /// Every permitted tool, deferred (Anthropic only).
    Deferred,
}

/// Options of `exportTools` (wire shape, camelCase).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct ExportOptions {
    /// The export mode (default `loaded`).
    #[serde(default)]
    pub mode: ExportMode,
}

/// How a target string resolved.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Resolved {
    /// By canonical name.
    Name,
    /// By alias.
    Alias,
    /// By opaque handle.
    Handle,
}
