//! Bounded code across the module boundary: the code module's JSON answer
//! (`encode`) and the core's structural check of it (`decode`).
//!
//! - Round trip: for every generated program, `decode(encode(compile(src)))`
//!   is exactly `compile(src)` — the program or the located compile error —
//!   so a session compiling through the code module behaves identically.
//! - Anything `decode` accepts is safe to run: generated wire JSON (well
//!   formed, mutated and random) either is refused with `code.invalid_program`
//!   (or is a compile error a compiler may give), or runs within its limits.

use holaryn_code::{
    compile, decode, encode, CodeLimits, CodeRun, CodeStep, InnerCallOutcome, Program, Template,
};
use holaryn_model::ErrorCode;
use proptest::prelude::*;
use serde_json::{json, Value};

/// A program in the accepted language, from a seed list of statement shapes.
fn source(shapes: &[(u8, u8)]) -> String {
    let mut out = String::new();
    for (i, &(kind, arg)) in shapes.iter().enumerate() {
        let args = match arg % 6 {
            0 => String::new(),
            1 => ", {}".into(),
            2 if i > 0 => format!(", v{}", (arg as usize / 6) % i),
            3 if i > 0 => format!(
                ", {{\"a\": [v{}, -5, 2.5, None], \"b\": {{\"c\": True}}}}",
                (arg as usize / 6) % i
            ),
            4 => ", {\"s\": \"é\\u2022\\x41\", \"n\": -12, \"l\": [1, [2, {}]]}".into(),
            _ => format!(", {{\"k\": \"{}\"}}", "x".repeat(arg as usize)),
        };
        let stmt = format!("call(\"toolh_{i}\"{args})");
        match kind % 4 {
            0 => out.push_str(&format!("{stmt}\n")),
            1 => out.push_str(&format!("# c\nv{i} = {stmt}\n")),
            2 => out.push_str(&format!("v{i} = {stmt}\nv{i} = {stmt}\n")),
            _ => out.push_str(&format!("v{i} =  {stmt}  # after\n\n")),
        }
    }
    out
}

fn limits(pick: u8) -> CodeLimits {
    match pick % 4 {
        0 => CodeLimits::defaults(),
        1 => CodeLimits::MAX,
        2 => CodeLimits {
            max_calls: 3,
            max_nodes: 30,
            ..CodeLimits::defaults()
        },
        _ => CodeLimits {
            max_source_bytes: 120,
            ..CodeLimits::MAX
        },
    }
}

/// Run an accepted program against a host that answers every call with its arguments.
fn run_checked(program: Program, limits: CodeLimits) {
    let slots = program.names();
    for s in program.statements() {
        assert!(s.handle().starts_with("toolh_"));
        check_slots(s.args(), slots);
    }
    let statements = program.statements().len();
    assert!(statements <= limits.max_calls as usize);
    assert!(program.nodes() <= limits.max_nodes);
    let mut now = 0;
    let mut step = CodeRun::start(program, "run_w".into(), limits, now);
    let result = loop {
        match step {
            CodeStep::Done(r) => break r,
            CodeStep::Call(call) => {
                now += 1;
                let output = json!({"echo": call.args()});
                step = call.resume(
                    InnerCallOutcome::Ok {
                        tool: "t".into(),
                        output,
                        duration_ms: 1,
                    },
                    now,
                );
            }
        }
    };
    assert!(result.trace.len() <= statements);
    assert!(result.calls_attempted <= limits.max_calls);
    assert!(result.output_bytes <= limits.max_output_bytes);
}

fn check_slots(t: &Template, slots: usize) {
    match t {
        Template::Literal(_) => {}
        Template::Name { slot, .. } => assert!(*slot < slots),
        Template::List(items) => items.iter().for_each(|i| check_slots(i, slots)),
        Template::Dict(entries) => entries.iter().for_each(|(_, i)| check_slots(i, slots)),
    }
}

