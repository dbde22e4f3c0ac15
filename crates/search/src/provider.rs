//! "Named provider": which providers a request names ("on GitHub", "with
//! puppeteer", "linear: list projects", "google drive", "desktop commander").
//! One detector, [`Providers::detect`], serves both uses: the named
//! provider's tools rank higher ([`Providers::boost`], `why`: "named provider
//! github"), and when a request names a tool that several providers have,
//! the named provider decides which (`search/mention.rs`).
//!
//! The rule, over the request's content words (full weight: not inside an
//! entity, not a later step):
//! - consecutive words that spell a provider's whole multi-word id or display
//!   name ("desktop commander", "gitlab zereight") name it;
//! - consecutive words name a provider whose word is their initials
//!   ("knowledge base" → `kb`) or their initials before the last word
//!   ("google drive" → `gdrive`);
//! - any other word names the providers whose id or display name has it, when
//!   it is in at most [`NAME_PROVIDERS`] providers and either mostly found
//!   there ([`PROVIDER_SHARE`] of the tools that carry it) or phrased as a
//!   name (`query::Word::named`): a provider named by a common word
//!   ("memory", "time", "fetch") is no signal on its own;
//! - a provider named by words that name another more fully is not named
//!   ("gitlab zereight" names `gitlab-zereight`, not `gitlab`).
//!
//! How fully each provider is named ([`Named::fullness`]: how many request
//! words name it, then whether they spell its whole id or display name) is
//! part of the answer: "on gitlab" names `gitlab` wholly and
//! `gitlab-zereight` in part; both tools' scores rise, and between two
//! mentioned tools of those providers the whole name decides.
//!
//! Storage is incremental like the postings: each tool adds or removes only
//! its own provider's words and names ([`Providers::set`]).

use super::map::Map;
use super::postings::Store;
use super::query::{Request, Word, NAME_AFTER};
use super::text::{is_stopword, stem, words};
use holaryn_model::ToolDescriptor;
use std::collections::BTreeMap;

/// Multiplier for tools of a provider the request names ("on GitHub",
/// "with puppeteer", "linear: list projects"). Tuned on the dev half.
const PROVIDER: f32 = 1.5;
/// Least share of the tools carrying a word that carry it in their
/// provider's id or display name for the word alone to name the provider
/// ("puppeteer"); a provider named by a commoner word ("memory", "time",
/// "fetch") counts only when the request phrases it as a name
/// (`Word::named`: "in memory", "the fetch server", "Memory"). Dev figures
/// were the same from 0.5 to 0.75; the strictest was kept.
const PROVIDER_SHARE: f32 = 0.75;
/// Most providers a word may be in to name one ("server", "mcp", "example"
/// are in many providers' names and name none).
const NAME_PROVIDERS: usize = 3;
/// Most words of a provider name spelled in full, or of an initials run.
const NAME_WORDS: usize = 4;
/// Words that never name a provider: quantifier pronouns ("undo everything"
/// is no request for a server called `everything`); nor do the words that
/// mark a name ([`NAME_AFTER`]: "server", "mcp", "tools").
const NOT_NAMES: &[&str] = &[
    "everything",
    "anything",
    "something",
    "nothing",
    "all",
    "every",
    "each",
    "any",
];
/// Bit of the provider field in a posting's field mask.
const PROVIDER_FIELD: u8 = 1 << 5;

/// Provider id → how many tools it has, per word or spaced name.
type Per = Map<String, BTreeMap<String, u32>>;

/// Words and multi-word names of providers' ids and display names (lower
/// case, as split for the index), each with per provider id how many tools
/// carry it there.
#[derive(Debug, Default, Clone)]
pub(super) struct Providers {
    words: Per,
    /// Whole ids and display names (stopwords left out), spaced.
    names: Per,
}

holaryn_model::packed!(Providers { words, names });

