//! The pinned crates' versions, read from Cargo.lock, and the one Unicode
//! version both table sets are generated at.

/// The Unicode version of each `icu_properties_data` release this generator
/// was checked with; the crate says it only in its README ("This data was
/// generated with … Unicode version …").
pub(crate) const ICU_DATA_UNICODE: &[(&str, &str)] = &[("2.4.0", "18.0.0")];

/// The version of `name` that the workspace's `Cargo.lock` holds (the header
/// names what was really compiled in, whatever `Cargo.toml` allows).
pub(crate) fn locked(name: &str) -> &'static str {
    let lock = include_str!("../../../Cargo.lock");
    let key = format!("name = \"{name}\"\nversion = \"");
    let mut versions = lock.match_indices(&key).filter_map(|(at, _)| {
        let rest = &lock[at + key.len()..];
        rest.split('"').next()
    });
    let version = versions
        .next()
        .unwrap_or_else(|| panic!("{name} is not in Cargo.lock"));
    assert!(
        versions.next().is_none(),
        "Cargo.lock holds two versions of {name}"
    );
    version
}

/// `unicode-normalization`'s and `icu_properties_data`'s Unicode versions.
pub(crate) fn versions() -> (String, &'static str) {
    let (major, minor, patch) = unicode_normalization::UNICODE_VERSION;
    let data = locked("icu_properties_data");
    let icu = ICU_DATA_UNICODE
        .iter()
        .find(|(v, _)| *v == data)
        .map(|(_, u)| *u)
        .unwrap_or_else(|| {
            panic!("icu_properties_data {data}: state its Unicode version in ICU_DATA_UNICODE")
        });
    (format!("{major}.{minor}.{patch}"), icu)
}
