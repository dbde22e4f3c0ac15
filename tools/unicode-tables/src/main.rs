//! Prints holaryn-core's generated Unicode tables from pinned crates, both at
//! one Unicode version ([`UNICODE`]):
//!
//! - `cargo run -p unicode-tables -- pattern`: the `\p{…}` data of the ECMA-262
//!   pattern engine (`pattern/tables.rs`), from `icu_properties`;
//! - `cargo run -p unicode-tables -- nfkd`: the compatibility decompositions
//!   and combining marks of search folding (`search/nfkd_tables.rs`), from
//!   `unicode-normalization`.
//!
//! `scripts/unicode-tables.sh` (in `npm test`) names the committed files,
//! regenerates both and fails on any difference, saying how to regenerate.

mod nfkd;
mod pattern;
mod versions;

use versions::{locked, versions};

use unicode_normalization::char::is_combining_mark;

/// The Unicode version both table sets are at. Moving it means pinning crates
/// that implement the new version (root `Cargo.toml` for `unicode-normalization`,
/// this crate's for `icu_properties`) and stating the data crate's version below.
const UNICODE: &str = "18.0.0";

fn main() {
    let which = std::env::args().nth(1);
    let table: fn() -> String = match which.as_deref() {
        Some("pattern") => pattern::tables,
        Some("nfkd") => nfkd::tables,
        _ => {
            eprintln!("usage: unicode-tables pattern|nfkd  (prints the file's text)");
            std::process::exit(2);
        }
    };
    one_unicode_version();
    print!("{}", table());
}

/// Refuse to write tables of two Unicode versions: both crates must implement
/// [`UNICODE`], and their data must agree where it overlaps (the combining
/// marks, General_Category=Mark, which every version adds to).
fn one_unicode_version() {
    let (normalization, icu) = versions();
    assert!(
        normalization == UNICODE && icu == UNICODE,
        "the tables are stated at Unicode {UNICODE}, but unicode-normalization {} implements \
         {normalization} and icu_properties_data {} {icu}: pin crates of one Unicode version",
        locked("unicode-normalization"),
        locked("icu_properties_data"),
    );
    let marks = pattern::general_category("M");
    let mut theirs = Vec::new();
    for c in (0..=char::MAX as u32).filter_map(char::from_u32) {
        if is_combining_mark(c) {
            pattern::push(&mut theirs, c as u32, c as u32);
        }
    }
    assert!(
        marks == theirs,
        "icu_properties and unicode-normalization disagree on the combining marks: \
         not the same Unicode version"
    );
}
