//! Argument fit: which [`Kind`]s of entity a tool's parameters can take,
//! read once per tool at index time from its input schema (property names,
//! `type`, `format`, descriptions), so a request carrying a URL ranks the
//! tools that take a URL higher and `why` says "takes a URL".

use super::entities::{Kind, Kinds};
use super::text::words;
use crate::descriptor::ToolDescriptor;
use serde_json::Value;

/// Words of a property name (or short description) that mark a kind.
const NAME_WORDS: &[(Kind, &[&str])] = &[
    (
        Kind::Url,
        &[
            "url", "uri", "urls", "link", "href", "website", "webpage", "endpoint",
        ],
    ),
    (
        Kind::Path,
        &[
            "path",
            "paths",
            "file",
            "filename",
            "filepath",
            "dir",
            "directory",
            "folder",
            "glob",
        ],
    ),
    (
        Kind::Email,
        &["email", "emails", "recipient", "recipients", "cc", "bcc"],
    ),
    (
        Kind::Coords,
        &[
            "lat",
            "latitude",
            "lng",
            "lon",
            "longitude",
            "coordinates",
            "coordinate",
            "coords",
        ],
    ),
    (
        Kind::Date,
        &[
            "date",
            "time",
            "datetime",
            "timestamp",
            "since",
            "until",
            "due",
            "deadline",
            "start",
            "end",
            "before",
            "after",
        ],
    ),
    (Kind::TimeZone, &["timezone", "tz", "zone"]),
    (
        Kind::Quantity,
        &[
            "radius", "distance", "duration", "width", "height", "size", "weight", "amount",
        ],
    ),
    (
        Kind::Money,
        &["amount", "price", "currency", "cost", "cents", "total"],
    ),
    (Kind::Repo, &["repo", "repository", "repositories", "owner"]),
    (
        Kind::Issue,
        &[
            "issue", "ticket", "pull", "pr", "story", "incident", "iid", "key",
        ],
    ),
    (Kind::Sql, &["sql", "statement"]),
    (
        Kind::Code,
        &[
            "code",
            "symbol",
            "function",
            "identifier",
            "class",
            "method",
            "snippet",
            "expression",
        ],
    ),
    (Kind::Sha, &["sha", "commit", "revision", "hash", "ref"]),
];

/// Number-typed parameters that page or bound a result are not "numbers".
const PAGING: &[&str] = &[
    "limit", "page", "offset", "per", "max", "count", "size", "top", "skip", "timeout", "depth",
    "first", "last", "cursor", "index", "id", "port", "version", "number", "line", "lines",
];

fn format_kinds(format: &str) -> Kinds {
    match format {
        "uri" | "url" | "iri" | "uri-reference" | "iri-reference" => Kind::Url.bit(),
        "email" | "idn-email" => Kind::Email.bit(),
        "date" | "date-time" | "time" | "duration" => Kind::Date.bit(),
        _ => 0,
    }
}

fn description_kinds(d: &str) -> Kinds {
    let d = d.to_ascii_lowercase();
    let mut k = 0;
    for (kind, needles) in [
        (Kind::Url, &["url", "uri"][..]),
        (Kind::Email, &["email address"][..]),
        (
            Kind::Path,
            &["file path", "path to", "absolute path", "glob"][..],
        ),
        (
            Kind::Date,
            &["iso 8601", "iso8601", "yyyy-mm-dd", "date"][..],
        ),
        (Kind::TimeZone, &["iana", "timezone", "time zone"][..]),
        (Kind::Coords, &["latitude", "longitude", "coordinates"][..]),
        (Kind::Sql, &["sql"][..]),
        (
            Kind::Money,
            &["currency", "smallest currency unit", "cents"][..],
        ),
        (Kind::Sha, &["commit sha", "sha"][..]),
        (Kind::Repo, &["owner/repo", "repository name"][..]),
    ] {
        if needles.iter().any(|n| d.contains(n)) {
            k |= kind.bit();
        }
    }
    k
}

fn property_kinds(name: &str, schema: &Value) -> Kinds {
    let mut k = 0;
    let ws = words(name);
    for (kind, marks) in NAME_WORDS {
        if ws.iter().any(|w| marks.contains(&w.as_str())) {
            k |= kind.bit();
        }
    }
    if let Some(f) = schema.get("format").and_then(Value::as_str) {
        k |= format_kinds(f);
    }
    if let Some(d) = schema.get("description").and_then(Value::as_str) {
        let head: String = d.chars().take(200).collect();
        k |= description_kinds(&head);
    }
    let ty = schema.get("type");
    let numeric = ty.is_some_and(|t| {
        t.as_str().is_some_and(|s| s == "number" || s == "integer")
            || t.as_array().is_some_and(|a| {
                a.iter()
                    .any(|s| s.as_str().is_some_and(|s| s == "number" || s == "integer"))
            })
    });
    if numeric && !ws.iter().any(|w| PAGING.contains(&w.as_str())) {
        k |= Kind::Number.bit();
    }
    // A free-text search box takes anything: it is no evidence of fit.
    if ws.iter().any(|w| w == "query" || w == "q") && k & Kind::Sql.bit() == 0 {
        k &= Kind::Sql.bit();
    }
    k
}

fn walk(schema: &Value, depth: usize, budget: &mut usize, out: &mut Kinds) {
    let Some(props) = schema.get("properties").and_then(Value::as_object) else {
        return;
    };
    for (name, sub) in props {
        if *budget == 0 {
            return;
        }
        *budget -= 1;
        *out |= property_kinds(name, sub);
        if depth < 2 {
            walk(sub, depth + 1, budget, out);
            if let Some(items) = sub.get("items") {
                walk(items, depth + 1, budget, out);
            }
        }
    }
}

/// The kinds of entity a tool's parameters take (computed once per tool).
pub fn param_kinds(tool: &ToolDescriptor) -> Kinds {
    let mut k = 0;
    walk(&tool.input_schema, 0, &mut 64, &mut k);
    k
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn kinds(schema: Value) -> Kinds {
        let mut k = 0;
        walk(&schema, 0, &mut 64, &mut k);
        k
    }

    #[test]
    fn reads_names_formats_and_descriptions() {
        let url = kinds(json!({"properties": {"url": {"type": "string"}}}));
        assert_eq!(url, Kind::Url.bit());
        let email = kinds(json!({"properties": {"to": {"type": "string", "format": "email"}}}));
        assert_eq!(email, Kind::Email.bit());
        let when = kinds(json!({"properties": {"startDateTime": {"type": "string"}}}));
        assert_ne!(when & Kind::Date.bit(), 0);
        let tz = kinds(json!({"properties": {"source": {"type": "string",
            "description": "IANA timezone name, e.g. Europe/London"}}}));
        assert_ne!(tz & Kind::TimeZone.bit(), 0);
        let sum = kinds(json!({"properties": {"a": {"type": "number"}, "b": {"type": "number"}}}));
        assert_eq!(sum, Kind::Number.bit());
        let paged = kinds(json!({"properties": {"limit": {"type": "integer"}}}));
        assert_eq!(paged, 0);
        let search = kinds(json!({"properties": {"query": {"type": "string",
            "description": "Search terms, e.g. a URL"}}}));
        assert_eq!(search, 0);
    }
}
