//! Whether an input schema meets OpenAI's strict mode (Structured Outputs)
//! rules as it stands, so a Responses export can say `strict: true` only
//! where the API would accept it and `strict: false` everywhere else.
//!
//! The check is conservative: a schema passes only when every subschema is
//! an object using nothing but the supported keywords, every object lists
//! all its properties in `required` and says `additionalProperties: false`,
//! and the root is a plain `type: "object"` (no root `anyOf`). Anything the
//! rules might refuse (boolean subschemas, `patternProperties`, `not`,
//! `if`/`then`, `$schema`, `default`, …) gives `false`, which every API
//! accepts. The schema is never rewritten: the gate validates against the
//! exact schema the model was shown.

use serde_json::{Map, Value};

/// Keywords strict mode supports (besides the object rules checked below).
const SUPPORTED: &[&str] = &[
    "type",
    "properties",
    "required",
    "additionalProperties",
    "items",
    "enum",
    "const",
    "anyOf",
    "$ref",
    "$defs",
    "definitions",
    "description",
    "title",
    "pattern",
    "format",
    "minimum",
    "maximum",
    "exclusiveMinimum",
    "exclusiveMaximum",
    "multipleOf",
    "minItems",
    "maxItems",
];

/// Nesting strict mode allows (its documented limit is 10 levels of objects).
const MAX_DEPTH: usize = 10;

/// `true` when `schema` can be sent with `strict: true` unchanged.
pub fn strict_ok(schema: &Value) -> bool {
    match schema.as_object() {
        Some(root) => {
            root.get("type") == Some(&Value::String("object".into()))
                && !root.contains_key("anyOf")
                && node_ok(root, 0)
        }
        None => false,
    }
}

fn sub_ok(v: &Value, depth: usize) -> bool {
    v.as_object().is_some_and(|o| node_ok(o, depth))
}

fn node_ok(o: &Map<String, Value>, depth: usize) -> bool {
    if depth > MAX_DEPTH || o.keys().any(|k| !SUPPORTED.contains(&k.as_str())) {
        return false;
    }
    let is_object = match o.get("type") {
        Some(Value::String(t)) => t == "object",
        Some(Value::Array(ts)) => ts.iter().any(|t| t == "object"),
        _ => false,
    };
    if is_object || o.contains_key("properties") {
        let empty = Map::new();
        let props = match o.get("properties") {
            Some(Value::Object(p)) => p,
            None => &empty,
            Some(_) => return false,
        };
        let required: Vec<&str> = match o.get("required") {
            Some(Value::Array(r)) => r.iter().filter_map(Value::as_str).collect(),
            None => Vec::new(),
            Some(_) => return false,
        };
        if o.get("additionalProperties") != Some(&Value::Bool(false))
            || props.keys().any(|k| !required.contains(&k.as_str()))
            || !props.values().all(|p| sub_ok(p, depth + 1))
        {
            return false;
        }
    } else if o.contains_key("additionalProperties") {
        return false;
    }
    let all = |key: &str| match o.get(key) {
        None => true,
        Some(Value::Object(m)) => m.values().all(|s| sub_ok(s, depth + 1)),
        Some(_) => false,
    };
    let items_ok = o.get("items").is_none_or(|s| sub_ok(s, depth + 1));
    let any_of_ok = match o.get("anyOf") {
        None => true,
        Some(Value::Array(xs)) => !xs.is_empty() && xs.iter().all(|s| sub_ok(s, depth + 1)),
        Some(_) => false,
    };
    items_ok && any_of_ok && all("$defs") && all("definitions")
}

#[cfg(test)]
mod tests {
    use super::strict_ok;
    use serde_json::json;

    #[test]
    fn closed_objects_with_every_property_required_are_strict() {
        assert!(strict_ok(&json!({
            "type": "object",
            "properties": {
                "path": {"type": "string", "description": "file"},
                "mode": {"type": ["string", "null"], "enum": ["r", "w", null]},
                "opts": {"type": "object", "properties": {"n": {"type": "integer"}}, "required": ["n"], "additionalProperties": false},
                "tags": {"type": "array", "items": {"anyOf": [{"type": "string"}, {"$ref": "#/$defs/t"}]}}
            },
            "required": ["path", "mode", "opts", "tags"],
            "additionalProperties": false,
            "$defs": {"t": {"type": "number"}}
        })));
        assert!(strict_ok(
            &json!({"type": "object", "properties": {}, "required": [], "additionalProperties": false})
        ));
    }

    #[test]
    fn anything_strict_mode_might_refuse_is_not_strict() {
        let refused = [
            json!({"type": "object", "properties": {"a": {"type": "string"}}, "required": [], "additionalProperties": false}),
            json!({"type": "object", "properties": {"a": {"type": "string"}}, "required": ["a"]}),
            json!({"type": "object", "properties": {"a": true}, "required": ["a"], "additionalProperties": false}),
            json!({"type": "object", "properties": {"a": {"type": "string", "default": "x"}}, "required": ["a"], "additionalProperties": false}),
            json!({"$schema": "https://json-schema.org/draft/2020-12/schema", "type": "object", "properties": {}, "required": [], "additionalProperties": false}),
            json!({"anyOf": [{"type": "object", "properties": {}, "required": [], "additionalProperties": false}]}),
            json!({"properties": {}, "required": [], "additionalProperties": false}),
            json!({"type": "object", "properties": {"o": {"type": "object"}}, "required": ["o"], "additionalProperties": false}),
            json!({"type": "object", "patternProperties": {"^x": {"type": "string"}}, "additionalProperties": false}),
            json!(true),
        ];
        for s in refused {
            assert!(!strict_ok(&s), "{s}");
        }
    }
}
