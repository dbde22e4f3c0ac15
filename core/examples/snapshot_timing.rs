//! Informal native timing of snapshot and restore (the npm benchmark,
//! `npm run bench:scale`, is the reference): `cargo run --release -p
//! holaryn-core --example snapshot_timing`. The npm benchmark's catalog at
//! 10,000 tools: the snapshot's size, the time to take it, and the median
//! of 5 restores.
#[path = "common/bench.rs"]
mod bench;
#[path = "common/catalogs.rs"]
mod catalogs;
use holaryn_core::Runtime;
use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Instant;

/// Counts allocations (what a restore costs in a wasm allocator is mostly how many).
struct Counting;
static ALLOCS: AtomicUsize = AtomicUsize::new(0);
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, l: Layout) -> *mut u8 {
        ALLOCS.fetch_add(1, Ordering::Relaxed);
        unsafe { System.alloc(l) }
    }
    unsafe fn dealloc(&self, p: *mut u8, l: Layout) {
        unsafe { System.dealloc(p, l) }
    }
}
#[global_allocator]
static COUNTING: Counting = Counting;

fn main() {
    let specs = catalogs::catalog_specs(&catalogs::root().join("tests/fixtures/mcp"), None);
    let n = 10_000;
    let (rt, _) = bench::runtime(&specs, n);
    let t = Instant::now();
    let bytes = rt.snapshot("timing");
    let took = t.elapsed();
    let mut ms: Vec<f64> = (0..5)
        .map(|_| {
            let t = Instant::now();
            let back = Runtime::restore(&bytes, "timing", None).expect("restores");
            let ms = t.elapsed().as_secs_f64() * 1e3;
            assert_eq!(back.registry().version(), rt.registry().version());
            ms
        })
        .collect();
    ms.sort_by(f64::total_cmp);
    let before = ALLOCS.load(Ordering::Relaxed);
    let back = Runtime::restore(&bytes, "timing", None).expect("restores");
    let allocs = ALLOCS.load(Ordering::Relaxed) - before;
    drop(back);
    println!(
        "{n} tools: snapshot {:.2} MB ({} B per tool) in {took:?}; restore p50 {:.1} ms, {allocs} allocations",
        bytes.len() as f64 / 1e6,
        bytes.len() / rt.registry().len(),
        ms[2]
    );
}
