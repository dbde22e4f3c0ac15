//! The incremental search index ranks exactly as a fresh build: after any
//! random sequence of registrations, removals, changes and provider re-lists
//! applied through the runtime, every query gives the same tools, the same
//! scores (bit for bit) and the same `why` as an index built from scratch
//! over the resulting catalog. The queries exercise every ranking signal:
//! verb families and later steps, prefixes, exact names, entities and
//! argument fit, the concept lexicon, negation, several phrasings fused, and
//! the "nothing fits" verdict.

mod common;

use common::all_mcp_specs;
use holaryn_core::Update;
use holaryn_core::{Runtime, ToolSpec};
use holaryn_search::{SearchHit, SearchIndex};
use proptest::prelude::*;
use std::sync::{Arc, OnceLock};

const QUERIES: &[&str] = &[
    "create a github issue",
    "find and read the release notes",
    "take a screenshot of the page",
    "list pull requests",
    "scre",
    "delete a branch then create a new one",
    "query the database",
    "send a message",
    "github/create_issue",
    "memory entity relation",
    "zzz unknown words",
    // Argument fit (entities the tools' parameters take).
    "open https://example.com/docs in the browser",
    "read the file src/main.rs",
    "email ann@example.com about issue #42",
    "run SELECT name FROM users",
    // Concept lexicon, filler and negation.
    "could you please jot down a note for me",
    "look up the weather, not the news",
    "list files but not directories",
    // A later step sharing the next step's object.
    "fetch the page and then take a screenshot",
    // Names mentioned in a sentence (identifier, spelled out, aliases changed).
    "please call `create_issue` from github",
    "use alias_9_1 or alias 18 2 then send message",
];

/// Several phrasings of one request (fused) and their verdict.
const PHRASINGS: &[&[&str]] = &[
    &[
        "create a github issue",
        "open a bug report",
        "file a ticket",
    ],
    &["save a memory", "remember this fact about the user"],
    &["zzz unknown words", "qqq nothing"],
];

/// A pool of fixture tools from many providers (every 9th fixture tool).
fn pool() -> &'static [ToolSpec] {
    static POOL: OnceLock<Vec<ToolSpec>> = OnceLock::new();
    POOL.get_or_init(|| all_mcp_specs().into_iter().step_by(9).collect())
}

#[derive(Debug, Clone)]
enum Op {
    /// Register pool tool `i` (a replace when present, a no-op when unchanged).
    Add(usize),
    /// Remove pool tool `i` when present.
    Remove(usize),
    /// Register pool tool `i` with extra description words and an alias.
    Change(usize, u8),
    /// Re-list the provider of pool tool `i` with every other of its tools.
    Relist(usize),
    /// A batch of several additions at once.
    Batch(Vec<usize>),
}

fn op() -> impl Strategy<Value = Op> {
    let n = pool().len();
    prop_oneof![
        3 => (0..n).prop_map(Op::Add),
        2 => (0..n).prop_map(Op::Remove),
        2 => (0..n, 0u8..4).prop_map(|(i, k)| Op::Change(i, k)),
        1 => (0..n).prop_map(Op::Relist),
        1 => prop::collection::vec(0..n, 1..12).prop_map(Op::Batch),
    ]
}

fn changed(i: usize, k: u8) -> ToolSpec {
    let mut s = pool()[i].clone();
    let words = [
        "screenshot page",
        "issue tracker",
        "delete branch",
        "read notes",
    ];
    s.description = format!("{} {}", s.description, words[k as usize % words.len()]);
    s.aliases = vec![format!("alias_{i}_{k}")];
    s
}

