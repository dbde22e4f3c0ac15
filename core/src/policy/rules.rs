//! `{allow, deny}` rule sets and the project policy file.
//!
//! Host session rules and the project file share one shape and one check:
//! the value is validated with our validator (`holaryn_jsonschema`) against the schema that
//! ships in the repo (`schemas/tool-policy.schema.json`), then every entry is
//! parsed by [`Pattern::parse`]. The schema's `pattern` and the parser
//! describe the same grammar; the parser's wording is preferred in messages.
//! Every failure is `policy.malformed` with the file (when there is one), the
//! JSON pointer of the offending value, or — for a JSON syntax error — a
//! 1-based line and UTF-16 column.

use super::pattern::Pattern;
use holaryn_jsonschema::{ErrorKind as ValidationErrorKind, Validator};
use holaryn_model::escape_token;
use holaryn_model::{Error, ErrorCode, Result};
use serde::Serialize;
use serde_json::Value;
use std::sync::OnceLock;

/// The shipped policy schema (`schemas/tool-policy.schema.json`).
pub const POLICY_SCHEMA: &str = include_str!("../../../schemas/tool-policy.schema.json");

/// One scope's rules: deny wins; `allow: None` permits all, `Some([])` none.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct Rules {
    /// `None`: every otherwise permitted tool; `Some([])`: none.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub allow: Option<Vec<Pattern>>,
    /// Denied entries; deny wins over allow.
    pub deny: Vec<Pattern>,
}

fn malformed(file: Option<&str>, message: String) -> Error {
    let e = Error::new(ErrorCode::PolicyMalformed, message)
        .with_next_action("fix the policy; the grammar is in schemas/tool-policy.schema.json");
    match file {
        Some(f) => e.with_file(f),
        None => e,
    }
}

fn validator() -> std::result::Result<&'static Validator, String> {
    static VALIDATOR: OnceLock<std::result::Result<Validator, String>> = OnceLock::new();
    VALIDATOR
        .get_or_init(|| {
            let schema: Value = serde_json::from_str(POLICY_SCHEMA).map_err(|e| e.to_string())?;
            holaryn_jsonschema::validator_for(&schema).map_err(|e| e.to_string())
        })
        .as_ref()
        .map_err(|e| format!("the shipped policy schema is broken: {e}"))
}

use crate::validate::kind_of;

/// Validate `value` against the shipped schema; the first error, located.
fn schema_check(value: &Value, file: Option<&str>) -> Result<()> {
    let validator = validator().map_err(|m| malformed(file, m))?;
    let Some(err) = validator.iter_errors(value).next() else {
        return Ok(());
    };
    let pointer = err.instance_path().to_string();
    let located = |e: Error, p: &str| e.with_pointer(p);
    if let ValidationErrorKind::AdditionalProperties { unexpected } = err.kind() {
        if let Some(key) = unexpected.first() {
            let p = format!("{pointer}/{}", escape_token(key));
            let m = format!("unknown key `{key}` (allowed: allow, deny, $schema)");
            return Err(located(malformed(file, m), &p));
        }
    }
    let target = value.pointer(&pointer);
    let message = match (target, err.kind()) {
        (Some(Value::String(s)), _) if is_entry_pointer(&pointer) => match Pattern::parse(s) {
            Err(why) => why,
            Ok(_) => err.to_string(),
        },
        (Some(v), ValidationErrorKind::Type) if pointer.is_empty() => {
            format!("the policy must be a JSON object, not {}", kind_of(v))
        }
        (Some(v), ValidationErrorKind::Type) if is_list_pointer(&pointer) => {
            format!(
                "`{}` must be an array of entries, not {}",
                &pointer[1..],
                kind_of(v)
            )
        }
        (Some(v), ValidationErrorKind::Type) if is_entry_pointer(&pointer) => {
            format!("an entry must be a string, not {}", kind_of(v))
        }
        _ => err.to_string(),
    };
    Err(located(malformed(file, message), &pointer))
}

fn is_list_pointer(p: &str) -> bool {
    p == "/allow" || p == "/deny"
}

fn is_entry_pointer(p: &str) -> bool {
    let tail = p
        .strip_prefix("/allow/")
        .or_else(|| p.strip_prefix("/deny/"));
    tail.is_some_and(|t| !t.is_empty() && t.bytes().all(|b| b.is_ascii_digit()))
}

impl Rules {
    /// Validate and parse `{allow?, deny?}` (plus an ignored `$schema`);
    /// `file` names the source in errors.
    pub fn from_value(value: &Value, file: Option<&str>) -> Result<Rules> {
        schema_check(value, file)?;
        let list = |key: &str| -> Result<Option<Vec<Pattern>>> {
            let Some(items) = value.get(key) else {
                return Ok(None);
            };
            let Some(items) = items.as_array() else {
                let m = format!("`{key}` must be an array of entries");
                return Err(malformed(file, m).with_pointer(format!("/{key}")));
            };
            let parse = |(i, v): (usize, &Value)| {
                let located = |m: String| malformed(file, m).with_pointer(format!("/{key}/{i}"));
                match v.as_str() {
                    Some(text) => Pattern::parse(text).map_err(located),
                    None => Err(located("an entry must be a string".into())),
                }
            };
            items
                .iter()
                .enumerate()
                .map(parse)
                .collect::<Result<_>>()
                .map(Some)
        };
        Ok(Rules {
            allow: list("allow")?,
            deny: list("deny")?.unwrap_or_default(),
        })
    }

    /// True when these rules can narrow nothing (no allow list, no deny).
    pub fn is_empty(&self) -> bool {
        self.allow.is_none() && self.deny.is_empty()
    }
}

/// Parse a bare list of entries (e.g. a profile's `allowed_tools`); an error
/// is `policy.malformed` pointing at `/<index>`.
pub fn parse_patterns<S: AsRef<str>>(entries: &[S]) -> Result<Vec<Pattern>> {
    entries
        .iter()
        .enumerate()
        .map(|(i, s)| {
            Pattern::parse(s.as_ref()).map_err(|m| malformed(None, m).with_pointer(format!("/{i}")))
        })
        .collect()
}

/// Parse and validate the project policy file (`path` for messages, `text`
/// as read). A leading byte-order mark is ignored.
pub fn parse_policy_file(path: &str, text: &str) -> Result<Rules> {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let value: Value = serde_json::from_str(text).map_err(|e| syntax_error(path, text, &e))?;
    Rules::from_value(&value, Some(path))
}

/// A JSON syntax error at its 1-based line and UTF-16 column
/// ([`crate::json_text::syntax_error`]).
fn syntax_error(path: &str, text: &str, e: &serde_json::Error) -> Error {
    let (what, line, column) = crate::json_text::syntax_error(text, e);
    malformed(Some(path), format!("invalid JSON: {what}")).with_position(line, column)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn byte_columns_become_utf16_columns() {
        // `ü` is 2 bytes / 1 unit, `😀` is 4 bytes / 2 units.
        let text = "{\"deny\": [\"ü😀\" 1]}";
        let err = parse_policy_file("p.json", text).expect_err("syntax");
        assert_eq!((err.line, err.column), (Some(1), Some(17)));
        assert!(!err.message.contains("column"), "{}", err.message);
    }

    #[test]
    fn entry_pointers_are_recognised() {
        assert!(is_entry_pointer("/deny/0") && is_entry_pointer("/allow/12"));
        assert!(!is_entry_pointer("/deny") && !is_entry_pointer("/deny/x"));
    }
}
