//! The official JSON-Schema-Test-Suite (drafts 4, 6, 7, 2019-09, 2020-12,
//! required and optional; `tests/fixtures/json-schema-suite/`, commit in its
//! `COMMIT` file) through our validator, against a reviewed list of the cases
//! where we differ from the suite (`tests/json_schema_suite.expected`);
//! and a differential test against the `jsonschema` crate (a dev-dependency
//! only) on every suite case and on the input schemas of the MCP fixture
//! tools with generated instances: same verdict, same errors (pointer,
//! message, order), and the same first meta-schema error for broken copies of
//! the schemas (`tests/json_schema_diff.expected`), both beside this file.
//!
//! `SUITE_WRITE=1 cargo test -p holaryn-jsonschema --test json_schema_suite`
//! rewrites both lists (reasons of known lines are kept, new ones say TODO).

use holaryn_jsonschema::{meta_validator, validator_for, validator_with_draft, Draft};
use serde_json::{json, Value};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

const DRAFTS: [(&str, Draft, jsonschema::Draft); 5] = [
    ("draft4", Draft::Draft4, jsonschema::Draft::Draft4),
    ("draft6", Draft::Draft6, jsonschema::Draft::Draft6),
    ("draft7", Draft::Draft7, jsonschema::Draft::Draft7),
    (
        "draft2019-09",
        Draft::Draft201909,
        jsonschema::Draft::Draft201909,
    ),
    (
        "draft2020-12",
        Draft::Draft202012,
        jsonschema::Draft::Draft202012,
    ),
];

/// The repository root (the fixtures are shared with other tests).
fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn files(dir: &Path, out: &mut Vec<PathBuf>) {
    let mut entries: Vec<PathBuf> = std::fs::read_dir(dir)
        .expect("suite dir")
        .map(|e| e.expect("entry").path())
        .collect();
    entries.sort();
    for p in entries {
        if p.is_dir() {
            files(&p, out);
        } else if p.extension().is_some_and(|e| e == "json") {
            out.push(p);
        }
    }
}

/// One suite case: its id, schema, instance and expected verdict.
struct Case {
    id: String,
    draft: (Draft, jsonschema::Draft),
    schema: Value,
    data: Value,
    valid: bool,
}

fn cases() -> Vec<Case> {
    let base = root().join("tests/fixtures/json-schema-suite");
    let mut out = Vec::new();
    for (name, ours, theirs) in DRAFTS {
        let mut paths = Vec::new();
        files(&base.join(name), &mut paths);
        for path in paths {
            let rel = path
                .strip_prefix(&base)
                .expect("inside")
                .to_string_lossy()
                .replace('\\', "/");
            let text = std::fs::read_to_string(&path).expect("read");
            let groups: Vec<Value> = serde_json::from_str(&text).expect("json");
            for (g, group) in groups.iter().enumerate() {
                for (t, test) in group["tests"].as_array().expect("tests").iter().enumerate() {
                    out.push(Case {
                        id: format!("{rel}#{g}/{t}"),
                        draft: (ours, theirs),
                        schema: group["schema"].clone(),
                        data: test["data"].clone(),
                        valid: test["valid"].as_bool().expect("valid"),
                    });
                }
            }
        }
    }
    out
}

/// `Some(valid)`, or `None` when the schema does not compile.
fn ours(schema: &Value, draft: Option<Draft>, data: &Value) -> Option<bool> {
    let v = match draft {
        Some(d) => validator_with_draft(schema, d).ok()?,
        None => validator_for(schema).ok()?,
    };
    let valid = v.is_valid(data);
    assert_eq!(
        valid,
        v.iter_errors(data).next().is_none(),
        "is_valid and iter_errors disagree on {schema} / {data}"
    );
    Some(valid)
}

fn theirs(schema: &Value, draft: Option<jsonschema::Draft>, data: &Value) -> Option<bool> {
    let v = match draft {
        Some(d) => jsonschema::options().with_draft(d).build(schema).ok()?,
        None => jsonschema::validator_for(schema).ok()?,
    };
    Some(v.is_valid(data))
}

fn verdict(v: Option<bool>) -> &'static str {
    match v {
        Some(true) => "valid",
        Some(false) => "invalid",
        None => "does not compile",
    }
}

