//! Placeholder for the ECMA-262 pattern engine (engineer h21-regex's module, which
//! replaces this file at merge): the same interface over `fancy-regex`.

/// A compiled pattern.
pub struct Pattern(fancy_regex::Regex);

impl Pattern {
    /// Compiles `source`, or says why it does not compile.
    pub fn new(source: &str) -> Result<Pattern, String> {
        fancy_regex::Regex::new(source)
            .map(Pattern)
            .map_err(|e| e.to_string())
    }

    /// Whether the pattern matches somewhere in `haystack` (no match on a backtracking limit).
    pub fn is_match(&self, haystack: &str) -> bool {
        self.0.is_match(haystack).unwrap_or(false)
    }
}