fn apply(rt: &mut Runtime, op: &Op) {
    let update = match op {
        Op::Add(i) => Update {
            upsert: vec![pool()[*i].clone()],
            ..Update::default()
        },
        Op::Remove(i) => {
            let name = &pool()[*i].name;
            if rt.registry().get(name).is_none() {
                return;
            }
            Update {
                remove: vec![name.clone()],
                ..Update::default()
            }
        }
        Op::Change(i, k) => Update {
            upsert: vec![changed(*i, *k)],
            ..Update::default()
        },
        Op::Relist(i) => {
            let provider = pool()[*i].provider.id.clone();
            let upsert = pool()
                .iter()
                .filter(|s| s.provider.id == provider)
                .step_by(2)
                .cloned()
                .collect();
            Update {
                upsert,
                sync_provider: Some(provider),
                ..Update::default()
            }
        }
        Op::Batch(ids) => {
            let mut upsert: Vec<ToolSpec> = ids.iter().map(|i| pool()[*i].clone()).collect();
            upsert.sort_by(|a, b| a.name.cmp(&b.name));
            upsert.dedup_by(|a, b| a.name == b.name);
            Update {
                upsert,
                ..Update::default()
            }
        }
    };
    // A refused batch (an alias clash, a provider clash) changes nothing.
    let _ = rt.update(update, 0);
}

/// (name, score bits, why) per hit.
type Ranked = Vec<(String, u32, Vec<String>)>;

fn ranked(index: &SearchIndex, q: &str, limit: usize, odd_only: bool) -> Ranked {
    let accept = |doc: usize| !odd_only || index.tool(doc).is_some_and(|t| t.name.len() % 2 == 1);
    named(index, index.search(q, limit, &accept))
}

/// Hits by tool name (slot numbers differ between the two indexes).
fn named(index: &SearchIndex, hits: Vec<SearchHit>) -> Ranked {
    hits.into_iter()
        .map(|h| {
            let name = index
                .tool(h.doc)
                .map(|t| t.name.clone())
                .unwrap_or_default();
            (name, h.score.to_bits(), h.why)
        })
        .collect()
}

/// The fused ranking of several phrasings, and whether nothing fits.
fn fused(index: &SearchIndex, qs: &[&str], limit: usize) -> (Ranked, bool) {
    let r = index.search_all(qs, limit, &|_| true);
    (named(index, r.hits), r.nothing_fits)
}

fn fresh(rt: &Runtime) -> SearchIndex {
    let mut tools: Vec<Arc<_>> = rt
        .registry()
        .entries()
        .map(|e| e.descriptor.clone())
        .collect();
    if let Some(code) = rt.lookup("run_tool_code") {
        tools.push(code.descriptor.clone());
    }
    SearchIndex::build(&tools)
}

fn assert_same(rt: &Runtime) -> Result<(), TestCaseError> {
    let inc = rt.search_index();
    let new = fresh(rt);
    prop_assert_eq!(inc.len(), new.len());
    for q in QUERIES {
        for (limit, odd) in [(8, false), (3, true), (40, false)] {
            prop_assert_eq!(
                ranked(inc, q, limit, odd),
                ranked(&new, q, limit, odd),
                "query {:?} limit {} odd {}",
                q,
                limit,
                odd
            );
        }
        prop_assert_eq!(fused(inc, &[q], 8), fused(&new, &[q], 8), "query {:?}", q);
    }
    for qs in PHRASINGS {
        prop_assert_eq!(fused(inc, qs, 8), fused(&new, qs, 8), "phrasings {:?}", qs);
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 48, ..ProptestConfig::default() })]

    #[test]
    fn any_change_sequence_ranks_as_a_fresh_build(ops in prop::collection::vec(op(), 1..40)) {
        let mut rt = Runtime::new();
        for (i, op) in ops.iter().enumerate() {
            apply(&mut rt, op);
            if i % 7 == 6 {
                assert_same(&rt)?;
            }
        }
        assert_same(&rt)?;
    }
}

#[test]
fn removing_everything_leaves_an_index_equal_to_an_empty_one() {
    let mut rt = Runtime::new();
    let all: Vec<ToolSpec> = pool().to_vec();
    let names: Vec<String> = all.iter().map(|s| s.name.clone()).collect();
    rt.update(
        Update {
            upsert: all,
            ..Update::default()
        },
        0,
    )
    .expect("register");
    rt.update(
        Update {
            remove: names,
            ..Update::default()
        },
        0,
    )
    .expect("remove");
    assert_eq!(rt.search_index().len(), 1, "only the built-in code tool");
    for q in QUERIES {
        assert_eq!(
            ranked(rt.search_index(), q, 8, false),
            ranked(&fresh(&rt), q, 8, false)
        );
    }
}
