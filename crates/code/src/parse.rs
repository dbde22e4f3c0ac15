//! Compile: size check, token guard, parse, then check the AST into a [`Program`].
//!
//! Nothing here evaluates anything: the parser only builds a syntax tree and
//! the checker (`check.rs`) keeps the few shapes the language
//! allows. Every rejection is an [`Error`](holaryn_model::Error) with a stable code, a message that
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
//!    would be parsed as nested expressions the guard cannot see. String
//!    escapes are checked here, at their backslash (`code/escapes.rs`:
//!    bad `\x`/`\u`/`\U` digits, named escapes, lone surrogates).
//!    An unterminated string is `code.syntax` here too, at its opening
//!    quote (or prefix): the lexer only notices it at the end of the line
//!    or input. Any other lexical error is remembered at its exact offset
//!    (the lexer reports most one character past the culprit, a bad number
//!    at its end, an indentation error after the indentation).
//! 3. **Parse** with `rustpython-parser` (escaped surrogate pairs joined
//!    first, offsets unchanged) — a failure is `code.syntax` at the offset
//!    the parser reports, or for a lexical error the guard's exact one.
//! 4. **Check** — one pre-order walk in source order; see
//!    `check.rs` for what counts as a node.

use crate::check::Checker;
use crate::escapes;
use crate::limits::{check_source_size, CodeLimits};
use crate::located::{located, offset};
use crate::program::Program;
use holaryn_model::{ErrorCode, Result};
use rustpython_parser::ast;
use rustpython_parser::lexer::LexicalErrorType;
use rustpython_parser::ParseErrorType;
use rustpython_parser::{lexer, Mode, Parse, Tok};

/// The path the parser reports; never shown as a file.
const SOURCE_PATH: &str = "<run_tool_code>";
/// Significant tokens allowed per node by the pre-parse guard.
pub const TOKENS_PER_NODE: u32 = 4;
/// Longest piece of parser text quoted in a syntax error.
const MAX_QUOTED: usize = 120;

/// Check `source` against `limits` (capped at [`CodeLimits::MAX`]) and build the program.
pub fn compile(source: &str, limits: &CodeLimits) -> Result<Program> {
    let limits = limits.clamped();
    check_source_size(source, &limits)?;
    let guard = token_guard(source, &limits)?;
    let joined = escapes::join_pairs(source, &guard.pairs);
    let suite = ast::Suite::parse(&joined, SOURCE_PATH).map_err(|e| {
        let mut msg = e.error.to_string();
        let mut at = offset(e.offset);
        if let ParseErrorType::Lexical(kind) = &e.error {
            // The lexer's own offsets are often one past the character;
            // the guard saw the same error first and knows where it is.
            match (&guard.lexical, kind) {
                (Some((guard_at, _)), _) => at = *guard_at,
                (None, LexicalErrorType::UnicodeError) => {
                    at = source.get(..at).and_then(|h| h.rfind('\\')).unwrap_or(at);
                }
                _ => {}
            }
            if let Some((_, m)) = &guard.lexical {
                msg.clone_from(m);
            }
        }
        if msg.chars().count() > MAX_QUOTED {
            msg = msg.chars().take(MAX_QUOTED).collect::<String>() + "…";
        }
        located(
            ErrorCode::CodeSyntax,
            format!("syntax error: {msg}"),
            source,
            at,
        )
    })?;
    Checker::new(source, limits).program(&suite)
}

/// What the token guard learned on the way.
struct Guard {
    /// Escaped surrogate pairs to join before parsing.
    pairs: Vec<escapes::Pair>,
    /// The first lexical error, at its exact offset, with its message.
    lexical: Option<(usize, String)>,
}

/// Step 2: bound the token count before the parser builds any tree.
fn token_guard(source: &str, limits: &CodeLimits) -> Result<Guard> {
    let max = limits.max_nodes.saturating_mul(TOKENS_PER_NODE);
    let mut count = 0u32;
    let mut last_end = 0usize;
    let mut guard = Guard {
        pairs: Vec::new(),
        lexical: None,
    };
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
                None => {
                    // Reported when the parser reaches it (an earlier
                    // syntax error comes first), at this exact offset.
                    guard.lexical = Some(lexical_error_at(source, &e));
                    break;
                }
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
            let token = escapes::Token {
                end: offset(range.end()),
                body: start + offset(kind.prefix_len()) + if *triple_quoted { 3 } else { 1 },
                raw: kind.is_raw(),
                bytes: kind.is_any_bytes(),
            };
            escapes::check(source, &token, &mut guard.pairs)?;
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
    Ok(guard)
}

/// The exact offset and the message of a lexical error: the lexer reports
/// most of them one character past the culprit (or at the end of a number).
fn lexical_error_at(source: &str, e: &lexer::LexicalError) -> (usize, String) {
    let at = offset(e.location);
    let back = |n: usize| at.saturating_sub(n);
    let line_start = source
        .get(..at)
        .and_then(|h| h.rfind(['\n', '\r']))
        .map_or(0, |i| i + 1);
    let number_start = || {
        let head = source.get(..at).unwrap_or("");
        let len = head
            .bytes()
            .rev()
            .take_while(|c| c.is_ascii_alphanumeric() || matches!(c, b'_' | b'.'))
            .count();
        at - len
    };
    let pos = match &e.error {
        LexicalErrorType::UnrecognizedToken { tok } => {
            if source.get(at..).is_some_and(|r| r.starts_with(*tok)) {
                at
            } else {
                back(tok.len_utf8())
            }
        }
        LexicalErrorType::NestingError | LexicalErrorType::LineContinuationError => back(1),
        LexicalErrorType::IndentationError
        | LexicalErrorType::TabError
        | LexicalErrorType::TabsAfterSpaces => line_start,
        LexicalErrorType::OtherError(m) if m == "Invalid Syntax" => at + 1,
        LexicalErrorType::OtherError(m)
            if m == "Invalid Token" || m.starts_with("Invalid decimal") =>
        {
            number_start()
        }
        _ => at,
    };
    let message = match &e.error {
        LexicalErrorType::OtherError(m) if m == "Invalid Token" => {
            "leading zeros are not allowed in a decimal integer literal".to_string()
        }
        LexicalErrorType::OtherError(m) if m.starts_with("ParseBigIntError") => {
            "invalid number literal".to_string()
        }
        other => other.to_string(),
    };
    (pos.min(source.len()), message)
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
                while bytes.get(i).is_some_and(|&c| c != b'\n' && c != b'\r') {
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
