//! Policy entry patterns: the grammar every scope's entries share.
//!
//! Grammar (the same text is in `schemas/tool-policy.schema.json`):
//!
//! ```text
//! entry   := "*"                    every tool
//!          | source ":" name        only tools of that source
//!          | name
//! name    := NAME                   exact
//!          | NAME "*"               prefix wildcard (trailing `*` only)
//!          | "*"                    any name (only useful after a source)
//! source  := native | mcp | skill | slash_command | browser | extension | connected_app
//! NAME    := 1+ characters, none of them whitespace, a control character,
//!            U+FEFF, `*` or `:`
//! ```
//!
//! At most [`MAX_PATTERN_CHARS`] characters (Unicode scalar values, as JSON
//! Schema's `maxLength` counts). Anything else is a validation error:
//! an empty entry, whitespace, `*` anywhere but the end (so `**`, `a*b`,
//! `*x`), an unknown source (`plugin:*`), a missing name (`mcp:`), a second
//! `:`. A lone `*` is allowed and means every tool. Matching is exact and
//! case-sensitive.
//!
//! **What a name is compared with.** A tool matches when the name equals
//! (or, with `*`, prefixes) the tool's canonical name or any of its aliases;
//! an entry containing `/` is also compared with the provider-qualified name
//! `provider/local_name` (so `github/*` is every tool of provider `github`,
//! while `gh*` does *not* catch every tool of a provider `ghost`). Naming an
//! alias therefore names the tool behind it: denying `cat` denies
//! `read_file`, all of its other aliases and every handle to it. This is the
//! same as resolving the entry through the registry (an alias belongs to
//! exactly one tool) but needs no registry, so it never goes stale when the
//! catalog changes. Tool names containing `:` or `*` can only be reached
//! through an alias, their qualified name or a wildcard.
//!
//! **Provider names as written.** Provider ids that come from outside (a
//! gateway server's name, a catalog's server) are slugs of the name as
//! written ([`holaryn_model::provider_slug`]: `Café Tools` is provider
//! `Caf-Tools-…`, `weather(beta)` is `weather-beta`). An entry whose part
//! before the first `/` is literal (no `*`) and not a slug also matches as if
//! that part were slugged by the same rule, so `weather(beta)/*` names the
//! tools of the server configured as `weather(beta)`; the entry as written
//! still matches too (a tool registered with such a provider id directly).
//! Whitespace stays refused (the grammar is unchanged); the message names
//! the slug to write instead.

use holaryn_model::{is_provider_slug, provider_slug, Error, ErrorCode};
use holaryn_model::{Source, ToolDescriptor};
use std::fmt;

/// Longest entry, in characters.
pub const MAX_PATTERN_CHARS: usize = 256;

/// The name part of an entry.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub(crate) enum Name {
    /// `*`: every name.
    Any,
    /// An exact name.
    Exact(String),
    /// `prefix*`.
    Prefix(String),
}

/// One parsed policy entry; displays (and serialises) as its original text.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Pattern {
    text: String,
    source: Option<Source>,
    name: Name,
    /// The name contains `/`: also compare with the provider-qualified name.
    qualified: bool,
    /// The name with its literal provider part slugged, when that differs.
    slugged: Option<Name>,
}

/// `name` with the part before its first `/` slugged, when that part is
/// literal and not already a slug.
fn slugged(name: &Name) -> Option<Name> {
    let (text, rebuild): (&str, fn(String) -> Name) = match name {
        Name::Any => return None,
        Name::Exact(n) => (n, Name::Exact),
        Name::Prefix(p) => (p, Name::Prefix),
    };
    let (provider, rest) = text.split_once('/')?;
    if provider.is_empty() || is_provider_slug(provider) {
        return None;
    }
    Some(rebuild(format!("{}/{rest}", provider_slug(provider))))
}

fn forbidden(c: char) -> bool {
    c.is_whitespace() || c.is_control() || c == '\u{feff}'
}

impl Pattern {
    /// Parse an entry; `Err` says, for a human, what is wrong with it.
    pub fn parse(text: &str) -> Result<Pattern, String> {
        if text.is_empty() {
            return Err("an entry may not be empty (use `*` for every tool)".into());
        }
        let chars = text.chars().count();
        if chars > MAX_PATTERN_CHARS {
            return Err(format!(
                "an entry is {chars} characters long; at most {MAX_PATTERN_CHARS} are allowed"
            ));
        }
        if let Some(c) = text.chars().find(|c| forbidden(*c)) {
            let hint = match text.split_once('/') {
                Some((provider, rest))
                    if !provider.contains(['*', ':'])
                        && !provider.trim().is_empty()
                        && !rest.chars().any(forbidden) =>
                {
                    format!(
                        "; a provider named `{provider}` has the id `{}` (write `{}/{rest}`)",
                        provider_slug(provider),
                        provider_slug(provider)
                    )
                }
                _ => String::new(),
            };
            return Err(format!(
                "`{}` contains whitespace or a control character ({c:?}){hint}",
                text.escape_debug()
            ));
        }
        let (source, rest) = match text.split_once(':') {
            Some((s, rest)) => match Source::parse(s) {
                Some(src) => (Some(src), rest),
                None => {
                    return Err(format!(
                        "`{s}` in `{text}` is not a source (one of native, mcp, skill, slash_command, browser, extension, connected_app)"
                    ))
                }
            },
            None => (None, text),
        };
        if rest.contains(':') {
            return Err(format!("`{text}` has more than one `:`"));
        }
        let name = match rest.find('*') {
            None if rest.is_empty() => {
                return Err(format!(
                    "`{text}` has no name after the source (use `{text}*` for the whole source)"
                ))
            }
            None => Name::Exact(rest.to_string()),
            Some(_) if rest.contains("**") => {
                return Err(format!(
                    "`{text}`: `**` is not allowed; use one trailing `*`"
                ))
            }
            Some(i) if i + 1 != rest.len() => {
                return Err(format!("`{text}`: `*` is only allowed at the end"))
            }
            Some(0) => Name::Any,
            Some(i) => Name::Prefix(rest[..i].to_string()),
        };
        Ok(Pattern {
            text: text.to_string(),
            source,
            qualified: rest.contains('/'),
            slugged: slugged(&name),
            name,
        })
    }

