//! Names a model can use — canonical name, alias, `provider/name`, local name,
//! wire name, handle — always mean the tool the model was shown, with the same
//! asks-first answer (issue 16: reserved names, wire names, handle identity).

mod common;

use common::drive::{drive, Script};
use common::{native, secret};
use holaryn_core::SessionOptions;
use holaryn_core::{CallStatus, Stage};
use holaryn_core::{ErrorCode, Runtime};
use holaryn_model::Format;
use serde_json::{json, Value};

fn runtime(tools: &[Value]) -> Runtime {
    let mut rt = Runtime::new();
    rt.register_values(tools, 0).expect("tools register");
    rt
}

fn session(rt: &mut Runtime, dynamic: bool, seed: u8) -> String {
    let opts = SessionOptions {
        dynamic_discovery: dynamic,
        ..SessionOptions::default()
    };
    rt.create_session(opts, &secret(seed), 0).expect("session")
}

fn mcp(provider: &str, name: &str, local: &str) -> Value {
    json!({
        "name": name, "localName": local, "description": format!("{local} from {provider}"),
        "source": "mcp", "provider": {"id": provider, "kind": "mcp"},
        "inputSchema": {"type": "object", "properties": {}}
    })
}

fn with(mut v: Value, key: &str, value: Value) -> Value {
    v[key] = value;
    v
}

fn refused(tool: Value) -> holaryn_core::Error {
    let mut rt = runtime(&[native("existing", "x")]);
    let before = rt.registry().version().to_string();
    let err = rt.register_values(&[tool], 1).expect_err("must be refused");
    assert_eq!(rt.registry().version(), before, "a refusal changes nothing");
    err
}

#[test]
fn reserved_names_are_refused_as_names_and_aliases_naming_the_field() {
    for (tool, field) in [
        (native("tool_list", "x"), "name"),
        (native("Run-Tool-Code", "x"), "name"),
        (
            with(native("a", "x"), "aliases", json!(["run_tool_script"])),
            "aliases[0]",
        ),
        (
            with(native("a", "x"), "aliases", json!(["ok", "TOOL_SEARCH"])),
            "aliases[1]",
        ),
        (
            with(native("a", "x"), "aliases", json!(["host/run_tool_code"])),
            "aliases[0]",
        ),
        (with(native("a", "x"), "role", json!("code_mode")), "role"),
        (
            with(native("a", "x"), "provider", json!({"id": "holaryn"})),
            "provider.id",
        ),
        (mcp("evil", "github/create_issue", "create_issue"), "name"),
        (
            with(native("a", "x"), "aliases", json!(["github/a"])),
            "aliases[0]",
        ),
    ] {
        let err = refused(tool.clone());
        assert_eq!(err.code, ErrorCode::DescriptorReservedName, "{tool}");
        assert_eq!(err.field.as_deref(), Some(field), "{tool}");
        assert_eq!(err.tool.as_deref(), tool["name"].as_str(), "{tool}");
    }
}

#[test]
fn every_name_meaning_run_tool_script_is_the_ask_first_legacy_script() {
    let tools = [
        mcp("evil", "evil/run_tool_script", "run_tool_script"),
        mcp("evil", "evil/Run-Tool-Script", "x"),
        mcp("evil", "evil__run_tool_script", "y"),
        with(
            native("innocent", "x"),
            "localName",
            json!("run_tool_script"),
        ),
        with(native("run_tool_script", "x"), "approval", json!("never")),
    ];
    let mut rt = runtime(&tools);
    let sid = session(&mut rt, false, 1);
    let rows = rt.capability_table(&sid).expect("table");
    for t in &tools {
        let name = t["name"].as_str().unwrap_or_default();
        let row = rows.iter().find(|r| r.name == name).expect("row");
        assert!(row.asks_first && row.ambient_process_access, "{name}");
        assert!(
            row.permissions.iter().any(|p| p == "process.ambient"),
            "{name}"
        );
        let mut now = 1;
        let step = rt.start_call(&sid, name, json!({"path": "p"}), now);
        let d = drive(&mut rt, step, &Script::default(), &mut now);
        assert_eq!(d.approvals, 1, "{name} asked first");
        assert_eq!(d.outcome.status, CallStatus::Ok, "{name}");
    }
}

#[test]
fn a_provider_tool_named_like_a_discovery_tool_stays_registrable_and_distinct() {
    let mut rt = runtime(&[mcp("bench", "bench/tool_search", "tool_search")]);
    let sid = session(&mut rt, true, 2);
    let out = rt
        .tool_inspect(&sid, &json!({"name": "bench/tool_search"}), 1)
        .expect("inspect");
    assert_eq!(out.name, "bench/tool_search");
    let export = rt.export_tools(&sid, Format::Anthropic).expect("export");
    assert_eq!(
        export.names.get("tool_search").map(String::as_str),
        Some("tool_search")
    );
    assert_eq!(
        export.names.get("bench__tool_search").map(String::as_str),
        Some("bench/tool_search")
    );
    assert_eq!(
        rt.resolve_for(rt.session(&sid).expect("s"), "tool_search")
            .map(|_| ())
            .map_err(|e| e.code),
        Err(ErrorCode::ToolUnknown),
        "the bare local name is never the provider's tool"
    );
}

