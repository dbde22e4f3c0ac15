//! "Names the tool": a request that mentions a tool by its name inside a
//! sentence ("please call `get-actor-run` for me", "use the
//! slack_post_message tool", "get key value store list").
//!
//! Two kinds of mention, both looked up exactly:
//! - an identifier-shaped token (it has `_`, `-`, `.`, `/` or an inner capital;
//!   surrounding backticks, quotes, brackets and punctuation are ignored) that
//!   is a tool's canonical name, local name, `provider/name` or alias (the
//!   index's exact-name keys, case-insensitive): [`NAMED`];
//! - a run of plain request words that spells a whole multi-word name, local
//!   name or alias in order ("get key value store"): weaker, [`PHRASE`] per
//!   word of the name; the longest run from each start wins and runs inside a
//!   longer one do not count, so "get key value store list" names
//!   `get-key-value-store-list`, not `get-key-value-store`.
//!
//! When the mentioned name belongs to several providers' tools, a tool whose
//! provider the request also names (by the one provider detector,
//! `search/provider.rs`) gains [`PROVIDER`]; otherwise they tie as the rest
//! of the ranking leaves them.
//!
//! Storage is incremental like the postings: each tool adds or removes only
//! its own spaced names ([`Mentions::insert`], [`Mentions::remove`]).

use super::map::Map;
use super::postings::{toggle_slot, Store};
use super::provider::{provider_fullness, Named};
use super::text::{exact_key, words};
use holaryn_model::ToolDescriptor;

/// Score a tool gains when the request writes its name as an identifier.
pub(super) const NAMED: f32 = 200.0;
/// Score per name word a tool gains when request words spell its whole name.
pub(super) const PHRASE: f32 = 6.0;
/// Score a named tool gains when the request also names its provider.
pub(super) const PROVIDER: f32 = 50.0;
/// Longest spaced name (in words) a run of request words is matched against.
const MAX_WORDS: usize = 12;

/// Spaced multi-word names, kept per tool slot.
#[derive(Debug, Default, Clone)]
pub(super) struct Mentions {
    /// Words of a name joined by one space → slots whose names spell it, sorted.
    phrases: Map<String, Vec<u32>>,
    /// First word of a spaced name → how many spaced names start with it.
    firsts: Map<String, u32>,
}

holaryn_model::packed!(Mentions { phrases, firsts });

/// The spaced multi-word forms of a tool's names (each once).
fn spaced_names(t: &ToolDescriptor) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    let names = [&t.name, &t.local_name].into_iter().chain(&t.aliases);
    for n in names {
        let w = words(n);
        if (2..=MAX_WORDS).contains(&w.len()) {
            let key = w.join(" ");
            if !out.contains(&key) {
                out.push(key);
            }
        }
    }
    out
}

/// Whether a token reads as a tool identifier rather than a plain word.
fn identifier_shaped(token: &str) -> bool {
    let inner_upper =
        token.chars().skip(1).any(|c| c.is_uppercase()) && token.chars().any(|c| c.is_lowercase());
    token.contains(['_', '-', '.', '/']) || inner_upper
}

/// Characters a mentioned name may be wrapped in or followed by.
fn wrapper(c: char) -> bool {
    matches!(
        c,
        '`' | '\''
            | '"'
            | '('
            | ')'
            | '['
            | ']'
            | '{'
            | '}'
            | '<'
            | '>'
            | ','
            | ';'
            | ':'
            | '!'
            | '?'
            | '.'
            | '*'
    ) || c == '\u{2018}'
        || c == '\u{2019}'
        || c == '\u{201c}'
        || c == '\u{201d}'
}

/// Record that `d` gains `s` (the larger, when it is named twice).
fn add(d: u32, s: f32, out: &mut Vec<(u32, f32)>) {
    match out.iter_mut().find(|(x, _)| *x == d) {
        Some(e) => e.1 = e.1.max(s),
        None => out.push((d, s)),
    }
}

impl Mentions {
    /// True when every slot named is below `slots` (a restored index's check).
    pub(crate) fn within(&self, slots: usize) -> bool {
        self.phrases
            .values()
            .flatten()
            .all(|s| (*s as usize) < slots)
    }

