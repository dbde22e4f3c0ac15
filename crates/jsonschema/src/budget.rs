//! The step budget of one validation (and of one compilation), and the
//! canonical hash that lets `uniqueItems`, `enum` and `const` compare by hash
//! first. Steps, not time: the crate has no clock. One step is one
//! instruction of a pattern search; the other costs are weighted by their
//! measured time against it (`npm run bench:validation`): entering a schema
//! object costs [`EVAL_STEPS`], hashing or comparing a value
//! [`NODE_STEPS`] per node and one per [`BYTES_PER_STEP`] bytes of strings.

use super::value::int_of;
use serde_json::Value;
use std::collections::hash_map::DefaultHasher;
use std::hash::{Hash, Hasher};

/// Steps one validation (or one compilation) may take: about 20–50 ms
/// natively on a busy 2-core machine, whatever spends them
/// (`npm run bench:validation`).
pub const STEP_BUDGET: u64 = 1 << 21;
/// Steps checking a schema against its meta-schema, and compiling it, may
/// take (once per schema): real schemas are larger than arguments (a 76 KB
/// output schema of a real MCP tool needs about 2^22).
pub const COMPILE_BUDGET: u64 = 1 << 23;
/// Steps charged for entering one schema object (its keywords' own loops are
/// charged apart): measured, about 100 pattern steps' time.
pub(crate) const EVAL_STEPS: u64 = 96;
/// Steps charged per value node hashed or compared (a hash-map entry for
/// `uniqueItems`): measured, about 30 pattern steps' time.
pub(crate) const NODE_STEPS: u64 = 32;
/// String bytes hashed or compared per step.
pub(crate) const BYTES_PER_STEP: u64 = 64;

/// A countdown of steps; once spent it stays spent.
#[derive(Debug, Clone)]
pub(crate) struct Budget {
    /// Steps left.
    pub left: u64,
}

impl Budget {
    /// A full budget.
    pub(crate) fn new(steps: u64) -> Self {
        Budget { left: steps }
    }

    /// Take `n` steps; `false` (and nothing left) when fewer remain.
    pub(crate) fn charge(&mut self, n: u64) -> bool {
        match self.left.checked_sub(n) {
            Some(rest) => {
                self.left = rest;
                true
            }
            None => {
                self.left = 0;
                false
            }
        }
    }
}

/// Steps for a node holding a string of `len` bytes.
fn str_steps(len: usize) -> u64 {
    NODE_STEPS + len as u64 / BYTES_PER_STEP
}

/// A hash under which values that are JSON-equal (`1` and `1.0`, objects in
/// any key order) are equal; values that differ may collide, so a match is
/// confirmed by [`equal_within`]. `None` when `budget` runs out first.
pub(crate) fn hash_within(v: &Value, budget: &mut Budget) -> Option<u64> {
    let mut h = DefaultHasher::new();
    feed(v, &mut h, budget)?;
    Some(h.finish())
}

fn feed(v: &Value, h: &mut DefaultHasher, budget: &mut Budget) -> Option<()> {
    let steps = match v {
        Value::String(s) => str_steps(s.len()),
        _ => NODE_STEPS,
    };
    if !budget.charge(steps) {
        return None;
    }
    match v {
        Value::Null => 0u8.hash(h),
        Value::Bool(b) => (1u8, b).hash(h),
        Value::Number(n) => {
            2u8.hash(h);
            let f = n.as_f64().unwrap_or(0.0);
            match int_of(n) {
                Some(i) => i.hash(h),
                // An integral float equals the integer of its value (`value::cmp_numbers`).
                None if f.fract() == 0.0 && f.abs() < 1.0e38 => (f as i128).hash(h),
                None => f.to_bits().hash(h),
            }
        }
        Value::String(s) => (3u8, s).hash(h),
        Value::Array(a) => {
            (4u8, a.len()).hash(h);
            for x in a {
                feed(x, h, budget)?;
            }
        }
        Value::Object(o) => {
            // Members in any order: a commutative sum of each member's hash.
            let mut sum = 0u64;
            for (k, x) in o {
                if !budget.charge(k.len() as u64 / BYTES_PER_STEP) {
                    return None;
                }
                let mut m = DefaultHasher::new();
                k.hash(&mut m);
                feed(x, &mut m, budget)?;
                sum = sum.wrapping_add(m.finish());
            }
            (5u8, o.len(), sum).hash(h);
        }
    }
    Some(())
}

/// JSON equality (`value::equal`) that charges as it compares: `None` when
/// `budget` runs out first.
pub(crate) fn equal_within(a: &Value, b: &Value, budget: &mut Budget) -> Option<bool> {
    let steps = match (a, b) {
        (Value::String(x), Value::String(y)) => str_steps(x.len().min(y.len())),
        _ => NODE_STEPS,
    };
    if !budget.charge(steps) {
        return None;
    }
    Some(match (a, b) {
        (Value::Array(x), Value::Array(y)) => {
            if x.len() != y.len() {
                return Some(false);
            }
            for (p, q) in x.iter().zip(y) {
                if !equal_within(p, q, budget)? {
                    return Some(false);
                }
            }
            true
        }
        (Value::Object(x), Value::Object(y)) => {
            if x.len() != y.len() {
                return Some(false);
            }
            for (k, v) in x {
                if !budget.charge(k.len() as u64 / BYTES_PER_STEP) {
                    return None;
                }
                match y.get(k) {
                    Some(w) if equal_within(v, w, budget)? => {}
                    _ => return Some(false),
                }
            }
            true
        }
        _ => super::value::equal(a, b),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::value::equal;
    use serde_json::json;

    #[test]
    fn equal_values_hash_equal() {
        let pairs = [
            (json!(1), json!(1.0)),
            (json!(-0.0), json!(0)),
            (
                json!({"a": 1, "b": [2.0, "x"]}),
                json!({"b": [2, "x"], "a": 1.0}),
            ),
            (json!(1e300), json!(1e300)),
        ];
        let hash = |v: &Value| hash_within(v, &mut Budget::new(1 << 16));
        for (a, b) in pairs {
            assert!(equal(&a, &b), "{a} {b}");
            assert_eq!(equal_within(&a, &b, &mut Budget::new(1 << 16)), Some(true));
            assert_eq!(hash(&a), hash(&b), "{a} {b}");
        }
        assert_ne!(hash(&json!([1, 2])), hash(&json!([2, 1])));
        assert_ne!(hash(&json!("1")), hash(&json!(1)));
        let long = json!([1, 2, 3, 4, 5, 6]);
        assert_eq!(hash_within(&long, &mut Budget::new(5 * NODE_STEPS)), None);
        assert_eq!(
            equal_within(&long, &long, &mut Budget::new(5 * NODE_STEPS)),
            None
        );
    }

    #[test]
    fn a_spent_budget_stays_spent() {
        let mut b = Budget::new(10);
        assert!(b.charge(10) && b.left == 0);
        assert!(!b.charge(1) && b.left == 0);
    }
}
