//! Verb senses: what a verb means depends on its object. "Open an issue / a
//! ticket / a pull request" creates one; "open a file" reads it; "open a
//! page" navigates. Rules are written once per verb and object class
//! ([`SENSES`] over [`CLASSES`]), never per phrase: a new object word joins
//! its class and every verb's sense follows.
//!
//! A sense found for a request verb replaces the verb's family for scoring
//! (its synonyms and the first-verb multiplier, see `search/index.rs`), may
//! add tool words, and `why` names it ("create (sense: open + issue)").

use super::text::{listed, stem, VERB_FAMILIES};
use std::sync::OnceLock;

/// Object classes: words (stemmed at first use) and two-word objects.
const CLASSES: &[(&str, &[&str])] = &[
    // Things a tracker or code host keeps a record of: opening one creates it.
    (
        "record",
        &[
            "issue",
            "ticket",
            "bug",
            "incident",
            "case",
            "story",
            "epic",
            "card",
            "pr",
            "pull request",
            "merge request",
            "change request",
            "mr",
            "bug report",
            "feature request",
            "work item",
            "discussion",
        ],
    ),
    // Things a file system or document store holds: opening one reads it.
    (
        "document",
        &[
            "file",
            "document",
            "doc",
            "readme",
            "changelog",
            "note",
            "notebook",
            "spreadsheet",
            "pdf",
            "folder",
            "directory",
            "log",
        ],
    ),
    // Places a browser goes to: opening one navigates.
    (
        "place",
        &[
            "page", "url", "link", "site", "website", "webpage", "address",
        ],
    ),
    // Running resources and stores: spinning one up creates it, dropping
    // or killing one deletes it.
    (
        "resource",
        &[
            "table",
            "database",
            "db",
            "collection",
            "index",
            "pod",
            "container",
            "deployment",
            "instance",
            "server",
            "cluster",
            "app",
            "branch",
            "environment",
            "namespace",
            "bucket",
            "worker",
            "vm",
            "process",
            "session",
            "release",
            "tag",
        ],
    ),
    // Messages: dropping or firing one off sends it.
    (
        "message",
        &["message", "line", "email", "mail", "dm", "text"],
    ),
    // Remarks on something: leaving or dropping one creates it.
    (
        "remark",
        &["comment", "note", "reply", "review", "reaction"],
    ),
    // Data to be read off a service: pulling it gets it.
    (
        "data",
        &[
            "log", "logs", "metric", "data", "report", "number", "record", "stat", "usage",
        ],
    ),
    // Calendar entries: booking one creates it.
    (
        "slot",
        &[
            "meeting",
            "call",
            "room",
            "slot",
            "appointment",
            "event",
            "session",
        ],
    ),
];

/// A sense: a verb (or two-word verb) with an object of a class means a
/// verb family ([`VERB_FAMILIES`] by its first member) and/or tool words.
struct Rule {
    verbs: &'static [&'static str],
    class: &'static str,
    family: Option<&'static str>,
    adds: &'static [&'static str],
}

/// The senses. The first rule whose verb and class both match is taken.
const SENSES: &[Rule] = &[
    Rule {
        verbs: &["open", "raise", "file", "log", "submit", "put in"],
        class: "record",
        family: Some("create"),
        adds: &[],
    },
    Rule {
        verbs: &["close"],
        class: "record",
        family: Some("update"),
        adds: &["close", "state"],
    },
    Rule {
        verbs: &["open", "pull up", "bring up", "load"],
        class: "document",
        family: Some("read"),
        adds: &[],
    },
    Rule {
        verbs: &["find", "locate", "look for", "search for", "hunt down"],
        class: "document",
        family: Some("find"),
        adds: &["file"],
    },
    Rule {
        verbs: &["open", "pull up", "bring up", "load", "hit", "visit"],
        class: "place",
        family: None,
        adds: &["navigate", "url"],
    },
    Rule {
        verbs: &[
            "spin up",
            "stand up",
            "fire up",
            "provision",
            "set up",
            "cut",
        ],
        class: "resource",
        family: Some("create"),
        adds: &[],
    },
    Rule {
        verbs: &["drop", "kill", "nuke", "tear down", "take down", "wipe"],
        class: "resource",
        family: Some("delete"),
        adds: &[],
    },
    Rule {
        verbs: &["leave", "drop", "post", "put", "write"],
        class: "remark",
        family: Some("create"),
        adds: &[],
    },
    Rule {
        verbs: &["drop", "fire off", "shoot", "leave"],
        class: "message",
        family: None,
        adds: &["send", "post", "message"],
    },
    Rule {
        verbs: &["pull", "pull up", "grab", "dig up"],
        class: "data",
        family: None,
        adds: &["get", "query"],
    },
    Rule {
        verbs: &["book", "set up", "arrange"],
        class: "slot",
        family: Some("create"),
        adds: &["event"],
    },
];

/// Most words between a verb and its object ("open a new bug report").
const OBJECT_REACH: usize = 3;

