//! Informal native timing of tool_search (the npm benchmark is the reference):
//! `cargo run --release -p holaryn-core --example search_timing`
#[path = "common/catalogs.rs"]
mod catalogs;
use holaryn_core::registry::Update;
use holaryn_core::session::SessionOptions;
use holaryn_core::Runtime;
use serde_json::json;
use std::time::Instant;

fn main() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/fixtures/mcp");
    let specs = catalogs::catalog_specs(&dir, None);
    for n in [300usize, 3000, 30000] {
        let mut rt = Runtime::new();
        let mut batch = Vec::new();
        for i in 0..n {
            let mut s = specs[i % specs.len()].clone();
            let copy = i / specs.len();
            if copy > 0 {
                s.name = format!("{}_v{copy}", s.name);
                s.provider.id = format!("{}_v{copy}", s.provider.id);
            }
            batch.push(s);
        }
        let t = Instant::now();
        rt.update(
            Update {
                upsert: batch,
                ..Update::default()
            },
            0,
        )
        .ok();
        let sid = rt
            .create_session(
                SessionOptions {
                    dynamic_discovery: true,
                    ..Default::default()
                },
                &[7; 32],
                0,
            )
            .unwrap_or_default();
        let _ = rt.tool_search(&sid, &json!({"query": "warm"}), 0);
        let build = t.elapsed();
        let qs = [
            "create a github issue",
            "read a file",
            "take a screenshot of the page",
            "send a slack message",
            "list kubernetes pods",
            "find and read the release notes",
        ];
        let mut us = Vec::new();
        for _ in 0..50 {
            for q in qs {
                let t = Instant::now();
                let _ = rt.tool_search(&sid, &json!({ "query": q }), 0);
                us.push(t.elapsed().as_secs_f64() * 1e6);
            }
        }
        us.sort_by(f64::total_cmp);
        println!(
            "{n:>6} tools: build {:?}, p50 {:.1} µs, p95 {:.1} µs",
            build,
            us[us.len() / 2],
            us[us.len() * 95 / 100]
        );
    }
}
