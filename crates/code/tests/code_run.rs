//! Bounded code: the run state machine with a scripted host and a fake clock.

use holaryn_code::{
    compile, CodeLimits, CodeResult, CodeRun, CodeStatus, CodeStep, InnerCallOutcome, PendingCall,
    Program, RowStatus,
};
use holaryn_model::Code;
use serde_json::{json, Value};
use std::path::PathBuf;
use std::sync::OnceLock;

fn repo(path: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../..")
        .join(path)
}

/// Every result a test produces is checked against the published schema.
fn assert_schema(result: &CodeResult) {
    static VALIDATOR: OnceLock<holaryn_jsonschema::Validator> = OnceLock::new();
    let validator = VALIDATOR.get_or_init(|| {
        let text =
            std::fs::read_to_string(repo("schemas/code-result.schema.json")).expect("schema file");
        let schema: Value = serde_json::from_str(&text).expect("schema json");
        holaryn_jsonschema::validator_for(&schema).expect("valid schema")
    });
    let value = serde_json::to_value(result).expect("result json");
    let errors: Vec<String> = validator
        .iter_errors(&value)
        .map(|e| format!("{e} at {}", e.instance_path()))
        .collect();
    assert!(errors.is_empty(), "schema: {errors:?}\n{value:#}");
    assert_eq!(result.calls_attempted as usize, result.trace.len());
}

fn program(source: &str) -> Program {
    compile(source, &CodeLimits::MAX).unwrap_or_else(|e| panic!("{source:?}: {e}"))
}

fn ok(tool: &str, output: Value, duration_ms: u64) -> InnerCallOutcome {
    InnerCallOutcome::Ok {
        tool: tool.into(),
        output,
        duration_ms,
    }
}

/// A scripted host: `answer(call, now)` returns the outcome and the time it arrives.
fn drive(
    mut step: CodeStep,
    mut answer: impl FnMut(&PendingCall) -> (InnerCallOutcome, u64),
) -> (CodeResult, Vec<Value>) {
    let mut args = Vec::new();
    loop {
        match step {
            CodeStep::Done(result) => {
                assert_schema(&result);
                return (result, args);
            }
            CodeStep::Call(pending) => {
                args.push(pending.args().clone());
                let (outcome, now) = answer(&pending);
                step = pending.resume(outcome, now);
            }
        }
    }
}

fn start(source: &str, limits: CodeLimits, now: u64) -> CodeStep {
    CodeRun::start(program(source), "run_1".into(), limits, now)
}

fn statuses(r: &CodeResult) -> Vec<RowStatus> {
    r.trace.iter().map(|row| row.status).collect()
}

/// A JSON string whose serialised form is exactly `bytes` long.
fn sized(bytes: usize) -> Value {
    Value::String("x".repeat(bytes - 2))
}

#[test]
fn a_completed_run_matches_the_golden_result() {
    let source =
        std::fs::read_to_string(repo("tests/fixtures/code/golden-completed.py")).expect("source");
    let golden: Value = serde_json::from_str(
        &std::fs::read_to_string(repo("tests/fixtures/code/golden-completed.json"))
            .expect("golden"),
    )
    .expect("json");
    let mut now = 1000;
    let step = CodeRun::start(
        compile(&source, &CodeLimits::defaults()).expect("compiles"),
        "run_1".into(),
        CodeLimits::defaults(),
        now,
    );
    let (result, args) = drive(step, |call| match call.index() {
        0 => {
            now += 5;
            (ok("read_file", json!({"text": "hello"}), 5), now)
        }
        _ => {
            now += 7;
            (ok("write_file", json!({"ok": true}), 7), now)
        }
    });
    assert_eq!(serde_json::to_value(&result).expect("json"), golden);
    assert_eq!(args[0], json!({"path": "notes.txt"}));
    assert_eq!(
        args[1],
        json!({"content": {"text": "hello"}, "mode": "append", "retries": -1, "tags": ["a", null, true, 2.5]})
    );
    let back: CodeResult = serde_json::from_value(golden).expect("round trip");
    assert_eq!(back, result);
}