    /// Add (or, with `add` false, remove) the tool in `slot` under its spaced names.
    pub(crate) fn set(&mut self, slot: u32, tool: &ToolDescriptor, add: bool) {
        for key in spaced_names(tool) {
            let first = key.split(' ').next().unwrap_or_default().to_string();
            if !toggle_slot(&mut self.phrases, key, slot, add) {
                continue;
            }
            let count = self.firsts.entry(first.clone()).or_default();
            if add {
                *count += 1;
            } else {
                *count = count.saturating_sub(1);
                if *count == 0 {
                    self.firsts.remove(&first);
                }
            }
        }
    }

    /// The tools a request names, each with the score it gains (slot order);
    /// `providers` are the providers the request names.
    pub(crate) fn find(&self, store: &Store, query: &str, providers: &[Named]) -> Vec<(u32, f32)> {
        let mut out: Vec<(u32, f32)> = Vec::new();
        // Runs of plain words; an identifier that names a tool and sentence
        // punctuation (`,;:.!?` after a word) end a run.
        let mut runs: Vec<Vec<String>> = vec![Vec::new()];
        for raw in query.split_whitespace() {
            let token = raw.trim_matches(wrapper);
            if token.is_empty() {
                continue;
            }
            if identifier_shaped(token) {
                if let Some(docs) = store.exact.get(&exact_key(token)) {
                    for (d, _, _) in docs {
                        add(*d, NAMED, &mut out);
                    }
                    runs.push(Vec::new());
                    continue;
                }
            }
            if let Some(run) = runs.last_mut() {
                run.extend(words(token));
            }
            let end =
                raw.trim_end_matches(['`', '\'', '"', ')', ']', '}', '*', '\u{2019}', '\u{201d}']);
            if end.ends_with([',', ';', ':', '.', '!', '?']) {
                runs.push(Vec::new());
            }
        }
        for run in &runs {
            for (a, b) in self.phrase_spans(run) {
                if let Some(docs) = self.phrases.get(&run[a..b].join(" ")) {
                    for d in docs {
                        add(*d, PHRASE * (b - a) as f32, &mut out);
                    }
                }
            }
        }
        if out.len() > 1 {
            provider_decides(store, providers, &mut out);
        }
        out.sort_unstable_by_key(|(d, _)| *d);
        out
    }

    /// Spans of a run of words that spell a whole spaced name: the longest
    /// from each start, none inside another (ordered by start).
    fn phrase_spans(&self, run: &[String]) -> Vec<(usize, usize)> {
        let mut spans: Vec<(usize, usize)> = Vec::new();
        if self.firsts.is_empty() {
            return spans;
        }
        let mut key = String::new();
        for i in 0..run.len() {
            if !self.firsts.contains_key(&run[i]) {
                continue;
            }
            key.clear();
            key.push_str(&run[i]);
            let mut longest = None;
            for (j, w) in run.iter().enumerate().skip(i + 1).take(MAX_WORDS - 1) {
                key.push(' ');
                key.push_str(w);
                if self.phrases.contains_key(&key) {
                    longest = Some(j + 1);
                }
            }
            if let Some(end) = longest {
                spans.push((i, end));
            }
        }
        let inside = |&(a, b): &(usize, usize)| {
            spans
                .iter()
                .any(|&(c, d)| c <= a && b <= d && (c, d) != (a, b))
        };
        spans.iter().copied().filter(|s| !inside(s)).collect()
    }
}

/// Add [`PROVIDER`] to named tools whose provider the request names too,
/// the most fully (`Named::fullness`: "from gitlab" picks `gitlab` over
/// `gitlab-zereight`), when the named tools come from more than one provider.
fn provider_decides(store: &Store, providers: &[Named], out: &mut [(u32, f32)]) {
    let provider = |d: u32| store.doc(d).map(|doc| &doc.tool.provider.id);
    let first = out.first().and_then(|(d, _)| provider(*d));
    if providers.is_empty() || out.iter().all(|(d, _)| provider(*d) == first) {
        return;
    }
    let full: Vec<_> = out
        .iter()
        .map(|(d, _)| provider_fullness(store, *d, providers))
        .collect();
    let Some(best) = full.iter().flatten().max().copied() else {
        return;
    };
    for ((_, s), f) in out.iter_mut().zip(full) {
        if f == Some(best) {
            *s += PROVIDER;
        }
    }
}
