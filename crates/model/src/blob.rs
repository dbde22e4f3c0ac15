//! Packed bytes (the snapshot's payload, `core/src/snapshot`): a [`Blob`]
//! written front to back and a [`Reader`] that reads it back the same way,
//! with no field names, tags or visitor machinery (small in wasm; a restore
//! reads a field with a call or two). Numbers are LEB128 varints, text is a
//! length and raw UTF-8 (checked when read), JSON values (kept schemas) a
//! tag per value ([`Blob::value`]), so reading one scans no JSON syntax.
//! How each type is packed: `crates/model/src/pack.rs`. Every read is
//! `None` past the end or on bytes that do not fit.

use serde_json::{Map, Number, Value};

/// Deepest value [`Reader::value`] reads (packed bytes are not trusted to be shallow).
const MAX_DEPTH: usize = 256;

/// Bytes serialised as one byte string.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Blob(pub Vec<u8>);

impl Blob {
    /// Append `n` as a LEB128 varint.
    // One copy in the wasm (called for every field), not one per call site.
    #[inline(never)]
    pub fn varint(&mut self, mut n: u64) {
        while n >= 0x80 {
            self.0.push((n as u8) | 0x80);
            n >>= 7;
        }
        self.0.push(n as u8);
    }

    /// Append a JSON value, packed (numbers keep their kind and bits).
    pub fn value(&mut self, v: &Value) {
        match v {
            Value::Null => self.0.push(0),
            Value::Bool(b) => self.0.push(1 + u8::from(*b)),
            Value::Number(n) => match (n.as_u64(), n.as_i64(), n.as_f64()) {
                (Some(u), _, _) => {
                    self.0.push(3);
                    self.varint(u);
                }
                (None, Some(i), _) => {
                    self.0.push(4);
                    self.varint(i as u64);
                }
                (_, _, f) => {
                    self.0.push(5);
                    self.0
                        .extend_from_slice(&f.unwrap_or(0.0).to_bits().to_le_bytes());
                }
            },
            Value::String(s) => {
                self.0.push(6);
                self.text(s);
            }
            Value::Array(a) => {
                self.0.push(7);
                self.varint(a.len() as u64);
                a.iter().for_each(|x| self.value(x));
            }
            Value::Object(o) => {
                self.0.push(8);
                self.varint(o.len() as u64);
                for (k, x) in o {
                    self.text(k);
                    self.value(x);
                }
            }
        }
    }

    // One copy in the wasm (called for every field), not one per call site.
    #[inline(never)]
    /// Append text: its length, then its UTF-8 bytes.
    pub fn text(&mut self, s: &str) {
        self.varint(s.len() as u64);
        self.0.extend_from_slice(s.as_bytes());
    }

    /// A reader from the start.
    pub fn reader(&self) -> Reader<'_> {
        Reader {
            bytes: &self.0,
            at: 0,
        }
    }
}

/// Reads a [`Blob`] front to back; every read is `None` past the end.
#[derive(Debug)]
pub struct Reader<'a> {
    bytes: &'a [u8],
    at: usize,
}

impl<'a> Reader<'a> {
    /// A reader of `bytes` from the start.
    pub fn new(bytes: &'a [u8]) -> Self {
        Reader { bytes, at: 0 }
    }

    /// The next byte.
    pub fn byte(&mut self) -> Option<u8> {
        let b = *self.bytes.get(self.at)?;
        self.at += 1;
        Some(b)
    }

