//! Meaning-based ranking from host-supplied sentence embeddings, and its
//! fusion with the lexical (BM25F) ranking.
//!
//! **Text embedded per tool** ([`tool_text`]): three lines —
//! `{title} ({local name})`, the description (its first 1,000 characters),
//! and `Parameters: a, b, …` (top-level input property names, at most 16).
//! The provider is left out so the text (and its key) is the same however a
//! host names providers. Queries are embedded as typed. A vector is
//! cached under [`text_key`] of its text, so a tool whose text is unchanged
//! after a registry change keeps its vector.
//!
//! **Fusion** ([`fuse`]) is weighted reciprocal-rank fusion over two lists:
//! the lexical top [`POOL`] and the cosine-similarity top [`POOL`] (among the
//! tools the search may return). A tool at 1-based rank `r` in a list gets
//! `w / (RRF_K + r)`; the lexical list weighs [`LEXICAL_WEIGHT`], the meaning
//! list [`MEANING_WEIGHT`]. Exact names, aliases and `provider/name` matches
//! stay first, in lexical order, whatever the vectors say. Ties break by
//! canonical name, as in the lexical ranking. **Nothing fits** ([`nothing_fits`])
//! when the most similar tool is below [`NOTHING_FITS_MEANING`] and the best
//! lexical hit covers less than [`NOTHING_FITS_COVERAGE`] of the request.

use super::SearchHit;
use crate::descriptor::ToolDescriptor;
use crate::hash::{hex, sha256};
use serde_json::Value;

/// Candidates taken from each ranking before fusion.
pub const POOL: usize = 50;
/// The reciprocal-rank constant (1, with [`MEANING_WEIGHT`] 0.3: re-swept on
/// the dev split of the labelled set after the provider, field-value and
/// quoted-value signals, over k 1–60 × weight 0.3–1.0 (`--example
/// fusion_sweep`). Every setting that let the meaning ranking change the
/// first hit cost top-1 on some kind (provider-scoped, schema-field or
/// multi-step) against the lexical ranking alone; at 1 / 0.3 the lexical
/// first hit stays first and the meaning ranking reorders and fills the
/// rest (dev any@8 86 → 88 %). Was 10 and 0.6, 20 and 0.8 before; 60 is the usual.
pub const RRF_K: f32 = 1.0;
/// Weight of the lexical ranking in the fusion.
pub const LEXICAL_WEIGHT: f32 = 1.0;
/// Weight of the meaning ranking in the fusion.
pub const MEANING_WEIGHT: f32 = 0.3;
/// Cosine similarity of the best tool below which (with [`NOTHING_FITS_COVERAGE`])
/// nothing fits. Calibrated on the dev half of benchmarks/quality, precision
/// first: every bar from 0.21 to 0.23 × 0.25 to 0.35 is right on every dev
/// request it flags; 0.22 / 0.3 sits in the middle of that plateau.
pub const NOTHING_FITS_MEANING: f32 = 0.22;
/// Lexical coverage of the request by the best lexical hit below which, with
/// [`NOTHING_FITS_MEANING`], nothing fits.
pub const NOTHING_FITS_COVERAGE: f32 = 0.3;
/// Description characters embedded per tool.
const DESCRIPTION_CHARS: usize = 1000;
/// Parameter names embedded per tool.
const MAX_PARAMS: usize = 16;

/// The text embedded for a tool (see the module docs).
pub fn tool_text(t: &ToolDescriptor) -> String {
    let title = if t.title.is_empty() || t.title == t.name {
        t.local_name.replace(['_', '-'], " ")
    } else {
        t.title.clone()
    };
    let mut out = format!("{title} ({})\n", t.local_name);
    out.extend(t.description.trim().chars().take(DESCRIPTION_CHARS));
    let params: Vec<&str> = t
        .input_schema
        .get("properties")
        .and_then(Value::as_object)
        .map(|p| p.keys().take(MAX_PARAMS).map(String::as_str).collect())
        .unwrap_or_default();
    if !params.is_empty() {
        out.push_str("\nParameters: ");
        out.push_str(&params.join(", "));
    }
    out
}

/// Cache key of an embedded text: the first 16 bytes of its SHA-256, in hex.
pub fn text_key(text: &str) -> String {
    hex(&sha256(text.as_bytes())[..16])
}