#[test]
fn pending_calls_expose_position_deadline_and_budget() {
    let CodeStep::Call(call) = start(
        "a = call(\"toolh_a\", {\"n\": 1})\n  \ncall(\"toolh_b\")",
        CodeLimits::defaults(),
        500,
    ) else {
        panic!("expected a call")
    };
    assert_eq!(
        (call.index(), call.line(), call.column(), call.handle()),
        (0, 1, 5, "toolh_a")
    );
    assert_eq!(
        (
            call.deadline_ms(),
            call.time_left_ms(600),
            call.time_left_ms(99_999)
        ),
        (20_500, 19_900, 0)
    );
    assert_eq!(
        (call.output_budget(), call.retains_output(), call.run_id()),
        (32_768, true, "run_1")
    );
    let CodeStep::Call(second) = call.resume(ok("t", sized(100), 1), 501) else {
        panic!("expected a call")
    };
    assert_eq!(
        (second.index(), second.line(), second.args()),
        (1, 3, &json!({}))
    );
    assert_eq!(
        (second.output_budget(), second.retains_output()),
        (32_668, true)
    );
}

#[test]
fn the_final_value_is_the_last_statement_and_discarded_outputs_do_not_count() {
    let (r, _) = drive(
        start(
            "a = call(\"toolh_a\")\ncall(\"toolh_b\")\nb = call(\"toolh_c\")",
            CodeLimits::defaults(),
            0,
        ),
        |c| (ok("t", json!({"i": c.index()}), 1), 1),
    );
    assert_eq!(
        (r.status, &r.value),
        (CodeStatus::Completed, &json!({"i": 2}))
    );
    // Rows: 7 bytes each; the middle output was discarded.
    assert_eq!(r.output_bytes, 14);
    let (r, _) = drive(
        start(
            "call(\"toolh_a\")\ncall(\"toolh_b\")",
            CodeLimits::defaults(),
            0,
        ),
        |c| {
            (
                ok(
                    "t",
                    if c.index() == 0 {
                        sized(60_000)
                    } else {
                        json!("last")
                    },
                    1,
                ),
                1,
            )
        },
    );
    assert_eq!(
        (r.status, r.output_bytes, &r.value),
        (CodeStatus::Completed, 6, &json!("last"))
    );
    let (r, _) = drive(
        CodeRun::start(program(""), "run_0".into(), CodeLimits::defaults(), 7),
        |_| unreachable!(),
    );
    assert_eq!(
        (r.status, &r.value, r.calls_attempted, r.duration_ms),
        (CodeStatus::Completed, &Value::Null, 0, 0)
    );
}

fn output_run(limits: CodeLimits, sizes: &[usize]) -> CodeResult {
    let source: String = (0..sizes.len())
        .map(|i| format!("v{i} = call(\"toolh_{i}\")\n"))
        .collect();
    drive(start(&source, limits, 0), |c| {
        (ok("t", sized(sizes[c.index() as usize]), 1), 1)
    })
    .0
}

#[test]
fn output_exactly_at_32_kib_passes_and_one_more_byte_fails() {
    let r = output_run(CodeLimits::defaults(), &[32_768]);
    assert_eq!((r.status, r.output_bytes), (CodeStatus::Completed, 32_768));
    let r = output_run(CodeLimits::defaults(), &[32_769]);
    assert_eq!(
        (r.status, statuses(&r)),
        (CodeStatus::LimitExceeded, vec![RowStatus::LimitExceeded])
    );
    assert_eq!(
        (r.output_bytes, r.trace[0].output_bytes, &r.value),
        (0, 32_769, &Value::Null)
    );
    let e = r.error.expect("error");
    assert_eq!(
        (
            e.code.as_str(),
            e.line,
            r.trace[0].error_code.map(Code::as_str)
        ),
        ("code.limit", Some(1), Some("code.limit"))
    );
    // Cumulative: the second call crosses the limit and is the row marked.
    let r = output_run(CodeLimits::defaults(), &[16_384, 16_384]);
    assert_eq!((r.status, r.output_bytes), (CodeStatus::Completed, 32_768));
    let r = output_run(CodeLimits::defaults(), &[16_384, 16_385, 10]);
    assert_eq!(statuses(&r), vec![RowStatus::Ok, RowStatus::LimitExceeded]);
    assert_eq!(
        (r.status, r.calls_attempted, r.output_bytes),
        (CodeStatus::LimitExceeded, 2, 16_384)
    );
}

