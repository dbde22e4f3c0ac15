//! Bounded code: what `compile` accepts and rejects, with exact positions and limits.

use holaryn_code::{compile, CodeLimits, LimitsRequest, Program, Template};
use holaryn_model::{Error, ErrorCode};
use serde::Deserialize;
use serde_json::{json, Value};
use std::path::PathBuf;

fn fixture(name: &str) -> String {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../tests/fixtures/code")
        .join(name);
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

fn ok(source: &str) -> Program {
    compile(source, &CodeLimits::defaults()).unwrap_or_else(|e| panic!("{source:?}: {e}"))
}

fn err(source: &str, limits: &CodeLimits) -> Error {
    match compile(source, limits) {
        Ok(p) => panic!("{source:?} compiled to {p:?}"),
        Err(e) => e,
    }
}

fn at(e: &Error) -> (Option<u32>, Option<u32>) {
    (e.line, e.column)
}

#[derive(Deserialize)]
struct Forbidden {
    name: String,
    source: String,
    line: u32,
    column: u32,
    construct: String,
}

#[test]
fn every_forbidden_construct_is_rejected_with_its_name_and_position() {
    let cases: Vec<Forbidden> = serde_json::from_str(&fixture("forbidden.json")).expect("fixture");
    assert!(cases.len() >= 90, "the fixture lists every construct");
    let mut failures = Vec::new();
    for c in &cases {
        match compile(&c.source, &CodeLimits::defaults()) {
            Ok(_) => failures.push(format!("{}: accepted", c.name)),
            Err(e) => {
                let good = e.code == ErrorCode::CodeForbidden
                    && at(&e) == (Some(c.line), Some(c.column))
                    && e.message.contains(&c.construct)
                    && e.next_action.is_some();
                if !good {
                    failures.push(format!(
                        "{}: expected {}:{} `{}`, got [{}] {:?}:{:?} {}",
                        c.name, c.line, c.column, c.construct, e.code, e.line, e.column, e.message
                    ));
                }
            }
        }
    }
    assert!(
        failures.is_empty(),
        "{} mismatches:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

#[derive(Deserialize)]
struct Syntax {
    name: String,
    source: String,
    line: u32,
    column: u32,
}

#[test]
fn syntax_errors_are_code_syntax_with_a_position() {
    let cases: Vec<Syntax> = serde_json::from_str(&fixture("syntax.json")).expect("fixture");
    let mut failures = Vec::new();
    for c in &cases {
        match compile(&c.source, &CodeLimits::defaults()) {
            Ok(_) => failures.push(format!("{}: accepted", c.name)),
            Err(e)
                if e.code == ErrorCode::CodeSyntax && at(&e) == (Some(c.line), Some(c.column)) =>
            {
                assert!(e.message.starts_with("syntax error: "), "{}", e.message);
            }
            Err(e) => failures.push(format!(
                "{}: expected {}:{}, got {e}",
                c.name, c.line, c.column
            )),
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn a_lone_cr_or_crlf_ends_a_line_for_statement_positions() {
    for sep in ["\r", "\r\n", "\n"] {
        let p = ok(&format!(
            "a = call(\"toolh_a1\", {{}}){sep}call(\"toolh_b2\", {{}})"
        ));
        let s = p.statements();
        assert_eq!((s[1].line(), s[1].column()), (2, 1), "{sep:?}");
    }
}

#[test]
fn the_issue_example_compiles_to_two_statements() {
    let p = ok("first = call(\"toolh_a1b2\", {\"path\": \"notes.txt\"})\ncall(\"toolh_c3d4\", {\"content\": first})\n");
    let s = p.statements();
    assert_eq!(s.len(), 2);
    assert_eq!(
        (s[0].target(), s[0].handle(), s[0].line(), s[0].column()),
        (Some("first"), "toolh_a1b2", 1, 9)
    );
    assert_eq!(
        s[0].args(),
        &Template::Literal(json!({"path": "notes.txt"}))
    );
    assert_eq!(
        (s[1].target(), s[1].handle(), s[1].line(), s[1].column()),
        (None, "toolh_c3d4", 2, 1)
    );
    let vars = vec![Some(json!({"text": "hi"}))];
    assert_eq!(
        s[1].args().instantiate(&vars),
        json!({"content": {"text": "hi"}})
    );
    assert_eq!((p.call_sites(), p.names()), (2, 1));
}

#[test]
fn literals_map_to_json() {
    let p = ok(concat!(
        "# a comment line\n",
        "\n",
        "a = call('toolh_x', {\"s\": 'single', \"cat\": \"a\" \"b\", \"n\": 3, \"neg\": -5, \"f\": 2.5,\n",
        "    \"nf\": -0.5, \"t\": True, \"no\": False, \"none\": None, \"big\": 9007199254740992,\n",
        "    \"min\": -9223372036854775808, \"list\": [1, [2, {}], []], \"d\": {\"é😀\": \"ü\"}})\n",
        "call(\"toolh_y\")  # default args\n",
        "call(\"toolh_z\", a)\n",
    ));
    let s = p.statements();
    assert_eq!(s[0].line(), 3);
    assert_eq!(
        s[0].args(),
        &Template::Literal(json!({
            "s": "single", "cat": "ab", "n": 3, "neg": -5, "f": 2.5, "nf": -0.5, "t": true,
            "no": false, "none": null, "big": 9007199254740992u64,
            "min": i64::MIN, "list": [1, [2, {}], []], "d": {"é😀": "ü"}
        }))
    );
    assert_eq!(s[1].args(), &Template::Literal(json!({})));
    assert!(matches!(s[2].args(), Template::Name { name, slot: 0 } if name == "a"));
}

#[test]
fn other_escapes_still_work_and_only_named_escapes_are_refused() {
    // `\\N` is an escaped backslash then `N`; raw strings keep `\N` as text;
    // `\u`/`\U`/`\x` say what a named escape would.
    let p = ok(concat!(
        "call(\"toolh_x\", {\"esc\": \"\\\\N{BULLET}\", \"raw\": r\"\\N{BULLET}\",\n",
        "    \"u\": \"\\u2022 \\U0001F600 \\x41\", \"tq\": \"\"\"caf\\u00e9\"\"\"})\n",
    ));
    assert_eq!(
        p.statements()[0].args(),
        &Template::Literal(json!({
            "esc": "\\N{BULLET}", "raw": "\\N{BULLET}", "u": "\u{2022} \u{1F600} A", "tq": "café"
        }))
    );
    let e = err(
        "call(\"toolh_x\", {\"x\": \"\\N{BULLET}\"})",
        &CodeLimits::defaults(),
    );
    assert_eq!(
        (e.code, at(&e)),
        (ErrorCode::CodeForbidden, (Some(1), Some(24)))
    );
    assert!(e.message.contains("`\\u`"), "{}", e.message);
}

#[test]
fn rebinding_a_name_reuses_its_slot_and_an_empty_program_compiles() {
    let p = ok("a = call(\"toolh_x\")\na = call(\"toolh_y\", {\"prev\": a})\nb = call(\"toolh_z\", {\"a\": a})");
    assert_eq!(p.names(), 2);
    assert_eq!(ok("").statements().len(), 0);
    assert_eq!(ok("# only a comment\n\n").statements().len(), 0);
    assert_eq!(
        ok("call(\"toolh_x\"); call(\"toolh_y\")")
            .statements()
            .len(),
        2
    );
}

#[test]
fn node_counts_follow_the_documented_rule() {
    assert_eq!(ok("call(\"toolh_x\")").nodes(), 4);
    assert_eq!(ok("call(\"toolh_x\", {})").nodes(), 5);
    assert_eq!(ok("call(\"toolh_x\", {\"n\": -5})").nodes(), 8);
    assert_eq!(
        ok("y = call(\"toolh_y\")\nx = call(\"toolh_x\", {\"a\": y})").nodes(),
        5 + 8
    );
    assert_eq!(ok("call(\"toolh_x\", {\"l\": [1, [None]]})").nodes(), 7 + 3);
}

/// `call("toolh_x", {"k": [1, 1, …]})` is 7 nodes plus one per element.
fn list_program(elements: usize) -> String {
    format!(
        "call(\"toolh_x\", {{\"k\": [{}]}})",
        vec!["1"; elements].join(", ")
    )
}

#[test]
fn nodes_256_pass_and_257_fail_at_the_257th_node() {
    let p = ok(&list_program(249));
    assert_eq!(p.nodes(), 256);
    let e = err(&list_program(250), &CodeLimits::defaults());
    assert_eq!(e.code, ErrorCode::CodeLimit);
    assert!(e.message.contains("syntax nodes"), "{}", e.message);
    // The 250th element is node 257: `call("toolh_x", {"k": [` is 23 bytes, each element 3.
    assert_eq!(at(&e), (Some(1), Some(23 + 249 * 3 + 1)));
    // A forbidden construct past the limit still reports the limit first.
    let e = err(
        &format!("{}\nimport os", list_program(250)),
        &CodeLimits::defaults(),
    );
    assert_eq!(e.code, ErrorCode::CodeLimit);
}

#[test]
fn lowered_node_limit_is_exact() {
    let limits = CodeLimits {
        max_nodes: 8,
        ..CodeLimits::defaults()
    };
    assert!(compile("call(\"toolh_x\", {\"n\": -5})", &limits).is_ok());
    let e = err("call(\"toolh_x\", {\"n\": -5, \"m\": 1})", &limits);
    assert_eq!(
        (e.code, at(&e)),
        (ErrorCode::CodeLimit, (Some(1), Some(27)))
    );
}

/// A valid program padded with a trailing comment to exactly `len` bytes.
fn padded(len: usize) -> String {
    let head = "call(\"toolh_x\")\n#";
    format!("{head}{}", "x".repeat(len - head.len()))
}

#[test]
fn source_16384_bytes_pass_and_16385_fail_before_parsing() {
    let s = padded(16_384);
    assert_eq!(s.len(), 16_384);
    assert_eq!(ok(&s).statements().len(), 1);
    let e = err(&padded(16_385), &CodeLimits::defaults());
    assert_eq!(e.code, ErrorCode::CodeLimit);
    assert!(e.message.contains("16385 bytes"), "{}", e.message);
    // Byte 16384 (0-based) is on line 2, column 16384 - 16 + 1.
    assert_eq!(at(&e), (Some(2), Some(16_384 - 16 + 1)));
    // Even a program that would not parse is refused for its size first.
    let e = err(&format!("({}", " ".repeat(16_384)), &CodeLimits::defaults());
    assert_eq!(e.code, ErrorCode::CodeLimit);
}

#[test]
fn the_source_limit_position_respects_character_boundaries() {
    let limits = CodeLimits {
        max_source_bytes: 20,
        ..CodeLimits::defaults()
    };
    // 18 ASCII bytes, then a 4-byte emoji straddling byte 20.
    let src = "call(\"toolh_x\")#ab😀";
    assert_eq!(src.len(), 22);
    let e = err(src, &limits);
    assert_eq!(
        (e.code, at(&e)),
        (ErrorCode::CodeLimit, (Some(1), Some(19)))
    );
}

fn calls(n: usize, assign: bool) -> String {
    (1..=n)
        .map(|i| {
            if assign {
                format!("v{i} = call(\"toolh_{i}\")\n")
            } else {
                format!("call(\"toolh_{i}\")\n")
            }
        })
        .collect()
}

#[test]
fn call_sites_8_pass_and_9_fail_at_the_default() {
    assert_eq!(ok(&calls(8, false)).call_sites(), 8);
    let e = err(&calls(9, false), &CodeLimits::defaults());
    assert_eq!((e.code, at(&e)), (ErrorCode::CodeLimit, (Some(9), Some(1))));
    assert!(e.message.contains("more than 8 calls"), "{}", e.message);
    let e = err(&calls(9, true), &CodeLimits::defaults());
    assert_eq!(at(&e), (Some(9), Some(6)));
}

#[test]
fn call_sites_16_pass_and_17_fail_at_the_maximum() {
    assert!(compile(&calls(16, true), &CodeLimits::MAX).is_ok());
    let e = err(&calls(17, true), &CodeLimits::MAX);
    assert_eq!(
        (e.code, at(&e)),
        (ErrorCode::CodeLimit, (Some(17), Some(7)))
    );
    // Hand-built limits above the maxima are capped.
    let huge = CodeLimits {
        max_calls: 1000,
        max_nodes: 100_000,
        ..CodeLimits::MAX
    };
    assert_eq!(err(&calls(17, true), &huge).code, ErrorCode::CodeLimit);
}

#[test]
fn the_token_guard_turns_away_deep_or_long_inputs_before_parsing() {
    let deep = [
        format!("{}1", "-".repeat(16_000)),
        format!("{}{}", "[".repeat(8_000), "]".repeat(8_000)),
        format!("1{}", "+1".repeat(8_000)),
        format!("{}1", "not ".repeat(4_000)),
        format!(
            "call(\"toolh_x\", {{\"k\": {}1{}}})",
            "(".repeat(600),
            ")".repeat(600)
        ),
    ];
    for src in &deep {
        let e = err(src, &CodeLimits::defaults());
        assert_eq!(e.code, ErrorCode::CodeLimit, "{}", e.message);
        assert!(e.message.contains("tokens"), "{}", e.message);
    }
    // A handful of grouping parentheses is fine.
    assert!(compile("call(\"toolh_x\", {\"k\": ((1))})", &CodeLimits::defaults()).is_ok());
}

#[test]
fn hosts_may_lower_limits_but_never_raise_them_past_the_maxima() {
    let req: LimitsRequest =
        serde_json::from_value(json!({"maxCalls": 16, "timeoutMs": 1000})).expect("request");
    let got = CodeLimits::defaults().lowered(&req).expect("valid");
    assert_eq!(
        (got.max_calls, got.timeout_ms, got.max_nodes),
        (16, 1000, 256)
    );
    for (field, value) in [
        ("maxCalls", 17u64),
        ("timeoutMs", 30_001),
        ("maxOutputBytes", 65_537),
        ("maxSourceBytes", 16_385),
        ("maxNodes", 257),
        ("maxCalls", 0),
    ] {
        let req: LimitsRequest = serde_json::from_value(json!({ field: value })).expect("request");
        let e = CodeLimits::defaults().lowered(&req).expect_err("refused");
        assert_eq!(e.code, ErrorCode::SessionInvalidOptions);
        assert_eq!(
            e.field.as_deref(),
            Some(format!("codeLimits.{field}").as_str())
        );
    }
    assert!(serde_json::from_value::<LimitsRequest>(json!({"maxLoops": 3})).is_err());
    let wire = serde_json::to_value(CodeLimits::MAX).expect("json");
    assert_eq!(
        wire,
        json!({"maxCalls": 16, "timeoutMs": 30000, "maxOutputBytes": 65536, "maxSourceBytes": 16384, "maxNodes": 256})
    );
    assert_eq!(
        CodeLimits::defaults()
            .lowered(&LimitsRequest::default())
            .ok(),
        Some(CodeLimits::defaults())
    );
}

#[test]
fn error_messages_stay_bounded() {
    let long = "x".repeat(5000);
    let e = err(&format!("{long}(1)"), &CodeLimits::defaults());
    assert!(e.message.len() < 300, "{}", e.message.len());
    let e = err(
        &format!("call(\"toolh_x\", {{\"k\": {long}}})"),
        &CodeLimits::defaults(),
    );
    assert!(e.message.len() < 300);
    let v: Value = serde_json::to_value(&e).expect("json");
    assert_eq!(v["code"], "code.forbidden");
}
