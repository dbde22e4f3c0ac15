//! The host-embedder protocol: batching, caching by text key, re-embedding
//! only what a registry change touched, export/import, refusals, and the
//! lexical fallback with its `why`.

mod common;

use common::dynamic_session;
use holaryn_core::{EmbedFailure, SearchStep, EMBED_BATCH};
use holaryn_core::{EmbeddingModel, Encoding};
use holaryn_core::{ErrorCode, Runtime};
use holaryn_search::{text_key, tool_text};
use serde_json::{json, Value};
use std::hash::{Hash, Hasher};

const DIMS: usize = 16;

fn model() -> EmbeddingModel {
    EmbeddingModel {
        model: "test/hash-16".into(),
        dimensions: DIMS,
    }
}

/// A deterministic stand-in embedder: a vector from the text's hash.
fn fake(text: &str) -> Vec<f32> {
    (0..DIMS)
        .map(|i| {
            let mut h = std::collections::hash_map::DefaultHasher::new();
            (text, i).hash(&mut h);
            (h.finish() % 2001) as f32 / 1000.0 - 1.0
        })
        .collect()
}

fn tool(i: usize, description: &str) -> Value {
    json!({
        "name": format!("tool_{i:03}"),
        "description": description,
        "source": "native",
        "provider": {"id": "host"},
        "inputSchema": {"type": "object", "properties": {"path": {"type": "string"}}}
    })
}

fn runtime(n: usize) -> (Runtime, String) {
    let mut rt = Runtime::new();
    let tools: Vec<Value> = (0..n)
        .map(|i| tool(i, &format!("Tool number {i} does thing {}", i % 7)))
        .collect();
    rt.register_values(&tools, 0).expect("tools");
    let sid = dynamic_session(&mut rt, 1);
    (rt, sid)
}

type Answer = Result<Vec<Vec<f32>>, EmbedFailure>;
/// Ranked names with their `why`, and every batch the embedder was asked for.
type Searched = (Vec<(String, Vec<String>)>, Vec<Vec<String>>);
type Embedder = Box<dyn Fn(&[String]) -> Answer>;

/// Drive a step to its end; returns the final step and every batch asked for.
fn drive(
    rt: &mut Runtime,
    mut step: SearchStep,
    mut embed: impl FnMut(&[String]) -> Answer,
) -> (SearchStep, Vec<Vec<String>>) {
    let mut asked = Vec::new();
    loop {
        match step {
            SearchStep::NeedEmbeddings(req) => {
                asked.push(req.texts().to_vec());
                let answer = embed(req.texts());
                step = req.resume(rt, answer, 2).expect("resume");
            }
            done => return (done, asked),
        }
    }
}

fn ok(texts: &[String]) -> Answer {
    Ok(texts.iter().map(|t| fake(t)).collect())
}

fn search(
    rt: &mut Runtime,
    sid: &str,
    q: &str,
    embed: impl FnMut(&[String]) -> Answer,
) -> Searched {
    let step = rt
        .search_step(sid, &json!({"query": q}), 1)
        .expect("search");
    match drive(rt, step, embed) {
        (SearchStep::Done(out), asked) => (
            out.results.into_iter().map(|r| (r.name, r.why)).collect(),
            asked,
        ),
        (other, _) => panic!("expected a search result, got {other:?}"),
    }
}

#[test]
fn without_a_model_search_step_is_the_lexical_search() {
    let (mut rt, sid) = runtime(20);
    let lexical = rt
        .tool_search(&sid, &json!({"query": "thing 3"}), 1)
        .expect("lexical");
    let (hits, asked) = search(&mut rt, &sid, "thing 3", ok);
    assert!(asked.is_empty());
    let names: Vec<String> = lexical.results.into_iter().map(|r| r.name).collect();
    assert_eq!(hits.iter().map(|h| h.0.clone()).collect::<Vec<_>>(), names);
}

