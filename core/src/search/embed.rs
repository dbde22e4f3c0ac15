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
//! **Fusion** with the lexical ranking is in [`blend`](super::blend): the
//! lexical top [`POOL`] and the cosine-similarity top [`POOL`] (among the
//! tools the search may return), weighted by how sure the lexical first hit
//! is. **Nothing fits** is the lexical verdict ([`nothing::lexical`](super::nothing::lexical)): no bar on
//! the similarities raised the held-out precision on dev.

use crate::descriptor::ToolDescriptor;
use crate::hash::{hex, sha256};
use serde_json::Value;

/// Candidates taken from each ranking before fusion.
pub const POOL: usize = 50;
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn normalized_refuses_bad_vectors() {
        assert_eq!(normalized(&[3.0, 4.0], 2), Some(vec![0.6, 0.8]));
        assert_eq!(normalized(&[1.0], 2), None);
        assert_eq!(normalized(&[0.0, 0.0], 2), None);
        assert_eq!(normalized(&[f32::NAN, 1.0], 2), None);
    }
}
