//! Native measurement of the host-embedder fusion on the labelled request set:
//! per kind, top-1, gold-in-8 and MRR@8 with words only vs fused with precomputed
//! all-MiniLM-L6-v2 vectors, and the time per search with cached vectors.
//! `cargo run --release -p holaryn-core --example embed_quality -- REQUESTS.jsonl [VECTORS.json]`
//! (defaults: benchmarks/quality/requests.jsonl, tests/fixtures/embeddings/minilm-l6-v2.json).
//! A benchmark: it measures, it never fails on a figure.
#[path = "common/catalogs.rs"]
mod catalogs;

use holaryn_core::Runtime;
use holaryn_core::{EmbedFailure, SearchStep};
use serde_json::{json, Value};
use std::collections::BTreeMap;
use std::time::Instant;

/// Fused ranking: (names, whether a vector was missing, whether nothing fits).
fn fused(rt: &mut Runtime, sid: &str, q: &str) -> (Vec<String>, bool, bool) {
    let mut step = rt
        .search_step(sid, &json!({ "query": q }), 1)
        .expect("search");
    let mut missed = false;
    loop {
        match step {
            SearchStep::NeedEmbeddings(req) => {
                missed = true;
                step = req
                    .resume(rt, Err(EmbedFailure::NoEmbedder), 1)
                    .expect("resume");
            }
            SearchStep::Done(out) => {
                let none = out.nothing_fits;
                return (
                    out.results.into_iter().map(|r| r.name).collect(),
                    missed,
                    none,
                );
            }
            SearchStep::Prepared(_) => unreachable!("a search never prepares"),
        }
    }
}

fn main() {
    let (requests, vectors) = catalogs::quality_args();
    let rows: Vec<Value> = std::fs::read_to_string(&requests)
        .expect("requests")
        .lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| serde_json::from_str(l).expect("json line"))
        .collect();
    let mut rt = catalogs::quality_runtime();
    let data: Value =
        serde_json::from_str(&std::fs::read_to_string(&vectors).expect("vectors")).expect("json");
    rt.import_embeddings(&data).expect("import");
    let sid = catalogs::dynamic_session(&mut rt);
    // kind/split -> [n, lexical top1, lexical in8, fused top1, fused in8,
    // lexical MRR@8 sum, fused MRR@8 sum]
    let mut table: BTreeMap<String, [f64; 7]> = BTreeMap::new();
    let mut missing = 0;
    // "Nothing fits" per split: [requests without gold, flagged by words,
    // flagged fused, gold requests wrongly flagged by words, fused].
    let mut none: BTreeMap<String, [usize; 5]> = BTreeMap::new();
    for r in &rows {
        let gold: Vec<&str> = r["gold"]
            .as_array()
            .map(|g| g.iter().filter_map(Value::as_str).collect())
            .unwrap_or_default();
        let q = r["query"].as_str().unwrap_or_default();
        let lexical = rt
            .tool_search(&sid, &json!({ "query": q }), 1)
            .expect("lexical");
        let (fus, miss, fus_none) = fused(&mut rt, &sid, q);
        let nf = none
            .entry(r["split"].as_str().unwrap_or("?").to_string())
            .or_default();
        let at = if gold.is_empty() { 0 } else { 2 };
        nf[0] += gold.is_empty() as usize;
        nf[1 + at] += lexical.nothing_fits as usize;
        nf[2 + at] += fus_none as usize;
        if gold.is_empty() {
            continue;
        }
        let lex: Vec<String> = lexical.results.into_iter().map(|x| x.name).collect();
        missing += miss as usize;
        let top1 =
            |v: &[String]| v.first().is_some_and(|n| gold.contains(&n.as_str())) as u8 as f64;
        let in8 = |v: &[String]| v.iter().take(8).any(|n| gold.contains(&n.as_str())) as u8 as f64;
        let rr = |v: &[String]| {
            v.iter()
                .take(8)
                .position(|n| gold.contains(&n.as_str()))
                .map_or(0.0, |p| 1.0 / (p as f64 + 1.0))
        };
        for k in [
            r["kind"].as_str().unwrap_or("?").to_string(),
            "all".to_string(),
        ] {
            for split in [r["split"].as_str().unwrap_or("?"), "both"] {
                let e = table.entry(format!("{k:<16} {split:<5}")).or_default();
                e[0] += 1.0;
                e[1] += top1(&lex);
                e[2] += in8(&lex);
                e[3] += top1(&fus);
                e[4] += in8(&fus);
                e[5] += rr(&lex);
                e[6] += rr(&fus);
            }
        }
        if std::env::var("SHOW").is_ok() && in8(&lex) == 0.0 && in8(&fus) == 1.0 {
            println!("gain: {} {q:?} -> {:?}", r["id"], gold);
        }
    }
    println!(
        "{} requests; {missing} lacked a vector (ranked by what was cached)",
        rows.len()
    );
    for (split, [n, lex, fus, lex_wrong, fus_wrong]) in &none {
        println!(
            "nothing fits {split}: {n} requests; flagged by words {lex} (+{lex_wrong} wrongly), fused {fus} (+{fus_wrong} wrongly)"
        );
    }
    println!(
        "{:<22} {:>4}  {:>10} {:>9} {:>9}  {:>10} {:>9} {:>9}",
        "kind split", "n", "words top1", "in8", "MRR@8", "fused top1", "in8", "MRR@8"
    );
    let pct = |a: f64, n: f64| format!("{:.0}%", 100.0 * a / n.max(1.0));
    let mrr = |a: f64, n: f64| format!("{:.3}", a / n.max(1.0));
    for (k, e) in &table {
        println!(
            "{k:<22} {:>4}  {:>10} {:>9} {:>9}  {:>10} {:>9} {:>9}",
            e[0],
            pct(e[1], e[0]),
            pct(e[2], e[0]),
            mrr(e[5], e[0]),
            pct(e[3], e[0]),
            pct(e[4], e[0]),
            mrr(e[6], e[0])
        );
    }
    if std::env::var("NOTIME").is_ok() {
        return;
    }
    // Time per search with every vector cached, interleaved, 5 rounds.
    let queries: Vec<&str> = rows.iter().filter_map(|r| r["query"].as_str()).collect();
    let (mut lex_ns, mut fus_ns) = (Vec::new(), Vec::new());
    for _ in 0..5 {
        for q in &queries {
            let t = Instant::now();
            let _ = rt.tool_search(&sid, &json!({ "query": q }), 1);
            lex_ns.push(t.elapsed().as_nanos());
            let t = Instant::now();
            let _ = fused(&mut rt, &sid, q);
            fus_ns.push(t.elapsed().as_nanos());
        }
    }
    lex_ns.sort();
    fus_ns.sort();
    let p50 = |v: &[u128]| v[v.len() / 2] as f64 / 1000.0;
    println!(
        "per search, cached vectors, {} tools: words p50 {:.0} µs, fused p50 {:.0} µs (× {:.2})",
        rt.registry().len(),
        p50(&lex_ns),
        p50(&fus_ns),
        p50(&fus_ns) / p50(&lex_ns)
    );
}
