//! Fixture catalogs for the examples: registering a directory of MCP catalogs
//! (one provider per file, named after it, names qualified `provider/name`,
//! as `holaryn rank --catalog DIR` does) or a JSON array of tool specs, and
//! collecting every `*.json` MCP catalog in a folder as tool specs.
use holaryn_core::Update;
use holaryn_core::{parse_catalog_text, CatalogOptions};
use holaryn_core::{Runtime, ToolSpec};
use serde_json::Value;
use std::path::{Path, PathBuf};

#[allow(dead_code)] // outside_rank registers the files itself
/// Every `*.json` file of `dir` (sorted) but those ending in `skip`, with the
/// directory convention's options: one provider per file, named after it,
/// names qualified `provider/name` (as `holaryn rank --catalog DIR` does).
pub fn directory_catalogs(dir: &Path, skip: Option<&str>) -> Vec<(PathBuf, CatalogOptions)> {
    let mut files: Vec<_> = std::fs::read_dir(dir)
        .into_iter()
        .flatten()
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|e| e == "json"))
        .filter(|p| skip.is_none_or(|s| !p.to_string_lossy().ends_with(s)))
        .collect();
    files.sort();
    files
        .into_iter()
        .map(|f| {
            let opts = CatalogOptions {
                qualify_names: true,
                provider_id: f.file_stem().map(|s| s.to_string_lossy().into_owned()),
                ..CatalogOptions::default()
            };
            (f, opts)
        })
        .collect()
}

/// [`directory_catalogs`], each file parsed.
fn catalog_files(
    dir: &Path,
    skip: Option<&str>,
) -> Vec<(PathBuf, holaryn_core::Result<Vec<ToolSpec>>)> {
    directory_catalogs(dir, skip)
        .into_iter()
        .map(|(f, opts)| {
            let text = std::fs::read_to_string(&f).unwrap_or_default();
            let specs = parse_catalog_text(&f.to_string_lossy(), &text, &opts);
            (f, specs)
        })
        .collect()
}

#[allow(dead_code)] // each example uses one of the two helpers
/// Register `path` (a catalog directory or a tool array file); skipped catalogs are reported on stderr.
pub fn register_path(rt: &mut Runtime, path: &Path) {
    if !path.is_dir() {
        let text = std::fs::read_to_string(path).expect("readable tool list");
        let values: Vec<Value> = serde_json::from_str(&text).expect("a JSON array of tools");
        rt.register_values(&values, 0).expect("tools register");
        return;
    }
    for (f, specs) in catalog_files(path, None) {
        let provider = specs
            .as_ref()
            .ok()
            .and_then(|s| s.first())
            .map(|s| s.provider.id.clone());
        let registered = specs.and_then(|specs| {
            rt.update(
                Update {
                    upsert: specs,
                    sync_provider: provider,
                    ..Update::default()
                },
                0,
            )
        });
        if let Err(e) = registered {
            eprintln!("skipping {}: {e}", f.display());
        }
    }
}

#[allow(dead_code)] // each example uses one of the two helpers
/// The tool specs of every catalog file in `dir`.
pub fn catalog_specs(dir: &Path, skip: Option<&str>) -> Vec<ToolSpec> {
    catalog_files(dir, skip)
        .into_iter()
        .flat_map(|(_, specs)| specs.unwrap_or_default())
        .collect()
}

#[allow(dead_code)] // not every example creates a session
/// A dynamic-discovery session with a fixed handle secret (examples only).
pub fn dynamic_session(rt: &mut Runtime) -> String {
    let options = holaryn_core::SessionOptions {
        dynamic_discovery: true,
        ..Default::default()
    };
    rt.create_session(options, &[7; 32], 0).expect("session")
}

#[allow(dead_code)] // the labelled-set examples use it
/// The repository root.
pub fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("..")
}

#[allow(dead_code)] // the labelled-set examples use it
/// A runtime holding the labelled set's catalog: the MCP fixtures and the native tools.
pub fn quality_runtime() -> Runtime {
    let mut rt = Runtime::new();
    register_path(&mut rt, &root().join("tests/fixtures/mcp"));
    register_path(
        &mut rt,
        &root().join("tests/fixtures/search/native_tools.json"),
    );
    rt
}

#[allow(dead_code)] // the labelled-set examples use it
/// `[REQUESTS.jsonl] [VECTORS.json]` from the command line, with the defaults
/// (the labelled set and the MiniLM fixture).
pub fn quality_args() -> (PathBuf, PathBuf) {
    let args: Vec<String> = std::env::args().skip(1).collect();
    quality_paths(&args)
}

#[allow(dead_code)] // the labelled-set examples use it
/// `[REQUESTS.jsonl] [VECTORS.json]` from `args` (what is left of the command
/// line once an example took its own flags), with [`quality_args`]' defaults.
pub fn quality_paths(args: &[String]) -> (PathBuf, PathBuf) {
    let at = |i: usize, default: &str| {
        args.get(i)
            .map(PathBuf::from)
            .unwrap_or_else(|| root().join(default))
    };
    (
        at(0, "benchmarks/quality/requests.jsonl"),
        at(1, "tests/fixtures/embeddings/minilm-l6-v2.json"),
    )
}

#[allow(dead_code)] // the labelled-set examples use it
/// The rows of `requests` (JSON lines) in `split`; lines that are not JSON are skipped.
pub fn split_rows(requests: &Path, split: &str) -> Vec<Value> {
    std::fs::read_to_string(requests)
        .expect("requests")
        .lines()
        .filter_map(|line| serde_json::from_str::<Value>(line).ok())
        .filter(|r| r["split"].as_str() == Some(split))
        .collect()
}
