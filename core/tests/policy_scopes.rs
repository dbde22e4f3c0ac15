//! Policy scopes: deny wins at each of the four scopes, `allow` semantics,
//! the discovery tools, and what an entry matches (aliases, provider-qualified
//! names, wildcards, sources). Every decision is checked through both
//! `Policy::evaluate` and the compiled evaluator.

mod common;

use common::{native, secret};
use holaryn_core::{CompiledPolicy, Decision, Pattern, Policy, Rules, Scope};
use holaryn_core::{PolicyFile, SessionOptions};
use holaryn_core::{Registry, Runtime, ToolDescriptor};
use holaryn_model::DISCOVERY_TOOLS;
use serde_json::{json, Value};

/// read_file (alias `cat`, host), write_file (host), create_issue (mcp, github),
/// ghost_tool (mcp, provider `ghost`), deploy (skill).
fn registry() -> Registry {
    let mut read = native("read_file", "Read a file");
    read["aliases"] = json!(["cat", "rf"]);
    let mut gh = native("create_issue", "Create an issue");
    gh["source"] = json!("mcp");
    gh["provider"] = json!({"id": "github"});
    let mut ghost = native("ghost_tool", "Provider named ghost");
    ghost["source"] = json!("mcp");
    ghost["provider"] = json!({"id": "ghost"});
    ghost["localName"] = json!("haunt");
    let skill = json!({"name": "deploy", "source": "skill", "provider": {"id": "host"}});
    let mut r = Registry::new();
    r.register_values(&[read, native("write_file", "Write a file"), gh, ghost, skill])
        .expect("tools register");
    r
}

fn rules(v: Value) -> Rules {
    Rules::from_value(&v, None).expect("valid rules")
}

fn patterns(list: &[&str]) -> Vec<Pattern> {
    list.iter()
        .map(|s| Pattern::parse(s).expect("valid entry"))
        .collect()
}

/// The decision for `name` (canonical or alias); asserts both evaluators agree.
fn decide(p: &Policy, name: &str) -> Decision {
    let r = registry();
    let e = r.get(name).expect("tool exists");
    let d = p.evaluate(&e.descriptor);
    assert_eq!(CompiledPolicy::new(p).evaluate(&e.descriptor), d, "{name}");
    d
}

fn denied_at(d: &Decision) -> Option<(Scope, &str)> {
    match d {
        Decision::Denied { scope, rule } => Some((*scope, rule.as_str())),
        _ => None,
    }
}

fn hidden_at(d: &Decision) -> Option<Scope> {
    match d {
        Decision::Hidden { scope, .. } => Some(*scope),
        _ => None,
    }
}

#[test]
fn provider_scope_hides_hidden_tools_and_hidden_providers() {
    let p = Policy {
        hidden_providers: vec!["github".into()],
        profile_allowed: Some(patterns(&["*"])),
        session: rules(json!({"allow": ["*"]})),
        ..Policy::default()
    };
    assert_eq!(
        decide(&p, "create_issue"),
        Decision::Hidden {
            scope: Scope::Provider,
            rule: Some("hidden provider: github".into())
        }
    );
    assert_eq!(decide(&p, "read_file"), Decision::Allowed);
    let mut hidden = native("secret_tool", "Hidden");
    hidden["visibility"] = json!("hidden");
    let mut r = registry();
    r.register_values(&[hidden]).expect("register");
    let e = r.get("secret_tool").expect("tool");
    let d = p.evaluate(&e.descriptor);
    assert_eq!(hidden_at(&d), Some(Scope::Provider));
    assert_eq!(p.compile().evaluate(&e.descriptor), d);
}

