//! The canonical registry: refusals, versions, change events, handles, aliases.

mod common;

use common::*;
use holaryn_core::ErrorCode;
use holaryn_core::Registry;
use holaryn_core::SessionOptions;
use holaryn_core::{Event, Runtime};
use holaryn_model::ProviderStatus;
use serde_json::{json, Value};

fn reg(values: &[Value]) -> Registry {
    let mut r = Registry::new();
    r.register_values(values).expect("valid tools");
    r
}

fn refusal(values: &[Value]) -> holaryn_core::Error {
    let mut r = reg(&[native("existing", "an existing tool")]);
    let before = r.version().to_string();
    let err = r.register_values(values).expect_err("must be refused");
    assert_eq!(
        r.version(),
        before,
        "a refusal leaves the registry unchanged"
    );
    assert_eq!(r.len(), 1, "nothing half-registered");
    err
}

#[test]
fn empty_name_is_refused_naming_the_field() {
    let err = refusal(&[native("", "x")]);
    assert_eq!(err.code, ErrorCode::DescriptorInvalidName);
    assert_eq!(err.field.as_deref(), Some("name"));
}

#[test]
fn duplicate_names_in_one_batch_are_refused() {
    let err = refusal(&[native("a", "x"), native("ok", "y"), native("a", "z")]);
    assert_eq!(err.code, ErrorCode::DescriptorDuplicateName);
    assert_eq!(err.tool.as_deref(), Some("a"));
}

#[test]
fn same_name_from_another_provider_is_refused() {
    let mut other = native("existing", "same name, other provider");
    other["provider"]["id"] = json!("intruder");
    let err = refusal(&[other]);
    assert_eq!(err.code, ErrorCode::DescriptorDuplicateName);
    let hint = err
        .next_action
        .expect("a clash across providers says how to avoid it");
    assert!(hint.contains("qualifyNames"), "{hint}");
}

#[test]
fn alias_colliding_with_a_name_or_alias_is_refused() {
    let mut a = native("a", "x");
    a["aliases"] = json!(["existing"]);
    let err = refusal(&[a]);
    assert_eq!(err.code, ErrorCode::DescriptorAliasCollision);
    assert_eq!(err.field.as_deref(), Some("aliases[0]"));

    let mut b = native("b", "x");
    b["aliases"] = json!(["shared"]);
    let mut c = native("c", "x");
    c["aliases"] = json!(["shared"]);
    let err = refusal(&[b, c]);
    assert_eq!(err.code, ErrorCode::DescriptorAliasCollision);
    assert_eq!(err.tool.as_deref(), Some("c"));
}

#[test]
fn invalid_json_schema_is_refused() {
    let mut a = native("bad_schema", "x");
    a["inputSchema"] =
        json!({"type": "object", "properties": {"n": {"type": "integer", "minimum": "zero"}}});
    let err = refusal(&[a]);
    assert_eq!(err.code, ErrorCode::DescriptorInvalidSchema);
    assert_eq!(err.tool.as_deref(), Some("bad_schema"));
    assert_eq!(err.field.as_deref(), Some("inputSchema"));

    let mut b = native("not_object", "x");
    b["inputSchema"] = json!("string");
    assert_eq!(refusal(&[b]).code, ErrorCode::DescriptorInvalidSchema);
}

#[test]
fn unknown_source_is_refused() {
    let mut a = native("a", "x");
    a["source"] = json!("plugin");
    let err = refusal(&[a]);
    assert_eq!(err.code, ErrorCode::DescriptorUnknownSource);
    assert_eq!(err.field.as_deref(), Some("source"));
    assert_eq!(err.tool.as_deref(), Some("a"));
}

#[test]
fn reserved_and_handle_like_names_are_refused() {
    for name in ["tool_search", "run_tool_code"] {
        assert_eq!(
            refusal(&[native(name, "x")]).code,
            ErrorCode::DescriptorReservedName,
            "{name}"
        );
    }
    for name in ["toolh_abc", "has space"] {
        assert_eq!(
            refusal(&[native(name, "x")]).code,
            ErrorCode::DescriptorInvalidName,
            "{name}"
        );
    }
}

#[test]
fn a_shared_schema_keeps_each_tools_key_order() {
    let mut a = native("a", "first");
    let mut b = native("b", "second");
    a["inputSchema"] = json!({"type": "object", "properties": {"x": {}, "y": {}}});
    b["inputSchema"] = json!({"type": "object", "properties": {"y": {}, "x": {}}});
    let r = reg(&[a, b]);
    let keys = |name: &str| -> Vec<String> {
        let d = &r.get(name).expect("registered").descriptor;
        d.input_schema["properties"]
            .as_object()
            .map(|p| p.keys().cloned().collect())
            .unwrap_or_default()
    };
    assert_eq!(keys("a"), ["x", "y"]);
    assert_eq!(keys("b"), ["y", "x"]);
}

#[test]
fn version_is_independent_of_registration_order() {
    let specs = all_mcp_specs();
    let mut forward = Registry::new();
    forward.register(specs.clone()).expect("fixtures register");
    // A deterministic shuffle: registration in several interleaved batches.
    let mut shuffled = Registry::new();
    let mut order: Vec<usize> = (0..specs.len()).collect();
    order.sort_by_key(|i| (i * 7919) % specs.len());
    for chunk in order.chunks(97) {
        shuffled
            .register(chunk.iter().map(|&i| specs[i].clone()).collect())
            .expect("chunk registers");
    }
    assert_eq!(forward.version(), shuffled.version());
    assert_eq!(forward.len(), shuffled.len());
}

