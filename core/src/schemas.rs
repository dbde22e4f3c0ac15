//! Shared schemas: per distinct input schema (by canonical digest) one
//! parsed copy, one meta-schema check and one lazily compiled validator; per
//! distinct output schema one parsed copy and one meta-schema check, however
//! many tools use it.
//!
//! Catalogs repeat schemas (the same MCP server under two providers, the
//! many tools that take `{}` or one `path`), and a parsed schema is most of a
//! descriptor's memory. The digest is canonical (key order does not count),
//! but a tool keeps its schema exactly as supplied: a schema equal to a shared
//! one in another key order shares the check and validator, not the copy
//! ([`same_order`]). The pool holds weak references only: a schema and its
//! compiled validator go away with the last tool that uses them.
//!
//! A schema is looked up by a fast 64-bit hash of its canonical JSON and
//! confirmed by comparing values ([`canonical_eq`]), so a schema already in
//! use costs no SHA-256: its digest is taken from the shared entry, and no
//! re-serialisation to count its bytes: its compact length is kept too.

use crate::validate::SchemaValidator;
use serde_json::Value;
use std::cell::RefCell;
use std::collections::HashMap;
use std::rc::Rc;
use std::sync::{Arc, Weak};

/// A shared schema, its validator, its `sha256:` canonical digest and its
/// length as compact JSON (key order does not change it).
type Slot = (Weak<Value>, crate::validate::WeakValidator, String, u64);

/// What a tool takes from the pool: the shared copy, its validator, its digest
/// and its compact JSON length.
pub type Shared = (Arc<Value>, SchemaValidator, String, u64);

/// Schemas by canonical digest, shared by clones of the registry.
#[derive(Clone, Default)]
pub struct SchemaPool(Rc<RefCell<Pool>>);

#[derive(Default)]
struct Pool {
    /// Fast canonical hash → the live schemas with it (almost always one).
    by_hash: HashMap<u64, Vec<Slot>>,
    /// Fast canonical hash → the live output schemas with it and their digests.
    outputs: HashMap<u64, Vec<(Weak<Value>, String)>>,
    /// Size after the last sweep of dead entries.
    swept: usize,
    /// Output entries after the last sweep of dead ones.
    outputs_swept: usize,
}

/// Most live schemas kept under one hash: the hash is not keyed, so a catalog
/// could make many schemas collide; past this many a schema is checked and
/// used unshared rather than making every look-up compare against a long list.
const MAX_CHAIN: usize = 8;

/// Add `slot` under `key` (unless [`MAX_CHAIN`] live ones are there), first
/// dropping dead entries: under `key` always, in the whole map once it has
/// grown to twice its size after the last sweep (`swept`) plus 64.
fn add_live<T>(
    map: &mut HashMap<u64, Vec<T>>,
    swept: &mut usize,
    key: u64,
    slot: T,
    live: impl Fn(&T) -> bool,
) {
    if map.len() > 2 * *swept + 64 {
        map.retain(|_, slots| {
            slots.retain(&live);
            !slots.is_empty()
        });
        *swept = map.len();
    }
    let slots = map.entry(key).or_default();
    slots.retain(&live);
    if slots.len() < MAX_CHAIN {
        slots.push(slot);
    }
}

/// What a tool takes from the pool for its output schema: the shared copy and its digest.
pub type SharedOutput = (Arc<Value>, String);

impl std::fmt::Debug for SchemaPool {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("SchemaPool")
    }
}

/// Fx-style 64-bit mixing step (rotate, xor, multiply).
fn mix(h: u64, x: u64) -> u64 {
    (h.rotate_left(5) ^ x).wrapping_mul(0x517c_c1b7_2722_0a95)
}

/// Mix a string's bytes, eight at a time, then its length.
fn mix_str(mut h: u64, s: &str) -> u64 {
    let mut chunks = s.as_bytes().chunks_exact(8);
    for c in &mut chunks {
        let mut w = [0u8; 8];
        w.copy_from_slice(c);
        h = mix(h, u64::from_le_bytes(w));
    }
    let mut w = [0u8; 8];
    let tail = chunks.remainder();
    w[..tail.len()].copy_from_slice(tail);
    mix(mix(h, u64::from_le_bytes(w)), s.len() as u64)
}

