//! Stand-in for `unicode_names2` without its Unicode name table.
//!
//! Holaryn's bounded code mode refuses named escapes (`\N{…}`) in its
//! pre-parse token guard (holaryn-code, `crates/code/src/escapes.rs`), so the parser never
//! needs a name. If a named escape ever reached the parser anyway, the lookup
//! fails and the parser reports a syntax error instead of resolving it.
#![no_std]

/// Looks up a character by its Unicode name: always `None` here (no table is shipped).
pub fn character(_name: &str) -> Option<char> {
    None
}
