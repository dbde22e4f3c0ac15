//! The deferred export mode (issue 20): the Anthropic tools array stays
//! byte-identical across inspects and registry changes, an inspect is
//! answered by a `tool_reference` exactly when the pinned definition is the
//! inspected descriptor, and every call still runs only what was inspected.

mod common;

use common::drive::{drive, Script};
use common::secret;
use holaryn_core::CallStatus;
use holaryn_core::SessionOptions;
use holaryn_core::Update;
use holaryn_core::{reference_result, ExportMode, ExportOptions};
use holaryn_core::{ErrorCode, Runtime};
use holaryn_model::Format;
use serde_json::{json, Value};

fn tool(name: &str, provider: &str, description: &str) -> Value {
    json!({
        "name": name, "description": description, "source": "mcp",
        "provider": {"id": provider, "kind": "mcp"}, "trust": "trusted",
        "inputSchema": {"type": "object", "properties": {"path": {"type": "string"}}, "required": ["path"]}
    })
}

const DEFERRED: ExportOptions = ExportOptions {
    mode: ExportMode::Deferred,
};

fn tools_text(rt: &mut Runtime, sid: &str) -> String {
    let e = rt
        .export_tools_with(sid, Format::Anthropic, &DEFERRED)
        .expect("export");
    Value::Array(e.tools).to_string()
}

fn run(rt: &mut Runtime, sid: &str, wire: &str) -> Result<Vec<String>, ErrorCode> {
    let target = rt
        .model_call_target(sid, Format::Anthropic, wire)
        .map_err(|e| e.code)?;
    let mut now = 50;
    let step = rt.start_call(sid, &target, json!({"path": "p"}), now);
    let d = drive(rt, step, &Script::default(), &mut now);
    if d.outcome.status == CallStatus::Ok {
        return Ok(d.versions);
    }
    assert!(d.executed.is_empty());
    assert_eq!(
        d.outcome.code,
        ErrorCode::SchemaNotLoaded,
        "{wire} -> {target}: {}",
        d.outcome.message
    );
    Err(ErrorCode::SchemaNotLoaded)
}

#[test]
fn the_tools_array_never_changes_and_calls_run_only_what_was_inspected() {
    let mut rt = Runtime::new();
    rt.register_values(
        &[
            tool("fs/read", "fs", "Read a file"),
            tool("fs/write", "fs", "Write a file"),
            tool("gh/issue", "gh", "Open an issue"),
        ],
        0,
    )
    .expect("tools");
    let opts = SessionOptions {
        dynamic_discovery: true,
        ..SessionOptions::default()
    };
    let sid = rt.create_session(opts, &secret(5), 0).expect("session");
    let first = tools_text(&mut rt, &sid);
    let arr: Vec<Value> = serde_json::from_str(&first).expect("json");
    assert_eq!(arr.len(), 6, "3 discovery tools + 3 deferred");
    assert!(arr[..3].iter().all(|t| t.get("defer_loading").is_none()));
    assert!(arr[3..].iter().all(|t| t["defer_loading"] == json!(true)));

    // Never inspected: the gate refuses even though the API would accept the name.
    assert_eq!(
        run(&mut rt, &sid, "fs__read"),
        Err(ErrorCode::SchemaNotLoaded)
    );
    // Inspect: answered by reference (the pinned definition is the current one).
    let out = rt
        .tool_inspect(&sid, &json!({"name": "fs/read"}), 1)
        .expect("inspect");
    let out = serde_json::to_value(out).expect("json");
    let wire = rt
        .inspect_reference(&sid, Format::Anthropic, &out)
        .expect("by reference");
    assert_eq!(wire, "fs__read");
    let r = reference_result("toolu_1", &out, &wire);
    assert_eq!(
        r["content"][1],
        json!({"type": "tool_reference", "tool_name": "fs__read"})
    );
    assert!(!r["content"][0]["text"]
        .as_str()
        .unwrap_or("")
        .contains("\"schema\""));
    assert_eq!(tools_text(&mut rt, &sid), first, "inspect: unchanged");
    let v1 = out["version"].as_str().expect("version").to_string();
    assert_eq!(run(&mut rt, &sid, "fs__read"), Ok(vec![v1.clone()]));

    // A change to another provider: array unchanged, fs/read still callable.
    rt.register_values(&[tool("gh/issue", "gh", "Open a GitHub issue")], 2)
        .expect("change gh");
    assert_eq!(
        tools_text(&mut rt, &sid),
        first,
        "unrelated change: unchanged"
    );
    assert_eq!(run(&mut rt, &sid, "fs__read"), Ok(vec![v1.clone()]));

    // A change to the inspected tool: array unchanged (pinned), the call asks for an inspect.
    rt.register_values(&[tool("fs/read", "fs", "Read a text file")], 3)
        .expect("change fs/read");
    assert_eq!(tools_text(&mut rt, &sid), first, "changed tool: pinned");
    assert_eq!(
        run(&mut rt, &sid, "fs__read"),
        Err(ErrorCode::SchemaNotLoaded)
    );
    let again = rt
        .tool_inspect(&sid, &json!({"name": "fs/read"}), 4)
        .expect("inspect");
    let again = serde_json::to_value(again).expect("json");
    assert_eq!(
        rt.inspect_reference(&sid, Format::Anthropic, &again),
        None,
        "the pinned definition is stale: the schema goes inline"
    );
    let v2 = again["version"].as_str().expect("version").to_string();
    assert_ne!(v1, v2);
    assert_eq!(run(&mut rt, &sid, "fs__read"), Ok(vec![v2]));

    // Removal keeps the entry; the call says it was removed.
    rt.update(
        Update {
            remove: vec!["fs/write".into()],
            ..Update::default()
        },
        5,
    )
    .expect("remove");
    assert_eq!(tools_text(&mut rt, &sid), first, "removal: unchanged");
    assert_eq!(run(&mut rt, &sid, "fs__write"), Err(ErrorCode::ToolUnknown));

    // A new permitted tool is appended: the prefix stays.
    rt.register_values(&[tool("fs/list", "fs", "List a folder")], 6)
        .expect("add");
    let grown = tools_text(&mut rt, &sid);
    assert!(grown.starts_with(&first[..first.len() - 1]), "prefix kept");
    assert!(grown.contains("fs__list"));

    // Other formats refuse the mode.
    let err = rt.export_tools_with(&sid, Format::OpenaiResponses, &DEFERRED);
    assert_eq!(err.map_err(|e| e.code).err(), Some(ErrorCode::InputInvalid));
}
