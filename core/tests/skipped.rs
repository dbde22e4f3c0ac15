//! Skipped tools: a provider re-list registers what the registry accepts and
//! keeps each refused tool per provider — a Capability Center row
//! (`unavailable.skipped`) and one `tool_skipped` activity record with the
//! provider and the name, never the descriptor. Skipped tools are not part of
//! the registry version; the strict APIs still refuse the whole batch.

mod common;

use common::{dynamic_session, native};
use holaryn_core::ProviderSync;
use holaryn_core::{parse_catalog_text, parse_provider_list, CatalogOptions};
use holaryn_core::{ActivityKind, Code, Runtime};
use serde_json::{json, Value};

const CANARY: &str = "CANARY-7b2d41";

fn opts(qualify: bool) -> CatalogOptions {
    CatalogOptions {
        provider_id: Some("srv".into()),
        qualify_names: qualify,
        ..CatalogOptions::default()
    }
}

fn tool(name: &str) -> Value {
    json!({"name": name, "description": format!("{name} things"), "inputSchema": {"type": "object"}})
}

/// A server's list: two good tools, a name with a space, a schema that is no
/// JSON Schema (canaries in both), and an entry that is no tool.
fn listing(extra: &[Value]) -> String {
    let mut tools = vec![
        tool("echo"),
        json!({"name": "bad name", "description": CANARY, "inputSchema": {"type": "object", "description": CANARY}}),
        json!({"name": "bad_schema", "inputSchema": {"type": CANARY}}),
        json!(42),
        tool("ping"),
    ];
    tools.extend_from_slice(extra);
    json!({"serverInfo": {"name": "srv", "version": "1.2.0"}, "tools": tools}).to_string()
}

fn sync(rt: &mut Runtime, text: &str, now: u64) -> ProviderSync {
    let list = parse_provider_list("srv", text, &opts(true)).expect("list");
    rt.sync_provider_list(list, now).expect("sync")
}

fn skipped_records(rt: &Runtime) -> Vec<holaryn_core::ActivityRecord> {
    rt.activity_since(0)
        .into_iter()
        .filter(|r| r.kind == ActivityKind::ToolSkipped)
        .collect()
}

#[test]
fn a_relist_registers_the_good_tools_and_keeps_each_refused_one() {
    let mut rt = Runtime::new();
    let sid = dynamic_session(&mut rt, 1);
    let out = sync(&mut rt, &listing(&[]), 5);
    let change = out.change.expect("a change");
    assert_eq!(change.added, ["srv/echo", "srv/ping"]);
    let skipped: Vec<(&str, Code, Option<&str>)> = out
        .skipped
        .iter()
        .map(|s| (s.name.as_str(), s.code, s.field.as_deref()))
        .collect();
    assert_eq!(
        skipped,
        [
            ("#3", Code::CatalogMalformed, None),
            ("srv/bad name", Code::DescriptorInvalidName, Some("name")),
            (
                "srv/bad_schema",
                Code::DescriptorInvalidSchema,
                Some("inputSchema")
            ),
        ]
    );
    assert_eq!(out.skipped[1].local_name.as_deref(), Some("bad name"));

    // The Capability Center: one unavailable.skipped row each, with the fix.
    let table = rt.capability_table(&sid).expect("table");
    let row = table
        .iter()
        .find(|r| r.name == "srv/bad name")
        .expect("row");
    assert_eq!(row.availability.code, Code::UnavailableSkipped);
    assert_eq!(row.availability.state.as_str(), "unavailable");
    assert!(row.availability.reason.contains("descriptor.invalid_name"));
    assert!(row
        .availability
        .next_action
        .starts_with("fix the tool on the server: "));
    assert_eq!(row.provider, "srv");
    assert_eq!(row.provenance, "srv@1.2.0");
    let states: Vec<(&str, &str)> = table
        .iter()
        .filter(|r| r.provider == "srv")
        .map(|r| (r.name.as_str(), r.availability.code.as_str()))
        .collect();
    assert_eq!(
        states,
        [
            ("#3", "unavailable.skipped"),
            ("srv/bad name", "unavailable.skipped"),
            ("srv/bad_schema", "unavailable.skipped"),
            ("srv/echo", "available"),
            ("srv/ping", "available"),
        ]
    );

    // Activity: one record per skipped tool, provider and name only.
    let records = skipped_records(&rt);
    let named: Vec<(Option<&str>, Code, &str)> = records
        .iter()
        .map(|r| (r.tool.as_deref(), r.outcome, r.reason.as_str()))
        .collect();
    assert_eq!(
        named,
        [
            (
                Some("#3"),
                Code::CatalogMalformed,
                Code::CatalogMalformed.reason()
            ),
            (
                Some("srv/bad name"),
                Code::DescriptorInvalidName,
                Code::DescriptorInvalidName.reason()
            ),
            (
                Some("srv/bad_schema"),
                Code::DescriptorInvalidSchema,
                Code::DescriptorInvalidSchema.reason()
            ),
        ]
    );
    let p = records[1].provenance.as_ref().expect("provenance");
    assert_eq!((p.provider_id.as_str(), p.source.as_str()), ("srv", "mcp"));
    assert_eq!(p.provider_version.as_deref(), Some("1.2.0"));
    assert_eq!(p.tool_version, None);
    let all = format!(
        "{}{}",
        serde_json::to_string(&rt.activity_since(0)).expect("json"),
        serde_json::to_string(&rt.drain_events()).expect("json")
    );
    assert!(!all.contains(CANARY), "a record copied a descriptor: {all}");

    // The model never sees them.
    let list = rt.tool_list(&sid, &json!({"limit": 50}), 6).expect("list");
    let names: Vec<&str> = list.tools.iter().map(|t| t.name.as_str()).collect();
    assert!(names.iter().all(|n| !n.contains("bad")), "{names:?}");
}

