//! The regex engine behind `pattern` / `patternProperties`, pinned by data.
//!
//! `tests/fixtures/patterns/table.json` lists ECMA-262 patterns (ASCII `\d`
//! and `\w`, Unicode properties, anchors, look-around, back-references,
//! case-insensitive groups, astral characters) with strings, and records for
//! each whether the pattern compiles and which strings a `{"pattern": …}`
//! schema accepts. The recorded verdicts were taken from the validator as it
//! was before its regex features were trimmed for size; any build of the core
//! must give the same answers. `HOLARYN_BLESS=1` rewrites the verdicts.

use serde_json::{json, Value};

const TABLE: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/../tests/fixtures/patterns/table.json"
);

/// One pattern's verdicts: compiles? then one bool per string.
fn verdicts(pattern: &str, strings: &[Value]) -> Value {
    match jsonschema::validator_for(&json!({ "pattern": pattern })) {
        Err(_) => json!({ "compiles": false }),
        Ok(v) => json!({
            "compiles": true,
            "accepts": strings.iter().map(|s| v.is_valid(s)).collect::<Vec<_>>(),
        }),
    }
}

#[test]
fn every_pattern_gives_the_recorded_verdicts() {
    let text = std::fs::read_to_string(TABLE).expect("pattern table");
    let mut table: Vec<Value> = serde_json::from_str(&text).expect("pattern table is JSON");
    let bless = std::env::var_os("HOLARYN_BLESS").is_some();
    let mut wrong = Vec::new();
    for row in &mut table {
        let pattern = row["pattern"].as_str().expect("pattern").to_string();
        let strings = row["strings"].as_array().cloned().unwrap_or_default();
        let got = verdicts(&pattern, &strings);
        if bless {
            row["expect"] = got;
        } else if row["expect"] != got {
            wrong.push(format!("{pattern}: expected {} got {got}", row["expect"]));
        }
    }
    if bless {
        let mut out = serde_json::to_string_pretty(&table).expect("serialise");
        out.push('\n');
        std::fs::write(TABLE, out).expect("write table");
    }
    assert!(wrong.is_empty(), "verdicts changed:\n{}", wrong.join("\n"));
    assert!(table.len() >= 40, "the table covers the engine");
}