/// A structural hash agreeing with [`canonical_eq`]: object members are
/// combined without order (a sum of per-member hashes), numbers by kind and
/// value (floats by bits), so no canonical JSON is written and no keys sorted.
fn hash_value(v: &Value) -> u64 {
    match v {
        Value::Null => mix(0, 1),
        Value::Bool(b) => mix(0, 2 + u64::from(*b)),
        Value::Number(n) => match (n.as_u64(), n.as_i64(), n.as_f64()) {
            (Some(u), _, _) if !n.is_f64() => mix(mix(0, 4), u),
            (_, Some(i), _) if !n.is_f64() => mix(mix(0, 5), i as u64),
            (_, _, f) => mix(mix(0, 6), f.map_or(0, f64::to_bits)),
        },
        Value::String(s) => mix_str(mix(0, 7), s),
        Value::Array(a) => a
            .iter()
            .fold(mix(mix(0, 8), a.len() as u64), |h, x| mix(h, hash_value(x))),
        Value::Object(o) => {
            let members = o.iter().fold(0u64, |sum, (k, x)| {
                sum.wrapping_add(mix(mix_str(0, k), hash_value(x)))
            });
            mix(mix(mix(0, 9), o.len() as u64), members)
        }
    }
}

/// The pool's key of a schema: a structural hash that equal schemas (by
/// [`canonical_eq`], whatever their key order) share in every pool; a
/// collision only costs a value comparison.
pub fn fast_hash(schema: &Value) -> u64 {
    hash_value(schema)
}

impl SchemaPool {
    /// The shared copy, validator, digest and length of a schema already
    /// checked and in use, by its `fast_hash` and canonical equality.
    pub fn get(&self, key: u64, schema: &Value) -> Option<Shared> {
        let pool = self.0.borrow();
        pool.by_hash
            .get(&key)?
            .iter()
            .find_map(|(s, v, digest, len)| {
                let shared = s.upgrade()?;
                let validator = SchemaValidator::upgrade(v)?;
                canonical_eq(&shared, schema).then(|| (shared, validator, digest.clone(), *len))
            })
    }

    /// The shared copy and digest of an output schema already checked and in
    /// use (as an output schema, or as an input schema: those passed more checks).
    pub fn get_output(&self, key: u64, schema: &Value) -> Option<SharedOutput> {
        let pool = self.0.borrow();
        let outputs = pool.outputs.get(&key).into_iter().flatten();
        let inputs = pool.by_hash.get(&key).into_iter().flatten();
        outputs
            .map(|(s, digest)| (s, digest))
            .chain(inputs.map(|(s, _, digest, _)| (s, digest)))
            .find_map(|(s, digest)| {
                let shared = s.upgrade()?;
                canonical_eq(&shared, schema).then(|| (shared, digest.clone()))
            })
    }

    /// Share an output schema that passed its meta-schema from now on.
    pub fn insert_output(&self, key: u64, digest: String, schema: Value) -> SharedOutput {
        let schema = Arc::new(schema);
        let pool = &mut *self.0.borrow_mut();
        let slot = (Arc::downgrade(&schema), digest.clone());
        add_live(
            &mut pool.outputs,
            &mut pool.outputs_swept,
            key,
            slot,
            |(s, _)| s.strong_count() > 0,
        );
        (schema, digest)
    }

    /// Share a schema a snapshot kept (checked when it was registered), with
    /// its validator, digest and length as they were.
    pub fn insert_known(&self, key: u64, shared: &Shared) {
        let (schema, validator, digest, len) = shared;
        let pool = &mut *self.0.borrow_mut();
        let slot = (
            Arc::downgrade(schema),
            validator.downgrade(),
            digest.clone(),
            *len,
        );
        add_live(
            &mut pool.by_hash,
            &mut pool.swept,
            key,
            slot,
            |(s, v, ..)| s.strong_count() > 0 && v.strong_count() > 0,
        );
    }