#[test]
fn skipped_tools_are_not_part_of_the_registry_version() {
    let mut with = Runtime::new();
    sync(&mut with, &listing(&[]), 0);
    let mut without = Runtime::new();
    let clean = json!({"serverInfo": {"name": "srv", "version": "1.2.0"}, "tools": [tool("echo"), tool("ping")]});
    let out = sync(&mut without, &clean.to_string(), 0);
    assert!(out.skipped.is_empty());
    assert_eq!(with.registry().version(), without.registry().version());

    // A re-list that changes only what was skipped is no registry change, and
    // skipping the same tool the same way again records nothing new.
    let before = skipped_records(&with).len();
    let again = sync(&mut with, &listing(&[]), 1);
    assert_eq!(again.change, None);
    assert_eq!(skipped_records(&with).len(), before);
    let more = sync(&mut with, &listing(&[json!({"name": "also bad"})]), 2);
    assert_eq!(more.change, None);
    assert_eq!(more.skipped.len(), 4);
    let records = skipped_records(&with);
    assert_eq!(records.len(), before + 1);
    assert_eq!(
        records.last().and_then(|r| r.tool.as_deref()),
        Some("srv/also bad")
    );
}

#[test]
fn the_next_relist_replaces_them_and_removing_the_provider_drops_them() {
    let mut rt = Runtime::new();
    let sid = dynamic_session(&mut rt, 2);
    sync(&mut rt, &listing(&[]), 0);
    assert_eq!(rt.registry().skipped_of("srv").len(), 3);
    let fixed = json!({"tools": [tool("echo"), tool("bad_name_fixed")]});
    let out = sync(&mut rt, &fixed.to_string(), 1);
    assert!(out.skipped.is_empty());
    assert_eq!(rt.registry().skipped().count(), 0);
    let change = out.change.expect("change");
    assert_eq!(change.added, ["srv/bad_name_fixed"]);
    assert_eq!(change.removed, ["srv/ping"]);

    sync(&mut rt, &listing(&[]), 2);
    assert_eq!(rt.registry().skipped_of("srv").len(), 3);
    let gone = rt
        .remove_provider("srv", 3)
        .expect("remove")
        .expect("change");
    assert_eq!(gone.removed.len(), 2);
    assert_eq!(rt.registry().skipped().count(), 0);
    let table = rt.capability_table(&sid).expect("table");
    assert!(table.iter().all(|r| r.provider != "srv"));
}

#[test]
fn duplicates_and_alias_clashes_skip_the_tool_of_the_relist() {
    let mut rt = Runtime::new();
    rt.register_values(&[native("shared", "Already here")], 0)
        .expect("native");
    let text = json!({"tools": [tool("shared"), tool("own"), tool("own")]}).to_string();
    let list = parse_provider_list("srv", &text, &opts(false)).expect("list");
    let out = rt.sync_provider_list(list, 1).expect("sync");
    assert_eq!(out.change.expect("change").added, ["own"]);
    let why: Vec<(&str, Code)> = out
        .skipped
        .iter()
        .map(|s| (s.name.as_str(), s.code))
        .collect();
    assert_eq!(
        why,
        [
            ("own", Code::DescriptorDuplicateName),
            ("shared", Code::DescriptorDuplicateName)
        ]
    );
    assert!(
        out.skipped[1].next_action.contains("qualifyNames"),
        "{}",
        out.skipped[1].next_action
    );

    // An alias that is another provider's tool name: that tool is skipped.
    let specs = vec![
        json!({"name": "aliased", "aliases": ["shared"], "source": "native", "provider": {"id": "p2"}}),
        json!({"name": "fine", "source": "native", "provider": {"id": "p2"}}),
    ]
    .into_iter()
    .map(|v| holaryn_core::parse_spec_owned(v).expect("spec"))
    .collect();
    let list = holaryn_core::ProviderList {
        provider: holaryn_model::Provider {
            description: None,
            id: "p2".into(),
            kind: "native".into(),
            display_name: "p2".into(),
            version: None,
            origin: None,
        },
        specs,
        skipped: Vec::new(),
        renamed: Vec::new(),
    };
    let out = rt.sync_provider_list(list, 2).expect("sync");
    assert_eq!(out.change.expect("change").added, ["fine"]);
    assert_eq!(out.skipped.len(), 1);
    assert_eq!(
        (out.skipped[0].name.as_str(), out.skipped[0].code),
        ("aliased", Code::DescriptorAliasCollision)
    );
}

