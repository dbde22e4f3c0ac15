//! The texts the core embeds, as JSON lines `{"kind", "key", "text"}`, for
//! `scripts/embed-fixtures.py` (which embeds them with all-MiniLM-L6-v2):
//! `cargo run -p holaryn-core --example embed_texts -- [--queries Q.jsonl] PATH...`
//! A PATH that is a directory registers each `*.json` MCP catalog in it as one
//! provider named after the file, names qualified `provider/name`; a file is a
//! JSON array of tool specs. Query lines need a string `query`.
#[path = "common/catalogs.rs"]
mod catalogs;

use holaryn_core::Runtime;
use holaryn_search::text_key;
use serde_json::{json, Value};
use std::path::Path;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let mut rt = Runtime::new();
    let mut queries: Vec<String> = Vec::new();
    let mut i = 0;
    while i < args.len() {
        if args[i] == "--queries" {
            let text = std::fs::read_to_string(&args[i + 1]).expect("readable queries");
            for line in text.lines().filter(|l| !l.trim().is_empty()) {
                let v: Value = serde_json::from_str(line).expect("a JSON line");
                if let Some(q) = v.get("query").and_then(Value::as_str) {
                    queries.push(q.to_string());
                }
            }
            i += 2;
            continue;
        }
        catalogs::register_path(&mut rt, Path::new(&args[i]));
        i += 1;
    }
    for (key, text) in rt.embedding_texts() {
        println!("{}", json!({"kind": "tool", "key": key, "text": text}));
    }
    for q in queries {
        println!(
            "{}",
            json!({"kind": "query", "key": text_key(&q), "text": q})
        );
    }
}
