//! Shared input schemas: one parsed copy, one meta-schema check and one
//! lazily compiled validator per distinct schema (by canonical digest),
//! however many tools use it.
//!
//! Catalogs repeat schemas (the same MCP server under two providers, the
//! many tools that take `{}` or one `path`), and a parsed schema is most of a
//! descriptor's memory. The pool holds weak references only: a schema and its
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
