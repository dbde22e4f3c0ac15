//! Fusing the lexical (BM25F) ranking with the host embedder's meaning
//! ranking, by how sure the lexical first hit is.
//!
//! **Lead.** The lexical first hit *leads* (stays first, after exact names;
//! its `why` ends `lexical lead: …`) when its evidence is decisive
//! ([`lexical_lead`]): the request names the tool, its provider or one of its
//! schema fields (its `why` says "named in the request", "named provider …",
//! "has field …"); the request has later steps (its embedding mixes the
//! steps, the lexical ranking ranks the first step's tool); the hit covers at
//! least [`SURE_COVERAGE`] of the request with a word matched as written (not
//! only through the lexicon) in its name or title; or it scores clearly
//! above the second hit (second / first at most [`SURE_MARGIN`]). Otherwise
//! the lexical evidence is weak and the fused score alone orders, so the
//! meaning ranking may put another tool first; the tools placed above the
//! lexical first hit say `meaning led: weak lexical evidence (…)`.
//!
//! **Scores.** Each tool gets a convex combination of two normalised scores,
//! `(1 − α) · lexical + α · meaning`: `lexical` is its BM25F score over the
//! best non-exact one (0 outside the lexical top [`POOL`](super::embed::POOL)),
//! `meaning` its cosine rescaled so the most similar tool is 1 and the last
//! of the meaning top `POOL` is 0 (0 below). Scores, not ranks: a close
//! second in one ranking and a far one differ. `α` is [`MEANING_WEIGHT`]
//! under a lead and [`WEAK_MEANING_WEIGHT`] otherwise. Every hit in the
//! meaning top `POOL` says `meaning: 0.62` (its cosine). Exact names, aliases
//! and `provider/name` matches stay first, in lexical order. Equal scores
//! order by the tie-break (canonical name).
//!
//! **Chosen on dev** (`--example fusion_sweep`, 440 dev requests with gold;
//! see benchmarks/quality/RESULTS.md): fused top-1 69 % / any@8 89 % / MRR
//! 0.757 against 66 % / 88 % / 0.735 for the rank-only fusion it replaces
//! (RRF k 1, meaning 0.3) and 66 % / 85 % for words alone, no kind below the
//! words' top-1. Cost: one pass over two lists of [`POOL`](super::embed::POOL).

use super::embed::Tie;
use super::{Ranking, SearchHit};

/// Meaning's share `α` of the score under a lexical lead (dev: 0.2 and 0.3
/// tie on top-1; 0.4 drops provider-scoped any@8 by one).
pub(crate) const MEANING_WEIGHT: f32 = 0.3;
/// Meaning's share `α` when the lexical evidence is weak (dev: 0.3 best
/// top-1; 0.4–0.5 one request less, with a higher MRR).
pub(crate) const WEAK_MEANING_WEIGHT: f32 = 0.3;
/// Coverage from which the lexical first hit leads (dev: 0.6 best; 0.5 and
/// 0.7–0.9 one request less).
pub(crate) const SURE_COVERAGE: f32 = 0.6;
/// Second-to-first lexical score ratio up to which the first hit leads (no
/// dev request turns on 0.5; 0.7 costs one).
pub(crate) const SURE_MARGIN: f32 = 0.5;
/// `why` entries of a lexical hit that decide the lead (see `search/index.rs`
/// for the wording).
const DECISIVE: [&str; 5] = [
    "exact name",
    "alias",
    "named in the request",
    "named provider",
    "has field",
];

/// The constants of [`fuse`] (a benchmark sweeps them).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Fusion {
    /// Meaning's share of the score under a lexical lead.
    pub meaning: f32,
    /// Meaning's share of the score when the lexical evidence is weak.
    pub weak_meaning: f32,
    /// Coverage from which the lexical first hit leads.
    pub sure_coverage: f32,
    /// Second-to-first score ratio up to which the lexical first hit leads.
    pub sure_margin: f32,
}

impl Default for Fusion {
    fn default() -> Self {
        Fusion {
            meaning: MEANING_WEIGHT,
            weak_meaning: WEAK_MEANING_WEIGHT,
            sure_coverage: SURE_COVERAGE,
            sure_margin: SURE_MARGIN,
        }
    }
}

