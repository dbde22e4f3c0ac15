//! The project policy file: every malformed class against a golden error next
//! to its fixture, the shipped schema agreeing with the parser, and warnings
//! for entries that name no tool.
//!
//! Regenerate goldens with `UPDATE_GOLDEN=1 cargo test -p holaryn-core --test policy_file`.

mod common;

use common::{fixtures, native, secret};
use holaryn_core::{
    parse_patterns, parse_policy_file, Pattern, Policy, Rules, Scope, POLICY_SCHEMA,
};
use holaryn_core::{ErrorCode, Registry, Runtime};
use holaryn_core::{PolicyFile, SessionOptions};
use serde_json::{json, Value};
use std::path::PathBuf;

/// The path the goldens carry (relative, as a host might pass it).
const PATH: &str = ".holaryn/tool-policy.json";

/// Every `tests/fixtures/policy/*.json` that is not itself a golden.
fn policy_fixtures() -> Vec<PathBuf> {
    let dir = fixtures().join("policy");
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .expect("fixtures/policy exists")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| {
            let name = p.file_name().map(|n| n.to_string_lossy().to_string());
            name.is_some_and(|n| n.ends_with(".json") && !n.ends_with(".error.json"))
        })
        .collect();
    files.sort();
    files
}

#[test]
fn each_malformed_file_matches_its_golden_error() {
    let mut malformed = 0;
    for path in policy_fixtures() {
        let text = std::fs::read_to_string(&path).expect("fixture readable");
        let golden_path = path.with_extension("error.json");
        let result = parse_policy_file(PATH, &text);
        let stem = path.file_stem().map(|s| s.to_string_lossy().to_string());
        let stem = stem.unwrap_or_default();
        if stem.starts_with("valid") {
            assert!(result.is_ok(), "{stem}: {:?}", result.err());
            assert!(!golden_path.exists(), "{stem} has a golden but is valid");
            continue;
        }
        let err = result.expect_err(&stem);
        malformed += 1;
        let got = json!({"code": err.code, "file": err.file, "pointer": err.pointer,
            "line": err.line, "column": err.column, "message": err.message});
        if std::env::var_os("UPDATE_GOLDEN").is_some() {
            let pretty = serde_json::to_string_pretty(&got).expect("json") + "\n";
            std::fs::write(&golden_path, pretty).expect("golden written");
        }
        let golden = std::fs::read_to_string(&golden_path)
            .unwrap_or_else(|_| panic!("{stem}: no golden {}", golden_path.display()));
        let golden: Value = serde_json::from_str(&golden).expect("golden is JSON");
        assert_eq!(got, golden, "{stem}");
        assert_eq!(err.code, ErrorCode::PolicyMalformed, "{stem}");
        assert_eq!(err.file.as_deref(), Some(PATH), "{stem}");
        assert!(!err.message.is_empty(), "{stem}");
        // Syntax errors carry line:column; everything else a pointer.
        if stem.starts_with("syntax") {
            assert!(err.line.is_some() && err.column.is_some() && err.pointer.is_none());
        } else {
            assert!(err.pointer.is_some() && err.line.is_none(), "{stem}");
        }
    }
    assert!(malformed >= 12, "every malformed class has a fixture");
}

#[test]
fn syntax_error_columns_are_utf16_units() {
    // Line 2 is `  "deny": ["lire_fichier_é", "发布😀" "x"]`: the error is at
    // the second `"x` quote; é and 发布 are one unit each, 😀 two.
    let text = std::fs::read_to_string(fixtures().join("policy/syntax-error-utf16.json"))
        .expect("fixture");
    let err = parse_policy_file(PATH, &text).expect_err("syntax");
    let line2 = text.lines().nth(1).expect("line 2");
    let byte_col = line2.find("\"x\"").expect("x") + 1;
    let utf16_col = line2[..byte_col - 1].encode_utf16().count() + 1;
    assert_ne!(byte_col, utf16_col, "the fixture has multi-byte characters");
    assert_eq!((err.line, err.column), (Some(2), Some(utf16_col as u32)));
}

#[test]
fn rules_from_values_use_the_same_checks_without_a_file() {
    let err = Rules::from_value(&json!({"deny": ["a*b"]}), None).expect_err("bad");
    assert_eq!(
        (err.code, err.file.as_deref(), err.pointer.as_deref()),
        (ErrorCode::PolicyMalformed, None, Some("/deny/0"))
    );
    let err = Rules::from_value(&json!({"allow": {"x": 1}}), Some("rules")).expect_err("bad");
    assert_eq!(err.pointer.as_deref(), Some("/allow"));
    assert_eq!(err.file.as_deref(), Some("rules"));
    let ok = Rules::from_value(&json!({"$schema": "x", "allow": ["*"]}), None).expect("ok");
    assert_eq!(ok.allow.as_ref().map(Vec::len), Some(1));
    assert!(ok.deny.is_empty());
    let err = parse_patterns(&["read_file", "bad entry"]).expect_err("bad");
    assert_eq!(
        (err.code, err.pointer.as_deref()),
        (ErrorCode::PolicyMalformed, Some("/1"))
    );
    // Patterns round-trip through serde as their text.
    let p: Pattern = serde_json::from_value(json!("mcp:*")).expect("pattern");
    assert_eq!(serde_json::to_value(&p).expect("json"), json!("mcp:*"));
    assert!(serde_json::from_value::<Pattern>(json!("a b")).is_err());
    assert_eq!(
        "**".parse::<Pattern>().map_err(|e| e.code),
        Err(ErrorCode::PolicyMalformed)
    );
}

