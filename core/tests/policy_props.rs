//! Property tests over random small registries and random rule sets:
//! narrowing at any scope never makes a tool more available, the discovery
//! tools are always allowed, and the compiled evaluator agrees exactly with
//! `Policy::evaluate`. Order used: allowed > hidden/denied.

use holaryn_core::{Decision, Pattern, Policy, Rules};
use holaryn_core::{Registry, Source, ToolDescriptor};
use holaryn_model::DISCOVERY_TOOLS;
use proptest::prelude::*;
use serde_json::json;

const NAMES: [&str; 6] = [
    "read_file",
    "write_file",
    "create_issue",
    "list_tabs",
    "deploy",
    "gh_sync",
];
const ALIASES: [&str; 4] = ["cat", "rf", "issue", "tabs"];
const PROVIDERS: [&str; 3] = ["host", "github", "ghost"];
const ENTRIES: [&str; 24] = [
    "*",
    "read_file",
    "write_file",
    "create_issue",
    "deploy",
    "cat",
    "issue",
    "nope",
    "github/create_issue",
    "host/read_file",
    "ghost/list_tabs",
    "read_*",
    "gh*",
    "c*",
    "host/*",
    "github/*",
    "ghost/l*",
    "mcp:*",
    "native:*",
    "skill:*",
    "browser:list_*",
    "native:read_file",
    "mcp:issue",
    "tool_search",
];

/// (source index, provider index, alias index, hidden) per name, when present.
type ToolShape = Option<(usize, usize, Option<usize>, bool)>;

fn registry_from(shapes: &[ToolShape]) -> Registry {
    let mut used = std::collections::HashSet::new();
    let mut specs = Vec::new();
    for (name, shape) in NAMES.iter().zip(shapes) {
        let Some((src, prov, alias, hidden)) = *shape else {
            continue;
        };
        let aliases: Vec<&str> = alias
            .map(|a| ALIASES[a])
            .filter(|a| used.insert(*a))
            .into_iter()
            .collect();
        specs.push(json!({
            "name": name, "source": Source::ALL[src].as_str(),
            "provider": {"id": PROVIDERS[prov]}, "aliases": aliases,
            "visibility": if hidden { "hidden" } else { "model_visible" },
        }));
    }
    let mut r = Registry::new();
    r.register_values(&specs)
        .expect("generated tools are valid");
    r
}

fn shapes() -> impl Strategy<Value = Vec<ToolShape>> {
    let shape = (
        0..Source::ALL.len(),
        0..PROVIDERS.len(),
        prop::option::of(0..ALIASES.len()),
        prop::bool::weighted(0.1),
    );
    prop::collection::vec(prop::option::weighted(0.8, shape), NAMES.len())
}

fn entry() -> impl Strategy<Value = Pattern> {
    prop::sample::select(ENTRIES.to_vec()).prop_map(|e| Pattern::parse(e).expect("valid"))
}

fn list() -> impl Strategy<Value = Vec<Pattern>> {
    prop::collection::vec(entry(), 0..4)
}

fn rules() -> impl Strategy<Value = Rules> {
    (prop::option::weighted(0.4, list()), list()).prop_map(|(allow, deny)| Rules { allow, deny })
}

fn policy() -> impl Strategy<Value = Policy> {
    (
        prop::collection::vec(prop::sample::select(PROVIDERS.to_vec()), 0..2),
        prop::option::weighted(0.4, list()),
        rules(),
        prop::option::of(rules()),
    )
        .prop_map(|(hidden, profile_allowed, session, project)| Policy {
            hidden_providers: hidden.into_iter().map(String::from).collect(),
            profile_allowed,
            session,
            project: project.map(|r| ("p.json".to_string(), r)),
        })
}

/// A narrowing step at one scope.
#[derive(Debug, Clone)]
enum Narrow {
    HideProvider(usize),
    ProfileDrop(usize),
    SessionDeny(Pattern),
    ProjectDeny(Pattern),
}

fn narrow() -> impl Strategy<Value = Narrow> {
    prop_oneof![
        (0..PROVIDERS.len()).prop_map(Narrow::HideProvider),
        (0..8usize).prop_map(Narrow::ProfileDrop),
        entry().prop_map(Narrow::SessionDeny),
        entry().prop_map(Narrow::ProjectDeny),
    ]
}

fn apply(p: &Policy, n: &Narrow) -> Policy {
    let mut p = p.clone();
    match n {
        Narrow::HideProvider(i) => p.hidden_providers.push(PROVIDERS[*i].into()),
        // Removing an entry from the ceiling (or imposing one) narrows it.
        Narrow::ProfileDrop(i) => match &mut p.profile_allowed {
            Some(list) if !list.is_empty() => {
                let at = i % list.len();
                list.remove(at);
            }
            Some(_) => {}
            None => p.profile_allowed = Some(vec![]),
        },
        Narrow::SessionDeny(e) => p.session.deny.push(e.clone()),
        Narrow::ProjectDeny(e) => match &mut p.project {
            Some((_, r)) => r.deny.push(e.clone()),
            None => {
                p.project = Some((
                    "p.json".into(),
                    Rules {
                        allow: None,
                        deny: vec![e.clone()],
                    },
                ))
            }
        },
    }
    p
}

fn rank(d: &Decision) -> u8 {
    u8::from(d.is_allowed())
}

fn discovery(template: &ToolDescriptor, name: &str) -> ToolDescriptor {
    let mut d = template.clone();
    d.name = name.into();
    d.local_name = name.into();
    d
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 256, failure_persistence: None, ..ProptestConfig::default() })]

    #[test]
    fn narrowing_any_scope_never_makes_a_tool_more_available(
        shapes in shapes(), base in policy(), steps in prop::collection::vec(narrow(), 1..3)
    ) {
        let reg = registry_from(&shapes);
        let mut before = base;
        for step in &steps {
            let after = apply(&before, step);
            for e in reg.entries() {
                let (b, a) = (before.evaluate(&e.descriptor), after.evaluate(&e.descriptor));
                prop_assert!(rank(&a) <= rank(&b), "{} went from {:?} to {:?} after {:?}", e.descriptor.name, b, a, step);
            }
            before = after;
        }
    }

    #[test]
    fn discovery_tools_are_always_allowed_and_compiled_agrees(shapes in shapes(), p in policy()) {
        let reg = registry_from(&shapes);
        let compiled = p.compile();
        for e in reg.entries() {
            prop_assert_eq!(compiled.evaluate(&e.descriptor), p.evaluate(&e.descriptor));
            for name in DISCOVERY_TOOLS {
                let d = discovery(&e.descriptor, name);
                prop_assert_eq!(p.evaluate(&d), Decision::Allowed);
                prop_assert_eq!(compiled.evaluate(&d), Decision::Allowed);
            }
        }
    }

    #[test]
    fn the_schema_and_the_parser_agree_on_random_entries(
        text in "(mcp:|skill:|plugin:|:)?[a-z/é\\* :\t]{0,6}"
    ) {
        let v = holaryn_jsonschema::validator_for(&serde_json::from_str(holaryn_core::POLICY_SCHEMA).expect("json")).expect("schema");
        let by_schema = v.is_valid(&json!({ "allow": [text.clone()] }));
        prop_assert_eq!(by_schema, Pattern::parse(&text).is_ok(), "{:?}", text);
        prop_assert_eq!(by_schema, Rules::from_value(&json!({ "allow": [text] }), None).is_ok());
    }
}
