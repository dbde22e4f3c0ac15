//! Profile target for tool_search at 300 tools, the npm benchmark's catalog
//! and queries (`benchmarks/search-speed.mjs`), run under callgrind:
//! `cargo build --profile profiling -p holaryn-core --example search_profile`,
//! then `N=200 valgrind --tool=callgrind target/profiling/examples/search_profile`
//! (`N` rounds of the 40 queries; `TOOLS` tools, 300 by default). Prints
//! the p50 of one search in µs (informal: the npm benchmark is the reference).
#[path = "common/bench.rs"]
mod bench;
#[path = "common/catalogs.rs"]
mod catalogs;
use serde_json::json;

fn main() {
    let env = |k: &str, d: usize| {
        std::env::var(k)
            .ok()
            .and_then(|v| v.parse().ok())
            .unwrap_or(d)
    };
    let (n, tools) = (env("N", 200), env("TOOLS", 300));
    let specs = catalogs::catalog_specs(&catalogs::root().join("tests/fixtures/mcp"), None);
    let (mut rt, sid) = bench::runtime(&specs, tools);
    let mut total = 0;
    let queries = bench::queries();
    let mut us = Vec::with_capacity(n * queries.len());
    for _ in 0..n {
        for q in &queries {
            let t = std::time::Instant::now();
            if let Ok(out) = rt.tool_search(&sid, &json!({ "query": q }), 0) {
                total += out.results.len();
            }
            us.push(t.elapsed().as_secs_f64() * 1e6);
        }
    }
    us.sort_by(f64::total_cmp);
    let p50 = us.get(us.len() / 2).copied().unwrap_or_default();
    println!("{total} results, p50 {p50:.2} µs");
}
