//! Policy scopes, the project policy file and availability states.

mod common;

use common::{fixtures, native, secret};
use holaryn_core::availability::AvailabilityState as S;
use holaryn_core::policy::{parse_policy_file, Decision, Policy, Rules, Scope};
use holaryn_core::registry::ProviderStatus;
use holaryn_core::session::{PolicyFile, SessionOptions};
use holaryn_core::{ErrorCode, Registry, Runtime};
use proptest::prelude::*;
use serde_json::{json, Value};

fn registry() -> Registry {
    let mut r = Registry::new();
    let mut read = native("read_file", "Read a file");
    read["aliases"] = json!(["cat"]);
    let mut gh = native("create_issue", "Create an issue");
    gh["source"] = json!("mcp");
    gh["provider"] = json!({"id": "github"});
    r.register_values(&[read, native("write_file", "Write a file"), gh])
        .expect("tools");
    r
}

fn rules(v: Value) -> Rules {
    Rules::from_value(&v, None).expect("valid rules")
}

fn decide(p: &Policy, name: &str) -> Decision {
    let r = registry();
    let e = r.get(name).expect("tool");
    p.evaluate(&r, &e.descriptor)
}

#[test]
fn deny_wins_at_every_scope() {
    let allow_all =
        || Some(vec![]).map(|_: Vec<()>| rules(json!({"allow": ["*"]})).allow.unwrap_or_default());
    let p = Policy {
        hidden_providers: vec!["host".into()],
        profile_allowed: allow_all(),
        ..Policy::default()
    };
    assert!(matches!(
        decide(&p, "read_file"),
        Decision::Hidden {
            scope: Scope::Provider,
            ..
        }
    ));
    let p = Policy {
        profile_allowed: Some(
            rules(json!({"allow": ["write_file"]}))
                .allow
                .unwrap_or_default(),
        ),
        ..Policy::default()
    };
    assert!(matches!(
        decide(&p, "read_file"),
        Decision::Hidden {
            scope: Scope::Profile,
            ..
        }
    ));
    let p = Policy {
        session: rules(json!({"allow": ["*"], "deny": ["read_file"]})),
        ..Policy::default()
    };
    assert!(matches!(
        decide(&p, "read_file"),
        Decision::Denied {
            scope: Scope::Session,
            ..
        }
    ));
    let p = Policy {
        session: rules(json!({"allow": ["read_file"]})),
        project: Some((
            "p.json".into(),
            rules(json!({"allow": ["read_file"], "deny": ["read_file"]})),
        )),
        ..Policy::default()
    };
    assert!(matches!(
        decide(&p, "read_file"),
        Decision::Denied {
            scope: Scope::Project,
            ..
        }
    ));
}

#[test]
fn empty_allow_denies_all_but_discovery_tools_and_omitted_allow_permits() {
    let p = Policy {
        session: rules(json!({"allow": []})),
        ..Policy::default()
    };
    for t in ["read_file", "write_file", "create_issue"] {
        assert!(matches!(decide(&p, t), Decision::Denied { .. }), "{t}");
    }
    let mut rt = Runtime::new();
    rt.register_values(&[native("read_file", "Read")], 0)
        .expect("tools");
    let opts = SessionOptions {
        dynamic_discovery: true,
        rules: Some(json!({"allow": []})),
        profile_allowed_tools: Some(vec![]),
        ..Default::default()
    };
    let sid = rt.create_session(opts, &secret(1), 0).expect("session");
    let names: Vec<String> = rt
        .model_tools(&sid)
        .expect("tools")
        .into_iter()
        .map(|t| t.name)
        .collect();
    assert_eq!(names, ["tool_search", "tool_list", "tool_inspect"]);
    assert!(rt.tool_search(&sid, &json!({"query": "read"}), 1).is_ok());
    let p = Policy {
        session: rules(json!({"deny": []})),
        ..Policy::default()
    };
    assert_eq!(decide(&p, "read_file"), Decision::Allowed);
}

#[test]
fn aliases_qualified_names_wildcards_and_sources_all_match() {
    for entry in [
        "cat",
        "read_file",
        "host/read_file",
        "read_*",
        "host/*",
        "native:*",
        "native:read_*",
        "*",
    ] {
        let p = Policy {
            session: rules(json!({ "deny": [entry] })),
            ..Policy::default()
        };
        assert!(
            matches!(decide(&p, "read_file"), Decision::Denied { .. }),
            "{entry}"
        );
    }
    let p = Policy {
        session: rules(json!({"deny": ["mcp:*"]})),
        ..Policy::default()
    };
    assert_eq!(decide(&p, "read_file"), Decision::Allowed);
    assert!(matches!(
        decide(&p, "create_issue"),
        Decision::Denied { .. }
    ));
    let p = Policy {
        session: rules(json!({"deny": ["github/*"]})),
        ..Policy::default()
    };
    assert!(matches!(
        decide(&p, "create_issue"),
        Decision::Denied { .. }
    ));
}

