//! Tuning harness for the embedder fusion (`search/blend.rs`) and the
//! "nothing fits" bars, over the **dev** rows of the labelled request set only
//! (test rows are never read into a figure). Per kind, top-1 = count and % /
//! any@8 % / MRR@8 for: the lexical ranking; the rank-only fusions shipped
//! before (RRF k 1 / 0.3, k 10 / 0.6); the chosen [`Fusion`] with and without
//! the multi-step lead; then a grid of score-level settings (lead weight `s`,
//! weak weight `w`, sure coverage `c`, sure margin `m`) and of rank-only RRF
//! with the same lead (`rrf k K w LEAD/WEAK`), the best 25 admissible ones
//! (no kind more than one request below the words' top-1 or the old fusion's
//! any@8) and the best 10 others; then nothing-fits precision and recall
//! for a grid of (cosine bar, coverage bar). `SHOW=1` lists the dev requests
//! whose first hit the chosen fusion wins or loses against the words.
//! `cargo run --release -p holaryn-core --example fusion_sweep -- [REQUESTS.jsonl] [VECTORS.json]`
//! A benchmark: it measures, it never fails on a figure.
#[path = "common/catalogs.rs"]
mod catalogs;
#[path = "common/vectors.rs"]
mod vectors;

use holaryn_search::{
    fuse, lexical_lead, meaning_ranking, similarities, text_key, Fusion, Ranking, SearchHit,
    FUSION_POOL,
};
use std::collections::{BTreeMap, HashMap};

/// Per kind: (n, top-1 count, any@8 count, MRR@8 sum).
type PerKind = BTreeMap<String, (u32, u32, u32, f64)>;

/// A row's lexical ranking (`later`: whether it says the request has later steps).
fn ranking(r: &Row, later: bool) -> Ranking {
    Ranking {
        hits: r.lexical.clone(),
        coverage: r.coverage,
        later_steps: later,
        nothing_fits: r.lexical_none,
        ..Ranking::default()
    }
}

/// One dev request, ranked both ways once (fusion is re-run per setting).
struct Row {
    kind: String,
    gold: Vec<String>,
    lexical: Vec<SearchHit>,
    meaning: Vec<(usize, f32)>,
    exact: Vec<usize>,
    coverage: f32,
    later: bool,
    lexical_none: bool,
}

