//! The official JSON-Schema-Test-Suite's required cases through the gate
//! (issue 30): every case that needs no remote document, for every draft,
//! registered as a tool and called — once as the tool's whole `inputSchema`
//! (where the case's schema admits an object and its instance is one: MCP
//! arguments are always an object) and once wrapped as the property `v` of
//! an object schema. The gate must take exactly the instances the suite
//! calls valid (the call reaches `execute`) and refuse the others as
//! `args.invalid`; a schema must register whenever the validator compiles
//! it. Cases the validator itself differs on are reviewed in
//! `crates/jsonschema/tests/json_schema_suite.expected` and left out here.
//!
//! Wrapping keeps a case's meaning by making it its own resource: it gets
//! `$id` (draft-04: `id`) `urn:holaryn:case` unless it has one, so its
//! `#`-references still mean the case (this is what the nested-`$id`
//! resolution of `core/src/schema_check.rs` must get right). A draft-04–07
//! case whose root is a `$ref` cannot be made a resource that way (a
//! `$ref`'s siblings, `$id` included, are ignored there), so it is only run
//! directly.

mod common;

use common::{admits_object, secret, verdict, wrapped};
use holaryn_core::{Runtime, SessionOptions};
use holaryn_jsonschema::Draft;
use serde_json::{json, Value};
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

const DRAFTS: [(&str, &str); 5] = [
    ("draft4", "http://json-schema.org/draft-04/schema#"),
    ("draft6", "http://json-schema.org/draft-06/schema#"),
    ("draft7", "http://json-schema.org/draft-07/schema#"),
    (
        "draft2019-09",
        "https://json-schema.org/draft/2019-09/schema",
    ),
    (
        "draft2020-12",
        "https://json-schema.org/draft/2020-12/schema",
    ),
];

fn suite() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/fixtures/json-schema-suite")
}

/// Case ids (`draft7/ref.json#3/1`) the validator is reviewed to differ on.
fn reviewed() -> BTreeSet<String> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../crates/jsonschema/tests/json_schema_suite.expected");
    let text = std::fs::read_to_string(path).expect("reviewed list");
    text.lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .map(|l| l.split(" | ").next().unwrap_or(l).trim().to_string())
        .collect()
}

/// True when the schema needs a document from elsewhere.
fn remote(schema: &Value) -> bool {
    schema.to_string().contains("localhost:1234")
}

#[test]
fn required_suite_cases_pass_through_the_gate_in_every_draft() {
    let skip = reviewed();
    let mut failures = Vec::new();
    let mut counted = [0usize; 2];
    for (draft, uri) in DRAFTS {
        let read_in = Draft::from_uri(uri).expect("a draft uri");
        let dir = suite().join(draft);
        let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
            .expect("suite draft dir")
            .map(|e| e.expect("entry").path())
            .filter(|p| p.extension().is_some_and(|e| e == "json"))
            .collect();
        files.sort();
        let mut rt = Runtime::new();
        let sid = rt
            .create_session(SessionOptions::default(), &secret(30), 0)
            .expect("session");
        for path in files {
            let stem = path
                .file_stem()
                .expect("stem")
                .to_string_lossy()
                .to_string();
            if stem == "refRemote" {
                continue;
            }
            let text = std::fs::read_to_string(&path).expect("read");
            let groups: Vec<Value> = serde_json::from_str(&text).expect("json");
            for (g, group) in groups.iter().enumerate() {
                let schema = &group["schema"];
                if remote(schema) {
                    continue;
                }
                let tests = group["tests"].as_array().expect("tests");
                let id = |t: usize| format!("{draft}/{stem}.json#{g}/{t}");
                let live: Vec<(usize, &Value)> = tests
                    .iter()
                    .enumerate()
                    .filter(|(t, _)| !skip.contains(&id(*t)))
                    .collect();
                let mut forms: Vec<(&str, Value)> = Vec::new();
                if schema.is_object() && admits_object(schema) {
                    let mut direct = schema.clone();
                    if let Value::Object(o) = &mut direct {
                        o.entry("$schema")
                            .or_insert_with(|| Value::String(uri.into()));
                    }
                    forms.push(("direct", direct));
                }
                if let Some(w) = wrapped(schema, read_in, "urn:holaryn:case", Some(uri)) {
                    forms.push(("wrapped", w));
                }
                for (form, tool_schema) in forms {
                    let name = format!("{}_{g}_{form}", stem.replace(['-', '.'], "_"));
                    let tool = json!({"name": name, "source": "native",
                        "provider": {"id": "suite"}, "inputSchema": tool_schema});
                    if let Err(e) = rt.register_values(&[tool], 0) {
                        failures.push(format!("{} {form}: not registered: {e}", id(0)));
                        continue;
                    }
                    for (t, test) in &live {
                        let data = &test["data"];
                        let args = match form {
                            "direct" if data.is_object() => data.clone(),
                            "direct" => continue,
                            _ => json!({"v": data}),
                        };
                        let want = test["valid"].as_bool().expect("valid");
                        counted[usize::from(form == "wrapped")] += 1;
                        match verdict(&mut rt, &sid, &name, args) {
                            Ok(got) if got == want => {}
                            Ok(got) => failures.push(format!(
                                "{} {form}: suite says valid={want}, gate valid={got}",
                                id(*t)
                            )),
                            Err(e) => failures.push(format!("{} {form}: {e}", id(*t))),
                        }
                    }
                }
            }
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {} direct + {} wrapped calls differ:\n{}",
        failures.len(),
        counted[0],
        counted[1],
        failures.join("\n")
    );
    assert!(counted[0] > 1000 && counted[1] > 3000, "{counted:?}");
}
