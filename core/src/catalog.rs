//! Catalog files: MCP `tools/list` results and plain tool arrays → [`ToolSpec`]s.
//!
//! Accepted shapes: `{"tools": [...]}` (an MCP `tools/list` result, possibly
//! with `server`/`serverInfo`/`package` metadata as in the shared fixtures), a
//! bare array of tools, and tools using `inputSchema` or `input_schema`.
//! The core reads no files: hosts pass the path (for messages) and the text.

use crate::registry::{Listing, SkippedTool};
use crate::validate::{kind_of, name_refusal};
use holaryn_model::{Annotations, Provider, ToolSpec, Trust};
use holaryn_model::{Error, ErrorCode, Result};
use serde::Serialize;
use serde_json::{Map, Value};

/// Options for turning a catalog into specs.
#[derive(Debug, Clone, Default)]
pub struct CatalogOptions {
    /// Provider id; defaults to the file's `server` field or the file stem.
    pub provider_id: Option<String>,
    /// Qualify canonical names as `provider/name` (used for directories).
    pub qualify_names: bool,
    /// Source to give every tool (default `mcp`).
    pub source: Option<String>,
    /// Trust to give every tool (default `untrusted`).
    pub trust: Option<Trust>,
    /// Keep a tool whose name the registry refuses (`descriptor.invalid_name`,
    /// `descriptor.reserved_name`: `tool_search`, a `toolh_` name, `other/x`)
    /// under its provider-qualified name `provider/localName` when the
    /// registry accepts that name, noted in [`ParsedCatalog::renamed`]. A name
    /// the qualified form does not fix is left as it is (and refused as before).
    pub qualify_refused_names: bool,
}

/// A tool [`CatalogOptions::qualify_refused_names`] renamed.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Renamed {
    /// The name as the catalog gave it.
    pub from: String,
    /// The provider-qualified name it is kept under.
    pub to: String,
    /// Why `from` is refused.
    pub code: ErrorCode,
    /// The refusal, for a human.
    pub message: String,
}

/// A parsed catalog: its tools, the ones renamed on the way and the entries
/// that are no tool (skipped, not refusing the catalog).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ParsedCatalog {
    /// The tools, in catalog order.
    pub specs: Vec<ToolSpec>,
    /// The tools renamed by [`CatalogOptions::qualify_refused_names`], in catalog order.
    pub renamed: Vec<Renamed>,
    /// The entries that are no tool (not an object, no string name), in catalog order.
    pub skipped: Vec<SkippedTool>,
}

/// Parse catalog text; `file` names the file in errors. Any entry that is
/// no tool refuses it all (the answer has no room to say what was skipped:
/// [`parse_catalog`] skips and says).
pub fn parse_catalog_text(file: &str, text: &str, opts: &CatalogOptions) -> Result<Vec<ToolSpec>> {
    let value: Value = serde_json::from_str(text).map_err(|e| json_error(file, text, &e))?;
    entries(file, &value, opts)?.tools.into_iter().collect()
}

/// Parse catalog text with what was renamed (see
/// [`CatalogOptions::qualify_refused_names`]) and skipped on the way; `file`
/// names the file in errors. Only a catalog of the wrong shape as a whole
/// (or text that is no JSON) is refused.
pub fn parse_catalog(file: &str, text: &str, opts: &CatalogOptions) -> Result<ParsedCatalog> {
    let list = parse_provider_list(file, text, opts)?;
    Ok(ParsedCatalog {
        specs: list.specs,
        renamed: list.renamed,
        skipped: list.skipped,
    })
}

fn json_error(file: &str, text: &str, e: &serde_json::Error) -> Error {
    let (line, col) = crate::json_text::serde_position(text, e.line(), e.column());
    Error::new(ErrorCode::CatalogMalformed, format!("invalid JSON: {e}"))
        .with_file(file)
        .with_position(line, col)
}

/// Parse an already-decoded catalog value; any entry that is no tool refuses it all.
pub fn parse_catalog_value(
    file: &str,
    value: &Value,
    opts: &CatalogOptions,
) -> Result<Vec<ToolSpec>> {
    entries(file, value, opts)?.tools.into_iter().collect()
}

