//! Issue 31: names every client can pass on, calls from clients that never
//! saw the list (exact-name calls, the shared working set), and refusals
//! that tell the truth (a deny says denied; a provider that restarts
//! unchanged keeps its tools listed and callable).

mod common;

use common::drive::{drive, Script};
use common::{all_mcp_specs, native, secret};
use holaryn_core::{ActivityKind, ModelCallStep, Runtime, SessionOptions, WorkingSet};
use holaryn_model::{is_provider_safe, Format, ProviderStatus};
use serde_json::{json, Value};
use std::collections::BTreeSet;

fn mcp_tool(provider: &str, name: &str) -> Value {
    json!({
        "name": format!("{provider}/{name}"), "localName": name, "description": format!("{name} things"),
        "source": "mcp", "provider": {"id": provider, "kind": "mcp"}, "trust": "untrusted",
        "inputSchema": {"type": "object", "properties": {"path": {"type": "string"}}, "required": ["path"]}
    })
}

fn gateway_session(rt: &mut Runtime, seed: u8, rules: Option<Value>) -> String {
    let opts = SessionOptions {
        dynamic_discovery: true,
        exact_name_calls: true,
        shared_working_set: true,
        rules,
        ..SessionOptions::default()
    };
    rt.create_session(opts, &secret(seed), 0).expect("session")
}

/// One MCP `tools/call`; the result and how many tools ran.
fn mcp_call(rt: &mut Runtime, sid: &str, name: &str) -> (Value, usize) {
    let call = json!({"name": name, "arguments": {"path": "a.txt"}});
    let mut now = 10;
    let mut step = rt
        .dispatch_model_call(sid, Format::Mcp, &call, now)
        .expect("session");
    let mut ran = 0;
    loop {
        step = match step {
            ModelCallStep::Done(v) => return (v, ran),
            ModelCallStep::Embed(_) => panic!("no search here"),
            ModelCallStep::Gate(g) => {
                let (gate, then) = g.into_parts();
                let d = drive(rt, gate, &Script::default(), &mut now);
                ran += d.executed.len();
                ModelCallStep::Done(then.resume(d.outcome))
            }
        }
    }
}

fn error_code(r: &Value) -> String {
    let text = r["content"][0]["text"].as_str().unwrap_or("{}");
    let v: Value = serde_json::from_str(text).unwrap_or(Value::Null);
    format!(
        "{} {}",
        v["error"]["code"].as_str().unwrap_or("ok"),
        v["error"]["message"].as_str().unwrap_or("")
    )
}

fn mcp_names(rt: &mut Runtime, sid: &str) -> Vec<String> {
    let e = rt.export_tools(sid, Format::Mcp).expect("export");
    e.tools
        .iter()
        .map(|t| t["name"].as_str().unwrap_or("").to_string())
        .collect()
}

#[test]
fn every_mcp_export_name_is_provider_safe_unique_and_shown_by_search_and_inspect() {
    let mut rt = Runtime::new();
    let specs = all_mcp_specs();
    let upsert = holaryn_core::Update {
        upsert: specs.clone(),
        ..holaryn_core::Update::default()
    };
    rt.update(upsert, 0).expect("register the fixture servers");
    let sid = gateway_session(&mut rt, 1, None);
    let mut inspected = 0;
    for s in &specs {
        let out = rt
            .tool_inspect(&sid, &json!({"name": s.name}), 1)
            .expect("inspect");
        inspected += usize::from(out.loaded);
        let call = out.call_name.clone().unwrap_or_else(|| out.name.clone());
        assert!(is_provider_safe(&call), "{}: {call}", s.name);
        // The name inspect shows is the name a call uses, and inspect takes it back.
        let again = rt
            .tool_inspect(&sid, &json!({"name": call}), 1)
            .expect("by call name");
        assert_eq!(again.name, s.name);
    }
    let names = mcp_names(&mut rt, &sid);
    assert_eq!(
        names.len(),
        inspected + 3,
        "discovery tools and every inspected tool"
    );
    let unique: BTreeSet<&String> = names.iter().collect();
    assert_eq!(unique.len(), names.len(), "collision-free");
    for n in &names {
        assert!(is_provider_safe(n), "{n}");
    }
    // A fresh runtime with the same tools gives the same names (stable across restarts).
    let mut again = Runtime::new();
    let upsert = holaryn_core::Update {
        upsert: specs,
        ..holaryn_core::Update::default()
    };
    again.update(upsert, 0).expect("register");
    let sid2 = gateway_session(&mut again, 2, None);
    let found = again
        .tool_search(
            &sid2,
            &json!({"query": "create entities in the knowledge graph"}),
            1,
        )
        .expect("search");
    let hit = &found.results[0];
    assert!(hit.name.contains('/'), "canonical names stay: {}", hit.name);
    assert_eq!(hit.call_name, Some(hit.name.replace('/', "__")));
    assert!(names.contains(hit.call_name.as_ref().expect("call name")));
}