#[test]
fn batches_of_at_most_64_query_first_then_cached() {
    let (mut rt, sid) = runtime(150);
    rt.set_embedding_model(Some(model())).expect("model");
    let (hits, asked) = search(&mut rt, &sid, "does thing 3", ok);
    // 150 tools + run_tool_code + the query, 64 at a time.
    assert_eq!(asked.len(), 152usize.div_ceil(EMBED_BATCH));
    assert!(asked
        .iter()
        .all(|b| b.len() <= EMBED_BATCH && !b.is_empty()));
    assert_eq!(asked[0][0], "does thing 3");
    assert_eq!(asked.iter().map(Vec::len).sum::<usize>(), 152);
    assert!(!hits.is_empty());
    assert!(hits
        .iter()
        .any(|(_, why)| why.iter().any(|w| w.starts_with("meaning: "))));
    // Same query again: nothing to embed. A new query: one text.
    let (_, again) = search(&mut rt, &sid, "does thing 3", ok);
    assert!(again.is_empty());
    let (_, fresh) = search(&mut rt, &sid, "another request", ok);
    assert_eq!(fresh, vec![vec!["another request".to_string()]]);
}

#[test]
fn a_registry_change_re_embeds_only_changed_tools() {
    let (mut rt, sid) = runtime(100);
    rt.set_embedding_model(Some(model())).expect("model");
    let (_, first) = search(&mut rt, &sid, "q", ok);
    assert_eq!(first.iter().map(Vec::len).sum::<usize>(), 102);
    rt.register_values(
        &[tool(5, "Now it renames files"), tool(500, "A new tool")],
        3,
    )
    .expect("change");
    rt.update(
        holaryn_core::Update {
            remove: vec!["tool_007".into()],
            ..Default::default()
        },
        3,
    )
    .expect("remove");
    let (_, asked) = search(&mut rt, &sid, "q", ok);
    let mut texts: Vec<String> = asked.concat();
    texts.sort();
    let mut want = vec![
        tool_text(
            rt.registry()
                .get("tool_005")
                .expect("t5")
                .descriptor
                .as_ref(),
        ),
        tool_text(
            rt.registry()
                .get("tool_500")
                .expect("t500")
                .descriptor
                .as_ref(),
        ),
    ];
    want.sort();
    assert_eq!(texts, want);
    // A change that does not touch the embedded text (permissions) embeds nothing.
    let mut t9 = tool(9, "Tool number 9 does thing 2");
    t9["permissions"] = json!(["fs.read"]);
    rt.register_values(&[t9], 4).expect("perm change");
    let (_, none) = search(&mut rt, &sid, "q", ok);
    assert!(none.is_empty());
}

#[test]
fn fused_ties_do_not_depend_on_the_registration_history() {
    // One vector for every text: every similarity ties, so the order is the tie-break's.
    let same = |texts: &[String]| -> Answer { Ok(texts.iter().map(|_| vec![1.0; DIMS]).collect()) };
    let (mut fresh, sid_a) = runtime(30);
    // Same tools, other index slots: extra tools first, then removed; then
    // the tools one by one, refilling the freed slots last-freed first (so
    // in the reverse of name order).
    let (mut churned, sid_b) = runtime(0);
    let extra: Vec<Value> = (100..130).map(|i| tool(i, "Extra")).collect();
    churned.register_values(&extra, 0).expect("extras");
    churned
        .update(
            holaryn_core::Update {
                remove: (100..130).map(|i| format!("tool_{i:03}")).collect(),
                ..Default::default()
            },
            0,
        )
        .expect("remove");
    for i in 0..30 {
        let t = tool(i, &format!("Tool number {i} does thing {}", i % 7));
        churned.register_values(&[t], 0).expect("tool");
    }
    let mut ranked = Vec::new();
    for (rt, sid) in [(&mut fresh, &sid_a), (&mut churned, &sid_b)] {
        rt.set_embedding_model(Some(model())).expect("model");
        let (hits, _) = search(rt, sid, "q", same);
        ranked.push(hits.into_iter().map(|(n, _)| n).collect::<Vec<_>>());
    }
    assert_eq!(ranked[0], ranked[1]);
    let mut sorted = ranked[0].clone();
    sorted.sort();
    assert_eq!(ranked[0], sorted, "equal scores rank by canonical name");
    assert!(!ranked[0].is_empty());
}

