//! Escapes in bounded-code string literals, checked from the source text
//! before parsing so that every refusal points at its backslash.
//!
//! - `\x`, `\u` and `\U` need their exact number of hex digits, and `\U`
//!   at most U+10FFFF: otherwise `code.syntax` at the backslash (the parser
//!   would report two columns past it).
//! - A named escape `\N{…}` is `code.forbidden`: the Unicode name table is
//!   not shipped (see `vendor/unicode_names2`).
//! - A lone surrogate escape (`\ud800`) is `code.forbidden`: JSON text and
//!   the tools' hosts cannot carry it, and the parser would turn it into
//!   U+FFFD silently.
//! - An escaped surrogate pair (`\ud83d\ude00`) is joined into its one
//!   character, as JSON does: [`join_pairs`] rewrites it into a `\U` escape
//!   padded with backslash-newline continuations, which add nothing to the
//!   string, so every byte offset — and so every error position — stays put.

use crate::located::located;
use holaryn_model::{ErrorCode, Result};

/// One string token of the source.
pub(crate) struct Token {
    /// Offset just past its closing quote(s).
    pub end: usize,
    /// Offset of its first character after the opening quote(s).
    pub body: usize,
    /// `r"…"`: no escapes at all.
    pub raw: bool,
    /// `b"…"`: only byte escapes.
    pub bytes: bool,
}

/// An escaped surrogate pair: where its escapes start and end, and the character.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Pair {
    start: usize,
    end: usize,
    ch: char,
}

/// Check the escapes of one string token; record surrogate pairs in `pairs`.
pub(crate) fn check(source: &str, t: &Token, pairs: &mut Vec<Pair>) -> Result<()> {
    if t.raw {
        return Ok(());
    }
    let bytes = source.as_bytes();
    let end = t.end.min(bytes.len());
    let mut i = t.body;
    while i < end {
        if bytes[i] != b'\\' {
            i += 1;
            continue;
        }
        let syntax = |what: &str| {
            let msg = format!("syntax error: invalid escape: {what}");
            Err(located(ErrorCode::CodeSyntax, msg, source, i))
        };
        match bytes.get(i + 1) {
            Some(b'x') => {
                if hex(bytes, i + 2, 2, end).is_none() {
                    return syntax("`\\x` needs exactly two hex digits");
                }
                i += 4;
            }
            Some(b'N') if !t.bytes => {
                let msg = "named Unicode escape `\\N{…}` is not allowed in bounded code: write the character itself or use a `\\u`/`\\U` escape".to_string();
                return Err(located(ErrorCode::CodeForbidden, msg, source, i));
            }
            Some(b'u' | b'U') if !t.bytes => {
                let Some((unit, len)) = unicode(bytes, i, end) else {
                    return syntax(if bytes[i + 1] == b'u' {
                        "`\\u` needs exactly four hex digits"
                    } else {
                        "`\\U` needs exactly eight hex digits"
                    });
                };
                if unit > 0x10FFFF {
                    return syntax("`\\U` escapes stop at U+10FFFF");
                }
                if !(0xD800..=0xDFFF).contains(&unit) {
                    i += len;
                    continue;
                }
                let low = (unit < 0xDC00)
                    .then(|| unicode(bytes, i + len, end))
                    .flatten()
                    .filter(|(u, _)| (0xDC00..=0xDFFF).contains(u));
                let Some((low, low_len)) = low else {
                    let msg = format!(
                        "lone surrogate escape (U+{unit:04X}) is not allowed in bounded code: JSON text cannot carry it; write the character itself or escape a whole surrogate pair"
                    );
                    return Err(located(ErrorCode::CodeForbidden, msg, source, i));
                };
                let code = 0x10000 + ((unit - 0xD800) << 10) + (low - 0xDC00);
                if let Some(ch) = char::from_u32(code) {
                    pairs.push(Pair {
                        start: i,
                        end: i + len + low_len,
                        ch,
                    });
                }
                i += len + low_len;
            }
            // Any other escape: skip the escaped byte; continuation bytes
            // of a multi-byte character are never `\`.
            _ => i += 2,
        }
    }
    Ok(())
}

/// `n` hex digits at `at` (all before `end`), as a number.
fn hex(bytes: &[u8], at: usize, n: usize, end: usize) -> Option<u32> {
    if at + n > end {
        return None;
    }
    let digits = std::str::from_utf8(bytes.get(at..at + n)?).ok()?;
    if !digits.bytes().all(|b| b.is_ascii_hexdigit()) {
        return None;
    }
    u32::from_str_radix(digits, 16).ok()
}

/// A `\uXXXX` or `\UXXXXXXXX` escape at `i`: its value and length.
fn unicode(bytes: &[u8], i: usize, end: usize) -> Option<(u32, usize)> {
    if bytes.get(i) != Some(&b'\\') {
        return None;
    }
    let n = match bytes.get(i + 1)? {
        b'u' => 4,
        b'U' => 8,
        _ => return None,
    };
    hex(bytes, i + 2, n, end).map(|v| (v, n + 2))
}

/// `source` with each pair rewritten as `\UXXXXXXXX` plus `\`-newlines, same length.
pub(crate) fn join_pairs<'a>(source: &'a str, pairs: &[Pair]) -> std::borrow::Cow<'a, str> {
    if pairs.is_empty() {
        return std::borrow::Cow::Borrowed(source);
    }
    let mut out = String::with_capacity(source.len());
    let mut copied = 0;
    for p in pairs {
        out.push_str(source.get(copied..p.start).unwrap_or(""));
        let escape = format!("\\U{:08x}", p.ch as u32);
        out.push_str(&escape);
        // The escapes are 12, 16 or 20 bytes; `\U` is 10; pad in pairs of bytes.
        for _ in 0..(p.end - p.start).saturating_sub(escape.len()) / 2 {
            out.push_str("\\\n");
        }
        copied = p.end;
    }
    out.push_str(source.get(copied..).unwrap_or(""));
    std::borrow::Cow::Owned(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn token(source: &str) -> Token {
        Token {
            end: source.len(),
            body: 1,
            raw: false,
            bytes: false,
        }
    }

    #[test]
    fn pairs_are_joined_in_place() {
        let src = r#""a\ud83d\ude00b\U0000D83D\u00e9""#;
        let mut pairs = Vec::new();
        let err = check(src, &token(src), &mut pairs).expect_err("lone high before \\u00e9");
        assert_eq!(err.column, Some(16));
        let src = r#""a\ud83d\ude00b""#;
        let mut pairs = Vec::new();
        assert!(check(src, &token(src), &mut pairs).is_ok());
        let joined = join_pairs(src, &pairs);
        assert_eq!(joined.len(), src.len());
        assert_eq!(joined, "\"a\\U0001f600\\\nb\"");
    }
}