    /// Share a checked schema (read in `reading`'s dialect) from now on; returns it as a tool takes it.
    pub fn insert(
        &self,
        key: u64,
        digest: String,
        schema: Value,
        reading: crate::dialect::Reading,
    ) -> Shared {
        let len = holaryn_model::json_len(&schema);
        let shared = (Arc::new(schema), SchemaValidator::new(reading), digest, len);
        self.insert_known(key, &shared);
        shared
    }
}

/// True when `a` and `b` have the same canonical JSON: `==` (which ignores
/// key order), except that floats compare by bits (`0.0` and `-0.0` are
/// written differently, so they must not share a digest).
pub fn canonical_eq(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::Object(x), Value::Object(y)) => {
            x.len() == y.len()
                && x.iter()
                    .all(|(k, va)| y.get(k).is_some_and(|vb| canonical_eq(va, vb)))
        }
        (Value::Array(x), Value::Array(y)) => {
            x.len() == y.len() && x.iter().zip(y).all(|(va, vb)| canonical_eq(va, vb))
        }
        (Value::Number(x), Value::Number(y)) => match (x.as_f64(), y.as_f64()) {
            (Some(fx), Some(fy)) if x.is_f64() && y.is_f64() => fx.to_bits() == fy.to_bits(),
            _ => x == y,
        },
        _ => a == b,
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
    use super::{canonical_eq, fast_hash, same_order, SchemaPool, MAX_CHAIN};
    use holaryn_model::canonical_json;
    use serde_json::json;

    fn reading() -> crate::dialect::Reading {
        crate::dialect::Reading {
            draft: holaryn_jsonschema::Draft::Draft202012,
            note: None,
        }
    }

    #[test]
    fn canonical_equality_is_equal_canonical_text() {
        let vals = [
            json!({"a": 1, "b": [0.0, {"c": "x"}]}),
            json!({"b": [0.0, {"c": "x"}], "a": 1}),
            json!({"a": 1, "b": [-0.0, {"c": "x"}]}),
            json!({"a": 1.0, "b": [0.0, {"c": "x"}]}),
            json!({"a": 1, "b": [0.0, {"c": "y"}]}),
            json!({"a": 1, "b": [0.0, {"c": "x"}], "d": null}),
        ];
        for x in &vals {
            for y in &vals {
                let same = canonical_json(x) == canonical_json(y);
                assert_eq!(canonical_eq(x, y), same, "{x} {y}");
                if same {
                    assert_eq!(fast_hash(x), fast_hash(y));
                }
            }
        }
    }

    #[test]
    fn key_order_counts() {
        let a = json!({"properties": {"a": {"type": "string"}, "b": {}}});
        let b = json!({"properties": {"b": {}, "a": {"type": "string"}}});
        assert_eq!(a, b);
        assert!(!same_order(&a, &b));
        assert!(same_order(&a, &a.clone()));
    }

    #[test]
    fn colliding_schemas_past_the_chain_limit_are_used_unshared() {
        let pool = SchemaPool::default();
        let schema = |i: usize| json!({"description": format!("s{i}")});
        // All under one key, as a crafted collision would be.
        let kept: Vec<_> = (0..MAX_CHAIN + 2)
            .map(|i| pool.insert(7, format!("d{i}"), schema(i), reading()))
            .collect();
        let outs: Vec<_> = (0..MAX_CHAIN + 2)
            .map(|i| pool.insert_output(9, format!("o{i}"), schema(i)))
            .collect();
        assert!(pool.get(7, &schema(0)).is_some());
        assert!(pool.get(7, &schema(MAX_CHAIN)).is_none());
        assert!(pool.get_output(9, &schema(0)).is_some());
        assert!(pool.get_output(9, &schema(MAX_CHAIN + 1)).is_none());
        drop((kept, outs));
    }
}
