//! Informal native timing of tool_search (the npm benchmark is the reference):
//! `cargo run --release -p holaryn-core --example search_timing`. The npm
//! benchmark's catalog and queries (`common/bench.rs`) at 300, 3,000 and
//! 30,000 tools: registration plus a first search, then the p50/p95 of one
//! search over 20 rounds of the queries.
#[path = "common/bench.rs"]
mod bench;
#[path = "common/catalogs.rs"]
mod catalogs;
use serde_json::json;
use std::time::Instant;

fn main() {
    let specs = catalogs::catalog_specs(&catalogs::root().join("tests/fixtures/mcp"), None);
    let queries = bench::queries();
    for n in [300usize, 3000, 30000] {
        let t = Instant::now();
        let (mut rt, sid) = bench::runtime(&specs, n);
        let first = rt.tool_search(&sid, &json!({"query": "warm"}), 0);
        let build = t.elapsed();
        let tools = first.map_or(0, |_| rt.registry().len());
        let mut us = Vec::with_capacity(20 * queries.len());
        for _ in 0..20 {
            for q in &queries {
                let t = Instant::now();
                let _ = rt.tool_search(&sid, &json!({ "query": q }), 0);
                us.push(t.elapsed().as_secs_f64() * 1e6);
            }
        }
        us.sort_by(f64::total_cmp);
        println!(
            "{n:>6} tools ({tools} registered): build {build:?}, p50 {:.1} µs, p95 {:.1} µs",
            us[us.len() / 2],
            us[us.len() * 95 / 100]
        );
    }
}
