//! Availability: every state with its code, reason and next safe action, in
//! dynamic and static sessions, and the precedence between states.

mod common;

use common::{native, secret};
use holaryn_core::{availability, Availability, AvailabilityState as S};
use holaryn_core::{Decision, Scope};
use holaryn_core::{PolicyFile, SessionOptions};
use holaryn_core::{Registry, Runtime, ToolDescriptor};
use holaryn_model::ProviderStatus as P;
use serde_json::{json, Value};
use std::sync::Arc;

fn tools() -> Vec<Value> {
    let mut delete = native("delete_file", "Delete a file");
    delete["annotations"] = json!({"destructiveHint": true});
    let mut secret_tool = native("secret_tool", "Hidden by its provider");
    secret_tool["visibility"] = json!("hidden");
    let mut corp = native("corp_tool", "From a provider the host hides");
    corp["provider"] = json!({"id": "corp"});
    let mut remote = native("remote_tool", "Needs sign-in");
    remote["provider"] = json!({"id": "remote"});
    let mut offline = native("offline_tool", "Disconnected");
    offline["provider"] = json!({"id": "offline"});
    let deploy = json!({"name": "deploy", "source": "skill", "provider": {"id": "host"}, "usage": "/deploy"});
    let review = json!({"name": "review", "source": "slash_command", "provider": {"id": "host"}});
    vec![
        native("read_file", "Read"),
        native("grep", "Search files"),
        native("write_file", "Write"),
        native("project_tool", "Denied by the project file"),
        native("unlisted", "Not in the profile"),
        delete,
        secret_tool,
        corp,
        remote,
        offline,
        deploy,
        review,
    ]
}

fn descriptor(name: &str) -> Arc<ToolDescriptor> {
    let mut r = Registry::new();
    r.register_values(&tools()).expect("tools");
    r.get(name).expect("tool").descriptor.clone()
}

/// Shape every availability must have, whatever its state.
fn well_formed(a: &Availability) {
    assert!(a.code.as_str().starts_with(a.state.as_str()), "{a:?}");
    assert!(!a.reason.is_empty() && !a.next_action.is_empty(), "{a:?}");
    let policy_state = matches!(a.state, S::Hidden | S::Denied);
    assert_eq!(a.scope.is_some(), policy_state, "{a:?}");
    assert_eq!(a.rule.is_some(), policy_state, "{a:?}");
    let v = serde_json::to_value(a).expect("serialises");
    assert_eq!(v["state"], json!(a.state.as_str()));
    assert!(v.get("nextAction").is_some(), "camelCase keys");
}