/// Whether the lexical first hit leads: `Ok(why it does)` (a `why` entry,
/// "a multi-step request", its coverage or margin), or `Err(why its evidence
/// is weak)`. `hits` are the non-exact lexical hits, best first; `coverage`
/// is the request share the first covers (see `Ranking::coverage`).
pub fn lexical_lead(
    hits: &[SearchHit],
    coverage: f32,
    later_steps: bool,
    f: &Fusion,
) -> Result<String, String> {
    let Some(first) = hits.first() else {
        return Err("no lexical match".to_string());
    };
    if let Some(w) = first
        .why
        .iter()
        .find(|w| DECISIVE.iter().any(|d| w.starts_with(d)))
    {
        return Ok(w.clone());
    }
    if later_steps {
        return Ok("a multi-step request".to_string());
    }
    let literal = literal_name_word(&first.why);
    if coverage >= f.sure_coverage && literal {
        return Ok(format!("coverage {coverage:.2}"));
    }
    let second = hits.get(1).map_or(0.0, |h| h.score);
    let margin = if first.score > 0.0 {
        second / first.score
    } else {
        1.0
    };
    if margin <= f.sure_margin {
        return Ok(format!("margin {margin:.2}"));
    }
    Err(if literal || coverage < f.sure_coverage {
        format!("coverage {coverage:.2}")
    } else {
        "name words only through the lexicon".to_string()
    })
}

/// Whether a `why` lists a request word matched as written (not only through
/// the lexicon or a synonym) in the name or title.
fn literal_name_word(why: &[String]) -> bool {
    why.iter()
        .filter_map(|w| {
            w.strip_prefix("name: ")
                .or_else(|| w.strip_prefix("title: "))
        })
        .flat_map(|words| words.split(", "))
        .any(|w| !w.contains(" ("))
}

/// Fuse the lexical ranking (`lexical`: its hits best first, the first's
/// coverage, whether the request has later steps; exact matches listed in
/// `exact`) with the meaning ranking (`(doc, cosine)`, best first); at most
/// `limit` hits. Each hit keeps its lexical reasons and gains `meaning: 0.62`
/// (its cosine) when it is in the meaning list.
pub fn fuse(
    lexical: Ranking,
    meaning: &[(usize, f32)],
    exact: &[usize],
    limit: usize,
    tie: Tie<'_>,
    f: &Fusion,
) -> Vec<SearchHit> {
    let Ranking {
        hits: lexical,
        coverage,
        later_steps,
        ..
    } = lexical;
    let (mut pinned, rest): (Vec<SearchHit>, Vec<SearchHit>) =
        lexical.into_iter().partition(|h| exact.contains(&h.doc));
    let lead = lexical_lead(&rest, coverage, later_steps, f);
    let alpha = if lead.is_ok() {
        f.meaning
    } else {
        f.weak_meaning
    };
    let top = rest.iter().map(|h| h.score).fold(0f32, f32::max);
    let best = meaning.first().map_or(0.0, |m| m.1);
    let floor = if meaning.len() > 1 {
        meaning[meaning.len() - 1].1
    } else {
        0.0
    };
    let scale = |cos: f32| {
        if best - floor > 1e-6 {
            ((cos - floor) / (best - floor)).clamp(0.0, 1.0)
        } else {
            1.0
        }
    };
    let cosine = |doc: usize| meaning.iter().find(|m| m.0 == doc).map(|m| m.1);
    for h in &mut pinned {
        if let Some(c) = cosine(h.doc) {
            h.why.push(meaning_why(c));
        }
    }
    let leader = rest.first().map(|h| h.doc);
    let mut fused: Vec<SearchHit> = Vec::with_capacity(rest.len() + meaning.len());
    for mut h in rest {
        let lex = if top > 0.0 { h.score / top } else { 0.0 };
        let m = cosine(h.doc);
        if let Some(c) = m {
            h.why.push(meaning_why(c));
        }
        h.score = (1.0 - alpha) * lex + alpha * m.map_or(0.0, scale);
        fused.push(h);
    }
    for &(doc, cos) in meaning {
        if pinned.iter().chain(&fused).any(|h| h.doc == doc) {
            continue;
        }
        fused.push(SearchHit {
            doc,
            score: alpha * scale(cos),
            why: vec![meaning_why(cos)],
        });
    }
    let order =
        |a: &SearchHit, b: &SearchHit| b.score.total_cmp(&a.score).then_with(|| tie(a.doc, b.doc));
    match lead {
        Ok(reason) => {
            // The leader stays first; the rest by fused score.
            if let Some((first, rest)) = fused.split_first_mut() {
                rest.sort_by(order);
                first.why.push(format!("lexical lead: {reason}"));
            }
        }
        Err(reason) => {
            fused.sort_by(order);
            let led = fused.iter().position(|h| Some(h.doc) == leader);
            let note = format!("meaning led: weak lexical evidence ({reason})");
            for h in fused.iter_mut().take(led.unwrap_or(0)) {
                h.why.push(note.clone());
            }
        }
    }
    pinned.extend(fused);
    pinned.truncate(limit);
    pinned
}

