//! Typed errors with stable machine codes.
//!
//! Every refusal in the core is an [`Error`] carrying a [`Code`] whose
//! string form (`policy.malformed`, `handle.stale`, …) is stable across
//! releases and is what hosts and JavaScript match on. The optional fields say
//! *where* the problem is: the tool, the descriptor field, the file, the JSON
//! pointer, or a 1-based line:column (columns in UTF-16 code units).

use crate::codes::Code;
use serde::{Deserialize, Serialize};
use std::fmt;

/// The code an [`Error`] carries: the one [`Code`] vocabulary (errors use
/// its first group; see `crates/model/src/codes.rs`).
pub type ErrorCode = Code;

/// A typed, located error. Build with [`Error::new`] and the `with_*` setters.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Error {
    /// Stable machine code.
    pub code: ErrorCode,
    /// Human message saying what was wrong.
    pub message: String,
    /// The tool concerned, when there is one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tool: Option<String>,
    /// The descriptor or input field concerned (e.g. `inputSchema`, `aliases[1]`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub field: Option<String>,
    /// The file concerned (host-supplied path).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub file: Option<String>,
    /// JSON pointer to the offending value.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pointer: Option<String>,
    /// 1-based line.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub line: Option<u32>,
    /// 1-based column in UTF-16 code units.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub column: Option<u32>,
    /// Close names, for unknown-name errors.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub suggestions: Vec<String>,
    /// The next safe action for the caller.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub next_action: Option<String>,
}

impl Error {
    /// A new error with a code and message.
    pub fn new(code: ErrorCode, message: impl Into<String>) -> Self {
        Error {
            code,
            message: message.into(),
            tool: None,
            field: None,
            file: None,
            pointer: None,
            line: None,
            column: None,
            suggestions: Vec::new(),
            next_action: None,
        }
    }
    /// Set the tool name.
    pub fn with_tool(mut self, tool: impl Into<String>) -> Self {
        self.tool = Some(tool.into());
        self
    }
    /// Set the field name.
    pub fn with_field(mut self, field: impl Into<String>) -> Self {
        self.field = Some(field.into());
        self
    }
    /// Set the file path.
    pub fn with_file(mut self, file: impl Into<String>) -> Self {
        self.file = Some(file.into());
        self
    }
    /// Set the JSON pointer.
    pub fn with_pointer(mut self, pointer: impl Into<String>) -> Self {
        self.pointer = Some(pointer.into());
        self
    }
    /// Set a 1-based line and UTF-16 column.
    pub fn with_position(mut self, line: u32, column: u32) -> Self {
        self.line = Some(line);
        self.column = Some(column);
        self
    }
    /// Set suggestions.
    pub fn with_suggestions(mut self, suggestions: Vec<String>) -> Self {
        self.suggestions = suggestions;
        self
    }
    /// Set the next safe action.
    pub fn with_next_action(mut self, action: impl Into<String>) -> Self {
        self.next_action = Some(action.into());
        self
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "[{}] ", self.code)?;
        if let Some(file) = &self.file {
            write!(f, "{file}")?;
            if let (Some(l), Some(c)) = (self.line, self.column) {
                write!(f, ":{l}:{c}")?;
            }
            f.write_str(": ")?;
        } else if let (Some(l), Some(c)) = (self.line, self.column) {
            write!(f, "line {l}:{c}: ")?;
        }
        if let Some(tool) = &self.tool {
            write!(f, "tool `{tool}`: ")?;
        }
        if let Some(field) = &self.field {
            write!(f, "field `{field}`: ")?;
        }
        if let Some(ptr) = &self.pointer {
            write!(f, "at `{ptr}`: ")?;
        }
        f.write_str(&self.message)
    }
}

impl std::error::Error for Error {}

/// Result alias for the core.
pub type Result<T> = std::result::Result<T, Error>;

/// Convert a byte offset in `text` to a 1-based (line, UTF-16 column). A line
/// ends at `\n`, `\r\n` or a lone `\r`, as for Python's tokenizer and editors.
pub fn line_col_utf16(text: &str, byte_offset: usize) -> (u32, u32) {
    let mut line = 1u32;
    let mut col = 1u32;
    let mut after_cr = false;
    for (i, ch) in text.char_indices() {
        if i >= byte_offset {
            break;
        }
        match ch {
            '\n' if after_cr => {} // the second half of `\r\n`
            '\n' | '\r' => {
                line += 1;
                col = 1;
            }
            _ => col += ch.len_utf16() as u32,
        }
        after_cr = ch == '\r';
    }
    (line, col)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codes_serialise_to_their_stable_strings() {
        let json = serde_json::to_string(&ErrorCode::HandleStale).unwrap_or_default();
        assert_eq!(json, "\"handle.stale\"");
        assert_eq!(ErrorCode::PolicyMalformed.as_str(), "policy.malformed");
    }

    #[test]
    fn line_col_counts_utf16() {
        let text = "ab\n\u{1F600}x";
        // byte offset of 'x': 3 (ab\n) + 4 (emoji)
        assert_eq!(line_col_utf16(text, 7), (2, 3));
        assert_eq!(line_col_utf16(text, 0), (1, 1));
    }
}
