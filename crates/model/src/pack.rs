//! How a type is written into a [`Blob`] and read back ([`Pack`],
//! [`Unpack`]): numbers as varints, text as length and UTF-8, options with a
//! flag byte, lists and maps with their length first, JSON values tagged
//! ([`Blob::value`]). The [`packed!`](crate::packed) macro derives both from
//! a struct's field list (written and read in that order),
//! [`packed_enum!`](crate::packed_enum) from a field-less enum's variants.
//! No field names or tags are written: bytes are read back only by the build
//! that wrote them (the snapshot's frame checks that, `core/src/snapshot`).

use crate::blob::{Blob, Reader};
use serde_json::Value;
use std::collections::{BTreeMap, HashMap};
use std::hash::{BuildHasher, Hash};

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
    use super::{Pack, Unpack};
    use crate::blob::{Blob, Reader};
    use std::collections::{BTreeMap, HashMap};

    #[derive(Debug, PartialEq)]
    struct Sample {
        on: bool,
        name: String,
        maybe: Option<u64>,
        lists: Vec<(u32, f32, Vec<String>)>,
        by: HashMap<String, BTreeMap<String, u32>>,
        fixed: [u16; 3],
    }
    crate::packed!(Sample {
        on,
        name,
        maybe,
        lists,
        by,
        fixed
    });

    #[test]
    fn a_struct_reads_back_field_by_field_and_cut_bytes_do_not() {
        let s = Sample {
            on: true,
            name: "é名".into(),
            maybe: Some(u64::MAX),
            lists: vec![(7, -0.5, vec!["a".into(), String::new()])],
            by: HashMap::from([("k".into(), BTreeMap::from([("x".into(), 3)]))]),
            fixed: [1, 300, u16::MAX],
        };
        let mut b = Blob::default();
        s.pack(&mut b);
        let mut r = b.reader();
        assert_eq!(Sample::unpack(&mut r), Some(s));
        assert!(r.done());
        for cut in 0..b.0.len() {
            assert_eq!(
                Sample::unpack(&mut Reader::new(&b.0[..cut])),
                None,
                "cut at {cut}"
            );
        }
    }
}
