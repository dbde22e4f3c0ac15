//! Discovery tools: exact bounds, schema-freedom, inspect, static sessions,
//! footprints and cache invalidation across registry versions.

mod common;

use common::{native, secret};
use holaryn_core::SessionOptions;
use holaryn_core::{ErrorCode, Runtime};
use serde_json::{json, Value};

fn many(n: usize) -> Vec<Value> {
    (0..n)
        .map(|i| native(&format!("file_tool_{i:03}"), "Read a file from the project"))
        .collect()
}

fn session(rt: &mut Runtime, dynamic: bool) -> String {
    let opts = SessionOptions {
        dynamic_discovery: dynamic,
        bounded_code_mode: true,
        ..SessionOptions::default()
    };
    rt.create_session(opts, &secret(1), 0).expect("session")
}

fn rt_with(n: usize) -> (Runtime, String) {
    let mut rt = Runtime::new();
    rt.register_values(&many(n), 0).expect("tools");
    let sid = session(&mut rt, true);
    (rt, sid)
}

#[test]
fn search_returns_at_most_eight_and_limit_is_exact_at_n_and_n_plus_one() {
    let (mut rt, sid) = rt_with(30);
    let out = rt
        .tool_search(&sid, &json!({"query": "read file"}), 1)
        .expect("search");
    assert_eq!(out.results.len(), 8);
    for limit in [1, 8] {
        let out = rt
            .tool_search(&sid, &json!({"query": "read file", "limit": limit}), 1)
            .expect("search");
        assert_eq!(out.results.len(), limit as usize);
    }
    for limit in [0, 9, -1] {
        let err = rt
            .tool_search(&sid, &json!({"query": "read", "limit": limit}), 1)
            .expect_err("bad limit");
        assert_eq!(
            (err.code, err.field.as_deref()),
            (ErrorCode::InputInvalid, Some("limit"))
        );
    }
}

#[test]
fn query_length_is_exact_at_512_and_513_characters() {
    let (mut rt, sid) = rt_with(3);
    let ok = "é".repeat(512); // characters, not bytes
    assert!(rt.tool_search(&sid, &json!({ "query": ok }), 1).is_ok());
    let long = "é".repeat(513);
    let err = rt
        .tool_search(&sid, &json!({ "query": long }), 1)
        .expect_err("too long");
    assert_eq!(err.code, ErrorCode::InputInvalid);
    for empty in ["", "   "] {
        assert_eq!(
            rt.tool_search(&sid, &json!({ "query": empty }), 1)
                .map_err(|e| e.code)
                .err(),
            Some(ErrorCode::InputInvalid)
        );
    }
    let err = rt
        .tool_search(&sid, &json!({"query": "x", "bogus": 1}), 1)
        .expect_err("unknown field");
    assert_eq!(err.code, ErrorCode::InputInvalid);
}

#[test]
fn search_and_list_never_return_a_schema() {
    let (mut rt, sid) = rt_with(10);
    let s = serde_json::to_value(
        rt.tool_search(&sid, &json!({"query": "file"}), 1)
            .expect("search"),
    )
    .expect("json");
    let l = serde_json::to_value(rt.tool_list(&sid, &json!({}), 1).expect("list")).expect("json");
    for text in [s.to_string(), l.to_string()] {
        assert!(
            !text.contains("inputSchema") && !text.contains("\"properties\""),
            "{text}"
        );
    }
}

#[test]
fn list_pages_are_bounded_stable_and_cursored() {
    let (mut rt, sid) = rt_with(450);
    let first = rt.tool_list(&sid, &json!({}), 1).expect("list");
    assert_eq!(first.tools.len(), 50, "default page");
    assert_eq!(first.total, 451, "450 tools + run_tool_code (code mode on)");
    let mut seen = Vec::new();
    let mut cursor: Option<String> = None;
    loop {
        let mut input = json!({"limit": 200});
        if let Some(c) = &cursor {
            input["cursor"] = json!(c);
        }
        let page = rt.tool_list(&sid, &input, 1).expect("page");
        assert!(page.tools.len() <= 200);
        seen.extend(page.tools.iter().map(|t| t.name.clone()));
        match page.next_cursor {
            Some(c) => cursor = Some(c),
            None => break,
        }
    }
    let mut sorted = seen.clone();
    sorted.sort();
    assert_eq!(seen, sorted, "stable name order");
    assert_eq!(seen.len(), 451);
    for limit in [0, 201] {
        assert!(
            rt.tool_list(&sid, &json!({ "limit": limit }), 1).is_err(),
            "limit {limit}"
        );
    }
    assert!(rt.tool_list(&sid, &json!({"limit": 200}), 1).is_ok());
    assert_eq!(
        rt.tool_list(&sid, &json!({"cursor": "nope"}), 1)
            .map_err(|e| e.code)
            .err(),
        Some(ErrorCode::InputInvalid)
    );
}

