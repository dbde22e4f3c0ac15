//! ECMA-262 regular expressions as JSON Schema's `pattern`,
//! `patternProperties` and format `regex` use them: no flags, an unanchored
//! search, Unicode mode (`new RegExp(source, "u")`, which is what the
//! JSON Schema Test Suite's optional ECMA-262 tests expect: code points, not
//! UTF-16 units; `\p{…}`; strict escapes, widened as jsonschema's dialect is:
//! a backslash before a character that is not alphanumeric means that
//! character). `\d` `\w` `\b` are ASCII, `\s` and `.` follow ECMA-262's line
//! terminators and white space.
//!
//! A small backtracking engine (`parse` → `compile` → `matcher`) with a step
//! budget proportional to the input: a pattern that would backtrack without
//! end (`(a+)+$`) gives [`PatternError::Exhausted`]: the caller refuses the
//! value ([`Pattern::is_match`] says no match, which refuses a `pattern`; a
//! `patternProperties` key must use [`Pattern::matches`], since there no match
//! would let the property through unchecked).
//! Unicode property data (`tables.rs`) is generated from node's own RegExp.

#![forbid(unsafe_code)]
#![warn(missing_docs)]
#![warn(unreachable_pub)]

mod class;
mod compile;
mod matcher;
mod parse;
mod tables;

use std::fmt;

/// An ECMA-262 regular expression as JSON Schema's `pattern` uses it (no flags, unanchored search).
#[derive(Debug, Clone)]
pub struct Pattern {
    program: matcher::Program,
}

/// Why a match could not be decided.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PatternError {
    /// The pattern backtracked past its step budget on this input.
    Exhausted,
}

impl fmt::Display for PatternError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("the pattern needs too many steps to decide on this input")
    }
}

impl Pattern {
    /// Compile `source`; `Err` says why it does not compile.
    pub fn new(source: &str) -> Result<Pattern, String> {
        let parsed = parse::parse(source)?;
        Ok(Pattern {
            program: compile::compile(parsed),
        })
    }

    /// Whether the pattern matches somewhere in `haystack`; `false` when undecided, which
    /// refuses the value only where no match means refusal (`pattern`). Where a match
    /// *adds* constraints (`patternProperties` keys), call [`Pattern::matches`] and refuse on `Err`.
    pub fn is_match(&self, haystack: &str) -> bool {
        self.matches(haystack).unwrap_or(false)
    }

    /// Whether the pattern matches somewhere in `haystack`, or that the budget ran out.
    pub fn matches(&self, haystack: &str) -> Result<bool, PatternError> {
        matcher::search(&self.program, haystack)
            .map_err(|matcher::Exhausted| PatternError::Exhausted)
    }
}
