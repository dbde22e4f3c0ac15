//! `holaryn_jsonschema::check_format` against the `jsonschema` crate 0.61 it replaces: per
//! draft, the same known formats, the same default assertion, and the same verdict on
//! every string of the JSON-Schema-Test-Suite's format tests and of a generated corpus
//! (mutations of those strings and of `tests/fixtures/formats/seeds.json`, boundary
//! dates and times, very long strings). Every disagreement kept is listed, with its
//! reason, in `tests/fixtures/formats/disagreements.json`; the test fails on one that is
//! not listed and on a listed one that no longer happens.

use holaryn_jsonschema::{check_format, format_asserted_by_default};
use serde_json::{json, Value};
use std::collections::{BTreeMap, BTreeSet};
use std::path::PathBuf;

/// Our draft numbers, the suite's directory names, and jsonschema's drafts.
const DRAFTS: [(u16, &str, jsonschema::Draft); 5] = [
    (4, "draft4", jsonschema::Draft::Draft4),
    (6, "draft6", jsonschema::Draft::Draft6),
    (7, "draft7", jsonschema::Draft::Draft7),
    (2019, "draft2019-09", jsonschema::Draft::Draft201909),
    (2020, "draft2020-12", jsonschema::Draft::Draft202012),
];

/// Every format name some draft defines, and two no draft does.
const FORMATS: [&str; 23] = [
    "date",
    "date-time",
    "time",
    "duration",
    "email",
    "idn-email",
    "hostname",
    "idn-hostname",
    "ipv4",
    "ipv6",
    "uri",
    "uri-reference",
    "iri",
    "iri-reference",
    "uri-template",
    "json-pointer",
    "relative-json-pointer",
    "regex",
    "uuid",
    "unknown",
    "color",
    "",
    "DATE",
];

/// A path from the repository root.
fn repo(path: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../..")
        .join(path)
}

/// A JSON file of the repository.
fn read_json(path: &PathBuf) -> Value {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{path:?}: {e}"));
    serde_json::from_str(&text).unwrap_or_else(|e| panic!("{path:?}: {e}"))
}

/// jsonschema's validator for `{"format": format}` under `draft`, formats asserted;
/// `None` when it does not know the format.
fn oracle(draft: jsonschema::Draft, format: &str) -> Option<jsonschema::Validator> {
    jsonschema::options()
        .with_draft(draft)
        .should_validate_formats(true)
        .should_ignore_unknown_formats(false)
        .build(&json!({ "format": format }))
        .ok()
}

/// One test of the suite: draft, format, instance, and the verdict it asks for
/// (`None` in `format.json`, where formats are annotations).
struct SuiteCase {
    draft: u16,
    format: String,
    data: Value,
    valid: Option<bool>,
}

/// The format tests of the vendored JSON-Schema-Test-Suite.
fn suite() -> Vec<SuiteCase> {
    let mut cases = Vec::new();
    for (draft, dir, _) in DRAFTS {
        let base = repo(&format!("tests/fixtures/json-schema-suite/{dir}"));
        let mut files = vec![(base.join("format.json"), false)];
        let optional = base.join("optional/format");
        let mut names: Vec<_> = std::fs::read_dir(&optional)
            .unwrap_or_else(|e| panic!("{optional:?}: {e}"))
            .filter_map(|entry| entry.ok().map(|e| e.path()))
            .collect();
        names.sort();
        files.extend(names.into_iter().map(|path| (path, true)));
        for (path, asserted) in files {
            let Value::Array(groups) = read_json(&path) else {
                panic!("{path:?}: not an array")
            };
            for group in groups {
                let Some(format) = group["schema"]["format"].as_str() else {
                    continue;
                };
                for test in group["tests"].as_array().into_iter().flatten() {
                    cases.push(SuiteCase {
                        draft,
                        format: format.to_owned(),
                        data: test["data"].clone(),
                        valid: test["valid"].as_bool().filter(|_| asserted),
                    });
                }
            }
        }
    }
    cases
}

/// A deterministic xorshift generator (tests read no random source).
struct Rng(u64);

impl Rng {
    /// A number below `n` (`n > 0`).
    fn below(&mut self, n: usize) -> usize {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        (self.0 % n as u64) as usize
    }
}

/// Characters mutations insert: delimiters of every format, and non-ASCII of each
/// class the checks treat apart (ucschar, iprivate, noncharacters, marks, joiners).
#[rustfmt::skip]
const ALPHABET: &[char] = &[
    '\u{FDD0}', '\u{F8FF}', '\u{E0000}', '\u{EFFFD}', 'a', 'Z', '0', '9', '-', '.', ':', '/',
    '?', '#', '[', ']', '@', '%', '~', '_', '\'', '"', '\\', '{', '}', '<', '>', ' ', '\t', '+',
    '*', ',', ';', '=', '!', '$', '&', '(', ')', 'T', 'P', 'W', 'x', 'n', 'é', '\u{A0}',
    '\u{E000}', '\u{F0000}', '\u{FFFE}', '\u{10000}', '\u{200D}', '\u{0301}', '中', '·',
    '\u{30FB}', '\u{05F3}', '\u{0375}', '\u{0660}', '\u{06F0}', 'ß', 'İ', '😀', '\u{094D}', 'l',
    '\u{0}', '\u{7F}',
];