#[test]
fn inspect_loads_the_exact_schema_and_suggests_close_names() {
    let (mut rt, sid) = rt_with(3);
    let out = rt
        .tool_inspect(&sid, &json!({"name": "file_tool_001"}), 1)
        .expect("inspect");
    assert!(out.loaded);
    assert_eq!(
        out.schema,
        Some(
            json!({"type": "object", "properties": {"path": {"type": "string"}}, "required": ["path"]})
        )
    );
    assert!(out
        .handle
        .as_deref()
        .is_some_and(|h| h.starts_with("toolh_")));
    let names: Vec<String> = rt
        .model_tools(&sid)
        .expect("tools")
        .into_iter()
        .map(|t| t.name)
        .collect();
    assert_eq!(
        names,
        ["tool_search", "tool_list", "tool_inspect", "file_tool_001"]
    );
    let err = rt
        .tool_inspect(&sid, &json!({"name": "file_tool_01"}), 1)
        .expect_err("no fuzzy matching");
    assert_eq!(err.code, ErrorCode::ToolUnknown);
    assert!(!err.suggestions.is_empty() && err.suggestions.len() <= 3);
}

#[test]
fn catalog_only_entries_get_no_handle_and_no_schema() {
    let mut rt = Runtime::new();
    let skill = json!({"name": "deploy", "description": "Deploy the app", "source": "slash_command",
        "provider": {"id": "host"}, "usage": "/deploy", "permissions": ["network"]});
    rt.register_values(&[skill], 0).expect("skill");
    let sid = session(&mut rt, true);
    let out = rt
        .tool_inspect(&sid, &json!({"name": "deploy"}), 1)
        .expect("inspect");
    assert!(!out.loaded && out.handle.is_none() && out.schema.is_none());
    assert_eq!(out.usage.as_deref(), Some("/deploy"));
}

#[test]
fn static_sessions_list_every_permitted_tool_and_report_the_footprint() {
    let mut rt = Runtime::new();
    rt.register_values(&many(20), 0).expect("tools");
    let st = session(&mut rt, false);
    let dy = session_with_secret(&mut rt, true, 2);
    let static_tools = rt.model_tools(&st).expect("static");
    assert_eq!(
        static_tools.len(),
        21,
        "20 tools + run_tool_code; no discovery tools"
    );
    assert!(static_tools.iter().all(|t| !t.name.starts_with("tool_")));
    let fs = rt.footprint(&st).expect("fp");
    let fd = rt.footprint(&dy).expect("fp");
    assert_eq!(fs.now, fs.static_equivalent);
    assert_eq!(fd.static_equivalent, fs.static_equivalent);
    assert!(fd.at_creation < fs.at_creation);
}

fn session_with_secret(rt: &mut Runtime, dynamic: bool, seed: u8) -> String {
    let opts = SessionOptions {
        dynamic_discovery: dynamic,
        bounded_code_mode: true,
        ..SessionOptions::default()
    };
    rt.create_session(opts, &secret(seed), 0).expect("session")
}

#[test]
fn the_search_index_follows_every_registry_version() {
    let (mut rt, sid) = rt_with(2);
    let before = rt
        .tool_search(&sid, &json!({"query": "glob pattern"}), 1)
        .expect("search");
    assert!(before.results.iter().all(|r| r.name != "glob_files"));
    rt.register_values(&[native("glob_files", "Find files by glob pattern")], 2)
        .expect("add");
    let after = rt
        .tool_search(&sid, &json!({"query": "glob pattern"}), 3)
        .expect("search");
    assert!(
        after.results.iter().any(|r| r.name == "glob_files"),
        "next search sees the new registry"
    );
    assert_ne!(before.registry_version, after.registry_version);
    rt.update(
        holaryn_core::Update {
            remove: vec!["glob_files".into()],
            ..Default::default()
        },
        4,
    )
    .expect("rm");
    let gone = rt
        .tool_search(&sid, &json!({"query": "glob pattern"}), 5)
        .expect("search");
    assert!(
        gone.results.iter().all(|r| r.name != "glob_files"),
        "never a stale index"
    );
}

#[test]
fn run_tool_code_is_discoverable_only_with_code_mode_on() {
    let mut rt = Runtime::new();
    let off = rt
        .create_session(
            SessionOptions {
                dynamic_discovery: true,
                ..Default::default()
            },
            &secret(4),
            0,
        )
        .expect("s");
    assert_eq!(
        rt.tool_inspect(&off, &json!({"name": "run_tool_code"}), 1)
            .map_err(|e| e.code)
            .err(),
        Some(ErrorCode::ToolUnknown)
    );
    let on = session(&mut rt, true);
    assert!(
        rt.tool_inspect(&on, &json!({"name": "run_tool_code"}), 1)
            .expect("inspect")
            .loaded
    );
}

#[test]
fn a_search_by_query_text_answers_and_refuses_as_its_json_input_does() {
    let (mut rt, sid) = rt_with(30);
    for query in [
        "read file",
        "file_tool_007",
        "",
        "   ",
        &"x".repeat(513),
        "naïve 東京 🙂",
    ] {
        let by_text = rt.tool_search_query(&sid, query.to_string(), 1);
        let by_json = rt.tool_search(&sid, &json!({ "query": query }), 1);
        match (by_text, by_json) {
            (Ok(a), Ok(b)) => assert_eq!(a, b, "{query}"),
            (Err(a), Err(b)) => assert_eq!(format!("{a:?}"), format!("{b:?}"), "{query}"),
            (a, b) => panic!("{query}: {a:?} / {b:?}"),
        }
    }
    let err = rt
        .tool_search_query("no-such-session", "read".into(), 1)
        .expect_err("unknown session");
    assert_eq!(err.code, ErrorCode::SessionUnknown, "{err}");
}
