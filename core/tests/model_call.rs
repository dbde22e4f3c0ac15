//! Model-call routing in the core (issue 17) and model mistakes as tool
//! results with faithful content (issue 20): `Runtime::dispatch` and
//! `Runtime::dispatch_model_call` step by step, with a scripted host.

mod common;

use common::drive::{drive, Exec, Script};
use common::{native, secret};
use holaryn_core::ApprovalReason;
use holaryn_core::EmbedFailure;
use holaryn_core::GateStep;
use holaryn_core::ModelCallStep;
use holaryn_core::SessionOptions;
use holaryn_core::{ErrorCode, Runtime};
use holaryn_model::Format;
use serde_json::{json, Value};

fn runtime(tools: &[Value]) -> Runtime {
    let mut rt = Runtime::new();
    rt.register_values(tools, 0).expect("tools register");
    rt
}

fn session(rt: &mut Runtime, dynamic: bool) -> String {
    let opts = SessionOptions {
        dynamic_discovery: dynamic,
        ..SessionOptions::default()
    };
    rt.create_session(opts, &secret(7), 0).expect("session")
}

/// Drive a model call to its result with `script`, counting executions.
fn finish(rt: &mut Runtime, step: ModelCallStep, script: &Script) -> (Value, usize) {
    let mut now = 10;
    let mut ran = 0;
    let mut step = step;
    loop {
        step = match step {
            ModelCallStep::Done(v) => return (v, ran),
            ModelCallStep::Embed(call) => call.resume(rt, Err(EmbedFailure::NoEmbedder), now),
            ModelCallStep::Gate(call) => {
                let (gate, then) = call.into_parts();
                let d = drive(rt, gate, script, &mut now);
                ran += d.executed.len();
                ModelCallStep::Done(then.resume(d.outcome))
            }
        };
    }
}

fn returning(output: Value) -> Script {
    Script {
        exec: Exec::Ok(output, 1),
        ..Script::default()
    }
}

fn call(format: Format, id: &str, name: &str, args: Value) -> Value {
    let text = args.to_string();
    match format {
        Format::Anthropic => json!({"type": "tool_use", "id": id, "name": name, "input": args}),
        Format::OpenaiChat => {
            json!({"id": id, "type": "function", "function": {"name": name, "arguments": text}})
        }
        Format::OpenaiResponses => {
            json!({"type": "function_call", "call_id": id, "name": name, "arguments": text})
        }
        Format::Mcp => json!({"name": name, "arguments": args}),
    }
}

/// The error object inside a result's (single) text, per format.
fn error_of(format: Format, r: &Value) -> Value {
    let text = match format {
        Format::Anthropic | Format::OpenaiChat => r["content"].as_str(),
        Format::OpenaiResponses => r["output"].as_str(),
        Format::Mcp => r["content"][0]["text"].as_str(),
    };
    let v: Value = serde_json::from_str(text.expect("one text")).expect("JSON text");
    v["error"].clone()
}

fn is_error(format: Format, r: &Value) -> Option<bool> {
    match format {
        Format::Anthropic => r["is_error"].as_bool(),
        Format::Mcp => r["isError"].as_bool(),
        _ => None,
    }
}

#[test]
fn discovery_tools_run_at_once_and_gated_calls_suspend() {
    let mut rt = runtime(&[native("read_file", "Read a file")]);
    let sid = session(&mut rt, true);
    let step = rt.dispatch(&sid, "tool_search", json!({"query": "read a file"}), 1);
    let (v, ran) = finish(&mut rt, step.expect("session"), &Script::default());
    assert_eq!((v["isError"].clone(), ran), (json!(false), 0));
    assert_eq!(v["content"]["results"][0]["name"], "read_file");
    let step = rt.dispatch(&sid, "tool_inspect", json!({"name": "read_file"}), 2);
    assert!(
        matches!(step, Ok(ModelCallStep::Done(_))),
        "inspect runs at once"
    );
    let step = rt.dispatch(&sid, "read_file", json!({"path": "a"}), 3);
    assert!(
        matches!(step, Ok(ModelCallStep::Gate(_))),
        "a tool call suspends"
    );
    let (v, ran) = finish(&mut rt, step.expect("session"), &returning(json!("hi")));
    assert_eq!(
        (v["isError"].clone(), v["content"].clone(), ran),
        (json!(false), json!("hi"), 1)
    );
    assert_eq!(v["outcome"]["code"], "ok");
    let bad = rt.dispatch(&sid, "tool_list", json!({"limit": "x"}), 4);
    let (v, _) = finish(&mut rt, bad.expect("session"), &Script::default());
    assert_eq!(v["content"]["error"]["code"], "input.invalid");
}

