//! The step budget, one test per costly class (issue 30): each is either
//! answered correctly (memoised fan-out, hashed `uniqueItems`, `enum` and
//! `const`) or refused as `ErrorKind::BudgetExceeded` at its instance
//! pointer, never left to run. Behaviour only: `npm run bench:validation`
//! reports the milliseconds.

use holaryn_jsonschema::{validator_for, ErrorKind, ValidationError, STEP_BUDGET};
use serde_json::{json, Value};

fn errors(schema: &Value, instance: &Value) -> Vec<ValidationError> {
    validator_for(schema)
        .expect("compiles")
        .iter_errors(instance)
        .collect()
}

/// The one error of a validation refused by the budget.
fn refused_at(schema: &Value, instance: &Value) -> String {
    let v = validator_for(schema).expect("compiles");
    assert!(!v.is_valid(instance), "over budget is never valid");
    let errors: Vec<_> = v.iter_errors(instance).collect();
    assert_eq!(errors.len(), 1, "{errors:?}");
    assert_eq!(errors[0].kind, ErrorKind::BudgetExceeded);
    assert!(
        errors[0].message.contains("validation budget"),
        "{}",
        errors[0]
    );
    errors[0].pointer.clone()
}

/// `$defs` d0..dn, each level `kw` of two `$ref`s to the next; dn is `integer`.
fn chain(kw: &str, depth: usize) -> Value {
    let mut defs = serde_json::Map::new();
    for i in 0..depth {
        let next = format!("#/$defs/d{}", i + 1);
        defs.insert(
            format!("d{i}"),
            json!({ kw: [{"$ref": next}, {"$ref": next}] }),
        );
    }
    defs.insert(format!("d{depth}"), json!({"type": "integer"}));
    json!({"$defs": defs, "$ref": "#/$defs/d0"})
}

#[test]
fn fan_out_through_references_is_memoised_and_answered() {
    // 2^60 paths without memoisation.
    for kw in ["allOf", "anyOf", "oneOf"] {
        let v = validator_for(&chain(kw, 60)).expect("compiles");
        // oneOf of two equal branches is never valid.
        assert_eq!(v.is_valid(&json!(1)), kw != "oneOf", "{kw}");
        assert!(!v.is_valid(&json!("x")), "{kw}");
    }
    // Every error on every path is 2^60 errors: refused, at the root.
    assert_eq!(refused_at(&chain("allOf", 60), &json!("x")), "");
    // anyOf and oneOf report once.
    for kw in ["anyOf", "oneOf"] {
        let errors = errors(&chain(kw, 60), &json!("x"));
        assert_eq!(errors.len(), 1, "{kw}");
        assert!(
            errors[0].message.contains("not valid under any"),
            "{}",
            errors[0]
        );
    }
    // Each level's two equal branches: the verdict alternates, one error at the root.
    let errors = errors(&chain("oneOf", 60), &json!(1));
    assert_eq!(errors.len(), 1);
    assert_eq!(errors[0].pointer, "");
}

#[test]
fn memoised_references_keep_their_annotations_and_errors() {
    let schema = json!({"$defs": {"a": {"properties": {"x": {"type": "integer"}}}},
        "allOf": [{"$ref": "#/$defs/a"}, {"$ref": "#/$defs/a"}],
        "unevaluatedProperties": false});
    assert!(errors(&schema, &json!({"x": 1})).is_empty());
    let e = errors(&schema, &json!({"x": 1, "y": 2}));
    assert_eq!(e.len(), 1);
    assert!(e[0].message.contains("'y'"), "{}", e[0]);
    // Each path to the failing reference reports, as without memoisation.
    let e = errors(&schema, &json!({"x": "s"}));
    let at_x = e.iter().filter(|e| e.pointer == "/x").count();
    assert_eq!(at_x, 2, "{e:?}");
}

#[test]
fn unique_items_hashes_and_finds_json_equal_duplicates() {
    let unique = json!({"type": "array", "uniqueItems": true});
    let mut strings: Vec<Value> = (0..20_000).map(|i| json!(format!("s{i}"))).collect();
    assert!(errors(&unique, &Value::Array(strings.clone())).is_empty());
    strings.push(json!("s5"));
    assert_eq!(errors(&unique, &Value::Array(strings)).len(), 1);
    let objects: Vec<Value> = (0..10_000).map(|i| json!({"id": i, "k": "v"})).collect();
    assert!(errors(&unique, &Value::Array(objects)).is_empty());
    for dup in [
        json!([1, 1.0]),
        json!([{"a": 1, "b": 2}, {"b": 2.0, "a": 1}]),
    ] {
        assert_eq!(errors(&unique, &dup).len(), 1, "{dup}");
    }
    assert!(errors(&unique, &json!([[1, 2], [2, 1], "1", 1])).is_empty());
    // 100k items cost more than the budget: refused where it ran out.
    let many: Vec<Value> = (0..100_000).map(|i| json!(format!("s{i}"))).collect();
    assert_eq!(refused_at(&unique, &Value::Array(many)), "");
}

