//! Fixture catalogs for the examples: every `*.json` MCP catalog in a folder
//! (but those ending in `skip`), sorted, names qualified by the file's provider.
use holaryn_core::catalog::{parse_catalog_text, CatalogOptions};
use holaryn_core::ToolSpec;
use std::path::Path;

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