#[test]
fn prepare_embeds_every_tool_up_front() {
    let (mut rt, sid) = runtime(70);
    rt.set_embedding_model(Some(model())).expect("model");
    let step = rt.prepare_embeddings(0).expect("prepare");
    let (done, asked) = drive(&mut rt, step, ok);
    let SearchStep::Prepared(stats) = done else {
        panic!("expected stats")
    };
    assert_eq!(asked.len(), 2);
    assert_eq!((stats.tools, stats.cached, stats.embedded), (71, 71, 71));
    assert_eq!(stats.error, None);
    let (_, q) = search(&mut rt, &sid, "only the query", ok);
    assert_eq!(q.concat(), vec!["only the query".to_string()]);
}

#[test]
fn export_import_round_trips_and_mismatches_are_refused() {
    let (mut rt, sid) = runtime(30);
    rt.set_embedding_model(Some(model())).expect("model");
    let (before, _) = search(&mut rt, &sid, "thing 4", ok);
    for encoding in [Encoding::F32, Encoding::I8] {
        let data = rt.export_embeddings(encoding).expect("export");
        assert_eq!(data["format"], "holaryn.embeddings/1");
        assert_eq!(data["dimensions"], DIMS);
        assert_eq!(data["vectors"].as_object().map(|m| m.len()), Some(31));
        // Tool vectors only: the query never leaves the runtime.
        assert!(data["vectors"].get(text_key("thing 4")).is_none());
        let (mut rt2, sid2) = runtime(30);
        assert_eq!(rt2.import_embeddings(&data).expect("import"), 31);
        assert_eq!(rt2.embedding_model(), Some(&model()));
        let (after, asked) = search(&mut rt2, &sid2, "thing 4", ok);
        assert_eq!(asked, vec![vec!["thing 4".to_string()]]);
        if encoding == Encoding::F32 {
            assert_eq!(after, before);
        }
        let round = rt2.export_embeddings(encoding).expect("export again");
        if encoding == Encoding::F32 {
            assert_eq!(round, data);
        }
    }
    let data = rt.export_embeddings(Encoding::F32).expect("export");
    let mut other = Runtime::new();
    other
        .set_embedding_model(Some(EmbeddingModel {
            dimensions: 384,
            ..model()
        }))
        .expect("model");
    let e = other.import_embeddings(&data).expect_err("dims differ");
    assert_eq!(e.code, ErrorCode::EmbeddingsMismatch);
    assert_eq!(e.code.as_str(), "input.embeddings_mismatch");
    let mut renamed = Runtime::new();
    renamed
        .set_embedding_model(Some(EmbeddingModel {
            model: "other/model".into(),
            dimensions: DIMS,
        }))
        .expect("model");
    assert_eq!(
        renamed
            .import_embeddings(&data)
            .expect_err("model differs")
            .code,
        ErrorCode::EmbeddingsMismatch
    );
    // Malformed: one bad vector refuses the whole import.
    let mut bad = data.clone();
    bad["vectors"]["zz"] = json!("not base64!");
    let (mut rt3, _) = runtime(30);
    assert_eq!(
        rt3.import_embeddings(&bad).expect_err("bad").code,
        ErrorCode::InputInvalid
    );
    assert_eq!(rt3.embedding_model(), None);
    assert_eq!(
        rt3.export_embeddings(Encoding::F32)
            .expect_err("no model")
            .code,
        ErrorCode::InputInvalid
    );
    assert!(Runtime::new()
        .set_embedding_model(Some(EmbeddingModel {
            dimensions: 0,
            ..model()
        }))
        .is_err());
}

fn lexical_names(rt: &mut Runtime, sid: &str, q: &str) -> Vec<String> {
    rt.tool_search(sid, &json!({"query": q}), 1)
        .expect("lexical")
        .results
        .into_iter()
        .map(|r| r.name)
        .collect()
}

