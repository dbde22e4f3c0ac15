//! Holaryn's JSON Schema validator: drafts 4, 6, 7, 2019-09 and 2020-12 (no
//! `$schema` means 2020-12), interpreted over `serde_json::Value`.
//!
//! Behaves as the `jsonschema` crate 0.61 did in our configuration: a schema
//! is checked against its draft's meta-schema before it compiles; references
//! resolve inside the schema and the embedded meta-schemas only (a remote
//! `$ref` does not compile); `format` asserts by default in drafts 4–7 only;
//! messages are worded as that crate worded them. `pattern` and
//! `patternProperties` are ECMA-262 (`holaryn-pattern`).
//!
//! - `draft`: the drafts (a leaf every module may use);
//! - `index`: documents, resources, anchors, reference resolution, patterns;
//! - `uri`: RFC 3986 reference resolution;
//! - `eval` and `keywords`: evaluation and annotations;
//! - `value`: JSON equality and number semantics;
//! - `budget`: the step budgets ([`STEP_BUDGET`], [`COMPILE_BUDGET`]) and the canonical hash;
//! - `meta`: embedded meta-schemas ([`meta_validator`] caches their validators);
//! - `format`: the `format` checks ([`check_format`]);
//! - `error`: errors and their messages.

#![forbid(unsafe_code)]
#![warn(missing_docs)]
#![warn(unreachable_pub)]

mod budget;
mod draft;
mod error;
mod eval;
mod format;
mod index;
mod keywords;
mod meta;
mod uri;
mod value;

pub use budget::{COMPILE_BUDGET, STEP_BUDGET};
pub use draft::Draft;
pub use error::{CompileError, ErrorKind, ValidationError};
pub use format::{asserted_by_default as format_asserted_by_default, check as check_format};
pub use index::{holds, Holds};

use index::Index;
use serde_json::Value;
use std::cell::RefCell;
use std::rc::Rc;
use std::sync::Arc;

/// A compiled schema.
pub struct Validator {
    index: Index,
}

impl Validator {
    /// Every error of `instance`, in report order; when the validation needs
    /// more than [`STEP_BUDGET`] steps, only one error of kind
    /// [`ErrorKind::BudgetExceeded`] (the instance is refused undecided).
    pub fn iter_errors(&self, instance: &Value) -> std::vec::IntoIter<ValidationError> {
        self.iter_errors_within(instance, STEP_BUDGET)
    }

    /// [`Validator::iter_errors`] with `steps` to spend instead of [`STEP_BUDGET`].
    pub fn iter_errors_within(
        &self,
        instance: &Value,
        steps: u64,
    ) -> std::vec::IntoIter<ValidationError> {
        let mut e = eval::Eval::new(&self.index, true, steps);
        let root = self.root();
        e.eval(root, instance, &mut eval::Ann::default());
        match e.spent_at {
            Some(pointer) => vec![ValidationError::over_budget(pointer, steps)].into_iter(),
            None => e.errors.into_iter(),
        }
    }

    /// Whether `instance` is valid (`false` past [`STEP_BUDGET`] steps: fail closed).
    pub fn is_valid(&self, instance: &Value) -> bool {
        let mut e = eval::Eval::new(&self.index, false, STEP_BUDGET);
        e.eval(self.root(), instance, &mut eval::Ann::default()) && !e.spent()
    }

    /// The first error of `instance`, if any.
    pub fn validate(&self, instance: &Value) -> Result<(), ValidationError> {
        match self.iter_errors(instance).next() {
            Some(e) => Err(e),
            None => Ok(()),
        }
    }

    fn root(&self) -> &Value {
        self.index.docs.first().map_or(&Value::Bool(true), |d| d)
    }
}

/// Check `schema` against its draft's meta-schema and compile it.
pub fn validator_for(schema: &Value) -> Result<Validator, CompileError> {
    validator_with_draft(schema, Draft::Draft202012)
}

/// [`validator_for`] for a schema that is `draft` unless its `$schema` names another.
pub fn validator_with_draft(schema: &Value, draft: Draft) -> Result<Validator, CompileError> {
    let draft = match schema.get("$schema").and_then(Value::as_str) {
        Some(uri) => Draft::from_uri(uri).ok_or_else(|| {
            CompileError::new(
                "/$schema",
                format!("unsupported `$schema` `{uri}`: use draft-04, -06, -07, 2019-09 or 2020-12 (other meta-schemas are not fetched)"),
            )
        })?,
        None => draft,
    };
    let meta = meta_validator(draft).map_err(|m| CompileError::new("", m))?;
    if let Some(err) = meta.iter_errors_within(schema, COMPILE_BUDGET).next() {
        let message = match err.kind {
            ErrorKind::BudgetExceeded => format!("the schema is too costly to check: {err}"),
            _ => err.message,
        };
        return Err(CompileError::new(err.pointer, message));
    }
    let index = Index::build(Arc::new(schema.clone()), draft)?;
    Ok(Validator { index })
}

