//! Model tool formats: the session's model-visible tools as Anthropic
//! Messages `tools`, OpenAI Chat Completions `tools`, OpenAI Responses
//! `tools` and MCP `Tool` objects; the matching tool-call shapes in, and the
//! provider's tool-result shape out.
//!
//! Provider APIs restrict tool names to `^[a-zA-Z0-9_-]{1,64}$`, so canonical
//! names such as `github/create_issue` are exported under a sanitised *wire
//! name* (`github__create_issue`), in every format (MCP clients pass the
//! names they list on to model APIs); [`Export::names`] maps wire names back to
//! canonical names. A call is resolved through the map of the session's
//! current export only ([`Export::canonical`]: a wire name not in it is
//! refused, never guessed) and then, like every call, through the current
//! registry. [`holaryn_model::wire_names`] is the rule that keeps the map honest.

use crate::builtin::ModelTool;
use crate::registry::Registry;
use holaryn_model::Format;
use holaryn_model::{Error, ErrorCode, Result};
use serde::Serialize;
use serde_json::{json, Value};
use std::borrow::Cow;
use std::collections::BTreeMap;

mod strict;

/// Exported tools with their byte size and wire-name map.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Export {
    /// Format.
    pub format: Format,
    /// The `tools` array in the provider's shape.
    pub tools: Vec<Value>,
    /// Bytes of `JSON.stringify(tools)`.
    pub bytes: u64,
    /// Wire name → canonical name.
    pub names: BTreeMap<String, String>,
}

/// A tool call taken from a model response.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ModelCall {
    /// The provider's call id (empty for MCP).
    pub call_id: String,
    /// The wire name the model used.
    pub name: String,
    /// Parsed arguments.
    pub arguments: Value,
}

/// The wire name of a canonical name under the current registry
/// ([`holaryn_model::wire_names`], cached per registry version), the same in every format:
/// MCP allows more characters, but its clients hand the names on to model
/// APIs, so an MCP export uses the wire names too.
pub fn wire_for(_format: Format, canonical: &str, registry: &Registry) -> String {
    // Every non-safe exported name is a registry tool's (the runtime's own are safe).
    registry.wire_of(canonical)
}

/// Export model tools in a format, each under its [`wire_for`] name.
pub fn export(tools: &[ModelTool], format: Format, registry: &Registry) -> Export {
    let wires: Vec<String> = tools
        .iter()
        .map(|t| wire_for(format, &t.name, registry))
        .collect();
    let mut map = BTreeMap::new();
    let out: Vec<Value> = tools
        .iter()
        .zip(wires)
        .map(|(t, wire)| {
            let schema = object_root(&t.input_schema);
            let v = match format {
                Format::Anthropic => json!({"name": wire, "description": t.description, "input_schema": schema}),
                Format::OpenaiChat => json!({"type": "function", "function": {"name": wire, "description": t.description, "parameters": schema}}),
                // Responses requires `strict`: true only where the schema already meets strict mode's rules.
                Format::OpenaiResponses => json!({"type": "function", "name": wire, "description": t.description, "parameters": schema, "strict": strict::strict_ok(&schema)}),
                Format::Mcp => {
                    let mut v = json!({"name": wire, "description": t.description, "inputSchema": schema});
                    if let Some(out) = mcp_output_schema(registry, &t.name) {
                        v["outputSchema"] = out.clone();
                    }
                    v
                }
            };
            map.insert(wire, t.name.clone());
            v
        })
        .collect();
    let bytes = holaryn_model::json_len(&out);
    Export {
        format,
        tools: out,
        bytes,
        names: map,
    }
}

/// The schema as exported: every format's tool schema root says
/// `type: "object"` (Anthropic and MCP require it). Arguments are always a
/// JSON object whatever the schema says, so a root without `type` (or with
/// `["object", …]`) gains or narrows it without changing what is accepted.
fn object_root(schema: &Value) -> Cow<'_, Value> {
    match schema {
        Value::Object(m) if m.get("type") != Some(&Value::String("object".into())) => {
            let mut m = m.clone();
            m.insert("type".into(), Value::String("object".into()));
            Cow::Owned(Value::Object(m))
        }
        _ => Cow::Borrowed(schema),
    }
}

/// A registered tool's output schema, when MCP's `Tool.outputSchema` can
/// carry it (a root `type: "object"`, as MCP requires).
fn mcp_output_schema<'a>(registry: &'a Registry, canonical: &str) -> Option<&'a Value> {
    let d = &registry.get(canonical)?.descriptor;
    let out = d.output_schema.as_deref()?;
    (d.name == canonical && out.get("type") == Some(&json!("object"))).then_some(out)
}

impl Export {
    /// The canonical name behind a wire name the model called, or
    /// `tool.unknown` when this export has no such tool (never guessed).
    pub fn canonical(&self, wire: &str) -> Result<&str> {
        self.names
            .get(wire)
            .map(String::as_str)
            .ok_or_else(|| not_listed(wire))
    }
}

/// `tool.unknown` for a wire name that is not in the session's current tool list.
pub fn not_listed(wire: &str) -> Error {
    Error::new(
        ErrorCode::ToolUnknown,
        format!("`{wire}` is not a tool in this session's current tool list"),
    )
    .with_tool(wire)
    .with_next_action(
        "call tool_search or tool_inspect to load the tool, then call it by the name the tool list shows",
    )
}

fn bad(msg: &str) -> Error {
    Error::new(ErrorCode::InputInvalid, msg.to_string())
        .with_field("toolCall")
        .with_next_action(
            "call the tool again with its name and its arguments as one JSON object, e.g. {\"path\": \"a.txt\"}",
        )
}

