//! "Named provider": a request that names a provider ("on GitHub", "with
//! puppeteer", "linear: list projects", "google drive") ranks that
//! provider's tools higher, `why`: "named provider github".
//!
//! A typed word names a provider when it is a word of the provider's id or
//! display name, in at most [`NAME_PROVIDERS`] providers, and either mostly
//! found there ([`PROVIDER_SHARE`] of the tools that carry it) or phrased as a
//! name in the request (`query::Word::named`): a provider named by a common
//! word ("memory", "time", "fetch") is no signal on its own. Consecutive words
//! name a provider whose word is their initials ("knowledge base" → `kb`) or
//! their initials before the last word ("google drive" → `gdrive`).
//!
//! Storage is incremental like the postings: each tool adds or removes only
//! its own provider's words ([`Providers::set`]).

use super::postings::Store;
use super::query::{Request, NAME_AFTER};
use super::text::{stem, words};
use crate::descriptor::ToolDescriptor;
use std::collections::{BTreeMap, HashMap};

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

/// Per word of a provider's id or display name (lower case, as split for the
/// index): per provider id, how many tools carry it there.
#[derive(Debug, Default, Clone)]
pub(super) struct Providers {
    words: HashMap<String, BTreeMap<String, u32>>,
}

impl Providers {
    /// Count (or uncount) the words of a tool's provider id and display name.
    pub(super) fn set(&mut self, tool: &ToolDescriptor, add: bool) {
        let p = &tool.provider;
        let mut ws = words(&format!("{} {}", p.id, p.display_name));
        ws.sort_unstable();
        ws.dedup();
        for w in ws {
            if add {
                let per = self.words.entry(w).or_default();
                *per.entry(p.id.clone()).or_default() += 1;
            } else if let Some(per) = self.words.get_mut(&w) {
                if let Some(n) = per.get_mut(&p.id) {
                    *n -= 1;
                    if *n == 0 {
                        per.remove(&p.id);
                    }
                }
                if per.is_empty() {
                    self.words.remove(&w);
                }
            }
        }
    }

    /// The provider words a request names, and their tools' scores
    /// multiplied by [`PROVIDER`] (once per tool). A typed word names a
    /// provider when it is a word of a provider's id or display name and
    /// either is phrased as a name or is mostly found there
    /// ([`PROVIDER_SHARE`]); consecutive words name a provider whose word
    /// is their initials, or their initials before the last word
    /// ("knowledge base" → `kb`, "google drive" → `gdrive`).
    pub(super) fn named(&self, store: &Store, req: &Request, scores: &mut [f32]) -> Vec<String> {
        if self.words.is_empty() {
            return Vec::new();
        }
        let ws = &req.words;
        let mut named: Vec<String> = Vec::new();
        let mut used = vec![false; ws.len()];
        for i in 0..ws.len() {
            let mut initials = String::new();
            for j in i..ws.len().min(i + 4) {
                if j > i && ws[j].concept != ws[j - 1].concept + 1
                    || NAME_AFTER.contains(&ws[j].word.as_str())
                {
                    break;
                }
                let joined = format!("{initials}{}", ws[j].word);
                initials.extend(ws[j].word.chars().next());
                for key in [joined, initials.clone()] {
                    if j > i && key.len() >= 2 && self.words.contains_key(&key) {
                        used[i..=j].fill(true);
                        if !named.contains(&key) {
                            named.push(key);
                        }
                    }
                }
            }
        }
        for (w, _) in ws
            .iter()
            .zip(&used)
            .filter(|(w, u)| !**u && w.weight >= 1.0)
        {
            let Some(per) = self.words.get(&w.word) else {
                continue;
            };
            if per.len() > NAME_PROVIDERS
                || w.word.len() < if w.named { 2 } else { 3 }
                || NOT_NAMES.contains(&w.word.as_str())
                || NAME_AFTER.contains(&w.word.as_str())
            {
                continue;
            }
            let n: u32 = per.values().sum();
            let Some(id) = store.id(&w.stem) else {
                continue;
            };
            let carriers = store.postings(id).len() as f32;
            if (w.named || n as f32 >= PROVIDER_SHARE * carriers) && !named.contains(&w.word) {
                named.push(w.word.clone());
            }
        }
        let mut boosted: Vec<u32> = Vec::new();
        for w in &named {
            if let Some(id) = store.id(&stem(w)) {
                let owned = store.postings(id).iter();
                boosted.extend(
                    owned
                        .filter(|p| p.fields & PROVIDER_FIELD != 0)
                        .map(|p| p.doc),
                );
            }
        }
        boosted.sort_unstable();
        boosted.dedup();
        for d in boosted {
            scores[d as usize] *= PROVIDER;
        }
        named
    }
}

/// `why` entry for a provider the request names ("named provider github").
pub(super) fn provider_why(store: &Store, doc: u32, named: &[String]) -> Option<String> {
    let has: Vec<&str> = named
        .iter()
        .filter(|w| {
            store.id(&stem(w)).is_some_and(|id| {
                let l = store.postings(id);
                l.binary_search_by_key(&doc, |p| p.doc)
                    .is_ok_and(|i| l[i].fields & PROVIDER_FIELD != 0)
            })
        })
        .map(String::as_str)
        .collect();
    (!has.is_empty()).then(|| format!("named provider {}", has.join(", ")))
}
