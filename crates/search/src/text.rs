//! Text normalisation for ranking: Unicode NFKC, case and diacritic folding,
//! identifier splitting (snake_case, kebab-case, camelCase, dotted and
//! `server/tool`), stopwords, a light English stemmer, and the verb families
//! users type.

use super::nfkd::{decompose, is_mark, nfkd};

const STOPWORDS: &[&str] = &[
    "a", "an", "the", "and", "or", "to", "of", "in", "on", "for", "with", "by", "from", "at", "as",
    "is", "are", "be", "this", "that", "these", "those", "it", "its", "my", "me", "i", "you",
    "your", "please", "can", "could", "would", "should", "them", "then", "some", "into", "about",
    "via", "using", "want", "need", "will", "we", "our", "us", "do", "does", "so", "if", "which",
    "what",
];

/// Verb families, literal members first; members of one family expand to each other.
pub(crate) const VERB_FAMILIES: &[&[&str]] = &[
    &[
        "find", "search", "locate", "glob", "lookup", "look", "seek", "discover",
    ],
    &[
        "read", "open", "get", "fetch", "show", "view", "cat", "load", "retrieve", "display",
        "grab",
    ],
    &["create", "add", "new", "make", "insert"],
    &[
        "delete", "remove", "rm", "erase", "drop", "destroy", "unlink",
    ],
    &["list", "enumerate", "ls", "browse"],
    &[
        "update", "edit", "modify", "change", "patch", "set", "alter",
    ],
    &["write", "save", "put", "store", "persist"],
    &["run", "execute", "exec", "start", "launch", "invoke"],
];
/// Index of the find family in [`VERB_FAMILIES`] (a test checks each index).
pub(crate) const FIND: usize = 0;
/// Index of the read family in [`VERB_FAMILIES`].
pub(crate) const READ: usize = 1;
/// Index of the delete family in [`VERB_FAMILIES`].
pub(crate) const DELETE: usize = 3;
/// Index of the list family in [`VERB_FAMILIES`].
pub(crate) const LIST: usize = 4;

/// Words whose final "s" is not a plural ("news" is not "new").
const UNSTEMMED: &[&str] = &["news"];

/// Words joining steps of a multi-step request.
pub(crate) const STEP_JOINERS: &[&str] = &["and", "then", "after", "afterwards", "also"];

/// Light English stemmer (plural, -ing, -ed, final -e); stable for docs and queries alike.
pub(crate) fn stem(word: &str) -> String {
    let mut w = word.to_string();
    stem_in_place(&mut w);
    w
}

/// Whether a word ends in a plural the stemmer takes off ("issues",
/// "queries", "classes"; not "status", "class", "analysis", "news").
pub(crate) fn plural(w: &str) -> bool {
    stemmed(w) && plural_ending(w)
}

/// Whether the stemmer touches the word at all: ASCII (whose length is its
/// character count), longer than three letters, and not listed as unstemmed.
fn stemmed(w: &str) -> bool {
    w.is_ascii() && w.len() > 3 && !UNSTEMMED.contains(&w)
}

/// Whether a word the stemmer touches ends in a plural it takes off.
fn plural_ending(w: &str) -> bool {
    w.ends_with("ies") && w.len() > 4
        || w.ends_with("sses")
        || w.ends_with('s') && !w.ends_with("ss") && !w.ends_with("us") && !w.ends_with("is")
}

/// [`stem`] in place (only ever shortens the word or swaps its last letters).
fn stem_in_place(w: &mut String) {
    if !stemmed(w) {
        return; // non-ASCII words are never stemmed
    }
    if plural_ending(w) {
        if w.ends_with("ies") && w.len() > 4 {
            w.truncate(w.len() - 3);
            w.push('y');
        } else if w.ends_with("sses") {
            w.truncate(w.len() - 2);
        } else {
            w.truncate(w.len() - 1);
        }
    }
    if w.len() > 5 && w.ends_with("ing") {
        w.truncate(w.len() - 3);
    } else if w.len() > 4 && w.ends_with("ed") {
        w.truncate(w.len() - 2);
    }
    let b = w.as_bytes();
    if b.len() > 4
        && b[b.len() - 1] == b[b.len() - 2]
        && !matches!(b[b.len() - 1], b'l' | b's' | b'z')
    {
        w.truncate(w.len() - 1);
    }
    if w.len() > 4 && w.ends_with('e') {
        w.truncate(w.len() - 1);
    }
}

/// Split text into raw lower-case words (identifiers split, diacritics folded).
pub fn words(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    each_word(text, |w| out.push(std::mem::take(w)));
    out
}

