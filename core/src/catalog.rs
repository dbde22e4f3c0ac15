//! Catalog files: MCP `tools/list` results and plain tool arrays → [`ToolSpec`]s.
//!
//! Accepted shapes: `{"tools": [...]}` (an MCP `tools/list` result, possibly
//! with `server`/`serverInfo`/`package` metadata as in the shared fixtures), a
//! bare array of tools, and tools using `inputSchema` or `input_schema`.
//! The core reads no files: hosts pass the path (for messages) and the text.

use crate::registry::{Listing, SkippedTool};
use crate::validate::kind_of;
use holaryn_model::{line_col_utf16, Error, ErrorCode, Result};
use holaryn_model::{Annotations, Provider, ToolSpec, Trust};
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
}

/// Parse catalog text; `file` names the file in errors.
pub fn parse_catalog_text(file: &str, text: &str, opts: &CatalogOptions) -> Result<Vec<ToolSpec>> {
    let value: Value = serde_json::from_str(text).map_err(|e| json_error(file, text, &e))?;
    parse_catalog_value(file, &value, opts)
}

fn json_error(file: &str, text: &str, e: &serde_json::Error) -> Error {
    let (line, col) = position_of(text, e.line(), e.column());
    Error::new(ErrorCode::CatalogMalformed, format!("invalid JSON: {e}"))
        .with_file(file)
        .with_position(line, col)
}

fn position_of(text: &str, line: usize, byte_col: usize) -> (u32, u32) {
    // serde_json reports a 1-based line and a 1-based byte column.
    let mut offset = 0usize;
    for (i, l) in text.split_inclusive('\n').enumerate() {
        if i + 1 == line {
            offset += byte_col.saturating_sub(1).min(l.len());
            break;
        }
        offset += l.len();
    }
    while offset > 0 && !text.is_char_boundary(offset) {
        offset -= 1;
    }
    line_col_utf16(text, offset)
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
}

/// Parse catalog text as one provider's list (see [`ProviderList`]).
pub fn parse_provider_list(file: &str, text: &str, opts: &CatalogOptions) -> Result<ProviderList> {
    let value: Value = serde_json::from_str(text).map_err(|e| json_error(file, text, &e))?;
    let parsed = entries(file, &value, opts)?;
    let (source, trust) = (
        opts.source.clone().unwrap_or_else(|| "mcp".into()),
        opts.trust,
    );
    let mut list = ProviderList {
        specs: Vec::with_capacity(parsed.tools.len()),
        skipped: Vec::new(),
        provider: parsed.provider,
    };
    for (i, tool) in parsed.tools.into_iter().enumerate() {
        match tool {
            Ok(spec) => list.specs.push(spec),
            Err(e) => list
                .skipped
                .push(Listing::of_entry(i, &list.provider, &source, trust).skip(&e)),
        }
    }
    Ok(list)
}

/// A catalog's provider and its entries, each a spec or the error that says why it is none.
struct Entries {
    provider: Provider,
    tools: Vec<Result<ToolSpec>>,
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
    let tools = tools
        .iter()
        .enumerate()
        .map(|(i, t)| {
            tool_spec(t, &provider, opts).map_err(|m| malformed(&format!("{base}/{i}"), m))
        })
        .collect();
    Ok(Entries { provider, tools })
}

fn provider_for(file: &str, meta: Option<&Map<String, Value>>, opts: &CatalogOptions) -> Provider {
    let stem = file
        .rsplit(['/', '\\'])
        .next()
        .unwrap_or(file)
        .trim_end_matches(".json")
        .to_string();
    let get = |k: &str| meta.and_then(|m| m.get(k)).and_then(Value::as_str);
    let info = meta.and_then(|m| m.get("serverInfo"));
    let info_str = |k: &str| info.and_then(|i| i.get(k)).and_then(Value::as_str);
    let id = opts
        .provider_id
        .clone()
        .or_else(|| get("server").map(str::to_string))
        .unwrap_or(stem);
    Provider {
        display_name: info_str("title")
            .or_else(|| info_str("name"))
            .unwrap_or(&id)
            .to_string(),
        kind: opts.source.clone().unwrap_or_else(|| "mcp".into()),
        version: info_str("version").map(str::to_string),
        origin: get("package").map(str::to_string),
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