/// A catalog as one provider's list: its tools, and the entries that are no
/// tool (not an object, no string name) kept as skipped rather than refusing
/// the catalog. Only a catalog of the wrong shape as a whole is refused.
#[derive(Debug, Clone)]
pub struct ProviderList {
    /// The provider (from the options, the `server` field or the file name).
    pub provider: Provider,
    /// The tools, in catalog order.
    pub specs: Vec<ToolSpec>,
    /// The entries that are no tool.
    pub skipped: Vec<SkippedTool>,
    /// The tools renamed by [`CatalogOptions::qualify_refused_names`], in catalog order.
    pub renamed: Vec<Renamed>,
}

/// Parse catalog text as one provider's list (see [`ProviderList`]).
pub fn parse_provider_list(file: &str, text: &str, opts: &CatalogOptions) -> Result<ProviderList> {
    let value: Value = serde_json::from_str(text).map_err(|e| json_error(file, text, &e))?;
    let parsed = entries(file, &value, opts)?;
    let mut list = ProviderList {
        specs: Vec::with_capacity(parsed.tools.len()),
        skipped: Vec::new(),
        renamed: parsed.renamed,
        provider: parsed.provider,
    };
    for (i, tool) in parsed.tools.into_iter().enumerate() {
        match tool {
            Ok(spec) => list.specs.push(spec),
            Err(e) => list
                .skipped
                .push(entry_skipped(i, &list.provider, opts, &e)),
        }
    }
    Ok(list)
}

/// A catalog's provider and its entries, each a spec or the error that says
/// why it is none, and the specs renamed by `qualify_refused_names`.
struct Entries {
    provider: Provider,
    tools: Vec<Result<ToolSpec>>,
    renamed: Vec<Renamed>,
}

fn entries(file: &str, value: &Value, opts: &CatalogOptions) -> Result<Entries> {
    let malformed = |pointer: &str, msg: String| {
        Error::new(ErrorCode::CatalogMalformed, msg)
            .with_file(file)
            .with_pointer(pointer)
    };
    let (tools, meta) = match value {
        Value::Array(items) => (items, None),
        Value::Object(obj) => match obj.get("tools") {
            Some(Value::Array(items)) => (items, Some(obj)),
            Some(other) => {
                return Err(malformed(
                    "/tools",
                    format!("`tools` must be an array, found {}", kind_of(other)),
                ))
            }
            None => {
                return Err(malformed(
                    "",
                    "expected an array of tools or an object with a `tools` array".into(),
                ))
            }
        },
        other => {
            return Err(malformed(
                "",
                format!("expected an array or an object, found {}", kind_of(other)),
            ))
        }
    };
    let provider = provider_for(file, meta, opts);
    let base = if meta.is_some() { "/tools" } else { "" };
    let mut renamed = Vec::new();
    let tools = tools
        .iter()
        .enumerate()
        .map(|(i, t)| {
            let mut spec = entry_spec(file, (base, i), t, &provider, opts)?;
            if opts.qualify_refused_names {
                renamed.extend(qualify_refused(&mut spec));
            }
            Ok(spec)
        })
        .collect();
    Ok(Entries {
        provider,
        tools,
        renamed,
    })
}

/// Entry `at` (the tools array's pointer and the index) of catalog `file` as
/// a spec of `provider`, or why it is none.
pub(crate) fn entry_spec(
    file: &str,
    at: (&str, usize),
    t: &Value,
    provider: &Provider,
    opts: &CatalogOptions,
) -> Result<ToolSpec> {
    tool_spec(t, provider, opts).map_err(|m| {
        Error::new(ErrorCode::CatalogMalformed, m)
            .with_file(file)
            .with_pointer(format!("{}/{}", at.0, at.1))
    })
}

/// The skipped row of entry `index` that is no tool.
pub(crate) fn entry_skipped(
    index: usize,
    provider: &Provider,
    opts: &CatalogOptions,
    e: &Error,
) -> SkippedTool {
    let source = opts.source.clone().unwrap_or_else(|| "mcp".into());
    Listing::of_entry(index, provider, &source, opts.trust).skip(e)
}

