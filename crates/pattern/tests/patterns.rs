//! The ECMA-262 engine behind `pattern` / `patternProperties`, pinned by data.
//!
//! `tests/fixtures/patterns/table.json` lists ECMA-262 patterns (ASCII `\d`
//! and `\w`, Unicode properties, anchors, look-around, back-references,
//! astral characters, Rust-only syntax that JavaScript refuses) with strings,
//! and records for each whether the pattern compiles and which strings it
//! matches somewhere. The verdicts are JavaScript's `new RegExp(p, "u")`
//! (`tests/node/pattern-fixtures.test.mjs` checks every row against node); a
//! row whose verdict changed from the former `jsonschema` + `fancy-regex`
//! stack says why in `reason`. `HOLARYN_BLESS=1` rewrites the table's
//! verdicts. `differential.json` holds generated patterns and strings with
//! node's verdicts (`gen-differential.mjs`, fixed seed), `mcp.json` the real
//! tools' patterns; the JSON-Schema-Test-Suite's regex files run too.

use holaryn_pattern::{Pattern, PatternError};
use proptest::prelude::*;
use serde_json::{json, Value};

const DIR: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/../../tests/fixtures/patterns/"
);

/// One pattern's verdicts: compiles? then one bool per string.
fn verdicts(pattern: &str, strings: &[Value]) -> Value {
    match Pattern::new(pattern) {
        Err(_) => json!({ "compiles": false }),
        Ok(p) => json!({
            "compiles": true,
            "accepts": strings
                .iter()
                .map(|s| p.is_match(s.as_str().expect("string")))
                .collect::<Vec<_>>(),
        }),
    }
}

/// Check (or with `HOLARYN_BLESS`, rewrite) the verdicts of one fixture file.
fn check_file(name: &str, min_rows: usize, blessable: bool) {
    let path = format!("{DIR}{name}");
    let text = std::fs::read_to_string(&path).expect("pattern fixture");
    let mut table: Vec<Value> = serde_json::from_str(&text).expect("fixture is JSON");
    let bless = blessable && std::env::var_os("HOLARYN_BLESS").is_some();
    let mut wrong = Vec::new();
    for row in &mut table {
        let pattern = row["pattern"].as_str().expect("pattern").to_string();
        let strings = row["strings"].as_array().cloned().unwrap_or_default();
        let got = verdicts(&pattern, &strings);
        if bless {
            row["expect"] = got;
        } else if row["expect"] != got {
            wrong.push(format!("{pattern:?}: expected {} got {got}", row["expect"]));
        }
    }
    if bless {
        let mut out = serde_json::to_string_pretty(&table).expect("serialise");
        out.push('\n');
        std::fs::write(&path, out).expect("write table");
    }
    assert!(
        wrong.is_empty(),
        "{} verdicts differ:\n{}",
        wrong.len(),
        wrong.join("\n")
    );
    assert!(table.len() >= min_rows, "the fixture covers the engine");
}

#[test]
fn every_pattern_gives_the_recorded_verdicts() {
    check_file("table.json", 80, true);
}

#[test]
fn every_pattern_of_the_real_tools_keeps_its_meaning() {
    // The distinct `pattern`s and `patternProperties` keys of the 1,335 tools
    // in tests/fixtures/mcp/, with valid and mutated strings; verdicts taken
    // from the former jsonschema + fancy-regex stack (JS RegExp agrees).
    check_file("mcp.json", 28, false);
}

#[test]
fn generated_patterns_agree_with_javascript() {
    // The truth here is node's, never blessed from the engine.
    check_file("differential.json", 2000, false);
}

#[test]
fn catastrophic_backtracking_is_cut_off_and_refused() {
    let a30 = "a".repeat(30);
    let cases = [
        ("(a+)+$", format!("{a30}b")),
        ("^(a|a)*$", format!("{a30}b")),
        ("^(a|aa)+$", format!("{a30}b")),
        ("(a*)*b$", format!("{a30}c")),
        ("^(\\w+\\s?)*$", format!("{}!", "aaaa ".repeat(12))),
        ("(.*a){20}$", format!("{a30}c")),
        ("^(?=(a+)+$)", format!("{a30}b")),
    ];
    for (source, input) in &cases {
        let p = Pattern::new(source).expect("compiles");
        assert_eq!(p.matches(input), Err(PatternError::Exhausted), "{source}");
        assert!(!p.is_match(input), "{source}: undecided is refused");
    }
    // The same patterns still decide ordinary inputs.
    let p = Pattern::new("(a+)+$").expect("compiles");
    assert_eq!(p.matches("xaaa"), Ok(true));
    assert_eq!(p.matches("aab"), Ok(false));
}