/// Call `f` with each raw word of `text` in a reused buffer (what [`words`]
/// returns, without a string per word); `f` may change or take the word.
fn each_word(text: &str, f: impl FnMut(&mut String)) {
    // NFKC, NFD and combining-mark removal leave ASCII unchanged: skip them
    // for the common case (tool names, descriptions and most queries).
    if text.is_ascii() {
        return split_spans(text, f);
    }
    split_spans(&fold(text), f)
}

/// NFKC, then NFD without combining marks: NFD(NFKC(x)) is NFKD(x), and
/// canonical reordering only moves marks, so this is each character's
/// compatibility decomposition without its marks.
fn fold(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        decompose(c, |d| {
            if !is_mark(d) {
                out.push(d);
            }
        });
    }
    out
}

/// Length of a numeronym at the start of `rest` ("k8s", "n8n", "i18n",
/// "a11y", "e2e"): one ASCII letter, one or two digits, one letter, then no
/// further letter or digit (an ASCII non-word character or the end). It is
/// one word: split at its digits, "k8s" and "n8n" would share the word "8".
fn numeronym_len(rest: &[u8]) -> Option<usize> {
    let digits = rest
        .iter()
        .skip(1)
        .take_while(|b| b.is_ascii_digit())
        .count();
    let len = 2 + digits;
    let fits = rest.first().is_some_and(u8::is_ascii_alphabetic)
        && (1..=2).contains(&digits)
        && rest.get(len - 1).is_some_and(u8::is_ascii_alphabetic)
        && rest
            .get(len)
            .is_none_or(|b| b.is_ascii() && !b.is_ascii_alphanumeric());
    fits.then_some(len)
}

/// [`split_words`] over folded text by spans: each word is copied once and
/// lower-cased in place (ASCII) instead of pushed character by character.
fn split_spans(text: &str, mut f: impl FnMut(&mut String)) {
    let mut cur = String::new();
    let mut emit = |cur: &mut String, span: &str| {
        cur.clear();
        if span.is_ascii() {
            cur.push_str(span);
            cur.make_ascii_lowercase();
        } else {
            span.chars().for_each(|c| cur.extend(c.to_lowercase()));
        }
        f(cur);
    };
    let mut n = 0usize;
    let mut start: Option<usize> = None; // the word being read
    let mut prev = ' ';
    let mut skip = 0usize; // the end of a numeronym already emitted
    for (i, ch) in text.char_indices() {
        if i < skip {
            continue;
        }
        if ch.is_alphanumeric() {
            match start {
                Some(s) => {
                    if (prev.is_lowercase() && ch.is_uppercase())
                        || (prev.is_alphabetic() != ch.is_alphabetic())
                    {
                        emit(&mut cur, &text[s..i]);
                        n += 1;
                        start = Some(i);
                    }
                }
                None => match numeronym_len(&text.as_bytes()[i..]) {
                    Some(len) => {
                        emit(&mut cur, &text[i..i + len]);
                        n += 1;
                        skip = i + len;
                    }
                    None => start = Some(i),
                },
            }
            prev = ch;
        } else if let Some(s) = start.take() {
            emit(&mut cur, &text[s..i]);
            n += 1;
        }
        if n >= 4096 {
            if let Some(s) = start {
                emit(&mut cur, &text[s..i + ch.len_utf8()]);
            }
            return;
        }
    }
    if let Some(s) = start {
        emit(&mut cur, &text[s..]);
    }
}

/// Split already-folded characters into lower-case words, at most 4096
/// (plus the word being read when the limit is reached): the reference
/// [`split_spans`] is tested against.
#[cfg(test)]
fn split_words(chars: impl Iterator<Item = char>, mut f: impl FnMut(&mut String)) {
    let mut cur = String::new();
    let mut n = 0usize;
    let mut prev: Option<char> = None;
    let chars: Vec<char> = chars.collect();
    let mut i = 0;
    while i < chars.len() {
        let ch = chars[i];
        i += 1;
        // A numeronym read as one word: letter, one or two digits, letter, then a non-word ASCII character or the end.
        if prev.is_none() && ch.is_ascii_alphabetic() {
            let digits = chars[i..].iter().take_while(|c| c.is_ascii_digit()).count();
            let last = chars.get(i + digits);
            let after = chars.get(i + digits + 1);
            if (1..=2).contains(&digits)
                && last.is_some_and(char::is_ascii_alphabetic)
                && after.is_none_or(|c| c.is_ascii() && !c.is_ascii_alphanumeric())
            {
                let mut word: String = chars[i - 1..i + digits + 1].iter().collect();
                word.make_ascii_lowercase();
                f(&mut word);
                n += 1;
                i += digits + 1;
                prev = last.copied();
                if n >= 4096 {
                    break;
                }
                continue;
            }
        }
        if ch.is_alphanumeric() {
            let boundary = match prev {
                Some(p) => {
                    (p.is_lowercase() && ch.is_uppercase())
                        || (p.is_alphabetic() != ch.is_alphabetic())
                }
                None => false,
            };
            if boundary && !cur.is_empty() {
                f(&mut cur);
                cur.clear();
                n += 1;
            }
            if ch.is_ascii() {
                cur.push(ch.to_ascii_lowercase());
            } else {
                cur.extend(ch.to_lowercase());
            }
            prev = Some(ch);
        } else {
            if !cur.is_empty() {
                f(&mut cur);
                cur.clear();
                n += 1;
            }
            prev = None;
        }
        if n >= 4096 {
            break;
        }
    }
    if !cur.is_empty() {
        f(&mut cur);
    }
}

