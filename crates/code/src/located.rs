//! Located compile errors: the one constructor every compile-time refusal
//! uses (size, token guard, escapes, syntax, checker), and the parser's
//! offsets as byte offsets.
//!
//! A leaf: it imports nothing from this crate, so `limits`, `escapes`,
//! `check` and `parse` can all build on it without importing each other.

use holaryn_model::{line_col_utf16, Error, ErrorCode};

/// What every rejection suggests next.
const NEXT: &str = "rewrite the program as lines `name = call(\"toolh_…\", {...})` or `call(\"toolh_…\", {...})` using only literals and earlier names";

/// An error at a byte offset of `source`.
pub(crate) fn located(code: ErrorCode, message: String, source: &str, at: usize) -> Error {
    let (line, col) = line_col_utf16(source, at);
    Error::new(code, message)
        .with_position(line, col)
        .with_next_action(NEXT)
}

/// A parser offset as a byte offset into the source.
#[cfg(feature = "parser")]
pub(crate) fn offset(at: rustpython_parser::text_size::TextSize) -> usize {
    usize::try_from(u32::from(at)).unwrap_or(usize::MAX)
}