#[test]
fn a_failing_slow_or_malformed_embedder_falls_back_to_lexical_and_why_says_so() {
    let cases: Vec<(Embedder, &str)> = vec![
        (
            Box::new(|_| Err(EmbedFailure::Error("boom".into()))),
            "embedder unavailable: the embedder failed: boom",
        ),
        (
            Box::new(|_| Err(EmbedFailure::TimedOut { ms: 250 })),
            "embedder unavailable: the embedder took longer than 250 ms",
        ),
        (
            Box::new(|t| Ok(vec![vec![1.0; DIMS]; t.len() - 1])),
            "embedder unavailable: it returned",
        ),
        (
            Box::new(|t| Ok(vec![vec![1.0; 3]; t.len()])),
            "embedder unavailable: vector 0 has 3 components",
        ),
        (
            Box::new(|_| Err(EmbedFailure::NoEmbedder)),
            "embedder unavailable: no embed function is set",
        ),
    ];
    for (embed, note) in cases {
        let (mut rt, sid) = runtime(40);
        rt.set_embedding_model(Some(model())).expect("model");
        let want = lexical_names(&mut rt, &sid, "does thing 5");
        let (hits, asked) = search(&mut rt, &sid, "does thing 5", embed);
        assert_eq!(asked.len(), 1, "one failed request, then the result");
        assert_eq!(hits.iter().map(|h| h.0.clone()).collect::<Vec<_>>(), want);
        assert!(
            hits.iter()
                .all(|(_, why)| why.last().is_some_and(|w| w.starts_with(note))),
            "{note}: {hits:?}"
        );
        // Nothing was cached from the failed batch.
        let (_, retry) = search(&mut rt, &sid, "does thing 5", ok);
        assert_eq!(retry.iter().map(Vec::len).sum::<usize>(), 42);
    }
}

#[test]
fn with_the_query_vector_but_no_embedder_fusion_uses_the_cached_tools() {
    let (mut rt, sid) = runtime(40);
    rt.set_embedding_model(Some(model())).expect("model");
    search(&mut rt, &sid, "does thing 5", ok);
    rt.register_values(&[tool(900, "Brand new")], 3)
        .expect("add");
    let (hits, asked) = search(&mut rt, &sid, "does thing 5", |_| {
        Err(EmbedFailure::NoEmbedder)
    });
    assert_eq!(asked.len(), 1);
    assert!(hits
        .iter()
        .any(|(_, why)| why.iter().any(|w| w.starts_with("meaning: "))));
    assert!(hits.iter().all(|(_, why)| why
        .last()
        .is_some_and(|w| w.starts_with("embedder unavailable"))));
}

#[test]
fn exact_names_rank_first_whatever_the_vectors_say() {
    let (mut rt, sid) = runtime(40);
    rt.set_embedding_model(Some(model())).expect("model");
    let decoy = tool_text(
        rt.registry()
            .get("tool_012")
            .expect("t12")
            .descriptor
            .as_ref(),
    );
    // The query's vector is exactly tool_012's, yet the query names tool_031.
    let (hits, _) = search(&mut rt, &sid, "tool_031", |texts| {
        Ok(texts
            .iter()
            .map(|t| {
                if t == "tool_031" {
                    fake(&decoy)
                } else {
                    fake(t)
                }
            })
            .collect())
    });
    assert_eq!(hits[0].0, "tool_031");
    assert_eq!(hits[0].1[0], "exact name");
    assert!(hits
        .iter()
        .any(|(name, why)| name == "tool_012" && why.contains(&"meaning: 1.00".to_string())));
}

#[test]
fn filters_apply_to_meaning_matches_and_a_changed_model_drops_vectors() {
    let (mut rt, sid) = runtime(10);
    rt.register_values(
        &[json!({"name": "remote_tool", "description": "x", "source": "mcp", "provider": {"id": "far"}})],
        0,
    )
    .expect("mcp");
    rt.set_embedding_model(Some(model())).expect("model");
    let step = rt
        .search_step(&sid, &json!({"query": "remote", "source": "native"}), 1)
        .expect("search");
    let (SearchStep::Done(out), _) = drive(&mut rt, step, ok) else {
        panic!("done")
    };
    assert!(out.results.iter().all(|r| r.name != "remote_tool"));
    rt.set_embedding_model(Some(EmbeddingModel {
        model: "test/other".into(),
        dimensions: DIMS,
    }))
    .expect("new model");
    let (_, asked) = search(&mut rt, &sid, "remote", ok);
    assert_eq!(asked.iter().map(Vec::len).sum::<usize>(), 13);
    // Bad input is refused before any effect.
    assert!(rt.search_step(&sid, &json!({"query": ""}), 1).is_err());
    assert!(rt
        .search_step("sess_nope", &json!({"query": "x"}), 1)
        .is_err());
}