/// One rule, stemmed for matching.
pub(crate) struct Sense {
    /// Verb forms as stemmed word sequences.
    verbs: Vec<Vec<String>>,
    /// The object class's members as stemmed word sequences.
    objects: Vec<Vec<String>>,
    /// The verb family it means, an index into [`VERB_FAMILIES`].
    pub family: Option<usize>,
    /// Tool words it adds, as (word, stem).
    pub adds: Vec<(String, String)>,
}

fn stems(text: &str) -> Vec<String> {
    text.split(' ').map(stem).collect()
}

/// The compiled senses.
fn senses() -> &'static [Sense] {
    static SENSES_: OnceLock<Vec<Sense>> = OnceLock::new();
    SENSES_.get_or_init(|| {
        SENSES
            .iter()
            .map(|r| {
                let members = CLASSES
                    .iter()
                    .find(|(c, _)| *c == r.class)
                    .map_or(&[][..], |(_, m)| *m);
                Sense {
                    verbs: r.verbs.iter().map(|v| stems(v)).collect(),
                    objects: members.iter().map(|m| stems(m)).collect(),
                    family: r
                        .family
                        .and_then(|f| VERB_FAMILIES.iter().position(|m| m[0] == f)),
                    adds: r.adds.iter().map(|a| (a.to_string(), stem(a))).collect(),
                }
            })
            .collect()
    })
}

/// The first word (stemmed) of every rule's verbs: most request words are
/// none of them, and are passed over with one list look-up.
fn first_verbs() -> &'static [&'static str] {
    static FIRST: OnceLock<Vec<&'static str>> = OnceLock::new();
    FIRST.get_or_init(|| {
        let mut out: Vec<&'static str> = senses()
            .iter()
            .flat_map(|s| s.verbs.iter().filter_map(|v| v.first().map(String::as_str)))
            .collect();
        out.sort_unstable();
        out.dedup();
        out
    })
}

/// A verb sense found in a request.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct Found {
    /// Index of the rule (see [`rule`]).
    pub rule: usize,
    /// How many words the verb spans.
    pub verb_len: usize,
    /// Position (in the sequence given) of the object's first word.
    pub object: usize,
    /// How many words the object spans.
    pub object_len: usize,
}

/// The rule of a [`Found`].
pub(crate) fn rule(i: usize) -> Option<&'static Sense> {
    senses().get(i)
}

/// Whether `seq[at..]` starts with `words`.
fn starts(seq: &[&str], at: usize, words: &[String]) -> bool {
    seq.len() >= at + words.len() && words.iter().zip(&seq[at..]).all(|(w, s)| w == s)
}

/// The sense of a verb at `seq[at]`: its object within [`OBJECT_REACH`]
/// words after it (`seq` holds stems of one clause; `""` for a word no
/// object crosses, such as a value).
pub(crate) fn sense_at(seq: &[&str], at: usize) -> Option<Found> {
    if !listed(first_verbs(), seq.get(at)?) {
        return None;
    }
    for (ri, s) in senses().iter().enumerate() {
        let Some(verb) = s.verbs.iter().find(|v| starts(seq, at, v)) else {
            continue;
        };
        let from = at + verb.len();
        for o in from..(from + OBJECT_REACH + 1).min(seq.len()) {
            if seq[o].is_empty() {
                break;
            }
            if let Some(obj) = s.objects.iter().find(|m| starts(seq, o, m)) {
                return Some(Found {
                    rule: ri,
                    verb_len: verb.len(),
                    object: o,
                    object_len: obj.len(),
                });
            }
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    fn find(q: &str) -> Option<(Option<&'static str>, String)> {
        let st: Vec<String> = q.split(' ').map(stem).collect();
        let seq: Vec<&str> = st.iter().map(String::as_str).collect();
        let f = sense_at(&seq, 0)?;
        let r = rule(f.rule)?;
        let fam = r.family.map(|i| VERB_FAMILIES[i][0]);
        let object: Vec<&str> = q.split(' ').skip(f.object).take(f.object_len).collect();
        Some((fam, object.join(" ")))
    }

    #[test]
    fn the_object_class_decides_the_sense() {
        assert_eq!(
            find("open an issue"),
            Some((Some("create"), "issue".into()))
        );
        assert_eq!(
            find("open a new pull request"),
            Some((Some("create"), "pull request".into()))
        );
        assert_eq!(
            find("file a bug report"),
            Some((Some("create"), "bug".into()))
        );
        assert_eq!(find("open the file"), Some((Some("read"), "file".into())));
        assert_eq!(find("open this page").map(|f| f.0), Some(None));
        assert_eq!(
            find("drop the users table"),
            Some((Some("delete"), "table".into()))
        );
        assert_eq!(find("open the pod bay doors please"), None);
        assert_eq!(find("open"), None);
    }

    #[test]
    fn every_rule_names_a_class_and_a_family_that_exist() {
        for r in SENSES {
            assert!(CLASSES.iter().any(|(c, _)| *c == r.class), "{}", r.class);
            if let Some(f) = r.family {
                assert!(VERB_FAMILIES.iter().any(|m| m[0] == f), "{f}");
            }
            assert!(r.family.is_some() || !r.adds.is_empty());
        }
    }
}