#[test]
fn each_malformed_file_class_fails_with_file_position_and_message() {
    for name in [
        "syntax-error",
        "wrong-type",
        "unknown-key",
        "bad-pattern",
        "unknown-source",
    ] {
        let path = fixtures().join(format!("policy/{name}.json"));
        let text = std::fs::read_to_string(&path).expect("fixture");
        let err = parse_policy_file(".holaryn/tool-policy.json", &text).expect_err(name);
        let got = json!({"code": err.code, "file": err.file, "pointer": err.pointer, "line": err.line, "column": err.column, "message": err.message});
        let golden_path = fixtures().join(format!("policy/{name}.error.json"));
        if std::env::var_os("UPDATE_GOLDEN").is_some() {
            std::fs::write(
                &golden_path,
                serde_json::to_string_pretty(&got).expect("json") + "\n",
            )
            .expect("write");
        }
        let golden: Value =
            serde_json::from_str(&std::fs::read_to_string(&golden_path).expect("golden"))
                .expect("json");
        assert_eq!(got, golden, "{name}");
        assert_eq!(err.code, ErrorCode::PolicyMalformed);
        assert_eq!(err.file.as_deref(), Some(".holaryn/tool-policy.json"));
        assert!(
            err.pointer.is_some() || err.line.is_some(),
            "{name} is located"
        );
    }
    let ok = std::fs::read_to_string(fixtures().join("policy/valid.json")).expect("fixture");
    assert!(parse_policy_file("p.json", &ok).is_ok());
}

#[test]
fn a_malformed_project_policy_fails_session_creation_and_creates_nothing() {
    let mut rt = Runtime::new();
    let opts = SessionOptions {
        dynamic_discovery: true,
        project_policy: Some(PolicyFile {
            path: "/repo/.holaryn/tool-policy.json".into(),
            text: "{\"deny\": 1}".into(),
        }),
        ..Default::default()
    };
    let err = rt
        .create_session(opts, &secret(1), 0)
        .expect_err("malformed");
    assert_eq!(
        (err.code, err.file.as_deref(), err.pointer.as_deref()),
        (
            ErrorCode::PolicyMalformed,
            Some("/repo/.holaryn/tool-policy.json"),
            Some("/deny")
        )
    );
    assert!(rt.activity_since(0).is_empty(), "nothing created");
}

#[test]
fn unknown_names_are_warnings_not_errors() {
    let p = Policy {
        session: rules(json!({"deny": ["no_such_tool", "read_*"]})),
        ..Policy::default()
    };
    let w = p.warnings(&registry());
    assert_eq!(w.len(), 1);
    assert_eq!(w[0].entry, "no_such_tool");
}

