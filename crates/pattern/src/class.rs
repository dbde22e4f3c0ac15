//! Sets of code points as sorted, disjoint inclusive ranges: what a character
//! class, `\d` `\w` `\s`, `.` and `\p{…}` denote in ECMA-262's Unicode mode.

use super::tables::{DATA, DERIVED, NAMES, NAME_PROPS, OFFSETS, SCRIPT_EXTENSIONS};

/// The largest code point.
pub(super) const MAX: u32 = 0x10_FFFF;

/// A set of code points.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(super) struct Set {
    /// Sorted, disjoint, non-adjacent inclusive ranges.
    ranges: Vec<(u32, u32)>,
}

/// `\s`: ECMA-262 WhiteSpace and LineTerminator.
const SPACE: &[(u32, u32)] = &[
    (0x09, 0x0D),
    (0x20, 0x20),
    (0xA0, 0xA0),
    (0x1680, 0x1680),
    (0x2000, 0x200A),
    (0x2028, 0x2029),
    (0x202F, 0x202F),
    (0x205F, 0x205F),
    (0x3000, 0x3000),
    (0xFEFF, 0xFEFF),
];
/// `\w` (without the `i` flag, which a JSON Schema pattern never has).
const WORD: &[(u32, u32)] = &[(0x30, 0x39), (0x41, 0x5A), (0x5F, 0x5F), (0x61, 0x7A)];
/// `\d`.
const DIGIT: &[(u32, u32)] = &[(0x30, 0x39)];
/// What `.` does not match: the line terminators.
const LINE_TERMINATORS: &[(u32, u32)] = &[(0x0A, 0x0A), (0x0D, 0x0D), (0x2028, 0x2029)];

impl Set {
    /// The set of one code point.
    pub(super) fn one(c: u32) -> Set {
        Set {
            ranges: vec![(c, c)],
        }
    }

    /// The set of `\d` `\D` `\s` `\S` `\w` `\W` (by its letter), or `.` for `.`.
    pub(super) fn escape(letter: char) -> Option<Set> {
        let (ranges, negate) = match letter {
            'd' | 'D' => (DIGIT, letter == 'D'),
            's' | 'S' => (SPACE, letter == 'S'),
            'w' | 'W' => (WORD, letter == 'W'),
            '.' => (LINE_TERMINATORS, true),
            _ => return None,
        };
        let set = Set {
            ranges: ranges.to_vec(),
        };
        Some(if negate { set.negate() } else { set })
    }

    /// The set `\p{body}` names (`Lu`, `gc=Lu`, `Script=Greek`, `Alphabetic`, …).
    pub(super) fn property(body: &str) -> Result<Set, String> {
        // Kinds as `NAME_PROPS` tags them: 0 General_Category, 1 binary, 2 Script.
        let (kinds, value, extensions): (&[u16], &str, bool) = match body.split_once('=') {
            None => (&[0, 1], body, false),
            Some(("General_Category" | "gc", v)) => (&[0], v, false),
            Some(("Script" | "sc", v)) => (&[2], v, false),
            Some(("Script_Extensions" | "scx", v)) => (&[2], v, true),
            Some(_) => return Err(format!("`\\p{{{body}}}` is not a Unicode property")),
        };
        let mut id = NAMES
            .split(' ')
            .zip(NAME_PROPS)
            .find(|&(name, &tag)| name == value && kinds.contains(&(tag >> 14)))
            .map(|(_, &tag)| tag & 0x3FFF)
            .ok_or_else(|| format!("`\\p{{{body}}}` is not a Unicode property"))?;
        if extensions {
            if let Some(&(_, own)) = SCRIPT_EXTENSIONS.iter().find(|(sc, _)| *sc == id) {
                id = own;
            }
        }
        Ok(stored(usize::from(id)))
    }

    /// Add every code point of `other`.
    pub(super) fn add(&mut self, other: &Set) {
        self.ranges.extend_from_slice(&other.ranges);
    }

    /// Add the range `lo..=hi`.
    pub(super) fn add_range(&mut self, lo: u32, hi: u32) {
        self.ranges.push((lo, hi));
    }

    /// Sort and merge the ranges (after `add`).
    pub(super) fn normalize(mut self) -> Set {
        self.ranges.sort_unstable();
        let mut out: Vec<(u32, u32)> = Vec::with_capacity(self.ranges.len());
        for (lo, hi) in self.ranges {
            match out.last_mut() {
                Some(last) if lo <= last.1.saturating_add(1) => last.1 = last.1.max(hi),
                _ => out.push((lo, hi)),
            }
        }
        Set { ranges: out }
    }

    /// Every code point not in the (normalized) set.
    pub(super) fn negate(self) -> Set {
        let mut out = Vec::with_capacity(self.ranges.len() + 1);
        let mut next = 0u32;
        for (lo, hi) in self.ranges {
            if lo > next {
                out.push((next, lo - 1));
            }
            next = hi + 1;
        }
        if next <= MAX {
            out.push((next, MAX));
        }
        Set { ranges: out }
    }

    /// Whether `c` is in the (normalized) set.
    pub(super) fn contains(&self, c: u32) -> bool {
        self.ranges
            .binary_search_by(|&(lo, hi)| {
                if hi < c {
                    std::cmp::Ordering::Less
                } else if lo > c {
                    std::cmp::Ordering::Greater
                } else {
                    std::cmp::Ordering::Equal
                }
            })
            .is_ok()
    }

    /// The only code point of the set, if it has exactly one.
    pub(super) fn single(&self) -> Option<u32> {
        match self.ranges[..] {
            [(lo, hi)] if lo == hi => Some(lo),
            _ => None,
        }
    }
}

/// Whether `c` is an ASCII word character (for `\b`).
pub(super) fn is_word(c: char) -> bool {
    c.is_ascii_alphanumeric() || c == '_'
}

/// The set of property `id`: stored ranges, or a union (or its complement) of
/// others, which are stored or themselves unions of stored ones.
fn stored(id: usize) -> Set {
    let count = OFFSETS.len() - 1;
    if id < count {
        let range = usize::from(OFFSETS[id])..usize::from(OFFSETS[id + 1]);
        return Set {
            ranges: decode(DATA.get(range).unwrap_or_default()),
        };
    }
    let Some(&(negate, parts)) = DERIVED.get(id - count) else {
        return Set::default();
    };
    let mut out = Set::default();
    for &part in parts {
        out.add(&stored(usize::from(part)));
    }
    let out = out.normalize();
    if negate {
        out.negate()
    } else {
        out
    }
}

/// Ranges from LEB128 varints alternating gap and length.
fn decode(data: &[u8]) -> Vec<(u32, u32)> {
    let mut out = Vec::new();
    let mut numbers = Varints { data };
    let mut next = 0u32;
    while let (Some(gap), Some(len)) = (numbers.next(), numbers.next()) {
        let lo = next.saturating_add(gap);
        let hi = lo.saturating_add(len.saturating_sub(1));
        out.push((lo, hi));
        next = hi.saturating_add(1);
    }
    out
}

/// An iterator over LEB128 varints.
struct Varints<'a> {
    data: &'a [u8],
}

impl Iterator for Varints<'_> {
    type Item = u32;
    fn next(&mut self) -> Option<u32> {
        let mut value = 0u32;
        let mut shift = 0;
        loop {
            let (&byte, rest) = self.data.split_first()?;
            self.data = rest;
            value |= u32::from(byte & 0x7F).checked_shl(shift)?;
            if byte & 0x80 == 0 {
                return Some(value);
            }
            shift += 7;
        }
    }
}