/// `v` scaled to unit length; `None` when it has the wrong length, a
/// non-finite component or no length at all.
pub fn normalized(v: &[f32], dims: usize) -> Option<Vec<f32>> {
    if v.len() != dims || v.iter().any(|x| !x.is_finite()) {
        return None;
    }
    let norm = v.iter().map(|x| x * x).sum::<f32>().sqrt();
    if norm == 0.0 || !norm.is_finite() {
        return None;
    }
    // Already unit length (within rounding): keep the bits, so exports round-trip.
    if (norm - 1.0).abs() < 1e-4 {
        return Some(v.to_vec());
    }
    Some(v.iter().map(|x| x / norm).collect())
}

/// Cosine similarities of `query` against the rows of `matrix` (unit vectors,
/// `dims` wide); rows marked absent score `None`.
pub fn similarities(query: &[f32], matrix: &[f32], present: &[bool]) -> Vec<Option<f32>> {
    let dims = query.len().max(1);
    matrix
        .chunks_exact(dims)
        .zip(present)
        .map(|(row, ok)| ok.then(|| dot(row, query)))
        .collect()
}

/// Dot product with eight independent sums (several times faster than one
/// running sum in wasm, where nothing is vectorised for us).
fn dot(a: &[f32], b: &[f32]) -> f32 {
    let mut acc = [0f32; 8];
    let (ca, cb) = (a.chunks_exact(8), b.chunks_exact(8));
    let tail: f32 = ca
        .remainder()
        .iter()
        .zip(cb.remainder())
        .map(|(x, y)| x * y)
        .sum();
    for (x, y) in ca.zip(cb) {
        for i in 0..8 {
            acc[i] += x[i] * y[i];
        }
    }
    acc.iter().sum::<f32>() + tail
}

/// How two documents of equal score order (by canonical name in the runtime:
/// document numbers are index slots and depend on the registry's history).
pub type Tie<'a> = &'a dyn Fn(usize, usize) -> std::cmp::Ordering;

/// The best `POOL` accepted documents by similarity: `(doc, similarity)`,
/// best first, equal ones by `tie`. `accept` runs on the best candidates
/// only, as in the lexical search (policy checks are the costly part at
/// thousands of tools).
pub fn meaning_ranking(
    sims: &[Option<f32>],
    accept: &dyn Fn(usize) -> bool,
    tie: Tie<'_>,
) -> Vec<(usize, f32)> {
    let mut cands: Vec<(usize, f32)> = sims
        .iter()
        .enumerate()
        .filter_map(|(d, s)| s.map(|s| (d, s)))
        .collect();
    let order =
        |a: &(usize, f32), b: &(usize, f32)| b.1.total_cmp(&a.1).then_with(|| tie(a.0, b.0));
    let mut out = Vec::with_capacity(POOL);
    let (mut from, mut window) = (0, POOL * 2);
    while out.len() < POOL && from < cands.len() {
        let rest = &mut cands[from..];
        if rest.len() > window {
            rest.select_nth_unstable_by(window, order);
        }
        let take = rest.len().min(window);
        rest[..take].sort_by(order);
        for &(d, s) in &rest[..take] {
            if accept(d) {
                out.push((d, s));
                if out.len() == POOL {
                    break;
                }
            }
        }
        from += take;
        window *= 4;
    }
    out
}

/// Fuse the lexical hits (best first, exact matches listed in `exact`) with
/// the meaning ranking; at most `limit` hits. Each hit's `why` keeps its
/// lexical reasons and gains `meaning: 0.62` (its cosine similarity) when
/// it is in the meaning list. Equal fused scores order by `tie`.
pub fn fuse(
    lexical: Vec<SearchHit>,
    meaning: &[(usize, f32)],
    exact: &[usize],
    limit: usize,
    tie: Tie<'_>,
) -> Vec<SearchHit> {
    let weights = Fusion {
        rrf_k: RRF_K,
        meaning: MEANING_WEIGHT,
    };
    fuse_with(lexical, meaning, exact, limit, tie, weights)
}

