//! Whether nothing fits a request: the bars `tool_search` uses to say so
//! (with few results and a hint where to browse) instead of weak guesses.
//!
//! The lexical ranking measures what its best hit has of the request
//! ([`Evidence`], computed in `search/index.rs`); [`lexical`] decides from
//! that alone, `embed::nothing_fits` adds the host embedder's similarities. Every
//! bar was calibrated on the dev half of `benchmarks/quality` only,
//! precision first (the promise is that "nothing fits" is rarely wrong), with
//! `cargo run --release -p holaryn-core --example nothing_sweep`.
//!
//! A simpler bar chosen by cross-validation on dev (coverage < 0.25 and at
//! least two content words, over a third of them, that no tool has;
//! `benchmarks/quality/nothing_cv.py`) was tried and not kept: on an unseen
//! catalog (the BFCL yardstick, where every request has a tool) it flagged
//! 7.8 % of the dev requests, against 1.4 % for these bars
//! (`benchmarks/quality/RESULTS.md`).

/// What the best lexical hit has of the request (the best over phrasings).
/// Only `coverage`, `hit`, `exact` and `named_field` are measured when the coverage is at
/// least `MEASURED_BELOW`; the other fields are then 0.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct Evidence {
    /// IDF-weighted share of the request's content words the best hit
    /// matches in any field (an entity it takes counts as one more word;
    /// 1.0 for an exact name, 0.0 with no hit).
    pub coverage: f32,
    /// The same share counting only its name and title.
    pub title_coverage: f32,
    /// Least share, over phrasings, of content words no tool has at all.
    pub unknown_share: f32,
    /// Least number, over phrasings, of content words no tool has at all.
    pub unknown_words: usize,
    /// Least number, over phrasings, of content words without a digit
    /// (names of things, not ids or dates) that no tool has at all.
    pub unknown_names: usize,
    /// Highest IDF of a typed content word the best hit shares (0 if none).
    pub rarest: f32,
    /// The same, words that name a provider left out ("stripe" says where
    /// to look, not that a Stripe tool does what is asked).
    pub ask_rarest: f32,
    /// Whether there is a hit at all.
    pub hit: bool,
    /// Whether the best hit is an exact name (it always fits).
    pub exact: bool,
    /// Whether the best hit has a schema field the request writes as code
    /// (`filterGroups`) or as `field=value`: it takes what was asked, so it
    /// fits however few of the request's other words it has.
    pub named_field: bool,
}

/// Coverage from which no bar reads more than the coverage, so the search
/// measures the rest of the [`Evidence`] only below it: the highest coverage
/// bar that reads other fields ([`UNKNOWN_COVERAGE`], [`COMMON_COVERAGE`],
/// `embed::DISAGREE_COVERAGE`).
pub(crate) const MEASURED_BELOW: f32 = 0.25;
/// Lexical coverage below which a request most of whose content words no
/// tool has (see [`UNKNOWN_WORDS`]) fits nothing: it names things the catalog
/// has no words for. Calibrated on the dev half, precision first.
pub(crate) const UNKNOWN_COVERAGE: f32 = 0.25;
/// Fewest content words unknown to every tool for [`UNKNOWN_COVERAGE`]; at
/// least half of the request's content words must be unknown too.
pub(crate) const UNKNOWN_WORDS: usize = 2;
/// IDF from which a typed word the best hit shares means something fits
/// (5.0: in about 1 of 150 tools or fewer). Calibrated on the dev half,
/// precision first.
pub(crate) const RARE_WORD: f32 = 5.0;
/// IDF below which a word is common (3.1: in more than about 1 tool in 22):
/// a best hit that shares only such words with what is asked, covers under
/// [`COMMON_COVERAGE`] of the request, while the request names
/// [`UNKNOWN_NAMES`] things no tool has, fits nothing. First swept (main
/// 5641c3c) with one unknown name at 2.9. Re-swept on the 580 dev requests
/// (140 without a tool) after the value-word change (main 19a36a2), coverage
/// 0.15–0.25 × IDF 2.5–3.5 × unknown names 1–2: with one unknown name no
/// cell reaches P 0.9 (2.9 / 0.25: 17 of 22 right; the wrong ones name a
/// shell command, a month of a date, or a plain word the catalog lacks);
/// with two, every cell up to IDF 3.3 is right on all it flags (0.25 × 3.1:
/// 11 of 11; 3.3: 12 of 12; 3.5: 12 of 13), 3.1 one step inside that edge.
pub(crate) const COMMON_WORD: f32 = 3.1;
/// Lexical coverage below which, with [`COMMON_WORD`], nothing fits (the
/// highest swept: with [`UNKNOWN_NAMES`] 2 every coverage 0.15–0.25 is
/// right on all it flags on dev, 0.25 flags the most).
pub(crate) const COMMON_COVERAGE: f32 = 0.25;
/// Fewest words without a digit unknown to every tool for [`COMMON_WORD`]
/// (2: one was 5 wrong of 22 dev flags on main 19a36a2; two, 0 of 11).
pub(crate) const UNKNOWN_NAMES: usize = 2;