#[test]
fn profile_scope_is_a_ceiling_later_allows_cannot_widen() {
    let p = Policy {
        profile_allowed: Some(patterns(&["write_file"])),
        session: rules(json!({"allow": ["read_file"]})),
        project: Some(("p.json".into(), rules(json!({"allow": ["*"]})))),
        ..Policy::default()
    };
    assert_eq!(
        decide(&p, "read_file"),
        Decision::Hidden {
            scope: Scope::Profile,
            rule: Some("allowed_tools: no entry matches".into())
        }
    );
    // Permitted by the profile but not by the session allow list.
    assert_eq!(
        denied_at(&decide(&p, "write_file")),
        Some((Scope::Session, "allow: no entry matches"))
    );
    let none = Policy {
        profile_allowed: Some(vec![]),
        ..Policy::default()
    };
    assert_eq!(
        decide(&none, "write_file"),
        Decision::Hidden {
            scope: Scope::Profile,
            rule: Some("allowed_tools: [] (permits none)".into())
        }
    );
}

#[test]
fn deny_wins_over_allow_at_session_and_project() {
    let session = Policy::with_session(rules(json!({"allow": ["read_file"], "deny": ["cat"]})));
    assert_eq!(
        denied_at(&decide(&session, "read_file")),
        Some((Scope::Session, "deny: cat"))
    );
    let project = Policy {
        session: rules(json!({"allow": ["*"]})),
        project: Some((
            "/repo/.holaryn/tool-policy.json".into(),
            rules(json!({"allow": ["read_file", "write_file"], "deny": ["write_file"]})),
        )),
        ..Policy::default()
    };
    assert_eq!(decide(&project, "read_file"), Decision::Allowed);
    assert_eq!(
        denied_at(&decide(&project, "write_file")),
        Some((Scope::Project, "deny: write_file"))
    );
    assert_eq!(
        denied_at(&decide(&project, "create_issue")),
        Some((Scope::Project, "allow: no entry matches"))
    );
}

#[test]
fn the_first_scope_that_narrows_is_reported() {
    let p = Policy {
        session: rules(json!({"deny": ["write_file"]})),
        project: Some(("p".into(), rules(json!({"deny": ["write_file"]})))),
        ..Policy::default()
    };
    assert_eq!(
        denied_at(&decide(&p, "write_file")).map(|d| d.0),
        Some(Scope::Session)
    );
    let p = Policy {
        profile_allowed: Some(patterns(&["read_file"])),
        ..p
    };
    assert_eq!(hidden_at(&decide(&p, "write_file")), Some(Scope::Profile));
}

#[test]
fn empty_allow_permits_none_omitted_allow_permits_all() {
    for scope in [Scope::Session, Scope::Project] {
        let r = rules(json!({"allow": []}));
        let p = match scope {
            Scope::Session => Policy::with_session(r),
            _ => Policy {
                project: Some(("p".into(), r)),
                ..Policy::default()
            },
        };
        for t in ["read_file", "write_file", "create_issue", "deploy"] {
            assert_eq!(
                denied_at(&decide(&p, t)),
                Some((scope, "allow: [] (permits none)")),
                "{t}"
            );
        }
    }
    let p = Policy::with_session(rules(json!({"deny": []})));
    for t in ["read_file", "write_file", "create_issue", "deploy"] {
        assert_eq!(decide(&p, t), Decision::Allowed, "{t}");
    }
}

fn discovery_descriptor(name: &str) -> ToolDescriptor {
    let r = registry();
    let mut d = (*r.get("read_file").expect("tool").descriptor).clone();
    d.name = name.into();
    d.local_name = name.into();
    d.aliases.clear();
    d
}