#[test]
fn output_exactly_at_64_kib_passes_and_one_more_byte_fails_at_the_maximum() {
    let r = output_run(CodeLimits::MAX, &[65_536]);
    assert_eq!((r.status, r.output_bytes), (CodeStatus::Completed, 65_536));
    let r = output_run(CodeLimits::MAX, &[65_537]);
    assert_eq!(r.status, CodeStatus::LimitExceeded);
    let above = CodeLimits {
        max_output_bytes: 1 << 40,
        ..CodeLimits::MAX
    };
    let r = output_run(above, &[65_537]);
    assert_eq!(
        (r.status, r.limits),
        (CodeStatus::LimitExceeded, CodeLimits::MAX)
    );
}

fn timed(limits: CodeLimits, answers: &[u64]) -> CodeResult {
    let source: String = (0..answers.len())
        .map(|i| format!("v{i} = call(\"toolh_{i}\")\n"))
        .collect();
    drive(start(&source, limits, 1_000), |c| {
        (ok("t", json!(1), 1), answers[c.index() as usize])
    })
    .0
}

#[test]
fn time_exactly_at_the_deadline_passes_and_one_ms_later_times_out() {
    // Default 20 s: deadline 21_000.
    let r = timed(CodeLimits::defaults(), &[21_000]);
    assert_eq!((r.status, r.duration_ms), (CodeStatus::Completed, 20_000));
    let r = timed(CodeLimits::defaults(), &[21_001]);
    assert_eq!(
        (r.status, statuses(&r), &r.value),
        (CodeStatus::TimedOut, vec![RowStatus::Ok], &Value::Null)
    );
    assert_eq!(
        r.error.as_ref().map(|e| e.code.as_str()),
        Some("code.limit")
    );
    // A next call starts only with time left; at the deadline it never starts.
    let r = timed(CodeLimits::defaults(), &[20_999, 21_000]);
    assert_eq!((r.status, r.calls_attempted), (CodeStatus::Completed, 2));
    let r = timed(CodeLimits::defaults(), &[21_000, 21_000]);
    assert_eq!((r.status, r.calls_attempted), (CodeStatus::TimedOut, 1));
    assert_eq!(
        r.error.as_ref().and_then(|e| e.line),
        Some(2),
        "the call that did not start"
    );
    // Maximum 30 s: deadline 31_000.
    assert_eq!(
        timed(CodeLimits::MAX, &[31_000]).status,
        CodeStatus::Completed
    );
    assert_eq!(
        timed(CodeLimits::MAX, &[31_001]).status,
        CodeStatus::TimedOut
    );
}

#[test]
fn a_tool_timeout_mid_sequence_stops_the_remaining_calls() {
    let (r, _) = drive(
        start(
            "a = call(\"toolh_a\")\nb = call(\"toolh_b\")\ncall(\"toolh_c\")",
            CodeLimits::defaults(),
            0,
        ),
        |c| match c.index() {
            0 => (ok("a", json!(1), 3), 3),
            _ => {
                assert_eq!(c.time_left_ms(3), 19_997);
                (
                    InnerCallOutcome::TimedOut {
                        tool: "slow".into(),
                        duration_ms: 19_997,
                    },
                    20_000,
                )
            }
        },
    );
    assert_eq!(
        (r.status, statuses(&r)),
        (
            CodeStatus::TimedOut,
            vec![RowStatus::Ok, RowStatus::TimedOut]
        )
    );
    assert_eq!(
        r.trace[1].error_code.map(Code::as_str),
        Some("call.timed_out")
    );
    assert_eq!(
        (r.trace[1].duration_ms, r.trace[1].tool.as_deref()),
        (19_997, Some("slow"))
    );
    assert_eq!(
        r.error.as_ref().map(|e| (e.code.as_str(), e.line)),
        Some(("call.timed_out", Some(2)))
    );
}

const THREE: &str =
    "a = call(\"toolh_a\")\nb = call(\"toolh_b\", {\"from\": a})\ncall(\"toolh_c\")";

