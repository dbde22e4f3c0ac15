//! Profile target for tool_search at 300 tools (run under callgrind):
//! `cargo build --release -p holaryn-core --example search_profile`
#[path = "common/catalogs.rs"]
mod catalogs;
use holaryn_core::registry::Update;
use holaryn_core::session::SessionOptions;
use holaryn_core::Runtime;
use serde_json::json;

fn main() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../benchmarks/catalogs");
    let specs = catalogs::catalog_specs(&dir, Some(".tools.json"));
    let mut rt = Runtime::new();
    rt.update(
        Update {
            upsert: specs,
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
    let n: usize = std::env::var("N")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(2000);
    let qs = [
        "create a github issue",
        "read a file",
        "take a screenshot of the page",
        "send a slack message",
        "find the project release notes",
    ];
    let mut total = 0;
    for i in 0..n {
        if let Ok(out) = rt.tool_search(&sid, &json!({ "query": qs[i % qs.len()] }), 0) {
            total += out.results.len();
        }
    }
    println!("{total} results");
}
