//! Input edges (issue 16): uncompilable schemas are refused at registration
//! with a pointer, missing schemas are flagged (and refusable), arguments are
//! always a JSON object the runtime can pass on unchanged, and bounded code
//! joins escaped surrogate pairs.

mod common;

use common::secret;
use holaryn_code::{compile, CodeLimits, Template};
use holaryn_core::parse_call;
use holaryn_core::SessionOptions;
use holaryn_core::{CallStatus, GateStep};
use holaryn_core::{ErrorCode, Runtime};
use holaryn_model::Format;
use serde_json::{json, Value};

fn tool(name: &str, schema: Option<Value>) -> Value {
    let mut t = json!({"name": name, "source": "native", "provider": {"id": "host"}});
    if let Some(s) = schema {
        t["inputSchema"] = s;
    }
    t
}

fn refusal(schema: Value) -> holaryn_core::Error {
    let mut rt = Runtime::new();
    let before = rt.registry().version().to_string();
    let err = rt
        .register_values(&[tool("t", Some(schema.clone()))], 0)
        .expect_err(&format!("{schema} must be refused"));
    assert_eq!(rt.registry().version(), before, "state unchanged");
    assert_eq!(err.code, ErrorCode::DescriptorInvalidSchema, "{err}");
    assert_eq!(err.field.as_deref(), Some("inputSchema"));
    err
}

#[test]
fn uncompilable_schemas_are_refused_at_registration_with_their_pointer() {
    let cases = [
        (
            json!({"type": "object", "properties": {"a": {"$ref": "#/$defs/missing"}}}),
            "/properties/a/$ref",
        ),
        (
            json!({"type": "object", "properties": {"a": {"$ref": "https://example.com/a.json"}}}),
            "/properties/a/$ref",
        ),
        (
            json!({"type": "object", "properties": {"a": {"$ref": "#/required"}}, "required": ["a"]}),
            "/properties/a/$ref",
        ),
        (
            json!({"$schema": "https://json-schema.org/draft/2020-12/schema", "type": "object",
                   "properties": {"a": {"$dynamicRef": "#nowhere"}}}),
            "/properties/a/$dynamicRef",
        ),
        (
            json!({"$schema": "https://json-schema.org/draft/2020-12/schema", "type": "object",
                   "properties": {"a": {"type": "string", "pattern": "(unclosed"}}}),
            "/properties/a/pattern",
        ),
        (
            json!({"type": "object", "patternProperties": {"[": {"type": "string"}}}),
            "/patternProperties/[",
        ),
        (json!({"type": "string"}), "/type"),
    ];
    for (schema, pointer) in cases {
        let err = refusal(schema.clone());
        assert_eq!(err.pointer.as_deref(), Some(pointer), "{schema}: {err}");
    }
}

#[test]
fn compilable_schemas_still_register() {
    let mut rt = Runtime::new();
    let schemas = [
        json!({"type": "object", "$defs": {"s": {"type": "string", "pattern": "^a+$"}},
               "properties": {"a": {"$ref": "#/$defs/s"}, "b": {"$ref": "#"}, "c": true}}),
        json!({"type": "object", "definitions": {"n": {"type": "number"}},
               "properties": {"a": {"$ref": "#/definitions/n"}}, "additionalProperties": false}),
        json!({"type": "object", "$defs": {"x": {"$anchor": "x", "type": "string"}},
               "properties": {"a": {"$ref": "#x"}}}),
        json!({"$schema": "http://json-schema.org/draft-07/schema#", "type": "object",
               "properties": {"a": {"type": "string", "pattern": "^\\p{L}+$"}}}),
        json!({"properties": {"a": {}}}),
    ];
    let tools: Vec<Value> = schemas
        .iter()
        .enumerate()
        .map(|(i, s)| tool(&format!("t{i}"), Some(s.clone())))
        .collect();
    rt.register_values(&tools, 0).expect("all compile");
}

