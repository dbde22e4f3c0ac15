//! Compile: size check, token guard, parse, then check the AST into a [`Program`].
//!
//! Nothing here evaluates anything: the parser only builds a syntax tree and
//! the checker ([`crate::code::check`]) keeps the few shapes the language
//! allows. Every rejection is an [`Error`] with a stable code, a message that
//! names the construct or limit, and a 1-based line:column (UTF-16 code
//! units) of where it starts.
//!
//! Order of checks, each stopping at the first problem:
//! 1. **Source size** — more than `maxSourceBytes` UTF-8 bytes is `code.limit`
//!    at the first byte past the limit; nothing is lexed.
//! 2. **Token guard** — more than `4 × maxNodes` significant tokens (every
//!    token except newlines, indentation and end of file; comments are not
//!    tokens) is `code.limit` at the first token past the guard. Accepted
//!    programs use at most three tokens per node (plus any grouping
//!    parentheses and implicitly concatenated string pieces), so this only
//!    turns away programs that could not fit in `maxNodes` anyway, and it
//!    bounds the parser's work and nesting depth before any tree is built.
//!    An f-string token is `code.forbidden` here already: its `{…}` parts
//!    would be parsed as nested expressions the guard cannot see. So is a
//!    named Unicode escape (`\N{…}`), at its backslash: the name table is
//!    not shipped (see `vendor/unicode_names2`).
//!    An unterminated string is `code.syntax` here too, at its opening
//!    quote (or prefix): the lexer only notices it at the end of the line
//!    or input.
//! 3. **Parse** with `rustpython-parser` — a failure is `code.syntax` at the
//!    offset the parser reports.
//! 4. **Check** — one pre-order walk in source order; see
//!    [`crate::code::check`] for what counts as a node.

use super::check::Checker;
use super::limits::CodeLimits;
use super::program::Program;
use crate::error::{line_col_utf16, Error, ErrorCode, Result};
use rustpython_parser::ast;
use rustpython_parser::lexer::LexicalErrorType;
use rustpython_parser::text_size::TextSize;
use rustpython_parser::{lexer, Mode, Parse, StringKind, Tok};

/// The path the parser reports; never shown as a file.
const SOURCE_PATH: &str = "<run_tool_code>";
/// Every handle literal starts with this.
pub const HANDLE_PREFIX: &str = "toolh_";
/// Significant tokens allowed per node by the pre-parse guard.
pub const TOKENS_PER_NODE: u32 = 4;
/// Longest piece of parser text quoted in a syntax error.
const MAX_QUOTED: usize = 120;
/// What every rejection suggests next.
pub(crate) const NEXT: &str = "rewrite the program as lines `name = call(\"toolh_…\", {...})` or `call(\"toolh_…\", {...})` using only literals and earlier names";

/// Check `source` against `limits` (capped at [`CodeLimits::MAX`]) and build the program.
pub fn compile(source: &str, limits: &CodeLimits) -> Result<Program> {
    let limits = limits.clamped();
    let max_bytes = limits.max_source_bytes as usize;
    if source.len() > max_bytes {
        let mut at = max_bytes;
        while at > 0 && !source.is_char_boundary(at) {
            at -= 1;
        }
        let msg = format!(
            "source size: the program is {} bytes; the limit is {} bytes",
            source.len(),
            max_bytes
        );
        return Err(located(ErrorCode::CodeLimit, msg, source, at));
    }
    token_guard(source, &limits)?;
    let suite = ast::Suite::parse(source, SOURCE_PATH).map_err(|e| {
        let mut msg = e.error.to_string();
        if msg.chars().count() > MAX_QUOTED {
            msg = msg.chars().take(MAX_QUOTED).collect::<String>() + "…";
        }
        let at = usize::try_from(u32::from(e.offset)).unwrap_or(usize::MAX);
        located(
            ErrorCode::CodeSyntax,
            format!("syntax error: {msg}"),
            source,
            at,
        )
    })?;
    Checker::new(source, limits).program(&suite)
}

