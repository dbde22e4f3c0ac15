//! Calibration harness for the "nothing fits" bars (`search/nothing.rs`,
//! `embed::nothing_fits`): ranks each request of one split of the labelled
//! set lexically and by MiniLM similarity, and prints the precision and
//! recall of the flag as built (words only, and with the embedder) and of the
//! cross-validated candidate that was not kept. On the **dev** split (the default) it also prints
//! one JSON line of evidence per request (`--rows`), the input of the
//! cross-validation `benchmarks/quality/nothing_cv.py`; test rows are only
//! ever summed.
//! `cargo run --release -p holaryn-core --example nothing_sweep -- [dev|test] [--rows] [REQUESTS] [VECTORS]`
//! A benchmark: it measures, it never fails on a figure.
#[path = "common/catalogs.rs"]
mod catalogs;
#[path = "common/vectors.rs"]
mod vectors;

use holaryn_search::{
    meaning_ranking, nothing_fits_with_meaning, similarities, text_key, Evidence, FUSION_POOL,
};
use serde_json::json;

/// The bar chosen by cross-validation on dev (`benchmarks/quality/nothing_cv.py`)
/// and not kept: it over-flags an unseen catalog (see `search/nothing.rs`).
fn cv_lexical(e: &Evidence) -> bool {
    !e.hit || !e.exact && e.coverage < 0.25 && e.unknown_words >= 2 && e.unknown_share >= 0.34
}

fn main() {
    let mut args: Vec<String> = std::env::args().skip(1).collect();
    let rows_out = args.iter().any(|a| a == "--rows");
    args.retain(|a| a != "--rows");
    let split = match args.first().map(String::as_str) {
        Some("test") | Some("dev") => args.remove(0),
        _ => "dev".to_string(),
    };
    let (requests, vec_file) = catalogs::quality_paths(&args);
    let rt = catalogs::quality_runtime();
    let index = rt.search_index();
    let vectors::Loaded {
        vecs,
        matrix,
        present,
    } = vectors::load(&vec_file, index);
    let name = |d: usize| index.tool(d).map_or(String::new(), |t| t.name.clone());
    let tie = |a: usize, b: usize| name(a).cmp(&name(b));
    // [requests without gold, then per rule: right, wrong]
    let rules = ["lexical", "CV candidate", "embedder"];
    let mut none_n = 0;
    let mut tally = [[0usize; 2]; 3];
    for r in catalogs::split_rows(&requests, &split) {
        let q = r["query"].as_str().unwrap_or_default();
        let Some(qv) = vecs.get(&text_key(q)) else {
            eprintln!("no vector for {}", r["id"]);
            continue;
        };
        let empty = r["gold"].as_array().is_none_or(|g| g.is_empty());
        let sims = similarities(qv, &matrix, &present);
        let meaning = meaning_ranking(&sims, &|_| true, &tie);
        let lex = index.search_all(&[q], FUSION_POOL, &|_| true);
        let e = lex.evidence;
        let flags = [
            lex.nothing_fits,
            cv_lexical(&e),
            nothing_fits_with_meaning(&meaning, &lex),
        ];
        none_n += usize::from(empty);
        for (t, f) in tally.iter_mut().zip(flags) {
            t[usize::from(!empty)] += usize::from(f);
        }
        if rows_out && split == "dev" {
            let top = lex.hits.first().map(|h| h.doc);
            let top_cos = top
                .and_then(|d| sims.get(d).copied().flatten())
                .unwrap_or(0.0);
            let lex_in_meaning = top.and_then(|d| meaning.iter().position(|m| m.0 == d));
            let meaning_in_lex = meaning
                .first()
                .and_then(|m| lex.hits.iter().position(|h| h.doc == m.0));
            let cos: Vec<f32> = meaning.iter().take(5).map(|m| m.1).collect();
            let scores: Vec<f32> = lex.hits.iter().take(3).map(|h| h.score).collect();
            println!(
                "{}",
                json!({
                    "id": r["id"], "kind": r["kind"], "none": empty, "query": q,
                    "coverage": e.coverage, "title": e.title_coverage,
                    "unknown_share": e.unknown_share, "unknown_words": e.unknown_words, "unknown_names": e.unknown_names,
                    "rarest": e.rarest, "ask_rarest": e.ask_rarest, "hit": e.hit, "exact": e.exact,
                    "scores": scores, "cos": cos, "top_cos": top_cos,
                    "lex_in_meaning": lex_in_meaning, "meaning_in_lex": meaning_in_lex,
                    "top": top.map(name), "meaning_top": meaning.first().map(|m| name(m.0)),
                    "flags": flags,
                })
            );
        }
    }
    for (label, [right, wrong]) in rules.iter().zip(tally) {
        let p = vectors::precision(right, wrong);
        eprintln!(
            "nothing fits {split} {label:<13} flagged {:>3}: {right:>3} of {none_n} right, precision {p}, recall {:.2}",
            right + wrong,
            right as f64 / none_n.max(1) as f64
        );
    }
}