#[test]
fn the_shipped_schema_and_the_parser_agree() {
    let schema: Value = serde_json::from_str(POLICY_SCHEMA).expect("schema is JSON");
    let v = holaryn_jsonschema::validator_for(&schema).expect("schema compiles");
    let entries = [
        "*",
        "a",
        "read_file",
        "read_*",
        "github/*",
        "github/create_issue",
        "mcp:*",
        "native:read_file",
        "browser:tab_*",
        "slash_command:/deploy",
        "é😀",
        "a/b/c*",
        "",
        " ",
        "a b",
        "a\tb",
        "a\u{7f}",
        "a\u{85}b",
        "a\u{a0}b",
        "a\u{feff}",
        "**",
        "*a",
        "a*b",
        "a**",
        ":",
        ":a",
        "mcp:",
        "mcp:**",
        "plugin:*",
        "a:b",
        "mcp:a:b",
        "MCP:*",
        "a*:",
        &"x".repeat(256),
        &"x".repeat(257),
        &"é".repeat(256),
    ];
    for e in entries {
        let by_schema = v.is_valid(&json!({ "deny": [e] }));
        let by_parser = Pattern::parse(e).is_ok();
        assert_eq!(by_schema, by_parser, "{e:?}");
    }
    assert!(!v.is_valid(&json!({"deny": [], "extra": 1})));
    assert!(v.is_valid(&json!({"$schema": "s", "allow": [], "deny": ["x", "x"]})));
}

#[test]
fn a_malformed_project_policy_fails_session_creation() {
    let mut rt = Runtime::new();
    let opts = SessionOptions {
        dynamic_discovery: true,
        project_policy: Some(PolicyFile {
            path: PATH.into(),
            text: "{\"deny\": [\"ok\", 1]}".into(),
        }),
        ..Default::default()
    };
    let err = rt
        .create_session(opts, &secret(1), 0)
        .expect_err("malformed");
    assert_eq!(
        (err.code, err.file.as_deref(), err.pointer.as_deref()),
        (ErrorCode::PolicyMalformed, Some(PATH), Some("/deny/1"))
    );
}

#[test]
fn unknown_names_are_warnings_not_errors() {
    let mut r = Registry::new();
    let mut read = native("read_file", "Read");
    read["aliases"] = json!(["cat"]);
    r.register_values(&[read]).expect("tools");
    let rules = parse_policy_file(
        PATH,
        r#"{"allow": ["cat", "host/read_file", "gone_tool", "mcp:read_file", "tool_search", "x*"],
            "deny": ["nope/*", "old/tool", "cat", "cat"]}"#,
    )
    .expect("unknown names parse");
    let p = Policy {
        hidden_providers: vec!["nobody".into(), "host".into()],
        profile_allowed: Some(parse_patterns(&["read_file", "missing"]).expect("ok")),
        session: Rules::from_value(&json!({"deny": ["later_tool"]}), None).expect("ok"),
        project: Some((PATH.into(), rules)),
    };
    let warnings = p.warnings(&r);
    let got: Vec<(Scope, &str, &str)> = warnings
        .iter()
        .map(|w| (w.scope, w.entry.as_str(), w.pointer.as_str()))
        .collect();
    assert_eq!(
        got,
        [
            (Scope::Provider, "nobody", ""),
            (Scope::Profile, "missing", "/1"),
            (Scope::Session, "later_tool", "/deny/0"),
            (Scope::Project, "gone_tool", "/allow/2"),
            (Scope::Project, "mcp:read_file", "/allow/3"),
            (Scope::Project, "tool_search", "/allow/4"),
            (Scope::Project, "old/tool", "/deny/1"),
            (Scope::Project, "cat", "/deny/3"),
        ]
    );
    assert!(warnings.iter().all(|w| !w.message.is_empty()));
    assert!(
        warnings[3].message.contains(PATH),
        "{}",
        warnings[3].message
    );
    assert!(warnings[4].message.contains("no registered mcp tool"));
    assert!(warnings[5].message.contains("discovery tool"));
    assert!(warnings[7].message.contains("more than once"));
}
