//! Reserved names: what a name means to a model, decided once, at registration.
//!
//! A model knows a tool by the names it reads, not by how it was registered,
//! so the names the runtime gives its own model tools (`tool_search`,
//! `tool_list`, `tool_inspect`, `run_tool_code`) and the legacy shell tool
//! `run_tool_script` mean one thing whatever tool carries them. The rule, for
//! every name form a tool has (names compare after ASCII lower-casing, `-` →
//! `_` and dropping non-ASCII characters, so `Run-Tool-Script` and
//! `run_tool_script` with a zero-width space are `run_tool_script`):
//!
//! - **canonical name**: never a runtime tool's name; `run_tool_script` is the
//!   legacy script (below).
//! - **alias**: never a reserved name, nor `…/reserved`: a model calls an alias
//!   bare, so it would read as the runtime's tool or the legacy script.
//! - **local name and the last segment of the canonical name** (split at `/`
//!   and at `__`, the wire spelling of `/`): a runtime
//!   tool's name is fine (`bench/tool_search` is called `bench/tool_search`, never
//!   `tool_search`); `run_tool_script` makes the tool the legacy script: asks
//!   first, marked ambient process access, never callable from bounded code.
//! - **`provider/…` names**: a canonical name or alias `p/x` belongs to provider
//!   `p` (policies read `github/*` as "provider github"); provider id `holaryn`
//!   ([`check_provider_id`]) and role `code_mode` are the runtime's own.
//!
//! Refusals are `descriptor.reserved_name`, naming the tool and the field.

use crate::descriptor::{ToolRole, ToolSpec};
use crate::error::{Error, ErrorCode, Result};
use crate::hash::{hex, sha256};
use std::collections::BTreeMap;

/// `tool_search`.
pub const TOOL_SEARCH: &str = "tool_search";
/// `tool_list`.
pub const TOOL_LIST: &str = "tool_list";
/// `tool_inspect`.
pub const TOOL_INSPECT: &str = "tool_inspect";
/// `run_tool_code`.
pub const RUN_TOOL_CODE: &str = "run_tool_code";

/// The name of the legacy shell-equivalent tool.
pub const RUN_TOOL_SCRIPT: &str = "run_tool_script";

/// Prefix of opaque handles; no name or alias may start with it.
pub const HANDLE_PREFIX: &str = "toolh_";

/// Longest accepted tool name or alias, in bytes.
pub const MAX_NAME_BYTES: usize = 128;

/// The discovery tools: not registry tools, always allowed, never removed.
pub const DISCOVERY_TOOLS: [&str; 3] = [TOOL_SEARCH, TOOL_LIST, TOOL_INSPECT];

/// True for the names of the three discovery tools.
pub fn is_discovery_tool(name: &str) -> bool {
    DISCOVERY_TOOLS.contains(&name)
}

/// The names of the runtime's own model tools.
pub const RUNTIME_TOOL_NAMES: [&str; 4] = [TOOL_SEARCH, TOOL_LIST, TOOL_INSPECT, RUN_TOOL_CODE];

/// The provider id of the runtime's own tools.
pub const RUNTIME_PROVIDER: &str = "holaryn";

/// What a reserved name means to a model.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Meaning {
    /// One of the runtime's own model tools.
    RuntimeTool,
    /// The legacy shell-equivalent `run_tool_script`.
    LegacyScript,
}

/// What `name` means to a model, if it is a reserved name (case and `-`/`_`
/// folded, non-ASCII characters such as zero-width spaces dropped).
pub fn meaning(name: &str) -> Option<Meaning> {
    if name.len() < TOOL_LIST.len() || (name.is_ascii() && name.len() > RUN_TOOL_SCRIPT.len()) {
        return None; // no reserved name is shorter or longer (fast path)
    }
    let folded: String = name
        .chars()
        .filter(char::is_ascii)
        .map(|c| {
            if c == '-' {
                '_'
            } else {
                c.to_ascii_lowercase()
            }
        })
        .collect();
    if folded == RUN_TOOL_SCRIPT {
        Some(Meaning::LegacyScript)
    } else if RUNTIME_TOOL_NAMES.contains(&folded.as_str()) {
        Some(Meaning::RuntimeTool)
    } else {
        None
    }
}