/// Without an embedder, nothing fits when the best hit is not an exact name
/// and either
/// - most of the request's content words are in no tool at all
///   ([`UNKNOWN_WORDS`]), no request word is in the best hit's name or title,
///   it shares no rare typed word ([`RARE_WORD`]) and covers under
///   [`UNKNOWN_COVERAGE`] of the request; or
/// - the request names things no tool has ([`UNKNOWN_NAMES`] words without
///   a digit in no tool), and the best hit covers under [`COMMON_COVERAGE`] of it with
///   common words only ([`COMMON_WORD`], provider names aside).
pub(crate) fn lexical(e: &Evidence) -> bool {
    if !e.hit {
        return true;
    }
    let unknown = e.unknown_words >= UNKNOWN_WORDS
        && e.unknown_share >= 0.5
        && e.coverage < UNKNOWN_COVERAGE
        && e.title_coverage == 0.0
        && e.rarest < RARE_WORD;
    let common = e.unknown_names >= UNKNOWN_NAMES
        && e.coverage < COMMON_COVERAGE
        && e.ask_rarest < COMMON_WORD;
    !e.exact && !e.named_field && (unknown || common)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn unknown() -> Evidence {
        Evidence {
            coverage: 0.1,
            unknown_share: 0.75,
            unknown_words: 3,
            hit: true,
            ..Evidence::default()
        }
    }

    #[test]
    fn words_no_tool_has_fit_nothing_unless_the_hit_names_them() {
        assert!(lexical(&Evidence::default()), "no hit at all");
        assert!(lexical(&unknown()));
        let titled = Evidence {
            title_coverage: 0.2,
            ..unknown()
        };
        assert!(!lexical(&titled), "a request word in its name or title");
        let rare = Evidence {
            rarest: 6.0,
            ask_rarest: 6.0,
            ..unknown()
        };
        assert!(!lexical(&rare), "a rare word shared");
        let exact = Evidence {
            exact: true,
            ..unknown()
        };
        assert!(!lexical(&exact));
        let field = Evidence {
            named_field: true,
            ..unknown()
        };
        assert!(
            !lexical(&field),
            "the hit has the field the request writes as code"
        );
    }

    #[test]
    fn every_bar_that_reads_more_than_coverage_sits_below_the_measured_range() {
        let bars = [
            UNKNOWN_COVERAGE,
            COMMON_COVERAGE,
            super::super::embed::DISAGREE_COVERAGE,
        ];
        assert!(bars.iter().all(|b| *b <= MEASURED_BELOW), "{bars:?}");
    }

    #[test]
    fn a_thing_no_tool_has_and_only_common_words_shared_fit_nothing() {
        let common = Evidence {
            coverage: 0.2,
            title_coverage: 0.2,
            unknown_share: 0.2,
            unknown_words: 2,
            unknown_names: 2,
            rarest: 6.0,
            ask_rarest: 2.0,
            hit: true,
            exact: false,
            named_field: false,
        };
        assert!(lexical(&common), "a provider name is the only rare word");
        let id = Evidence {
            unknown_names: 1,
            ..common
        };
        assert!(!lexical(&id), "one unknown word is an id");
        let specific = Evidence {
            ask_rarest: 3.5,
            ..common
        };
        assert!(!lexical(&specific), "a specific word shared");
        let covered = Evidence {
            coverage: 0.4,
            ..common
        };
        assert!(!lexical(&covered));
    }
}
