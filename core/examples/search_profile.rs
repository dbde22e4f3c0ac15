//! Profile target for tool_search at 300 tools (run under callgrind):
//! `cargo build --release -p holaryn-core --example search_profile`
use holaryn_core::catalog::{parse_catalog_text, CatalogOptions};
use holaryn_core::registry::Update;
use holaryn_core::session::SessionOptions;
use holaryn_core::Runtime;
use serde_json::json;

fn main() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../benchmarks/catalogs");
    let mut specs = Vec::new();
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .into_iter()
        .flatten()
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|e| e == "json"))
        .filter(|p| !p.to_string_lossy().ends_with(".tools.json"))
        .collect();
    files.sort();
    for f in &files {
        let text = std::fs::read_to_string(f).unwrap_or_default();
        let opts = CatalogOptions {
            qualify_names: true,
            provider_id: f.file_stem().map(|s| s.to_string_lossy().into_owned()),
            ..Default::default()
        };
        specs.extend(parse_catalog_text(&f.to_string_lossy(), &text, &opts).unwrap_or_default());
    }
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
