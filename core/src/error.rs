//! Typed errors with stable machine codes.
//!
//! Every refusal in the core is an [`Error`] carrying an [`ErrorCode`] whose
//! string form (`policy.malformed`, `handle.stale`, …) is stable across
//! releases and is what hosts and JavaScript match on. The optional fields say
//! *where* the problem is: the tool, the descriptor field, the file, the JSON
//! pointer, or a 1-based line:column (columns in UTF-16 code units).

use serde::{Deserialize, Serialize};
use std::fmt;

/// Stable error codes. The serialised (dotted) form never changes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum ErrorCode {
    /// A descriptor field has a wrong type or value.
    #[serde(rename = "descriptor.invalid")]
    DescriptorInvalid,
    /// A tool name is empty, too long, handle-like or has forbidden characters.
    #[serde(rename = "descriptor.invalid_name")]
    DescriptorInvalidName,
    /// A name or role the runtime reserves (its own model tools, the legacy
    /// script, another provider's `provider/` prefix) used where it would mislead.
    #[serde(rename = "descriptor.reserved_name")]
    DescriptorReservedName,
    /// Two tools share a canonical name.
    #[serde(rename = "descriptor.duplicate_name")]
    DescriptorDuplicateName,
    /// An alias collides with another tool's name or alias.
    #[serde(rename = "descriptor.alias_collision")]
    DescriptorAliasCollision,
    /// The input or output schema is not a valid JSON Schema.
    #[serde(rename = "descriptor.invalid_schema")]
    DescriptorInvalidSchema,
    /// The `source` is not one of the known sources.
    #[serde(rename = "descriptor.unknown_source")]
    DescriptorUnknownSource,
    /// A catalog file or value has the wrong shape.
    #[serde(rename = "catalog.malformed")]
    CatalogMalformed,
    /// No tool by that name, alias or handle.
    #[serde(rename = "tool.unknown")]
    ToolUnknown,
    /// No provider with that id.
    #[serde(rename = "provider.unknown")]
    ProviderUnknown,
    /// A handle this session never issued.
    #[serde(rename = "handle.forged")]
    HandleForged,
    /// A handle issued before the current registry version.
    #[serde(rename = "handle.stale")]
    HandleStale,
    /// No session with that id.
    #[serde(rename = "session.unknown")]
    SessionUnknown,
    /// Session options are invalid (limits out of range, bad secret, …).
    #[serde(rename = "session.invalid_options")]
    SessionInvalidOptions,
    /// The project policy file (or a policy value) is malformed.
    #[serde(rename = "policy.malformed")]
    PolicyMalformed,
    /// A model-tool input (search query, list limit, cursor …) is invalid.
    #[serde(rename = "input.invalid")]
    InputInvalid,
    /// Imported embeddings are from another model or of another dimension.
    #[serde(rename = "input.embeddings_mismatch")]
    EmbeddingsMismatch,
    /// A configuration value (e.g. an environment switch) is invalid.
    #[serde(rename = "config.invalid")]
    ConfigInvalid,
    /// Bounded code: the source does not parse.
    #[serde(rename = "code.syntax")]
    CodeSyntax,
    /// Bounded code: a construct outside the accepted language.
    #[serde(rename = "code.forbidden")]
    CodeForbidden,
    /// Bounded code: a static limit (size, nodes, call sites) is exceeded.
    #[serde(rename = "code.limit")]
    CodeLimit,
    /// A resume answer does not fit the step it was given to.
    #[serde(rename = "protocol.invalid_resume")]
    ProtocolInvalidResume,
    /// The runtime was entered while its state was borrowed (a host callback
    /// re-entered at a point where that is not possible); nothing was changed.
    #[serde(rename = "runtime.busy")]
    RuntimeBusy,
    /// The WebAssembly instance trapped earlier; every later call fails with this.
    #[serde(rename = "runtime.failed")]
    RuntimeFailed,
    /// Too little JavaScript stack was left to enter the runtime safely; nothing was changed.
    #[serde(rename = "runtime.stack_exhausted")]
    RuntimeStackExhausted,
}

impl ErrorCode {
    /// The stable dotted code, e.g. `handle.stale`.
    pub fn as_str(self) -> &'static str {
        match self {
            ErrorCode::DescriptorInvalid => "descriptor.invalid",
            ErrorCode::DescriptorInvalidName => "descriptor.invalid_name",
            ErrorCode::DescriptorReservedName => "descriptor.reserved_name",
            ErrorCode::DescriptorDuplicateName => "descriptor.duplicate_name",
            ErrorCode::DescriptorAliasCollision => "descriptor.alias_collision",
            ErrorCode::DescriptorInvalidSchema => "descriptor.invalid_schema",
            ErrorCode::DescriptorUnknownSource => "descriptor.unknown_source",
            ErrorCode::CatalogMalformed => "catalog.malformed",
            ErrorCode::ToolUnknown => "tool.unknown",
            ErrorCode::ProviderUnknown => "provider.unknown",
            ErrorCode::HandleForged => "handle.forged",
            ErrorCode::HandleStale => "handle.stale",
            ErrorCode::SessionUnknown => "session.unknown",
            ErrorCode::SessionInvalidOptions => "session.invalid_options",
            ErrorCode::PolicyMalformed => "policy.malformed",
            ErrorCode::InputInvalid => "input.invalid",
            ErrorCode::EmbeddingsMismatch => "input.embeddings_mismatch",
            ErrorCode::ConfigInvalid => "config.invalid",
            ErrorCode::CodeSyntax => "code.syntax",
            ErrorCode::CodeForbidden => "code.forbidden",
            ErrorCode::CodeLimit => "code.limit",
            ErrorCode::ProtocolInvalidResume => "protocol.invalid_resume",
            ErrorCode::RuntimeBusy => "runtime.busy",
            ErrorCode::RuntimeFailed => "runtime.failed",
            ErrorCode::RuntimeStackExhausted => "runtime.stack_exhausted",
        }
    }
}

impl fmt::Display for ErrorCode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

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
