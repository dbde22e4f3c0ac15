//! JSON helpers every layer shares, each decided here only: the one byte
//! measure ([`json_len`]: the length of a value as compact serialised JSON,
//! counted while serialising; output caps, trace rows, activity byte counts,
//! tool footprints and export sizes all use it), whether a JavaScript number
//! holds an integer exactly ([`exact_in_js`]) and the JSON Pointer token
//! escape ([`escape_token`]).

use serde::Serialize;
use serde_json::Number;
use std::borrow::Cow;

/// Bytes of `value` as compact serialised JSON, without building the string.
pub fn json_len<T: Serialize + ?Sized>(value: &T) -> u64 {
    /// A writer that only counts bytes.
    struct Count(u64);
    impl std::io::Write for Count {
        fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
            self.0 = self.0.saturating_add(buf.len() as u64);
            Ok(buf.len())
        }
        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }
    let mut count = Count(0);
    match serde_json::to_writer(&mut count, value) {
        Ok(()) => count.0,
        Err(_) => u64::MAX,
    }
}

/// True when a JavaScript number (an f64) holds `n` exactly.
pub fn exact_in_js(n: &Number) -> bool {
    match (n.as_u64(), n.as_i64()) {
        // `u64::MAX as f64` is 2^64, which saturates back to `u64::MAX`.
        (Some(u), _) => (u as f64) as u64 == u && u != u64::MAX,
        (None, Some(i)) => (i as f64) as i64 == i,
        _ => true,
    }
}

/// A key as a JSON Pointer reference token (RFC 6901: `~` → `~0`, `/` → `~1`),
/// borrowed when it needs no escape.
pub fn escape_token(key: &str) -> Cow<'_, str> {
    if key.contains(['~', '/']) {
        key.replace('~', "~0").replace('/', "~1").into()
    } else {
        key.into()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn json_len_is_the_compact_serialised_size() {
        for v in [json!(null), json!({"a": [1, "é😀", 2.5]}), json!("x\n\"")] {
            assert_eq!(json_len(&v), v.to_string().len() as u64);
        }
    }
}
