//! Whether nothing fits a request: the bars `tool_search` uses to say so
//! (with few results and a hint where to browse) instead of weak guesses.
//!
//! The lexical ranking measures what its best hit has of the request
//! ([`Evidence`], computed in `search/index.rs`); [`lexical`] decides from
//! that alone, and `embed::nothing_fits` (with a host embedder) says the
//! same: bars on the similarities did not raise the held-out precision. The
//! bars were chosen on the dev half of `benchmarks/quality` only, by nested
//! cross-validation (the promise is that "nothing fits" is rarely wrong), with
//! `cargo run --release -p holaryn-core --example nothing_sweep -- dev --rows`
//! and `benchmarks/quality/nothing_cv.py`.

/// What the best lexical hit has of the request (the best over phrasings).
/// Only `coverage`, `hit` and `exact` are measured when the coverage is at
/// least [`MEASURED_BELOW`]; the other fields are then 0.
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
}

/// Coverage from which no bar reads more than the coverage, so the search
/// measures the rest of the [`Evidence`] only below it: the highest coverage
/// bar that reads other fields ([`COVERAGE`]).
pub const MEASURED_BELOW: f32 = 0.25;
/// Lexical coverage of the request by the best hit below which a request in
/// words no tool has ([`UNKNOWN_WORDS`], [`UNKNOWN_SHARE`]) fits nothing.
pub const COVERAGE: f32 = 0.25;
// The bar reads more than the coverage only where that is measured.
const _: () = assert!(COVERAGE <= MEASURED_BELOW);

/// Fewest content words of the request that no tool has at all (one is as
/// often an id, a command or a plain word the catalog lacks in a request that
/// has a tool as in one that has none: 13 vs 10 of the dev requests under
/// [`COVERAGE`]).
pub const UNKNOWN_WORDS: usize = 2;
/// Least share of the request's content words that no tool has (more than a
/// third).
pub const UNKNOWN_SHARE: f32 = 0.34;

/// Nothing fits when there is no hit, or when the best hit is not an exact
/// name, covers under [`COVERAGE`] of the request, and the request has at
/// least [`UNKNOWN_WORDS`] content words, more than a third of them
/// ([`UNKNOWN_SHARE`]), that no tool has at all: it asks for things the
/// catalog has no words for.
///
/// Calibrated on the dev half of `benchmarks/quality` only, by nested
/// cross-validation (`nothing_sweep -- dev --rows | nothing_cv.py`): in 10 ×
/// 5 folds the bars chosen on four fifths (most right flags at a training
/// precision of at least 0.85) were these in 40 of 50 folds, and were right
/// on 84 % of what they flagged in the held-out fifth. Conditions the
/// earlier bars also read (no request word in the hit's name or title, no
/// rare word shared, common words only) separated nothing in the measured
/// range (likelihood ratios 0.45–1.17) and did not raise the held-out
/// precision, so they were dropped.
pub fn lexical(e: &Evidence) -> bool {
    !e.hit
        || !e.exact
            && e.coverage < COVERAGE
            && e.unknown_words >= UNKNOWN_WORDS
            && e.unknown_share >= UNKNOWN_SHARE
}

#[cfg(test)]
mod tests {
    use super::*;

    fn unknown() -> Evidence {
        Evidence {
            coverage: 0.1,
            unknown_share: 0.5,
            unknown_words: 2,
            unknown_names: 2,
            hit: true,
            ..Evidence::default()
        }
    }

    #[test]
    fn words_no_tool_has_fit_nothing() {
        assert!(lexical(&Evidence::default()), "no hit at all");
        assert!(lexical(&unknown()));
        let titled = Evidence {
            title_coverage: 0.1,
            rarest: 6.0,
            ask_rarest: 6.0,
            ..unknown()
        };
        assert!(
            lexical(&titled),
            "a word in the title or a rare word shared"
        );
        let exact = Evidence {
            exact: true,
            ..unknown()
        };
        assert!(!lexical(&exact), "an exact name always fits");
    }

    #[test]
    fn one_unknown_word_or_a_small_share_or_a_covering_hit_fits() {
        let one = Evidence {
            unknown_words: 1,
            ..unknown()
        };
        assert!(!lexical(&one), "one unknown word: an id, a command");
        let share = Evidence {
            unknown_share: 0.25,
            ..unknown()
        };
        assert!(!lexical(&share), "most words known");
        let third = Evidence {
            unknown_share: 2.0 / 6.0,
            ..unknown()
        };
        assert!(!lexical(&third), "a third is not more than a third");
        let covered = Evidence {
            coverage: COVERAGE,
            ..unknown()
        };
        assert!(!lexical(&covered));
    }
}
