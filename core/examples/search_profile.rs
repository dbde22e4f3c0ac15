//! Profile target for tool_search at 300 tools, the npm benchmark's catalog
//! and queries (`benchmarks/search-speed.mjs`), run under callgrind:
//! `cargo build --profile profiling -p holaryn-core --example search_profile`,
//! then `N=200 valgrind --tool=callgrind target/profiling/examples/search_profile`
//! (`N` rounds of the 40 queries; `TOOLS` tools, 300 by default). Prints
//! the p50 of one search in µs (informal: the npm benchmark is the reference).
#[path = "common/catalogs.rs"]
mod catalogs;
use holaryn_core::registry::Update;
use holaryn_core::Runtime;
use serde_json::json;

/// The queries of benchmarks/search-speed.mjs.
const QUERIES: &[&str] = &[
    "create a github issue",
    "find files by name",
    "read a file",
    "take a screenshot of the page",
    "remember this fact about the user",
    "search the web",
    "list pull requests",
    "send a slack message",
    "query the database",
    "delete a branch",
    "refund a payment",
    "get the weather forecast",
    "find and read the release notes",
    "navigate to a url",
    "list kubernetes pods",
    "update a linear ticket",
    "create a calendar event",
    "upload a file to drive",
    "get current time in a timezone",
    "run a sql query",
    "click a button on the page",
    "search notion pages",
    "list directory contents",
    "commit changes to git",
    "fetch a web page as markdown",
    "create a chart",
    "geocode an address",
    "list stripe customers",
    "send an email",
    "create a jira ticket",
    "scrape a website",
    "get pipeline status",
    "deploy to heroku",
    "search documentation for a library",
    "write a file",
    "list issues assigned to me",
    "merge a pull request",
    "get feature flag",
    "read console logs",
    "create a memory entity",
];

fn main() {
    let env = |k: &str, d: usize| {
        std::env::var(k)
            .ok()
            .and_then(|v| v.parse().ok())
            .unwrap_or(d)
    };
    let (n, tools) = (env("N", 200), env("TOOLS", 300));
    let specs = catalogs::catalog_specs(&catalogs::root().join("tests/fixtures/mcp"), None);
    // Copies renamed as benchmarks/fixture-catalog.mjs does: `provider_vK/name`.
    let batch = (0..tools)
        .map(|i| {
            let mut s = specs[i % specs.len()].clone();
            let copy = i / specs.len();
            if copy > 0 {
                let id = format!("{}_v{copy}", s.provider.id);
                s.name = match s.name.strip_prefix(&format!("{}/", s.provider.id)) {
                    Some(rest) => format!("{id}/{rest}"),
                    None => format!("{}_v{copy}", s.name),
                };
                s.provider.id = id;
            }
            s
        })
        .collect();
    let mut rt = Runtime::new();
    rt.update(
        Update {
            upsert: batch,
            ..Update::default()
        },
        0,
    )
    .expect("catalog");
    let sid = catalogs::dynamic_session(&mut rt);
    let mut total = 0;
    let mut us = Vec::with_capacity(n * QUERIES.len());
    for _ in 0..n {
        for q in QUERIES {
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