#[test]
fn change_events_for_add_update_remove_and_no_op() {
    let mut rt = Runtime::new();
    let v0 = rt.registry().version().to_string();
    let add = rt
        .register_values(&[native("a", "first")], 1)
        .expect("ok")
        .expect("a change");
    assert_eq!(
        (add.old_version.as_str(), add.added.clone()),
        (v0.as_str(), vec!["a".to_string()])
    );
    let v1 = add.new_version.clone();
    assert_ne!(v0, v1);

    assert!(
        rt.register_values(&[native("a", "first")], 2)
            .expect("ok")
            .is_none(),
        "identical content is a no-op"
    );
    assert_eq!(rt.registry().version(), v1);

    let upd = rt
        .register_values(&[native("a", "second")], 3)
        .expect("ok")
        .expect("a change");
    assert_eq!(upd.changed, vec!["a".to_string()]);
    assert_eq!(upd.old_version, v1);

    let dis = rt
        .set_provider_status("host", ProviderStatus::Disconnected, 4)
        .expect("ok")
        .expect("change");
    assert_eq!(dis.changed, vec!["a".to_string()]);
    let re = rt
        .set_provider_status("host", ProviderStatus::Connected, 5)
        .expect("ok")
        .expect("change");
    assert_eq!(
        re.new_version, upd.new_version,
        "reconnect restores the same version"
    );

    let rm = rt
        .update(
            holaryn_core::Update {
                remove: vec!["a".into()],
                ..Default::default()
            },
            6,
        )
        .expect("ok")
        .expect("change");
    assert_eq!(rm.removed, vec!["a".to_string()]);
    assert_eq!(rm.new_version, v0, "back to the empty registry's version");

    let events: Vec<Event> = rt.drain_events();
    let changes = events
        .iter()
        .filter(|e| matches!(e, Event::ToolRegistryChanged(c) if c.session_id.is_none()))
        .count();
    assert_eq!(
        changes, 5,
        "add, update, disconnect, reconnect, remove; never the no-op"
    );
}

#[test]
fn aliases_resolve_to_the_canonical_tool() {
    let mut a = native("read_file", "Read a file");
    a["aliases"] = json!(["cat", "open_file"]);
    let r = reg(&[a]);
    for n in ["read_file", "cat", "open_file"] {
        assert_eq!(
            r.get(n).map(|e| e.descriptor.name.as_str()),
            Some("read_file")
        );
    }
    let err = r.resolve("read_fil").expect_err("unknown");
    assert_eq!(err.code, ErrorCode::ToolUnknown);
    assert_eq!(err.suggestions, vec!["read_file".to_string()]);
}

#[test]
fn handles_are_forged_across_sessions_and_stale_after_a_change() {
    let mut rt = Runtime::new();
    let mut a = native("read_file", "Read a file");
    a["aliases"] = json!(["cat"]);
    rt.register_values(&[a, native("write_file", "Write a file")], 0)
        .expect("ok");
    let opts = SessionOptions {
        dynamic_discovery: true,
        ..Default::default()
    };
    let s1 = rt.create_session(opts.clone(), &secret(1), 0).expect("s1");
    let s2 = rt.create_session(opts, &secret(2), 0).expect("s2");
    let h1 = rt
        .tool_inspect(&s1, &json!({"name": "cat"}), 1)
        .expect("inspect")
        .handle
        .expect("handle");
    // Lookups by name, alias and handle give the same canonical tool.
    let by_handle = rt
        .tool_inspect(&s1, &json!({"name": h1}), 2)
        .expect("inspect by handle");
    assert_eq!(by_handle.name, "read_file");
    assert_eq!(
        by_handle.handle.as_deref(),
        Some(h1.as_str()),
        "same handle re-issued"
    );
    let forged = rt
        .tool_inspect(&s2, &json!({"name": h1}), 3)
        .expect_err("forged");
    assert_eq!(forged.code, ErrorCode::HandleForged);
    // A change to another tool leaves the handle and the loaded schema alone (issue 20).
    rt.register_values(&[native("grep_files", "Search file contents")], 4)
        .expect("ok");
    let still = rt.tool_inspect(&s1, &json!({"name": h1}), 5);
    assert_eq!(still.map(|o| o.name), Ok("read_file".into()));
    assert_eq!(rt.session(&s1).expect("s1").loaded_names().count(), 1);
    // A change to the tool itself makes its handle stale and unloads it.
    let mut changed = native("read_file", "Read a file, changed");
    changed["aliases"] = json!(["cat"]);
    rt.register_values(&[changed], 6).expect("ok");
    let stale = rt
        .tool_inspect(&s1, &json!({"name": h1}), 7)
        .expect_err("stale");
    assert_eq!(stale.code, ErrorCode::HandleStale);
    assert_eq!(
        rt.session(&s1).expect("s1").loaded_names().count(),
        0,
        "the changed tool's schema is unloaded"
    );
}

#[test]
fn the_real_fixture_catalog_loads_without_a_refusal() {
    let specs = all_mcp_specs();
    let mut r = Registry::new();
    r.register(specs).expect("every fixture tool registers");
    let golden_path = fixtures().join("registry/mcp-catalog.golden.json");
    let actual = json!({"tools": r.len(), "registryVersion": r.version()});
    if std::env::var_os("UPDATE_GOLDEN").is_some() {
        std::fs::create_dir_all(golden_path.parent().expect("parent")).expect("mkdir");
        std::fs::write(
            &golden_path,
            serde_json::to_string_pretty(&actual).expect("json") + "\n",
        )
        .expect("write");
    }
    let golden: Value = serde_json::from_str(
        &std::fs::read_to_string(&golden_path).expect("golden exists (UPDATE_GOLDEN=1 to create)"),
    )
    .expect("golden json");
    assert_eq!(
        actual, golden,
        "catalog size or registry version changed; review and UPDATE_GOLDEN=1"
    );
}
