//! The five drafts: which one a schema declares with `$schema`, and the
//! number the format checks take. A leaf: every other module may use it.

use serde_json::Value;

/// A JSON Schema draft.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Draft {
    /// Draft 4.
    Draft4,
    /// Draft 6.
    Draft6,
    /// Draft 7.
    Draft7,
    /// Draft 2019-09.
    Draft201909,
    /// Draft 2020-12.
    Draft202012,
}

impl Draft {
    /// The draft a `$schema` URI names (`http` or `https`, with or without `#`).
    pub fn from_uri(uri: &str) -> Option<Draft> {
        let u = uri.trim_end_matches('#');
        let u = u
            .strip_prefix("https://")
            .or_else(|| u.strip_prefix("http://"))?;
        Some(match u {
            "json-schema.org/draft/2020-12/schema" | "json-schema.org/schema" => Draft::Draft202012,
            "json-schema.org/draft/2019-09/schema" => Draft::Draft201909,
            "json-schema.org/draft-07/schema" => Draft::Draft7,
            "json-schema.org/draft-06/schema" => Draft::Draft6,
            "json-schema.org/draft-04/schema" => Draft::Draft4,
            _ => return None,
        })
    }

    /// The draft a schema declares with a known `$schema`, if it does.
    pub fn declared(schema: &Value) -> Option<Draft> {
        schema
            .get("$schema")
            .and_then(Value::as_str)
            .and_then(Draft::from_uri)
    }

    /// The draft of a root schema: 2020-12 without a `$schema` string,
    /// `None` for a `$schema` naming no supported draft.
    pub fn detect(schema: &Value) -> Option<Draft> {
        match schema.get("$schema").and_then(Value::as_str) {
            Some(uri) => Draft::from_uri(uri),
            None => Some(Draft::Draft202012),
        }
    }

    /// The draft's usual name: `draft-04`, `draft-06`, `draft-07`, `2019-09` or `2020-12`.
    pub fn name(self) -> &'static str {
        match self {
            Draft::Draft4 => "draft-04",
            Draft::Draft6 => "draft-06",
            Draft::Draft7 => "draft-07",
            Draft::Draft201909 => "2019-09",
            Draft::Draft202012 => "2020-12",
        }
    }

    /// 4, 6, 7, 2019 or 2020 (as the `format` checks take it).
    pub fn number(self) -> u16 {
        match self {
            Draft::Draft4 => 4,
            Draft::Draft6 => 6,
            Draft::Draft7 => 7,
            Draft::Draft201909 => 2019,
            Draft::Draft202012 => 2020,
        }
    }
}
