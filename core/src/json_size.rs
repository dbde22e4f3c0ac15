//! The one byte measure: the length of a value as compact serialised JSON,
//! counted while serialising (nothing is built or kept). Output caps, trace
//! rows, activity byte counts, tool footprints and export sizes all use it.

use serde::Serialize;

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
