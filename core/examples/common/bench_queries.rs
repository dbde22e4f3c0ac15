//! The requests the tool_search speed benchmarks time: one list,
//! `benchmarks/search-queries.json`, read by the npm benchmarks too.

/// The benchmark queries, in file order.
pub fn bench_queries() -> Vec<String> {
    serde_json::from_str(include_str!("../../../benchmarks/search-queries.json"))
        .expect("benchmarks/search-queries.json is a JSON array of strings")
}