fn meaning_why(sim: f32) -> String {
    format!("meaning: {:.2}", sim)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn hit(doc: usize, score: f32, why: &[&str]) -> SearchHit {
        SearchHit {
            doc,
            score,
            why: why.iter().map(|w| w.to_string()).collect(),
        }
    }

    fn ranked(hits: Vec<SearchHit>, coverage: f32, later_steps: bool) -> Ranking {
        Ranking {
            hits,
            coverage,
            later_steps,
            ..Ranking::default()
        }
    }

    fn by_doc(a: usize, b: usize) -> std::cmp::Ordering {
        a.cmp(&b)
    }

    fn docs(out: &[SearchHit]) -> Vec<usize> {
        out.iter().map(|h| h.doc).collect()
    }

    /// Lexical hits 1..=4 (name words written as typed), close in score.
    fn close_lexical(first_why: &str) -> Vec<SearchHit> {
        vec![
            hit(1, 10.0, &["name: report", first_why]),
            hit(2, 9.5, &["name: report"]),
            hit(3, 9.0, &["description: report"]),
            hit(4, 8.0, &["description: report"]),
        ]
    }

    /// The meaning ranking disagrees: tool 3 is the most similar, then 7.
    const MEANING: [(usize, f32); 4] = [(3, 0.8), (7, 0.7), (2, 0.5), (9, 0.2)];

    #[test]
    fn weak_lexical_evidence_lets_meaning_lead_and_why_says_so() {
        let f = Fusion::default();
        let out = fuse(
            ranked(close_lexical("title: report"), 0.3, false),
            &MEANING,
            &[],
            8,
            &by_doc,
            &f,
        );
        assert_eq!(out[0].doc, 3, "{:?}", docs(&out));
        let why = &out[0].why;
        assert!(why.contains(&"meaning: 0.80".to_string()), "{why:?}");
        assert_eq!(
            why.last().map(String::as_str),
            Some("meaning led: weak lexical evidence (coverage 0.30)")
        );
        // Tools only the meaning ranking found carry only its reason.
        let seven = out.iter().find(|h| h.doc == 7).expect("doc 7");
        assert!(seven.why[0].starts_with("meaning: 0.70"), "{:?}", seven.why);
        // The lexical leader and those below it carry no "meaning led" note.
        let one = out.iter().find(|h| h.doc == 1).expect("doc 1");
        assert!(!one.why.iter().any(|w| w.starts_with("meaning led")));
    }

    #[test]
    fn decisive_lexical_evidence_keeps_the_first_hit_first() {
        let f = Fusion::default();
        for (why, coverage, steps) in [
            ("named provider acme", 0.3, false),
            ("has field dry_run", 0.3, false),
            ("named in the request", 0.3, false),
            ("title: report", 0.3, true),
            ("title: report", f.sure_coverage, false),
        ] {
            let out = fuse(
                ranked(close_lexical(why), coverage, steps),
                &MEANING,
                &[],
                8,
                &by_doc,
                &f,
            );
            assert_eq!(out[0].doc, 1, "{why} {coverage} {steps}: {:?}", docs(&out));
            assert!(out[0]
                .why
                .last()
                .is_some_and(|w| w.starts_with("lexical lead: ")));
            // Below the lead, meaning still reorders: 3 (most similar) before 2.
            assert_eq!(out[1].doc, 3, "{why}: {:?}", docs(&out));
            assert!(out
                .iter()
                .all(|h| !h.why.iter().any(|w| w.starts_with("meaning led"))));
        }
    }

    #[test]
    fn a_clear_margin_or_literal_coverage_leads_lexicon_only_does_not() {
        let f = Fusion::default();
        let mut far = close_lexical("title: report");
        far[0].score = 30.0;
        assert_eq!(
            lexical_lead(&far, 0.2, false, &f),
            Ok("margin 0.32".to_string())
        );
        let mut lexicon = close_lexical("title: tag (lexicon: version)");
        lexicon[0].why[0] = "name: tag (lexicon: version)".into();
        assert_eq!(
            lexical_lead(&lexicon, 1.0, false, &f),
            Err("name words only through the lexicon".to_string())
        );
        assert!(lexical_lead(&close_lexical("title: report"), 1.0, false, &f).is_ok());
        assert!(lexical_lead(&[], 1.0, false, &f).is_err());
    }

    #[test]
    fn exact_matches_stay_first_and_the_limit_holds() {
        let f = Fusion::default();
        let mut lexical = close_lexical("title: report");
        lexical.insert(0, hit(5, 1000.0, &["exact name"]));
        let out = fuse(ranked(lexical, 1.0, false), &MEANING, &[5], 3, &by_doc, &f);
        assert_eq!(out.len(), 3);
        assert_eq!(out[0].doc, 5);
        assert_eq!(out[0].why, ["exact name"]);
        // The exact match's score does not flatten the others' normalisation.
        assert_eq!(docs(&out)[1..], [1, 3]);
    }

    #[test]
    fn equal_scores_order_by_the_tie_break() {
        let f = Fusion::default();
        let same = [(8, 0.5), (6, 0.5), (4, 0.5)];
        let out = fuse(ranked(Vec::new(), 0.0, false), &same, &[], 8, &by_doc, &f);
        assert_eq!(docs(&out), [4, 6, 8]);
        assert!(out.iter().all(|h| h.why == ["meaning: 0.50"]));
    }
}
