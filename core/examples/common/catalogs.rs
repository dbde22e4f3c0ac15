//! Fixture catalogs for the examples: registering a directory of MCP catalogs
//! (one provider per file, named after it, names qualified `provider/name`,
//! as `holaryn rank --catalog DIR` does) or a JSON array of tool specs, and
//! collecting every `*.json` MCP catalog in a folder as tool specs.
use holaryn_core::catalog::{parse_catalog_text, CatalogOptions};
use holaryn_core::registry::Update;
use holaryn_core::{Runtime, ToolSpec};
use serde_json::Value;
use std::path::Path;

#[allow(dead_code)] // each example uses one of the two helpers
/// Register `path` (a catalog directory or a tool array file); skipped catalogs are reported on stderr.
pub fn register_path(rt: &mut Runtime, path: &Path) {
    if !path.is_dir() {
        let text = std::fs::read_to_string(path).expect("readable tool list");
        let values: Vec<Value> = serde_json::from_str(&text).expect("a JSON array of tools");
        rt.register_values(&values, 0).expect("tools register");
        return;
    }
    let mut files: Vec<_> = std::fs::read_dir(path)
        .expect("readable directory")
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|e| e == "json"))
        .collect();
    files.sort();
    for f in files {
        let text = std::fs::read_to_string(&f).expect("readable catalog");
        let stem = f.file_stem().map(|s| s.to_string_lossy().into_owned());
        let opts = CatalogOptions {
            qualify_names: true,
            provider_id: stem.clone(),
            ..CatalogOptions::default()
        };
        let registered = parse_catalog_text(&f.to_string_lossy(), &text, &opts).and_then(|specs| {
            rt.update(
                Update {
                    upsert: specs,
                    sync_provider: stem,
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
    let mut files: Vec<_> = std::fs::read_dir(dir)
        .into_iter()
        .flatten()
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|e| e == "json"))
        .filter(|p| skip.is_none_or(|s| !p.to_string_lossy().ends_with(s)))
        .collect();
    files.sort();
    let mut specs = Vec::new();
    for f in &files {
        let text = std::fs::read_to_string(f).unwrap_or_default();
        let opts = CatalogOptions {
            qualify_names: true,
            provider_id: f.file_stem().map(|s| s.to_string_lossy().into_owned()),
            ..Default::default()
        };
        specs.extend(parse_catalog_text(&f.to_string_lossy(), &text, &opts).unwrap_or_default());
    }
    specs
}

#[allow(dead_code)] // not every example creates a session
/// A dynamic-discovery session with a fixed handle secret (examples only).
pub fn dynamic_session(rt: &mut Runtime) -> String {
    let options = holaryn_core::session::SessionOptions {
        dynamic_discovery: true,
        ..Default::default()
    };
    rt.create_session(options, &[7; 32], 0).expect("session")
}