/// The constants of [`fuse`] (a benchmark sweeps them; the runtime uses
/// [`RRF_K`] and [`MEANING_WEIGHT`]).
#[derive(Debug, Clone, Copy)]
pub struct Fusion {
    /// The reciprocal-rank constant.
    pub rrf_k: f32,
    /// Weight of the meaning ranking (the lexical one weighs [`LEXICAL_WEIGHT`]).
    pub meaning: f32,
}

/// [`fuse`] with the given constants.
pub fn fuse_with(
    lexical: Vec<SearchHit>,
    meaning: &[(usize, f32)],
    exact: &[usize],
    limit: usize,
    tie: Tie<'_>,
    weights: Fusion,
) -> Vec<SearchHit> {
    let Fusion { rrf_k, meaning: w } = weights;
    let mut fused: Vec<SearchHit> = Vec::new();
    let mut pinned: Vec<SearchHit> = Vec::new();
    for (rank, mut hit) in lexical.into_iter().enumerate() {
        let sim = meaning.iter().position(|(d, _)| *d == hit.doc);
        let mut score = LEXICAL_WEIGHT / (rrf_k + rank as f32 + 1.0);
        if let Some(r) = sim {
            score += w / (rrf_k + r as f32 + 1.0);
            hit.why.push(meaning_why(meaning[r].1));
        }
        hit.score = score;
        if exact.contains(&hit.doc) {
            pinned.push(hit);
        } else {
            fused.push(hit);
        }
    }
    for (r, (doc, sim)) in meaning.iter().enumerate() {
        if fused.iter().chain(&pinned).any(|h| h.doc == *doc) {
            continue;
        }
        fused.push(SearchHit {
            doc: *doc,
            score: w / (rrf_k + r as f32 + 1.0),
            why: vec![meaning_why(*sim)],
        });
    }
    fused.sort_by(|a, b| b.score.total_cmp(&a.score).then_with(|| tie(a.doc, b.doc)));
    pinned.extend(fused);
    pinned.truncate(limit);
    pinned
}

/// With the embedder, nothing fits when the most similar tool is far
/// ([`NOTHING_FITS_MEANING`]) and the best lexical hit covers little of the
/// request ([`NOTHING_FITS_COVERAGE`]; see `Ranking::coverage`).
pub fn nothing_fits(meaning: &[(usize, f32)], coverage: f32) -> bool {
    let best = meaning.first().map_or(0.0, |m| m.1);
    best < NOTHING_FITS_MEANING && coverage < NOTHING_FITS_COVERAGE
}

fn meaning_why(sim: f32) -> String {
    format!("meaning: {:.2}", sim)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn hit(doc: usize) -> SearchHit {
        SearchHit {
            doc,
            score: 1.0,
            why: vec!["name: x".into()],
        }
    }

    #[test]
    fn exact_matches_stay_first_and_agreement_wins() {
        let lexical = vec![hit(5), hit(1), hit(2), hit(3)];
        let meaning = [(3, 0.9), (2, 0.8), (7, 0.7)];
        let out = fuse(lexical, &meaning, &[5], 8, &|a, b| a.cmp(&b));
        let docs: Vec<usize> = out.iter().map(|h| h.doc).collect();
        assert_eq!(docs[0], 5);
        let mut agreed = docs[1..3].to_vec();
        agreed.sort();
        assert_eq!(agreed, [2, 3]);
        assert!(docs.contains(&7));
        let three = out.iter().find(|h| h.doc == 3).expect("doc 3");
        assert_eq!(three.why.last().map(String::as_str), Some("meaning: 0.90"));
    }

    #[test]
    fn nothing_fits_needs_both_rankings_to_miss() {
        assert!(nothing_fits(&[(1, 0.1)], 0.2));
        assert!(nothing_fits(&[], 0.0));
        assert!(!nothing_fits(&[(1, 0.5)], 0.2), "a close meaning");
        assert!(!nothing_fits(&[(1, 0.1)], 0.9), "a lexical match");
    }

    #[test]
    fn normalized_refuses_bad_vectors() {
        assert_eq!(normalized(&[3.0, 4.0], 2), Some(vec![0.6, 0.8]));
        assert_eq!(normalized(&[1.0], 2), None);
        assert_eq!(normalized(&[0.0, 0.0], 2), None);
        assert_eq!(normalized(&[f32::NAN, 1.0], 2), None);
    }
}
