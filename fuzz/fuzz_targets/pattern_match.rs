//! Pattern matching: a pattern and a subject (split at the first NUL byte,
//! both UTF-8) through `holaryn-pattern`, with and without a caller's
//! budget.
//!
//! Asserted: every search ends (libFuzzer's `-timeout` catches a hang);
//! `is_match` is `matches` with "undecided" as no match; a search within a
//! caller's budget answers as the unbudgeted one or is undecided, and never
//! takes more steps than it was given.
#![no_main]

use holaryn_pattern::{Pattern, PatternError};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Some(nul) = data.iter().position(|&b| b == 0) else {
        return;
    };
    let (Ok(source), Ok(subject)) = (
        std::str::from_utf8(&data[..nul]),
        std::str::from_utf8(&data[nul + 1..]),
    ) else {
        return;
    };
    let Ok(p) = Pattern::new(source) else {
        return;
    };
    let full = p.matches(subject);
    assert_eq!(p.is_match(subject), full.unwrap_or(false));
    let given = (source.len() as u64 * 31 + subject.len() as u64 * 7) % 5000;
    let mut left = given;
    let cut = p.matches_within(subject, &mut left);
    assert!(left <= given);
    match cut {
        Ok(found) => assert_eq!(Ok(found), full, "a budget changed the answer"),
        Err(PatternError::Exhausted) => {}
    }
});