/// A call's arguments (`input`, `arguments`) the binding could not read as JSON
/// (nested deeper than its conversion goes): refused as arguments that do not parse are.
pub fn unreadable_arguments(field: &str, why: &str) -> Error {
    bad(&format!("tool call `{field}` is not JSON: {why}"))
}

fn str_field<'a>(v: &'a Value, key: &str) -> Result<&'a str> {
    v.get(key)
        .and_then(Value::as_str)
        .ok_or_else(|| bad(&format!("tool call has no string `{key}`")))
}

/// Arguments given as JSON text (the OpenAI formats); over `cap` bytes they
/// are not parsed: the oversize marker the gate refuses as `args.too_large`.
fn json_args(text: &str, cap: u64) -> Result<Value> {
    if text.len() as u64 > cap {
        return Ok(holaryn_model::oversized_marker(text.len()));
    }
    if text.trim().is_empty() {
        return Ok(json!({}));
    }
    // Lone surrogates and over-long integers become markers the gate refuses.
    serde_json::from_str(&holaryn_model::mark_json_text(text))
        .map_err(|e| bad(&format!("tool call `arguments` is not JSON: {e}")))
}

/// Parse one provider-shaped tool call.
/// The field holding a call's arguments as a JSON object, in the formats
/// that carry them as one (`None`: the OpenAI formats carry JSON text, which
/// [`parse_call`] measures against the size cap itself). A host that finds a
/// call's text over the cap puts `holaryn_model::oversized_marker` there
/// instead of parsing the arguments; one it cannot convert (nested too deep)
/// leaves them out (`Runtime::dispatch_unreadable_call`).
pub fn object_arguments_field(format: Format) -> Option<&'static str> {
    match format {
        Format::Anthropic => Some("input"),
        Format::Mcp => Some("arguments"),
        Format::OpenaiChat | Format::OpenaiResponses => None,
    }
}

/// Read a provider-shaped tool call; arguments given as JSON text over `cap`
/// bytes become the oversize marker.
pub fn parse_call(format: Format, call: &Value, cap: u64) -> Result<ModelCall> {
    match format {
        Format::Anthropic => {
            if call.get("type").and_then(Value::as_str) != Some("tool_use") {
                return Err(bad("expected a `tool_use` content block"));
            }
            Ok(ModelCall {
                call_id: str_field(call, "id")?.to_string(),
                name: str_field(call, "name")?.to_string(),
                arguments: call.get("input").cloned().unwrap_or_else(|| json!({})),
            })
        }
        Format::OpenaiChat => {
            if call.get("type").and_then(Value::as_str) == Some("custom") {
                return Err(bad(
                    "a `custom` tool call: holaryn exports function tools only, so it has no tool by this kind",
                )
                .with_next_action("call one of the function tools from the current tool list"));
            }
            let f = call
                .get("function")
                .ok_or_else(|| bad("tool call has no `function`"))?;
            Ok(ModelCall {
                call_id: str_field(call, "id")?.to_string(),
                name: str_field(f, "name")?.to_string(),
                arguments: json_args(
                    f.get("arguments").and_then(Value::as_str).unwrap_or(""),
                    cap,
                )?,
            })
        }
        Format::OpenaiResponses => {
            if call.get("type").and_then(Value::as_str) != Some("function_call") {
                return Err(bad("expected a `function_call` output item"));
            }
            Ok(ModelCall {
                call_id: str_field(call, "call_id")?.to_string(),
                name: str_field(call, "name")?.to_string(),
                arguments: json_args(
                    call.get("arguments").and_then(Value::as_str).unwrap_or(""),
                    cap,
                )?,
            })
        }
        Format::Mcp => Ok(ModelCall {
            call_id: String::new(),
            name: str_field(call, "name")?.to_string(),
            arguments: call.get("arguments").cloned().unwrap_or_else(|| json!({})),
        }),
    }
}

/// The provider's tool-result shape for a call (`content::result_shape`).
pub fn result_shape(format: Format, call_id: &str, is_error: bool, content: &Value) -> Value {
    let r = crate::content::ToolResult {
        is_error,
        content: content.clone(),
        outcome: None,
    };
    crate::content::result_shape(format, call_id, &r)
}

/// The call id of a provider-shaped tool call, when it has one (`None` for
/// MCP, whose results are not addressed by id).
pub fn call_id_of(format: Format, call: &Value) -> Option<String> {
    let key = match format {
        Format::Anthropic | Format::OpenaiChat => "id",
        Format::OpenaiResponses => "call_id",
        Format::Mcp => return None,
    };
    call.get(key).and_then(Value::as_str).map(str::to_string)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn calls_parse_per_format() {
        let a = parse_call(
            Format::Anthropic,
            &json!({"type": "tool_use", "id": "t1", "name": "x", "input": {"a": 1}}),
            u64::MAX,
        );
        assert_eq!(a.map(|c| c.arguments), Ok(json!({"a": 1})));
        let o = parse_call(
            Format::OpenaiChat,
            &json!({"id": "c", "type": "function", "function": {"name": "x", "arguments": "{\"a\":2}"}}),
            u64::MAX,
        );
        assert_eq!(o.map(|c| c.arguments), Ok(json!({"a": 2})));
        let bad = parse_call(
            Format::OpenaiResponses,
            &json!({"type": "function_call", "call_id": "c", "name": "x", "arguments": "{"}),
            u64::MAX,
        );
        assert_eq!(bad.map_err(|e| e.code), Err(ErrorCode::InputInvalid));
    }
}