#[test]
fn a_static_session_refuses_discovery_tools_as_results() {
    let mut rt = runtime(&[native("read_file", "Read a file")]);
    let sid = session(&mut rt, false);
    for name in ["tool_search", "tool_list", "tool_inspect"] {
        let step = rt.dispatch(&sid, name, json!({"query": "x", "name": "read_file"}), 1);
        let (v, ran) = finish(&mut rt, step.expect("session"), &Script::default());
        assert_eq!((v["isError"].clone(), ran), (json!(true), 0), "{name}");
        assert_eq!(v["content"]["error"]["code"], "tool.unknown");
        assert!(v["content"]["error"]["nextAction"].is_string());
    }
    for format in Format::ALL {
        let c = call(format, "c1", "tool_search", json!({"query": "x"}));
        let step = rt.dispatch_model_call(&sid, format, &c, 2);
        let (r, _) = finish(&mut rt, step.expect("session"), &Script::default());
        assert_eq!(error_of(format, &r)["code"], "tool.unknown", "{format:?}");
        assert_ne!(is_error(format, &r), Some(false));
    }
}

#[test]
fn unknown_sessions_and_unaddressable_calls_are_host_errors() {
    let mut rt = runtime(&[native("read_file", "Read a file")]);
    let e = rt
        .dispatch("nope", "read_file", json!({}), 1)
        .expect_err("no session");
    assert_eq!(e.code, ErrorCode::SessionUnknown);
    let c = call(Format::Anthropic, "c", "read_file", json!({}));
    let e = rt.dispatch_model_call("nope", Format::Anthropic, &c, 1);
    assert_eq!(
        e.map(|_| ()).map_err(|e| e.code),
        Err(ErrorCode::SessionUnknown)
    );
    let sid = session(&mut rt, true);
    for (format, c) in [
        (
            Format::Anthropic,
            json!({"type": "tool_use", "name": "x", "input": {}}),
        ),
        (Format::OpenaiChat, json!("not an object")),
        (
            Format::OpenaiResponses,
            json!({"type": "function_call", "name": "x"}),
        ),
    ] {
        let e = rt.dispatch_model_call(&sid, format, &c, 1);
        assert_eq!(
            e.map(|_| ()).map_err(|e| e.code),
            Err(ErrorCode::InputInvalid)
        );
    }
}

#[test]
fn model_mistakes_are_each_formats_error_result() {
    let mut rt = runtime(&[native("read_file", "Read a file")]);
    let sid = session(&mut rt, true);
    let _ = rt.tool_inspect(&sid, &json!({"name": "read_file"}), 1);
    let mistakes = |format: Format| -> Vec<(Value, &'static str)> {
        let mut v = vec![
            (
                call(format, "c1", "no_such_tool", json!({})),
                "tool.unknown",
            ),
            (
                call(format, "c2", "read_file", json!(["not", "an", "object"])),
                "args.invalid",
            ),
        ];
        match format {
            Format::OpenaiChat => v.push((
                json!({"id": "c3", "type": "function", "function": {"name": "read_file", "arguments": "{not json"}}),
                "input.invalid",
            )),
            Format::OpenaiResponses => v.push((
                json!({"type": "function_call", "call_id": "c3", "name": "read_file", "arguments": "{not json"}),
                "input.invalid",
            )),
            Format::Anthropic => v.push((json!({"type": "tool_use", "id": "c3", "input": {}}), "input.invalid")),
            Format::Mcp => v.push((json!({"arguments": {}}), "input.invalid")),
        }
        v
    };
    for format in Format::ALL {
        for (c, code) in mistakes(format) {
            let step = rt.dispatch_model_call(&sid, format, &c, 2);
            let (r, ran) = finish(
                &mut rt,
                step.expect("a result, never a throw"),
                &Script::default(),
            );
            assert_eq!(ran, 0, "{format:?} {c}");
            let err = error_of(format, &r);
            assert_eq!(err["code"], code, "{format:?} {c}");
            assert!(err["nextAction"].is_string(), "{format:?} {c}: {err}");
            assert!(err.get("output").is_none(), "no empty fields: {err}");
            assert_ne!(is_error(format, &r), Some(false));
            let id = ["tool_use_id", "tool_call_id", "call_id"]
                .iter()
                .find_map(|k| r.get(*k));
            if format != Format::Mcp {
                assert_eq!(
                    id,
                    c.get("id").or(c.get("call_id")),
                    "{format:?}: addressed to the call"
                );
            }
        }
    }
}

