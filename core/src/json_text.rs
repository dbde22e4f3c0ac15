//! JSON text as hosts hand it to the core, located: where a syntax error is
//! and where the value a JSON pointer names starts, each as a 1-based line
//! and UTF-16 column ([`line_col_utf16`]). One implementation for every file
//! the core parses (the project policy, catalogs, the gateway config), so a
//! position means the same everywhere.

use holaryn_model::line_col_utf16;

/// A serde_json syntax error as (what is wrong, line, column): serde_json's
/// own " at line L column C" suffix (a byte column) is dropped so the message
/// never disagrees with the position.
pub(crate) fn syntax_error(text: &str, e: &serde_json::Error) -> (String, u32, u32) {
    let full = e.to_string();
    let suffix = format!(" at line {} column {}", e.line(), e.column());
    let what = full.strip_suffix(&suffix).unwrap_or(&full).to_string();
    let (line, column) = line_col_utf16(text, byte_offset(text, e.line(), e.column()));
    (what, line, column)
}

/// serde_json's (line, 1-based byte column; 0 = before the first byte) as a
/// 1-based line and UTF-16 column.
pub(crate) fn serde_position(text: &str, line: usize, column: usize) -> (u32, u32) {
    line_col_utf16(text, byte_offset(text, line, column))
}

/// serde_json's (line, byte column) to a byte offset, rounded down to a
/// character boundary.
fn byte_offset(text: &str, line: usize, column: usize) -> usize {
    let mut offset = 0;
    for (i, l) in text.split_inclusive('\n').enumerate() {
        if i + 1 == line {
            offset += column.saturating_sub(1).min(l.len());
            break;
        }
        offset += l.len();
    }
    let mut offset = offset.min(text.len());
    while offset > 0 && !text.is_char_boundary(offset) {
        offset -= 1;
    }
    offset
}

/// Where the value at `pointer` starts in `text` (JSON that parsed), as a
/// 1-based line and UTF-16 column. A value that is absent (a missing key)
/// is placed at its nearest ancestor that is present; of duplicate keys the
/// last one counts, as it does when the text is parsed.
pub(crate) fn pointer_position(text: &str, pointer: &str) -> (u32, u32) {
    line_col_utf16(text, pointer_offset(text, pointer))
}

/// The byte offset [`pointer_position`] reports.
fn pointer_offset(text: &str, pointer: &str) -> usize {
    let mut scan = Scan {
        b: text.as_bytes(),
        i: 0,
    };
    scan.ws();
    let mut at = scan.i;
    let tokens = pointer.strip_prefix('/').map(|p| p.split('/'));
    for token in tokens.into_iter().flatten() {
        let token = token.replace("~1", "/").replace("~0", "~");
        match scan.child(&token) {
            Some(child) => {
                scan.i = child;
                at = child;
            }
            None => break,
        }
    }
    at
}

/// A cursor over JSON text that already parsed (so it is well formed).
struct Scan<'a> {
    b: &'a [u8],
    i: usize,
}

impl Scan<'_> {
    fn peek(&self) -> Option<u8> {
        self.b.get(self.i).copied()
    }

    fn ws(&mut self) {
        while matches!(self.peek(), Some(b' ' | b'\t' | b'\n' | b'\r')) {
            self.i += 1;
        }
    }

    /// Skip a string (at its `"`); its bytes including the quotes.
    fn string(&mut self) -> &[u8] {
        let start = self.i;
        self.i += 1;
        while let Some(c) = self.peek() {
            self.i += if c == b'\\' { 2 } else { 1 };
            if c == b'"' {
                break;
            }
        }
        &self.b[start..self.i.min(self.b.len())]
    }

    /// Skip one value (after whitespace).
    fn value(&mut self) {
        self.ws();
        match self.peek() {
            Some(b'"') => {
                self.string();
            }
            Some(b'{' | b'[') => {
                let mut depth = 0usize;
                while let Some(c) = self.peek() {
                    match c {
                        b'"' => {
                            self.string();
                            continue;
                        }
                        b'{' | b'[' => depth += 1,
                        b'}' | b']' => depth -= 1,
                        _ => {}
                    }
                    self.i += 1;
                    if depth == 0 {
                        break;
                    }
                }
            }
            _ => {
                while !matches!(
                    self.peek(),
                    None | Some(b',' | b'}' | b']' | b' ' | b'\t' | b'\n' | b'\r')
                ) {
                    self.i += 1;
                }
            }
        }
    }

    /// The offset of the member or element `token` of the value here (the
    /// last of duplicate keys), if there is one.
    fn child(&mut self, token: &str) -> Option<usize> {
        self.ws();
        let (close, object) = match self.peek()? {
            b'{' => (b'}', true),
            b'[' => (b']', false),
            _ => return None,
        };
        self.i += 1;
        let mut found = None;
        let mut index = 0usize;
        loop {
            self.ws();
            if self.peek().is_none_or(|c| c == close) {
                return found;
            }
            let hit = if object {
                let key = self.string();
                let hit = match std::str::from_utf8(&key[1..key.len().saturating_sub(1)]) {
                    Ok(raw) if !raw.contains('\\') => raw == token,
                    _ => serde_json::from_slice::<String>(key).is_ok_and(|k| k == token),
                };
                self.ws();
                self.i += 1; // `:`
                hit
            } else {
                index += 1;
                token.parse::<usize>().is_ok_and(|n| n + 1 == index)
            };
            self.ws();
            if hit {
                found = Some(self.i);
            }
            self.value();
            self.ws();
            if self.peek() == Some(b',') {
                self.i += 1;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pointers_find_their_values() {
        let text = "{\n  \"a\": {\"b~/c\": [1, {\"x\": \"y\\\"}\"}]},\n  \"a\": {\"k\": 2}\n}";
        // The last `a` counts, as when parsing.
        assert_eq!(pointer_position(text, "/a"), (3, 8));
        assert_eq!(pointer_position(text, "/a/k"), (3, 14));
        assert_eq!(pointer_position(text, ""), (1, 1));
        // Absent: the nearest ancestor.
        assert_eq!(pointer_position(text, "/a/missing/deeper"), (3, 8));
        let first = "{\"b~/c\": [1, {\"x\": \"y\\\"}\"}], \"e\": \"😀\", \"z\": 1}";
        assert_eq!(pointer_position(first, "/b~0~1c/1/x"), (1, 20));
        assert_eq!(pointer_position(first, "/z"), (1, 46));
        assert_eq!(pointer_position(first, "/b~0~1c/7"), (1, 10));
    }

    #[test]
    fn byte_columns_become_utf16_columns() {
        let text = "{\"deny\": [\"ü😀\" 1]}";
        let e = serde_json::from_str::<serde_json::Value>(text).expect_err("syntax");
        let (what, line, column) = syntax_error(text, &e);
        assert_eq!((line, column), (1, 17));
        assert!(!what.contains("column"), "{what}");
    }
}
