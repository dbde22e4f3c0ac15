//! The outside yardstick's native ranker (benchmarks/outside/): registers a
//! catalog file or directory as the CLI does (a file is one provider, named by
//! its `server` field or stem; a directory one provider per file, names
//! qualified; refused names namespaced by the core's catalog rule, other
//! refused tools skipped and listed) and ranks every request.
//! `cargo run --release -p holaryn-core --example outside_rank -- CATALOG REQUESTS.jsonl [--vectors V.json] [--texts] [--skipped]`
//!
//! Default: one JSON line per request, `{"id", "lexical", "lexicalUs", "why"}`
//! (`why` of the first three lexical results), plus `"fused"`, `"fusedUs"`
//! with `--vectors` (precomputed `holaryn.embeddings/1`). `--texts` prints the
//! texts the core embeds instead (`{"kind": "tool", "name", "key", "text"}`
//! and `{"kind": "query", "key", "text"}`); `--skipped` prints only the tools
//! the registry refused. A benchmark: it measures, it never fails on a figure.
#[path = "common/catalogs.rs"]
mod catalogs;

use holaryn_core::Runtime;
use holaryn_core::{parse_catalog, parse_provider_list, CatalogOptions};
use holaryn_core::{EmbedFailure, SearchStep};
use holaryn_search::{text_key, tool_text};
use serde_json::{json, Value};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::time::Instant;

/// Names ranked with the embedder's cached vectors (a missing vector is ranked by the rest).
fn fused(rt: &mut Runtime, sid: &str, q: &str) -> Vec<String> {
    let Ok(mut step) = rt.search_step(sid, &json!({ "query": q, "limit": 8 }), 1) else {
        return Vec::new();
    };
    loop {
        match step {
            SearchStep::NeedEmbeddings(req) => {
                match req.resume(rt, Err(EmbedFailure::NoEmbedder), 1) {
                    Ok(s) => step = s,
                    Err(_) => return Vec::new(),
                }
            }
            SearchStep::Done(out) => return out.results.into_iter().map(|r| r.name).collect(),
            SearchStep::Prepared(_) => return Vec::new(),
        }
    }
}

/// Register `text` as one provider, as `holaryn rank --catalog FILE` does: a
/// tool whose name is refused is kept as `provider/localName` when that is
/// accepted (the core's `CatalogOptions::qualify_refused_names`, which
/// js/cli/catalog-rule.mjs uses too); returns the renamed tools (old -> new)
/// and the tools still skipped.
fn register(
    rt: &mut Runtime,
    file: &str,
    text: &str,
    opts: &CatalogOptions,
    renamed: &mut BTreeMap<String, String>,
) -> Vec<Value> {
    let opts = CatalogOptions {
        qualify_refused_names: true,
        ..opts.clone()
    };
    // The notes come with the whole catalog; the list skips what is still refused.
    if let Ok(parsed) = parse_catalog(file, text, &opts) {
        renamed.extend(parsed.renamed.into_iter().map(|r| (r.from, r.to)));
    }
    let list = parse_provider_list(file, text, &opts).expect("a catalog");
    let sync = rt.sync_provider_list(list, 0).expect("registration");
    sync.skipped
        .iter()
        .map(|s| serde_json::to_value(s).unwrap_or_default())
        .collect()
}

/// The files of a catalog path and how each registers: a file as one
/// provider (its `server` field or stem), a directory by the CLI's directory
/// convention (`catalogs::directory_catalogs`; a README or other non-catalog
/// JSON is skipped when it registers).
fn catalog_files(path: &Path) -> Vec<(PathBuf, CatalogOptions)> {
    if !path.is_dir() {
        return vec![(path.to_path_buf(), CatalogOptions::default())];
    }
    catalogs::directory_catalogs(path, None)
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let flag = |f: &str| args.iter().any(|a| a == f);
    let vectors = args
        .iter()
        .position(|a| a == "--vectors")
        .and_then(|i| args.get(i + 1));
    let (Some(catalog), Some(requests)) = (args.first(), args.get(1)) else {
        eprintln!(
            "usage: outside_rank CATALOG REQUESTS.jsonl [--vectors V.json] [--texts] [--skipped]"
        );
        std::process::exit(2);
    };
    let mut rt = Runtime::new();
    let (mut renamed, mut skipped) = (BTreeMap::new(), Vec::new());
    for (file, opts) in catalog_files(Path::new(catalog)) {
        let text = std::fs::read_to_string(&file).expect("readable catalog");
        let name = file.to_string_lossy();
        skipped.extend(register(&mut rt, &name, &text, &opts, &mut renamed));
    }
    if flag("--skipped") {
        let report =
            json!({"registered": rt.registry().len(), "renamed": renamed, "skipped": skipped});
        println!("{report}");
        return;
    }
    let rows: Vec<Value> = std::fs::read_to_string(requests)
        .expect("requests")
        .lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| serde_json::from_str(l).expect("a JSON line"))
        .collect();
    if flag("--texts") {
        for e in rt.registry().entries() {
            let t = tool_text(&e.descriptor);
            let line =
                json!({"kind": "tool", "name": e.descriptor.name, "key": text_key(&t), "text": t});
            println!("{line}");
        }
        for r in &rows {
            let q = r["query"].as_str().unwrap_or_default();
            println!(
                "{}",
                json!({"kind": "query", "key": text_key(q), "text": q})
            );
        }
        return;
    }
    if let Some(v) = vectors {
        let data: Value = serde_json::from_str(&std::fs::read_to_string(v).expect("vectors"))
            .expect("vectors JSON");
        let n = rt.import_embeddings(&data).expect("import");
        eprintln!("{n} vectors imported");
    }
    let options = holaryn_core::SessionOptions {
        dynamic_discovery: true,
        ..Default::default()
    };
    let sid = rt.create_session(options, &[7; 32], 0).expect("session");
    // Build the index (and the vector matrix) before timing.
    let _ = rt.tool_search(&sid, &json!({ "query": "index" }), 1);
    if vectors.is_some() {
        let _ = fused(&mut rt, &sid, "index");
    }
    for r in &rows {
        let q = r["query"].as_str().unwrap_or_default();
        let t = Instant::now();
        let out = rt.tool_search(&sid, &json!({ "query": q, "limit": 8 }), 1);
        let lex_us = t.elapsed().as_secs_f64() * 1e6;
        let mut line = match out {
            Ok(o) => {
                let why: Vec<Value> = o
                    .results
                    .iter()
                    .take(3)
                    .map(|x| json!([x.name, x.why]))
                    .collect();
                json!({"id": r["id"], "lexical": o.results.iter().map(|x| x.name.clone()).collect::<Vec<_>>(),
                       "nothingFits": o.nothing_fits, "lexicalUs": lex_us, "why": why})
            }
            Err(e) => json!({"id": r["id"], "lexical": [], "error": e.to_string()}),
        };
        if vectors.is_some() {
            let t = Instant::now();
            line["fused"] = json!(fused(&mut rt, &sid, q));
            line["fusedUs"] = json!(t.elapsed().as_secs_f64() * 1e6);
        }
        println!("{line}");
    }
}