fn main() {
    let (requests, vec_file) = catalogs::quality_args();
    let rt = catalogs::quality_runtime();
    let index = rt.search_index();
    let vectors::Loaded {
        vecs,
        matrix,
        present,
    } = vectors::load(&vec_file, index);
    let name = |d: usize| index.tool(d).map_or(String::new(), |t| t.name.clone());
    let tie = |a: usize, b: usize| name(a).cmp(&name(b));
    let mut rows = Vec::new();
    // Tuning reads dev rows only.
    for r in catalogs::split_rows(&requests, "dev") {
        let q = r["query"].as_str().unwrap_or_default();
        let Some(qv) = vecs.get(&text_key(q)) else {
            eprintln!("no vector for {}", r["id"]);
            continue;
        };
        let sims = similarities(qv, &matrix, &present);
        let lex = index.search_all(&[q], FUSION_POOL, &|_| true);
        rows.push(Row {
            kind: r["kind"].as_str().unwrap_or("?").to_string(),
            gold: r["gold"]
                .as_array()
                .map(|g| {
                    g.iter()
                        .filter_map(|x| x.as_str().map(String::from))
                        .collect()
                })
                .unwrap_or_default(),
            meaning: meaning_ranking(&sims, &|_| true, &tie),
            exact: index.exact_docs(q),
            coverage: lex.coverage,
            later: lex.later_steps,
            lexical_none: lex.nothing_fits,
            lexical: lex.hits,
        });
    }
    // Per kind: [n, top1, any8, mrr] for a ranking of every row.
    let score = |rank: &dyn Fn(&Row) -> Vec<String>| {
        let mut per: BTreeMap<String, (u32, u32, u32, f64)> = BTreeMap::new();
        for r in rows.iter().filter(|r| !r.gold.is_empty()) {
            let names = rank(r);
            let at = names.iter().take(8).position(|n| r.gold.contains(n));
            for k in [r.kind.as_str(), "all"] {
                let e = per.entry(k.to_string()).or_default();
                e.0 += 1;
                e.1 += u32::from(at == Some(0));
                e.2 += u32::from(at.is_some());
                e.3 += at.map_or(0.0, |a| 1.0 / (a as f64 + 1.0));
            }
        }
        per
    };
    let show = |label: &str, per: &BTreeMap<String, (u32, u32, u32, f64)>| {
        let cells: Vec<String> = per
            .iter()
            .map(|(k, (n, t1, a8, m))| {
                let n = *n as f64;
                format!(
                    "{}: {t1}={:.0}/{:.0}/{:.3}",
                    &k[..k.len().min(5)],
                    100.0 * *t1 as f64 / n,
                    100.0 * *a8 as f64 / n,
                    m / n
                )
            })
            .collect();
        println!("{label:<34} {}", cells.join("  "));
    };
    let lexical = score(&|r| r.lexical.iter().take(8).map(|h| name(h.doc)).collect());
    show("lexical", &lexical);
    // Rank-only fusion as shipped before (RRF k 1 / 0.3 and k 10 / 0.6), and
    // the same with the confidence lead (`lead`: meaning weight when weak).
    let rrf = |r: &Row, k: f32, w: f32, lead: Option<(f32, &Fusion)>| -> Vec<String> {
        let steps = true;
        let (pinned, rest): (Vec<_>, Vec<_>) =
            r.lexical.iter().partition(|h| r.exact.contains(&h.doc));
        let leads = lead.is_some_and(|(_, f)| {
            lexical_lead(
                &rest.iter().map(|h| (*h).clone()).collect::<Vec<_>>(),
                r.coverage,
                steps && r.later,
                f,
            )
            .is_ok()
        });
        let w = match lead {
            Some((weak, _)) if !leads => weak,
            _ => w,
        };
        let mut s: HashMap<usize, f32> = HashMap::new();
        for (i, h) in rest.iter().enumerate() {
            *s.entry(h.doc).or_default() += 1.0 / (k + i as f32 + 1.0);
        }
        for (i, (d, _)) in r.meaning.iter().enumerate() {
            if !pinned.iter().any(|h| h.doc == *d) {
                *s.entry(*d).or_default() += w / (k + i as f32 + 1.0);
            }
        }
        let mut v: Vec<(usize, f32)> = s.into_iter().collect();
        let first = rest.first().map(|h| h.doc).filter(|_| leads);
        v.sort_by(|a, b| {
            (Some(b.0) == first)
                .cmp(&(Some(a.0) == first))
                .then(b.1.total_cmp(&a.1))
                .then_with(|| tie(a.0, b.0))
        });
        pinned
            .iter()
            .map(|h| h.doc)
            .chain(v.into_iter().map(|x| x.0))
            .take(8)
            .map(name)
            .collect()
    };
    let old = score(&|r| rrf(r, 1.0, 0.3, None));
    show("rrf k1 w.3 (old)", &old);
    show("rrf k10 w.6", &score(&|r| rrf(r, 10.0, 0.6, None)));
    let fused_with = |f: Fusion, steps: bool| {
        score(&|r| {
            fuse(
                ranking(r, steps && r.later),
                &r.meaning,
                &r.exact,
                8,
                &tie,
                &f,
            )
            .iter()
            .map(|h| name(h.doc))
            .collect()
        })
    };
    let fused = |f: Fusion| fused_with(f, true);
    show("chosen (default)", &fused(Fusion::default()));
    if std::env::var("SHOW").is_ok() {
        // Dev rows whose first hit is right one way and wrong the other.
        for r in rows.iter().filter(|r| !r.gold.is_empty()) {
            let out = fuse(
                ranking(r, r.later),
                &r.meaning,
                &r.exact,
                8,
                &tie,
                &Fusion::default(),
            );
            let ok = |d: Option<usize>| d.is_some_and(|d| r.gold.contains(&name(d)));
            let (l, f) = (
                ok(r.lexical.first().map(|h| h.doc)),
                ok(out.first().map(|h| h.doc)),
            );
            if l != f {
                let lw = r
                    .lexical
                    .first()
                    .map(|h| h.why.join("; "))
                    .unwrap_or_default();
                let fw = out.first().map(|h| h.why.join("; ")).unwrap_or_default();
                println!(
                    "{} {:<10} cov {:.2} gold {:?}\n   lexical {}: {lw}\n   fused {}: {fw}",
                    if f { "WIN " } else { "LOSS" },
                    &r.kind[..r.kind.len().min(10)],
                    r.coverage,
                    r.gold,
                    r.lexical.first().map_or(String::new(), |h| name(h.doc)),
                    out.first().map_or(String::new(), |h| name(h.doc)),
                );
            }
        }
    }
    show(
        "chosen, no step lead",
        &fused_with(Fusion::default(), false),
    );
    // Admissible: no kind loses more than NOISE_TOP1 first hits against the
    // lexical ranking, nor more than NOISE_ANY8 any@8 against the old fusion.
    const NOISE_TOP1: u32 = 1;
    const NOISE_ANY8: u32 = 1;
    let admissible = |per: &BTreeMap<String, (u32, u32, u32, f64)>| {
        per.iter().all(|(k, e)| {
            let (l, o) = (&lexical[k], &old[k]);
            e.1 + NOISE_TOP1 >= l.1 && e.2 + NOISE_ANY8 >= o.2
        })
    };
    let mut grid: Vec<(String, PerKind)> = Vec::new();
    for meaning in [0.2, 0.3, 0.4] {
        for weak_meaning in [0.2, 0.3, 0.4, 0.5, 0.6] {
            for sure_coverage in [0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1.01] {
                for sure_margin in [0.0, 0.5, 0.7] {
                    let f = Fusion {
                        meaning,
                        weak_meaning,
                        sure_coverage,
                        sure_margin,
                    };
                    let label =
                        format!("s {meaning} w {weak_meaning} c {sure_coverage} m {sure_margin}");
                    grid.push((label, fused(f)));
                }
            }
        }
    }
    for k in [1.0, 2.0, 5.0, 10.0] {
        for weak in [0.3, 0.5, 0.8, 1.0, 1.5] {
            for sure_coverage in [0.5, 0.7, 0.9, 1.01] {
                for sure_margin in [0.0, 0.5, 0.7] {
                    let f = Fusion {
                        sure_coverage,
                        sure_margin,
                        ..Fusion::default()
                    };
                    let label = format!("rrf k {k} w .3/{weak} c {sure_coverage} m {sure_margin}");
                    grid.push((label, score(&|r| rrf(r, k, 0.3, Some((weak, &f))))));
                }
            }
        }
    }
    let key = |p: &BTreeMap<String, (u32, u32, u32, f64)>| {
        let a = &p["all"];
        (a.1, a.2, (a.3 * 1000.0) as u32)
    };
    grid.sort_by_key(|g| std::cmp::Reverse(key(&g.1)));
    let ok = grid.iter().filter(|g| admissible(&g.1)).count();
    println!("-- {ok} of {} settings admissible (no kind -{NOISE_TOP1} top-1 vs lexical or -{NOISE_ANY8} any@8 vs old); best:", grid.len());
    for (label, per) in grid.iter().filter(|g| admissible(&g.1)).take(25) {
        show(label, per);
    }
    println!("-- best inadmissible:");
    for (label, per) in grid.iter().filter(|g| !admissible(&g.1)).take(10) {
        show(label, per);
    }
    // Cost per request of the fusion step alone (both rankings given),
    // interleaved, 20 rounds over the dev rows: rank-only vs chosen.
    let (mut old_ns, mut new_ns) = (Vec::new(), Vec::new());
    for _ in 0..20 {
        for r in &rows {
            let t = std::time::Instant::now();
            std::hint::black_box(rrf(r, 1.0, 0.3, None));
            old_ns.push(t.elapsed().as_nanos());
            let t = std::time::Instant::now();
            std::hint::black_box(fuse(
                ranking(r, r.later),
                &r.meaning,
                &r.exact,
                8,
                &tie,
                &Fusion::default(),
            ));
            new_ns.push(t.elapsed().as_nanos());
        }
    }
    let p50 = |v: &mut Vec<u128>| {
        v.sort();
        v[v.len() / 2] as f64 / 1000.0
    };
    println!(
        "fusion step p50: rank-only {:.1} µs (names included), chosen {:.1} µs (hits cloned)",
        p50(&mut old_ns),
        p50(&mut new_ns)
    );
    let none_n = rows.iter().filter(|r| r.gold.is_empty()).count();
    let report = |label: &str, flag: &dyn Fn(&Row) -> bool| {
        let right = rows.iter().filter(|r| r.gold.is_empty() && flag(r)).count();
        let wrong = rows
            .iter()
            .filter(|r| !r.gold.is_empty() && flag(r))
            .count();
        let p = vectors::precision(right, wrong);
        println!(
            "nothing fits {label:<28} flagged {:>2}: {right:>2} of {none_n} right, precision {p}, recall {:.2}",
            right + wrong,
            right as f64 / none_n.max(1) as f64
        );
    };
    report("lexical (as built)", &|r| r.lexical_none);
    for bar in [0.05, 0.1, 0.15, 0.2] {
        report(&format!("lexical and coverage < {bar}"), &|r| {
            r.lexical_none && r.coverage < bar
        });
    }
    for m in [0.2, 0.21, 0.22, 0.23, 0.24] {
        for c in [0.2, 0.25, 0.3, 0.35, 0.4] {
            report(&format!("cosine < {m}, coverage < {c}"), &|r| {
                r.meaning.first().map_or(0.0, |x| x.1) < m && r.coverage < c
            });
        }
    }
}
