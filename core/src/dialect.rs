//! Which JSON Schema dialect a tool's schema is read in.
//!
//! A schema that declares `$schema` is read in that draft. One without it is
//! 2020-12 (MCP's default) unless 2020-12 cannot read it (its meta-schema
//! refuses it, or it does not compile) and an older draft can, because the
//! schema uses that draft's forms: a boolean `exclusiveMinimum` (draft-04),
//! an array `items` with `additionalItems`, `id` as the base URI (draft-04).
//! The drafts are tried newest first among those real generators publish
//! unlabelled (draft-07, -06, -04), then 2019-09; the first that reads the
//! schema is used, and the descriptor says which and why
//! ([`SchemaDialect`]). Keywords legal under 2020-12 (`definitions`,
//! `dependencies`) never make it invalid, so they never switch the dialect.
//! A schema that uses a keyword only 2020-12 has (`$dynamicRef`,
//! `$dynamicAnchor`, `prefixItems`) is never read in an older draft, and one
//! using a keyword 2019-09 introduced (`unevaluatedProperties`, `$anchor`,
//! `dependentSchemas`, …) never in draft-04/06/07: an older draft would
//! silently ignore what the author wrote, so 2020-12's refusal stands.
//! Only a schema no dialect reads is refused, with 2020-12's error.

use holaryn_jsonschema::{holds, Draft, ErrorKind, Holds, Validator};
use holaryn_model::{Error, ErrorCode, Result, SchemaDialect};
use serde_json::Value;
use std::rc::Rc;

/// The drafts tried, in order, for a schema 2020-12 cannot read.
const OLDER: [Draft; 4] = [
    Draft::Draft7,
    Draft::Draft6,
    Draft::Draft4,
    Draft::Draft201909,
];

/// How a schema is read: its draft, and the note when it was inferred.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Reading {
    /// The draft the validator compiles the schema in.
    pub draft: Draft,
    /// Set when the schema declares no `$schema` and is not read as 2020-12.
    pub note: Option<SchemaDialect>,
}

type MetaEntry = (Draft, Rc<Validator>);

/// Meta-schema validators, built once per draft, shared by clones (a schema
/// repeated across tools, input or output, is checked once through the
/// [`SchemaPool`]).
#[derive(Clone, Default)]
pub struct MetaCache(Rc<std::cell::RefCell<Metas>>);

#[derive(Default)]
struct Metas {
    validators: Vec<MetaEntry>,
}

impl std::fmt::Debug for MetaCache {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("MetaCache")
    }
}

impl MetaCache {
    /// The meta-schema validator of `draft`.
    pub fn validator(&self, draft: Draft) -> std::result::Result<Rc<Validator>, String> {
        if let Some((_, v)) = self.0.borrow().validators.iter().find(|(d, _)| *d == draft) {
            return Ok(v.clone());
        }
        let v = holaryn_jsonschema::meta_validator(draft)?;
        self.0.borrow_mut().validators.push((draft, v.clone()));
        Ok(v)
    }
}

/// What is checked of a schema in a draft.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Depth {
    /// The meta-schema only (output schemas: never compiled).
    Meta,
    /// The meta-schema and compilability (input schemas: the gate compiles them).
    Compile,
}

/// The dialect `schema` (a JSON object) is read in, or 2020-12's refusal
/// (the declared draft's, with `$schema`) when no dialect reads it.
pub fn read(
    tool: &str,
    field: &str,
    schema: &Value,
    metas: &MetaCache,
    depth: Depth,
) -> Result<Reading> {
    let check = |draft| fits(tool, field, schema, draft, metas, depth);
    if schema.get("$schema").is_some() {
        let draft = Draft::detect(schema).ok_or_else(|| {
            invalid(
                tool,
                field,
                "unsupported `$schema`: use draft-04, -06, -07, 2019-09 or 2020-12".into(),
                "/$schema".into(),
            )
        })?;
        check(draft).map_err(|m| m.error)?;
        return Ok(Reading { draft, note: None });
    }
    let refusal = match check(Draft::Draft202012) {
        Ok(()) => {
            return Ok(Reading {
                draft: Draft::Draft202012,
                note: None,
            })
        }
        Err(Misfit {
            error,
            over_budget: true,
        }) => return Err(error), // another draft would spend the budget again
        Err(m) => m.error,
    };
    let needs = oldest_reader(schema);
    for draft in OLDER {
        if draft >= needs && check(draft).is_ok() {
            let at = refusal.pointer.as_deref().unwrap_or("");
            let at = if at.is_empty() { "the root" } else { at };
            let reason = format!(
                "no `$schema`; invalid as 2020-12 at {at} ({}), valid as {}: read as {}",
                refusal.message,
                draft.name(),
                draft.name()
            );
            return Ok(Reading {
                draft,
                note: Some(SchemaDialect {
                    draft: draft.name().to_string(),
                    reason,
                }),
            });
        }
    }
    Err(refusal)
}