#[test]
fn every_state_code_reason_and_next_action_from_the_function() {
    let denied = |scope| Decision::Denied {
        scope,
        rule: "deny: x".into(),
    };
    let hidden = |scope| Decision::Hidden {
        scope,
        rule: Some("r".into()),
    };
    // (tool, decision, provider, loaded, dynamic, state, code)
    let cases = [
        (
            "read_file",
            Decision::Allowed,
            P::Connected,
            true,
            true,
            S::Loaded,
            "loaded",
        ),
        (
            "read_file",
            Decision::Allowed,
            P::Connected,
            true,
            false,
            S::Loaded,
            "loaded",
        ),
        (
            "read_file",
            Decision::Allowed,
            P::Connected,
            false,
            true,
            S::Available,
            "available",
        ),
        (
            "read_file",
            Decision::Allowed,
            P::Connected,
            false,
            false,
            S::Available,
            "available.static",
        ),
        (
            "delete_file",
            Decision::Allowed,
            P::Connected,
            false,
            true,
            S::ApprovalRequired,
            "approval_required",
        ),
        (
            "delete_file",
            Decision::Allowed,
            P::Connected,
            true,
            true,
            S::Loaded,
            "loaded",
        ),
        (
            "delete_file",
            Decision::Allowed,
            P::Connected,
            true,
            false,
            S::Loaded,
            "loaded",
        ),
        (
            "delete_file",
            Decision::Allowed,
            P::Connected,
            false,
            false,
            S::Available,
            "available.static",
        ),
        (
            "write_file",
            denied(Scope::Session),
            P::Connected,
            true,
            true,
            S::Denied,
            "denied.session",
        ),
        (
            "write_file",
            denied(Scope::Project),
            P::Disconnected,
            false,
            false,
            S::Denied,
            "denied.project",
        ),
        (
            "secret_tool",
            hidden(Scope::Provider),
            P::Connected,
            true,
            true,
            S::Hidden,
            "hidden.provider",
        ),
        (
            "unlisted",
            hidden(Scope::Profile),
            P::NeedsAuth,
            false,
            false,
            S::Hidden,
            "hidden.profile",
        ),
        (
            "deploy",
            Decision::Allowed,
            P::Disconnected,
            false,
            true,
            S::CatalogOnly,
            "catalog_only",
        ),
        (
            "review",
            Decision::Allowed,
            P::Connected,
            false,
            false,
            S::CatalogOnly,
            "catalog_only",
        ),
        (
            "remote_tool",
            Decision::Allowed,
            P::NeedsAuth,
            true,
            true,
            S::Unavailable,
            "unavailable.needs_auth",
        ),
        (
            "offline_tool",
            Decision::Allowed,
            P::Disconnected,
            true,
            false,
            S::Unavailable,
            "unavailable.disconnected",
        ),
    ];
    for (name, decision, status, loaded, dynamic, state, code) in cases {
        let a = availability(&descriptor(name), &decision, status, loaded, dynamic);
        let label = format!("{name} loaded={loaded} dynamic={dynamic}");
        assert_eq!((a.state, a.code.as_str()), (state, code), "{label}");
        well_formed(&a);
        match state {
            S::Available | S::ApprovalRequired if dynamic => {
                assert!(a.next_action.contains("tool_inspect"), "{label}")
            }
            S::Available => assert!(!a.next_action.contains("tool_inspect"), "{label}"),
            _ => {}
        }
    }
    let loaded_asking = availability(
        &descriptor("delete_file"),
        &Decision::Allowed,
        P::Connected,
        true,
        true,
    );
    assert!(
        loaded_asking.next_action.contains("approval"),
        "{loaded_asking:?}"
    );
    let d = denied(Scope::Project);
    let a = availability(&descriptor("write_file"), &d, P::Connected, false, true);
    assert_eq!(
        (a.scope, a.rule.as_deref()),
        (Some(Scope::Project), Some("deny: x"))
    );
    assert!(a.reason.contains("deny: x") && a.next_action.contains("tool-policy.json"));
    let skill = availability(
        &descriptor("deploy"),
        &Decision::Allowed,
        P::Connected,
        false,
        true,
    );
    assert_eq!(skill.next_action, "use it through its own surface: /deploy");
    let cmd = availability(
        &descriptor("review"),
        &Decision::Allowed,
        P::Connected,
        false,
        true,
    );
    assert!(cmd.reason.contains("slash command"));
}

fn session_table(dynamic: bool) -> Vec<(String, Availability)> {
    let mut rt = Runtime::new();
    rt.register_values(&tools(), 0).expect("tools");
    rt.set_provider_status("remote", P::NeedsAuth, 0)
        .expect("status");
    rt.set_provider_status("offline", P::Disconnected, 0)
        .expect("status");
    let profile: Vec<String> = tools()
        .iter()
        .filter_map(|t| t["name"].as_str().map(str::to_string))
        .filter(|n| n != "unlisted")
        .collect();
    let opts = SessionOptions {
        dynamic_discovery: dynamic,
        hidden_providers: vec!["corp".into()],
        profile_allowed_tools: Some(profile),
        rules: Some(json!({"deny": ["write_file"]})),
        project_policy: Some(PolicyFile {
            path: "/repo/.holaryn/tool-policy.json".into(),
            text: r#"{"deny": ["project_tool"]}"#.into(),
        }),
        ..Default::default()
    };
    let sid = rt
        .create_session(opts, &secret(u8::from(dynamic)), 0)
        .expect("session");
    if dynamic {
        rt.tool_inspect(&sid, &json!({"name": "read_file"}), 1)
            .expect("inspect");
    }
    let table = rt.capability_table(&sid).expect("table");
    table
        .into_iter()
        .map(|r| (r.name, r.availability))
        .collect()
}

