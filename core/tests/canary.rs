//! Activity records and events never copy prompts, queries, arguments,
//! outputs, host messages or secrets: canaries placed in every one of those,
//! on success and failure paths alike, must never appear in any record.

mod common;

use common::drive::{drive, Exec, Script};
use common::{native, secret};
use holaryn_core::Runtime;
use holaryn_core::SessionOptions;
use holaryn_core::{HookAnswer, ScreenAnswer};
use serde_json::json;

const CANARY: &str = "CANARY-5f1e9c";

fn all_text(rt: &mut Runtime) -> String {
    let events = rt.drain_events();
    let records = rt.activity_since(0);
    format!(
        "{}\n{}",
        serde_json::to_string(&events).unwrap_or_default(),
        serde_json::to_string(&records).unwrap_or_default()
    )
}

#[test]
fn no_record_or_event_ever_holds_a_canary() {
    let mut rt = Runtime::new();
    let mut destructive = native("delete_file", "Delete a file");
    destructive["annotations"] = json!({"destructiveHint": true});
    rt.register_values(&[native("read_file", "Read a file"), destructive], 0)
        .expect("tools");
    let opts = SessionOptions {
        dynamic_discovery: true,
        bounded_code_mode: true,
        max_output_bytes: Some(4096),
        ..SessionOptions::default()
    };
    let sid = rt.create_session(opts, &secret(3), 0).expect("session");
    let c = CANARY;
    // Queries, successful and failing.
    let _ = rt.tool_search(&sid, &json!({"query": format!("read {c}")}), 1);
    let _ = rt.tool_search(&sid, &json!({"query": c.repeat(100)}), 1);
    let _ = rt.tool_list(&sid, &json!({"cursor": c}), 1);
    let _ = rt.tool_inspect(&sid, &json!({"name": c}), 1);
    let read = rt
        .tool_inspect(&sid, &json!({"name": "read_file"}), 2)
        .expect("inspect");
    let del = rt
        .tool_inspect(&sid, &json!({"name": "delete_file"}), 2)
        .expect("inspect");
    rt.tool_inspect(&sid, &json!({"name": "run_tool_code"}), 2)
        .expect("inspect");
    let mut now = 10;
    let scripts = [
        Script {
            exec: Exec::Ok(json!({"text": c}), 1),
            ..Script::default()
        },
        Script {
            exec: Exec::Error(format!("boom {c}")),
            ..Script::default()
        },
        Script {
            before: HookAnswer::Veto { reason: c.into() },
            ..Script::default()
        },
        Script {
            screen: ScreenAnswer::Block { reason: c.into() },
            ..Script::default()
        },
        Script {
            screen: ScreenAnswer::Replace { output: json!(c) },
            ..Script::default()
        },
        Script {
            exec: Exec::Ok(json!({"text": c.repeat(1000)}), 1),
            ..Script::default()
        },
        Script {
            exec: Exec::TimedOut,
            ..Script::default()
        },
        Script {
            cancel_at: Some("execute"),
            ..Script::default()
        },
    ];
    for script in &scripts {
        for target in ["read_file", read.handle.as_deref().unwrap_or(""), c] {
            let step = rt.start_call(&sid, target, json!({"path": c}), now);
            drive(&mut rt, step, script, &mut now);
        }
        let step = rt.start_call(&sid, "read_file", json!({"path": 5, "extra": c}), now);
        drive(&mut rt, step, script, &mut now);
    }
    // Approval denied with a canary reason.
    let denied = Script {
        approve: false,
        ..Script::default()
    };
    let step = rt.start_call(&sid, "delete_file", json!({"path": c}), now);
    drive(&mut rt, step, &denied, &mut now);
    // Bounded code with canaries in arguments, outputs and a syntax error.
    let h = read.handle.clone().unwrap_or_default();
    let d = del.handle.clone().unwrap_or_default();
    for code in [
        format!("a = call(\"{h}\", {{\"path\": \"{c}\"}})\nb = call(\"{d}\", {{\"path\": a}})\n"),
        format!("x = \"{c}\" +"),
        format!("import {c}"),
    ] {
        for script in [&scripts[0], &denied] {
            let step = rt.start_call(&sid, "run_tool_code", json!({ "code": code }), now);
            drive(&mut rt, step, script, &mut now);
        }
    }
    let text = all_text(&mut rt);
    assert!(!text.is_empty());
    assert!(!text.contains(c), "a canary leaked into a record or event");
    assert!(!text.contains("5f1e9c"));
}

#[test]
fn the_session_secret_never_appears() {
    let mut rt = Runtime::new();
    let s: Vec<u8> = b"CANARYSECRETBYTES-0123456789abcd".to_vec();
    let sid = rt
        .create_session(SessionOptions::default(), &s, 0)
        .expect("session");
    let text = all_text(&mut rt) + &sid;
    assert!(!text.contains("CANARYSECRET"));
    assert!(!text.contains(&holaryn_model::hex(&s)));
}