/// True for a stopword.
pub(crate) fn is_stopword(w: &str) -> bool {
    w.len() <= 6 && listed(STOPWORDS, w)
}

/// Whether `w` is in `list`: length and first byte before the string
/// compare (word lists are read for every request word, several times).
pub(crate) fn listed(list: &[&str], w: &str) -> bool {
    let Some(&first) = w.as_bytes().first() else {
        return list.contains(&w);
    };
    list.iter()
        .any(|m| m.len() == w.len() && m.as_bytes()[0] == first && *m == w)
}

/// Index terms of a text: words without stopwords, stemmed (the tests'
/// reference for [`each_term`]).
#[cfg(test)]
fn terms(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    each_term(text, |t| out.push(t.to_string()));
    out
}

/// Call `f` with each index term of `text`: words without stopwords, stemmed,
/// without a string per term.
pub(crate) fn each_term(text: &str, mut f: impl FnMut(&str)) {
    each_word(text, |w| {
        if !is_stopword(w) {
            stem_in_place(w);
            f(w);
        }
    });
}

/// The verb family of a raw word, if any.
pub(crate) fn family_of(word: &str) -> Option<usize> {
    // Length and first byte before the string compare: this runs for every
    // request word, several times per search.
    let first = *word.as_bytes().first()?;
    VERB_FAMILIES.iter().position(|f| {
        f.iter()
            .any(|m| m.len() == word.len() && m.as_bytes()[0] == first && *m == word)
    })
}

/// The stems of each verb family's members, in [`VERB_FAMILIES`] order
/// (computed once: every search expands its first verb's family).
pub(crate) fn family_stems() -> &'static [Vec<String>] {
    static STEMS: std::sync::OnceLock<Vec<Vec<String>>> = std::sync::OnceLock::new();
    STEMS.get_or_init(|| {
        VERB_FAMILIES
            .iter()
            .map(|f| f.iter().map(|m| stem(m)).collect())
            .collect()
    })
}

/// A name NFKD-normalised and lower-cased, for exact-name matching (two names
/// get one key exactly when their NFKC forms lower-case alike: the key is
/// the NFD of that).
pub(crate) fn exact_key(text: &str) -> String {
    let text = text.trim();
    if text.is_ascii() {
        return text.to_ascii_lowercase(); // NFKD is the identity on ASCII
    }
    nfkd(text).to_lowercase()
}

#[cfg(test)]
mod tests {
    use super::*;
    use unicode_normalization::char::is_combining_mark;
    use unicode_normalization::UnicodeNormalization;

    #[test]
    fn news_is_not_new() {
        assert_eq!(stem("news"), "news");
        assert_eq!(stem("views"), "view");
    }

    #[test]
    fn stopwords_are_short() {
        assert!(STOPWORDS.iter().all(|w| w.len() <= 6));
    }

    #[test]
    fn identifiers_split_and_stem() {
        assert_eq!(words("github/createIssue"), ["github", "create", "issue"]);
        assert_eq!(
            words("read_file-v2.Crème"),
            ["read", "file", "v", "2", "creme"]
        );
        assert_eq!(stem("creating"), stem("create"));
        assert_eq!(stem("files"), "file");
        assert_eq!(stem("releases"), stem("release"));
        assert_eq!(stem("entries"), "entry");
    }

    #[test]
    fn terms_are_the_stemmed_words_that_are_not_stopwords() {
        let long = "word ".repeat(5000) + "tail";
        for text in [
            "Creating the GitHub issues, then releases: entries of Crème brûlée ÅNGSTRÖM",
            "HTTPServer2xx_getURL/v1.2 and running passed fizzled buzzing",
            long.as_str(),
        ] {
            let slow: Vec<String> = words(text)
                .into_iter()
                .filter(|w| !is_stopword(w))
                .map(|w| stem(&w))
                .collect();
            assert_eq!(terms(text), slow, "{text:?}");
        }
        assert_eq!(words(&long).len(), 4096);
    }