#[test]
fn missing_schemas_are_flagged_and_refusable() {
    let mut rt = Runtime::new();
    let mut null_schema = tool("b", None);
    null_schema["inputSchema"] = Value::Null;
    rt.register_values(
        &[
            tool("a", None),
            null_schema,
            tool("c", Some(json!({"type": "object"}))),
        ],
        0,
    )
    .expect("registers");
    let flags: Vec<bool> = ["a", "b", "c"]
        .iter()
        .map(|n| {
            rt.registry()
                .get(n)
                .expect("tool")
                .descriptor
                .schema_missing
        })
        .collect();
    assert_eq!(flags, [true, true, false]);
    let sid = rt
        .create_session(SessionOptions::default(), &secret(1), 0)
        .expect("session");
    let rows = rt.capability_table(&sid).expect("table");
    assert!(rows.iter().any(|r| r.name == "a" && r.schema_missing));
    assert!(rows.iter().any(|r| r.name == "c" && !r.schema_missing));

    let mut strict = Runtime::new();
    strict.set_require_input_schema(true);
    let err = strict
        .register_values(
            &[tool("c", Some(json!({"type": "object"}))), tool("a", None)],
            0,
        )
        .expect_err("refused");
    assert_eq!(err.code, ErrorCode::DescriptorInvalidSchema);
    assert_eq!(strict.registry().len(), 0, "atomic");
}

fn refused_args(schema: Value, args: Value) -> (String, Vec<String>) {
    let mut rt = Runtime::new();
    rt.register_values(&[tool("t", Some(schema))], 0)
        .expect("registers");
    let sid = rt
        .create_session(SessionOptions::default(), &secret(2), 0)
        .expect("session");
    match rt.start_call(&sid, "t", args, 1) {
        GateStep::Done(o) => {
            assert_eq!(o.status, CallStatus::Refused);
            assert!(!o.executed);
            (
                o.code.as_str().to_string(),
                o.errors.iter().map(|e| e.pointer.clone()).collect(),
            )
        }
        other => panic!("expected a refusal, got {other:?}"),
    }
}

#[test]
fn arguments_are_always_an_object() {
    for args in [json!("a string"), json!(null), json!([1]), json!(3)] {
        let (code, pointers) = refused_args(json!({}), args);
        assert_eq!(
            (code.as_str(), pointers),
            ("args.invalid", vec![String::new()])
        );
    }
}

#[test]
fn arguments_past_the_validation_budget_are_refused_with_their_pointer() {
    // Issue 30: undecided is refused, as its own code, where the budget ran out.
    let key = format!("{}b", "a".repeat(30));
    let schema = json!({"type": "object", "patternProperties": {"^(a+)+$": {"type": "integer"}}});
    let args: serde_json::Map<String, Value> =
        (0..100).map(|i| (format!("{key}{i}"), json!(1))).collect();
    let (code, pointers) = refused_args(schema, Value::Object(args));
    assert_eq!(code, "args.budget_exceeded");
    assert_eq!(pointers.len(), 1);
    assert!(pointers[0].starts_with(&format!("/{key}")), "{pointers:?}");
}

#[test]
fn arguments_over_the_size_cap_are_refused_unparsed() {
    // Issue 30: the host measures the text and passes the marker; so does the
    // core for the OpenAI formats' argument text.
    let (code, pointers) = refused_args(json!({}), holaryn_model::oversized_marker(3_000_000));
    assert_eq!((code.as_str(), pointers), ("args.too_large", vec![]));
    let text = format!("{{\"v\": \"{}\"}}", "x".repeat(64));
    let call = json!({"type": "function_call", "call_id": "c1", "name": "t", "arguments": text});
    let parsed = parse_call(Format::OpenaiResponses, &call, 16).expect("parses, never throws");
    assert_eq!(
        holaryn_model::oversized(&parsed.arguments),
        Some(text.len() as u64)
    );
    let within = parse_call(Format::OpenaiResponses, &call, 1 << 20).expect("parses");
    assert_eq!(within.arguments["v"].as_str().map(str::len), Some(64));
    let mut rt = Runtime::new();
    let zero = SessionOptions {
        max_argument_bytes: Some(0),
        ..Default::default()
    };
    let e = rt
        .create_session(zero, &secret(2), 0)
        .expect_err("0 is no cap");
    assert_eq!(e.code, ErrorCode::SessionInvalidOptions);
    assert_eq!(rt.max_argument_bytes("none"), 1 << 20, "the default");
}

