//! Argument fit: which [`Kind`]s of entity a tool's parameters can take,
//! read once per tool at index time from its input schema (property names,
//! `type`, `format`, descriptions and the examples they give), so a request
//! carrying a URL ranks the tools that take a URL higher and `why` says
//! "takes a URL". Also read: which kinds two parameters take (`source_timezone`
//! and `target_timezone`, `from` and `to`), and which only number parameters
//! take (an `ENG-982` key does not go into a number).

use super::entities::{detect, quoted, Kind, Kinds};
use super::text::words;
use holaryn_model::ToolDescriptor;
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
    (Kind::Repo, &["repo", "repository", "repositories"]),
    (
        Kind::Issue,
        &["issue", "ticket", "pull", "pr", "story", "incident", "iid"],
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
    (Kind::Channel, &["channel", "channels"]),
    (Kind::Pattern, &["pattern", "regex", "regexp", "glob"]),
    (Kind::Schedule, &["cron", "crontab", "schedule"]),
    (Kind::Paper, &["doi", "paper", "papers", "pmid", "arxiv"]),
    (Kind::Address, &["address"]),
    (Kind::Command, &["command", "cmd", "commandline"]),
    (Kind::Version, &["version"]),
];

/// Name words that make `address` something else than a street address.
const NOT_STREET: &[&str] = &["email", "ip", "mac", "wallet", "mail", "web"];

/// Marks in a description before an example value.
const EXAMPLE_MARKS: &[&str] = &["e.g.", "eg.", "for example", "example:", "such as"];

/// Kinds an example can show that say little (any field takes a number).
const WEAK: Kinds = (1 << Kind::Number as u32) | (1 << Kind::Code as u32);

/// What a tool's parameters take.
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Fit {
    /// Kinds some parameter takes.
    pub kinds: Kinds,
    /// Kinds two top-level parameters or more take.
    pub many: Kinds,
    /// Kinds only number-typed parameters take.
    pub numeric: Kinds,
}

holaryn_model::packed!(Fit {
    kinds,
    many,
    numeric
});

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
        "regex" => Kind::Pattern.bit(),
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
        (Kind::Pattern, &["regular expression", "regex"][..]),
        (Kind::Schedule, &["cron"][..]),
        (Kind::Paper, &["doi", "arxiv", "pmid"][..]),
        (
            Kind::Command,
            &["shell command", "command to run", "command to execute"][..],
        ),
    ] {
        if needles.iter().any(|n| d.contains(n)) {
            k |= kind.bit();
        }
    }
    // "the destination address", not an email, IP or MAC address.
    if d.match_indices("address").any(|(i, _)| {
        !NOT_STREET
            .iter()
            .any(|w| d[..i].trim_end().ends_with(w) || d[..i].trim_end().ends_with("e-mail"))
    }) {
        k |= Kind::Address.bit();
    }
    k
}

/// Kinds of the values a description shows after "e.g.", "such as"… or in
/// quotes (`'America/New_York'`, `"apify/rag-web-browser"`, `ABC-123`).
fn example_kinds(d: &str) -> Kinds {
    let lower = d.to_ascii_lowercase();
    let mut k = 0;
    for mark in EXAMPLE_MARKS {
        let mut from = 0;
        while let Some(i) = lower[from..].find(mark) {
            let start = from + i + mark.len();
            let mut end = lower[start..]
                .find([')', '\n'])
                .map_or(lower.len(), |e| start + e)
                .min(start + 120);
            while !d.is_char_boundary(end) {
                end -= 1;
            }
            k |= detect(&d[start..end]).kinds;
            from = end.max(start);
        }
    }
    for (s, e, _) in quoted(d) {
        k |= detect(&d[s..e]).kinds;
    }
    k & !WEAK
}

/// Kinds a property takes; a top-level one (`top`) also by the examples its
/// description gives (nested ones describe parts of a value, not values).
fn property_kinds(name: &str, schema: &Value, top: bool) -> Kinds {
    let mut k = 0;
    let ws = words(name);
    for (kind, marks) in NAME_WORDS {
        if ws.iter().any(|w| marks.contains(&w.as_str())) {
            k |= kind.bit();
        }
    }
    if ws.iter().any(|w| NOT_STREET.contains(&w.as_str())) {
        k &= !Kind::Address.bit();
    }
    if let Some(f) = schema.get("format").and_then(Value::as_str) {
        k |= format_kinds(f);
    }
    if let Some(d) = schema.get("description").and_then(Value::as_str) {
        let head: String = d.chars().take(200).collect();
        k |= description_kinds(&head);
        if top {
            k |= example_kinds(&head);
        }
    }
    for v in schema
        .get("examples")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .chain(schema.get("default"))
        .filter_map(Value::as_str)
        .take(if top { 4 } else { 0 })
    {
        k |= detect(v).kinds & !WEAK;
    }
    if is_numeric(schema) && !ws.iter().any(|w| PAGING.contains(&w.as_str())) {
        k |= Kind::Number.bit();
    }
    // A free-text search box takes anything: it is no evidence of fit.
    if ws.iter().any(|w| w == "query" || w == "q") && k & Kind::Sql.bit() == 0 {
        k &= Kind::Sql.bit();
    }
    k
}