#[test]
fn an_approval_denial_mid_sequence_leaves_a_partial_trace() {
    let (r, args) = drive(start(THREE, CodeLimits::defaults(), 0), |c| {
        match c.index() {
            0 => (ok("read", json!({"t": 1}), 2), 2),
            _ => (
                InnerCallOutcome::Denied {
                    tool: "delete".into(),
                    code: Code::ApprovalDenied,
                    message: "operator said no".into(),
                },
                9,
            ),
        }
    });
    assert_eq!(args.len(), 2);
    assert_eq!(
        (r.status, statuses(&r)),
        (CodeStatus::Denied, vec![RowStatus::Ok, RowStatus::Denied])
    );
    assert_eq!(
        (r.value.clone(), r.output_bytes, r.duration_ms),
        (Value::Null, 7, 9)
    );
    let e = r.error.clone().expect("error");
    assert_eq!(
        (e.code.as_str(), e.line, e.column),
        ("approval.denied", Some(2), Some(5))
    );
    let s = r.summary();
    assert_eq!(
        (
            s.status,
            s.calls_attempted,
            s.calls_ok,
            s.error_code.map(Code::as_str)
        ),
        (CodeStatus::Denied, 2, 1, Some("approval.denied"))
    );
}

#[test]
fn refusal_codes_map_to_rejected_or_denied() {
    for (code, status, row) in [
        ("handle.forged", CodeStatus::Rejected, RowStatus::Refused),
        ("handle.stale", CodeStatus::Rejected, RowStatus::Refused),
        ("tool.unknown", CodeStatus::Rejected, RowStatus::Refused),
        (
            "schema.not_loaded",
            CodeStatus::Rejected,
            RowStatus::Refused,
        ),
        ("args.invalid", CodeStatus::Rejected, RowStatus::Refused),
        ("policy.denied", CodeStatus::Denied, RowStatus::Denied),
        ("hook.vetoed", CodeStatus::Denied, RowStatus::Denied),
    ] {
        let (r, _) = drive(start(THREE, CodeLimits::defaults(), 0), |c| {
            match c.index() {
                0 => (ok("read", json!(1), 1), 1),
                _ => (
                    InnerCallOutcome::Refused {
                        tool: None,
                        code: Code::parse(code).expect("a code"),
                        message: "no".into(),
                    },
                    1,
                ),
            }
        });
        assert_eq!(
            (r.status, statuses(&r)),
            (status, vec![RowStatus::Ok, row]),
            "{code}"
        );
        assert_eq!(r.trace[1].error_code.map(Code::as_str), Some(code));
        assert_eq!(r.trace[1].tool, None);
    }
}

#[test]
fn a_forged_first_handle_is_refused_before_dispatch() {
    let (r, _) = drive(start(THREE, CodeLimits::defaults(), 0), |_| {
        (
            InnerCallOutcome::Refused {
                tool: None,
                code: Code::HandleForged,
                message: "never issued".into(),
            },
            0,
        )
    });
    assert_eq!(
        (r.status, r.calls_attempted, r.trace[0].handle.as_str()),
        (CodeStatus::Rejected, 1, "toolh_a")
    );
    assert_eq!(
        r.error.map(|e| (e.code, e.line)),
        Some((Code::HandleForged, Some(1)))
    );
}

#[test]
fn a_stale_handle_after_a_registry_change_stops_the_run() {
    let (r, _) = drive(start(THREE, CodeLimits::defaults(), 0), |c| {
        match c.index() {
            0 => (ok("read", json!(1), 1), 1),
            _ => (
                InnerCallOutcome::Refused {
                    tool: Some("old".into()),
                    code: Code::HandleStale,
                    message: "stale".into(),
                },
                2,
            ),
        }
    });
    assert_eq!(
        (r.status, r.trace[1].tool.as_deref()),
        (CodeStatus::Rejected, Some("old"))
    );
    assert_eq!(
        r.trace[1].error_code.map(Code::as_str),
        Some("handle.stale")
    );
}

