//! `{allow, deny}` rule sets and the project policy file, validated with the
//! jsonschema crate against `schemas/tool-policy.schema.json`.

use super::pattern::Pattern;
use crate::error::{line_col_utf16, Error, ErrorCode, Result};
use serde_json::Value;

/// The shipped policy schema.
pub const POLICY_SCHEMA: &str = include_str!("../../../schemas/tool-policy.schema.json");

/// One scope's rules.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Rules {
    /// `None`: every otherwise permitted tool; `Some([])`: none.
    pub allow: Option<Vec<Pattern>>,
    /// Denied entries; deny wins.
    pub deny: Vec<Pattern>,
}

fn malformed(file: Option<&str>, pointer: &str, message: String) -> Error {
    let mut e = Error::new(ErrorCode::PolicyMalformed, message).with_pointer(pointer);
    if let Some(f) = file {
        e = e.with_file(f);
    }
    e
}

fn schema_check(value: &Value, file: Option<&str>) -> Result<()> {
    let schema: Value = serde_json::from_str(POLICY_SCHEMA).map_err(|e| {
        malformed(
            file,
            "",
            format!("the shipped policy schema is broken: {e}"),
        )
    })?;
    let validator = jsonschema::validator_for(&schema).map_err(|e| {
        malformed(
            file,
            "",
            format!("the shipped policy schema is broken: {e}"),
        )
    })?;
    if let Some(err) = validator.iter_errors(value).next() {
        let mut pointer = err.instance_path().to_string();
        if let jsonschema::error::ValidationErrorKind::AdditionalProperties { unexpected } =
            err.kind()
        {
            if let Some(key) = unexpected.first() {
                pointer = format!("{pointer}/{}", key.replace('~', "~0").replace('/', "~1"));
                return Err(malformed(
                    file,
                    &pointer,
                    format!("unknown key `{key}` (allowed: allow, deny, $schema)"),
                ));
            }
        }
        let message = match value.pointer(&pointer) {
            Some(Value::String(s))
                if pointer.starts_with("/allow/") || pointer.starts_with("/deny/") =>
            {
                match Pattern::parse(s) {
                    Err(why) => why,
                    Ok(_) => err.to_string(),
                }
            }
            _ => err.to_string(),
        };
        return Err(malformed(file, &pointer, message));
    }
    Ok(())
}

impl Rules {
    /// Validate and parse `{allow?, deny?}`; `file` names the source in errors.
    pub fn from_value(value: &Value, file: Option<&str>) -> Result<Rules> {
        schema_check(value, file)?;
        let list = |key: &str| -> Result<Option<Vec<Pattern>>> {
            let Some(items) = value.get(key).and_then(Value::as_array) else {
                return Ok(None);
            };
            items
                .iter()
                .enumerate()
                .map(|(i, v)| {
                    let text = v.as_str().unwrap_or_default();
                    Pattern::parse(text).map_err(|m| malformed(file, &format!("/{key}/{i}"), m))
                })
                .collect::<Result<Vec<_>>>()
                .map(Some)
        };
        Ok(Rules {
            allow: list("allow")?,
            deny: list("deny")?.unwrap_or_default(),
        })
    }
}

/// Parse and validate the project policy file (`path` for messages, `text` as read).
pub fn parse_policy_file(path: &str, text: &str) -> Result<Rules> {
    let value: Value = serde_json::from_str(text).map_err(|e| {
        let offset = byte_offset(text, e.line(), e.column());
        let (line, col) = line_col_utf16(text, offset);
        Error::new(ErrorCode::PolicyMalformed, format!("invalid JSON: {e}"))
            .with_file(path)
            .with_position(line, col)
    })?;
    Rules::from_value(&value, Some(path))
}

fn byte_offset(text: &str, line: usize, column: usize) -> usize {
    let mut offset = 0;
    for (i, l) in text.split_inclusive('\n').enumerate() {
        if i + 1 == line {
            offset += column.saturating_sub(1).min(l.len());
            break;
        }
        offset += l.len();
    }
    while offset > 0 && !text.is_char_boundary(offset) {
        offset -= 1;
    }
    offset
}
