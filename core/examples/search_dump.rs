//! Full ranked output of every labelled request, fixture query and benchmark
//! query, for checking that a speed change ranks byte-identically:
//! `cargo run --release -p holaryn-core --example search_dump > before.txt`,
//! change, run again, `cmp before.txt after.txt`.
//!
//! Per request: the 64 best hits of `SearchIndex::search_all` (name, score
//! bits, `why`), nothing-fits and coverage, then the `tool_search` output
//! as JSON (what the package returns). Prints no quality figure.
#[path = "common/bench.rs"]
mod bench;
#[path = "common/catalogs.rs"]
mod catalogs;

use holaryn_core::Runtime;
use serde_json::{json, Value};
use std::fmt::Write;

/// One request's full output, appended to `out`.
fn dump(rt: &mut Runtime, sid: &str, label: &str, input: &Value, out: &mut String) {
    let mut phrasings = vec![input["query"].as_str().unwrap_or_default()];
    if let Some(alts) = input.get("alternatives").and_then(Value::as_array) {
        phrasings.extend(alts.iter().filter_map(Value::as_str));
    }
    let index = rt.search_index();
    let r = index.search_all(&phrasings, 64, &|_| true);
    let _ = writeln!(
        out,
        "== {label} {:?} nothing_fits={} coverage={:08x}",
        phrasings,
        r.nothing_fits,
        r.coverage.to_bits()
    );
    for h in &r.hits {
        let name = index.tool(h.doc).map_or("?", |t| t.name.as_str());
        let _ = writeln!(
            out,
            "  {name} {:08x} {} {:?}",
            h.score.to_bits(),
            h.score,
            h.why
        );
    }
    let shown = match rt.tool_search(sid, input, 0) {
        Ok(o) => serde_json::to_string(&o).unwrap_or_default(),
        Err(e) => format!("error {e}"),
    };
    let _ = writeln!(out, "  tool_search {shown}");
}

fn main() {
    let root = catalogs::root();
    let mut out = String::new();
    // The labelled set and the fixture queries, on the labelled set's catalog.
    let mut rt = catalogs::quality_runtime();
    let sid = catalogs::dynamic_session(&mut rt);
    let text = std::fs::read_to_string(root.join("benchmarks/quality/requests.jsonl"))
        .expect("requests.jsonl");
    for line in text.lines().filter(|l| !l.trim().is_empty()) {
        let row: Value = serde_json::from_str(line).expect("row");
        let mut input = json!({ "query": row["query"] });
        if let Some(alts) = row.get("alternatives") {
            input["alternatives"] = alts.clone();
        }
        let id = row["id"].as_str().unwrap_or("?").to_string();
        dump(&mut rt, &sid, &id, &input, &mut out);
    }
    let queries: Vec<Value> = serde_json::from_str(
        &std::fs::read_to_string(root.join("tests/fixtures/search/queries.json"))
            .expect("queries.json"),
    )
    .expect("json");
    for q in &queries {
        let id = format!("fixture {}", q["id"].as_str().unwrap_or("?"));
        dump(
            &mut rt,
            &sid,
            &id,
            &json!({ "query": q["query"] }),
            &mut out,
        );
    }
    // The benchmark's queries at 300 and 3,000 tools (copies renamed as
    // benchmarks/fixture-catalog.mjs does: `provider_vK/name`).
    let specs = catalogs::catalog_specs(&root.join("tests/fixtures/mcp"), None);
    for n in [300usize, 3000] {
        let (mut rt, sid) = bench::runtime(&specs, n);
        for q in bench::queries() {
            dump(
                &mut rt,
                &sid,
                &format!("bench {n}"),
                &json!({ "query": q }),
                &mut out,
            );
        }
    }
    print!("{out}");
}
