//! Bounded code: compile arbitrary source and run what compiles against a
//! scripted host to completion.
//!
//! Input: `source 0xFF script` (0xFF never occurs in UTF-8). The script picks
//! the limits, then answers every call (ok with an output, refused, denied,
//! failed, timed out, cancelled, output too large, or a host cancel) and moves
//! a virtual clock. Asserted: compile errors are typed and located in the
//! source; static limits hold; a run starts at most `maxCalls` (≤ 16) calls,
//! each before the deadline; every started call has one trace row; retained
//! output stays within `maxOutputBytes`; the result matches
//! `schemas/code-result.schema.json`.
#![no_main]

use holaryn_code::{
    compile, CodeLimits, CodeResult, CodeRun, CodeStatus, CodeStep, InnerCallOutcome,
    LimitsRequest, RowStatus,
};
use holaryn_fuzz::{gen, inside, Bytes};
use holaryn_model::{Code, ErrorCode, HANDLE_PREFIX};
use libfuzzer_sys::fuzz_target;
use serde_json::{json, Value};
use std::sync::OnceLock;

fuzz_target!(|data: &[u8]| {
    let (src, script) = match data.iter().position(|&b| b == 0xFF) {
        Some(i) => (&data[..i], &data[i + 1..]),
        None => (data, &[][..]),
    };
    let source = String::from_utf8_lossy(src);
    let mut s = Bytes::new(script);
    let limits = limits(&mut s);
    match compile(&source, &limits) {
        Err(e) => {
            let typed = [
                ErrorCode::CodeSyntax,
                ErrorCode::CodeForbidden,
                ErrorCode::CodeLimit,
            ];
            assert!(typed.contains(&e.code), "{e:?}");
            let (l, c) = (e.line.expect("line"), e.column.expect("column"));
            assert!(inside(&source, l, c), "{l}:{c} outside the source");
        }
        Ok(program) => {
            assert!(source.len() <= limits.max_source_bytes as usize);
            assert!(program.call_sites() <= limits.max_calls);
            assert!(program.nodes() <= limits.max_nodes);
            let sites = program.call_sites();
            run(program, limits, sites, &mut s);
        }
    }
});

/// Limits from the script: defaults, a host request within range, or a hand-built set (clamped).
fn limits(s: &mut Bytes) -> CodeLimits {
    let pick = |s: &mut Bytes, max: u64| u64::from(s.u16()) % max + 1;
    match s.byte() % 4 {
        0 => CodeLimits::defaults(),
        1 => CodeLimits::MAX,
        2 => {
            let req = LimitsRequest {
                max_calls: Some(pick(s, 16) as u32),
                timeout_ms: Some(pick(s, 30_000)),
                max_output_bytes: Some(pick(s, 65_536)),
                max_source_bytes: Some(pick(s, 16_384) as u32),
                max_nodes: Some(pick(s, 256) as u32),
            };
            CodeLimits::defaults()
                .lowered(&req)
                .expect("in-range request")
        }
        _ => CodeLimits {
            max_calls: u32::from(s.byte()),
            timeout_ms: s.u64(),
            max_output_bytes: s.u64(),
            max_source_bytes: u32::from(s.u16()),
            max_nodes: u32::from(s.u16()),
        }
        .clamped(),
    }
}

fn run(program: holaryn_code::Program, limits: CodeLimits, sites: u32, s: &mut Bytes) {
    let start = u64::from(s.u16()) * 1_000;
    let mut now = start;
    let mut deadline = None;
    let mut calls = 0u32;
    let mut step = CodeRun::start(program, "run_1".into(), limits, now);
    let result = loop {
        let pending = match step {
            CodeStep::Done(r) => break r,
            CodeStep::Call(p) => p,
        };
        calls += 1;
        assert!(calls <= limits.max_calls && calls <= CodeLimits::MAX.max_calls);
        assert_eq!(pending.index(), calls - 1);
        assert!(pending.handle().starts_with(HANDLE_PREFIX));
        assert!(
            now < pending.deadline_ms(),
            "a call started at the deadline"
        );
        assert_eq!(
            *deadline.get_or_insert(pending.deadline_ms()),
            pending.deadline_ms()
        );
        assert!(pending.output_budget() <= limits.max_output_bytes);
        now = now.saturating_add(advance(s));
        let tool = "t".to_string();
        let duration_ms = u64::from(s.byte());
        let code = s.pick(Code::ALL);
        let outcome = match s.byte() % 10 {
            0..=3 => InnerCallOutcome::Ok {
                tool,
                output: output(s, pending.args()),
                duration_ms,
            },
            4 => InnerCallOutcome::Refused {
                tool: None,
                code,
                message: "no".into(),
            },
            5 => InnerCallOutcome::Denied {
                tool,
                code,
                message: "no".into(),
            },
            6 => InnerCallOutcome::Failed {
                tool,
                code,
                message: "boom".into(),
                duration_ms,
            },
            7 => InnerCallOutcome::TimedOut { tool, duration_ms },
            8 => InnerCallOutcome::OutputTooLarge {
                tool,
                bytes: s.u64(),
            },
            _ => {
                step = CodeStep::Done(pending.cancel(now));
                continue;
            }
        };
        step = pending.resume(outcome, now);
    };
    check(&result, &limits, calls, sites, now - start);
}

/// Host time a call takes: usually short, sometimes past any deadline.
fn advance(s: &mut Bytes) -> u64 {
    match s.byte() % 8 {
        0 => 0,
        7 => u64::from(s.u16()) * 16,
        _ => u64::from(s.u16()) % 4_000,
    }
}

/// A tool output: echo, generated JSON, or a large string.
fn output(s: &mut Bytes, args: &Value) -> Value {
    match s.byte() % 4 {
        0 => args.clone(),
        1 => gen(s, 0),
        2 => Value::String("x".repeat(usize::from(s.u16()) * 2)),
        _ => json!({"ok": true}),
    }
}

fn check(r: &CodeResult, limits: &CodeLimits, calls: u32, sites: u32, elapsed: u64) {
    assert_eq!(r.calls_attempted, calls);
    assert_eq!(r.trace.len(), calls as usize, "one row per started call");
    assert_eq!(r.limits, limits.clamped());
    assert!(r.output_bytes <= limits.max_output_bytes);
    assert_eq!(r.duration_ms, elapsed);
    let completed = r.status == CodeStatus::Completed;
    assert_eq!(completed, r.error.is_none());
    if completed {
        assert_eq!(calls, sites);
        assert!(r.trace.iter().all(|row| row.status == RowStatus::Ok));
    } else {
        assert_eq!(r.value, Value::Null);
        let e = r.error.as_ref().expect("error");
        assert!(!e.code.as_str().is_empty());
    }
    for (i, row) in r.trace.iter().enumerate() {
        assert_eq!(row.index as usize, i);
        assert_eq!(row.status == RowStatus::Ok, row.error_code.is_none());
    }
    let v = serde_json::to_value(r).expect("serialisable");
    let first = schema().iter_errors(&v).next().map(|e| e.to_string());
    assert_eq!(first, None, "the result is off the schema");
}

fn schema() -> &'static holaryn_jsonschema::Validator {
    static V: OnceLock<holaryn_jsonschema::Validator> = OnceLock::new();
    V.get_or_init(|| {
        let text = include_str!("../../schemas/code-result.schema.json");
        let schema: Value = serde_json::from_str(text).expect("schema JSON");
        holaryn_jsonschema::validator_for(&schema).expect("valid schema")
    })
}