#[test]
fn const_and_enum_are_answered_or_refused() {
    let big: Vec<Value> = (0..10_000).map(|i| json!({"n": i, "s": "xxxx"})).collect();
    let big = Value::Array(big);
    let schema = json!({"const": big});
    assert!(errors(&schema, &big).is_empty());
    let mut other = big.clone();
    other[9_999]["n"] = json!(0);
    assert_eq!(errors(&schema, &other).len(), 1);
    // A 3.5 MB const is compared until the budget runs out.
    let huge: Vec<Value> = (0..100_000)
        .map(|i| json!({"n": i, "s": "x".repeat(16)}))
        .collect();
    let huge = Value::Array(huge);
    assert_eq!(refused_at(&json!({"const": huge}), &huge), "");
    let options: Vec<Value> = (0..10_000).map(|i| json!({"v": i})).collect();
    let schema = json!({"type": "array", "items": {"enum": options}});
    let picks: Vec<Value> = (0..1000).map(|i| json!({"v": i * 7})).collect();
    assert!(errors(&schema, &Value::Array(picks)).is_empty());
    assert_eq!(errors(&schema, &json!([{"v": 1.0}, {"v": -1}])).len(), 1);
}

#[test]
fn runaway_patterns_share_one_budget() {
    let key = format!("{}b", "a".repeat(30));
    let keys: serde_json::Map<String, Value> = (0..1000)
        .map(|i| (format!("{key}{i:04}"), json!(1)))
        .collect();
    let pp = json!({"patternProperties": {"^(a+)+$": {"type": "integer"}}});
    let at = refused_at(&pp, &Value::Object(keys));
    assert!(at.starts_with(&format!("/{key}")), "{at}");
    let items: Vec<Value> = (0..1000).map(|_| json!(key)).collect();
    let contains = json!({"contains": {"pattern": "^(a+)+$"}});
    let at = refused_at(&contains, &Value::Array(items.clone()));
    assert!(at.starts_with('/'), "{at}");
    // Spent under `not` is still refused (never read as "not matched").
    let negated = json!({"not": {"items": {"pattern": "^(a+)+$"}}});
    refused_at(&negated, &Value::Array(items));
}

#[test]
fn a_large_instance_is_refused_at_its_pointer_and_small_ones_pass() {
    let schema = json!({"type": "array", "items": {"type": "object",
        "properties": {"a": {"type": "integer", "minimum": 0}}}});
    let items = |n: usize| Value::Array((0..n).map(|i| json!({"a": i})).collect());
    assert!(errors(&schema, &items(1000)).is_empty());
    let at = refused_at(&schema, &items(200_000));
    assert!(at.starts_with('/') && at.len() > 1, "{at}");
    // The same validator, given fewer steps, runs out sooner.
    let v = validator_for(&schema).expect("compiles");
    let e: Vec<_> = v.iter_errors_within(&items(10), 100).collect();
    assert_eq!(e.len(), 1);
    assert_eq!(e[0].kind, ErrorKind::BudgetExceeded);
    assert!(v
        .iter_errors_within(&items(10), STEP_BUDGET)
        .next()
        .is_none());
}

#[test]
fn property_names_spend_the_same_budget() {
    let schema = json!({"propertyNames": {"pattern": "^(a+)+$"}});
    let key = format!("{}b", "a".repeat(30));
    let keys: serde_json::Map<String, Value> =
        (0..100).map(|i| (format!("{key}{i}"), json!(1))).collect();
    let at = refused_at(&schema, &Value::Object(keys));
    assert!(at.starts_with(&format!("/{key}")), "{at}");
}

#[test]
fn compiling_has_a_budget_too() {
    // A schema with very many subschemas: its meta-validation runs out.
    let props: serde_json::Map<String, Value> = (0..100_000)
        .map(|i| (format!("p{i}"), json!({"type": "string"})))
        .collect();
    let err = validator_for(&json!({"properties": props}))
        .err()
        .expect("too costly");
    assert!(err.message.contains("too costly"), "{err}");
    assert!(err.pointer.starts_with("/properties/"), "{}", err.pointer);
}