#[test]
fn a_stale_wire_name_is_a_result_and_nothing_runs() {
    let mut rt = runtime(&[native("read_file", "v1")]);
    let sid = session(&mut rt, true);
    let _ = rt.tool_inspect(&sid, &json!({"name": "read_file"}), 1);
    let _ = rt.export_tools(&sid, Format::Anthropic);
    rt.register_values(&[native("read_file", "v2, never shown")], 2)
        .expect("re-register");
    // Issue 20: the tool changed since the model saw it, so it asks to be inspected again.
    let c = call(Format::Anthropic, "c", "read_file", json!({"path": "a"}));
    let step = rt.dispatch_model_call(&sid, Format::Anthropic, &c, 4);
    let (r, ran) = finish(&mut rt, step.expect("result"), &Script::default());
    assert_eq!((ran, r["is_error"].clone()), (0, json!(true)));
    assert_eq!(error_of(Format::Anthropic, &r)["code"], "schema.not_loaded");
    // Once the model's inspect showed v2, the call runs v2.
    let _ = rt.tool_inspect(&sid, &json!({"name": "read_file"}), 5);
    let step = rt.dispatch_model_call(&sid, Format::Anthropic, &c, 6);
    let (r, ran) = finish(&mut rt, step.expect("result"), &Script::default());
    assert_eq!((ran, r["is_error"].clone()), (1, json!(false)));
}

#[test]
fn a_canonical_name_reaches_the_tool_listed_under_its_call_name() {
    // `gh/create_issue` is listed as `gh__create_issue`; an MCP client or cache
    // from before call names still calls it by the canonical name.
    let mut tool = native("create_issue", "Create an issue");
    tool["name"] = json!("gh/create_issue");
    tool["provider"] = json!({"id": "gh"});
    let mut rt = runtime(&[tool]);
    let sid = session(&mut rt, true);
    let _ = rt.tool_inspect(&sid, &json!({"name": "gh/create_issue"}), 1);
    for format in [Format::Mcp, Format::Anthropic] {
        let listed = rt.export_tools(&sid, format).expect("export");
        assert!(listed.names.contains_key("gh__create_issue"), "{format:?}");
        let c = call(format, "c", "gh/create_issue", json!({"path": "a"}));
        let step = rt.dispatch_model_call(&sid, format, &c, 2);
        let (r, ran) = finish(&mut rt, step.expect("result"), &returning(json!("ok")));
        // A model only ever saw the wire name: it is not guessed from the canonical one.
        let expected = if format == Format::Mcp { 1 } else { 0 };
        assert_eq!(ran, expected, "{format:?}: {r}");
    }
    // A canonical name no list shows stays unknown.
    let c = call(Format::Mcp, "c", "gh/close_issue", json!({}));
    let step = rt.dispatch_model_call(&sid, Format::Mcp, &c, 3);
    let (r, ran) = finish(&mut rt, step.expect("result"), &Script::default());
    assert_eq!((ran, is_error(Format::Mcp, &r)), (0, Some(true)));
}

fn ok_call(output: Value, format: Format) -> Value {
    let mut rt = runtime(&[native("read_file", "Read a file")]);
    let sid = session(&mut rt, true);
    let _ = rt.tool_inspect(&sid, &json!({"name": "read_file"}), 1);
    let c = call(format, "c1", "read_file", json!({"path": "a"}));
    let step = rt.dispatch_model_call(&sid, format, &c, 2);
    finish(&mut rt, step.expect("result"), &returning(output)).0
}

const PNG: &str = "iVBORw0KGgo=";

fn mcp_content() -> Value {
    json!({"content": [
        {"type": "text", "text": "hello"},
        {"type": "image", "data": PNG, "mimeType": "image/png"},
        {"type": "resource_link", "uri": "file:///a.txt", "name": "a.txt", "mimeType": "text/plain"}
    ]})
}

