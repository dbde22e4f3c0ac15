//! Canonical JSON, SHA-256 digests, HMAC-SHA-256 and constant-time compare
//! (the last two from RustCrypto's `hmac` and `subtle`).
//!
//! Canonical JSON here is: object keys sorted by their UTF-8 bytes, no
//! insignificant whitespace, strings and numbers as `serde_json` writes them.
//! Equal content therefore hashes equally whatever order it was built in.

use hmac::{Hmac, Mac};
use serde_json::Value;
use sha2::{Digest, Sha256};
use subtle::ConstantTimeEq;

/// Where canonical JSON goes: a string, or straight into a hasher (no text kept).
pub trait Sink {
    /// Append text.
    fn put(&mut self, s: &str);
}

impl Sink for String {
    fn put(&mut self, s: &str) {
        self.push_str(s);
    }
}

/// SHA-256 fed through a small buffer (many short pieces, few `update`s).
pub struct HashSink {
    hasher: Sha256,
    buf: [u8; 256],
    len: usize,
}

impl Default for HashSink {
    fn default() -> Self {
        HashSink {
            hasher: Sha256::new(),
            buf: [0; 256],
            len: 0,
        }
    }
}

impl HashSink {
    /// The SHA-256 of everything put so far.
    pub fn finish(mut self) -> [u8; 32] {
        self.hasher.update(&self.buf[..self.len]);
        self.hasher.finalize().into()
    }
}

impl Sink for HashSink {
    fn put(&mut self, s: &str) {
        let b = s.as_bytes();
        if self.len + b.len() > self.buf.len() {
            self.hasher.update(&self.buf[..self.len]);
            self.len = 0;
            if b.len() > self.buf.len() {
                self.hasher.update(b);
                return;
            }
        }
        self.buf[self.len..self.len + b.len()].copy_from_slice(b);
        self.len += b.len();
    }
}

/// Write `value` as canonical JSON into `out`.
pub fn canonical_json_into(value: &Value, out: &mut impl Sink) {
    match value {
        Value::Null => out.put("null"),
        Value::Bool(b) => out.put(if *b { "true" } else { "false" }),
        Value::Number(n) => number_into(n, out),
        Value::String(s) => json_string_into(s, out),
        Value::Array(items) => {
            out.put("[");
            for (i, item) in items.iter().enumerate() {
                if i > 0 {
                    out.put(",");
                }
                canonical_json_into(item, out);
            }
            out.put("]");
        }
        Value::Object(map) => {
            let mut entries: Vec<(&String, &Value)> = map.iter().collect();
            entries.sort_unstable_by(|a, b| a.0.cmp(b.0));
            out.put("{");
            for (i, (key, v)) in entries.into_iter().enumerate() {
                if i > 0 {
                    out.put(",");
                }
                json_string_into(key, out);
                out.put(":");
                canonical_json_into(v, out);
            }
            out.put("}");
        }
    }
}

/// A number exactly as `serde_json` writes it, without a heap string.
fn number_into(n: &serde_json::Number, out: &mut impl Sink) {
    use std::fmt::Write;
    /// A stack buffer big enough for any `serde_json` number.
    struct Buf([u8; 40], usize);
    impl Write for Buf {
        fn write_str(&mut self, s: &str) -> std::fmt::Result {
            let end = self.1 + s.len();
            let dst = self.0.get_mut(self.1..end).ok_or(std::fmt::Error)?;
            dst.copy_from_slice(s.as_bytes());
            self.1 = end;
            Ok(())
        }
    }
    let mut buf = Buf([0; 40], 0);
    match write!(buf, "{n}") {
        Ok(()) => out.put(std::str::from_utf8(&buf.0[..buf.1]).unwrap_or_default()),
        Err(_) => out.put(&n.to_string()),
    }
}

/// A JSON string literal exactly as `serde_json` writes it (no allocation).
pub fn json_string_into(s: &str, out: &mut impl Sink) {
    const DIGITS: &[u8; 16] = b"0123456789abcdef";
    out.put("\"");
    let mut start = 0;
    for (i, b) in s.bytes().enumerate() {
        let esc = match b {
            b'"' => "\\\"",
            b'\\' => "\\\\",
            b'\n' => "\\n",
            b'\r' => "\\r",
            b'\t' => "\\t",
            0x08 => "\\b",
            0x0c => "\\f",
            0..=0x1f => "",
            _ => continue,
        };
        out.put(&s[start..i]);
        if esc.is_empty() {
            let hex = [
                b'\\',
                b'u',
                b'0',
                b'0',
                DIGITS[(b >> 4) as usize],
                DIGITS[(b & 15) as usize],
            ];
            out.put(std::str::from_utf8(&hex).unwrap_or_default());
        } else {
            out.put(esc);
        }
        start = i + 1;
    }
    out.put(&s[start..]);
    out.put("\"");
}