#[test]
fn unrepresentable_arguments_are_refused_with_their_pointer() {
    // What a model sends as JSON text: a lone surrogate, and integers a JS number would round.
    let cases = [
        (r#"{"a": {"b": ["ok", "x\ud800"]}}"#, "/a/b/1"),
        (r#"{"n": 9007199254740993}"#, "/n"),
        (r#"{"n": -123456789012345678901234567890}"#, "/n"),
    ];
    for (text, pointer) in cases {
        let call =
            json!({"type": "function_call", "call_id": "c1", "name": "t", "arguments": text});
        let parsed =
            parse_call(Format::OpenaiResponses, &call, u64::MAX).expect("parses, never throws");
        let (code, pointers) = refused_args(json!({"type": "object"}), parsed.arguments);
        assert_eq!(
            (code.as_str(), pointers),
            ("args.invalid", vec![pointer.to_string()]),
            "{text}"
        );
    }
    // 2^53 itself and larger integers an f64 holds exactly pass unchanged.
    let mut rt = Runtime::new();
    rt.register_values(&[tool("t", Some(json!({"type": "object"})))], 0)
        .expect("registers");
    let sid = rt
        .create_session(SessionOptions::default(), &secret(3), 0)
        .expect("session");
    let step = rt.start_call(
        &sid,
        "t",
        json!({"n": 9007199254740992u64, "m": 1u64 << 60}),
        1,
    );
    assert!(matches!(step, GateStep::HookBefore(_)), "{step:?}");
}

#[test]
fn escaped_surrogate_pairs_are_joined_in_bounded_code() {
    let p = compile(
        "call(\"toolh_a1\", {\"k\": \"a\\ud83d\\ude00b\", \"U\": \"\\U0000D83D\\U0000DE00\"})\ncall(\"toolh_a1\", {\"k\": 1})",
        &CodeLimits::defaults(),
    )
    .expect("compiles");
    let s = p.statements();
    assert_eq!(
        s[0].args(),
        &Template::Literal(json!({"k": "a\u{1F600}b", "U": "\u{1F600}"}))
    );
    assert_eq!((s[1].line(), s[1].column()), (2, 1), "positions unchanged");
}

#[test]
fn discovery_inputs_the_runtime_cannot_represent_are_input_invalid_with_their_pointer() {
    let mut rt = Runtime::new();
    rt.register_values(&[tool("t", Some(json!({"type": "object"})))], 0)
        .expect("registers");
    let opts = SessionOptions {
        dynamic_discovery: true,
        ..SessionOptions::default()
    };
    let sid = rt.create_session(opts, &secret(4), 0).expect("session");
    let marked = |text: &str| -> Value {
        serde_json::from_str(&holaryn_model::mark_json_text(text)).expect("parses")
    };
    let err = rt
        .tool_search(&sid, &marked(r#"{"query": "files \ud800"}"#), 1)
        .expect_err("refused");
    assert_eq!(
        (err.code, err.pointer.as_deref()),
        (ErrorCode::InputInvalid, Some("/query"))
    );
    let err = rt
        .tool_inspect(&sid, &marked(r#"{"name": "\udfff"}"#), 1)
        .expect_err("refused");
    assert_eq!(
        (err.code, err.pointer.as_deref()),
        (ErrorCode::InputInvalid, Some("/name"))
    );
}

#[test]
fn an_older_drafts_schema_registers_with_its_dialect_shown_everywhere() {
    // Issue 30: draft-04's boolean `exclusiveMinimum`, no `$schema`.
    let mut rt = Runtime::new();
    let old = json!({"type": "object", "properties": {
        "days": {"type": "integer", "minimum": 0, "exclusiveMinimum": true}}, "required": ["days"]});
    rt.register_values(
        &[
            tool("forecast", Some(old)),
            tool(
                "plain",
                Some(json!({"type": "object", "definitions": {"a": {}}})),
            ),
        ],
        0,
    )
    .expect("both register");
    let dialect = |name: &str| {
        rt.registry()
            .get(name)
            .expect("tool")
            .descriptor
            .dialect
            .clone()
    };
    let note = dialect("forecast").expect("noted");
    assert_eq!(note.draft, "draft-04");
    assert!(
        note.reason.contains("/properties/days/exclusiveMinimum"),
        "{}",
        note.reason
    );
    assert_eq!(
        dialect("plain"),
        None,
        "`definitions` alone does not switch"
    );
    let sid = rt
        .create_session(SessionOptions::default(), &secret(4), 0)
        .expect("session");
    let rows = rt.capability_table(&sid).expect("table");
    let row = rows.iter().find(|r| r.name == "forecast").expect("row");
    assert_eq!(row.dialect.as_ref(), Some(&note));
    let inspected = rt
        .tool_inspect(&sid, &json!({"name": "forecast"}), 1)
        .expect("inspect");
    assert_eq!(inspected.dialect.as_ref(), Some(&note));
    // Read as draft-04: 0 is excluded, 1 is fine.
    let (code, pointers) = refused_args(
        rt.registry()
            .get("forecast")
            .expect("tool")
            .descriptor
            .input_schema
            .as_ref()
            .clone(),
        json!({"days": 0}),
    );
    assert_eq!(
        (code.as_str(), pointers),
        ("args.invalid", vec!["/days".to_string()])
    );
}