/// What the last segment of `name` means, segments being split at `/` and at
/// `__` (how wire names spell `/`); the whole name when it has neither.
fn tail_meaning(name: &str) -> Option<Meaning> {
    let tail = name.rsplit('/').next().unwrap_or(name);
    meaning(tail.rsplit("__").next().unwrap_or(tail))
}

fn reserved(tool: &str, field: &str, why: String) -> Error {
    Error::new(ErrorCode::DescriptorReservedName, why)
        .with_tool(tool)
        .with_field(field)
}

/// A `p/x` name must belong to provider `p`.
fn check_prefix(spec: &ToolSpec, field: &str, name: &str) -> Result<()> {
    match name.split_once('/') {
        Some((prefix, _)) if !prefix.is_empty() => {
            let own = name
                .strip_prefix(spec.provider.id.as_str())
                .is_some_and(|rest| rest.starts_with('/'));
            if own {
                Ok(())
            } else {
                Err(reserved(
                    &spec.name,
                    field,
                    format!(
                        "`{name}` reads as a tool of provider `{prefix}`, but this tool's provider is `{}`",
                        spec.provider.id
                    ),
                ))
            }
        }
        _ => Ok(()),
    }
}

/// The rule for a provider id, wherever one is chosen (a tool's
/// `provider.id`, a gateway server's name): not empty (nor only whitespace)
/// and not the runtime's own `holaryn`. Ids compare exactly, as policies
/// match them (`Holaryn` is another provider). Refusals are
/// `descriptor.invalid` (empty) and `descriptor.reserved_name`, without a
/// tool or field (the caller adds them).
pub fn check_provider_id(id: &str) -> Result<()> {
    if id.trim().is_empty() {
        return Err(Error::new(
            ErrorCode::DescriptorInvalid,
            "provider id is empty",
        ));
    }
    if id == RUNTIME_PROVIDER {
        return Err(Error::new(
            ErrorCode::DescriptorReservedName,
            format!("provider id `{RUNTIME_PROVIDER}` is reserved for the runtime's own tools"),
        ));
    }
    Ok(())
}

/// True when `id` is already a provider slug: 1-64 ASCII letters, digits,
/// `_`, `-` or `.`, starting with a letter or digit ([`provider_slug`] leaves
/// it as it is). Gateway server names must be one.
pub fn is_provider_slug(id: &str) -> bool {
    let b = id.as_bytes();
    (1..=64).contains(&b.len())
        && b[0].is_ascii_alphanumeric()
        && b.iter()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, b'_' | b'-' | b'.'))
}

/// The provider id for a provider named `name` in a real config or catalog
/// (a server called `My Server`, `Café`, `acme.tools`): the one rule, used
/// wherever a name from outside becomes a provider id (catalog files, the
/// gateway config's server names, so policies match what they produce). A
/// slug ([`is_provider_slug`]) stays as it is: capitals and dots are kept,
/// ids compare exactly. Otherwise whitespace and every character outside
/// the slug alphabet become `-` (runs collapse, ends are trimmed); when a
/// non-ASCII character was replaced, or nothing is left, or the result is
/// too long, `-` and 8 hex digits of the name's SHA-256 are added (the base
/// cut to 55 bytes), so distinct names keep distinct ids. Deterministic: the
/// same name gives the same id in every run; the name itself stays the
/// provider's display name.
pub fn provider_slug(name: &str) -> String {
    if is_provider_slug(name) {
        return name.to_string();
    }
    let mut out = String::with_capacity(name.len());
    let mut lossy = false;
    for c in name.chars() {
        let keep = c.is_ascii_alphanumeric() || matches!(c, '_' | '-' | '.');
        if keep {
            out.push(c);
        } else {
            lossy |= !c.is_ascii() && !c.is_whitespace();
            if !out.ends_with('-') {
                out.push('-');
            }
        }
    }
    let mut base = out
        .trim_matches(|c: char| !c.is_ascii_alphanumeric())
        .to_string();
    if lossy || base.is_empty() || base.len() > 64 {
        base.truncate(55);
        let tag = hex(&sha256(name.as_bytes())[..4]);
        base = if base.is_empty() {
            format!("p-{tag}")
        } else {
            format!("{base}-{tag}")
        };
    }
    base
}

