//! `GateStep::cancel`: one call ends a call at whatever step it waits, records
//! the activity and returns the `cancelled` outcome.

mod common;

use common::{native, secret};
use holaryn_core::ActivityKind;
use holaryn_core::SessionOptions;
use holaryn_core::{CallStatus, GateStep, HookAnswer, Stage};
use holaryn_core::{Code, Runtime};
use serde_json::json;

fn world(code_mode: bool) -> (Runtime, String) {
    let mut rt = Runtime::new();
    rt.register_values(&[native("read_file", "Read a file")], 0)
        .expect("registers");
    let opts = SessionOptions {
        dynamic_discovery: true,
        bounded_code_mode: code_mode,
        ..SessionOptions::default()
    };
    let sid = rt.create_session(opts, &secret(7), 0).expect("session");
    for name in ["read_file", "run_tool_code"] {
        let _ = rt.tool_inspect(&sid, &json!({ "name": name }), 1);
    }
    (rt, sid)
}

fn last_record(rt: &Runtime) -> holaryn_core::ActivityRecord {
    rt.activity_since(0).pop().expect("a record")
}

#[test]
fn cancel_before_execution_records_and_returns_cancelled() {
    let (mut rt, sid) = world(false);
    let step = rt.start_call(&sid, "read_file", json!({"path": "a"}), 2);
    assert!(matches!(step, GateStep::HookBefore(_)));
    let o = step.cancel(&mut rt, 3);
    assert_eq!(
        (o.status, o.code, o.stage, o.executed),
        (
            CallStatus::Cancelled,
            Code::CallCancelled,
            Stage::HookBefore,
            false
        )
    );
    let rec = last_record(&rt);
    assert_eq!(
        (rec.kind, rec.outcome, rec.tool.as_deref()),
        (
            ActivityKind::Invocation,
            Code::CallCancelled,
            Some("read_file")
        )
    );
}

#[test]
fn cancel_during_execution_says_the_tool_ran() {
    let (mut rt, sid) = world(false);
    let GateStep::HookBefore(h) = rt.start_call(&sid, "read_file", json!({"path": "a"}), 2) else {
        panic!("expected the before hook")
    };
    let step = h.resume(&mut rt, HookAnswer::Continue, 2);
    assert!(matches!(step, GateStep::Execute(_)));
    let o = step.cancel(&mut rt, 9);
    assert_eq!(
        (o.status, o.stage, o.executed, o.duration_ms),
        (CallStatus::Cancelled, Stage::Execute, true, 7)
    );
    assert_eq!(last_record(&rt).outcome, Code::CallCancelled);
}

#[test]
fn cancelling_a_finished_call_keeps_its_outcome_and_records_nothing_more() {
    let (mut rt, sid) = world(false);
    let step = rt.start_call(&sid, "no_such_tool", json!({}), 2);
    let before = rt.activity_since(0).len();
    let o = step.cancel(&mut rt, 3);
    assert_eq!((o.status, o.code), (CallStatus::Refused, Code::ToolUnknown));
    assert_eq!(rt.activity_since(0).len(), before);
}

#[test]
fn cancel_during_an_inner_call_cancels_the_bounded_code_run() {
    let (mut rt, sid) = world(true);
    let handle = rt
        .tool_inspect(&sid, &json!({"name": "read_file"}), 1)
        .ok()
        .and_then(|o| o.handle)
        .expect("handle");
    let code = format!("call(\"{handle}\", {{\"path\": \"a\"}})");
    let GateStep::HookBefore(h) = rt.start_call(&sid, "run_tool_code", json!({ "code": code }), 2)
    else {
        panic!("expected the outer before hook")
    };
    let step = h.resume(&mut rt, HookAnswer::Continue, 2);
    // The outer call runs the interpreter; its inner call waits on its hook.
    let GateStep::HookBefore(inner) = step else {
        panic!("expected the inner before hook, got {step:?}")
    };
    assert!(inner.call().is_code_call());
    let o = GateStep::HookBefore(inner).cancel(&mut rt, 4);
    assert_eq!(
        (o.status, o.code, o.tool.as_deref()),
        (
            CallStatus::Cancelled,
            Code::CallCancelled,
            Some("run_tool_code")
        )
    );
    let run = o.output.expect("the run's result");
    assert_eq!(run["status"], "cancelled");
    let summary = rt
        .activity_since(0)
        .into_iter()
        .find(|r| r.kind == ActivityKind::CodeSummary)
        .expect("a run summary");
    assert_eq!(summary.outcome, Code::CodeCancelled);
}