#[test]
fn the_strict_paths_still_refuse_the_whole_batch() {
    let text = listing(&[]);
    let e = parse_catalog_text("srv", &text, &opts(true)).expect_err("refused");
    assert_eq!(e.code, Code::CatalogMalformed);
    let good_but_one = json!({"tools": [tool("echo"), tool("bad name")]}).to_string();
    let specs = parse_catalog_text("srv", &good_but_one, &opts(true)).expect("specs");
    let mut rt = Runtime::new();
    let e = rt
        .update(
            holaryn_core::Update {
                upsert: specs,
                sync_provider: Some("srv".into()),
                ..Default::default()
            },
            0,
        )
        .expect_err("refused");
    assert_eq!(e.code, Code::DescriptorInvalidName);
    assert!(rt.registry().is_empty());
    assert_eq!(rt.registry().skipped().count(), 0);
}

#[test]
fn a_runtime_that_requires_input_schemas_skips_the_tools_without_one() {
    let mut rt = Runtime::new();
    rt.set_require_input_schema(true);
    let text = json!({"tools": [tool("echo"), {"name": "schemaless"}]}).to_string();
    let out = sync(&mut rt, &text, 0);
    assert_eq!(out.change.expect("change").added, ["srv/echo"]);
    assert_eq!(out.skipped.len(), 1);
    assert_eq!(out.skipped[0].name, "srv/schemaless");
}

#[test]
fn a_relist_of_spec_values_skips_and_answers_with_the_change_and_what_it_skipped() {
    // `syncProvider`'s path: spec values, each refused one skipped (a value that
    // is no spec included), the rest registered, the answer saying both.
    let mut rt = Runtime::new();
    let spec = |name: &str| {
        let mut t = native(name, &format!("{name} things"));
        t["provider"] = json!({"id": "srv"});
        t
    };
    let mut bad_schema = spec("bad_schema");
    bad_schema["inputSchema"] = json!({"type": CANARY});
    let tools = vec![
        spec("echo"),
        spec("bad name"),
        bad_schema,
        json!({"description": "no name"}),
        json!({"name": "odd", "source": "plugin"}),
        spec("ping"),
    ];
    let out = rt.sync_provider_values("srv", tools, 5).expect("sync");
    let version = rt.registry().version().to_string();
    let answer = out.into_change(&version).expect("an answer");
    let mut added = answer.change.added.clone();
    added.sort();
    assert_eq!(added, ["echo", "ping"]);
    let skipped: Vec<(&str, Code)> = answer
        .skipped
        .iter()
        .map(|s| (s.name.as_str(), s.code))
        .collect();
    assert_eq!(skipped.len(), 4, "{skipped:?}");
    for (name, code) in [
        ("bad name", Code::DescriptorInvalidName),
        ("bad_schema", Code::DescriptorInvalidSchema),
        ("odd", Code::DescriptorUnknownSource),
    ] {
        assert!(skipped.contains(&(name, code)), "{name}: {skipped:?}");
    }
    assert!(skipped.iter().any(|(n, _)| *n == "#3"), "{skipped:?}");
    let js = serde_json::to_value(&answer).expect("serialises");
    assert!(js["added"].is_array() && js["skipped"].is_array(), "{js}");
    assert_eq!(skipped_records(&rt).len(), 4, "one record per skipped tool");
    // The same list again: no registry change, but the answer still says what is skipped.
    let tools = vec![spec("echo"), spec("bad name"), spec("ping")];
    let again = rt.sync_provider_values("srv", tools, 6).expect("sync");
    let answer = again.into_change(&version).expect("skipped is news");
    assert_eq!(answer.change.old_version, answer.change.new_version);
    assert!(answer.change.added.is_empty() && answer.change.removed.is_empty());
    assert_eq!(answer.skipped.len(), 1);
    // Nothing skipped, nothing changed: no answer.
    let tools = vec![spec("echo"), spec("ping")];
    let quiet = rt.sync_provider_values("srv", tools, 8).expect("sync");
    assert_eq!(quiet.into_change(&version), None);
}