#[test]
fn each_format_gets_its_own_blocks_once() {
    let text = json!({"content": [{"type": "text", "text": "hello"}]});
    let link = "[resource link: a.txt <file:///a.txt>, text/plain]";
    assert_eq!(
        ok_call(text.clone(), Format::Anthropic),
        json!({"type": "tool_result", "tool_use_id": "c1", "content": "hello", "is_error": false})
    );
    assert_eq!(
        ok_call(mcp_content(), Format::Anthropic)["content"],
        json!([{"type": "text", "text": "hello"},
               {"type": "image", "source": {"type": "base64", "media_type": "image/png", "data": PNG}},
               {"type": "text", "text": link}])
    );
    assert_eq!(
        ok_call(text.clone(), Format::OpenaiChat),
        json!({"role": "tool", "tool_call_id": "c1", "content": "hello"})
    );
    assert_eq!(
        ok_call(mcp_content(), Format::OpenaiChat)["content"],
        json!([{"type": "text", "text": "hello"},
               {"type": "text", "text": "[image/png, 8 bytes, not shown: this format's tool results carry text only]"},
               {"type": "text", "text": link}])
    );
    assert_eq!(
        ok_call(text.clone(), Format::OpenaiResponses),
        json!({"type": "function_call_output", "call_id": "c1", "output": "hello"})
    );
    assert_eq!(
        ok_call(mcp_content(), Format::OpenaiResponses)["output"],
        json!([{"type": "input_text", "text": "hello"},
               {"type": "input_image", "image_url": format!("data:image/png;base64,{PNG}")},
               {"type": "input_text", "text": link}])
    );
    let mut mcp = mcp_content();
    mcp["isError"] = json!(false);
    assert_eq!(
        ok_call(mcp_content(), Format::Mcp),
        mcp,
        "MCP passes through"
    );
}

#[test]
fn structured_content_goes_beside_content_once_and_plain_json_is_one_text() {
    let both =
        json!({"content": [{"type": "text", "text": "3 files"}], "structuredContent": {"n": 3}});
    assert_eq!(
        ok_call(both.clone(), Format::Anthropic)["content"],
        json!([{"type": "text", "text": "3 files"}, {"type": "text", "text": "{\"n\":3}"}])
    );
    let echoed =
        json!({"content": [{"type": "text", "text": "{\"n\": 3}"}], "structuredContent": {"n": 3}});
    assert_eq!(
        ok_call(echoed, Format::OpenaiChat)["content"],
        "{\"n\": 3}",
        "not twice"
    );
    assert_eq!(
        ok_call(both.clone(), Format::Mcp)["structuredContent"],
        json!({"n": 3})
    );
    assert_eq!(
        ok_call(json!({"n": 3}), Format::OpenaiResponses)["output"],
        "{\"n\":3}"
    );
    assert_eq!(
        ok_call(json!({"n": 3}), Format::Mcp),
        json!({"content": [{"type": "text", "text": "{\"n\":3}"}], "structuredContent": {"n": 3}, "isError": false})
    );
}

#[test]
fn the_output_cap_counts_what_the_model_receives() {
    let text = "x".repeat(100);
    let output = json!({"content": [{"type": "text", "text": text}]});
    assert_eq!(holaryn_core::model_bytes(&output), 100);
    assert_eq!(holaryn_core::model_bytes(&json!({"a": 1})), 7);
    let mut rt = runtime(&[native("read_file", "Read a file")]);
    let opts = SessionOptions {
        dynamic_discovery: true,
        max_output_bytes: Some(100),
        ..SessionOptions::default()
    };
    let sid = rt.create_session(opts, &secret(7), 0).expect("session");
    let _ = rt.tool_inspect(&sid, &json!({"name": "read_file"}), 1);
    let step = rt.dispatch(&sid, "read_file", json!({"path": "a"}), 2);
    let (v, _) = finish(&mut rt, step.expect("session"), &returning(output));
    assert_eq!(
        v["outcome"]["code"], "ok",
        "100 bytes of text fit a 100-byte cap"
    );
    assert_eq!(v["outcome"]["outputBytes"], 100);
}