#[test]
fn long_inputs_do_not_exhaust_the_call_stack() {
    let long = "a".repeat(200_000);
    for (source, expect) in [
        ("^a*$", true),
        ("^(?:a)*$", true),
        ("^(a)*$", true),
        ("^a*?$", true),
        ("^(?:a|b)*c", false),
        ("^a*(?<=^a*)$", true),
    ] {
        let p = Pattern::new(source).expect("compiles");
        assert_eq!(p.matches(&long), Ok(expect), "{source}");
    }
}

#[test]
fn deep_nesting_is_a_clear_error() {
    let deep = format!("{}a{}", "(".repeat(500), ")".repeat(500));
    let err = Pattern::new(&deep).expect_err("too deep");
    assert!(err.contains("nest deeper"), "{err}");
    let fine = format!("{}a{}", "(?:".repeat(100), ")".repeat(100));
    assert!(Pattern::new(&fine).is_ok());
}

#[test]
fn huge_counts_compile_small() {
    let p = Pattern::new("^a{0,1000000}$").expect("compiles");
    assert!(p.is_match(&"a".repeat(5000)));
    let p = Pattern::new("^(?:ab){3,5}$").expect("compiles");
    assert!(p.is_match("ababab") && !p.is_match("abab") && !p.is_match(&"ab".repeat(6)));
}

/// Just enough JSON Schema for the suite's regex files: type, pattern,
/// patternProperties, additionalProperties, maximum, format "regex".
fn valid(schema: &Value, instance: &Value) -> bool {
    let Some(obj) = schema.as_object() else {
        return schema.as_bool().unwrap_or(true);
    };
    let compile = |p: &str| Pattern::new(p).expect("suite patterns compile");
    obj.iter().all(|(k, v)| match (k.as_str(), instance) {
        ("type", _) => match v.as_str() {
            Some("string") => instance.is_string(),
            Some("object") => instance.is_object(),
            Some("boolean") => instance.is_boolean(),
            Some("integer") => instance.is_i64() || instance.is_u64(),
            _ => true,
        },
        ("pattern", Value::String(s)) => compile(v.as_str().unwrap_or("")).is_match(s),
        ("format", Value::String(s)) if v == "regex" => Pattern::new(s).is_ok(),
        ("maximum", Value::Number(n)) => n.as_f64() <= v.as_f64(),
        ("patternProperties", Value::Object(props)) => {
            let map = v.as_object().cloned().unwrap_or_default();
            props.iter().all(|(name, value)| {
                map.iter()
                    .all(|(p, s)| !compile(p).is_match(name) || valid(s, value))
            })
        }
        ("additionalProperties", Value::Object(props)) => {
            let pats = obj.get("patternProperties").and_then(Value::as_object);
            props.iter().all(|(name, value)| {
                pats.is_some_and(|m| m.keys().any(|p| compile(p).is_match(name))) || valid(v, value)
            })
        }
        _ => true,
    })
}

#[test]
fn the_official_suite_regex_files_pass() {
    let mut wrong = Vec::new();
    let mut count = 0;
    for file in [
        "pattern.json",
        "patternProperties.json",
        "optional/ecmascript-regex.json",
        "optional/non-bmp-regex.json",
        "optional/format/regex.json",
    ] {
        let text =
            std::fs::read_to_string(format!("{DIR}../json-schema-suite/draft2020-12/{file}"))
                .expect("suite file");
        let groups: Vec<Value> = serde_json::from_str(&text).expect("suite JSON");
        for group in &groups {
            for case in group["tests"].as_array().into_iter().flatten() {
                count += 1;
                if valid(&group["schema"], &case["data"]) != case["valid"] {
                    wrong.push(format!(
                        "{file}: {} / {}",
                        group["description"], case["description"]
                    ));
                }
            }
        }
    }
    assert!(
        wrong.is_empty(),
        "differs from the suite:\n{}",
        wrong.join("\n")
    );
    assert!(count >= 130, "{count} cases");
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(3000))]

    /// Any source either compiles or says why, and a compiled pattern decides
    /// any string (or runs out of budget) without panicking.
    #[test]
    fn arbitrary_sources_never_panic(
        source in "[ab()\\[\\]{}|?*+^$.\\\\dwsbBkpPuxc0-9<>=!:,-]{0,24}",
        hay in "[ab1 \n-]{0,12}",
    ) {
        if let Ok(p) = Pattern::new(&source) {
            let _ = p.matches(&hay);
        }
    }
}
