//! Shared helpers for the core's integration tests.
#![allow(dead_code)]

pub mod drive;

use holaryn_core::{parse_catalog_text, CatalogOptions};
use holaryn_core::{Runtime, SessionOptions, ToolSpec};
use serde_json::{json, Value};
use std::path::PathBuf;

/// `tests/fixtures` at the repo root.
pub fn fixtures() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../tests/fixtures")
}

/// Every MCP catalog in `tests/fixtures/mcp`, sorted by file name.
pub fn mcp_files() -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(fixtures().join("mcp"))
        .expect("fixtures/mcp exists")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "json"))
        .collect();
    files.sort();
    files
}

/// Specs of every MCP fixture tool, names qualified as `server/tool`.
pub fn all_mcp_specs() -> Vec<ToolSpec> {
    let mut specs = Vec::new();
    for f in mcp_files() {
        let text = std::fs::read_to_string(&f).expect("readable fixture");
        let opts = CatalogOptions {
            qualify_names: true,
            ..CatalogOptions::default()
        };
        specs.extend(
            parse_catalog_text(&f.to_string_lossy(), &text, &opts).expect("fixture parses"),
        );
    }
    specs
}

/// A small native tool as host JSON.
pub fn native(name: &str, description: &str) -> Value {
    json!({
        "name": name,
        "description": description,
        "source": "native",
        "provider": {"id": "host", "kind": "native", "displayName": "Host"},
        "trust": "builtin",
        "inputSchema": {"type": "object", "properties": {"path": {"type": "string"}}, "required": ["path"]}
    })
}

/// Deterministic 32-byte secret for tests.
pub fn secret(seed: u8) -> Vec<u8> {
    (0..32u8)
        .map(|i| i.wrapping_mul(31).wrapping_add(seed))
        .collect()
}

/// A dynamic-discovery session on `rt` (created at time 0 with `secret(seed)`).
pub fn dynamic_session(rt: &mut Runtime, seed: u8) -> String {
    rt.create_session(
        SessionOptions {
            dynamic_discovery: true,
            ..Default::default()
        },
        &secret(seed),
        0,
    )
    .expect("dynamic session")
}

/// What the gate did with a call: `Ok(true)` past validation (the `before`
/// hook, approval or execute), `Ok(false)` refused as `args.invalid`, else the
/// status and code it ended with.
pub fn verdict(rt: &mut Runtime, sid: &str, tool: &str, args: Value) -> Result<bool, String> {
    use holaryn_core::{CallStatus, GateStep};
    match rt.start_call(sid, tool, args, 1) {
        GateStep::HookBefore(_) | GateStep::Approval(_) | GateStep::Execute(_) => Ok(true),
        GateStep::Done(o)
            if o.status == CallStatus::Refused && o.code.as_str() == "args.invalid" =>
        {
            Ok(false)
        }
        GateStep::Done(o) => Err(format!("{:?} {}", o.status, o.code.as_str())),
        GateStep::HookAfter(_) | GateStep::Screen(_) => Err("past execute".into()),
    }
}

/// Whether a schema's root admits an object (MCP arguments always are one).
pub fn admits_object(schema: &Value) -> bool {
    match schema.get("type") {
        None => true,
        Some(Value::String(t)) => t == "object",
        Some(Value::Array(ts)) => ts.iter().any(|t| t == "object"),
        Some(_) => false,
    }
}

/// `schema` (read in `draft`) as its own resource under the required property
/// `v` of an object schema: it gets `$id` (draft-04: `id`) `id` unless it has
/// one, so its `#`-references still mean it, and its `$schema` moves to the
/// wrapper (`root_schema` when it declares none). `None` for a draft-04–07
/// root `$ref`: there a `$ref`'s siblings, `$id` too, are ignored, so nested it
/// would resolve against the wrapper.
pub fn wrapped(
    schema: &Value,
    draft: holaryn_jsonschema::Draft,
    id: &str,
    root_schema: Option<&str>,
) -> Option<Value> {
    use holaryn_jsonschema::Draft;
    let mut inner = schema.clone();
    let mut declared = None;
    if let Value::Object(o) = &mut inner {
        if draft < Draft::Draft201909 && o.contains_key("$ref") {
            return None;
        }
        declared = o.remove("$schema");
        let id_key = if draft == Draft::Draft4 { "id" } else { "$id" };
        o.entry(id_key).or_insert_with(|| Value::String(id.into()));
    }
    let mut w = json!({"type": "object", "properties": {"v": inner}, "required": ["v"]});
    if let Some(d) = declared.or_else(|| root_schema.map(|u| Value::String(u.into()))) {
        w["$schema"] = d;
    }
    Some(w)
}