#[test]
fn cancellation_mid_call_records_a_cancelled_row() {
    let CodeStep::Call(first) = start(THREE, CodeLimits::defaults(), 100) else {
        panic!("call")
    };
    let CodeStep::Call(second) = first.resume(ok("read", json!(1), 5), 105) else {
        panic!("call")
    };
    let r = second.cancel(130);
    assert_schema(&r);
    assert_eq!(
        (r.status, statuses(&r)),
        (
            CodeStatus::Cancelled,
            vec![RowStatus::Ok, RowStatus::Cancelled]
        )
    );
    assert_eq!(
        (
            r.trace[1].duration_ms,
            r.trace[1].error_code.map(Code::as_str),
            r.duration_ms
        ),
        (25, Some("call.cancelled"), 30)
    );
    assert_eq!(r.summary().status.as_str(), "cancelled");
    // The gate may also report the cancellation as the call's outcome.
    let CodeStep::Call(first) = start(THREE, CodeLimits::defaults(), 0) else {
        panic!("call")
    };
    let CodeStep::Done(r) = first.resume(
        InnerCallOutcome::Cancelled {
            tool: "read".into(),
            duration_ms: 4,
        },
        4,
    ) else {
        panic!("done")
    };
    assert_eq!(
        (r.status, r.trace[0].tool.as_deref()),
        (CodeStatus::Cancelled, Some("read"))
    );
}

#[test]
fn tool_errors_fail_and_oversized_outputs_exceed_the_limit() {
    let (r, _) = drive(start(THREE, CodeLimits::defaults(), 0), |_| {
        (
            InnerCallOutcome::Failed {
                tool: "read".into(),
                code: Code::ToolFailed,
                message: "boom".into(),
                duration_ms: 3,
            },
            3,
        )
    });
    assert_eq!(
        (r.status, statuses(&r), r.trace[0].duration_ms),
        (CodeStatus::Failed, vec![RowStatus::Failed], 3)
    );
    let (r, _) = drive(start(THREE, CodeLimits::defaults(), 0), |_| {
        (
            InnerCallOutcome::OutputTooLarge {
                tool: "read".into(),
                bytes: 300_000,
            },
            3,
        )
    });
    assert_eq!(
        (r.status, statuses(&r)),
        (CodeStatus::LimitExceeded, vec![RowStatus::OutputTooLarge])
    );
    assert_eq!((r.trace[0].output_bytes, r.output_bytes), (300_000, 0));
    assert_eq!(
        r.trace[0].error_code.map(Code::as_str),
        Some("output.too_large")
    );
}

#[test]
fn the_dynamic_call_count_is_checked_too() {
    // Compiled for 16 calls, started with the default 8: the 9th never starts.
    let source: String = (1..=12).map(|i| format!("call(\"toolh_{i}\")\n")).collect();
    let (r, _) = drive(start(&source, CodeLimits::defaults(), 0), |_| {
        (ok("t", json!(null), 1), 1)
    });
    assert_eq!(
        (r.status, r.calls_attempted),
        (CodeStatus::LimitExceeded, 8)
    );
    let e = r.error.expect("error");
    assert_eq!((e.code.as_str(), e.line), ("code.limit", Some(9)));
}

#[test]
fn a_name_can_be_passed_on_but_not_multiplied() {
    // `a` holds 10,000 bytes; each use of a name counts against maxOutputBytes (32 KiB).
    let run = |uses: usize| {
        let refs = vec!["a"; uses].join(", ");
        let source =
            format!("a = call(\"toolh_a\")\ncall(\"toolh_b\", {{\"x\": [{refs}], \"k\": 1}})\n");
        drive(start(&source, CodeLimits::defaults(), 0), |c| {
            let out = if c.index() == 0 {
                sized(10_000)
            } else {
                json!(null)
            };
            (ok("t", out, 1), 1)
        })
    };
    let (r, args) = run(3);
    assert_eq!(r.status, CodeStatus::Completed);
    assert_eq!(args[1]["x"].as_array().map(Vec::len), Some(3));
    let (r, args) = run(4);
    assert_eq!(
        (r.status, r.calls_attempted, args.len()),
        (CodeStatus::LimitExceeded, 1, 1),
        "the second call never starts"
    );
    let e = r.error.expect("error");
    assert_eq!(
        (e.code.as_str(), e.line, e.column),
        ("code.limit", Some(2), Some(1))
    );
    assert!(e.message.contains("40000 bytes"), "{}", e.message);
    // Literals never count: 12 KB of them pass with maxOutputBytes at 1,000.
    let big = "y".repeat(4_000);
    let (r, _) = drive(
        start(
            &format!("call(\"toolh_a\", {{\"s\": \"{big}\", \"t\": \"{big}\", \"u\": \"{big}\"}})"),
            CodeLimits {
                max_output_bytes: 1_000,
                ..CodeLimits::defaults()
            },
            0,
        ),
        |_| (ok("t", json!(null), 1), 1),
    );
    assert_eq!(r.status, CodeStatus::Completed);
}

