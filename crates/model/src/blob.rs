//! Packed bytes (the snapshot's payload, `core/src/snapshot`): a [`Blob`]
//! written front to back and a [`Reader`] that reads it back the same way,
//! with no field names, tags or visitor machinery (small in wasm; a restore
//! reads a field with a call or two). Numbers are LEB128 varints, text is a
//! length and raw UTF-8 (checked when read), JSON values (kept schemas) a
//! tag per value ([`Blob::value`]), so reading one scans no JSON syntax.
//! A type says how it is packed with [`Pack`] and [`Unpack`]; the
//! [`packed!`](crate::packed) macro derives both from a struct's field list,
//! [`packed_enum!`](crate::packed_enum) from a field-less enum's variants.
//! Every read is `None` past the end or on bytes that do not fit.

use serde_json::{Map, Number, Value};
use std::collections::{BTreeMap, HashMap};
use std::hash::{BuildHasher, Hash};

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
    fn text(&mut self, s: &str) {
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
    fn text(&mut self) -> Option<String> {
        let n = usize::try_from(self.varint()?).ok()?;
        std::str::from_utf8(self.take(n)?).ok().map(str::to_string)
    }

    /// True when every byte was read.
    pub fn done(&self) -> bool {
        self.at == self.bytes.len()
    }
}

/// How a value is written into a [`Blob`].
pub trait Pack {
    /// Append `self`.
    fn pack(&self, out: &mut Blob);
}

