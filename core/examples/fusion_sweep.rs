//! Tuning harness for the embedder fusion and the "nothing fits" bars, over
//! the **dev** rows of the labelled request set only (test rows are never read
//! into a figure): for each RRF k and meaning weight, fused top-1 / any@8 /
//! MRR@8 per kind, beside the lexical ranking; then nothing-fits precision and
//! recall for a grid of (cosine bar, coverage bar).
//! `cargo run --release -p holaryn-core --example fusion_sweep -- [REQUESTS.jsonl] [VECTORS.json]`
//! A benchmark: it measures, it never fails on a figure.
#[path = "common/catalogs.rs"]
mod catalogs;

use holaryn_core::embeddings::base64_decode;
use holaryn_core::search::embed::{
    fuse_with, meaning_ranking, normalized, similarities, text_key, tool_text, Fusion, POOL,
};
use serde_json::Value;
use std::collections::{BTreeMap, HashMap};

/// The vectors of an `i8` or `f32` export, unit length, by key.
fn vectors(data: &Value) -> HashMap<String, Vec<f32>> {
    let dims = data["dimensions"].as_u64().unwrap_or(0) as usize;
    let i8 = data["encoding"].as_str() == Some("i8");
    let mut out = HashMap::new();
    for (k, v) in data["vectors"].as_object().into_iter().flatten() {
        let Some(b) = v.as_str().and_then(base64_decode) else {
            continue;
        };
        let raw: Vec<f32> = if i8 {
            let scale = f32::from_le_bytes([b[0], b[1], b[2], b[3]]);
            b[4..].iter().map(|x| *x as i8 as f32 * scale).collect()
        } else {
            b.chunks_exact(4)
                .map(|c| f32::from_le_bytes([c[0], c[1], c[2], c[3]]))
                .collect()
        };
        if let Some(u) = normalized(&raw, dims) {
            out.insert(k.clone(), u);
        }
    }
    out
}

/// One dev request, ranked both ways once (fusion is re-run per setting).
struct Row {
    kind: String,
    gold: Vec<String>,
    lexical: Vec<holaryn_core::search::SearchHit>,
    meaning: Vec<(usize, f32)>,
    exact: Vec<usize>,
    coverage: f32,
    lexical_none: bool,
}

