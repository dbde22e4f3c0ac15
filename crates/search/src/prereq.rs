//! Prerequisites: the best tool for a request often needs an input another
//! tool produces (a `project_id`, a `pageId`, a `channel_id`, a resolved
//! library id). When the request does not carry that value, the first step
//! is the producer: [`producers`] finds, among the best tool's provider, the
//! tools that list, search or resolve the thing the input identifies, and
//! the scorer lifts them (`why`: "first step: provides project_id for …").
//!
//! Read at query time from the best tool's required inputs only (nothing is
//! stored per tool): the thing a field identifies is its name without the
//! identifier word (`project_id` → project, `libraryID` → library, `id` → the
//! tool's own object: `airbnb_listing_details` → listing); a producer names
//! that thing (name, title or description) and a finding verb in its name,
//! and does not itself require the field.

use super::entities::{Kind, Kinds};
use super::postings::Store;
use super::provider::Named;
use super::query::Request;
use super::text::{listed, stem, words};
use holaryn_model::ToolDescriptor;
use serde_json::Value;

/// Words that make a field an identifier of a thing.
const ID_WORDS: &[&str] = &[
    "id",
    "ids",
    "iid",
    "uid",
    "key",
    "ref",
    "uuid",
    "handle",
    "number",
    "slug",
    "identifier",
    "public",
    "compatible",
];
/// Verbs in a producer's name: it lists, finds or resolves things.
const PRODUCER_VERBS: &[&str] = &[
    "list", "search", "find", "resolve", "lookup", "query", "discover", "browse", "connect",
];
/// Verbs and generic words skipped when a tool's name gives its object.
const NAME_NOISE: &[&str] = &[
    "get", "read", "fetch", "retrieve", "show", "view", "update", "delete", "create", "add",
    "remove", "edit", "set", "details", "detail", "info", "by", "api", "a", "the",
];
/// Entity kinds that carry any identifier's value in the request (a key, a
/// hash, a URL, a number): then the tool that takes it is the first step,
/// not a producer. A name ("#support", "priya", an email) is no id.
const SUPPLIED_BY: [Kind; 5] = [Kind::Url, Kind::Code, Kind::Sha, Kind::Number, Kind::Paper];
/// Things an issue reference (`ENG-482`, `!42`, `#7`) identifies.
const ISSUE_THINGS: &[&str] = &[
    "issue", "pull", "merge", "request", "story", "ticket", "item",
];
/// Things `owner/repo` identifies.
const REPO_THINGS: &[&str] = &["repo", "repository", "project", "owner"];
/// Most producers lifted for one request.
pub(crate) const MOST: usize = 1;
/// Bits of the name, title and description fields in a posting.
const NAME_BITS: u8 = 0b11;
const TEXT_BITS: u8 = 0b111;

/// A tool lifted as the first step: it provides `field` for `consumer`.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Lift {
    /// The producer's slot.
    pub doc: u32,
    /// The consumer's required field it provides.
    pub field: String,
    /// The consumer's slot.
    pub consumer: u32,
    /// The stem of the thing the field identifies.
    pub thing: String,
}

/// Words that introduce a thing's name ("the project called Android").
const NAMING: &[&str] = &["called", "named", "titled", "labelled", "labeled"];

/// Roles whose identifier is a user's.
const ROLES: &[&str] = &[
    "assignee", "owner", "author", "reviewer", "member", "creator", "lead",
];
/// Words before a thing that pick one by time, not by id ("the latest message").
const RECENCY: &[&str] = &["last", "latest", "newest", "recent", "previous", "current"];

/// Things an email address names (a person, not an id).
const PEOPLE: &[&str] = &[
    "user", "customer", "contact", "member", "person", "assignee",
];