    /// The next `n` bytes.
    pub fn take(&mut self, n: usize) -> Option<&'a [u8]> {
        let out = self.bytes.get(self.at..self.at.checked_add(n)?)?;
        self.at += n;
        Some(out)
    }

    /// The next LEB128 varint (at most 10 bytes).
    // One copy in the wasm (called for every field), not one per call site.
    #[inline(never)]
    pub fn varint(&mut self) -> Option<u64> {
        let mut n = 0u64;
        for shift in (0..64).step_by(7) {
            let b = self.byte()?;
            n |= u64::from(b & 0x7f) << shift;
            if b < 0x80 {
                return Some(n);
            }
        }
        None
    }

    /// The next JSON value [`Blob::value`] packed; `None` when the bytes are
    /// not one (or nest deeper than 256 levels).
    pub fn value(&mut self) -> Option<Value> {
        self.value_at(0)
    }

    fn value_at(&mut self, depth: usize) -> Option<Value> {
        if depth > MAX_DEPTH {
            return None;
        }
        Some(match self.byte()? {
            0 => Value::Null,
            1 => Value::Bool(false),
            2 => Value::Bool(true),
            3 => Value::Number(self.varint()?.into()),
            4 => Value::Number((self.varint()? as i64).into()),
            5 => {
                let mut w = [0u8; 8];
                w.copy_from_slice(self.take(8)?);
                Value::Number(Number::from_f64(f64::from_bits(u64::from_le_bytes(w)))?)
            }
            6 => Value::String(self.text()?),
            7 => {
                let n = self.count()?;
                let mut a = Vec::with_capacity(n);
                for _ in 0..n {
                    a.push(self.value_at(depth + 1)?);
                }
                Value::Array(a)
            }
            8 => {
                let n = self.count()?;
                let mut o = Map::with_capacity(n);
                for _ in 0..n {
                    let k = self.text()?;
                    let v = self.value_at(depth + 1)?;
                    o.insert(k, v);
                }
                Value::Object(o)
            }
            _ => return None,
        })
    }

    /// A count of things that follow (each at least one byte): `None` when
    /// more than the bytes left (no allocation is sized by bad bytes).
    // One copy in the wasm (called for every field), not one per call site.
    #[inline(never)]
    pub fn count(&mut self) -> Option<usize> {
        let n = usize::try_from(self.varint()?).ok()?;
        (n <= self.bytes.len() - self.at).then_some(n)
    }

    // One copy in the wasm (called for every field), not one per call site.
    #[inline(never)]
    /// The next text [`Blob::text`] wrote (its UTF-8 checked).
    pub fn text(&mut self) -> Option<String> {
        let n = usize::try_from(self.varint()?).ok()?;
        std::str::from_utf8(self.take(n)?).ok().map(str::to_string)
    }

    /// True when every byte was read.
    pub fn done(&self) -> bool {
        self.at == self.bytes.len()
    }
}

#[cfg(test)]
mod tests {
    use super::Blob;

    #[test]
    fn json_values_round_trip_exactly() {
        let v = serde_json::json!({"b": [1, -2, 1.5, -0.0, 18446744073709551615u64, null, true, false],
            "a": {"é": "x\u{0}y", "": []}, "z": -9223372036854775808i64});
        let mut b = Blob::default();
        b.value(&v);
        let back = b.reader().value();
        assert_eq!(back.as_ref(), Some(&v));
        let keys =
            |v: &serde_json::Value| v.as_object().map(|o| o.keys().cloned().collect::<Vec<_>>());
        assert_eq!(back.as_ref().and_then(keys), keys(&v), "key order kept");
        assert_eq!(back.map(|v| v.to_string()), Some(v.to_string()));
        assert_eq!(Blob(vec![9]).reader().value(), None);
        assert_eq!(Blob(vec![7; 10_000]).reader().value(), None, "too deep");
    }

    #[test]
    fn varints_round_trip_and_stop_at_the_end() {
        let mut b = Blob::default();
        for n in [0u64, 1, 127, 128, 300, u32::MAX as u64, u64::MAX] {
            b.varint(n);
        }
        let mut r = b.reader();
        for n in [0u64, 1, 127, 128, 300, u32::MAX as u64, u64::MAX] {
            assert_eq!(r.varint(), Some(n));
        }
        assert!(r.done());
        assert_eq!(r.varint(), None);
        assert_eq!(r.take(1), None);
    }
}
