//! The relatedness table: everyday words mapped to the words tools use for
//! the same thing, built offline from WordNet and the tool catalogs'
//! vocabulary by `scripts/build-related.mjs` (`related.txt`, compiled in and
//! parsed once). Read only for request words the hand lexicon
//! (`search/lexicon.rs`) does not cover: the hand lexicon stays for what the
//! data misses or gets wrong.

use super::map::Map;
use super::text::{stem, words};
use std::sync::OnceLock;

/// The generated table.
const DATA: &str = include_str!("related.txt");

/// One word's related tool words.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Related {
    /// The word as listed (for `why`).
    pub text: String,
    /// Its weight: 1.0 for a word of one sense, less for words of many.
    pub weight: f32,
    /// Tool words, as (word, stem).
    pub adds: Vec<(String, String)>,
}

/// Parse the table format (`word digit: tool words`); malformed lines are skipped.
fn parse(text: &str) -> Map<String, Related> {
    let mut out: Map<String, Related> = Map::default();
    for line in text.lines().filter(|l| !l.starts_with('#')) {
        let Some((head, adds)) = line.split_once(':') else {
            continue;
        };
        let Some((word, digit)) = head.split_once(' ') else {
            continue;
        };
        let Ok(level) = digit.trim().parse::<u8>() else {
            continue;
        };
        let key = stem(word);
        let adds: Vec<(String, String)> = words(adds)
            .into_iter()
            .map(|w| {
                let s = stem(&w);
                (w, s)
            })
            .filter(|(_, s)| *s != key)
            .collect();
        if adds.is_empty() {
            continue;
        }
        // Two words of one stem ("file", "filed") keep the first listed.
        out.entry(key).or_insert(Related {
            text: word.to_string(),
            weight: f32::from(level.clamp(1, 9)) / 9.0,
            adds,
        });
    }
    out
}

/// The related tool words of a request word's stem, if the table has it.
pub(crate) fn related(stem: &str) -> Option<&'static Related> {
    static TABLE: OnceLock<Map<String, Related>> = OnceLock::new();
    TABLE.get_or_init(|| parse(DATA)).get(stem)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_table_parses_and_maps_everyday_words_to_tool_words() {
        let lines = DATA.lines().filter(|l| !l.starts_with('#')).count();
        assert!(lines > 1000, "{lines}");
        let r = related(&stem("summarise")).or_else(|| related(&stem("recapitulate")));
        assert!(r.is_some_and(|r| r.adds.iter().any(|(w, _)| w.starts_with("summar"))));
        assert!(
            DATA.contains("Princeton University"),
            "WordNet's notice is kept"
        );
    }
}
