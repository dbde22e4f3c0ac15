//! Native search-quality harness over the labelled request set (fast tuning loop):
//! `cargo run --release -p holaryn-core --example search_quality -- [dev|test] [FILE] [--misses]`
//!
//! Registers the 54 MCP fixtures (names qualified) plus the native tools, runs
//! every request of the split through `tool_search`, and prints top-1,
//! any-gold@8 and MRR@8 per kind, plus "nothing fits" precision and recall.
//! `--misses` lists misses, and only for the `dev` split (test queries stay unseen).
#[path = "common/catalogs.rs"]
mod catalogs;

use holaryn_core::Runtime;
use holaryn_core::Update;
use serde_json::{json, Value};
use std::collections::BTreeMap;
use std::path::Path;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let split = args.first().cloned().unwrap_or_else(|| "dev".into());
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let file = args
        .get(1)
        .filter(|a| !a.starts_with("--"))
        .map(Into::into)
        .unwrap_or_else(|| root.join("benchmarks/quality/requests.jsonl"));
    let misses = args.iter().any(|a| a == "--misses") && split == "dev";
    // `--top N`: with `--misses`, how many results each miss lists (3).
    let top = args
        .iter()
        .position(|a| a == "--top")
        .and_then(|i| args.get(i + 1))
        .and_then(|n| n.parse().ok())
        .unwrap_or(3);
    // `--only ID,ID`: with `--misses`, list these dev requests whether missed or not.
    let only: Vec<String> = args
        .iter()
        .position(|a| a == "--only")
        .and_then(|i| args.get(i + 1))
        .map(|s| s.split(',').map(String::from).collect())
        .unwrap_or_default();
    let mut rt = Runtime::new();
    let specs = catalogs::catalog_specs(&root.join("tests/fixtures/mcp"), None);
    rt.update(
        Update {
            upsert: specs,
            ..Update::default()
        },
        0,
    )
    .expect("catalog");
    let native: Vec<Value> = serde_json::from_str(
        &std::fs::read_to_string(root.join("tests/fixtures/search/native_tools.json"))
            .expect("native"),
    )
    .expect("json");
    rt.register_values(&native, 0).expect("native");
    let sid = catalogs::dynamic_session(&mut rt);
    let text = std::fs::read_to_string(&file).expect("requests.jsonl");
    // kind -> (n, top1, any8, mrr)
    let mut per: BTreeMap<String, (u32, u32, u32, f64)> = BTreeMap::new();
    let (mut nf_tp, mut nf_fp, mut nf_n) = (0u32, 0u32, 0u32);
    for line in text.lines().filter(|l| !l.trim().is_empty()) {
        let row: Value = serde_json::from_str(line).expect("row");
        if row["split"].as_str() != Some(split.as_str()) {
            continue;
        }
        let kind = row["kind"].as_str().unwrap_or("?").to_string();
        let gold: Vec<&str> = row["gold"]
            .as_array()
            .map(|a| a.iter().filter_map(Value::as_str).collect())
            .unwrap_or_default();
        let mut input = json!({ "query": row["query"] });
        if let Some(alts) = row.get("alternatives") {
            input["alternatives"] = alts.clone();
        }
        let out = match rt.tool_search(&sid, &input, 0) {
            Ok(o) => serde_json::to_value(o).unwrap_or_default(),
            Err(e) => {
                println!("error {}: {e}", row["id"]);
                continue;
            }
        };
        let names: Vec<String> = out["results"]
            .as_array()
            .map(|a| {
                a.iter()
                    .filter_map(|r| r["name"].as_str().map(String::from))
                    .collect()
            })
            .unwrap_or_default();
        let flagged = out["nothingFits"].as_bool().unwrap_or(false);
        if gold.is_empty() {
            nf_n += 1;
            nf_tp += u32::from(flagged);
        } else {
            nf_fp += u32::from(flagged);
        }
        if misses && flagged && !gold.is_empty() {
            println!("FLAGGED-WITH-GOLD {} {:?}", row["id"], row["query"]);
        }
        let e = per.entry(kind.clone()).or_default();
        e.0 += 1;
        if gold.is_empty() {
            continue;
        }
        let rank = names.iter().position(|n| gold.contains(&n.as_str()));
        if rank == Some(0) {
            e.1 += 1;
        }
        if let Some(r) = rank {
            e.2 += 1;
            e.3 += 1.0 / (r as f64 + 1.0);
        }
        let listed = only.is_empty() || only.iter().any(|i| row["id"].as_str() == Some(i));
        if misses && listed && (rank != Some(0) || !only.is_empty()) {
            let why: Vec<String> = out["results"]
                .as_array()
                .map(|a| {
                    a.iter()
                        .take(top)
                        .map(|r| format!("{} {:?}", r["name"], r["why"]))
                        .collect()
                })
                .unwrap_or_default();
            println!(
                "MISS {} [{kind}] {:?} rank={rank:?} gold={gold:?}{}\n    {}",
                row["id"],
                row["query"],
                if flagged { " NOTHING-FITS" } else { "" },
                why.join("\n    ")
            );
        }
    }
    println!("split {split}: kind            n   top1  any@8  mrr@8");
    let (mut tn, mut t1, mut t8) = (0, 0, 0);
    for (kind, (n, top1, any8, mrr)) in &per {
        if kind == "nothing-fits" {
            continue;
        }
        let f = *n as f64;
        println!(
            "  {kind:<16} {n:>3}  {:.3}  {:.3}  {:.3}",
            *top1 as f64 / f,
            *any8 as f64 / f,
            mrr / f
        );
        tn += n;
        t1 += top1;
        t8 += any8;
    }
    println!(
        "  {:<16} {tn:>3}  {:.3}  {:.3}",
        "all (gold)",
        t1 as f64 / tn as f64,
        t8 as f64 / tn as f64
    );
    let prec = if nf_tp + nf_fp == 0 {
        f64::NAN
    } else {
        nf_tp as f64 / (nf_tp + nf_fp) as f64
    };
    println!(
        "  nothing-fits: flagged {nf_tp}/{nf_n} (recall {:.3}), wrongly flagged {nf_fp} (precision {prec:.3})",
        nf_tp as f64 / nf_n.max(1) as f64
    );
}