fn main() {
    let (requests, vec_file) = catalogs::quality_args();
    let rt = catalogs::quality_runtime();
    let data: Value =
        serde_json::from_str(&std::fs::read_to_string(&vec_file).expect("vectors")).expect("json");
    let vecs = vectors(&data);
    let dims = data["dimensions"].as_u64().unwrap_or(0) as usize;
    let index = rt.search_index();
    let slots = (0..index.len() * 2 + 64)
        .take_while(|d| *d < index.len() || index.tool(*d).is_some())
        .count();
    let mut matrix = vec![0f32; slots * dims];
    let mut present = vec![false; slots];
    for d in 0..slots {
        if let Some(v) = index
            .tool(d)
            .and_then(|t| vecs.get(&text_key(&tool_text(t))))
        {
            matrix[d * dims..(d + 1) * dims].copy_from_slice(v);
            present[d] = true;
        }
    }
    let name = |d: usize| index.tool(d).map_or(String::new(), |t| t.name.clone());
    let tie = |a: usize, b: usize| name(a).cmp(&name(b));
    let mut rows = Vec::new();
    for line in std::fs::read_to_string(&requests)
        .expect("requests")
        .lines()
    {
        let Ok(r) = serde_json::from_str::<Value>(line) else {
            continue;
        };
        if r["split"].as_str() != Some("dev") {
            continue; // tuning reads dev rows only
        }
        let q = r["query"].as_str().unwrap_or_default();
        let Some(qv) = vecs.get(&text_key(q)) else {
            eprintln!("no vector for {}", r["id"]);
            continue;
        };
        let sims = similarities(qv, &matrix, &present);
        let lex = index.search_all(&[q], POOL, &|_| true);
        rows.push(Row {
            kind: r["kind"].as_str().unwrap_or("?").to_string(),
            gold: r["gold"]
                .as_array()
                .map(|g| {
                    g.iter()
                        .filter_map(|x| x.as_str().map(String::from))
                        .collect()
                })
                .unwrap_or_default(),
            meaning: meaning_ranking(&sims, &|_| true, &tie),
            exact: index.exact_docs(q),
            coverage: lex.coverage,
            lexical_none: lex.nothing_fits,
            lexical: lex.hits,
        });
    }
    // Per kind: [n, top1, any8, mrr] for a ranking of every row.
    let score = |rank: &dyn Fn(&Row) -> Vec<String>| {
        let mut per: BTreeMap<String, (u32, u32, u32, f64)> = BTreeMap::new();
        for r in rows.iter().filter(|r| !r.gold.is_empty()) {
            let names = rank(r);
            let at = names.iter().take(8).position(|n| r.gold.contains(n));
            for k in [r.kind.as_str(), "all"] {
                let e = per.entry(k.to_string()).or_default();
                e.0 += 1;
                e.1 += u32::from(at == Some(0));
                e.2 += u32::from(at.is_some());
                e.3 += at.map_or(0.0, |a| 1.0 / (a as f64 + 1.0));
            }
        }
        per
    };
    let show = |label: &str, per: &BTreeMap<String, (u32, u32, u32, f64)>| {
        let cells: Vec<String> = per
            .iter()
            .map(|(k, (n, t1, a8, m))| {
                let n = *n as f64;
                format!(
                    "{}: {t1}={:.0}/{:.0}/{:.3}",
                    &k[..k.len().min(5)],
                    100.0 * *t1 as f64 / n,
                    100.0 * *a8 as f64 / n,
                    m / n
                )
            })
            .collect();
        println!("{label:<16} {}", cells.join("  "));
    };
    show(
        "lexical",
        &score(&|r| r.lexical.iter().take(8).map(|h| name(h.doc)).collect()),
    );
    let ks = [1.0, 2.0, 5.0, 10.0, 20.0, 60.0];
    let ws = [0.3, 0.4, 0.5, 0.6, 0.8, 1.0];
    for k in ks {
        for w in ws {
            let f = Fusion {
                rrf_k: k,
                meaning: w,
            };
            let per = score(&|r| {
                fuse_with(r.lexical.clone(), &r.meaning, &r.exact, 8, &tie, f)
                    .iter()
                    .map(|h| name(h.doc))
                    .collect()
            });
            show(&format!("k {k} w {w}"), &per);
        }
    }
    let none_n = rows.iter().filter(|r| r.gold.is_empty()).count();
    let report = |label: &str, flag: &dyn Fn(&Row) -> bool| {
        let right = rows.iter().filter(|r| r.gold.is_empty() && flag(r)).count();
        let wrong = rows
            .iter()
            .filter(|r| !r.gold.is_empty() && flag(r))
            .count();
        let p = if right + wrong == 0 {
            "—".to_string()
        } else {
            format!("{:.2}", right as f64 / (right + wrong) as f64)
        };
        println!(
            "nothing fits {label:<28} flagged {:>2}: {right:>2} of {none_n} right, precision {p}, recall {:.2}",
            right + wrong,
            right as f64 / none_n.max(1) as f64
        );
    };
    report("lexical (as built)", &|r| r.lexical_none);
    for bar in [0.05, 0.1, 0.15, 0.2] {
        report(&format!("lexical and coverage < {bar}"), &|r| {
            r.lexical_none && r.coverage < bar
        });
    }
    for m in [0.2, 0.21, 0.22, 0.23, 0.24] {
        for c in [0.2, 0.25, 0.3, 0.35, 0.4] {
            report(&format!("cosine < {m}, coverage < {c}"), &|r| {
                r.meaning.first().map_or(0.0, |x| x.1) < m && r.coverage < c
            });
        }
    }
}
