//! Real-world schemas through the gate (issue 30): a SchemaStore subset
//! (`tests/fixtures/schemastore/`, Apache-2.0, commit in its `COMMIT` file,
//! rebuilt by its `extract.py`): schemas that need no remote document, each
//! with the instances SchemaStore tests it with (valid and invalid), compared
//! with the peer validator, the `jsonschema` crate, reading the schema in the
//! draft it declares (2020-12 without `$schema`, as MCP reads it).
//!
//! Every schema the peer compiles must register — as the whole `inputSchema`
//! when its root admits an object, and wrapped as the property `v` of one, as
//! its own resource (its `$id`, or one given: the nested-`$id` resolution of
//! `core/src/schema_check.rs`) — and the gate must agree with the peer on
//! every instance (reaching the `before` hook, or `args.invalid`), except the
//! reviewed differences listed in `tests/corpus.expected` beside this file.
//! `CORPUS_WRITE=1 cargo test -p holaryn-core --test corpus` rewrites the list
//! (reasons of known lines are kept; new ones say TODO and fail until reviewed).

mod common;

use common::{admits_object, secret, verdict, wrapped};
use holaryn_core::{Runtime, SessionOptions};
use holaryn_jsonschema::Draft;
use serde_json::{json, Value};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

fn corpus() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/fixtures/schemastore")
}

fn peer_draft(d: Draft) -> jsonschema::Draft {
    match d {
        Draft::Draft4 => jsonschema::Draft::Draft4,
        Draft::Draft6 => jsonschema::Draft::Draft6,
        Draft::Draft7 => jsonschema::Draft::Draft7,
        Draft::Draft201909 => jsonschema::Draft::Draft201909,
        Draft::Draft202012 => jsonschema::Draft::Draft202012,
    }
}

/// Compare `found` (id → what happened) with the reviewed list.
fn check_list(found: BTreeMap<String, String>) {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/corpus.expected");
    let text = std::fs::read_to_string(&path).unwrap_or_default();
    let known: BTreeMap<String, String> = text
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .map(|l| {
            let (id, why) = l.split_once(" | ").unwrap_or((l, ""));
            (id.trim().to_string(), why.trim().to_string())
        })
        .collect();
    if std::env::var_os("CORPUS_WRITE").is_some() {
        let mut out: String = text
            .lines()
            .take_while(|l| l.starts_with('#'))
            .map(|l| format!("{l}\n"))
            .collect();
        for (id, what) in &found {
            let why = known
                .get(id)
                .cloned()
                .unwrap_or_else(|| format!("TODO ({what})"));
            out.push_str(&format!("{id} | {why}\n"));
        }
        std::fs::write(&path, out).expect("write");
        return;
    }
    let new: Vec<String> = found
        .iter()
        .filter(|(id, _)| !known.contains_key(*id))
        .map(|(id, what)| format!("{id} ({what})"))
        .collect();
    let gone: Vec<&String> = known.keys().filter(|id| !found.contains_key(*id)).collect();
    assert!(
        new.is_empty() && gone.is_empty(),
        "corpus.expected: {} new differences:\n{}\n{} listed ones no longer happen:\n{:?}",
        new.len(),
        new.join("\n"),
        gone.len(),
        gone
    );
    for (id, why) in &known {
        assert!(
            !why.is_empty() && !why.starts_with("TODO"),
            "{id} has no reason"
        );
    }
}

#[test]
fn real_world_schemas_register_and_agree_with_the_peer() {
    let mut files: Vec<PathBuf> = std::fs::read_dir(corpus())
        .expect("corpus dir")
        .map(|e| e.expect("entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == "json"))
        .collect();
    files.sort();
    let mut found = BTreeMap::new();
    let (mut compiled, mut registered, mut calls) = (0usize, 0usize, 0usize);
    for (n, path) in files.iter().enumerate() {
        let name = path
            .file_stem()
            .expect("stem")
            .to_string_lossy()
            .to_string();
        let doc: Value =
            serde_json::from_str(&std::fs::read_to_string(path).expect("read")).expect("json");
        let schema = &doc["schema"];
        let draft = match schema.get("$schema").and_then(Value::as_str) {
            Some(uri) => Draft::from_uri(uri).expect("the corpus keeps supported drafts"),
            None => Draft::Draft202012,
        };
        let Ok(peer) = jsonschema::options()
            .with_draft(peer_draft(draft))
            .build(schema)
        else {
            continue;
        };
        compiled += 1;
        // One runtime per schema: the registry stays small.
        let mut rt = Runtime::new();
        let sid = rt
            .create_session(SessionOptions::default(), &secret(31), 0)
            .expect("session");
        let mut forms = Vec::new();
        if admits_object(schema) {
            forms.push(("direct", schema.clone()));
        }
        if let Some(w) = wrapped(schema, draft, &format!("urn:holaryn:corpus:{name}"), None) {
            forms.push(("wrapped", w));
        }
        let instances = ["valid", "invalid"].into_iter().flat_map(|k| {
            doc[k]
                .as_object()
                .into_iter()
                .flatten()
                .map(move |(f, v)| (format!("{k}/{f}"), v))
        });
        let instances: Vec<(String, &Value)> = instances.collect();
        for (form, tool_schema) in forms {
            let tool = format!("s{n}_{form}");
            let spec = json!({"name": tool, "source": "native",
                "provider": {"id": "corpus"}, "inputSchema": tool_schema});
            if let Err(e) = rt.register_values(&[spec], 0) {
                found.insert(format!("{name} {form}"), format!("refused: {e}"));
                continue;
            }
            registered += 1;
            for (id, inst) in &instances {
                let args = match form {
                    "direct" if inst.is_object() => (*inst).clone(),
                    "direct" => continue,
                    _ => json!({"v": inst}),
                };
                calls += 1;
                let want = peer.is_valid(inst);
                match verdict(&mut rt, &sid, &tool, args) {
                    Ok(got) if got == want => {}
                    Ok(got) => {
                        found.insert(
                            format!("{name} {form} {id}"),
                            format!("peer valid={want}, gate valid={got}"),
                        );
                    }
                    Err(e) => {
                        found.insert(format!("{name} {form} {id}"), e);
                    }
                }
            }
        }
    }
    assert!(
        compiled >= 400 && registered >= 700 && calls >= 2000,
        "{compiled} compiled, {registered} registered, {calls} calls"
    );
    check_list(found);
}