/// Apply the rule to a spec: refuse a misleading name, or say the tool is the
/// legacy script (`true`) because one of its names means `run_tool_script`.
pub fn check_spec(spec: &ToolSpec) -> Result<bool> {
    let tool = spec.name.as_str();
    if meaning(tool) == Some(Meaning::RuntimeTool) {
        return Err(reserved(
            tool,
            "name",
            format!("`{tool}` is reserved for the runtime's own model tools"),
        ));
    }
    check_prefix(spec, "name", tool)?;
    for (i, alias) in spec.aliases.iter().enumerate() {
        let field = format!("aliases[{i}]");
        if tail_meaning(alias).is_some() {
            return Err(reserved(
                tool,
                &field,
                format!(
                    "alias `{alias}` would read as a reserved name (the runtime's own tools, run_tool_script); an alias may not be one"
                ),
            ));
        }
        check_prefix(spec, &field, alias)?;
    }
    check_provider_id(&spec.provider.id)
        .map_err(|e| e.with_tool(tool).with_field("provider.id"))?;
    if spec.role == Some(ToolRole::CodeMode) {
        return Err(reserved(
            tool,
            "role",
            format!("role `code_mode` is reserved for the runtime's own `{RUN_TOOL_CODE}`"),
        ));
    }
    let local = spec.local_name.as_deref().unwrap_or(tool);
    Ok(tail_meaning(tool) == Some(Meaning::LegacyScript)
        || tail_meaning(local) == Some(Meaning::LegacyScript))
}

// Wire names: what a canonical name is called where model APIs restrict names.

/// A character a wire name may hold (the tests' reference for [`is_wire_byte`]).
#[cfg(test)]
fn is_wire_char(c: char) -> bool {
    c.is_ascii_alphanumeric() || c == '_' || c == '-'
}

/// A byte a wire name may hold: ASCII alphanumerics, `_` and `-` (no byte of
/// a multi-byte character is one).
fn is_wire_byte(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b == b'_' || b == b'-'
}

/// True when a name is already provider-safe (`^[a-zA-Z0-9_-]{1,64}$`).
pub fn is_provider_safe(name: &str) -> bool {
    !name.is_empty() && name.len() <= 64 && name.bytes().all(is_wire_byte)
}

/// The preferred provider-safe form of a canonical name (deterministic): the
/// name itself when safe, else `/` → `__`, other characters → `_`, and a hash
/// tag when too long. [`wire_names`] decides what a tool is actually called.
pub fn wire_name(canonical: &str) -> String {
    let mut out = String::new();
    if !push_rewritten_wire_name(canonical, &mut out) {
        out.push_str(canonical);
    }
    out
}

/// [`wire_name`] appended to `out` for a name that is not provider-safe
/// (true), nothing appended for one that is (false: it is its own wire
/// name): many names into one buffer, no string each.
pub fn push_rewritten_wire_name(canonical: &str, out: &mut String) -> bool {
    if is_provider_safe(canonical) {
        return false;
    }
    // By bytes (every search result's call name goes through here): runs of
    // wire bytes copied whole, `/` → `__`, any other character (its first
    // byte; continuation bytes 0x80..=0xBF are skipped) → `_`. A run holds
    // ASCII bytes only, so its ends are character boundaries.
    let start = out.len();
    out.reserve(canonical.len() + 8);
    let bytes = canonical.as_bytes();
    let mut run = 0;
    for (i, &b) in bytes.iter().enumerate() {
        if is_wire_byte(b) {
            continue;
        }
        if i > run {
            out.push_str(canonical.get(run..i).unwrap_or_default());
        }
        run = i + 1;
        match b {
            b'/' => out.push_str("__"),
            0x80..=0xbf => {}
            _ => out.push('_'),
        }
    }
    if run < bytes.len() {
        out.push_str(canonical.get(run..).unwrap_or_default());
    }
    let len = out.len() - start;
    if len > 64 || len == 0 {
        let t = tagged(&out[start..], canonical, 0);
        out.truncate(start);
        out.push_str(&t);
    }
    true
}

/// `base` cut to 55 bytes plus `_` and 8 hex digits of a hash of `canonical` (and `round`).
fn tagged(base: &str, canonical: &str, round: u32) -> String {
    let mut input = canonical.as_bytes().to_vec();
    if round > 0 {
        input.extend_from_slice(format!("#{round}").as_bytes());
    }
    let mut s = base.to_string();
    s.truncate(55);
    format!("{s}_{}", hex(&sha256(&input)[..4]))
}