/// A provider the request names.
#[derive(Debug, Clone, PartialEq)]
pub(super) struct Named {
    /// The provider's id.
    pub id: String,
    /// Provider words the request names it by ("gitlab", "gdrive"), for `why`.
    pub words: Vec<String>,
    /// Positions of the request words that name it, ascending.
    at: Vec<usize>,
    /// Whether some of those words spell its whole id or display name.
    whole: bool,
}

impl Named {
    /// How fully the request names it: words naming it, then whether they spell its whole name.
    pub(crate) fn fullness(&self) -> (usize, bool) {
        (self.at.len(), self.whole)
    }
}

/// Count (or uncount) `key` for provider `id` (allocating only for a new entry).
fn count(map: &mut Per, key: &str, id: &str, add: bool) {
    if add {
        let per = match map.get_mut(key) {
            Some(per) => per,
            None => map.entry(key.to_string()).or_default(),
        };
        match per.get_mut(id) {
            Some(n) => *n += 1,
            None => {
                per.insert(id.to_string(), 1);
            }
        }
    } else if let Some(per) = map.get_mut(key) {
        if let Some(n) = per.get_mut(id) {
            *n -= 1;
            if *n == 0 {
                per.remove(id);
            }
        }
        if per.is_empty() {
            map.remove(key);
        }
    }
}

/// Record that request words `at` name provider `id` by provider word
/// `word` (`whole`: they spell its whole name).
fn note(
    out: &mut Vec<Named>,
    id: &str,
    word: &str,
    at: impl IntoIterator<Item = usize>,
    whole: bool,
) {
    let i = match out.iter().position(|n| n.id == id) {
        Some(i) => i,
        None => {
            out.push(Named {
                id: id.to_string(),
                words: Vec::new(),
                at: Vec::new(),
                whole: false,
            });
            out.len() - 1
        }
    };
    let n = &mut out[i];
    if !n.words.iter().any(|w| w == word) {
        n.words.push(word.to_string());
    }
    n.at.extend(at);
    n.whole |= whole;
    n.at.sort_unstable();
    n.at.dedup();
}

/// Whether a request word may be part of a provider's name.
fn nameable(w: &Word) -> bool {
    w.weight >= 1.0 && !NOT_NAMES.contains(&w.word.as_str())
}

impl Providers {
    /// Count (or uncount) the words and whole names of a tool's provider id and display name.
    pub(super) fn set(&mut self, tool: &ToolDescriptor, add: bool) {
        let p = &tool.provider;
        let (id, display) = (words(&p.id), words(&p.display_name));
        let mut ws: Vec<&String> = id.iter().chain(&display).collect();
        ws.sort_unstable();
        ws.dedup();
        for w in ws {
            count(&mut self.words, w, &p.id, add);
        }
        let spaced = |ws: &[String]| {
            let ws: Vec<&str> = ws
                .iter()
                .map(String::as_str)
                .filter(|w| !is_stopword(w))
                .collect();
            ws.join(" ")
        };
        let (a, b) = (spaced(&id), spaced(&display));
        if !a.is_empty() {
            count(&mut self.names, &a, &p.id, add);
        }
        if !b.is_empty() && b != a {
            count(&mut self.names, &b, &p.id, add);
        }
    }

