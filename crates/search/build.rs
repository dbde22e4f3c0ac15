//! Compiles the concept lexicon in without its comments and blank lines:
//! they are for its reviewers (each group says where its words came from),
//! the parser skips them (`src/lexicon.rs`), and every byte ships in the
//! wasm. The relatedness table keeps its comments: they carry WordNet's
//! licence notice, which must go with every copy.

use std::path::Path;

fn main() {
    println!("cargo:rerun-if-changed=src/lexicon.txt");
    let text = std::fs::read_to_string("src/lexicon.txt").expect("read src/lexicon.txt");
    let mut kept = String::with_capacity(text.len());
    for line in text.lines().map(str::trim) {
        if !line.is_empty() && !line.starts_with('#') {
            kept.push_str(line);
            kept.push('\n');
        }
    }
    let out = std::env::var("OUT_DIR").expect("cargo sets OUT_DIR");
    std::fs::write(Path::new(&out).join("lexicon.txt"), kept).expect("write the lexicon");
}
