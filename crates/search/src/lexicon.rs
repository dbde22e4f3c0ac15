//! The concept lexicon: everyday phrasings mapped to the words tools use
//! ("new name" → rename, move; "thumbs up" → reaction), and conversational
//! filler to ignore. The reviewed data lives in `lexicon.txt` (compiled in
//! without its comments by `build.rs`, parsed once); each entry group there
//! says where its words came from.

use super::map::Map;
use super::text::{is_stopword, stem, words};
use std::sync::OnceLock;

/// The lexicon data file, its comment lines left out (see `build.rs`).
pub(crate) const DATA: &str = include_str!(concat!(env!("OUT_DIR"), "/lexicon.txt"));

/// One entry: a phrase (stemmed content words) and the tool words it adds.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Entry {
    /// The phrase's content words, stemmed.
    pub phrase: Vec<String>,
    /// Tool words it adds, as (word, stem); empty for filler.
    pub adds: Vec<(String, String)>,
    /// The phrase as written (for `why`).
    pub text: String,
}

/// The parsed lexicon: entries indexed by their first phrase word.
#[derive(Debug, Default)]
pub(crate) struct Lexicon {
    entries: Vec<Entry>,
    by_first: Map<String, Vec<usize>>,
}

/// Words phrases match across: articles, possessives and pronouns.
pub(crate) const SKIP: &[&str] = &[
    "a", "an", "the", "my", "our", "your", "their", "his", "her", "this", "that", "these", "those",
    "it", "its", "some", "me", "us",
];

/// True for a word phrase matching skips.
pub(crate) fn is_skipped(word: &str) -> bool {
    SKIP.contains(&word)
}

/// The words of a text as phrases match them: stemmed, skippable words dropped.
pub(crate) fn phrase_stems(text: &str) -> Vec<String> {
    words(text)
        .into_iter()
        .filter(|w| !is_skipped(w))
        .map(|w| stem(&w))
        .collect()
}

impl Lexicon {
    /// Parse the data format (see `lexicon.txt`); malformed lines are skipped.
    pub(crate) fn parse(text: &str) -> Lexicon {
        let mut lex = Lexicon::default();
        for line in text.lines().map(str::trim) {
            if line.is_empty() || line.starts_with('#') {
                continue;
            }
            let (phrase, adds) = match line.strip_prefix("- ") {
                Some(filler) => (filler, ""),
                None => match line.split_once(':') {
                    Some((p, a)) => (p, a),
                    None => continue,
                },
            };
            let stems = phrase_stems(phrase);
            if stems.is_empty() {
                continue;
            }
            let mut add: Vec<(String, String)> = words(adds)
                .into_iter()
                .filter(|w| !is_stopword(w))
                .map(|w| (stem(&w), w))
                .map(|(s, w)| (w, s))
                .collect();
            add.retain(|(_, a)| !stems.contains(a));
            add.dedup_by(|a, b| a.1 == b.1);
            if !adds.is_empty() && add.is_empty() {
                continue;
            }
            lex.by_first
                .entry(stems[0].clone())
                .or_default()
                .push(lex.entries.len());
            lex.entries.push(Entry {
                phrase: stems,
                adds: add,
                text: phrase.trim().to_string(),
            });
        }
        // Longest phrases first, so "go back" wins over "go".
        for list in lex.by_first.values_mut() {
            let entries = &lex.entries;
            list.sort_by_key(|i| std::cmp::Reverse(entries[*i].phrase.len()));
        }
        lex
    }

    /// Number of entries (the tests count the data file's lines against it).
    #[cfg(test)]
    fn len(&self) -> usize {
        self.entries.len()
    }

    /// The longest entry whose phrase starts at `seq[at]` and whose filler
    /// status is `filler`.
    pub(crate) fn match_at(&self, seq: &[&str], at: usize, filler: bool) -> Option<&Entry> {
        let cands = self.by_first.get(*seq.get(at)?)?;
        cands.iter().map(|i| &self.entries[*i]).find(|e| {
            e.adds.is_empty() == filler
                && seq.len() - at >= e.phrase.len()
                && seq[at..at + e.phrase.len()] == e.phrase[..]
        })
    }
}

/// Particles that may stand apart from their verb ("roll the worker back",
/// "spin a new pod up"): a two-word phrase ending in one also matches with
/// up to [`PARTICLE_GAP`] words between its verb and its particle.
const PARTICLES: &[&str] = &["up", "down", "back", "off", "out", "over", "away", "on"];

/// Most words between a verb and its separated particle.
pub(crate) const PARTICLE_GAP: usize = 2;

impl Lexicon {
    /// A two-word verb-and-particle entry whose verb is `seq[at]` and whose
    /// particle comes after 1..=[`PARTICLE_GAP`] other words (`open(k)` says
    /// whether `seq[k]` may stand between them); with the particle's position.
    pub(crate) fn match_split(
        &self,
        seq: &[&str],
        at: usize,
        open: impl Fn(usize) -> bool,
    ) -> Option<(&Entry, usize)> {
        let cands = self.by_first.get(*seq.get(at)?)?;
        for gap in 1..=PARTICLE_GAP {
            let k = at + 1 + gap;
            let Some(particle) = seq.get(k) else { break };
            if !open(k - 1) {
                break;
            }
            if !PARTICLES.contains(particle) {
                continue;
            }
            let hit = cands
                .iter()
                .map(|i| &self.entries[*i])
                .find(|e| !e.adds.is_empty() && e.phrase.len() == 2 && e.phrase[1] == *particle);
            if let Some(e) = hit {
                return Some((e, k));
            }
        }
        None
    }
}

/// The compiled-in lexicon, parsed on first use.
pub(crate) fn lexicon() -> &'static Lexicon {
    static LEX: OnceLock<Lexicon> = OnceLock::new();
    LEX.get_or_init(|| Lexicon::parse(DATA))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_data_file_parses_and_every_line_counts() {
        let lex = lexicon();
        let lines = DATA
            .lines()
            .map(str::trim)
            .filter(|l| !l.is_empty() && !l.starts_with('#'))
            .count();
        assert_eq!(lex.len(), lines, "a lexicon line was skipped");
        let seq = phrase_stems("give it a new name");
        let at = seq.iter().position(|s| s == "new").expect("new");
        let seq: Vec<&str> = seq.iter().map(String::as_str).collect();
        let e = lex.match_at(&seq, at, false).expect("entry");
        assert!(e.adds.iter().any(|(w, _)| w == "rename"));
    }

    #[test]
    fn groups_say_where_they_come_from() {
        for line in DATA.lines().filter(|l| l.starts_with("## ")) {
            assert!(line.contains(" — "), "group without a source note: {line}");
        }
    }
}