/// The rule of [`CatalogOptions::qualify_refused_names`] for one spec: when
/// the registry refuses its name and would accept `provider/localName`, it
/// takes that name.
fn qualify_refused(spec: &mut ToolSpec) -> Option<Renamed> {
    let refusal = name_refusal(spec)?;
    let to = format!(
        "{}/{}",
        spec.provider.id,
        spec.local_name.as_deref().unwrap_or(&spec.name)
    );
    if to == spec.name {
        return None;
    }
    let from = std::mem::replace(&mut spec.name, to);
    if name_refusal(spec).is_some() {
        spec.name = from;
        return None;
    }
    Some(Renamed {
        from,
        to: spec.name.clone(),
        code: refusal.code,
        message: refusal.message,
    })
}

/// Most characters of a server's description or instructions kept as the provider's description.
const PROVIDER_DESCRIPTION_CHARS: usize = 600;

pub(crate) fn provider_for(
    file: &str,
    meta: Option<&Map<String, Value>>,
    opts: &CatalogOptions,
) -> Provider {
    let stem = file
        .rsplit(['/', '\\'])
        .next()
        .unwrap_or(file)
        .trim_end_matches(".json")
        .to_string();
    let get = |k: &str| meta.and_then(|m| m.get(k)).and_then(Value::as_str);
    let info = meta.and_then(|m| m.get("serverInfo"));
    let info_str = |k: &str| info.and_then(|i| i.get(k)).and_then(Value::as_str);
    let named = opts
        .provider_id
        .clone()
        .or_else(|| get("server").map(str::to_string))
        .unwrap_or(stem);
    // A name from outside (`My Server`) becomes an id by the core's one rule;
    // the name as written stays the display name.
    let id = holaryn_model::provider_slug(&named);
    Provider {
        display_name: info_str("title")
            .or_else(|| info_str("name"))
            .unwrap_or(&named)
            .to_string(),
        kind: opts.source.clone().unwrap_or_else(|| "mcp".into()),
        version: info_str("version").map(str::to_string),
        origin: get("package").map(str::to_string),
        // What the server says it is for: `serverInfo.description`, else the
        // initialize result's `instructions` (bounded: it is search text).
        description: info_str("description")
            .or_else(|| get("instructions"))
            .map(|d| {
                d.trim()
                    .chars()
                    .take(PROVIDER_DESCRIPTION_CHARS)
                    .collect::<String>()
            })
            .filter(|d| !d.is_empty()),
        id,
    }
}

fn tool_spec(
    t: &Value,
    provider: &Provider,
    opts: &CatalogOptions,
) -> std::result::Result<ToolSpec, String> {
    let obj = t
        .as_object()
        .ok_or_else(|| format!("a tool must be an object, found {}", kind_of(t)))?;
    let name = match obj.get("name") {
        Some(Value::String(s)) => s.clone(),
        Some(other) => {
            return Err(format!(
                "tool `name` must be a string, found {}",
                kind_of(other)
            ))
        }
        None => return Err("tool has no `name`".into()),
    };
    let text = |k: &str| obj.get(k).and_then(Value::as_str).map(str::to_string);
    let ann = obj.get("annotations").and_then(Value::as_object);
    let hint = |k: &str| ann.and_then(|a| a.get(k)).and_then(Value::as_bool);
    let title = text("title").or_else(|| {
        ann.and_then(|a| a.get("title"))
            .and_then(Value::as_str)
            .map(str::to_string)
    });
    let input_schema = obj
        .get("inputSchema")
        .or_else(|| obj.get("input_schema"))
        .or_else(|| obj.get("parameters"))
        .cloned();
    let output_schema = obj
        .get("outputSchema")
        .or_else(|| obj.get("output_schema"))
        .cloned();
    Ok(ToolSpec {
        name: if opts.qualify_names {
            format!("{}/{}", provider.id, name)
        } else {
            name.clone()
        },
        title,
        description: text("description").unwrap_or_default(),
        aliases: Vec::new(),
        source: opts.source.clone().unwrap_or_else(|| "mcp".into()),
        provider: provider.clone(),
        local_name: Some(name),
        trust: opts.trust,
        permissions: Vec::new(),
        input_schema,
        output_schema,
        annotations: Annotations {
            read_only_hint: hint("readOnlyHint"),
            destructive_hint: hint("destructiveHint"),
            idempotent_hint: hint("idempotentHint"),
            open_world_hint: hint("openWorldHint"),
        },
        visibility: None,
        invokability: None,
        approval: None,
        timeout_ms: None,
        role: None,
        usage: None,
    })
}
