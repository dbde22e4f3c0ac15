//! Where time and memory go at catalog scale, natively (the npm benchmark,
//! `npm run bench:scale`, is the reference):
//! `cargo run --release -p holaryn-core --example scale_profile [-- 300,3000,10000,30000]`
//!
//! Registers the fixture tools multiplied to size in batches of 1,000, then
//! times the first search and a one-tool change plus search, and reports live
//! heap bytes (a counting allocator) per part: the registry, the search index,
//! and the input schemas inside the descriptors.
#[path = "common/bench.rs"]
mod bench;
#[path = "common/catalogs.rs"]
mod catalogs;
use holaryn_core::SessionOptions;
use holaryn_core::{Registry, Update};
use holaryn_core::{Runtime, ToolSpec};
use holaryn_search::SearchIndex;
use serde_json::json;
use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicIsize, Ordering};
use std::time::Instant;

/// Counts live heap bytes.
struct Counting;
static LIVE: AtomicIsize = AtomicIsize::new(0);

// SAFETY: delegates to the system allocator and only counts sizes.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, l: Layout) -> *mut u8 {
        LIVE.fetch_add(l.size() as isize, Ordering::Relaxed);
        System.alloc(l)
    }
    unsafe fn dealloc(&self, p: *mut u8, l: Layout) {
        LIVE.fetch_sub(l.size() as isize, Ordering::Relaxed);
        System.dealloc(p, l)
    }
    unsafe fn realloc(&self, p: *mut u8, l: Layout, n: usize) -> *mut u8 {
        LIVE.fetch_add(n as isize - l.size() as isize, Ordering::Relaxed);
        System.realloc(p, l, n)
    }
}

#[global_allocator]
static A: Counting = Counting;

fn live_mb() -> f64 {
    LIVE.load(Ordering::Relaxed) as f64 / 1e6
}

/// Re-lists timed (the median is reported).
const RELISTS: usize = 200;

fn fixture_specs() -> Vec<ToolSpec> {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/fixtures/mcp");
    catalogs::catalog_specs(&dir, None)
}

fn main() {
    let sizes: Vec<usize> = std::env::args()
        .nth(1)
        .unwrap_or_else(|| "300,3000,10000,30000".into())
        .split(',')
        .filter_map(|s| s.parse().ok())
        .collect();
    let base = fixture_specs();
    for n in sizes {
        let tools = bench::catalog(&base, n);
        let heap0 = live_mb();
        let mut rt = Runtime::new();
        let t = Instant::now();
        for chunk in tools.chunks(1000) {
            let update = Update {
                upsert: chunk.to_vec(),
                ..Update::default()
            };
            if let Err(e) = rt.update(update, 0) {
                eprintln!("register: {e:?}");
            }
        }
        let register_ms = t.elapsed().as_secs_f64() * 1e3;
        let opts = SessionOptions {
            dynamic_discovery: true,
            ..Default::default()
        };
        let sid = rt.create_session(opts, &[7; 32], 0).unwrap_or_default();
        let t = Instant::now();
        let _ = rt.tool_search(&sid, &json!({"query": "create a github issue"}), 0);
        let first_ms = t.elapsed().as_secs_f64() * 1e3;
        let mut changed = tools[n / 2].clone();
        changed.description.push_str(" (changed)");
        let t = Instant::now();
        let _ = rt.update(
            Update {
                upsert: vec![changed],
                ..Update::default()
            },
            0,
        );
        let _ = rt.tool_search(&sid, &json!({"query": "create a github issue"}), 0);
        let change_ms = t.elapsed().as_secs_f64() * 1e3;
        // A 100-tool provider registered from texts, then re-listed with one
        // more tool changed each time (what syncProvider does after the split).
        let relist: Vec<String> = tools[..100.min(n)]
            .iter()
            .enumerate()
            .map(|(i, t)| {
                let mut t = t.clone();
                t.name = format!("relisted/{}_{i}", t.name.replace('/', "_"));
                t.provider.id = "relisted".into();
                serde_json::to_string(&t).unwrap_or_default()
            })
            .collect();
        let texts = |k: usize| -> Vec<String> {
            relist
                .iter()
                .enumerate()
                .map(|(i, t)| {
                    if i < k {
                        t.replacen("\"description\":\"", "\"description\":\"re-listed ", 1)
                    } else {
                        t.clone()
                    }
                })
                .collect()
        };
        let first = texts(0);
        let refs: Vec<&str> = first.iter().map(String::as_str).collect();
        let _ = rt.sync_provider_texts("relisted", &refs, 0);
        let mut relist_us = Vec::new();
        for k in 1..=RELISTS {
            let list = texts(k);
            let refs: Vec<&str> = list.iter().map(String::as_str).collect();
            let t = Instant::now();
            let _ = rt.sync_provider_texts("relisted", &refs, 0);
            relist_us.push(t.elapsed().as_secs_f64() * 1e6);
        }
        relist_us.sort_by(f64::total_cmp);
        let relist_ms = relist_us[relist_us.len() / 2] / 1e3;
        rt.drain_events();
        let runtime_mb = live_mb() - heap0;

        // Parts, each measured on its own.
        let h = live_mb();
        let mut reg = Registry::new();
        let t = Instant::now();
        for chunk in tools.chunks(1000) {
            let _ = reg.register(chunk.to_vec());
        }
        let registry_ms = t.elapsed().as_secs_f64() * 1e3;
        let registry_mb = live_mb() - h;
        let h = live_mb();
        let descs: Vec<_> = reg.entries().map(|e| e.descriptor.clone()).collect();
        let t = Instant::now();
        let index = SearchIndex::build(&descs);
        let index_ms = t.elapsed().as_secs_f64() * 1e3;
        let index_mb = live_mb() - h;
        let h = live_mb();
        let schemas: Vec<serde_json::Value> = reg
            .entries()
            .map(|e| serde_json::Value::clone(&e.descriptor.input_schema))
            .collect();
        let schema_mb = live_mb() - h;
        println!(
            "{n:>6} tools | register {register_ms:8.1} ms (registry alone {registry_ms:7.1}, index build alone {index_ms:7.1}) | first search {first_ms:7.2} ms | change+search {change_ms:7.2} ms | re-list (1 of 100 changed, p50) {relist_ms:6.3} ms \
             | heap: runtime {runtime_mb:6.1} MB = registry {registry_mb:6.1} (schemas as separate copies {schema_mb:6.1}) + index {index_mb:6.1} MB"
        );
        drop((schemas, index, descs, reg, rt));
    }
}