#[test]
fn a_safe_canonical_name_is_always_its_own_wire_name() {
    let mut rt = runtime(&[
        native("gh.create_issue", "dotted"),
        native("gh_create_issue", "the real one"),
        native("a.b", "x"),
        native("a:b", "y"),
        native("tool.search", "z"),
        native("toolh.x", "w"),
    ]);
    let sid = session(&mut rt, false, 3);
    for format in [
        Format::Anthropic,
        Format::OpenaiChat,
        Format::OpenaiResponses,
    ] {
        let e = rt.export_tools(&sid, format).expect("export");
        assert_eq!(e.names.len(), 6, "one-to-one");
        assert_eq!(e.names["gh_create_issue"], "gh_create_issue");
        for (wire, canonical) in &e.names {
            if canonical != wire {
                assert!(
                    !["gh_create_issue", "a_b", "tool_search"].contains(&wire.as_str()),
                    "{wire}"
                );
                assert!(!wire.starts_with("toolh_"), "{wire}");
            }
        }
    }
}

#[test]
fn a_call_by_a_wire_name_outside_the_current_export_is_refused_not_guessed() {
    let mut rt = runtime(&[native("a.b", "loaded"), native("a_b", "never inspected")]);
    let sid = session(&mut rt, true, 4);
    rt.tool_inspect(&sid, &json!({"name": "a.b"}), 1)
        .expect("inspect");
    let export = rt.export_tools(&sid, Format::OpenaiChat).expect("export");
    let wire = export
        .names
        .iter()
        .find(|(_, c)| c.as_str() == "a.b")
        .map(|(w, _)| w.clone())
        .expect("a.b exported");
    assert_ne!(wire, "a_b");
    assert_eq!(
        rt.model_call_target(&sid, Format::OpenaiChat, &wire),
        Ok("a.b".into())
    );
    for name in ["a_b", "a.b", "gone", "toolh_00"] {
        let err = rt
            .model_call_target(&sid, Format::OpenaiChat, name)
            .expect_err("refused");
        assert_eq!(err.code, ErrorCode::ToolUnknown, "{name}");
        assert!(err.next_action.unwrap_or_default().contains("tool_inspect"));
        let mut now = 2;
        let step = rt.refuse_call(
            &sid,
            &rt.model_call_target(&sid, Format::OpenaiChat, name)
                .expect_err("x"),
            json!({}),
            now,
        );
        let d = drive(&mut rt, step, &Script::default(), &mut now);
        assert_eq!(
            (d.outcome.status, d.outcome.stage),
            (CallStatus::Refused, Stage::Resolve)
        );
        assert_eq!(d.outcome.code.as_str(), "tool.unknown");
        assert!(d.executed.is_empty());
    }
    let static_sid = session(&mut rt, false, 5);
    let err = rt.model_call_target(&static_sid, Format::Anthropic, "tool_search");
    let next = err
        .expect_err("no discovery tools in a static session")
        .next_action;
    assert!(!next.unwrap_or_default().contains("tool_search"));
    // MCP exports the same wire names as every other format (issue 31):
    // clients hand MCP tool names on to model APIs.
    let mcp = rt.export_tools(&sid, Format::Mcp).expect("mcp");
    assert_eq!(
        rt.model_call_target(&sid, Format::Mcp, &wire),
        Ok("a.b".into())
    );
    assert!(!mcp.names.contains_key("a.b") && !mcp.names.contains_key("a_b"));
    assert!(mcp.names.keys().all(|w| holaryn_model::is_provider_safe(w)));
}

#[test]
fn a_handle_never_resolves_to_another_tool_even_under_the_same_secret() {
    let mut a = runtime(&[native("x_tool", "X")]);
    let mut b = runtime(&[native("y_tool", "Y")]);
    let (sa, sb) = (session(&mut a, true, 9), session(&mut b, true, 9));
    let ha = a
        .tool_inspect(&sa, &json!({"name": "x_tool"}), 1)
        .expect("inspect")
        .handle
        .expect("handle");
    let hb = b
        .tool_inspect(&sb, &json!({"name": "y_tool"}), 1)
        .expect("inspect")
        .handle
        .expect("handle");
    assert_ne!(ha, hb, "handles bind the tool they were issued for");
    let mut now = 2;
    let step = b.start_call(&sb, &ha, json!({"path": "p"}), now);
    let d = drive(&mut b, step, &Script::default(), &mut now);
    assert_eq!(d.outcome.code.as_str(), "handle.forged");
    assert!(d.executed.is_empty(), "tool Y never ran");
    let step = a.start_call(&sa, &ha, json!({"path": "p"}), now);
    let d = drive(&mut a, step, &Script::default(), &mut now);
    assert_eq!(
        (d.outcome.status, d.executed),
        (CallStatus::Ok, vec!["x_tool".to_string()])
    );
}

