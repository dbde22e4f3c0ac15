//! Arguments the runtime cannot pass on unchanged: strings holding a lone
//! UTF-16 surrogate (JavaScript strings can, JSON text and Rust strings
//! cannot) and integers a JavaScript host would receive rounded.
//!
//! JSON text from a host or a model goes through [`mark_json_text`] before
//! it is parsed: each lone `\uD800`–`\uDFFF` escape, and each integer literal
//! too large for 64 bits, becomes a marker string (between the noncharacters
//! U+FDD0 and U+FDD1) so that the text still parses and nothing throws. The
//! gate's validation step ([`unrepresentable`]) then refuses any argument
//! holding a marker, or an integer beyond ±2^53 that a JavaScript number
//! cannot hold exactly, as `args.invalid` with its JSON pointer. A value is
//! never changed silently.
//!
//! Arguments whose JSON text is over the session's size cap are not parsed at
//! all: the host passes [`oversized_marker`] in their place and the gate
//! refuses it as `args.too_large` ([`oversized`]) before any other check.

use crate::json::{escape_token, exact_in_js};
use crate::outcome::ArgError;
use serde_json::Value;
use std::borrow::Cow;
use std::fmt::Write as _;

const OPEN: char = '\u{FDD0}';
const CLOSE: char = '\u{FDD1}';

/// `text` with lone surrogate escapes and over-long integers replaced by markers
/// (borrowed unchanged when there are none).
pub fn mark_json_text(text: &str) -> Cow<'_, str> {
    let b = text.as_bytes();
    let mut out: Option<String> = None;
    let mut copied = 0; // bytes of `text` already in `out`
    let mut i = 0;
    let mut in_string = false;
    while i < b.len() {
        let (len, marker) = if in_string {
            match b[i] {
                b'"' => {
                    in_string = false;
                    (1, None)
                }
                b'\\' if b.get(i + 1) == Some(&b'u') => surrogate_escape(b, i),
                b'\\' => (2, None),
                _ => (1, None),
            }
        } else {
            match b[i] {
                b'"' => {
                    in_string = true;
                    (1, None)
                }
                b'-' | b'0'..=b'9' => long_integer(text, i),
                _ => (1, None),
            }
        };
        if let Some(m) = marker {
            let o = out.get_or_insert_with(String::new);
            o.push_str(text.get(copied..i).unwrap_or(""));
            o.push_str(&m);
            copied = i + len;
        }
        i += len;
    }
    match out {
        None => Cow::Borrowed(text),
        Some(mut o) => {
            o.push_str(text.get(copied.min(text.len())..).unwrap_or(""));
            Cow::Owned(o)
        }
    }
}

fn hex4(b: &[u8], at: usize) -> Option<u32> {
    let digits = std::str::from_utf8(b.get(at..at + 4)?).ok()?;
    u32::from_str_radix(digits, 16).ok()
}

/// A `\uXXXX` escape at `i`: its length, and a marker when it is a lone surrogate.
fn surrogate_escape(b: &[u8], i: usize) -> (usize, Option<String>) {
    let Some(unit) = hex4(b, i + 2) else {
        return (2, None);
    };
    match unit {
        0xD800..=0xDBFF => {
            let low = (b.get(i + 6..i + 8) == Some(b"\\u"))
                .then(|| hex4(b, i + 8))
                .flatten();
            match low {
                Some(0xDC00..=0xDFFF) => (12, None),
                _ => (6, Some(format!("{OPEN}S{unit:04X}{CLOSE}"))),
            }
        }
        0xDC00..=0xDFFF => (6, Some(format!("{OPEN}S{unit:04X}{CLOSE}"))),
        _ => (6, None),
    }
}

/// A number token at `i`: its length, and a (quoted) marker when it is an
/// integer outside the 64-bit range (which a JSON parser would round to a float).
fn long_integer(text: &str, i: usize) -> (usize, Option<String>) {
    let b = text.as_bytes();
    let mut end = i + 1;
    while end < b.len() && matches!(b[end], b'0'..=b'9' | b'.' | b'e' | b'E' | b'+' | b'-') {
        end += 1;
    }
    let token = text.get(i..end).unwrap_or("");
    let integral = !token.contains(['.', 'e', 'E']) && token.bytes().any(|c| c.is_ascii_digit());
    let fits = token.parse::<i64>().is_ok() || token.parse::<u64>().is_ok();
    if integral && !fits {
        (end - i, Some(format!("\"{OPEN}N{token}{CLOSE}\"")))
    } else {
        (end - i, None)
    }
}