/// One to three random edits of a pool string.
fn mutate(rng: &mut Rng, pool: &[String]) -> String {
    let mut s: Vec<char> = pool[rng.below(pool.len())].chars().collect();
    for _ in 0..=rng.below(3) {
        let at = rng.below(s.len() + 1);
        let ch = ALPHABET[rng.below(ALPHABET.len())];
        match rng.below(8) {
            0 if at < s.len() => drop(s.remove(at)),
            1 => s.insert(at, ch),
            2 if at < s.len() => s[at] = ch,
            3 => {
                let end = (at + 1 + rng.below(6)).min(s.len());
                let copy: Vec<char> = s[at.min(end)..end].to_vec();
                s.splice(at..at, copy);
            }
            4 if at + 1 < s.len() => s.swap(at, at + 1),
            5 => s.truncate(at),
            6 => {
                let other: Vec<char> = pool[rng.below(pool.len())].chars().collect();
                let from = rng.below(other.len() + 1);
                s.truncate(at);
                s.extend_from_slice(&other[from..]);
            }
            _ if at < s.len() => {
                let c = s[at];
                s[at] = match c {
                    '0'..='8' => char::from(c as u8 + 1),
                    '9' => '0',
                    c if c.is_ascii_lowercase() => c.to_ascii_uppercase(),
                    c => c.to_ascii_lowercase(),
                };
            }
            _ => {}
        }
    }
    s.into_iter().collect()
}

/// Dates, times and date-times around every boundary the checks draw.
fn calendar() -> Vec<String> {
    let mut out = Vec::new();
    let dates: Vec<String> = ["0000", "1900", "2000", "2023", "2024", "2100", "9999"]
        .iter()
        .flat_map(|y| (0..=13).map(move |m| (y, m)))
        .flat_map(|(y, m)| [0, 1, 28, 29, 30, 31, 32].map(|d| format!("{y}-{m:02}-{d:02}")))
        .collect();
    let offsets = [
        "Z", "z", "+00:00", "-00:00", "+01:00", "-01:00", "+23:59", "-23:59", "+00:59", "-00:01",
        "+24:00", "", "+0100", "+01:60",
    ];
    let mut times = Vec::new();
    for h in [0, 22, 23, 24] {
        for m in [0, 58, 59, 60] {
            for s in [0, 59, 60, 61] {
                for frac in ["", ".5", "."] {
                    for off in offsets {
                        times.push(format!("{h:02}:{m:02}:{s:02}{frac}{off}"));
                    }
                }
            }
        }
    }
    let mut rng = Rng(0x5EED_CA1E);
    for _ in 0..3000 {
        let sep = ["T", "t", " "][rng.below(3)];
        let date = &dates[rng.below(dates.len())];
        out.push(format!("{date}{sep}{}", times[rng.below(times.len())]));
    }
    out.extend(dates);
    out.extend(times);
    out
}

/// The strings every format is checked on.
fn corpus(suite: &[SuiteCase]) -> Vec<String> {
    let seeds = read_json(&repo("tests/fixtures/formats/seeds.json"));
    let mut pool: Vec<String> = seeds["seeds"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|s| s.as_str().map(str::to_owned))
        .collect();
    pool.extend(
        suite
            .iter()
            .filter_map(|c| c.data.as_str().map(str::to_owned)),
    );
    let set: BTreeSet<String> = pool.iter().cloned().collect();
    let pool: Vec<String> = set.into_iter().collect();
    let mut rng = Rng(0x00C0_FFEE_D00D);
    let mut out: BTreeSet<String> = pool.iter().cloned().collect();
    while out.len() < pool.len() + 6000 {
        out.insert(mutate(&mut rng, &pool));
    }
    out.extend([
        "a".repeat(10_000),
        "1".repeat(300),
        format!("http://example.com/{}", "a/".repeat(5000)),
        "/a".repeat(5000),
        format!("{}.com", "a".repeat(300)),
        format!("{}@example.com", "a".repeat(1000)),
        format!("P{}D", "9".repeat(100)),
        format!("12:00:00.{}Z", "1".repeat(1000)),
        "a(".repeat(100),
    ]);
    out.into_iter().collect()
}

/// `(draft, format, instance as JSON text)` of one verdict.
type Key = (u16, String, String);

