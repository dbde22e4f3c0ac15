//! Model tool formats: the session's model-visible tools as Anthropic
//! Messages `tools`, OpenAI Chat Completions `tools`, OpenAI Responses
//! `tools` and MCP `Tool` objects; the matching tool-call shapes in, and the
//! provider's tool-result shape out.
//!
//! Provider APIs restrict tool names to `^[a-zA-Z0-9_-]{1,64}$`, so canonical
//! names such as `github/create_issue` are exported under a sanitised *wire
//! name* (`github__create_issue`); [`Export::names`] maps wire names back to
//! canonical names. A call is resolved through the map of the session's
//! current export only ([`Export::canonical`]: a wire name not in it is
//! refused, never guessed) and then, like every call, through the current
//! registry. [`wire_names`] is the rule that keeps the map honest.

use crate::builtin::ModelTool;
use crate::error::{Error, ErrorCode, Result};
use crate::hash::{hex, sha256};
use crate::registry::Registry;
use serde::{Deserialize, Serialize};
use serde_json::{json, Value};
use std::borrow::Cow;
use std::collections::BTreeMap;

mod strict;

/// A model tool format.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
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

/// True when a name is already provider-safe (`^[a-zA-Z0-9_-]{1,64}$`).
pub fn is_provider_safe(name: &str) -> bool {
    !name.is_empty() && name.len() <= 64 && name.chars().all(is_wire_char)
}

/// The preferred provider-safe form of a canonical name (deterministic): the
/// name itself when safe, else `/` → `__`, other characters → `_`, and a hash
/// tag when too long. [`wire_names`] decides what a tool is actually called.
pub fn wire_name(canonical: &str) -> String {
    if is_provider_safe(canonical) {
        return canonical.to_string();
    }
    let mut s = String::with_capacity(canonical.len() + 8);
    for c in canonical.chars() {
        match c {
            '/' => s.push_str("__"),
            c if is_wire_char(c) => s.push(c),
            _ => s.push('_'),
        }
    }
    if s.len() > 64 || s.is_empty() {
        return tagged(&s, canonical, 0);
    }
    s
}

/// `base` cut to 55 bytes plus `_` and 8 hex digits of a hash of `canonical` (and `round`).
fn tagged(base: &str, canonical: &str, round: u32) -> String {
    let mut input = canonical.as_bytes().to_vec();
    if round > 0 {
        input.extend_from_slice(format!("#{round}").as_bytes());
    }
    let mut s = base.to_string();
    s.truncate(55);
    format!("{s}_{}", hex(&sha256(&input)[..4]))
}

/// True when no tool may be exported under `wire` other than a tool whose
/// canonical name it is: the runtime's reserved names and handle-like names.
fn is_reserved_wire(wire: &str) -> bool {
    crate::names::meaning(wire).is_some() || wire.starts_with(crate::validate::HANDLE_PREFIX)
}

/// The wire names that differ from [`wire_name`]: for every registered tool
/// whose canonical name is not provider-safe (the rule; a safe canonical
/// name is always its own wire name). `names` are all registered canonical
/// names in sorted order and `is_registered` says whether a string is a
/// registered name or alias.
///
/// A tool gets its preferred [`wire_name`] only when that is no registered
/// name or alias, no other tool's preferred wire name, no reserved name and
/// not handle-like; otherwise (the tools listed here) the first hash-tagged
/// form that is none of those and not yet given out. The result depends only
/// on the registry, so a wire name stands for one tool in every export of one
/// registry version.
pub fn wire_names<'a>(
    names: impl Iterator<Item = &'a str>,
    is_registered: &dyn Fn(&str) -> bool,
) -> BTreeMap<String, String> {
    let bases: Vec<(&str, String)> = names
        .filter(|n| !is_provider_safe(n))
        .map(|n| (n, wire_name(n)))
        .collect();
    let mut preferred: BTreeMap<&str, u32> = BTreeMap::new();
    for (_, base) in &bases {
        *preferred.entry(base.as_str()).or_default() += 1;
    }
    let clear = |w: &str| !is_registered(w) && !is_reserved_wire(w);
    let mut used: std::collections::BTreeSet<String> = std::collections::BTreeSet::new();
    let mut tagged_names = BTreeMap::new();
    for (canonical, base) in &bases {
        if preferred.get(base.as_str()) == Some(&1) && clear(base) {
            continue; // its preferred wire name (never in `used`: tags avoid every preferred name)
        }
        // A handle-like base stays handle-like when tagged: step off the prefix.
        let stem = match base.strip_prefix(crate::validate::HANDLE_PREFIX) {
            Some(rest) => format!("tool_h_{rest}"),
            None => base.clone(),
        };
        let mut round = 0;
        let wire = loop {
            let w = tagged(&stem, canonical, round);
            if clear(&w) && !preferred.contains_key(w.as_str()) && !used.contains(&w) {
                break w;
            }
            round += 1;
        };
        used.insert(wire.clone());
        tagged_names.insert(canonical.to_string(), wire);
    }
    tagged_names
}

/// The wire name of a canonical name in `format` under the current registry
/// ([`wire_names`], cached per registry version); MCP allows any name, so
/// canonical names go out unchanged.
pub fn wire_for(format: Format, canonical: &str, registry: &Registry) -> String {
    if format == Format::Mcp || is_provider_safe(canonical) {
        return canonical.to_string();
    }
    // Every non-safe exported name is a registry tool's (the runtime's own are safe).
    registry
        .wire_names()
        .get(canonical)
        .cloned()
        .unwrap_or_else(|| wire_name(canonical))
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
    let bytes = crate::json_size::json_len(&out);
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

/// The provider's tool-result shape for a call ([`crate::content::result_shape`]).
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
    fn wire_names_are_provider_safe_and_stable() {
        assert_eq!(wire_name("read_file"), "read_file");
        assert_eq!(wire_name("github/create_issue"), "github__create_issue");
        let long = "x".repeat(80);
        let w = wire_name(&long);
        assert!(w.len() <= 64 && w.chars().all(is_wire_char));
        assert_eq!(w, wire_name(&long));
    }

    #[test]
    fn wire_names_never_take_a_registered_reserved_or_shared_name() {
        let mut names = vec!["a.b", "a:b", "gh.create_issue", "gh_create_issue"];
        names.extend(["tool.search", "toolh.x", "solo/x", "run.tool.script"]);
        names.sort();
        let registered = |w: &str| names.contains(&w);
        let tagged = wire_names(names.iter().copied(), &registered);
        let wire = |n: &str| tagged.get(n).cloned().unwrap_or_else(|| wire_name(n));
        let unsafe_names: Vec<&str> = names
            .iter()
            .copied()
            .filter(|n| !is_provider_safe(n))
            .collect();
        assert_eq!(wire("solo/x"), "solo__x");
        assert!(!tagged.contains_key("solo/x"), "only exceptions are listed");
        let taken = ["a_b", "tool_search", "gh_create_issue", "run_tool_script"];
        let wires: std::collections::BTreeSet<String> =
            unsafe_names.iter().map(|n| wire(n)).collect();
        assert_eq!(wires.len(), unsafe_names.len(), "one-to-one");
        for w in &wires {
            assert!(is_provider_safe(w) && !registered(w) && !taken.contains(&w.as_str()));
            assert!(!w.starts_with("toolh_"), "{w}");
        }
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
