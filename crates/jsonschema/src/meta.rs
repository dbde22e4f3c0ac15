//! The meta-schemas of the five drafts, embedded (from json-schema.org, as
//! the `referencing` crate ships them), parsed on first use. Only documents:
//! the validators compiled from them are cached by `meta_validator` in the
//! parent, so that this module, which `index` reads references from, imports
//! nothing but the drafts.

use super::draft::Draft;
use serde_json::Value;
use std::sync::{Arc, OnceLock};

/// (URI without fragment, text, draft) of every embedded document.
const DOCS: [(&str, &str, Draft); 19] = [
    (
        "https://json-schema.org/draft/2019-09/meta/applicator",
        include_str!("meta/draft2019-09/meta/applicator.json"),
        Draft::Draft201909,
    ),
    (
        "https://json-schema.org/draft/2019-09/meta/content",
        include_str!("meta/draft2019-09/meta/content.json"),
        Draft::Draft201909,
    ),
    (
        "https://json-schema.org/draft/2019-09/meta/core",
        include_str!("meta/draft2019-09/meta/core.json"),
        Draft::Draft201909,
    ),
    (
        "https://json-schema.org/draft/2019-09/meta/format",
        include_str!("meta/draft2019-09/meta/format.json"),
        Draft::Draft201909,
    ),
    (
        "https://json-schema.org/draft/2019-09/meta/meta-data",
        include_str!("meta/draft2019-09/meta/meta-data.json"),
        Draft::Draft201909,
    ),
    (
        "https://json-schema.org/draft/2019-09/meta/validation",
        include_str!("meta/draft2019-09/meta/validation.json"),
        Draft::Draft201909,
    ),
    (
        "https://json-schema.org/draft/2019-09/schema",
        include_str!("meta/draft2019-09/schema.json"),
        Draft::Draft201909,
    ),
    (
        "https://json-schema.org/draft/2020-12/meta/applicator",
        include_str!("meta/draft2020-12/meta/applicator.json"),
        Draft::Draft202012,
    ),
    (
        "https://json-schema.org/draft/2020-12/meta/content",
        include_str!("meta/draft2020-12/meta/content.json"),
        Draft::Draft202012,
    ),
    (
        "https://json-schema.org/draft/2020-12/meta/core",
        include_str!("meta/draft2020-12/meta/core.json"),
        Draft::Draft202012,
    ),
    (
        "https://json-schema.org/draft/2020-12/meta/format-annotation",
        include_str!("meta/draft2020-12/meta/format-annotation.json"),
        Draft::Draft202012,
    ),
    (
        "https://json-schema.org/draft/2020-12/meta/format-assertion",
        include_str!("meta/draft2020-12/meta/format-assertion.json"),
        Draft::Draft202012,
    ),
    (
        "https://json-schema.org/draft/2020-12/meta/meta-data",
        include_str!("meta/draft2020-12/meta/meta-data.json"),
        Draft::Draft202012,
    ),
    (
        "https://json-schema.org/draft/2020-12/meta/unevaluated",
        include_str!("meta/draft2020-12/meta/unevaluated.json"),
        Draft::Draft202012,
    ),
    (
        "https://json-schema.org/draft/2020-12/meta/validation",
        include_str!("meta/draft2020-12/meta/validation.json"),
        Draft::Draft202012,
    ),
    (
        "https://json-schema.org/draft/2020-12/schema",
        include_str!("meta/draft2020-12/schema.json"),
        Draft::Draft202012,
    ),
    (
        "http://json-schema.org/draft-04/schema",
        include_str!("meta/draft4.json"),
        Draft::Draft4,
    ),
    (
        "http://json-schema.org/draft-06/schema",
        include_str!("meta/draft6.json"),
        Draft::Draft6,
    ),
    (
        "http://json-schema.org/draft-07/schema",
        include_str!("meta/draft7.json"),
        Draft::Draft7,
    ),
];

static PARSED: [OnceLock<Option<Arc<Value>>>; DOCS.len()] = [const { OnceLock::new() }; DOCS.len()];

/// The embedded document at `uri` (no fragment) and its draft.
pub(crate) fn document(uri: &str) -> Option<(Arc<Value>, Draft)> {
    let i = DOCS.iter().position(|(u, _, _)| *u == uri)?;
    let (_, text, draft) = DOCS[i];
    let doc = PARSED[i].get_or_init(|| serde_json::from_str(text).ok().map(Arc::new));
    doc.clone().map(|d| (d, draft))
}

/// `draft`'s meta-schema.
pub(crate) fn schema(draft: Draft) -> Option<Arc<Value>> {
    document(uri_of(draft)).map(|(doc, _)| doc)
}

/// The URI of `draft`'s meta-schema.
fn uri_of(draft: Draft) -> &'static str {
    match draft {
        Draft::Draft4 => "http://json-schema.org/draft-04/schema",
        Draft::Draft6 => "http://json-schema.org/draft-06/schema",
        Draft::Draft7 => "http://json-schema.org/draft-07/schema",
        Draft::Draft201909 => "https://json-schema.org/draft/2019-09/schema",
        Draft::Draft202012 => "https://json-schema.org/draft/2020-12/schema",
    }
}