/// Whether a property's type is a number (or integer).
fn is_numeric(schema: &Value) -> bool {
    schema.get("type").is_some_and(|t| {
        t.as_str().is_some_and(|s| s == "number" || s == "integer")
            || t.as_array().is_some_and(|a| {
                a.iter()
                    .any(|s| s.as_str().is_some_and(|s| s == "number" || s == "integer"))
            })
    })
}

/// Kinds under `schema`'s properties, as (taken by text, taken by numbers).
fn walk(schema: &Value, depth: usize, budget: &mut usize, out: &mut (Kinds, Kinds)) {
    let Some(props) = schema.get("properties").and_then(Value::as_object) else {
        return;
    };
    for (name, sub) in props {
        if *budget == 0 {
            return;
        }
        *budget -= 1;
        prop(name, sub, depth, budget, out);
    }
}

/// One property and what it holds.
fn prop(name: &str, sub: &Value, depth: usize, budget: &mut usize, out: &mut (Kinds, Kinds)) {
    let k = property_kinds(name, sub, depth == 0);
    if is_numeric(sub) {
        out.1 |= k;
    } else {
        out.0 |= k;
    }
    if depth < 2 {
        walk(sub, depth + 1, budget, out);
        if let Some(items) = sub.get("items") {
            walk(items, depth + 1, budget, out);
        }
    }
}

/// What a tool's parameters take (computed once per tool): each top-level
/// property with what it holds; a longitude beside its latitude is one place.
pub(crate) fn param_kinds(tool: &ToolDescriptor) -> Fit {
    schema_kinds(&tool.input_schema)
}

/// [`param_kinds`] of an input schema.
pub(crate) fn schema_kinds(schema: &Value) -> Fit {
    let mut fit = Fit::default();
    let Some(props) = schema.get("properties").and_then(Value::as_object) else {
        return fit;
    };
    let mut budget = 64usize;
    let (mut text, mut num, mut seen) = (0, 0, 0);
    for (name, sub) in props {
        if budget == 0 {
            break;
        }
        budget -= 1;
        let mut here = (0, 0);
        prop(name, sub, 0, &mut budget, &mut here);
        let k = here.0 | here.1;
        let ws = words(name);
        let longitude = ws
            .iter()
            .any(|w| matches!(w.as_str(), "lng" | "lon" | "longitude"));
        let mut counted = k & !(Kind::Number.bit() | Kind::Code.bit());
        if longitude {
            counted &= !Kind::Coords.bit();
        }
        fit.many |= seen & counted;
        seen |= counted;
        fit.kinds |= k;
        text |= here.0;
        num |= here.1;
    }
    fit.numeric = num & !text;
    fit
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn kinds(schema: Value) -> Kinds {
        let mut k = (0, 0);
        walk(&schema, 0, &mut 64, &mut k);
        k.0 | k.1
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

    #[test]
    fn reads_examples_counts_and_number_only_kinds() {
        let key = kinds(json!({"properties": {"id": {"type": "string",
            "description": "The ID or identifier of the issue (e.g., ABC-123)"}}}));
        assert_eq!(key, Kind::Issue.bit());
        let actor = kinds(json!({"properties": {"actor": {"type": "string",
            "description": "Actor name, e.g. \"apify/rag-web-browser\""}}}));
        assert_eq!(actor, Kind::Repo.bit());
        let cron = kinds(json!({"properties": {"expr": {"type": "string",
            "description": "When to run (e.g., \"*/5 * * * *\")"}}}));
        assert_eq!(cron, Kind::Schedule.bit());
        let ride = kinds(json!({"properties": {"to": {"type": "string",
            "description": "The destination address"}}}));
        assert_eq!(ride, Kind::Address.bit());
        let mail = kinds(json!({"properties": {"to": {"type": "string",
            "description": "The recipient's email address"}}}));
        assert_eq!(mail & Kind::Address.bit(), 0);
        let convert = schema_kinds(&json!({"properties": {
            "source_timezone": {"type": "string"}, "target_timezone": {"type": "string"}}}));
        assert_ne!(convert.many & Kind::TimeZone.bit(), 0);
        let place = schema_kinds(&json!({"properties": {
            "latitude": {"type": "number"}, "longitude": {"type": "number"}}}));
        assert_eq!(place.many & Kind::Coords.bit(), 0);
        let pull = schema_kinds(&json!({"properties": {"pull_number": {"type": "number"}}}));
        assert_eq!(pull.numeric, Kind::Issue.bit());
        let key = schema_kinds(&json!({"properties": {"issue_key": {"type": "string"}}}));
        assert_eq!(key.numeric, 0);
    }
}