/// Whether the request names the thing (a stem) a lift finds instead of
/// giving its id: a name next to the thing's word ("the Platform team",
/// "the project called Android", "the latest message"), a `#channel` for a channel, an email address for a person.
/// Then finding the thing is the first step, before the tool that acts on it.
pub(crate) fn names_a_thing(req: &Request, providers: &[Named], thing: &str) -> bool {
    let has = |k: Kind| req.entities.kinds & (1 << k as u32) != 0;
    if (has(Kind::Channel) && thing == "channel") || (has(Kind::Email) && listed(PEOPLE, thing)) {
        return true;
    }
    let ws = &req.words;
    let name = |i: usize| {
        ws.get(i)
            .is_some_and(|w| w.proper && !providers.iter().any(|p| p.words.contains(&w.word)))
    };
    let recency = |i: usize| ws.get(i).is_some_and(|w| listed(RECENCY, &w.word));
    ws.iter().enumerate().any(|(i, w)| {
        w.stem == thing
            && ((i > 0 && (name(i - 1) || recency(i - 1)))
                || (i > 1 && recency(i - 2))
                || name(i + 1)
                || ws.get(i + 1).is_some_and(|n| listed(NAMING, &n.word)))
    })
}

/// Whether the request carries a value the identifier of `thing` (a stem) could be.
fn supplied(kinds: Kinds, thing: &str) -> bool {
    let has = |k: Kind| kinds & (1 << k as u32) != 0;
    SUPPLIED_BY.iter().any(|k| has(*k))
        || (has(Kind::Issue) && ISSUE_THINGS.iter().any(|t| stem(t) == thing))
        || (has(Kind::Repo) && REPO_THINGS.iter().any(|t| stem(t) == thing))
        || (has(Kind::Path) && thing == "file")
}

/// The consumer's required identifier fields, each with the stem of the
/// thing it identifies.
fn needs(tool: &ToolDescriptor) -> Vec<(String, String)> {
    let required = tool
        .input_schema
        .get("required")
        .and_then(Value::as_array)
        .map_or(&[][..], Vec::as_slice);
    let mut out = Vec::new();
    for field in required.iter().filter_map(Value::as_str).take(8) {
        // Most required fields are no identifier: a byte check before any words.
        if !id_like(field) {
            continue;
        }
        let ws = words(field);
        if !ws.last().is_some_and(|w| ID_WORDS.contains(&w.as_str())) {
            continue;
        }
        let thing = ws
            .iter()
            .rev()
            .find(|w| !ID_WORDS.contains(&w.as_str()) && w.len() > 2)
            .cloned()
            .or_else(|| object_of(tool));
        if let Some(t) = thing {
            // A person's role names a user ("assigneeId", "ownerId").
            let t = if listed(ROLES, &t) {
                "user".to_string()
            } else {
                t
            };
            out.push((field.to_string(), stem(&t)));
        }
    }
    out
}

/// Whether a field name ends like an identifier (`…id`, `…Ids`, `…_key`,
/// `…Number`), ASCII case aside: the cheap test before reading its words.
fn id_like(field: &str) -> bool {
    let b = field.as_bytes();
    ID_WORDS
        .iter()
        .any(|w| b.len() >= w.len() && b[b.len() - w.len()..].eq_ignore_ascii_case(w.as_bytes()))
}

/// The object a tool's name acts on (`airbnb_listing_details` → listing).
fn object_of(tool: &ToolDescriptor) -> Option<String> {
    let provider = words(&tool.provider.id);
    words(&tool.local_name)
        .into_iter()
        .find(|w| w.len() > 2 && !NAME_NOISE.contains(&w.as_str()) && !provider.contains(w))
}

/// Whether a tool requires `field`.
fn requires(tool: &ToolDescriptor, field: &str) -> bool {
    tool.input_schema
        .get("required")
        .and_then(Value::as_array)
        .is_some_and(|r| r.iter().any(|f| f.as_str() == Some(field)))
}

/// Whether a tool's name carries a producing verb, or gets `thing` in the
/// plural (`getTeams`, `get_users`: a list).
fn producing(tool: &ToolDescriptor, thing: &str) -> bool {
    let (mut verb, mut get, mut plural) = (false, false, false);
    each_name_word(&tool.local_name, |w| {
        verb |= PRODUCER_VERBS.contains(&w);
        get |= w == "get";
        plural |= w.len() > thing.len() && w.ends_with('s') && stem(w) == thing;
    });
    verb || (get && plural)
}