/// Step 2: bound the token count before the parser builds any tree.
fn token_guard(source: &str, limits: &CodeLimits) -> Result<()> {
    let max = limits.max_nodes.saturating_mul(TOKENS_PER_NODE);
    let mut count = 0u32;
    let mut last_end = 0usize;
    for item in lexer::lex(source, Mode::Module) {
        // A lexical error is reported by the parser, at its own position,
        // except an unterminated string: the lexer only notices it at the
        // end of the line or input, so point at where the string starts.
        let (tok, range) = match item {
            Ok(item) => item,
            Err(e) => match unterminated_string(source, last_end, &e.error) {
                Some(at) => {
                    let msg = "syntax error: unterminated string literal (it starts here and is never closed)".to_string();
                    return Err(located(ErrorCode::CodeSyntax, msg, source, at));
                }
                None => break,
            },
        };
        last_end = offset(range.end());
        // Comments and non-logical newlines never reach here (no `full-lexer`).
        if matches!(
            tok,
            Tok::Newline | Tok::Indent | Tok::Dedent | Tok::EndOfFile
        ) {
            continue;
        }
        // An f-string's `{…}` parts are parsed as nested expressions inside
        // this one token, out of the guard's sight: refuse it here.
        if let Tok::String {
            kind,
            triple_quoted,
            ..
        } = &tok
        {
            let start = offset(range.start());
            if let Some(at) = named_escape(source, start, offset(range.end()), kind, *triple_quoted)
            {
                let msg = "named Unicode escape `\\N{…}` is not allowed in bounded code: write the character itself or use a `\\u`/`\\U` escape"
                    .to_string();
                return Err(located(ErrorCode::CodeForbidden, msg, source, at));
            }
            if kind.is_any_fstring() {
                let msg = "f-string is not allowed in bounded code: use a plain string literal"
                    .to_string();
                return Err(located(
                    ErrorCode::CodeForbidden,
                    msg,
                    source,
                    offset(range.start()),
                ));
            }
        }
        count += 1;
        if count > max {
            let msg = format!(
                "syntax nodes: the program has more than {max} tokens, so it cannot fit in {} syntax nodes",
                limits.max_nodes
            );
            return Err(located(
                ErrorCode::CodeLimit,
                msg,
                source,
                offset(range.start()),
            ));
        }
    }
    Ok(())
}

/// Where an unterminated string starts, when `error` is one: the first
/// token start after `from` (the end of the last good token), if a string
/// literal (optional prefix, then a quote) begins there.
fn unterminated_string(source: &str, from: usize, error: &LexicalErrorType) -> Option<usize> {
    let string_error = match error {
        LexicalErrorType::StringError | LexicalErrorType::Eof => true,
        LexicalErrorType::OtherError(m) => m.starts_with("EOL while scanning string"),
        _ => false,
    };
    if !string_error {
        return None;
    }
    let bytes = source.as_bytes();
    let mut i = from;
    while let Some(&b) = bytes.get(i) {
        match b {
            b' ' | b'\t' | b'\x0c' | b'\r' | b'\n' => i += 1,
            b'\\' => i += 1, // a line continuation
            b'#' => {
                while bytes.get(i).is_some_and(|&c| c != b'\n') {
                    i += 1;
                }
            }
            _ => break,
        }
    }
    let prefix = bytes
        .get(i..)?
        .iter()
        .take_while(|c| matches!(c, b'r' | b'R' | b'b' | b'B' | b'u' | b'U' | b'f' | b'F'))
        .count();
    (prefix <= 2 && matches!(bytes.get(i + prefix), Some(b'"' | b'\''))).then_some(i)
}

/// Byte offset of the first `\N{…}` escape in the string token at `start..end`, if any.
///
/// Named escapes are refused rather than resolved: the Unicode name table
/// would add about half a megabyte to the wasm, and `\u`/`\U` say the same.
/// Raw strings and bytes have no named escapes; `\\N` is an escaped
/// backslash followed by `N`. The scan reads the token's own source text, so
/// the offset is exact whatever newline convention the source uses.
fn named_escape(
    source: &str,
    start: usize,
    end: usize,
    kind: &StringKind,
    triple_quoted: bool,
) -> Option<usize> {
    if kind.is_raw() || kind.is_any_bytes() {
        return None;
    }
    let quotes = if triple_quoted { 3 } else { 1 };
    let body = start + offset(kind.prefix_len()) + quotes;
    let bytes = source.as_bytes().get(body..end)?;
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'\\' {
            if bytes.get(i + 1) == Some(&b'N') {
                return Some(body + i);
            }
            // Skip the escaped byte; continuation bytes are never `\\` or `N`.
            i += 2;
        } else {
            i += 1;
        }
    }
    None
}

pub(crate) fn offset(at: TextSize) -> usize {
    usize::try_from(u32::from(at)).unwrap_or(usize::MAX)
}

/// An error at a byte offset of `source`.
pub(crate) fn located(code: ErrorCode, message: String, source: &str, at: usize) -> Error {
    let (line, col) = line_col_utf16(source, at);
    Error::new(code, message)
        .with_position(line, col)
        .with_next_action(NEXT)
}