/// Where our verdict and jsonschema's differ: `(ours, jsonschema's, the suite's)`.
fn disagreements() -> BTreeMap<Key, (bool, bool, Option<bool>)> {
    let suite = suite();
    let strings = corpus(&suite);
    let calendar = calendar();
    let others = [
        json!(null),
        json!(1),
        json!(1.5),
        json!(true),
        json!([]),
        json!({}),
        json!(["a"]),
    ];
    let mut found = BTreeMap::new();
    for (draft, _, jd) in DRAFTS {
        for format in FORMATS {
            let Some(validator) = oracle(jd, format) else {
                continue;
            };
            let dated = matches!(format, "date" | "time" | "date-time");
            let suite_data = suite
                .iter()
                .filter(|c| c.draft == draft && c.format == format);
            let values = suite_data
                .map(|c| c.data.clone())
                .chain(strings.iter().map(|s| json!(s)))
                .chain(calendar.iter().filter(|_| dated).map(|s| json!(s)))
                .chain(others.iter().cloned());
            let mut accepted = Vec::new();
            let mut rng =
                Rng(0x9E37_79B9_7F4A_7C15 ^ u64::from(draft) ^ (format.len() as u64) << 20);
            let mut values: Box<dyn Iterator<Item = Value>> = Box::new(values);
            let mut near_misses = 0;
            while let Some(value) = values.next().or_else(|| {
                // Then edits of accepted strings: the boundary of each format.
                near_misses += 1;
                (near_misses <= 3000 && !accepted.is_empty())
                    .then(|| json!(mutate(&mut rng, &accepted)))
            }) {
                let theirs = validator.is_valid(&value);
                if let (true, Some(s), true) = (theirs, value.as_str(), near_misses == 0) {
                    accepted.push(s.to_owned());
                }
                let ours = check_format(draft, format, &value).unwrap_or(true);
                if ours != theirs {
                    let expected = suite
                        .iter()
                        .find(|c| c.draft == draft && c.format == format && c.data == value)
                        .and_then(|c| c.valid);
                    found.insert(
                        (draft, format.to_owned(), value.to_string()),
                        (ours, theirs, expected),
                    );
                }
            }
        }
    }
    found
}

#[test]
fn the_same_formats_are_known_and_asserted_per_draft() {
    for (draft, dir, jd) in DRAFTS {
        for format in FORMATS {
            assert_eq!(
                check_format(draft, format, &json!("")).is_some(),
                oracle(jd, format).is_some(),
                "{dir}: is {format:?} known?"
            );
        }
        let default = jsonschema::options()
            .with_draft(jd)
            .build(&json!({ "format": "ipv4" }))
            .expect("a format schema compiles");
        assert_eq!(
            format_asserted_by_default(draft),
            !default.is_valid(&json!("x")),
            "{dir}"
        );
    }
}

#[test]
fn non_strings_satisfy_every_known_format() {
    for (draft, _, _) in DRAFTS {
        for format in FORMATS {
            for value in [
                json!(null),
                json!(12),
                json!({ "a": "b" }),
                json!(["x"]),
                json!(false),
            ] {
                assert_ne!(
                    check_format(draft, format, &value),
                    Some(false),
                    "{draft} {format} {value}"
                );
            }
        }
    }
}

#[test]
fn verdicts_match_jsonschema_but_for_the_reviewed_list() {
    let listed = read_json(&repo("tests/fixtures/formats/disagreements.json"));
    let mut expected = BTreeMap::new();
    for entry in listed["disagreements"].as_array().into_iter().flatten() {
        let format = entry["format"].as_str().expect("format").to_owned();
        let ours = entry["ours"].as_bool().expect("ours");
        assert!(
            entry["why"].as_str().is_some_and(|w| !w.is_empty()),
            "{entry}: why?"
        );
        for draft in entry["drafts"].as_array().into_iter().flatten() {
            let draft = u16::try_from(draft.as_u64().expect("draft")).expect("draft");
            let key = (draft, format.clone(), entry["value"].to_string());
            expected.insert(key, ours);
        }
    }
    let waived = &listed["waived"];
    let mut found = disagreements();
    for (format, why) in waived.as_object().into_iter().flatten() {
        let before = found.len();
        found.retain(|(_, f, _), _| f != format);
        eprintln!(
            "{} {format} disagreements waived: {why}",
            before - found.len()
        );
    }
    let (mut unlisted, mut against_suite) = (Vec::new(), Vec::new());
    for ((draft, format, value), (ours, theirs, suite)) in &found {
        if suite.is_some_and(|verdict| verdict != *ours) {
            against_suite.push(format!("{draft} {format} {value}"));
        }
        if expected.get(&(*draft, format.clone(), value.clone())) != Some(ours) {
            unlisted.push(format!(
                "{{\"drafts\": [{draft}], \"format\": \"{format}\", \"value\": {value}, \"ours\": {ours}, \"jsonschema\": {theirs}, \"suite\": {suite:?}, \"why\": \"\"}}"
            ));
        }
    }
    let stale: Vec<_> = expected
        .keys()
        .filter(|k| !found.contains_key(*k))
        .collect();
    assert!(
        unlisted.is_empty() && stale.is_empty() && against_suite.is_empty(),
        "{} unlisted disagreements:\n{}\nlisted but gone: {stale:?}\nagainst the suite: {against_suite:#?}",
        unlisted.len(),
        unlisted.join(",\n")
    );
}
