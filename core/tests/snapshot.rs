//! Snapshot and restore (`core/src/snapshot`): a round trip gives the same
//! registry version, search results, availability states and skipped
//! tools; a changed byte or another build is refused with
//! `snapshot.refused`; handles issued before are stale after.

mod common;

use common::{all_mcp_specs, dynamic_session, native, secret};
use holaryn_core::{base64_encode, parse_provider_list, CatalogOptions, ErrorCode};
use holaryn_core::{Runtime, SessionOptions, Update};
use holaryn_model::ProviderStatus;
use serde_json::{json, Value};

const BUILD: &str = "0.1.0+test";
const QUERIES: [&str; 6] = [
    "create a github issue",
    "read a file",
    "take a screenshot of the page",
    "list kubernetes pods",
    "query the database",
    "github",
];

/// A runtime with every fixture tool, a re-list that skipped tools, a
/// removed tool (a free index slot), a disconnected provider and
/// imported embeddings.
fn populated() -> Runtime {
    let mut rt = Runtime::new();
    rt.set_require_input_schema(true);
    rt.update(
        Update {
            upsert: all_mcp_specs(),
            ..Update::default()
        },
        0,
    )
    .expect("fixture tools register");
    let listing = json!({"serverInfo": {"name": "srv", "version": "1"}, "tools": [
        {"name": "echo", "description": "Echo the text back", "inputSchema": {"type": "object"}},
        {"name": "bad name", "inputSchema": {"type": "object"}},
        {"name": "bad_schema", "inputSchema": {"type": 7}},
    ]});
    let opts = CatalogOptions {
        provider_id: Some("srv".into()),
        qualify_names: true,
        ..CatalogOptions::default()
    };
    let list = parse_provider_list("srv", &listing.to_string(), &opts).expect("list");
    rt.sync_provider_list(list, 1).expect("sync");
    let gone = rt
        .registry()
        .entries()
        .nth(3)
        .map(|e| e.descriptor.name.clone());
    rt.update(
        Update {
            remove: gone.into_iter().collect(),
            ..Update::default()
        },
        2,
    )
    .expect("remove");
    rt.set_provider_status("srv", ProviderStatus::Disconnected, 3)
        .expect("status");
    let vector: Vec<u8> = [1.0f32, 0.0, 0.0]
        .iter()
        .flat_map(|f| f.to_le_bytes())
        .collect();
    let b64 = base64_encode(&vector);
    rt.import_embeddings(&json!({
        "format": "holaryn.embeddings/1", "model": "m", "dimensions": 3,
        "encoding": "f32", "vectors": {"some text": b64}
    }))
    .expect("import");
    rt
}

/// What a session sees: search results, capability rows (availability and
/// skipped-tool rows), the registry version and tool count.
fn view(rt: &mut Runtime) -> Value {
    let sid = dynamic_session(rt, 9);
    let searches: Vec<Value> = (QUERIES.iter())
        .map(|q| {
            let out = rt
                .tool_search(&sid, &json!({"query": q, "limit": 8}), 10)
                .expect("search");
            serde_json::to_value(out).expect("json")
        })
        .collect();
    let rows = serde_json::to_value(rt.capability_table(&sid).expect("rows")).expect("json");
    let skipped = serde_json::to_value(rt.registry().skipped().collect::<Vec<_>>()).expect("json");
    rt.close_session(&sid).expect("close");
    json!({
        "version": rt.registry().version(),
        "tools": rt.registry().len(),
        "searches": searches,
        "rows": rows,
        "skipped": skipped,
        "embeddings": rt.embedding_model().map(|m| m.dimensions),
    })
}

#[test]
fn a_round_trip_keeps_the_registry_search_states_and_skipped_tools() {
    let mut rt = populated();
    let bytes = rt.snapshot(BUILD);
    let mut back = Runtime::restore(&bytes, BUILD, None).expect("restores");
    assert_eq!(back.registry().generation(), rt.registry().generation());
    assert_eq!(view(&mut back), view(&mut rt));
    assert!(!rt.registry().skipped().collect::<Vec<_>>().is_empty());
    // The restored runtime goes on as the original: the same change gives the same version and results.
    for r in [&mut rt, &mut back] {
        r.register_values(&[native("new_tool", "Archive old records")], 20)
            .expect("register");
        // requireInputSchema came along: a tool without a schema is refused in both.
        let mut bare = native("bare", "no schema");
        bare.as_object_mut().map(|o| o.remove("inputSchema"));
        let refused = r.register_values(&[bare], 21).expect_err("refused");
        assert_eq!(refused.code, ErrorCode::DescriptorInvalidSchema);
    }
    assert_eq!(view(&mut back), view(&mut rt));
    // The wire names and the provider index are rebuilt, not kept: the same
    // names, and a re-list of one provider changes the same in both.
    assert_eq!(back.registry().wire_names(), rt.registry().wire_names());
    let relist = json!({"tools": [
        {"name": "echo", "description": "Echo the text back, louder", "inputSchema": {"type": "object"}},
    ]});
    let opts = CatalogOptions {
        provider_id: Some("srv".into()),
        qualify_names: true,
        ..CatalogOptions::default()
    };
    let changes: Vec<Value> = [&mut rt, &mut back]
        .into_iter()
        .map(|r| {
            let list = parse_provider_list("srv", &relist.to_string(), &opts).expect("list");
            serde_json::to_value(r.sync_provider_list(list, 22).expect("sync")).expect("json")
        })
        .collect();
    assert_eq!(changes[0], changes[1]);
    assert_eq!(view(&mut back), view(&mut rt));
    // And a snapshot of the restored runtime is a snapshot of the same content.
    let again = Runtime::restore(&back.snapshot(BUILD), BUILD, None).expect("restores");
    assert_eq!(again.registry().version(), rt.registry().version());
}

