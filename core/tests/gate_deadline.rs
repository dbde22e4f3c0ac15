//! Every wait is bounded: a bounded-code run's deadline covers hooks,
//! approval, execution and screening of its inner calls; nothing starts at or
//! after it; a call cut off is recorded as cut off (and as never executed
//! when it never was); top-level waits end at their own due times.

mod common;

use common::secret;
use holaryn_core::ActivityKind;
use holaryn_core::Runtime;
use holaryn_core::SessionOptions;
use holaryn_core::{
    ApprovalAnswer, CallOutcome, CallStatus, ExecAnswer, GateStep, HookAnswer, HookPhase,
    ScreenAnswer, Stage,
};
use serde_json::{json, Value};

/// How long (host ms) the scripted host takes at each step, and what it answers.
#[derive(Clone, Default)]
struct Slow {
    before: u64,
    approval: u64,
    execute: u64,
    after: u64,
    screen: u64,
    /// Answer with the step's `TimedOut` (the host's timer fired) instead.
    timer_fires: bool,
}

struct Run {
    outcome: CallOutcome,
    executed: Vec<String>,
    /// (step, host time it started, the due time the core gave), inner calls only
    waits: Vec<(&'static str, u64, u64)>,
}

fn world(ask_first: bool, timeout_ms: u64) -> (Runtime, String) {
    let mut rt = Runtime::new();
    let tool = json!({
        "name": "send_mail", "description": "Send an e-mail",
        "source": "native", "provider": {"id": "host", "kind": "native"}, "trust": "builtin",
        "annotations": {"destructiveHint": ask_first},
        "inputSchema": {"type": "object", "properties": {"to": {"type": "string"}}}
    });
    rt.register_values(&[tool], 0).expect("tool registers");
    let opts: SessionOptions = serde_json::from_value(json!({
        "dynamicDiscovery": true, "boundedCodeMode": true,
        "codeLimits": {"timeoutMs": timeout_ms}, "callbackTimeoutMs": 5_000
    }))
    .expect("options");
    let sid = rt.create_session(opts, &secret(3), 0).expect("session");
    for name in ["send_mail", "run_tool_code"] {
        rt.tool_inspect(&sid, &json!({ "name": name }), 0)
            .expect("inspect");
    }
    (rt, sid)
}

fn handle(rt: &mut Runtime, sid: &str) -> String {
    let out = rt
        .tool_inspect(sid, &json!({"name": "send_mail"}), 0)
        .expect("inspect");
    out.handle.expect("a handle")
}

/// Drive with the clock advanced by `slow` at each step.
fn drive(rt: &mut Runtime, mut step: GateStep, slow: &Slow, now: &mut u64) -> Run {
    let mut executed = Vec::new();
    let mut waits = Vec::new();
    loop {
        step = match step {
            GateStep::Done(outcome) => {
                return Run {
                    outcome,
                    executed,
                    waits,
                }
            }
            GateStep::HookBefore(r) | GateStep::HookAfter(r) => {
                let (name, ms) = match r.phase {
                    HookPhase::Before => ("before", slow.before),
                    HookPhase::After => ("after", slow.after),
                };
                if !r.call().is_code_call() {
                    // The outer `run_tool_code` call's own hooks answer at once.
                    r.resume(rt, HookAnswer::Continue, *now)
                } else if slow.timer_fires && ms > r.call().wait_ms(*now) {
                    waits.push((name, *now, *now + r.call().wait_ms(*now)));
                    *now += r.call().wait_ms(*now);
                    r.resume(rt, HookAnswer::TimedOut, *now)
                } else {
                    waits.push((name, *now, *now + r.call().wait_ms(*now)));
                    *now += ms;
                    r.resume(rt, HookAnswer::Continue, *now)
                }
            }
            GateStep::Approval(r) => {
                waits.push(("approval", *now, *now + r.call().wait_ms(*now)));
                if slow.timer_fires && slow.approval > r.call().wait_ms(*now) {
                    *now += r.call().wait_ms(*now);
                    r.resume(rt, ApprovalAnswer::TimedOut, *now)
                } else {
                    *now += slow.approval;
                    r.resume(rt, ApprovalAnswer::Approve, *now)
                }
            }
            GateStep::Execute(r) => {
                waits.push(("execute", *now, *now + r.call().wait_ms(*now)));
                executed.push(r.call().tool_name().unwrap_or_default().to_string());
                if slow.timer_fires && slow.execute > r.call().wait_ms(*now) {
                    *now += r.call().wait_ms(*now) + 1;
                    r.resume(rt, ExecAnswer::TimedOut, *now)
                } else {
                    *now += slow.execute;
                    r.resume(
                        rt,
                        ExecAnswer::Ok {
                            output: json!({"sent": true}),
                        },
                        *now,
                    )
                }
            }
            GateStep::Screen(r) => {
                waits.push(("screen", *now, *now + r.call().wait_ms(*now)));
                if slow.timer_fires && slow.screen > r.call().wait_ms(*now) {
                    *now += r.call().wait_ms(*now);
                    r.resume(rt, ScreenAnswer::TimedOut, *now)
                } else {
                    *now += slow.screen;
                    r.resume(rt, ScreenAnswer::Pass, *now)
                }
            }
        };
    }
}

/// Run `call(h, {...})` twice in bounded code (timeoutMs 200) with `slow`.
fn code_run(ask_first: bool, slow: &Slow) -> (Run, Value, Runtime) {
    let (mut rt, sid) = world(ask_first, 200);
    let h = handle(&mut rt, &sid);
    let code = format!("a = call(\"{h}\", {{\"to\": \"x\"}})\ncall(\"{h}\", {{\"to\": \"y\"}})");
    let mut now = 1_000;
    let step = rt.start_call(&sid, "run_tool_code", json!({ "code": code }), now);
    let run = drive(&mut rt, step, slow, &mut now);
    let result = run.outcome.output.clone().expect("a code result");
    (run, result, rt)
}

fn row(result: &Value, i: usize) -> &Value {
    &result["trace"][i]
}

#[test]
fn an_approval_slower_than_the_run_cuts_the_call_off_before_it_executes() {
    for timer_fires in [false, true] {
        let slow = Slow {
            approval: 400,
            timer_fires,
            ..Slow::default()
        };
        let (run, result, rt) = code_run(true, &slow);
        assert!(run.executed.is_empty(), "execute was reached: {result:#}");
        assert_eq!(result["status"], "timed_out");
        assert_eq!(result["trace"].as_array().map(Vec::len), Some(1));
        assert_eq!(row(&result, 0)["status"], "timed_out");
        assert_eq!(row(&result, 0)["errorCode"], "call.timed_out");
        assert_eq!(row(&result, 0)["durationMs"], 0);
        assert_eq!(result["error"]["code"], "call.timed_out");
        let msg = result["error"]["message"].as_str().unwrap_or_default();
        assert!(msg.contains("never ran"), "{msg}");
        // The approval's wait ended at the run's deadline.
        let approval = run.waits.iter().find(|w| w.0 == "approval").expect("asked");
        assert_eq!(approval.2, 1_200);
        // The inner call's record is a denial-kind row (never invoked), cut off.
        let rec = rt
            .activity_since(0)
            .into_iter()
            .find(|r| r.path.as_deref() == Some("code") && r.outcome.as_str() == "call.timed_out")
            .expect("inner record");
        assert_eq!(rec.kind, ActivityKind::Denial);
    }
}

#[test]
fn a_slow_before_hook_cuts_the_call_off_before_approval_or_execution() {
    for timer_fires in [false, true] {
        let slow = Slow {
            before: 250,
            timer_fires,
            ..Slow::default()
        };
        let (run, result, _) = code_run(true, &slow);
        assert!(run.executed.is_empty(), "{result:#}");
        assert!(!run.waits.iter().any(|w| w.0 == "approval"));
        assert_eq!(result["status"], "timed_out");
        assert_eq!(row(&result, 0)["status"], "timed_out");
        assert_eq!(row(&result, 0)["durationMs"], 0);
    }
}

#[test]
fn execution_gets_only_the_time_left_and_a_late_after_hook_drops_the_output() {
    // 150 ms of approval leaves 50 ms for the tool, whatever its own timeout.
    let slow = Slow {
        approval: 150,
        execute: 30,
        after: 100,
        ..Slow::default()
    };
    let (run, result, _) = code_run(true, &slow);
    let exec = run
        .waits
        .iter()
        .find(|w| w.0 == "execute")
        .expect("executed");
    assert_eq!((exec.1, exec.2), (1_150, 1_200));
    assert_eq!(run.executed.len(), 1);
    assert_eq!(result["status"], "timed_out");
    // It executed, then was cut off in the after hook: the row says so.
    assert_eq!(row(&result, 0)["status"], "timed_out");
    assert_eq!(row(&result, 0)["durationMs"], 130);
    assert_eq!(result["value"], Value::Null);
    assert_eq!(result["trace"].as_array().map(Vec::len), Some(1));
}

#[test]
fn no_step_starts_at_the_deadline() {
    // The approval answers exactly at the deadline: the answer counts, but
    // execution cannot start (it would have no time at all).
    let slow = Slow {
        approval: 200,
        ..Slow::default()
    };
    let (run, result, _) = code_run(true, &slow);
    assert!(run.executed.is_empty());
    assert_eq!(row(&result, 0)["status"], "timed_out");
    assert_eq!(result["status"], "timed_out");
}

#[test]
fn every_inner_wait_ends_by_the_deadline_and_nothing_runs_after_it() {
    for ms in [0u64, 1, 40, 99, 100, 101, 199, 200, 201, 400] {
        for which in 0..5 {
            for timer_fires in [false, true] {
                let mut slow = Slow {
                    timer_fires,
                    ..Slow::default()
                };
                match which {
                    0 => slow.before = ms,
                    1 => slow.approval = ms,
                    2 => slow.execute = ms,
                    3 => slow.after = ms,
                    _ => slow.screen = ms,
                }
                let (run, result, _) = code_run(true, &slow);
                for (step, started, due) in &run.waits {
                    assert!(*started < 1_200, "{step} started at {started}: {result:#}");
                    assert!(*due <= 1_200, "{step} due at {due}");
                }
                let ok_rows = result["trace"]
                    .as_array()
                    .map(|t| t.iter().filter(|r| r["status"] == "ok").count())
                    .unwrap_or(0);
                assert!(ok_rows <= run.executed.len());
                if result["status"] == "completed" {
                    assert_eq!(ok_rows, 2);
                }
            }
        }
    }
}

#[test]
fn top_level_waits_end_at_their_own_due_times() {
    let (mut rt, sid) = world(true, 200);
    // An approval that never comes: the host's timer fires at callbackTimeoutMs.
    let mut now = 10;
    let step = rt.start_call(&sid, "send_mail", json!({"to": "x"}), now);
    let slow = Slow {
        approval: 60_000,
        timer_fires: true,
        ..Slow::default()
    };
    let run = drive(&mut rt, step, &slow, &mut now);
    assert!(run.executed.is_empty());
    assert_eq!(run.outcome.status, CallStatus::TimedOut);
    assert_eq!(run.outcome.stage, Stage::Approval);
    assert!(!run.outcome.executed);
    let approval = run.waits.iter().find(|w| w.0 == "approval").expect("asked");
    assert_eq!(approval.2 - approval.1, 5_000);
    // An approval that arrives after its due time is cut off all the same.
    let step = rt.start_call(&sid, "send_mail", json!({"to": "x"}), now);
    let slow = Slow {
        approval: 5_001,
        ..Slow::default()
    };
    let run = drive(&mut rt, step, &slow, &mut now);
    assert!(run.executed.is_empty());
    assert_eq!(run.outcome.status, CallStatus::TimedOut);
    // A screen that never answers withholds the output.
    let step = rt.start_call(&sid, "send_mail", json!({"to": "x"}), now);
    let slow = Slow {
        screen: 120_000,
        timer_fires: true,
        ..Slow::default()
    };
    let run = drive(&mut rt, step, &slow, &mut now);
    assert_eq!(run.executed.len(), 1);
    assert_eq!(run.outcome.status, CallStatus::TimedOut);
    assert_eq!(run.outcome.stage, Stage::Screen);
    assert!(run.outcome.executed);
    assert_eq!(run.outcome.output, None);
}
