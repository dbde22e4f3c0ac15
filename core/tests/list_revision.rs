//! A session's list revision (issue 31, speed): a host re-exports only when
//! it moved, so it must move whenever an export would differ (an inspect, an
//! exact-name load, a changed or removed tool, a provider outage and its
//! return, a policy change), and a call that changes nothing leaves it put.

mod common;

use common::drive::{drive, Script};
use common::{native, secret};
use holaryn_core::{ModelCallStep, Runtime, SessionOptions};
use holaryn_model::{Format, ProviderStatus};
use serde_json::{json, Value};

fn mcp_tool(provider: &str, name: &str, description: &str) -> Value {
    json!({
        "name": format!("{provider}/{name}"), "localName": name, "description": description,
        "source": "mcp", "provider": {"id": provider, "kind": "mcp"}, "trust": "untrusted",
        "inputSchema": {"type": "object", "properties": {"path": {"type": "string"}}, "required": ["path"]}
    })
}

/// One MCP `tools/call` driven to its end.
fn mcp_call(rt: &mut Runtime, sid: &str, name: &str) -> Value {
    let call = json!({"name": name, "arguments": {"path": "a.txt"}});
    let mut now = 10;
    let mut step = rt
        .dispatch_model_call(sid, Format::Mcp, &call, now)
        .expect("session");
    loop {
        step = match step {
            ModelCallStep::Done(v) => return v,
            ModelCallStep::Embed(_) => panic!("no search here"),
            ModelCallStep::Gate(g) => {
                let (gate, then) = g.into_parts();
                let d = drive(rt, gate, &Script::default(), &mut now);
                ModelCallStep::Done(then.resume(d.outcome))
            }
        }
    }
}

/// What a host last exported and the revision it saw then.
struct Seen {
    tools: Vec<Value>,
    revision: u64,
}

fn revision(rt: &Runtime, sid: &str) -> u64 {
    rt.session(sid).expect("session").list_revision()
}

/// Export as the gateway does; an export that differs from the last one must
/// come with a revision that moved. Returns whether the export changed.
fn check(rt: &mut Runtime, sid: &str, seen: &mut Seen, step: &str) -> bool {
    let now = revision(rt, sid);
    let tools = rt.export_tools(sid, Format::Mcp).expect("export").tools;
    let changed = tools != seen.tools;
    if changed {
        assert_ne!(
            now, seen.revision,
            "{step}: the export changed, the revision did not"
        );
    }
    *seen = Seen {
        tools,
        revision: revision(rt, sid),
    };
    changed
}

#[test]
fn the_revision_moves_with_every_change_of_the_export_and_not_on_a_plain_call() {
    let mut rt = Runtime::new();
    rt.register_values(&[mcp_tool("mem", "read", "read things")], 0)
        .expect("register");
    let opts = SessionOptions {
        dynamic_discovery: true,
        exact_name_calls: true,
        ..SessionOptions::default()
    };
    let sid = rt
        .create_session(opts.clone(), &secret(1), 0)
        .expect("session");
    let mut seen = Seen {
        tools: Vec::new(),
        revision: u64::MAX,
    };
    check(&mut rt, &sid, &mut seen, "start");

    rt.tool_inspect(&sid, &json!({"name": "mem/read"}), 1)
        .expect("inspect");
    assert!(check(&mut rt, &sid, &mut seen, "inspect"));

    // A call by the listed name changes nothing: the host need not re-export.
    for _ in 0..3 {
        let before = revision(&rt, &sid);
        let r = mcp_call(&mut rt, &sid, "mem__read");
        assert_eq!(r["isError"], json!(false), "{r}");
        assert_eq!(
            revision(&rt, &sid),
            before,
            "a plain call leaves the revision put"
        );
        assert!(!check(&mut rt, &sid, &mut seen, "call"));
    }

    // Another tool registered: the export is the same (the revision may move).
    rt.register_values(&[native("other", "x")], 2)
        .expect("register");
    assert!(!check(&mut rt, &sid, &mut seen, "unrelated registration"));

    // The inspected tool changes: it leaves the list until inspected again.
    rt.register_values(&[mcp_tool("mem", "read", "read things, changed")], 3)
        .expect("change");
    assert!(check(&mut rt, &sid, &mut seen, "changed descriptor"));
    rt.tool_inspect(&sid, &json!({"name": "mem/read"}), 4)
        .expect("inspect again");
    assert!(check(&mut rt, &sid, &mut seen, "inspect again"));

    // An outage drops it from the list, the return lists it again.
    rt.set_provider_status("mem", ProviderStatus::Disconnected, 5)
        .expect("down");
    assert!(check(&mut rt, &sid, &mut seen, "outage"));
    rt.set_provider_status("mem", ProviderStatus::Connected, 6)
        .expect("up");
    assert!(check(&mut rt, &sid, &mut seen, "return"));

    // A deny in the project policy.
    let policy = holaryn_core::PolicyFile {
        path: "tool-policy.json".into(),
        text: r#"{"deny": ["mem/read"]}"#.into(),
    };
    rt.edit_session(&sid, 7, |s| s.set_project_policy(Some(policy)))
        .expect("deny");
    assert!(check(&mut rt, &sid, &mut seen, "deny"));

    // A fresh session's call by the exact name loads the tool into its list.
    rt.register_values(&[mcp_tool("fs", "stat", "stat a file")], 8)
        .expect("register");
    let fresh = rt.create_session(opts, &secret(2), 8).expect("session");
    let mut seen = Seen {
        tools: Vec::new(),
        revision: u64::MAX,
    };
    check(&mut rt, &fresh, &mut seen, "fresh");
    let r = mcp_call(&mut rt, &fresh, "fs__stat");
    assert_eq!(r["isError"], json!(false), "{r}");
    assert!(check(&mut rt, &fresh, &mut seen, "exact-name load"));

    // A static session: a registration is a change of its list.
    let plain = rt
        .create_session(SessionOptions::default(), &secret(3), 9)
        .expect("session");
    let mut seen = Seen {
        tools: Vec::new(),
        revision: u64::MAX,
    };
    check(&mut rt, &plain, &mut seen, "static");
    rt.register_values(&[native("more", "y")], 10)
        .expect("register");
    assert!(check(&mut rt, &plain, &mut seen, "static registration"));
}