/// Keywords 2020-12 introduced.
const ONLY_2020_12: [&str; 3] = ["$dynamicRef", "$dynamicAnchor", "prefixItems"];
/// Keywords 2019-09 introduced (2020-12 kept them).
const SINCE_2019_09: [&str; 11] = [
    "$anchor",
    "$recursiveRef",
    "$recursiveAnchor",
    "$vocabulary",
    "unevaluatedProperties",
    "unevaluatedItems",
    "dependentRequired",
    "dependentSchemas",
    "minContains",
    "maxContains",
    "contentSchema",
];

/// The oldest draft that has every keyword `schema` uses, looking through its
/// subschemas as the validator finds them ([`holds`]; not through data such
/// as `enum`, nor at property names): an older draft would ignore the rest.
fn oldest_reader(schema: &Value) -> Draft {
    let mut needs = Draft::Draft4;
    let mut stack = vec![schema];
    while let Some(v) = stack.pop() {
        let Value::Object(map) = v else { continue };
        for (k, sub) in map {
            if ONLY_2020_12.contains(&k.as_str()) {
                return Draft::Draft202012;
            }
            if SINCE_2019_09.contains(&k.as_str()) {
                needs = Draft::Draft201909;
            }
            match (holds(k, sub), sub) {
                (Some(Holds::Many), Value::Array(items)) => stack.extend(items),
                (Some(Holds::Map | Holds::Defs), Value::Object(named)) => {
                    stack.extend(named.values());
                }
                (Some(Holds::One), _) => stack.push(sub),
                _ => {}
            }
        }
    }
    needs
}

/// Why a draft does not read a schema.
struct Misfit {
    /// The refusal, as `descriptor.invalid_schema`.
    error: Error,
    /// The meta-schema check ran out of its budget (no draft would do better).
    over_budget: bool,
}

/// `Ok` when `schema` is valid against `draft`'s meta-schema (and, for
/// [`Depth::Compile`], compiles in `draft`).
fn fits(
    tool: &str,
    field: &str,
    schema: &Value,
    draft: Draft,
    metas: &MetaCache,
    depth: Depth,
) -> std::result::Result<(), Misfit> {
    let misfit = |error, over_budget| Misfit { error, over_budget };
    let meta = metas
        .validator(draft)
        .map_err(|m| misfit(invalid(tool, field, m, String::new()), false))?;
    let first = meta
        .iter_errors_within(schema, holaryn_jsonschema::COMPILE_BUDGET)
        .next();
    if let Some(err) = first {
        let ptr = err.instance_path().to_string();
        let over_budget = matches!(err.kind(), ErrorKind::BudgetExceeded);
        let why = if over_budget {
            format!("the schema is too costly to check against its meta-schema: {err}")
        } else {
            format!("not a valid JSON Schema: {err}")
        };
        return Err(misfit(invalid(tool, field, why, ptr), over_budget));
    }
    if depth == Depth::Compile {
        crate::schema_check::check_compilable(schema, draft)
            .map_err(|u| misfit(crate::schema_check::uncompilable(tool, u), false))?;
    }
    Ok(())
}