/// Call `f` with each word of a name, lower case, split at non-alphanumerics
/// and camelCase humps, in one reused buffer (a name is read for every
/// candidate producer: no string per word).
fn each_name_word(name: &str, mut f: impl FnMut(&str)) {
    let mut word = String::with_capacity(name.len());
    let mut prev_lower = false;
    for c in name.chars() {
        // ASCII (nearly every name) by the ASCII tests, which agree with the
        // Unicode ones there: no case-mapping table per character.
        let (upper, alnum, lower_or_digit) = if c.is_ascii() {
            let b = c as u8;
            (
                b.is_ascii_uppercase(),
                b.is_ascii_alphanumeric(),
                b.is_ascii_lowercase() || b.is_ascii_digit(),
            )
        } else {
            (
                c.is_uppercase(),
                c.is_alphanumeric(),
                c.is_lowercase() || c.is_numeric(),
            )
        };
        let hump = prev_lower && upper;
        if (!alnum || hump) && !word.is_empty() {
            f(&word);
            word.clear();
        }
        if alnum {
            if c.is_ascii() {
                word.push(c.to_ascii_lowercase());
            } else {
                word.extend(c.to_lowercase());
            }
        }
        prev_lower = lower_or_digit;
    }
    if !word.is_empty() {
        f(&word);
    }
}

/// The producers of the inputs `consumer` (slot `slot`) requires, at most
/// [`MOST`], best first, among the tools `related` accepts: a name that carries the thing before a description
/// that does, then the shorter name.
pub(crate) fn producers(
    store: &Store,
    slot: u32,
    kinds: Kinds,
    related: impl Fn(u32) -> bool,
) -> Vec<Lift> {
    let Some(consumer) = store.doc(slot).map(|d| &d.tool) else {
        return Vec::new();
    };
    let mut found: Vec<(u8, usize, Lift)> = Vec::new();
    for (field, thing) in needs(consumer) {
        if supplied(kinds, &thing) {
            continue;
        }
        let Some(id) = store.id(&thing) else {
            continue;
        };
        for p in store.postings(id) {
            if p.doc == slot || p.fields & TEXT_BITS == 0 || !related(p.doc) {
                continue;
            }
            let Some(tool) = store.doc(p.doc).map(|d| &d.tool) else {
                continue;
            };
            if tool.provider.id != consumer.provider.id
                || !producing(tool, &thing)
                || requires(tool, &field)
                || found.iter().any(|f| f.2.doc == p.doc)
            {
                continue;
            }
            let rank = u8::from(p.fields & NAME_BITS == 0);
            found.push((
                rank,
                tool.local_name.len(),
                Lift {
                    doc: p.doc,
                    field: field.clone(),
                    consumer: slot,
                    thing: thing.clone(),
                },
            ));
        }
    }
    let name = |l: &Lift| store.doc(l.doc).map_or("", |d| d.tool.name.as_str());
    found.sort_by(|a, b| {
        (a.0, a.1)
            .cmp(&(b.0, b.1))
            .then_with(|| name(&a.2).cmp(name(&b.2)))
    });
    found.into_iter().take(MOST).map(|f| f.2).collect()
}

#[cfg(test)]
mod tests {
    use super::each_name_word;

    /// The words as the Unicode character tests give them (the reference
    /// for the ASCII fast path).
    fn by_unicode(name: &str) -> Vec<String> {
        let (mut out, mut word, mut prev_lower) = (Vec::new(), String::new(), false);
        for c in name.chars() {
            let hump = prev_lower && c.is_uppercase();
            if (!c.is_alphanumeric() || hump) && !word.is_empty() {
                out.push(std::mem::take(&mut word));
            }
            if c.is_alphanumeric() {
                word.extend(c.to_lowercase());
            }
            prev_lower = c.is_lowercase() || c.is_numeric();
        }
        if !word.is_empty() {
            out.push(word);
        }
        out
    }

    #[test]
    fn name_words_split_at_humps_and_separators_ascii_or_not() {
        for name in [
            "getTeams",
            "list_projects",
            "search-issues2Fast",
            "HTTPServer_getURL",
            "Ünïcode_ÄpfelListe",
            "straßeFinden",
            "日本語_search",
            "ΣίσυφοςList",
            "x",
            "",
            "__a__B__",
        ] {
            let mut got = Vec::new();
            each_name_word(name, |w| got.push(w.to_string()));
            assert_eq!(got, by_unicode(name), "{name}");
        }
    }
}