#[test]
fn calls_validate_against_the_restored_schemas() {
    let mut rt = Runtime::new();
    rt.register_values(&[native("read_file", "Read a file")], 0)
        .expect("register");
    let mut back = Runtime::restore(&rt.snapshot(BUILD), BUILD, None).expect("restores");
    let sid = dynamic_session(&mut back, 1);
    back.tool_inspect(&sid, &json!({"name": "read_file"}), 1)
        .expect("inspect");
    assert_eq!(
        common::verdict(&mut back, &sid, "read_file", json!({"path": "a"})),
        Ok(true)
    );
    assert_eq!(
        common::verdict(&mut back, &sid, "read_file", json!({})),
        Ok(false)
    );
}

#[test]
fn any_changed_byte_or_another_build_is_refused() {
    let rt = populated();
    let bytes = rt.snapshot(BUILD);
    let field = |bytes: &[u8], build: &str| {
        let e = Runtime::restore(bytes, build, None).expect_err("refused");
        assert_eq!(e.code, ErrorCode::SnapshotRefused);
        e.field.unwrap_or_default()
    };
    assert_eq!(field(&bytes, "0.1.0+other"), "build");
    let step = bytes.len() / 97 + 1;
    for at in (0..bytes.len()).step_by(step).chain([bytes.len() - 1]) {
        let mut flipped = bytes.clone();
        flipped[at] ^= 0x10;
        let part = field(&flipped, BUILD);
        assert!(
            ["magic", "format", "checksum"].contains(&part.as_str()),
            "byte {at}: {part}"
        );
    }
    assert_eq!(field(&bytes[..bytes.len() - 1], BUILD), "checksum");
    assert_eq!(field(b"{\"tools\": []}", BUILD), "magic");
    // Registered under requireInputSchema: a host asking for the other setting registers again.
    let e = Runtime::restore(&bytes, BUILD, Some(false)).expect_err("refused");
    assert_eq!(e.field.as_deref(), Some("requireInputSchema"));
    assert!(Runtime::restore(&bytes, BUILD, Some(true)).is_ok());
    // The runtime the bytes came from is untouched, and they still restore.
    assert!(Runtime::restore(&bytes, BUILD, None).is_ok());
}

#[test]
fn handles_issued_before_a_snapshot_are_stale_after_the_restore() {
    let mut rt = Runtime::new();
    rt.register_values(&[native("read_file", "Read a file")], 0)
        .expect("register");
    let opts = SessionOptions {
        dynamic_discovery: true,
        ..Default::default()
    };
    let sid = rt
        .create_session(opts.clone(), &secret(1), 0)
        .expect("session");
    let handle = rt
        .tool_inspect(&sid, &json!({"name": "read_file"}), 1)
        .expect("inspect")
        .handle
        .expect("handle");
    let mut back = Runtime::restore(&rt.snapshot(BUILD), BUILD, None).expect("restores");
    // Same secret, so the handle's tag verifies: it is refused as stale, not honoured.
    let sid = back
        .create_session(opts.clone(), &secret(1), 0)
        .expect("session");
    let stale = back
        .tool_inspect(&sid, &json!({"name": handle}), 2)
        .expect_err("stale");
    assert_eq!(stale.code, ErrorCode::HandleStale);
    // Another secret: forged, as any handle this session never issued.
    let other = back.create_session(opts, &secret(2), 0).expect("session");
    let forged = back
        .tool_inspect(&other, &json!({"name": handle}), 3)
        .expect_err("forged");
    assert_eq!(forged.code, ErrorCode::HandleForged);
    // A fresh inspect issues a handle that works.
    let fresh = back
        .tool_inspect(&sid, &json!({"name": "read_file"}), 4)
        .expect("inspect")
        .handle
        .expect("handle");
    assert!(back.tool_inspect(&sid, &json!({"name": fresh}), 5).is_ok());
}