/// Generated wire JSON: mostly the right shape, with random holes and lies.
fn wire(r: &[u8]) -> Value {
    let mut i = 0;
    let mut next = || {
        i += 1;
        r.get(i % r.len().max(1))
            .copied()
            .unwrap_or(0)
            .wrapping_mul(i as u8 | 1)
    };
    let n = next() % 20;
    let mut statements = Vec::new();
    for k in 0..n {
        let name = |b: u8| match b % 5 {
            0 => Value::String(format!("v{}", b % 7)),
            1 => Value::String(String::new()),
            2 => Value::String("1x".into()),
            3 => json!(7),
            _ => Value::String("v0".into()),
        };
        let leaf = |b: u8| match b % 6 {
            0 => json!({"literal": {"a": [1, "x"]}}),
            1 => json!({"name": name(b / 6)}),
            2 => json!({"list": [{"name": "v0"}, {"literal": -1}]}),
            3 => json!({"dict": [["k", {"name": "v1"}], ["k", {"name": "v1"}]]}),
            4 => json!({"dict": [["k", {"literal": 1}]]}),
            _ => json!({"unknown": 1}),
        };
        let args = if next() % 3 == 0 {
            json!({"dict": [["a", leaf(next())], ["b", leaf(next())]]})
        } else {
            leaf(next())
        };
        let target = if next() % 2 == 0 {
            Value::Null
        } else {
            name(next())
        };
        let handle = if next() % 9 == 0 {
            "tool_x".to_string()
        } else {
            format!("toolh_{k}")
        };
        statements.push(json!({
            "target": target, "handle": handle, "args": args,
            "line": next() % 4, "column": next() % 40,
        }));
    }
    match next() % 8 {
        0 => {
            let code = ["code.syntax", "tool.unknown", "code.limit"][next() as usize % 3];
            json!({"error": {"code": code, "message": "m", "line": next() % 3, "column": 1}})
        }
        1 => json!({"program": {"nodes": 1, "statements": statements}}),
        2 => json!({"program": {"nodes": 9999, "statements": statements}}),
        3 => json!({"program": {"statements": statements}}),
        _ => json!({"program": {"nodes": 200, "statements": statements}}),
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 256, failure_persistence: None, ..ProptestConfig::default() })]

    #[test]
    fn decode_of_encode_is_compile(shapes in proptest::collection::vec((any::<u8>(), any::<u8>()), 0..20), pick in any::<u8>()) {
        let src = source(&shapes);
        let limits = limits(pick);
        let compiled = compile(&src, &limits);
        let decoded = decode(&encode(&compiled), &src, &limits);
        match (&compiled, &decoded) {
            (Ok(a), Ok(b)) => prop_assert_eq!(a, b),
            (Err(a), Err(b)) => prop_assert_eq!(a, b),
            _ => prop_assert!(false, "compile {compiled:?} but decode {decoded:?}"),
        }
    }

    #[test]
    fn whatever_decode_accepts_runs_within_its_limits(bytes in proptest::collection::vec(any::<u8>(), 1..64), pick in any::<u8>()) {
        let src = source(&[(1, 3); 16]);
        let limits = limits(pick);
        let text = wire(&bytes).to_string();
        match decode(&text, &src, &limits) {
            Ok(program) => run_checked(program, limits),
            Err(e) => prop_assert!(matches!(
                e.code,
                ErrorCode::CodeInvalidProgram | ErrorCode::CodeSyntax | ErrorCode::CodeLimit
            ), "{e}"),
        }
    }

    #[test]
    fn random_text_is_refused_typed(text in ".{0,200}") {
        let e = decode(&text, "call(\"toolh_a\")", &CodeLimits::defaults()).expect_err("not a program");
        prop_assert_eq!(e.code, ErrorCode::CodeInvalidProgram);
    }
}

#[test]
fn each_structural_lie_is_refused() {
    let src = "a = call(\"toolh_a\", {\"k\": 1})\ncall(\"toolh_b\", {\"x\": a})\n";
    let limits = CodeLimits::defaults();
    let good = encode(&compile(src, &limits));
    assert!(decode(&good, src, &limits).is_ok(), "{good}");
    let lies = [
        (
            "used before bound",
            good.replace("\"name\":\"a\"", "\"name\":\"b\""),
        ),
        ("bad handle", good.replace("toolh_b", "tool_b")),
        (
            "unknown field",
            good.replace("\"nodes\"", "\"extra\":1,\"nodes\""),
        ),
        ("nodes too few", {
            let mut v: Value = serde_json::from_str(&good).expect("json");
            v["program"]["nodes"] = json!(3);
            v.to_string()
        }),
        ("line outside", good.replace("\"line\":2", "\"line\":9")),
        (
            "error code",
            r#"{"error":{"code":"approval.denied","message":"m"}}"#.into(),
        ),
        (
            "line without column",
            r#"{"error":{"code":"code.syntax","message":"m","line":1}}"#.into(),
        ),
        (
            "long strings",
            good.replace("\"k\":1", &format!("\"k\":\"{}\"", "x".repeat(200))),
        ),
        (
            "folded list",
            good.replace("{\"name\":\"a\"}", "{\"list\":[{\"literal\":1}]}"),
        ),
    ];
    for (what, text) in lies {
        let e = decode(&text, src, &limits).expect_err(what);
        assert_eq!(e.code, ErrorCode::CodeInvalidProgram, "{what}: {e}");
    }
    let tight = CodeLimits {
        max_calls: 1,
        ..limits
    };
    let e = decode(&good, src, &tight).expect_err("two statements, maxCalls 1");
    assert_eq!(e.code, ErrorCode::CodeInvalidProgram);
}
