//! Shared input schemas: one parsed copy, one meta-schema check and one
//! lazily compiled validator per distinct schema (by canonical digest),
//! however many tools use it.
//!
//! Catalogs repeat schemas (the same MCP server under two providers, the
//! many tools that take `{}` or one `path`), and a parsed schema is most of a
//! descriptor's memory. The digest is canonical (key order does not count),
//! but a tool keeps its schema exactly as supplied: a schema equal to a shared
//! one in another key order shares the check and validator, not the copy
//! ([`same_order`]). The pool holds weak references only: a schema and its
//! compiled validator go away with the last tool that uses them.

use crate::validate::SchemaValidator;
use serde_json::Value;
use std::cell::RefCell;
use std::collections::HashMap;
use std::rc::Rc;
use std::sync::{Arc, Weak};

type Slot = (Weak<Value>, crate::validate::WeakValidator);

/// Schemas by canonical digest, shared by clones of the registry.
#[derive(Clone, Default)]
pub struct SchemaPool(Rc<RefCell<Pool>>);

#[derive(Default)]
struct Pool {
    by_digest: HashMap<String, Slot>,
    /// Size after the last sweep of dead entries.
    swept: usize,
}

impl std::fmt::Debug for SchemaPool {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("SchemaPool")
    }
}

impl SchemaPool {
    /// The shared copy and validator of a schema already checked and in use.
    pub fn get(&self, digest: &str) -> Option<(Arc<Value>, SchemaValidator)> {
        let pool = self.0.borrow();
        let (schema, validator) = pool.by_digest.get(digest)?;
        Some((schema.upgrade()?, SchemaValidator::upgrade(validator)?))
    }

    /// Share a checked schema from now on; returns the shared copy and its validator.
    pub fn insert(&self, digest: String, schema: Value) -> (Arc<Value>, SchemaValidator) {
        let schema = Arc::new(schema);
        let validator = SchemaValidator::default();
        let mut pool = self.0.borrow_mut();
        if pool.by_digest.len() > 2 * pool.swept + 64 {
            pool.by_digest
                .retain(|_, (s, v)| s.strong_count() > 0 && v.strong_count() > 0);
            pool.swept = pool.by_digest.len();
        }
        pool.by_digest
            .insert(digest, (Arc::downgrade(&schema), validator.downgrade()));
        (schema, validator)
    }
}

/// True when `a` and `b` are equal with object keys in the same order
/// (`Value`'s `==` ignores key order).
pub fn same_order(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::Object(x), Value::Object(y)) => {
            x.len() == y.len()
                && x.iter()
                    .zip(y)
                    .all(|((ka, va), (kb, vb))| ka == kb && same_order(va, vb))
        }
        (Value::Array(x), Value::Array(y)) => {
            x.len() == y.len() && x.iter().zip(y).all(|(va, vb)| same_order(va, vb))
        }
        _ => a == b,
    }
}

#[cfg(test)]
mod tests {
    use super::same_order;
    use serde_json::json;

    #[test]
    fn key_order_counts() {
        let a = json!({"properties": {"a": {"type": "string"}, "b": {}}});
        let b = json!({"properties": {"b": {}, "a": {"type": "string"}}});
        assert_eq!(a, b);
        assert!(!same_order(&a, &b));
        assert!(same_order(&a, &a.clone()));
    }
}
