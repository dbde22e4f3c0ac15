//! The texts the core embeds, as JSON lines `{"kind", "key", "text"}`, for
//! `scripts/embed-fixtures.py` (which embeds them with all-MiniLM-L6-v2):
//! `cargo run -p holaryn-core --example embed_texts -- [--queries Q.jsonl] PATH...`
//! A PATH that is a directory registers each `*.json` MCP catalog in it as one
//! provider named after the file, names qualified `provider/name`; a file is a
//! JSON array of tool specs. Query lines need a string `query`.
use holaryn_core::catalog::{parse_catalog_text, CatalogOptions};
use holaryn_core::registry::Update;
use holaryn_core::search::embed::text_key;
use holaryn_core::Runtime;
use serde_json::{json, Value};
use std::path::Path;

fn register_dir(rt: &mut Runtime, dir: &Path) {
    let mut files: Vec<_> = std::fs::read_dir(dir)
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
        let specs = match parse_catalog_text(&f.to_string_lossy(), &text, &opts) {
            Ok(s) => s,
            Err(e) => {
                eprintln!("skipping {}: {e}", f.display());
                continue;
            }
        };
        let update = Update {
            upsert: specs,
            sync_provider: stem,
            ..Update::default()
        };
        if let Err(e) = rt.update(update, 0) {
            eprintln!("skipping {}: {e}", f.display());
        }
    }
}

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
        let p = Path::new(&args[i]);
        if p.is_dir() {
            register_dir(&mut rt, p);
        } else {
            let text = std::fs::read_to_string(p).expect("readable tool list");
            let values: Vec<Value> = serde_json::from_str(&text).expect("a JSON array of tools");
            rt.register_values(&values, 0).expect("tools register");
        }
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