#[test]
fn a_fresh_session_calls_by_the_exact_name_and_the_gate_still_decides() {
    let mut rt = Runtime::new();
    rt.register_values(
        &[
            mcp_tool("mem", "read"),
            mcp_tool("mem", "wipe"),
            mcp_tool("secret", "peek"),
        ],
        0,
    )
    .expect("register");
    let rules = json!({"deny": ["mem/wipe"]});
    let opts = SessionOptions {
        dynamic_discovery: true,
        exact_name_calls: true,
        hidden_providers: vec!["secret".into()],
        rules: Some(rules),
        ..SessionOptions::default()
    };
    let sid = rt.create_session(opts, &secret(3), 0).expect("session");
    let (r, ran) = mcp_call(&mut rt, &sid, "mem__read");
    assert_eq!((error_code(&r).as_str(), ran), ("ok ", 1), "{r}");
    let o = &rt
        .activity_since(0)
        .into_iter()
        .rev()
        .find(|a| a.kind == ActivityKind::Invocation)
        .expect("call record");
    assert_eq!(
        o.path.as_deref(),
        Some("direct"),
        "recorded as a direct call by exact name"
    );
    assert!(
        mcp_names(&mut rt, &sid).contains(&"mem__read".to_string()),
        "now listed"
    );
    let (r, ran) = mcp_call(&mut rt, &sid, "mem__wipe");
    assert!(
        error_code(&r)
            .starts_with("policy.denied denied by the host's session rules (deny: mem/wipe)"),
        "{r}"
    );
    assert_eq!(ran, 0);
    // The canonical name search shows as `name` works too (old client caches); an alias does not.
    let fresh = gateway_session(&mut rt, 9, None);
    let (r, ran) = mcp_call(&mut rt, &fresh, "mem/read");
    assert_eq!((error_code(&r).as_str(), ran), ("ok ", 1), "{r}");
    let (r, ran) = mcp_call(&mut rt, &sid, "secret__peek");
    assert!(
        error_code(&r).starts_with("tool.unknown"),
        "hidden stays unknown: {r}"
    );
    assert_eq!(ran, 0);
    // Without the option the model flow stays search-first.
    let plain = SessionOptions {
        dynamic_discovery: true,
        ..SessionOptions::default()
    };
    let sid = rt.create_session(plain, &secret(4), 0).expect("session");
    let (r, ran) = mcp_call(&mut rt, &sid, "mem__read");
    assert!(error_code(&r).starts_with("tool.unknown"), "{r}");
    assert_eq!(ran, 0);
}

#[test]
fn the_working_set_lists_recent_tools_in_new_sessions_and_grants_nothing() {
    let mut rt = Runtime::new();
    rt.register_values(&[mcp_tool("mem", "read"), mcp_tool("mem", "wipe")], 0)
        .expect("register");
    let a = gateway_session(&mut rt, 5, None);
    for n in ["mem/read", "mem/wipe"] {
        rt.tool_inspect(&a, &json!({"name": n}), 1)
            .expect("inspect");
    }
    assert_eq!(rt.working_set().names(), ["mem/wipe", "mem/read"]);
    // Kept as text and read back in another process.
    let text = rt.working_set().to_text();
    let mut fresh = Runtime::new();
    fresh
        .register_values(&[mcp_tool("mem", "read"), mcp_tool("mem", "wipe")], 0)
        .expect("register");
    fresh.set_working_set(WorkingSet::parse("ws.json", &text).expect("parse"));
    let b = gateway_session(&mut fresh, 6, Some(json!({"deny": ["mem/wipe"]})));
    let names = mcp_names(&mut fresh, &b);
    assert_eq!(
        names,
        ["tool_search", "tool_list", "tool_inspect", "mem__read"],
        "denied: not listed"
    );
    let (r, _) = mcp_call(&mut fresh, &b, "mem__wipe");
    assert!(error_code(&r).starts_with("policy.denied"), "{r}");
    let (r, ran) = mcp_call(&mut fresh, &b, "mem__read");
    assert_eq!((error_code(&r).as_str(), ran), ("ok ", 1));
}

#[test]
fn a_deny_after_inspect_says_denied_with_its_rule_and_scope() {
    let mut rt = Runtime::new();
    rt.register_values(&[mcp_tool("mem", "read")], 0)
        .expect("register");
    let sid = gateway_session(&mut rt, 7, None);
    rt.tool_inspect(&sid, &json!({"name": "mem/read"}), 1)
        .expect("inspect");
    assert!(mcp_names(&mut rt, &sid).contains(&"mem__read".to_string()));
    let policy = holaryn_core::PolicyFile {
        path: "tool-policy.json".into(),
        text: r#"{"deny": ["mem/read"]}"#.into(),
    };
    rt.edit_session(&sid, 2, |s| s.set_project_policy(Some(policy)))
        .expect("deny");
    let (r, ran) = mcp_call(&mut rt, &sid, "mem__read");
    let said = error_code(&r);
    assert!(
        said.starts_with("policy.denied denied by the project policy file (deny: mem/read)"),
        "{said}"
    );
    assert!(!said.contains("changed since"), "{said}");
    assert_eq!(ran, 0);
}

#[test]
fn a_provider_that_restarts_unchanged_keeps_its_tools_listed_and_callable() {
    let mut rt = Runtime::new();
    rt.register_values(&[mcp_tool("mem", "read"), native("other", "x")], 0)
        .expect("register");
    let sid = gateway_session(&mut rt, 8, None);
    rt.tool_inspect(&sid, &json!({"name": "mem/read"}), 1)
        .expect("inspect");
    let before = mcp_names(&mut rt, &sid);
    rt.set_provider_status("mem", ProviderStatus::Disconnected, 2)
        .expect("down");
    let (r, ran) = mcp_call(&mut rt, &sid, "mem__read");
    assert!(
        error_code(&r).starts_with("provider.unavailable"),
        "the outage is what the call says: {r}"
    );
    assert_eq!(ran, 0);
    // The same descriptors come back.
    rt.register_values(&[mcp_tool("mem", "read")], 3)
        .expect("same again");
    rt.set_provider_status("mem", ProviderStatus::Connected, 3)
        .expect("up");
    assert_eq!(mcp_names(&mut rt, &sid), before, "listed again, same names");
    let (r, ran) = mcp_call(&mut rt, &sid, "mem__read");
    assert_eq!((error_code(&r).as_str(), ran), ("ok ", 1), "{r}");
}