    /// The original text.
    pub fn as_str(&self) -> &str {
        &self.text
    }

    /// The source restriction (`mcp:` in `mcp:*`), if any.
    pub fn source(&self) -> Option<Source> {
        self.source
    }

    /// The name when the entry has no wildcard (`read_file`, `mcp:read_file`).
    pub fn exact_name(&self) -> Option<&str> {
        match &self.name {
            Name::Exact(n) => Some(n),
            _ => None,
        }
    }

    /// True when the entry ends in `*` (a lone `*` included).
    pub fn is_wildcard(&self) -> bool {
        !matches!(self.name, Name::Exact(_))
    }

    pub(crate) fn name(&self) -> &Name {
        &self.name
    }

    /// The name with its provider part slugged ([`provider_slug`]), when the
    /// entry's provider part is literal and not a slug.
    pub(crate) fn slugged_name(&self) -> Option<&Name> {
        self.slugged.as_ref()
    }

    /// Does this entry match the tool (canonical name, alias or qualified
    /// name), as written or with its provider part slugged?
    pub fn matches(&self, tool: &ToolDescriptor) -> bool {
        if self.source.is_some_and(|s| s != tool.source) {
            return false;
        }
        self.name_matches(&self.name, tool)
            || self
                .slugged
                .as_ref()
                .is_some_and(|n| self.name_matches(n, tool))
    }

    fn name_matches(&self, name: &Name, tool: &ToolDescriptor) -> bool {
        let hit = |candidate: &str| match name {
            Name::Any => true,
            Name::Exact(n) => candidate == n,
            Name::Prefix(p) => candidate.starts_with(p.as_str()),
        };
        match name {
            Name::Any => true,
            Name::Exact(_) | Name::Prefix(_) => {
                hit(&tool.name)
                    || tool.aliases.iter().any(|a| hit(a))
                    || (self.qualified && matches_qualified(name, tool))
            }
        }
    }
}

/// Compare `name` with `provider/local_name` without allocating it.
fn matches_qualified(name: &Name, tool: &ToolDescriptor) -> bool {
    let (id, local) = (tool.provider.id.as_str(), tool.local_name.as_str());
    match name {
        Name::Any => true,
        Name::Exact(n) => {
            n.len() == id.len() + 1 + local.len()
                && n.starts_with(id)
                && n[id.len()..].starts_with('/')
                && n.ends_with(local)
        }
        Name::Prefix(p) => {
            if p.len() <= id.len() {
                id.starts_with(p.as_str())
            } else {
                p.starts_with(id)
                    && p[id.len()..].starts_with('/')
                    && local.starts_with(&p[id.len() + 1..])
            }
        }
    }
}

impl fmt::Display for Pattern {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.text)
    }
}

impl std::str::FromStr for Pattern {
    type Err = Error;
    /// Parse an entry; a bad one is `policy.malformed`.
    fn from_str(text: &str) -> Result<Pattern, Error> {
        Pattern::parse(text).map_err(|m| Error::new(ErrorCode::PolicyMalformed, m))
    }
}

impl serde::Serialize for Pattern {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&self.text)
    }
}

impl<'de> serde::Deserialize<'de> for Pattern {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Pattern, D::Error> {
        let text = String::deserialize(d)?;
        Pattern::parse(&text).map_err(serde::de::Error::custom)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn grammar_accepts_and_rejects() {
        for ok in [
            "*",
            "read_file",
            "github/*",
            "read_*",
            "mcp:*",
            "browser:tab_*",
            "github/create_issue",
            "native:read_file",
            "é_tool",
        ] {
            assert!(Pattern::parse(ok).is_ok(), "{ok}");
        }
        for bad in [
            "",
            " x",
            "x ",
            "a*b",
            "**",
            "*x",
            "plugin:*",
            "mcp:",
            ":x",
            "a:b:c",
            "x\ty",
            "mcp:**",
            "x\u{feff}",
        ] {
            assert!(Pattern::parse(bad).is_err(), "{bad:?}");
        }
        assert!(Pattern::parse(&"é".repeat(MAX_PATTERN_CHARS)).is_ok());
        assert!(Pattern::parse(&"a".repeat(MAX_PATTERN_CHARS + 1)).is_err());
    }

    #[test]
    fn displays_as_written() {
        for text in ["mcp:*", "github/create_issue", "*"] {
            let p = Pattern::parse(text).expect("valid");
            assert_eq!(p.to_string(), text);
        }
    }
}