#[test]
fn discovery_tools_are_allowed_whatever_the_rules_say() {
    let p = Policy {
        hidden_providers: vec!["host".into()],
        profile_allowed: Some(vec![]),
        session: rules(json!({"allow": [], "deny": ["*", "tool_search", "tool_*"]})),
        project: Some(("p".into(), rules(json!({"allow": [], "deny": ["*"]})))),
    };
    for name in DISCOVERY_TOOLS {
        let d = discovery_descriptor(name);
        assert_eq!(p.evaluate(&d), Decision::Allowed, "{name}");
        assert_eq!(p.compile().evaluate(&d), Decision::Allowed, "{name}");
    }
    // And through a real session: only the discovery tools reach the model.
    let mut rt = Runtime::new();
    rt.register_values(&[native("read_file", "Read")], 0)
        .expect("tools");
    let opts = SessionOptions {
        dynamic_discovery: true,
        rules: Some(json!({"allow": [], "deny": ["*"]})),
        project_policy: Some(PolicyFile {
            path: "/repo/.holaryn/tool-policy.json".into(),
            text: r#"{"allow": []}"#.into(),
        }),
        ..Default::default()
    };
    let sid = rt.create_session(opts, &secret(7), 0).expect("session");
    let names: Vec<String> = rt
        .model_tools(&sid)
        .expect("tools")
        .into_iter()
        .map(|t| t.name)
        .collect();
    assert_eq!(names, DISCOVERY_TOOLS);
    assert!(rt.tool_search(&sid, &json!({"query": "read"}), 1).is_ok());
}

#[test]
fn an_alias_cannot_dodge_a_deny_and_the_canonical_name_denies_every_alias() {
    for entry in ["cat", "rf", "read_file", "host/read_file", "native:cat"] {
        let p = Policy::with_session(rules(json!({ "deny": [entry] })));
        for name in ["read_file", "cat", "rf"] {
            assert_eq!(
                denied_at(&decide(&p, name)),
                Some((Scope::Session, format!("deny: {entry}").as_str())),
                "deny {entry} must catch {name}"
            );
        }
        assert_eq!(decide(&p, "write_file"), Decision::Allowed, "{entry}");
    }
    // An allow naming only an alias permits the canonical tool too.
    let p = Policy::with_session(rules(json!({"allow": ["cat"]})));
    assert_eq!(decide(&p, "read_file"), Decision::Allowed);
}

#[test]
fn qualified_names_wildcards_and_sources_match() {
    let cases: [(&str, &[&str]); 11] = [
        (
            "*",
            &[
                "read_file",
                "write_file",
                "create_issue",
                "ghost_tool",
                "deploy",
            ],
        ),
        ("github/create_issue", &["create_issue"]),
        ("github/*", &["create_issue"]),
        ("ghost/haunt", &["ghost_tool"]),
        ("host/*", &["read_file", "write_file", "deploy"]),
        ("read_*", &["read_file"]),
        ("r*", &["read_file"]),
        ("mcp:*", &["create_issue", "ghost_tool"]),
        ("mcp:create_*", &["create_issue"]),
        ("skill:*", &["deploy"]),
        ("native:write_file", &["write_file"]),
    ];
    let all = [
        "read_file",
        "write_file",
        "create_issue",
        "ghost_tool",
        "deploy",
    ];
    for (entry, hits) in cases {
        let p = Policy::with_session(rules(json!({ "deny": [entry] })));
        for t in all {
            let denied = denied_at(&decide(&p, t)).is_some();
            assert_eq!(denied, hits.contains(&t), "`{entry}` vs {t}");
        }
    }
}

#[test]
fn prefixes_without_a_slash_do_not_match_provider_ids() {
    // `gh*` must not catch every tool of provider `ghost` through `ghost/haunt`,
    // but does catch a tool whose own name starts with `gh`.
    let p = Policy::with_session(rules(json!({"allow": ["gh*"]})));
    assert_eq!(decide(&p, "ghost_tool"), Decision::Allowed);
    let p = Policy::with_session(rules(json!({"allow": ["haunt*"]})));
    assert!(
        denied_at(&decide(&p, "ghost_tool")).is_some(),
        "local names need the provider"
    );
    let p = Policy::with_session(rules(json!({"allow": ["ghost/h*"]})));
    assert_eq!(decide(&p, "ghost_tool"), Decision::Allowed);
    let p = Policy::with_session(rules(json!({"allow": ["mcp:github/*"]})));
    assert_eq!(decide(&p, "create_issue"), Decision::Allowed);
    let p = Policy::with_session(rules(json!({"allow": ["native:github/*"]})));
    assert!(
        denied_at(&decide(&p, "create_issue")).is_some(),
        "source must fit too"
    );
}