#[test]
fn every_state_in_dynamic_and_static_sessions() {
    for dynamic in [true, false] {
        let table = session_table(dynamic);
        let row = |n: &str| {
            table
                .iter()
                .find(|(name, _)| name == n)
                .map(|(_, a)| a.clone())
        };
        let pick = |d: (S, &'static str), s: (S, &'static str)| if dynamic { d } else { s };
        let loaded = (S::Loaded, "loaded");
        let expect = [
            ("read_file", loaded),
            ("grep", pick((S::Available, "available"), loaded)),
            (
                "delete_file",
                pick((S::ApprovalRequired, "approval_required"), loaded),
            ),
            ("write_file", (S::Denied, "denied.session")),
            ("project_tool", (S::Denied, "denied.project")),
            ("secret_tool", (S::Hidden, "hidden.provider")),
            ("corp_tool", (S::Hidden, "hidden.provider")),
            ("unlisted", (S::Hidden, "hidden.profile")),
            ("deploy", (S::CatalogOnly, "catalog_only")),
            ("review", (S::CatalogOnly, "catalog_only")),
            ("remote_tool", (S::Unavailable, "unavailable.needs_auth")),
            ("offline_tool", (S::Unavailable, "unavailable.disconnected")),
        ];
        for (name, (state, code)) in expect {
            let a = row(name).unwrap_or_else(|| panic!("{name}: no row (dynamic={dynamic})"));
            assert_eq!(
                (a.state, a.code.as_str()),
                (state, code),
                "{name} dynamic={dynamic}"
            );
            well_formed(&a);
        }
        let project = row("project_tool").expect("row");
        assert_eq!(project.rule.as_deref(), Some("deny: project_tool"));
        let corp = row("corp_tool").expect("row");
        assert_eq!(corp.rule.as_deref(), Some("hidden provider: corp"));
    }
}

#[test]
fn bounded_code_mode_off_is_a_session_option_not_provider_visibility() {
    let mut rt = Runtime::new();
    let sid = rt
        .create_session(
            SessionOptions {
                dynamic_discovery: true,
                bounded_code_mode: false,
                ..SessionOptions::default()
            },
            &secret(41),
            0,
        )
        .expect("session");
    let code_tool = holaryn_core::code_tool_entry();
    let session = rt.session(&sid).expect("session");
    let a = rt.availability_of(session, &code_tool.descriptor);
    assert_eq!(
        (a.state, a.code.as_str(), a.scope),
        (
            S::Hidden,
            "hidden.session_options",
            Some(Scope::SessionOptions)
        )
    );
    assert!(a.next_action.contains("boundedCodeMode"), "{a:?}");
    assert!(!a.next_action.contains("provider"), "{a:?}");
}

#[test]
fn provider_exposed_follows_hidden_providers_and_all_denied_tools() {
    let mut rt = Runtime::new();
    let mut corp = native("corp_tool", "From a provider the host hides");
    corp["provider"] = json!({"id": "corp"});
    let mut db = native("db_query", "Query");
    db["provider"] = json!({"id": "db"});
    let mut db2 = native("db_write", "Write");
    db2["provider"] = json!({"id": "db"});
    rt.register_values(&[native("read_file", "Read"), corp, db, db2], 0)
        .expect("tools");
    let opts = SessionOptions {
        dynamic_discovery: true,
        hidden_providers: vec!["corp".into(), "docs".into()],
        rules: Some(json!({"deny": ["db_query"]})),
        ..Default::default()
    };
    let sid = rt.create_session(opts, &secret(9), 0).expect("session");
    let exposed = |rt: &Runtime, p: &str| rt.provider_exposed(&sid, p).expect("session");
    assert!(exposed(&rt, "host"));
    assert!(!exposed(&rt, "corp"), "hidden provider");
    assert!(!exposed(&rt, "docs"), "hidden provider without tools");
    assert!(exposed(&rt, "db"), "one of its tools is allowed");
    assert!(exposed(&rt, "prompts_only"), "a provider without tools");
    rt.edit_session(&sid, 1, |s| {
        s.set_rules(&json!({"deny": ["db_query", "db_write"]}))
    })
    .expect("rules");
    assert!(!exposed(&rt, "db"), "every tool denied");
    assert!(rt.provider_exposed("nope", "host").is_err());
    assert_eq!(
        Runtime::wire_name("reference/test_prompt"),
        "reference__test_prompt"
    );
}