#[test]
fn approval_reasons_come_from_the_core() {
    let mut destructive = native("delete_file", "Delete a file");
    destructive["annotations"] = json!({"destructiveHint": true});
    let mut ask = native("send_mail", "Send mail");
    ask["approval"] = json!("ask");
    let mut rt = runtime(&[destructive, ask, native("run_tool_script", "legacy")]);
    let sid = session(&mut rt, false);
    for (tool, reason, words) in [
        (
            "delete_file",
            "destructive",
            "it may make destructive changes",
        ),
        ("send_mail", "ask_first", "it is marked ask-first"),
        (
            "run_tool_script",
            "ambient_process_access",
            "it has ambient process access",
        ),
    ] {
        let step = rt.start_call(&sid, tool, json!({"path": "a"}), 1);
        let step = match step {
            GateStep::HookBefore(r) => r.resume(&mut rt, holaryn_core::HookAnswer::Continue, 2),
            s => s,
        };
        let GateStep::Approval(r) = step else {
            panic!("{tool} asks first")
        };
        let why = ApprovalReason::of(r.call().descriptor().expect("resolved"));
        assert_eq!((why.as_str(), why.text()), (reason, words));
        let _ = r.cancel(&mut rt, 3);
    }
}

#[test]
fn mcp_exports_carry_an_output_schema_where_the_tool_has_one() {
    let mut counted = native("count_files", "Count files");
    counted["outputSchema"] = json!({"type": "object", "properties": {"n": {"type": "number"}}});
    let mut rt = runtime(&[counted, native("read_file", "Read a file")]);
    let sid = session(&mut rt, false);
    for format in Format::ALL {
        let export = rt.export_tools(&sid, format).expect("export");
        let with: Vec<&str> = export
            .tools
            .iter()
            .filter(|t| t.get("outputSchema").is_some())
            .filter_map(|t| t["name"].as_str())
            .collect();
        let want: &[&str] = if format == Format::Mcp {
            &["count_files"]
        } else {
            &[]
        };
        assert_eq!(with, want, "{format:?}");
    }
}

#[test]
fn a_calls_activity_record_carries_the_models_tool_call_id() {
    let mut rt = runtime(&[native("read_file", "Read a file")]);
    let sid = session(&mut rt, true);
    rt.tool_inspect(&sid, &json!({"name": "read_file"}), 1)
        .expect("inspect");
    for (i, format) in [
        Format::Anthropic,
        Format::OpenaiChat,
        Format::OpenaiResponses,
    ]
    .into_iter()
    .enumerate()
    {
        let id = format!("model_call_{i}");
        let ok = call(format, &id, "read_file", json!({"path": "a"}));
        let step = rt
            .dispatch_model_call(&sid, format, &ok, 2)
            .expect("session");
        finish(&mut rt, step, &returning(json!("hi")));
        let rec = rt.activity_since(0).pop().expect("a record");
        assert_eq!(rec.tool_call_id.as_deref(), Some(id.as_str()), "{format:?}");
        assert!(
            rec.call_id.is_some_and(|c| c != id),
            "the gate's own id stays"
        );
        // A refusal before the gate resolves a tool keeps it too.
        let bad = call(format, &format!("{id}_bad"), "no_such_tool", json!({}));
        let step = rt
            .dispatch_model_call(&sid, format, &bad, 3)
            .expect("session");
        finish(&mut rt, step, &Script::default());
        let rec = rt.activity_since(0).pop().expect("a record");
        assert_eq!(rec.tool_call_id, Some(format!("{id}_bad")));
    }
    // MCP calls carry no id; a direct call has none.
    let step = rt
        .dispatch_model_call(
            &sid,
            Format::Mcp,
            &call(Format::Mcp, "", "read_file", json!({})),
            4,
        )
        .expect("session");
    finish(&mut rt, step, &returning(json!("hi")));
    assert_eq!(
        rt.activity_since(0).pop().expect("record").tool_call_id,
        None
    );
}

#[test]
fn an_openai_chat_custom_tool_call_is_an_error_result() {
    let mut rt = runtime(&[native("read_file", "Read a file")]);
    let sid = session(&mut rt, true);
    let custom =
        json!({"id": "call_c1", "type": "custom", "custom": {"name": "read_file", "input": "a"}});
    let step = rt
        .dispatch_model_call(&sid, Format::OpenaiChat, &custom, 1)
        .expect("a result, not an error");
    let (v, ran) = finish(&mut rt, step, &returning(json!("hi")));
    assert_eq!(
        (v["role"].clone(), v["tool_call_id"].clone(), ran),
        (json!("tool"), json!("call_c1"), 0)
    );
    let e = error_of(Format::OpenaiChat, &v);
    assert_eq!(e["code"], "input.invalid");
    assert!(
        e["message"].as_str().is_some_and(|m| m.contains("custom")),
        "{e}"
    );
}
