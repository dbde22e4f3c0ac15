//! The one code vocabulary: every `Code` serialises to its dotted string, the
//! string list equals the golden file, and the TypeScript union the package
//! ships is the one generated from the enum. `HOLARYN_BLESS=1` rewrites both
//! files after a deliberate change (a removed or renamed code breaks what
//! users stored: add codes, never rename them).

use holaryn_core::Code;
use std::path::PathBuf;

fn repo(path: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("..")
        .join(path)
}

fn check(path: &str, want: &str) {
    let file = repo(path);
    if std::env::var_os("HOLARYN_BLESS").is_some() {
        std::fs::write(&file, want).expect("write");
    }
    let have = std::fs::read_to_string(&file).expect("read");
    assert_eq!(
        have, want,
        "{path} drifted from the Code enum (HOLARYN_BLESS=1 rewrites it)"
    );
}

#[test]
fn every_code_round_trips_and_matches_the_golden_list() {
    let mut strings = Vec::new();
    for &code in Code::ALL {
        let json = serde_json::to_value(code).expect("serialise");
        assert_eq!(json, serde_json::Value::from(code.as_str()));
        assert_eq!(serde_json::from_value::<Code>(json).ok(), Some(code));
        assert_eq!(Code::parse(code.as_str()), Some(code));
        strings.push(code.as_str());
    }
    let golden = serde_json::to_string_pretty(&strings).expect("json") + "\n";
    check("tests/fixtures/codes.json", &golden);
}

#[test]
fn the_typescript_union_is_generated_from_the_enum() {
    check("js/codes.d.ts", &Code::typescript());
}

#[test]
fn denials_are_exactly_policy_approval_and_hooks() {
    let denials: Vec<&str> = Code::ALL
        .iter()
        .filter(|c| c.is_denial())
        .map(|c| c.as_str())
        .collect();
    assert_eq!(denials, ["policy.denied", "hook.vetoed", "approval.denied"]);
}
