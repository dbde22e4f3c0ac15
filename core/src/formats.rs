//! Model tool formats: the session's model-visible tools as Anthropic
//! Messages `tools`, OpenAI Chat Completions `tools`, OpenAI Responses
//! `tools` and MCP `Tool` objects; the matching tool-call shapes in, and the
//! provider's tool-result shape out.
//!
//! Provider APIs restrict tool names to `^[a-zA-Z0-9_-]{1,64}$`, so canonical
//! names such as `github/create_issue` are exported under a sanitised *wire
//! name* (`github__create_issue`); [`Export::names`] maps wire names back to
//! canonical names, and calls are resolved through that map and then, like
//! every call, through the current registry.

use crate::builtin::ModelTool;
use crate::error::{Error, ErrorCode, Result};
use crate::hash::{hex, sha256};
use serde::{Deserialize, Serialize};
use serde_json::{json, Value};
use std::collections::BTreeMap;

/// A model tool format.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Format {
    /// Anthropic Messages API `tools`.
    Anthropic,
    /// OpenAI Chat Completions `tools`.
    OpenaiChat,
    /// OpenAI Responses API `tools`.
    OpenaiResponses,
    /// MCP `Tool` objects (`tools/list`).
    Mcp,
}

impl Format {
    /// All formats.
    pub const ALL: [Format; 4] = [
        Format::Anthropic,
        Format::OpenaiChat,
        Format::OpenaiResponses,
        Format::Mcp,
    ];
}

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

fn is_wire_char(c: char) -> bool {
    c.is_ascii_alphanumeric() || c == '_' || c == '-'
}

/// The provider-safe wire name of a canonical name (deterministic).
pub fn wire_name(canonical: &str) -> String {
    if !canonical.is_empty() && canonical.len() <= 64 && canonical.chars().all(is_wire_char) {
        return canonical.to_string();
    }
    let mut s: String = canonical
        .replace('/', "__")
        .chars()
        .map(|c| if is_wire_char(c) { c } else { '_' })
        .collect();
    if s.len() > 64 || s.is_empty() {
        let tag = hex(&sha256(canonical.as_bytes())[..4]);
        s.truncate(55);
        s = format!("{s}_{tag}");
    }
    s
}

/// Export model tools in a format.
pub fn export(tools: &[ModelTool], format: Format) -> Export {
    let mut names = BTreeMap::new();
    let out: Vec<Value> = tools
        .iter()
        .map(|t| {
            let mut wire = wire_name(&t.name);
            if names.get(&wire).is_some_and(|c: &String| c != &t.name) {
                let tag = hex(&sha256(t.name.as_bytes())[..4]);
                wire.truncate(55);
                wire = format!("{wire}_{tag}");
            }
            names.insert(wire.clone(), t.name.clone());
            match format {
                Format::Anthropic => json!({"name": wire, "description": t.description, "input_schema": t.input_schema}),
                Format::OpenaiChat => json!({"type": "function", "function": {"name": wire, "description": t.description, "parameters": t.input_schema}}),
                Format::OpenaiResponses => json!({"type": "function", "name": wire, "description": t.description, "parameters": t.input_schema}),
                Format::Mcp => json!({"name": t.name, "description": t.description, "inputSchema": t.input_schema}),
            }
        })
        .collect();
    if format == Format::Mcp {
        // MCP allows any tool name: canonical names go out unchanged.
        names = tools
            .iter()
            .map(|t| (t.name.clone(), t.name.clone()))
            .collect();
    }
    let bytes = Value::Array(out.clone()).to_string().len() as u64;
    Export {
        format,
        tools: out,
        bytes,
        names,
    }
}

fn bad(msg: &str) -> Error {
    Error::new(ErrorCode::InputInvalid, msg.to_string()).with_field("toolCall")
}

fn str_field<'a>(v: &'a Value, key: &str) -> Result<&'a str> {
    v.get(key)
        .and_then(Value::as_str)
        .ok_or_else(|| bad(&format!("tool call has no string `{key}`")))
}

fn json_args(text: &str) -> Result<Value> {
    if text.trim().is_empty() {
        return Ok(json!({}));
    }
    // Lone surrogates and over-long integers become markers the gate refuses.
    serde_json::from_str(&crate::args::mark_json_text(text))
        .map_err(|e| bad(&format!("tool call `arguments` is not JSON: {e}")))
}

/// Parse one provider-shaped tool call.
pub fn parse_call(format: Format, call: &Value) -> Result<ModelCall> {
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
            let f = call
                .get("function")
                .ok_or_else(|| bad("tool call has no `function`"))?;
            Ok(ModelCall {
                call_id: str_field(call, "id")?.to_string(),
                name: str_field(f, "name")?.to_string(),
                arguments: json_args(f.get("arguments").and_then(Value::as_str).unwrap_or(""))?,
            })
        }
        Format::OpenaiResponses => {
            if call.get("type").and_then(Value::as_str) != Some("function_call") {
                return Err(bad("expected a `function_call` output item"));
            }
            Ok(ModelCall {
                call_id: str_field(call, "call_id")?.to_string(),
                name: str_field(call, "name")?.to_string(),
                arguments: json_args(call.get("arguments").and_then(Value::as_str).unwrap_or(""))?,
            })
        }
        Format::Mcp => Ok(ModelCall {
            call_id: String::new(),
            name: str_field(call, "name")?.to_string(),
            arguments: call.get("arguments").cloned().unwrap_or_else(|| json!({})),
        }),
    }
}

/// Build the provider's tool-result shape for a call.
pub fn result_shape(format: Format, call_id: &str, is_error: bool, content: &Value) -> Value {
    let text = match content {
        Value::String(s) => s.clone(),
        other => other.to_string(),
    };
    match format {
        Format::Anthropic => {
            json!({"type": "tool_result", "tool_use_id": call_id, "content": text, "is_error": is_error})
        }
        Format::OpenaiChat => json!({"role": "tool", "tool_call_id": call_id, "content": text}),
        Format::OpenaiResponses => {
            json!({"type": "function_call_output", "call_id": call_id, "output": text})
        }
        Format::Mcp => {
            let mut r = json!({"content": [{"type": "text", "text": text}], "isError": is_error});
            if content.is_object() {
                r["structuredContent"] = content.clone();
            }
            r
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wire_names_are_provider_safe_and_stable() {
        assert_eq!(wire_name("read_file"), "read_file");
        assert_eq!(wire_name("github/create_issue"), "github__create_issue");
        let long = "x".repeat(80);
        let w = wire_name(&long);
        assert!(w.len() <= 64 && w.chars().all(is_wire_char));
        assert_eq!(w, wire_name(&long));
    }

    #[test]
    fn calls_parse_per_format() {
        let a = parse_call(
            Format::Anthropic,
            &json!({"type": "tool_use", "id": "t1", "name": "x", "input": {"a": 1}}),
        );
        assert_eq!(a.map(|c| c.arguments), Ok(json!({"a": 1})));
        let o = parse_call(
            Format::OpenaiChat,
            &json!({"id": "c", "type": "function", "function": {"name": "x", "arguments": "{\"a\":2}"}}),
        );
        assert_eq!(o.map(|c| c.arguments), Ok(json!({"a": 2})));
        let bad = parse_call(
            Format::OpenaiResponses,
            &json!({"type": "function_call", "call_id": "c", "name": "x", "arguments": "{"}),
        );
        assert_eq!(bad.map_err(|e| e.code), Err(ErrorCode::InputInvalid));
    }
}