/// How a value is read back from what [`Pack`] wrote.
pub trait Unpack: Sized {
    /// The next value, or `None` when the bytes do not hold one.
    fn unpack(r: &mut Reader<'_>) -> Option<Self>;
}

/// [`Pack`] and [`Unpack`] for a struct, field by field in the order listed
/// (list every field: a struct literal names them all).
#[macro_export]
macro_rules! packed {
    ($t:ty { $($f:ident),* $(,)? }) => {
        impl $crate::Pack for $t {
            fn pack(&self, out: &mut $crate::Blob) {
                $( $crate::Pack::pack(&self.$f, out); )*
            }
        }
        impl $crate::Unpack for $t {
            fn unpack(r: &mut $crate::Reader<'_>) -> Option<Self> {
                Some(Self { $( $f: $crate::Unpack::unpack(r)?, )* })
            }
        }
    };
}

/// [`Pack`] and [`Unpack`] for a field-less enum: its position in the list, one byte.
#[macro_export]
macro_rules! packed_enum {
    ($t:ty { $($v:ident),* $(,)? }) => {
        impl $crate::Pack for $t {
            fn pack(&self, out: &mut $crate::Blob) {
                const ALL: &[$t] = &[$(<$t>::$v),*];
                out.0.push(ALL.iter().position(|x| x == self).unwrap_or(0) as u8);
            }
        }
        impl $crate::Unpack for $t {
            fn unpack(r: &mut $crate::Reader<'_>) -> Option<Self> {
                const ALL: &[$t] = &[$(<$t>::$v),*];
                ALL.get(r.byte()? as usize).copied()
            }
        }
    };
}

macro_rules! varints {
    ($($t:ty),*) => {$(
        impl Pack for $t {
            fn pack(&self, out: &mut Blob) {
                out.varint(*self as u64);
            }
        }
        impl Unpack for $t {
            fn unpack(r: &mut Reader<'_>) -> Option<Self> {
                <$t>::try_from(r.varint()?).ok()
            }
        }
    )*};
}
varints!(u16, u32, u64, usize);

impl Pack for u8 {
    fn pack(&self, out: &mut Blob) {
        out.0.push(*self);
    }
}
impl Unpack for u8 {
    fn unpack(r: &mut Reader<'_>) -> Option<Self> {
        r.byte()
    }
}

impl Pack for bool {
    fn pack(&self, out: &mut Blob) {
        out.0.push(u8::from(*self));
    }
}
impl Unpack for bool {
    fn unpack(r: &mut Reader<'_>) -> Option<Self> {
        match r.byte()? {
            0 => Some(false),
            1 => Some(true),
            _ => None,
        }
    }
}

impl Pack for f32 {
    fn pack(&self, out: &mut Blob) {
        out.0.extend_from_slice(&self.to_le_bytes());
    }
}
impl Unpack for f32 {
    fn unpack(r: &mut Reader<'_>) -> Option<Self> {
        let b = r.take(4)?;
        Some(f32::from_le_bytes([b[0], b[1], b[2], b[3]]))
    }
}

impl Pack for String {
    fn pack(&self, out: &mut Blob) {
        out.text(self);
    }
}
impl Unpack for String {
    fn unpack(r: &mut Reader<'_>) -> Option<Self> {
        r.text()
    }
}

impl Pack for Blob {
    fn pack(&self, out: &mut Blob) {
        out.varint(self.0.len() as u64);
        out.0.extend_from_slice(&self.0);
    }
}
impl Unpack for Blob {
    fn unpack(r: &mut Reader<'_>) -> Option<Self> {
        let n = usize::try_from(r.varint()?).ok()?;
        Some(Blob(r.take(n)?.to_vec()))
    }
}

impl<T: Pack> Pack for Option<T> {
    fn pack(&self, out: &mut Blob) {
        match self {
            None => out.0.push(0),
            Some(v) => {
                out.0.push(1);
                v.pack(out);
            }
        }
    }
}
impl<T: Unpack> Unpack for Option<T> {
    fn unpack(r: &mut Reader<'_>) -> Option<Self> {
        match r.byte()? {
            0 => Some(None),
            1 => Some(Some(T::unpack(r)?)),
            _ => None,
        }
    }
}

impl<T: Pack> Pack for [T] {
    fn pack(&self, out: &mut Blob) {
        out.varint(self.len() as u64);
        self.iter().for_each(|x| x.pack(out));
    }
}
impl<T: Pack> Pack for Vec<T> {
    fn pack(&self, out: &mut Blob) {
        self.as_slice().pack(out);
    }
}
impl<T: Unpack> Unpack for Vec<T> {
    fn unpack(r: &mut Reader<'_>) -> Option<Self> {
        let n = r.count()?;
        let mut v = Vec::with_capacity(n);
        for _ in 0..n {
            v.push(T::unpack(r)?);
        }
        Some(v)
    }
}

impl<T: Pack, const N: usize> Pack for [T; N] {
    fn pack(&self, out: &mut Blob) {
        self.iter().for_each(|x| x.pack(out));
    }
}
impl<T: Unpack + Copy + Default, const N: usize> Unpack for [T; N] {
    fn unpack(r: &mut Reader<'_>) -> Option<Self> {
        let mut a = [T::default(); N];
        for x in &mut a {
            *x = T::unpack(r)?;
        }
        Some(a)
    }
}

impl<A: Pack, B: Pack> Pack for (A, B) {
    fn pack(&self, out: &mut Blob) {
        self.0.pack(out);
        self.1.pack(out);
    }
}
impl<A: Unpack, B: Unpack> Unpack for (A, B) {
    fn unpack(r: &mut Reader<'_>) -> Option<Self> {
        Some((A::unpack(r)?, B::unpack(r)?))
    }
}

impl<A: Pack, B: Pack, C: Pack> Pack for (A, B, C) {
    fn pack(&self, out: &mut Blob) {
        self.0.pack(out);
        self.1.pack(out);
        self.2.pack(out);
    }
}
impl<A: Unpack, B: Unpack, C: Unpack> Unpack for (A, B, C) {
    fn unpack(r: &mut Reader<'_>) -> Option<Self> {
        Some((A::unpack(r)?, B::unpack(r)?, C::unpack(r)?))
    }
}

impl<K: Pack, V: Pack, S> Pack for HashMap<K, V, S> {
    fn pack(&self, out: &mut Blob) {
        out.varint(self.len() as u64);
        for (k, v) in self {
            k.pack(out);
            v.pack(out);
        }
    }
}
impl<K: Unpack + Eq + Hash, V: Unpack, S: BuildHasher + Default> Unpack for HashMap<K, V, S> {
    fn unpack(r: &mut Reader<'_>) -> Option<Self> {
        let n = r.count()?;
        let mut m = HashMap::with_capacity_and_hasher(n, S::default());
        for _ in 0..n {
            m.insert(K::unpack(r)?, V::unpack(r)?);
        }
        Some(m)
    }
}

impl<K: Pack, V: Pack> Pack for BTreeMap<K, V> {
    fn pack(&self, out: &mut Blob) {
        out.varint(self.len() as u64);
        for (k, v) in self {
            k.pack(out);
            v.pack(out);
        }
    }
}
impl<K: Unpack + Ord, V: Unpack> Unpack for BTreeMap<K, V> {
    fn unpack(r: &mut Reader<'_>) -> Option<Self> {
        let n = r.count()?;
        let mut m = BTreeMap::new();
        for _ in 0..n {
            m.insert(K::unpack(r)?, V::unpack(r)?);
        }
        Some(m)
    }
}

impl Pack for Value {
    fn pack(&self, out: &mut Blob) {
        out.value(self);
    }
}
impl Unpack for Value {
    fn unpack(r: &mut Reader<'_>) -> Option<Self> {
        r.value()
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
