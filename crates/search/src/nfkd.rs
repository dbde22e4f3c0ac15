//! Unicode compatibility decomposition (NFKD) and combining marks, for search
//! folding: what `unicode-normalization` computes, from tables that hold only
//! this (`nfkd_tables.rs`, generated from that crate by `tools/unicode-tables`
//! (`nfkd`); the tests check every code point against it).
//! The browser downloads these tables, so they are a quarter of that crate's.

use super::nfkd_tables::{MARKS, MULTI, POOL, RUNS, RUN_TARGETS};

/// Hangul syllables, decomposed algorithmically into conjoining jamo.
const HANGUL: std::ops::RangeInclusive<u32> = 0xAC00..=0xD7A3;
/// First leading consonant and vowel jamo, the one before the first trailing
/// consonant, and how many vowels and trailing consonants (with none) there are.
const L_BASE: u32 = 0x1100;
const V_BASE: u32 = 0x1161;
const T_BASE: u32 = 0x11A7;
const V_COUNT: u32 = 21;
const T_COUNT: u32 = 28;

/// Call `f` with each code point of the compatibility decomposition of `c`
/// (full, in the order of the decomposition; no canonical reordering).
pub(crate) fn decompose(c: char, mut f: impl FnMut(char)) {
    let cp = c as u32;
    if cp < 0xA0 {
        return f(c); // nothing below U+00A0 decomposes
    }
    if HANGUL.contains(&cp) {
        let s = cp - HANGUL.start();
        let jamo = |base: u32, i: u32| char::from_u32(base + i).unwrap_or(c);
        f(jamo(L_BASE, s / (V_COUNT * T_COUNT)));
        f(jamo(V_BASE, s % (V_COUNT * T_COUNT) / T_COUNT));
        if s % T_COUNT != 0 {
            f(jamo(T_BASE, s % T_COUNT));
        }
        return;
    }
    if let Ok(i) = MULTI.binary_search_by_key(&cp, |m| m.0) {
        let (_, at, len) = MULTI[i];
        let at = usize::from(at);
        return POOL[at..at + usize::from(len)].chars().for_each(f);
    }
    match run_of(RUNS, cp, |r| *r) {
        Some(i) => f(char::from_u32(RUN_TARGETS[i] + (cp - RUNS[i].0)).unwrap_or(c)),
        None => f(c),
    }
}

/// The canonical combining class of a combining mark, `None` for any other
/// code point (every code point with a non-zero class is a mark).
pub(crate) fn mark_class(c: char) -> Option<u8> {
    let cp = c as u32;
    if cp < 0x300 {
        return None; // the first mark is U+0300
    }
    run_of(MARKS, cp, |m| (m.0, m.1)).map(|i| MARKS[i].2)
}

/// Whether `c` is a combining mark (General_Category=Mark).
pub(crate) fn is_mark(c: char) -> bool {
    mark_class(c).is_some()
}

/// NFKD of `text`: decomposition, then each stretch of marks with non-zero
/// classes stably sorted by class (canonical ordering).
pub(crate) fn nfkd(text: &str) -> String {
    let mut chars: Vec<(char, u8)> = Vec::with_capacity(text.len());
    for c in text.chars() {
        decompose(c, |d| chars.push((d, mark_class(d).unwrap_or(0))));
    }
    let mut i = 0;
    while i < chars.len() {
        let run = chars[i..].iter().take_while(|(_, k)| *k != 0).count();
        for j in i + 1..i + run {
            // Insertion sort (stable; runs of marks are short).
            let mut k = j;
            while k > i && chars[k - 1].1 > chars[k].1 {
                chars.swap(k - 1, k);
                k -= 1;
            }
        }
        i += run.max(1);
    }
    chars.into_iter().map(|(c, _)| c).collect()
}

/// The index of the entry of a run table `(first, count - 1, …)` that holds `cp`.
fn run_of<T>(table: &[T], cp: u32, key: impl Fn(&T) -> (u32, u8)) -> Option<usize> {
    let i = table.partition_point(|r| key(r).0 <= cp).checked_sub(1)?;
    let (first, extra) = key(&table[i]);
    (cp - first <= u32::from(extra)).then_some(i)
}

#[cfg(test)]
mod tests {
    use super::*;
    use unicode_normalization::char::{canonical_combining_class, is_combining_mark};
    use unicode_normalization::UnicodeNormalization;

    #[test]
    fn every_code_point_decomposes_and_classifies_as_unicode_normalization_does() {
        let mut ours = String::new();
        for c in (0..=char::MAX as u32).filter_map(char::from_u32) {
            ours.clear();
            decompose(c, |d| ours.push(d));
            let theirs: String = c.to_string().nfkd().collect();
            let sorted = nfkd(&c.to_string());
            assert_eq!(sorted, theirs, "U+{:04X}", c as u32);
            // A single code point's decomposition is already canonically ordered.
            assert_eq!(ours, theirs, "U+{:04X}", c as u32);
            assert_eq!(is_mark(c), is_combining_mark(c), "U+{:04X}", c as u32);
            assert_eq!(
                mark_class(c).unwrap_or(0),
                canonical_combining_class(c),
                "U+{:04X}",
                c as u32
            );
        }
    }

    #[test]
    fn marks_are_put_in_canonical_order() {
        for text in [
            "a\u{301}\u{323}b",
            "a\u{323}\u{301}\u{308}\u{327}",
            "ﬁ\u{301}한\u{301}국 Å\u{30A}",
            "x\u{301}\u{1AB0}\u{316}\u{F71}\u{F72}",
            "",
        ] {
            assert_eq!(nfkd(text), text.nfkd().collect::<String>(), "{text:?}");
        }
    }
}