    /// The providers a request names, by the rule in the module header.
    pub(super) fn detect(&self, store: &Store, req: &Request) -> Vec<Named> {
        let mut out: Vec<Named> = Vec::new();
        if self.words.is_empty() {
            return out;
        }
        let ws = &req.words;
        let mut used = vec![false; ws.len()];
        // Runs of words: a whole spelled name, initials (buffers reused).
        let (mut spelled, mut initials, mut joined) = (String::new(), String::new(), String::new());
        for i in 0..ws.len() {
            spelled.clear();
            initials.clear();
            for j in i..ws.len().min(i + NAME_WORDS) {
                if !nameable(&ws[j]) {
                    break;
                }
                if j > i {
                    spelled.push(' ');
                }
                spelled.push_str(&ws[j].word);
                if let Some(per) = self.names.get(&spelled).filter(|_| j > i) {
                    used[i..=j].fill(true);
                    // The words that mark a name ("server") are not shown as it.
                    let shown = ws[i..=j]
                        .iter()
                        .filter(|w| !NAME_AFTER.contains(&w.word.as_str()));
                    for id in per.keys() {
                        for w in shown.clone() {
                            note(&mut out, id, &w.word, i..=j, true);
                        }
                    }
                }
                if NAME_AFTER.contains(&ws[j].word.as_str()) {
                    break;
                }
                joined.clear();
                joined.push_str(&initials);
                joined.push_str(&ws[j].word);
                initials.extend(ws[j].word.chars().next());
                if j == i {
                    continue;
                }
                for key in [joined.as_str(), initials.as_str()] {
                    if key.len() < 2 {
                        continue;
                    }
                    if let Some(per) = self.words.get(key) {
                        used[i..=j].fill(true);
                        for id in per.keys() {
                            note(&mut out, id, key, i..=j, self.is_whole(key, id));
                        }
                    }
                }
            }
        }
        // Single words.
        for (i, w) in ws.iter().enumerate() {
            if used[i] || !nameable(w) || NAME_AFTER.contains(&w.word.as_str()) {
                continue;
            }
            let Some(per) = self.words.get(&w.word) else {
                continue;
            };
            if per.len() > NAME_PROVIDERS || w.word.len() < if w.named { 2 } else { 3 } {
                continue;
            }
            let n: u32 = per.values().sum();
            let Some(id) = store.id(&w.stem) else {
                continue;
            };
            let carriers = store.postings(id).len() as f32;
            if w.named || n as f32 >= PROVIDER_SHARE * carriers {
                for id in per.keys() {
                    note(&mut out, id, &w.word, [i], self.is_whole(&w.word, id));
                }
            }
        }
        // A provider named by words that name another more fully is not named.
        let fuller = |a: &Named| {
            out.iter()
                .any(|b| b.at.len() > a.at.len() && a.at.iter().all(|i| b.at.contains(i)))
        };
        let keep: Vec<bool> = out.iter().map(|a| !fuller(a)).collect();
        let mut keep = keep.into_iter();
        out.retain(|_| keep.next().unwrap_or(true));
        out
    }

    /// Whether `key` is the whole id or display name of provider `id`.
    fn is_whole(&self, key: &str, id: &str) -> bool {
        self.names.get(key).is_some_and(|per| per.contains_key(id))
    }

    /// Multiply by [`PROVIDER`] the scores of the named providers' tools (once per tool).
    pub(super) fn boost(store: &Store, named: &[Named], scores: &mut [f32]) {
        let mut boosted: Vec<u32> = Vec::new();
        for n in named {
            let Some(id) = n.words.first().and_then(|w| store.id(&stem(w))) else {
                continue;
            };
            boosted.extend(
                store
                    .postings(id)
                    .iter()
                    .filter(|p| p.fields & PROVIDER_FIELD != 0)
                    .filter(|p| store.doc(p.doc).is_some_and(|d| d.tool.provider.id == n.id))
                    .map(|p| p.doc),
            );
        }
        boosted.sort_unstable();
        boosted.dedup();
        for d in boosted {
            if let Some(s) = scores.get_mut(d as usize) {
                *s *= PROVIDER;
            }
        }
    }
}

/// How fully the request names the provider of the tool in `doc`, if at all.
pub(super) fn provider_fullness(store: &Store, doc: u32, named: &[Named]) -> Option<(usize, bool)> {
    let d = store.doc(doc)?;
    named
        .iter()
        .find(|n| n.id == d.tool.provider.id)
        .map(Named::fullness)
}

/// `why` entry for a provider the request names ("named provider github").
pub(super) fn provider_why(store: &Store, doc: u32, named: &[Named]) -> Option<String> {
    let d = store.doc(doc)?;
    let n = named.iter().find(|n| n.id == d.tool.provider.id)?;
    Some(format!("named provider {}", n.words.join(", ")))
}