/// True when no tool may be exported under `wire` other than a tool whose
/// canonical name it is: the runtime's reserved names and handle-like names.
fn is_reserved_wire(wire: &str) -> bool {
    meaning(wire).is_some() || wire.starts_with(HANDLE_PREFIX)
}

/// The wire names that differ from [`wire_name`]: for every registered tool
/// whose canonical name is not provider-safe (the rule; a safe canonical
/// name is always its own wire name). `names` are all registered canonical
/// names in sorted order and `is_registered` says whether a string is a
/// registered name or alias.
///
/// A tool gets its preferred [`wire_name`] only when that is no registered
/// name or alias, no other tool's preferred wire name, no reserved name and
/// not handle-like; otherwise (the tools listed here) the first hash-tagged
/// form that is none of those and not yet given out. The result depends only
/// on the registry, so a wire name stands for one tool in every export of one
/// registry version.
pub fn wire_names<'a>(
    names: impl Iterator<Item = &'a str>,
    is_registered: &dyn Fn(&str) -> bool,
) -> BTreeMap<String, String> {
    let bases: Vec<(&str, String)> = names
        .filter(|n| !is_provider_safe(n))
        .map(|n| (n, wire_name(n)))
        .collect();
    let mut preferred: BTreeMap<&str, usize> = BTreeMap::new();
    for (_, base) in &bases {
        *preferred.entry(base.as_str()).or_default() += 1;
    }
    let tagged = bases.iter().filter(|(_, base)| {
        let sharing = preferred.get(base.as_str()).copied().unwrap_or(0);
        wire_contested(base, sharing, is_registered)
    });
    tag_wire_names(
        tagged.map(|(canonical, base)| (*canonical, base.as_str())),
        is_registered,
        &|w| preferred.contains_key(w),
    )
}

/// True when a tool whose preferred wire name is `base` does not get it
/// ([`wire_names`]' rule): `sharing` tools prefer `base` (this one
/// included), or `base` is a registered name or alias, reserved or
/// handle-like.
pub fn wire_contested(base: &str, sharing: usize, is_registered: &dyn Fn(&str) -> bool) -> bool {
    sharing != 1 || is_registered(base) || is_reserved_wire(base)
}