fn invalid(tool: &str, field: &str, msg: String, pointer: String) -> Error {
    let e = Error::new(ErrorCode::DescriptorInvalidSchema, msg)
        .with_tool(tool)
        .with_field(field);
    if pointer.is_empty() {
        e
    } else {
        e.with_pointer(pointer)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn reading(schema: Value) -> Result<Reading> {
        read(
            "t",
            "inputSchema",
            &schema,
            &MetaCache::default(),
            Depth::Compile,
        )
    }

    #[test]
    fn older_forms_switch_the_dialect_and_say_why() {
        let r = reading(json!({"type": "object", "properties": {
            "n": {"type": "number", "minimum": 0, "exclusiveMinimum": true}}}))
        .expect("draft-04 reads it");
        assert_eq!(r.draft, Draft::Draft4);
        let note = r.note.expect("noted");
        assert_eq!(note.draft, "draft-04");
        assert!(
            note.reason.contains("/properties/n/exclusiveMinimum"),
            "{}",
            note.reason
        );
        let tuple = reading(json!({"type": "object", "properties": {
            "p": {"type": "array", "items": [{"type": "string"}], "additionalItems": false}}}))
        .expect("draft-07 reads it");
        assert_eq!(tuple.draft, Draft::Draft7);
        let id_base = reading(json!({"type": "object", "properties": {"x": {
            "id": "http://example.com/x.json",
            "definitions": {"A": {"type": "integer"}},
            "properties": {"y": {"$ref": "#/definitions/A"}}}}}))
        .expect("draft-04 reads `id`");
        assert_eq!(id_base.draft, Draft::Draft4);
    }

    #[test]
    fn legal_old_keywords_and_declared_drafts_do_not_switch() {
        let old = reading(json!({"type": "object", "definitions": {"a": {}},
            "dependencies": {"a": ["b"]}}))
        .expect("valid");
        assert_eq!(
            old,
            Reading {
                draft: Draft::Draft202012,
                note: None
            }
        );
        let declared = json!({"$schema": "http://json-schema.org/draft-07/schema#",
            "type": "object", "properties": {"n": {"minimum": 0, "exclusiveMinimum": true}}});
        let err = reading(declared).expect_err("draft-07 says number");
        assert_eq!(err.code, ErrorCode::DescriptorInvalidSchema);
        let nobody = reading(json!({"type": "object", "minProperties": -1})).expect_err("none");
        assert_eq!(nobody.pointer.as_deref(), Some("/minProperties"));
    }
    #[test]
    fn newer_keywords_keep_the_2020_12_refusal() {
        // `$dynamicRef` means something only in 2020-12: draft-07 would ignore it.
        let dynamic =
            reading(json!({"type": "object", "properties": {"a": {"$dynamicRef": "#nope"}}}))
                .expect_err("2020-12 cannot compile it, no older draft may read it");
        assert_eq!(
            dynamic.pointer.as_deref(),
            Some("/properties/a/$dynamicRef")
        );
        // A 2019-09 keyword next to a draft-04 form: only 2019-09 may read it, and it cannot.
        let mixed = reading(json!({"type": "object", "unevaluatedProperties": false,
            "properties": {"n": {"type": "number", "minimum": 0, "exclusiveMinimum": true}}}));
        assert!(mixed.is_err(), "{mixed:?}");
        // A property named like a newer keyword is not that keyword.
        let named = reading(json!({"type": "object", "properties": {
            "prefixItems": {"type": "number", "minimum": 0, "exclusiveMinimum": true}}}))
        .expect("draft-04 reads it");
        assert_eq!(named.draft, Draft::Draft4);
        assert_eq!(
            oldest_reader(&json!({"enum": [{"$dynamicRef": 1}]})),
            Draft::Draft4
        );
    }
    #[test]
    fn a_schema_over_the_compile_budget_is_refused_in_2020_12_alone() {
        // 100,000 subschemas and a draft-04 form: the meta-schema check runs out
        // under 2020-12, and no older draft is tried (it would run out again).
        let mut props: serde_json::Map<String, Value> = (0..100_000)
            .map(|i| (format!("p{i}"), json!({"type": "string"})))
            .collect();
        props.insert("n".into(), json!({"minimum": 0, "exclusiveMinimum": true}));
        let err = reading(json!({"type": "object", "properties": props})).expect_err("costly");
        assert_eq!(err.code, ErrorCode::DescriptorInvalidSchema);
        assert!(err.message.contains("too costly"), "{}", err.message);
    }
}
