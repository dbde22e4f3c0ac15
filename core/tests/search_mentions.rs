//! A request that names a tool inside a sentence ranks that tool first
//! (`crates/search/src/mention.rs`), over every fixture catalog: the name as an
//! identifier in a sentence, with its provider, and spelled out in words.

mod common;

use common::{all_mcp_specs, dynamic_session, fixtures};
use holaryn_core::Runtime;
use holaryn_core::Update;
use holaryn_search::words;
use serde_json::{json, Value};

/// The fixture catalogs plus the native tools, and every (provider, local name).
fn catalog() -> (Runtime, String, Vec<(String, String)>) {
    let mut rt = Runtime::new();
    let specs = all_mcp_specs();
    let mut names: Vec<(String, String)> = specs
        .iter()
        .filter_map(|s| s.name.split_once('/'))
        .map(|(p, n)| (p.to_string(), n.to_string()))
        .collect();
    rt.update(
        Update {
            upsert: specs,
            ..Update::default()
        },
        0,
    )
    .expect("mcp");
    let text = std::fs::read_to_string(fixtures().join("search/native_tools.json")).expect("read");
    let native: Vec<Value> = serde_json::from_str(&text).expect("json");
    rt.register_values(&native, 0).expect("native");
    for t in &native {
        names.push((String::new(), t["name"].as_str().unwrap_or_default().into()));
    }
    let sid = dynamic_session(&mut rt, 7);
    (rt, sid, names)
}

/// The first result's name and `why` for a request.
fn top(rt: &mut Runtime, sid: &str, q: &str) -> (String, Vec<String>) {
    let out = rt
        .tool_search(sid, &json!({ "query": q }), 1)
        .expect("search");
    let first = out.results.into_iter().next().expect("a result");
    (first.name, first.why)
}

fn local(name: &str) -> &str {
    name.rsplit('/').next().unwrap_or(name)
}

/// Whether a name reads as an identifier (the only single tokens matched).
fn identifier_shaped(n: &str) -> bool {
    n.contains(['_', '-', '.', '/']) || n.chars().skip(1).any(|c| c.is_uppercase())
}

#[test]
fn a_name_written_in_a_sentence_ranks_a_tool_of_that_name_first() {
    let (mut rt, sid, names) = catalog();
    let mut failures = Vec::new();
    let mut checked = 0;
    for (p, n) in names.iter().filter(|(_, n)| identifier_shaped(n)) {
        checked += 1;
        for q in [
            format!("please call {n} for me"),
            format!("run `{n}` on it"),
            format!("Use the \"{n}\" tool."),
        ] {
            let (t, why) = top(&mut rt, &sid, &q);
            if local(&t) != n {
                failures.push(format!("{q} -> {t}"));
            } else if !why.iter().any(|w| w == "named in the request") {
                failures.push(format!("{q}: why {why:?}"));
            }
        }
        if !p.is_empty() {
            let q = format!("use the {n} tool from {p}");
            let (t, _) = top(&mut rt, &sid, &q);
            if t != format!("{p}/{n}") {
                failures.push(format!("{q} -> {t}"));
            }
        }
    }
    assert!(checked > 1000, "{checked}");
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn a_name_spelled_in_words_ranks_first_unless_a_longer_name_is_spelled() {
    let (mut rt, sid, names) = catalog();
    let spaced = |n: &str| words(n).join(" ");
    let all: Vec<String> = names.iter().map(|(_, n)| spaced(n)).collect();
    let mut failures = Vec::new();
    for (_, n) in &names {
        let q = spaced(n);
        if q.split(' ').count() < 2 {
            continue; // one word: an ordinary word, not a mention
        }
        let (t, _) = top(&mut rt, &sid, &q);
        if spaced(local(&t)) != q {
            // Fine only when the top's name is itself spelled by the request.
            let longer = all
                .iter()
                .any(|o| *o != q && *o == spaced(local(&t)) && q.contains(o.as_str()));
            if !longer {
                failures.push(format!("{q} -> {t}"));
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn the_longest_spelled_name_wins_and_the_provider_named_decides() {
    let (mut rt, sid, _) = catalog();
    for (q, want) in [
        ("get key value store", "apify/get-key-value-store"),
        ("get key value store keys", "apify/get-key-value-store-keys"),
        ("please call get-actor-run for me", "apify/get-actor-run"),
        (
            "please call create-schedule for me",
            "apify/create-schedule",
        ),
        (
            "use the get_file_contents tool from gitlab-zereight",
            "gitlab-zereight/get_file_contents",
        ),
        (
            "use the get_file_contents tool from github",
            "github/get_file_contents",
        ),
    ] {
        assert_eq!(top(&mut rt, &sid, q).0, want, "{q}");
    }
    // Sentence punctuation ends a run: "firecrawl: search" spells no name.
    let out = rt
        .tool_search(
            &sid,
            &json!({"query": "firecrawl: search github issues"}),
            1,
        )
        .expect("search");
    assert!(
        out.results
            .iter()
            .all(|r| !r.why.iter().any(|w| w == "named in the request")),
        "{:?}",
        out.results
    );
}