#[test]
fn every_state_has_a_code_reason_and_next_action_in_both_modes() {
    let mut rt = Runtime::new();
    let mut del = native("delete_file", "Delete");
    del["annotations"] = json!({"destructiveHint": true});
    let mut off = native("remote", "A remote tool");
    off["provider"] = json!({"id": "remote"});
    let mut hidden = native("secret_tool", "Hidden");
    hidden["visibility"] = json!("hidden");
    let skill = json!({"name": "deploy", "description": "Deploy", "source": "skill", "provider": {"id": "host"}, "usage": "/deploy"});
    rt.register_values(
        &[
            native("read_file", "Read"),
            native("write_file", "Write"),
            del,
            off,
            hidden,
            skill,
        ],
        0,
    )
    .expect("tools");
    rt.set_provider_status("remote", ProviderStatus::NeedsAuth, 0)
        .expect("status");
    for dynamic in [true, false] {
        let opts = SessionOptions {
            dynamic_discovery: dynamic,
            rules: Some(json!({"deny": ["write_file"]})),
            ..Default::default()
        };
        let sid = rt
            .create_session(opts, &secret(if dynamic { 1 } else { 2 }), 0)
            .expect("s");
        if dynamic {
            rt.tool_inspect(&sid, &json!({"name": "read_file"}), 1)
                .expect("inspect");
        }
        let table = rt.capability_table(&sid).expect("table");
        let state = |n: &str| {
            table
                .iter()
                .find(|r| r.name == n)
                .map(|r| r.availability.clone())
                .expect("row")
        };
        let expect = [
            ("read_file", S::Loaded),
            ("write_file", S::Denied),
            (
                "delete_file",
                if dynamic {
                    S::ApprovalRequired
                } else {
                    S::Loaded
                },
            ),
            ("remote", S::Unavailable),
            ("secret_tool", S::Hidden),
            ("deploy", S::CatalogOnly),
        ];
        for (name, want) in expect {
            let a = state(name);
            assert_eq!(a.state, want, "{name} dynamic={dynamic}");
            assert!(
                !a.code.is_empty() && !a.reason.is_empty() && !a.next_action.is_empty(),
                "{name}"
            );
        }
        assert_eq!(state("write_file").scope, Some(Scope::Session));
        assert_eq!(
            state("deploy").next_action,
            "use it through its own surface: /deploy"
        );
        if dynamic {
            let a = state("run_tool_code");
            assert_eq!(a.state, S::Hidden, "code mode off");
            let r = rt
                .tool_inspect(&sid, &json!({"name": "write_file"}), 2)
                .expect("inspect of a denied tool returns the denial");
            assert!(!r.loaded && r.handle.is_none() && r.schema.is_none());
            assert_eq!(r.availability.state, S::Denied);
            let list = rt
                .tool_list(&sid, &json!({"state": "denied"}), 2)
                .expect("list");
            assert_eq!(
                list.tools
                    .iter()
                    .map(|t| t.name.as_str())
                    .collect::<Vec<_>>(),
                ["write_file"]
            );
        }
    }
}

fn rank(d: &Decision) -> u8 {
    match d {
        Decision::Allowed => 1,
        _ => 0,
    }
}

const NAMES: [&str; 6] = [
    "read_file",
    "cat",
    "write_file",
    "create_issue",
    "github/create_issue",
    "host/write_file",
];
const GLOBS: [&str; 6] = ["*", "read_*", "host/*", "mcp:*", "native:*", "github/*"];

fn entry() -> impl Strategy<Value = String> {
    prop_oneof![
        prop::sample::select(NAMES.to_vec()),
        prop::sample::select(GLOBS.to_vec())
    ]
    .prop_map(str::to_string)
}

fn rule_set() -> impl Strategy<Value = (Option<Vec<String>>, Vec<String>)> {
    (
        prop::option::of(prop::collection::vec(entry(), 0..4)),
        prop::collection::vec(entry(), 0..3),
    )
}

fn to_rules(r: &(Option<Vec<String>>, Vec<String>)) -> Rules {
    let mut v = json!({ "deny": r.1.iter().collect::<std::collections::BTreeSet<_>>() });
    if let Some(a) = &r.0 {
        v["allow"] = json!(a.iter().collect::<std::collections::BTreeSet<_>>());
    }
    rules(v)
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 256, ..ProptestConfig::default() })]

    #[test]
    fn adding_a_deny_never_makes_a_tool_more_available(session in rule_set(), project in rule_set(), extra in entry(), at_project in any::<bool>()) {
        let reg = registry();
        let base = Policy { session: to_rules(&session), project: Some(("p".into(), to_rules(&project))), ..Policy::default() };
        let mut more = base.clone();
        let target = if at_project { &mut more.project.as_mut().map(|p| &mut p.1) } else { &mut None };
        match target {
            Some(r) => r.deny.push(holaryn_core::policy::Pattern::parse(&extra).expect("entry")),
            None => more.session.deny.push(holaryn_core::policy::Pattern::parse(&extra).expect("entry")),
        }
        for e in reg.entries() {
            prop_assert!(rank(&more.evaluate(&reg, &e.descriptor)) <= rank(&base.evaluate(&reg, &e.descriptor)));
        }
        // The discovery tools stay whatever the rules say.
        let mut rt = Runtime::new();
        rt.register_values(&[native("read_file", "Read")], 0).expect("tools");
        let mut rules_v = json!({"deny": [extra]});
        if let Some(a) = &session.0 { rules_v["allow"] = json!(a.iter().collect::<std::collections::BTreeSet<_>>()); }
        let opts = SessionOptions { dynamic_discovery: true, rules: Some(rules_v), ..Default::default() };
        let sid = rt.create_session(opts, &secret(3), 0).expect("session");
        let names: Vec<String> = rt.model_tools(&sid).expect("tools").into_iter().map(|t| t.name).collect();
        prop_assert_eq!(&names[..3], &["tool_search", "tool_list", "tool_inspect"]);
    }
}