/// The hash-tagged wire names of `contested` ((canonical, preferred wire
/// name) in canonical-name order, each one [`wire_contested`] says does not
/// keep its preferred name): the first tagged form of each that is no
/// registered name or alias, reserved, anyone's preferred name
/// (`is_preferred`) or already given out. The second half of [`wire_names`],
/// for a registry that keeps its contested names up to date itself.
pub fn tag_wire_names<'a>(
    contested: impl Iterator<Item = (&'a str, &'a str)>,
    is_registered: &dyn Fn(&str) -> bool,
    is_preferred: &dyn Fn(&str) -> bool,
) -> BTreeMap<String, String> {
    let clear = |w: &str| !is_registered(w) && !is_reserved_wire(w);
    let mut used: std::collections::BTreeSet<String> = std::collections::BTreeSet::new();
    let mut tagged_names = BTreeMap::new();
    for (canonical, base) in contested {
        // A handle-like base stays handle-like when tagged: step off the prefix.
        // (Never in `used` untagged: tags avoid every preferred name.)
        let stem = match base.strip_prefix(HANDLE_PREFIX) {
            Some(rest) => format!("tool_h_{rest}"),
            None => base.to_string(),
        };
        let mut round = 0;
        let wire = loop {
            let w = tagged(&stem, canonical, round);
            if clear(&w) && !is_preferred(&w) && !used.contains(&w) {
                break w;
            }
            round += 1;
        };
        used.insert(wire.clone());
        tagged_names.insert(canonical.to_string(), wire);
    }
    tagged_names
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Appending gives what the owned form gives, after what the buffer held.
    #[test]
    fn push_rewritten_wire_name_appends_the_owned_form() {
        let long = format!("{}/y", "x".repeat(80));
        for name in [
            "a/b",
            "ünï/cödé",
            long.as_str(),
            "é",
            "ok_name",
            "a/b.c-d",
            "日本/語",
        ] {
            let mut out = String::from("pre");
            let pushed = push_rewritten_wire_name(name, &mut out);
            if is_provider_safe(name) {
                assert!(!pushed && out == "pre", "{name}");
            } else {
                assert!(pushed && out == format!("pre{}", wire_name(name)), "{name}");
            }
        }
    }

    #[test]
    fn provider_slugs_are_stable_and_keep_slugs() {
        for id in ["github", "Acme.Tools", "my_server-2"] {
            assert_eq!(provider_slug(id), id);
        }
        assert_eq!(provider_slug("My  Server"), "My-Server");
        assert_eq!(provider_slug(" weather (beta) "), "weather-beta");
        let cafe = provider_slug("Café Tools");
        assert!(
            cafe.starts_with("Caf-Tools-") && is_provider_slug(&cafe),
            "{cafe}"
        );
        assert_ne!(cafe, provider_slug("Cafè Tools"));
        assert_eq!(cafe, provider_slug("Café Tools"));
        let han = provider_slug("天气");
        assert!(han.starts_with("p-") && is_provider_slug(&han), "{han}");
        let long = provider_slug(&"a b".repeat(40));
        assert!(is_provider_slug(&long), "{long}");
    }

    #[test]
    fn meanings_fold_case_and_dashes() {
        assert_eq!(meaning("Run-Tool-Script"), Some(Meaning::LegacyScript));
        assert_eq!(meaning("TOOL_SEARCH"), Some(Meaning::RuntimeTool));
        assert_eq!(meaning("tool_searcher"), None);
        assert_eq!(
            tail_meaning("evil/run_tool_script"),
            Some(Meaning::LegacyScript)
        );
        assert_eq!(
            tail_meaning("bench/tool_search"),
            Some(Meaning::RuntimeTool)
        );
    }

    #[test]
    fn wire_names_are_provider_safe_and_stable() {
        assert_eq!(wire_name("read_file"), "read_file");
        assert_eq!(wire_name("github/create_issue"), "github__create_issue");
        let long = "x".repeat(80);
        let w = wire_name(&long);
        assert!(w.len() <= 64 && w.chars().all(is_wire_char));
        assert_eq!(w, wire_name(&long));
    }

    #[test]
    fn wire_names_by_bytes_are_the_rule_by_characters() {
        // The rule as the doc says it, one character at a time.
        let by_chars = |n: &str| -> String {
            n.chars()
                .map(|c| match c {
                    '/' => "__".to_string(),
                    c if is_wire_char(c) => c.to_string(),
                    _ => "_".to_string(),
                })
                .collect()
        };
        for n in [
            "a/b",
            "github/create_issue",
            "a.b c",
            "naïve/résumé",
            "日本/語",
            "x😀y",
            "/",
            "é",
            "a/b/c-d_e",
            "tab\there",
        ] {
            assert!(!is_provider_safe(n));
            assert_eq!(wire_name(n), by_chars(n), "{n}");
        }
        for n in ["a", "A-b_9", "Ab", &"x".repeat(64)] {
            assert!(is_provider_safe(n), "{n}");
        }
        assert!(!is_provider_safe(&"x".repeat(65)));
        assert!(!is_provider_safe(""));
    }

    #[test]
    fn wire_names_never_take_a_registered_reserved_or_shared_name() {
        let mut names = vec!["a.b", "a:b", "gh.create_issue", "gh_create_issue"];
        names.extend(["tool.search", "toolh.x", "solo/x", "run.tool.script"]);
        names.sort();
        let registered = |w: &str| names.contains(&w);
        let tagged = wire_names(names.iter().copied(), &registered);
        let wire = |n: &str| tagged.get(n).cloned().unwrap_or_else(|| wire_name(n));
        let unsafe_names: Vec<&str> = names
            .iter()
            .copied()
            .filter(|n| !is_provider_safe(n))
            .collect();
        assert_eq!(wire("solo/x"), "solo__x");
        assert!(!tagged.contains_key("solo/x"), "only exceptions are listed");
        let taken = ["a_b", "tool_search", "gh_create_issue", "run_tool_script"];
        let wires: std::collections::BTreeSet<String> =
            unsafe_names.iter().map(|n| wire(n)).collect();
        assert_eq!(wires.len(), unsafe_names.len(), "one-to-one");
        for w in &wires {
            assert!(is_provider_safe(w) && !registered(w) && !taken.contains(&w.as_str()));
            assert!(!w.starts_with("toolh_"), "{w}");
        }
    }
}
