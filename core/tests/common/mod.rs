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