    /// Pseudo-random mixes of ASCII, combining marks, compatibility forms,
    /// Greek, Hangul and CJK (a fixed LCG: the same texts every run).
    fn mixed_texts() -> Vec<String> {
        let pool: Vec<char> =
            "aZ9 _-/.eEsS\u{301}\u{323}\u{308}ﬁﬃＡｚ１½ΣσςÅé한국東—’\u{1100}\u{1161}\u{11a8}"
                .chars()
                .collect();
        let mut x: u64 = 0x9e37_79b9_7f4a_7c15;
        (0..400)
            .map(|_| {
                (0..24)
                    .map(|_| {
                        x = x
                            .wrapping_mul(6364136223846793005)
                            .wrapping_add(1442695040888963407);
                        pool[(x >> 33) as usize % pool.len()]
                    })
                    .collect()
            })
            .collect()
    }

    #[test]
    fn fast_paths_match_the_normalising_path() {
        let all: String = (0u8..128).map(char::from).collect();
        for text in [
            all.as_str(),
            "Find the PROJECT release-notes, then summarize them!",
            "HTTPServer2xx_getURL/v1.2",
            "k8s n8n I18N a11y-e2e k8sx ab8s k123s x8é k8s— (k8s) v2 s3 k8s",
            "",
            "Crème brûlée — ÅNGSTRÖM’s ﬁle Ｆｕｌｌ e\u{301}té ΣΑΣ σας 東京2024 x\u{301}\u{323}y",
            "e\u{301}\u{301}a\u{300} \u{301}start 한국어 ﬃ ½",
            &"aÉ1 ".repeat(2000),
            &"aB1 ".repeat(2000),
            &"word ".repeat(5000),
            &"xY".repeat(5000),
        ]
        .into_iter()
        .map(str::to_string)
        .chain(mixed_texts())
        {
            let text = text.as_str();
            let folded = text.nfkc().collect::<String>();
            let mut slow = Vec::new();
            split_words(folded.nfd().filter(|c| !is_combining_mark(*c)), |w| {
                slow.push(std::mem::take(w))
            });
            assert_eq!(words(text), slow, "{text:?}");
            let key = text.trim().nfkc().collect::<String>().to_lowercase();
            assert_eq!(exact_key(text), key.nfd().collect::<String>(), "{text:?}");
        }
    }

    #[test]
    fn a_plural_is_what_the_stemmer_takes_off() {
        for w in ["issues", "queries", "classes", "dynos", "subscriptions"] {
            assert!(plural(w), "{w}");
            assert!(stem(w).len() < w.len(), "{w}");
        }
        for w in ["status", "class", "analysis", "news", "redis", "gas"] {
            assert!(!plural(w), "{w}");
        }
    }

    #[test]
    fn family_indices_name_their_families() {
        assert_eq!(VERB_FAMILIES[FIND][0], "find");
        assert_eq!(VERB_FAMILIES[READ][0], "read");
        assert_eq!(VERB_FAMILIES[DELETE][0], "delete");
        assert_eq!(VERB_FAMILIES[LIST][0], "list");
    }

    #[test]
    fn a_numeronym_is_one_word() {
        assert_eq!(words("in k8s, on n8n"), ["in", "k8s", "on", "n8n"]);
        assert_eq!(
            words("I18N and a11y e2e-tests"),
            ["i18n", "and", "a11y", "e2e", "tests"]
        );
        // Not one: more letters or digits around it, or no letter after the digits.
        assert_eq!(
            words("ab8s k123s k8sx v2"),
            ["ab", "8", "s", "k", "123", "s", "k", "8", "sx", "v", "2"]
        );
    }

    #[test]
    fn exact_keys_match_when_the_nfkc_keys_do() {
        let nfkc_key = |t: &str| t.trim().nfkc().collect::<String>().to_lowercase();
        let mut texts: Vec<String> = mixed_texts().into_iter().take(60).collect();
        texts.extend(
            [
                "Crème",
                "Cre\u{300}me",
                "CRÈME",
                "crème ",
                "Ｃｒèｍｅ",
                "ﬁle",
                "FILE",
                "Å",
                "\u{212B}",
                "A\u{30A}",
                "a\u{301}\u{323}",
                "a\u{323}\u{301}",
                "ΣΑΣ",
                "σας",
                "한국",
                "\u{1112}\u{1161}\u{11AB}",
                "½",
                "1⁄2",
                "İstanbul",
                "i\u{307}stanbul",
            ]
            .map(String::from),
        );
        for a in &texts {
            for b in &texts {
                assert_eq!(
                    exact_key(a) == exact_key(b),
                    nfkc_key(a) == nfkc_key(b),
                    "{a:?} {b:?}"
                );
            }
        }
    }
}