/// Compare `found` (id → what happened) with the reviewed list at `file`.
fn check_list(file: &str, found: BTreeMap<String, String>) {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests")
        .join(file);
    let text = std::fs::read_to_string(&path).unwrap_or_default();
    let mut known: BTreeMap<String, String> = BTreeMap::new();
    for line in text
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
    {
        let (id, why) = line.split_once(" | ").unwrap_or((line, ""));
        known.insert(id.trim().to_string(), why.trim().to_string());
    }
    if std::env::var_os("SUITE_WRITE").is_some() {
        let header: String = text
            .lines()
            .take_while(|l| l.starts_with('#'))
            .map(|l| format!("{l}\n"))
            .collect();
        let mut out = header;
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
    let unexpected: Vec<String> = found
        .iter()
        .filter(|(id, _)| !known.contains_key(*id))
        .map(|(id, what)| format!("{id} ({what})"))
        .collect();
    let fixed: Vec<&String> = known.keys().filter(|id| !found.contains_key(*id)).collect();
    assert!(
        unexpected.is_empty() && fixed.is_empty(),
        "{file}: {} new differences:\n{}\n{} listed differences no longer happen:\n{}",
        unexpected.len(),
        unexpected.join("\n"),
        fixed.len(),
        fixed
            .iter()
            .map(|s| s.as_str())
            .collect::<Vec<_>>()
            .join("\n")
    );
    for (id, why) in &known {
        assert!(
            !why.is_empty() && !why.starts_with("TODO"),
            "{file}: {id} has no reason"
        );
    }
}

#[test]
fn official_suite_matches_except_the_reviewed_differences() {
    let mut found = BTreeMap::new();
    for c in cases() {
        let got = ours(&c.schema, Some(c.draft.0), &c.data);
        if got != Some(c.valid) {
            found.insert(
                c.id,
                format!("suite: {}, ours: {}", verdict(Some(c.valid)), verdict(got)),
            );
        }
    }
    check_list("json_schema_suite.expected", found);
}

/// Instances for a tool's schema: `{}`, its examples and defaults, and type-flipped values.
fn instances(schema: &Value) -> Vec<Value> {
    let mut out = vec![json!({}), json!({"unexpected": 1})];
    let mut full = serde_json::Map::new();
    let mut flipped = serde_json::Map::new();
    if let Some(props) = schema.get("properties").and_then(Value::as_object) {
        for (name, p) in props {
            let sample = p
                .get("default")
                .or_else(|| p.get("examples").and_then(|e| e.get(0)))
                .or_else(|| p.get("enum").and_then(|e| e.get(0)))
                .or_else(|| p.get("const"))
                .cloned()
                .unwrap_or_else(|| match p.get("type").and_then(Value::as_str) {
                    Some("string") => json!("text"),
                    Some("integer") => json!(3),
                    Some("number") => json!(2.5),
                    Some("boolean") => json!(true),
                    Some("array") => json!([]),
                    Some("object") => json!({}),
                    _ => json!(null),
                });
            let flip = match &sample {
                Value::String(_) => json!(7),
                Value::Number(_) => json!("7"),
                Value::Bool(_) => json!("true"),
                Value::Array(_) => json!({}),
                Value::Object(_) => json!([]),
                Value::Null => json!(0),
            };
            full.insert(name.clone(), sample);
            flipped.insert(name.clone(), flip);
        }
    }
    for key in ["examples", "default"] {
        if let Some(Value::Array(xs)) = schema.get(key) {
            out.extend(xs.iter().cloned());
        } else if let Some(x) = schema.get(key) {
            out.push(x.clone());
        }
    }
    out.push(Value::Object(full.clone()));
    out.push(Value::Object(flipped));
    for odd in [json!([1, {"q": null}]), json!("s"), json!(-1.5)] {
        let all = full.keys().map(|k| (k.clone(), odd.clone())).collect();
        out.push(Value::Object(all));
    }
    if let Some((k, _)) = full.iter().next() {
        let k = k.clone();
        full.remove(&k);
        out.push(Value::Object(full));
    }
    out
}

/// Every error as (instance pointer, message), in report order.
fn errors_ours(schema: &Value, data: &Value) -> Vec<(String, String)> {
    validator_for(schema)
        .map(|v| {
            v.iter_errors(data)
                .map(|e| (e.pointer, e.message))
                .collect()
        })
        .unwrap_or_default()
}

fn errors_theirs(schema: &Value, data: &Value) -> Vec<(String, String)> {
    jsonschema::validator_for(schema)
        .map(|v| {
            v.iter_errors(data)
                .map(|e| (e.instance_path().to_string(), e.to_string()))
                .collect()
        })
        .unwrap_or_default()
}

/// The schema with one of its first property's keywords broken (the meta-schema refuses each).
fn broken(schema: &Value) -> Vec<(&'static str, Value)> {
    let Some(first) = schema
        .get("properties")
        .and_then(Value::as_object)
        .and_then(|p| p.keys().next().cloned())
    else {
        return Vec::new();
    };
    let breaks = [
        ("type", json!(7)),
        ("type", json!("strin")),
        ("minimum", json!("zero")),
        ("minLength", json!(-1)),
        ("required", json!("a")),
        ("enum", json!(3)),
        ("items", json!(5)),
        ("pattern", json!(3)),
        ("properties", json!([])),
        ("additionalProperties", json!("no")),
        ("$ref", json!(5)),
    ];
    breaks
        .into_iter()
        .map(|(k, v)| {
            let mut bad = schema.clone();
            bad["properties"][&first][k] = v;
            (k, bad)
        })
        .collect()
}

/// What registration reports for a schema its meta-schema refuses: (pointer, message).
fn first_meta_error_ours(schema: &Value) -> Option<(String, String)> {
    let draft = Draft::detect(schema)?;
    let meta = meta_validator(draft).ok()?;
    meta.validate(schema).err().map(|e| (e.pointer, e.message))
}

fn first_meta_error_theirs(schema: &Value) -> Option<(String, String)> {
    jsonschema::meta::validate(schema)
        .err()
        .map(|e| (e.instance_path().to_string(), e.to_string()))
}

#[test]
fn same_verdicts_as_the_jsonschema_crate() {
    let mut found = BTreeMap::new();
    for c in cases() {
        let a = ours(&c.schema, Some(c.draft.0), &c.data);
        let b = theirs(&c.schema, Some(c.draft.1), &c.data);
        if a != b {
            found.insert(
                format!("suite:{}", c.id),
                format!("jsonschema: {}, ours: {}", verdict(b), verdict(a)),
            );
        }
    }
    let dir = root().join("tests/fixtures/mcp");
    let mut paths: Vec<PathBuf> = std::fs::read_dir(&dir)
        .expect("mcp fixtures")
        .map(|e| e.expect("entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == "json"))
        .collect();
    paths.sort();
    let mut tools = 0;
    for path in paths {
        let file: Value =
            serde_json::from_str(&std::fs::read_to_string(&path).expect("read")).expect("json");
        let name = path
            .file_name()
            .expect("name")
            .to_string_lossy()
            .to_string();
        for tool in file["tools"].as_array().into_iter().flatten() {
            let Some(schema) = tool.get("inputSchema") else {
                continue;
            };
            tools += 1;
            let tool_name = tool["name"].as_str().unwrap_or("?");
            for (i, data) in instances(schema).iter().enumerate() {
                let a = ours(schema, None, data);
                let b = theirs(schema, None, data);
                if a != b {
                    found.insert(
                        format!("mcp:{name}:{tool_name}#{i}"),
                        format!("jsonschema: {}, ours: {}", verdict(b), verdict(a)),
                    );
                } else {
                    let (x, y) = (errors_ours(schema, data), errors_theirs(schema, data));
                    if x != y {
                        let format_only = y
                            .iter()
                            .filter(|(_, m)| !m.contains(" is not a \""))
                            .eq(x.iter());
                        if std::env::var_os("SUITE_DEBUG").is_some() && !format_only {
                            eprintln!("{tool_name} {data}\n ours   {x:?}\n theirs {y:?}");
                        }
                        let what = if format_only {
                            "only jsonschema's format errors differ"
                        } else {
                            "same verdict, other errors (pointer, message, order)"
                        };
                        found.insert(format!("errors:mcp:{name}:{tool_name}#{i}"), what.into());
                    }
                }
            }
            for (k, bad) in broken(schema) {
                let a = first_meta_error_ours(&bad);
                let b = first_meta_error_theirs(&bad);
                if a != b {
                    found.insert(
                        format!("meta:mcp:{name}:{tool_name}:{k}"),
                        format!("jsonschema: {b:?}, ours: {a:?}"),
                    );
                }
            }
        }
    }
    assert_eq!(tools, 1335, "every MCP fixture tool's schema is checked");
    check_list("json_schema_diff.expected", found);
}