/// The stand-in for arguments of `bytes` bytes of JSON text that were not
/// parsed because they are over the size cap.
pub fn oversized_marker(bytes: usize) -> Value {
    Value::String(format!("{OPEN}L{bytes}{CLOSE}"))
}

/// The byte count of an [`oversized_marker`], when `args` is one.
pub fn oversized(args: &Value) -> Option<u64> {
    let body = args.as_str()?.strip_prefix(OPEN)?.strip_suffix(CLOSE)?;
    body.strip_prefix('L')?.parse().ok()
}

/// The first value in `args` the runtime cannot pass on unchanged, with its pointer.
pub fn unrepresentable(args: &Value) -> Option<ArgError> {
    find(args, &mut String::new())
}

fn find(v: &Value, at: &mut String) -> Option<ArgError> {
    match v {
        Value::String(s) => marker_error(s, at),
        Value::Number(n) => (!exact_in_js(n)).then(|| ArgError {
                pointer: at.clone(),
                message: format!(
                    "the integer {n} cannot be passed on exactly: beyond 2^53 a JavaScript number rounds it; send it as a string"
                ),
            }),
        Value::Array(items) => items.iter().enumerate().find_map(|(i, item)| {
            let len = at.len();
            let _ = write!(at, "/{i}");
            let r = find(item, at);
            at.truncate(len);
            r
        }),
        Value::Object(map) => map.iter().find_map(|(k, item)| {
            let len = at.len();
            at.push('/');
            at.push_str(&escape_token(k));
            let r = marker_error(k, at).or_else(|| find(item, at));
            at.truncate(len);
            r
        }),
        _ => None,
    }
}

fn marker_error(s: &str, at: &str) -> Option<ArgError> {
    let start = s.find(OPEN)?;
    let rest = s.get(start + OPEN.len_utf8()..)?;
    let end = rest.find(CLOSE)?;
    let body = rest.get(..end)?;
    let message = if let Some(unit) = body.strip_prefix('S') {
        format!("the string holds a lone UTF-16 surrogate (U+{unit}), which JSON text cannot carry; send well-formed text")
    } else if let Some(digits) = body.strip_prefix('N') {
        format!("the integer {digits} cannot be passed on exactly: it is beyond 64 bits and a JavaScript number would round it; send it as a string")
    } else {
        return None;
    };
    Some(ArgError {
        pointer: at.to_string(),
        message,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parsed(text: &str) -> Value {
        serde_json::from_str(&mark_json_text(text)).unwrap_or(Value::Null)
    }

    #[test]
    fn lone_surrogates_are_marked_and_pairs_kept() {
        assert!(matches!(
            mark_json_text(r#"{"a":"\ud83d\ude00"}"#),
            Cow::Borrowed(_)
        ));
        let v = parsed(r#"{"a":["x","\ud800y"]}"#);
        let e = unrepresentable(&v).map(|e| e.pointer);
        assert_eq!(e.as_deref(), Some("/a/1"));
        let v = parsed(r#"{"k\udc00":1}"#);
        assert_eq!(
            unrepresentable(&v).map(|e| e.pointer).as_deref(),
            Some("/k\u{FDD0}SDC00\u{FDD1}")
        );
        // An escaped backslash before `u` is text, not an escape.
        assert!(matches!(
            mark_json_text(r#"{"a":"\\ud800"}"#),
            Cow::Borrowed(_)
        ));
    }

    #[test]
    fn integers_beyond_2_pow_53_are_refused_unless_exact() {
        let v =
            parsed(r#"{"a":9007199254740993,"b":9007199254740992,"c":123456789012345678901234}"#);
        assert_eq!(
            unrepresentable(&v).map(|e| e.pointer).as_deref(),
            Some("/a")
        );
        let v = parsed(r#"{"b":9007199254740992,"c":-123456789012345678901234}"#);
        assert_eq!(
            unrepresentable(&v).map(|e| e.pointer).as_deref(),
            Some("/c")
        );
        let v = parsed(r#"{"b":-9007199254740992,"f":1.5e300}"#);
        assert!(unrepresentable(&v).is_none());
    }
}