thread_local! {
    static META_VALIDATORS: RefCell<Vec<(Draft, Rc<Validator>)>> = const { RefCell::new(Vec::new()) };
}

/// The validator of `draft`'s meta-schema (compiled once per thread).
pub fn meta_validator(draft: Draft) -> Result<Rc<Validator>, String> {
    if let Some(v) = META_VALIDATORS.with(|c| {
        c.borrow()
            .iter()
            .find(|(d, _)| *d == draft)
            .map(|(_, v)| v.clone())
    }) {
        return Ok(v);
    }
    let doc = meta::schema(draft).ok_or("a meta-schema is missing")?;
    let index = Index::build(doc, draft).map_err(|e| e.message)?;
    let v = Rc::new(Validator { index });
    META_VALIDATORS.with(|c| c.borrow_mut().push((draft, v.clone())));
    Ok(v)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn errors(schema: Value, instance: Value) -> Vec<(String, String)> {
        let v = validator_for(&schema).expect("compiles");
        v.iter_errors(&instance)
            .map(|e| (e.pointer, e.message))
            .collect()
    }

    #[test]
    fn messages_are_worded_as_before() {
        let schema = json!({"type": "object", "required": ["x"], "additionalProperties": false,
            "properties": {"n": {"type": "integer"}, "t": {"type": ["string", "null"]}}});
        assert_eq!(
            errors(schema, json!({"n": 1.5, "t": 3, "a/b": 1})),
            // One `required` name in a closed object comes last, as the crate had it.
            vec![
                ("/n".into(), "1.5 is not of type \"integer\"".into()),
                ("/t".into(), "3 is not of types \"null\", \"string\"".into()),
                (
                    "".into(),
                    "Additional properties are not allowed ('a/b' was unexpected)".into()
                ),
                ("".into(), "\"x\" is a required property".into()),
            ]
        );
    }

    #[test]
    fn deep_nesting_fails_clearly_and_cycles_hold() {
        let nest = |n: usize| {
            let (mut s, mut i) = (json!({"type": "string"}), json!("x"));
            for _ in 0..n {
                s = json!({"type": "object", "properties": {"a": s}});
                i = json!({"a": i});
            }
            (s, i)
        };
        let (s, i) = nest(40);
        assert!(validator_for(&s).expect("compiles").is_valid(&i));
        let (s, _) = nest(400);
        let err = validator_for(&s).err().expect("too deep");
        assert!(err.message.contains("nested too deeply"), "{err}");
        // A `$ref` cycle that consumes nothing adds no constraint.
        let cycle = json!({"$defs": {"a": {"$ref": "#/$defs/a"}}, "$ref": "#/$defs/a"});
        assert!(validator_for(&cycle).expect("compiles").is_valid(&json!(1)));
    }

    #[test]
    fn an_undecided_pattern_property_refuses_the_instance() {
        let schema = json!({"patternProperties": {"^(a+)+$": {"type": "integer"}},
            "additionalProperties": true});
        let v = validator_for(&schema).expect("compiles");
        let key = format!("{}b", "a".repeat(40));
        let errors: Vec<_> = v.iter_errors(&json!({key.clone(): "x"})).collect();
        assert_eq!(errors.len(), 1);
        assert_eq!(errors[0].pointer, format!("/{key}"));
        assert_eq!(errors[0].kind, ErrorKind::BudgetExceeded);
        assert!(!v.is_valid(&json!({key: 1})));
        assert!(v.is_valid(&json!({"aaa": 1})));
    }

    #[test]
    fn remote_references_and_unknown_drafts_do_not_compile() {
        assert!(validator_for(&json!({"$ref": "https://example.com/s.json"})).is_err());
        let draft3 = json!({"$schema": "http://json-schema.org/draft-03/schema#"});
        assert_eq!(Draft::detect(&draft3), None);
        assert!(validator_for(&draft3).is_err());
        let meta = json!({"$ref": "http://json-schema.org/draft-07/schema#"});
        let v = validator_for(&meta).expect("embedded meta-schemas resolve");
        assert!(!v.is_valid(&json!({"type": 7})));
    }
}
