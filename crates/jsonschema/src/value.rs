//! JSON value semantics the keywords need: equality where `1` equals `1.0`,
//! exact comparison of integers with floats, `multipleOf` in the decimal
//! reading of both numbers, JSON type names and strict base64.

use super::draft::Draft;
use serde_json::{Number, Value};
use std::cmp::Ordering;

/// JSON equality: numbers by value, objects regardless of key order.
pub(crate) fn equal(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::Number(x), Value::Number(y)) => cmp_numbers(x, y) == Ordering::Equal,
        (Value::Array(x), Value::Array(y)) => {
            x.len() == y.len() && x.iter().zip(y).all(|(p, q)| equal(p, q))
        }
        (Value::Object(x), Value::Object(y)) => {
            x.len() == y.len() && x.iter().all(|(k, v)| y.get(k).is_some_and(|w| equal(v, w)))
        }
        _ => a == b,
    }
}

pub(crate) fn int_of(n: &Number) -> Option<i128> {
    n.as_i64()
        .map(i128::from)
        .or_else(|| n.as_u64().map(i128::from))
}

/// An integer against a float, exactly.
fn cmp_int_float(i: i128, f: f64) -> Ordering {
    if f >= 1.0e38 {
        return Ordering::Less;
    }
    if f <= -1.0e38 {
        return Ordering::Greater;
    }
    let t = f.trunc();
    match i.cmp(&(t as i128)) {
        Ordering::Equal if f > t => Ordering::Less,
        Ordering::Equal if f < t => Ordering::Greater,
        o => o,
    }
}

/// Compare two JSON numbers exactly.
pub(crate) fn cmp_numbers(a: &Number, b: &Number) -> Ordering {
    match (int_of(a), int_of(b)) {
        (Some(x), Some(y)) => x.cmp(&y),
        (Some(x), None) => cmp_int_float(x, b.as_f64().unwrap_or(0.0)),
        (None, Some(y)) => cmp_int_float(y, a.as_f64().unwrap_or(0.0)).reverse(),
        (None, None) => {
            let (x, y) = (a.as_f64().unwrap_or(0.0), b.as_f64().unwrap_or(0.0));
            x.partial_cmp(&y).unwrap_or(Ordering::Equal)
        }
    }
}

/// Mantissa and count of decimals of a number as it prints (`1.25` → (125, 2)).
fn decimal_parts(n: &Number) -> Option<(i128, i32)> {
    if let Some(i) = int_of(n) {
        return Some((i, 0));
    }
    let text = format!("{:e}", n.as_f64()?);
    let (mantissa, exp) = text.split_once('e')?;
    let exp: i32 = exp.parse().ok()?;
    let (whole, frac) = mantissa.split_once('.').unwrap_or((mantissa, ""));
    let digits = format!("{whole}{frac}");
    let m: i128 = digits.parse().ok()?;
    Some((m, frac.len() as i32 - exp))
}

/// Whether `value / multiple` is an integer (`multiple` > 0).
pub(crate) fn is_multiple_of(value: &Number, multiple: &Number) -> bool {
    let v = value.as_f64().unwrap_or(0.0);
    if v == 0.0 {
        return int_of(value).is_some() || v.to_bits() == 0 || v == 0.0;
    }
    let m = multiple.as_f64().unwrap_or(1.0);
    if m.fract() == 0.0 {
        // An integral divisor: an instance with a fraction never divides.
        if let (Some(x), Some(y)) = (int_of(value), int_of(multiple)) {
            return y != 0 && x % y == 0;
        }
        if v.fract() != 0.0 {
            return false;
        }
        return (v % m) == 0.0;
    }
    if v.abs() < m {
        return false;
    }
    if let (Some((vm, vd)), Some((mm, md))) = (decimal_parts(value), decimal_parts(multiple)) {
        if mm != 0 {
            let shared = vd.min(md);
            let scale = |mant: i128, places: i32| -> Option<i128> {
                mant.checked_mul(10_i128.checked_pow(u32::try_from(places - shared).ok()?)?)
            };
            if let (Some(a), Some(b)) = (scale(vm, md), scale(mm, vd)) {
                return a % b == 0;
            }
        }
    }
    // Outside `i128`: the binary remainder is exact.
    v % m == 0.0
}

/// Whether `v` has JSON Schema type `name` under `draft`.
pub(crate) fn has_type(v: &Value, name: &str, draft: Draft) -> bool {
    match name {
        "null" => v.is_null(),
        "boolean" => v.is_boolean(),
        "string" => v.is_string(),
        "array" => v.is_array(),
        "object" => v.is_object(),
        "number" => v.is_number(),
        "integer" => match v {
            Value::Number(n) if n.is_i64() || n.is_u64() => true,
            // Draft 4: written without fraction or exponent (as serde_json prints it).
            // Beyond u64 a number can only have been an integer literal or an exponent.
            Value::Number(n) if draft == Draft::Draft4 => {
                !n.to_string().contains(['.', 'e', 'E'])
                    || n.as_f64()
                        .is_some_and(|f| f.fract() == 0.0 && f.abs() >= 1.8e19)
            }
            Value::Number(n) => n.as_f64().is_some_and(|f| f.fract() == 0.0),
            _ => false,
        },
        _ => false,
    }
}

/// A non-negative integer keyword value (`2` or `2.0`).
pub(crate) fn count(v: &Value) -> Option<u64> {
    match v {
        Value::Number(n) => n.as_u64().or_else(|| {
            n.as_f64()
                .filter(|f| *f >= 0.0 && f.fract() == 0.0)
                .map(|f| f as u64)
        }),
        _ => None,
    }
}

/// Strict RFC 4648 base64 (padded), as `contentEncoding: base64` checks it.
pub(crate) fn base64_decode(s: &str) -> Option<Vec<u8>> {
    let bytes = s.as_bytes();
    if bytes.len() % 4 != 0 {
        return None;
    }
    let val = |c: u8| -> Option<u32> {
        Some(match c {
            b'A'..=b'Z' => c - b'A',
            b'a'..=b'z' => c - b'a' + 26,
            b'0'..=b'9' => c - b'0' + 52,
            b'+' => 62,
            b'/' => 63,
            _ => return None,
        } as u32)
    };
    let mut out = Vec::with_capacity(bytes.len() / 4 * 3);
    for (i, chunk) in bytes.chunks(4).enumerate() {
        let last = i + 1 == bytes.len() / 4;
        let pad = chunk.iter().rev().take_while(|&&c| c == b'=').count();
        if pad > 2 || (pad > 0 && !last) {
            return None;
        }
        let mut n = 0u32;
        for &c in &chunk[..4 - pad] {
            n = (n << 6) | val(c)?;
        }
        n <<= 6 * pad as u32;
        let got = [(n >> 16) as u8, (n >> 8) as u8, n as u8];
        out.extend_from_slice(&got[..3 - pad]);
    }
    Some(out)
}