#[test]
fn compile_errors_become_rejected_results() {
    for src in ["import os", "x = = 1", &"call(\"toolh_x\")\n".repeat(9)] {
        let err = compile(src, &CodeLimits::defaults()).expect_err("rejected");
        let r = CodeResult::rejected("run_9".into(), CodeLimits::defaults(), &err);
        assert_schema(&r);
        assert_eq!(
            (r.status, r.trace.len(), &r.value),
            (CodeStatus::Rejected, 0, &Value::Null)
        );
        assert_eq!(
            r.error.as_ref().map(|e| e.code.as_str()),
            Some(err.code.as_str())
        );
    }
}

#[test]
fn the_summary_holds_no_handles_arguments_or_outputs() {
    let src = "a = call(\"toolh_CANARYH\", {\"q\": \"CANARYA\"})\ncall(\"toolh_b\", {\"x\": a})";
    let (r, _) = drive(start(src, CodeLimits::defaults(), 0), |c| match c.index() {
        0 => (ok("read", json!({"secret": "CANARYO"}), 1), 1),
        _ => (
            InnerCallOutcome::Failed {
                tool: "w".into(),
                code: Code::ToolFailed,
                message: "CANARYM".into(),
                duration_ms: 1,
            },
            2,
        ),
    });
    let text = serde_json::to_string(&r.summary()).expect("json");
    assert!(!text.contains("CANARY"), "{text}");
    assert_eq!(
        serde_json::from_str::<Value>(&text).expect("json"),
        json!({"runId": "run_1", "status": "failed", "callsAttempted": 2, "callsOk": 1, "outputBytes": 20, "durationMs": 2, "errorCode": "tool.failed"})
    );
}

#[test]
fn the_schema_rejects_results_that_break_its_rules() {
    let text =
        std::fs::read_to_string(repo("schemas/code-result.schema.json")).expect("schema file");
    let schema: Value = serde_json::from_str(&text).expect("schema json");
    let validator = holaryn_jsonschema::validator_for(&schema).expect("valid schema");
    let golden: Value = serde_json::from_str(
        &std::fs::read_to_string(repo("tests/fixtures/code/golden-completed.json"))
            .expect("golden"),
    )
    .expect("json");
    assert!(validator.is_valid(&golden));
    let mutations: [(&str, Value); 7] = [
        ("/status", json!("exploded")),
        ("/limits/maxCalls", json!(17)),
        ("/trace/0/errorCode", json!("call.failed")),
        ("/trace/0/handle", json!("read_file")),
        ("/trace/0/column", json!(0)),
        ("/outputBytes", json!(65_537)),
        ("/extra", json!(1)),
    ];
    for (pointer, value) in mutations {
        let mut bad = golden.clone();
        if let Some(slot) = bad.pointer_mut(pointer) {
            *slot = value;
        } else if let Some(obj) = bad.as_object_mut() {
            obj.insert(pointer.trim_start_matches('/').into(), value);
        }
        assert!(!validator.is_valid(&bad), "{pointer} should be invalid");
    }
    // Not completed: an error is required and the value must be null.
    let mut bad = golden.clone();
    bad["status"] = json!("failed");
    assert!(!validator.is_valid(&bad));
    bad["value"] = Value::Null;
    bad["error"] = json!({"code": "call.failed", "message": "boom"});
    assert!(validator.is_valid(&bad));
}