/// Canonical JSON text of `value`.
pub fn canonical_json(value: &Value) -> String {
    let mut out = String::new();
    canonical_json_into(value, &mut out);
    out
}

/// Lower-case hex of bytes.
pub fn hex(bytes: &[u8]) -> String {
    const DIGITS: &[u8; 16] = b"0123456789abcdef";
    let mut s = String::with_capacity(bytes.len() * 2);
    for b in bytes {
        s.push(DIGITS[(b >> 4) as usize] as char);
        s.push(DIGITS[(b & 15) as usize] as char);
    }
    s
}

/// Decode lower- or upper-case hex; `None` on any bad digit or odd length.
pub fn unhex(text: &str) -> Option<Vec<u8>> {
    if text.len() % 2 != 0 {
        return None;
    }
    let digit = |c: u8| -> Option<u8> {
        match c {
            b'0'..=b'9' => Some(c - b'0'),
            b'a'..=b'f' => Some(c - b'a' + 10),
            b'A'..=b'F' => Some(c - b'A' + 10),
            _ => None,
        }
    };
    text.as_bytes()
        .chunks(2)
        .map(|pair| Some(digit(pair[0])? << 4 | digit(pair[1])?))
        .collect()
}

/// SHA-256 of bytes, as raw bytes.
pub fn sha256(bytes: &[u8]) -> [u8; 32] {
    Sha256::digest(bytes).into()
}

/// `sha256:` + hex SHA-256 of the canonical JSON of `value`.
pub fn json_digest(value: &Value) -> String {
    let mut sink = HashSink::default();
    canonical_json_into(value, &mut sink);
    digest_text(&sink.finish())
}

/// `sha256:` + hex of a SHA-256.
pub fn digest_text(hash: &[u8; 32]) -> String {
    format!("sha256:{}", hex(hash))
}

/// HMAC-SHA-256 (RFC 2104) of `message` under `key` (RustCrypto's `hmac`).
pub fn hmac_sha256(key: &[u8], message: &[u8]) -> [u8; 32] {
    // HMAC takes a key of any length, so `new_from_slice` cannot fail.
    let mut mac = <Hmac<Sha256> as Mac>::new_from_slice(key).unwrap_or_else(|_| unreachable!());
    mac.update(message);
    mac.finalize().into_bytes().into()
}

/// Constant-time equality of two byte slices (`subtle`); slices of different
/// lengths are unequal (the length is not secret).
pub fn ct_eq(a: &[u8], b: &[u8]) -> bool {
    a.ct_eq(b).into()
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn canonical_json_sorts_keys_recursively() {
        let a = json!({"b": 1, "a": {"d": [1, {"z": 0, "y": 1}], "c": null}});
        assert_eq!(
            canonical_json(&a),
            r#"{"a":{"c":null,"d":[1,{"y":1,"z":0}]},"b":1}"#
        );
    }

    #[test]
    fn strings_are_escaped_exactly_as_serde_json_escapes_them() {
        let all: String = (0u32..0x80)
            .filter_map(char::from_u32)
            .chain("é€😀\u{2028}".chars())
            .collect();
        for s in [all.as_str(), "", "plain", "a\"b\\c"] {
            let v = Value::String(s.to_string());
            assert_eq!(canonical_json(&v), v.to_string());
        }
    }

    #[test]
    fn hashing_while_writing_equals_hashing_the_text() {
        let long = "x\u{1}\"".repeat(300);
        let v = json!({"b": [1, -2, 3.5, 1e300, u64::MAX, i64::MIN], "a": long, "c": {"z": null, "y": true}});
        let text = canonical_json(&v);
        assert_eq!(
            json_digest(&v),
            format!("sha256:{}", hex(&sha256(text.as_bytes())))
        );
        for n in [json!(0), json!(-1.25), json!(1e-7), json!(f64::MAX)] {
            assert_eq!(canonical_json(&n), n.to_string());
        }
    }

    #[test]
    fn hmac_matches_rfc4231_case_2() {
        let mac = hmac_sha256(b"Jefe", b"what do ya want for nothing?");
        assert_eq!(
            hex(&mac),
            "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843"
        );
    }

    #[test]
    fn hex_round_trips() {
        assert_eq!(unhex(&hex(&[0, 1, 254, 255])), Some(vec![0, 1, 254, 255]));
        assert_eq!(unhex("0g"), None);
        assert_eq!(unhex("abc"), None);
    }
}
