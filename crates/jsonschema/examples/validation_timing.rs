//! `npm run bench:validation`: the milliseconds one validation takes per
//! class of costly schema + instance (issue 30's list), natively, release
//! build. Each class prints its time and outcome (valid, errors, or refused
//! by the step budget). Uses only the public API, so the same file measures
//! any version of the crate. `BENCH_SIZE=small` (16 levels of fan-out, 20k strings) keeps the
//! quadratic and exponential classes of older versions short.

use holaryn_jsonschema::validator_for;
use serde_json::{json, Value};
use std::time::Instant;

/// `$defs` d0..dn where each level is `kw` of two `$ref`s to the next.
fn chain(kw: &str, depth: usize) -> Value {
    let mut defs = serde_json::Map::new();
    for i in 0..depth {
        let next = format!("#/$defs/d{}", i + 1);
        let refs = json!([{"$ref": next}, {"$ref": next}]);
        defs.insert(format!("d{i}"), json!({ kw: refs }));
    }
    defs.insert(format!("d{depth}"), json!({"type": "integer"}));
    json!({"$defs": defs, "$ref": "#/$defs/d0"})
}

fn run(class: &str, schema: &Value, instance: &Value) {
    let start = Instant::now();
    let outcome = match validator_for(schema) {
        Err(e) => format!("does not compile: {e}"),
        Ok(v) => {
            let errors: Vec<_> = v.iter_errors(instance).collect();
            match errors.first() {
                None => "valid".to_string(),
                Some(e) if e.message.contains("(the validation budget)") => {
                    format!("refused by the budget at {:?}", e.pointer)
                }
                Some(e) => format!("{} error(s), first at {:?}", errors.len(), e.pointer),
            }
        }
    };
    let ms = start.elapsed().as_secs_f64() * 1000.0;
    println!("{class:<44} {ms:>10.1} ms  {outcome}");
}

fn main() {
    let small = std::env::var("BENCH_SIZE").is_ok_and(|s| s == "small");
    let deep = if small { 16 } else { 22 };
    println!("{:<44} {:>13}  outcome", "class", "time");
    for kw in ["allOf", "anyOf", "oneOf"] {
        run(
            &format!("{kw} of two $refs, {deep} levels"),
            &chain(kw, deep),
            &json!(1),
        );
    }
    let objects: Vec<Value> = (0..10_000).map(|i| json!({"id": i, "k": "v"})).collect();
    let unique = json!({"type": "array", "uniqueItems": true});
    run("uniqueItems, 10k objects", &unique, &Value::Array(objects));
    let n = if small { 20_000 } else { 100_000 };
    let strings: Vec<Value> = (0..n).map(|i| json!(format!("s{i}"))).collect();
    run(
        &format!("uniqueItems, {}k strings", n / 1000),
        &unique,
        &Value::Array(strings),
    );
    let evil = "^(a+)+$";
    let key = format!("{}b", "a".repeat(30));
    let keys: serde_json::Map<String, Value> = (0..1000)
        .map(|i| (format!("{key}{i:04}"), json!(1)))
        .collect();
    let pp = json!({"patternProperties": {evil: {"type": "integer"}}});
    run(
        "patternProperties (a+)+$, 1,000 keys",
        &pp,
        &Value::Object(keys),
    );
    let items: Vec<Value> = (0..1000).map(|_| json!(key)).collect();
    let contains = json!({"contains": {"pattern": evil}});
    run(
        "contains + pattern (a+)+$, 1,000 items",
        &contains,
        &Value::Array(items),
    );
    let big: Vec<Value> = (0..100_000)
        .map(|i| json!({"n": i, "s": "x".repeat(16)}))
        .collect();
    let big = Value::Array(big);
    let len = serde_json::to_string(&big).map_or(0, |s| s.len());
    let name = format!("const of {:.1} MB, equal instance", len as f64 / 1e6);
    let schema = json!({"const": big});
    let start = Instant::now();
    let v = validator_for(&schema);
    let ms = start.elapsed().as_secs_f64() * 1000.0;
    println!("{:<44} {ms:>10.1} ms  (compiling only)", format!("{name}"));
    if let Ok(v) = v {
        let start = Instant::now();
        let valid = v.is_valid(&big);
        let ms = start.elapsed().as_secs_f64() * 1000.0;
        println!(
            "{:<44} {ms:>10.1} ms  (validating only: {valid})",
            format!("{name}")
        );
    }
    run(&name, &schema, &big);
    let tool = json!({"type": "object", "required": ["path"],
        "properties": {"path": {"type": "string", "pattern": "^[^\\u0000]+$"},
        "mode": {"enum": ["r", "w", "a"]}, "limit": {"type": "integer", "minimum": 1}},
        "additionalProperties": false});
    run(
        "a real tool's arguments (control)",
        &tool,
        &json!({"path": "/tmp/x", "mode": "r", "limit": 5}),
    );
}
