//! What the tool_search speed benchmarks time, shared by the native examples
//! (search_profile, search_dump, search_timing) and the npm benchmarks: the queries of
//! `benchmarks/search-queries.json` and the catalog of `n` tools that
//! `benchmarks/fixture-catalog.mjs` builds.

use holaryn_core::Update;
use holaryn_core::{Runtime, ToolSpec};

/// The benchmark queries, in file order.
#[allow(dead_code)] // scale_profile times registration, not queries
pub fn queries() -> Vec<String> {
    serde_json::from_str(include_str!("../../../benchmarks/search-queries.json"))
        .expect("benchmarks/search-queries.json is a JSON array of strings")
}

/// `n` tools cycled from `specs`, copies renamed as fixture-catalog.mjs
/// does (`provider_vK/name`, unqualified names `name_vK`).
pub fn catalog(specs: &[ToolSpec], n: usize) -> Vec<ToolSpec> {
    (0..n)
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
        .collect()
}

/// A runtime holding [`catalog`]`(specs, n)` and a dynamic-discovery session.
#[allow(dead_code)] // scale_profile registers in its own batches
pub fn runtime(specs: &[ToolSpec], n: usize) -> (Runtime, String) {
    let mut rt = Runtime::new();
    rt.update(
        Update {
            upsert: catalog(specs, n),
            ..Update::default()
        },
        0,
    )
    .expect("catalog");
    let sid = super::catalogs::dynamic_session(&mut rt);
    (rt, sid)
}