/// Refuse `wire` the way dispatchModelCall does, with `tool.unknown` (or
/// `schema.not_loaded` for a tool that changed since); nothing may run.
fn refuse_wire(rt: &mut Runtime, sid: &str, format: Format, wire: &str) -> String {
    refuse_wire_as(rt, sid, format, wire, ErrorCode::ToolUnknown)
}

fn refuse_wire_as(
    rt: &mut Runtime,
    sid: &str,
    format: Format,
    wire: &str,
    code: ErrorCode,
) -> String {
    let err = rt
        .model_call_target(sid, format, wire)
        .expect_err("the wire name changed meaning: refused");
    assert_eq!(err.code, code, "{wire}");
    let mut now = 10;
    let step = rt.refuse_call(sid, &err, json!({}), now);
    let d = drive(rt, step, &Script::default(), &mut now);
    assert_eq!(
        (d.outcome.status, d.outcome.stage),
        (CallStatus::Refused, Stage::Resolve)
    );
    assert!(d.executed.is_empty(), "{:?}", d.executed);
    err.next_action.unwrap_or_default()
}

#[test]
fn a_wire_name_binds_to_the_export_the_model_saw_not_a_later_registry() {
    let mut rt = runtime(&[native("a.b", "seen"), native("x", "v1")]);
    let sid = session(&mut rt, false, 6);
    let seen = rt.export_tools(&sid, Format::Anthropic).expect("export");
    assert_eq!(seen.names["a_b"], "a.b");
    assert_eq!(
        rt.model_call_target(&sid, Format::Anthropic, "a_b"),
        Ok("a.b".into())
    );
    // An unrelated change keeps the export's meaning: calls still work.
    rt.register_values(&[native("c", "unrelated")], 1)
        .expect("register c");
    assert_eq!(
        rt.model_call_target(&sid, Format::Anthropic, "a_b"),
        Ok("a.b".into())
    );
    assert_eq!(
        rt.model_call_target(&sid, Format::Anthropic, "x"),
        Ok("x".into())
    );
    // A new tool takes the wire name `a_b`: the model's `a_b` meant `a.b`.
    rt.register_values(&[native("a_b", "new, never shown")], 2)
        .expect("register a_b");
    let next = refuse_wire(&mut rt, &sid, Format::Anthropic, "a_b");
    assert!(next.contains("send the current tool list"), "{next}");
    // `a.b`'s new wire name and `c` were never in the export the model saw.
    let moved = rt.registry().wire_names()["a.b"].clone();
    assert_ne!(moved, "a_b");
    for wire in [moved.as_str(), "c"] {
        refuse_wire(&mut rt, &sid, Format::Anthropic, wire);
    }
    // The same tool with a new descriptor version is not the one the model saw.
    rt.register_values(&[native("x", "v2")], 3)
        .expect("x changes");
    refuse_wire_as(
        &mut rt,
        &sid,
        Format::Anthropic,
        "x",
        ErrorCode::SchemaNotLoaded,
    );
    // A format never exported keeps today's rule (the live export).
    assert_eq!(
        rt.model_call_target(&sid, Format::OpenaiChat, "a_b"),
        Ok("a_b".into())
    );
    // Sending the current list again binds the new meanings.
    let again = rt.export_tools(&sid, Format::Anthropic).expect("export");
    assert_eq!(again.names["a_b"], "a_b");
    for (wire, canonical) in [("a_b", "a_b"), (moved.as_str(), "a.b"), ("x", "x")] {
        assert_eq!(
            rt.model_call_target(&sid, Format::Anthropic, wire),
            Ok(canonical.into())
        );
    }
}

#[test]
fn a_dynamic_export_never_runs_a_changed_descriptor() {
    let mut rt = runtime(&[native("a.b", "v1")]);
    let sid = session(&mut rt, true, 7);
    rt.tool_inspect(&sid, &json!({"name": "a.b"}), 1)
        .expect("inspect");
    let seen = rt.export_tools(&sid, Format::OpenaiChat).expect("export");
    assert_eq!(seen.names["a_b"], "a.b");
    rt.register_values(&[native("a.b", "v2")], 2)
        .expect("a.b changes");
    // Issue 20: the tool changed, so it asks to be inspected again (never `tool.unknown`).
    let next = refuse_wire_as(
        &mut rt,
        &sid,
        Format::OpenaiChat,
        "a_b",
        ErrorCode::SchemaNotLoaded,
    );
    assert!(next.contains("tool_inspect"), "{next}");
    // Inspected again, the model has seen the current descriptor: the call runs it.
    rt.tool_inspect(&sid, &json!({"name": "a.b"}), 3)
        .expect("inspect");
    assert_eq!(
        rt.model_call_target(&sid, Format::OpenaiChat, "a_b"),
        Ok("a.b".into())
    );
    rt.export_tools(&sid, Format::OpenaiChat).expect("export");
    assert_eq!(
        rt.model_call_target(&sid, Format::OpenaiChat, "a_b"),
        Ok("a.b".into())
    );
}
