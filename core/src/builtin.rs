//! The runtime's own model tools: `tool_search`, `tool_list`, `tool_inspect`
//! and `run_tool_code`, with their small exact schemas.
//!
//! The three discovery tools are not registry tools: no policy removes them.
//! `run_tool_code` is a catalog entry of the runtime's own (provider
//! `holaryn`) that is discoverable only when bounded code mode is on, and is
//! loaded like any tool, through `tool_inspect`.

use crate::registry::Entry;
use crate::validate::{footprint_of, tool_version};
use holaryn_code::CodeLimits;
use holaryn_model::json_digest;
use holaryn_model::{
    Annotations, ApprovalMode, Invokability, Provider, Source, ToolDescriptor, ToolRole, Trust,
    Visibility,
};
use holaryn_model::{RUN_TOOL_CODE, TOOL_INSPECT, TOOL_LIST, TOOL_SEARCH};
use serde::Serialize;
use serde_json::{json, Value};
use std::sync::Arc;

/// A model-visible tool definition (name, description, exact input schema).
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ModelTool {
    /// Tool name as the model calls it.
    pub name: String,
    /// Description.
    pub description: String,
    /// Exact input JSON Schema.
    pub input_schema: Value,
}

impl ModelTool {
    /// Bytes of `{"name","description","input_schema"}` as JSON, the footprint unit.
    pub fn footprint(&self) -> u64 {
        footprint_of(&self.name, &self.description, &self.input_schema)
    }
}

const STATES: [&str; 7] = [
    "loaded",
    "available",
    "approval_required",
    "denied",
    "hidden",
    "catalog_only",
    "unavailable",
];

/// The three discovery tools, always first in a dynamic session.
pub fn discovery_tools() -> Vec<ModelTool> {
    let sources = json!([
        "native",
        "mcp",
        "skill",
        "slash_command",
        "browser",
        "extension",
        "connected_app"
    ]);
    vec![
        ModelTool {
            name: TOOL_SEARCH.into(),
            description: "Search the tool catalog. Returns up to 8 ranked tools (no schemas) with why each matched, or nothingFits and a hint. If a request can be worded several ways, pass up to 2 other phrasings in alternatives. Call tool_inspect on one to load its schema before calling it.".into(),
            input_schema: json!({
                "type": "object",
                "properties": {
                    "query": {"type": "string", "minLength": 1, "maxLength": 512, "description": "What you want to do, in plain words."},
                    "alternatives": {"type": "array", "maxItems": 2, "items": {"type": "string", "minLength": 1, "maxLength": 512}},
                    "limit": {"type": "integer", "minimum": 1, "maximum": 8},
                    "source": {"type": "string", "enum": sources},
                    "provider": {"type": "string"},
                    "state": {"type": "string", "enum": STATES}
                },
                "required": ["query"],
                "additionalProperties": false
            }),
        },
        ModelTool {
            name: TOOL_LIST.into(),
            description: "List catalog tools (no schemas), filtered by availability state, source or provider. Page with the returned cursor.".into(),
            input_schema: json!({
                "type": "object",
                "properties": {
                    "state": {"type": "string", "enum": STATES},
                    "source": {"type": "string", "enum": sources},
                    "provider": {"type": "string"},
                    "limit": {"type": "integer", "minimum": 1, "maximum": 200},
                    "cursor": {"type": "string"}
                },
                "additionalProperties": false
            }),
        },
        ModelTool {
            name: TOOL_INSPECT.into(),
            description: "Inspect one tool by exact name, alias or handle. When permitted, loads its exact schema so you can call it, and returns a handle.".into(),
            input_schema: json!({
                "type": "object",
                "properties": {
                    "name": {"type": "string", "minLength": 1, "maxLength": 512, "description": "Exact tool name, alias, or toolh_ handle."}
                },
                "required": ["name"],
                "additionalProperties": false
            }),
        },
    ]
}

/// The `run_tool_code` catalog entry.
pub fn code_tool_entry() -> Entry {
    let max = CodeLimits::MAX;
    let input_schema = json!({
        "type": "object",
        "properties": {
            "code": {
                "type": "string",
                "description": format!("A short program: lines `name = call(\"toolh_…\", {{...}})` or `call(\"toolh_…\", {{...}})`, using handles from tool_inspect. Literals and earlier names only; at most {} KiB.", max.max_source_bytes / 1024)
            }
        },
        "required": ["code"],
        "additionalProperties": false
    });
    let mut d = ToolDescriptor {
        name: RUN_TOOL_CODE.into(),
        local_name: RUN_TOOL_CODE.into(),
        title: "Run tool code".into(),
        description: format!(
            "Run a short program that makes several already-inspected tool calls in one turn (bounded code mode: sequential calls only, at most {} calls, {} s, {} KiB of output). Returns a JSON trace.",
            max.max_calls,
            max.timeout_ms / 1000,
            max.max_output_bytes / 1024
        ),
        aliases: Vec::new(),
        source: Source::Native,
        provider: Provider {
            id: "holaryn".into(),
            kind: "runtime".into(),
            display_name: "Holaryn runtime".into(),
            version: Some(env!("CARGO_PKG_VERSION").into()),
            origin: None,
            description: None,
        },
        trust: Trust::Builtin,
        permissions: Vec::new(),
        schema_hash: json_digest(&input_schema),
        input_schema: input_schema.into(),
        output_schema: None,
        annotations: Annotations::default(),
        visibility: Visibility::ModelVisible,
        invokability: Invokability::Callable,
        approval: ApprovalMode::Never,
        timeout_ms: Some(max.timeout_ms),
        role: ToolRole::CodeMode,
        usage: None,
        schema_missing: false,
        dialect: None,
        version: String::new(),
    };
    d.version = tool_version(&d);
    let validator = crate::validate::SchemaValidator::default();
    Entry {
        footprint: footprint_of(&d.name, &d.description, &d.input_schema),
        descriptor: Arc::new(d),
        validator,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_code_tool_states_the_limits_of_code_limits_max() {
        let d = code_tool_entry().descriptor;
        assert!(
            d.description
                .contains("at most 16 calls, 30 s, 64 KiB of output"),
            "{}",
            d.description
        );
        assert_eq!(d.timeout_ms, Some(CodeLimits::MAX.timeout_ms));
    }

    #[test]
    fn footprint_counts_the_same_bytes_as_the_json_it_stands_for() {
        for t in discovery_tools() {
            let text = json!({"name": t.name, "description": t.description, "input_schema": t.input_schema}).to_string();
            assert_eq!(t.footprint(), text.len() as u64, "{}", t.name);
        }
        let odd = json!({"type": "object", "description": "quotes \" and \u{1F600} and \n"});
        let text = json!({"name": "n\"", "description": "é", "input_schema": odd}).to_string();
        assert_eq!(footprint_of("n\"", "é", &odd), text.len() as u64);
        let schema_len = odd.to_string().len() as u64;
        assert_eq!(
            crate::validate::footprint_with("n\"", "é", schema_len),
            text.len() as u64
        );
    }
}
