//! Packed bytes for binary serde formats (the snapshot's payload): a
//! [`Blob`] is written with one `serialize_bytes`, not as a sequence of
//! `u8`s, so a packed array (postings, digests) decodes as one copy and a
//! tight loop over [`Reader`] instead of one visitor call per byte.

use serde::de::{Error as _, SeqAccess, Visitor};
use serde::{Deserialize, Deserializer, Serialize, Serializer};

/// Bytes serialised as one byte string.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Blob(pub Vec<u8>);

impl Blob {
    /// Append `n` as a LEB128 varint.
    pub fn varint(&mut self, mut n: u64) {
        while n >= 0x80 {
            self.0.push((n as u8) | 0x80);
            n >>= 7;
        }
        self.0.push(n as u8);
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

    /// True when every byte was read.
    pub fn done(&self) -> bool {
        self.at == self.bytes.len()
    }
}

impl Serialize for Blob {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_bytes(&self.0)
    }
}

struct BlobVisitor;

impl<'de> Visitor<'de> for BlobVisitor {
    type Value = Blob;
    fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        f.write_str("bytes")
    }
    fn visit_bytes<E: serde::de::Error>(self, v: &[u8]) -> Result<Blob, E> {
        Ok(Blob(v.to_vec()))
    }
    fn visit_byte_buf<E: serde::de::Error>(self, v: Vec<u8>) -> Result<Blob, E> {
        Ok(Blob(v))
    }
    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Blob, A::Error> {
        let mut out = Vec::new();
        while let Some(b) = seq.next_element::<u8>()? {
            out.push(b);
        }
        Ok(Blob(out))
    }
}

impl<'de> Deserialize<'de> for Blob {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Blob, D::Error> {
        d.deserialize_byte_buf(BlobVisitor)
            .map_err(|e| D::Error::custom(format!("packed bytes: {e}")))
    }
}

#[cfg(test)]
mod tests {
    use super::Blob;

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