#[test]
fn the_digest_is_canonical_and_tracks_every_scope() {
    let base = Policy {
        hidden_providers: vec!["b".into(), "a".into()],
        profile_allowed: Some(patterns(&["x", "y"])),
        session: rules(json!({"deny": ["write_file", "cat"]})),
        project: Some(("/one/p.json".into(), rules(json!({"allow": ["*"]})))),
    };
    let reordered = Policy {
        hidden_providers: vec!["a".into(), "b".into(), "a".into()],
        profile_allowed: Some(patterns(&["y", "x"])),
        session: rules(json!({"deny": ["cat", "write_file", "cat"]})),
        project: Some(("/two/p.json".into(), rules(json!({"allow": ["*"]})))),
    };
    assert_eq!(base.digest(), reordered.digest());
    assert!(base.digest().starts_with("sha256:"));
    assert_eq!(base.compile().digest(), base.digest());
    let variants = [
        Policy {
            hidden_providers: vec![],
            ..base.clone()
        },
        Policy {
            profile_allowed: None,
            ..base.clone()
        },
        Policy {
            session: rules(json!({"deny": ["cat"]})),
            ..base.clone()
        },
        Policy {
            session: rules(json!({"allow": [], "deny": ["write_file", "cat"]})),
            ..base.clone()
        },
        Policy {
            project: None,
            ..base.clone()
        },
        Policy {
            project: Some(("p".into(), rules(json!({})))),
            ..base.clone()
        },
    ];
    for (i, v) in variants.iter().enumerate() {
        assert_ne!(v.digest(), base.digest(), "variant {i}");
    }
}

#[test]
fn a_provider_named_as_written_matches_its_slugged_id() {
    // Gateway servers and catalog servers become provider ids by one rule
    // (`provider_slug`); an entry naming the provider as written reads the same way.
    let cafe = holaryn_model::provider_slug("Café");
    let beta = holaryn_model::provider_slug("weather(beta)");
    assert_eq!(beta, "weather-beta");
    let tool = |name: &str, provider: &str, local: &str| {
        let mut t = native(name, "A tool from a server named with odd characters");
        t["source"] = json!("mcp");
        t["provider"] = json!({ "id": provider });
        t["localName"] = json!(local);
        t
    };
    let mut r = Registry::new();
    r.register_values(&[
        tool("brew", &cafe, "brew"),
        tool("forecast", &beta, "forecast"),
        // An id registered directly, not slugged: entries as written still match it.
        tool("raw_tool", "Café", "raw"),
    ])
    .expect("tools register");
    let decide = |entry: &str, name: &str| {
        let p = Policy::with_session(rules(json!({ "deny": [entry] })));
        let d = &r.get(name).expect("registered").descriptor;
        let out = p.evaluate(d);
        assert_eq!(
            CompiledPolicy::new(&p).evaluate(d),
            out,
            "{entry} vs {name}"
        );
        denied_at(&out).is_some()
    };
    for (entry, hits) in [
        ("Café/brew", &["brew", "raw_tool"][..1]),
        ("Café/*", &["brew", "raw_tool"][..]),
        ("Café/raw", &["raw_tool"][..]),
        ("weather(beta)/forecast", &["forecast"][..]),
        ("weather(beta)/*", &["forecast"][..]),
        ("mcp:weather(beta)/fore*", &["forecast"][..]),
        ("weather-beta/*", &["forecast"][..]),
        ("weather(beta)*", &[][..]),
        ("native:weather(beta)/*", &[][..]),
    ] {
        for t in ["brew", "forecast", "raw_tool"] {
            assert_eq!(decide(entry, t), hits.contains(&t), "`{entry}` vs {t}");
        }
    }
    // Whitespace stays outside the grammar; the refusal names the id to write.
    let e =
        Rules::from_value(&json!({"deny": ["My Weather Server/*"]}), None).expect_err("refused");
    assert!(e.message.contains("`My-Weather-Server/*`"), "{}", e.message);
}
