//! Policy entry patterns.
//!
//! Grammar (also in `schemas/tool-policy.schema.json`):
//!
//! ```text
//! entry   := "*" | source ":" name | name
//! name    := NAME | NAME "*" | "*"          (a trailing `*` is a prefix wildcard)
//! source  := native | mcp | skill | slash_command | browser | extension | connected_app
//! NAME    := one or more characters, none of them whitespace, control, `*` or `:`
//! ```
//!
//! A name matches a tool when it equals (or, with `*`, prefixes) the tool's
//! canonical name, any of its aliases, or its provider-qualified name
//! `provider/local_name` — so naming an alias catches the canonical tool and
//! every other alias and handle of it. At most 256 bytes per entry.

use crate::descriptor::{Source, ToolDescriptor};
use std::fmt;

/// Longest entry, in bytes.
pub const MAX_PATTERN_BYTES: usize = 256;

#[derive(Debug, Clone, PartialEq, Eq)]
enum Name {
    Any,
    Exact(String),
    Prefix(String),
}

/// One parsed policy entry; displays as its original text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Pattern {
    text: String,
    source: Option<Source>,
    name: Name,
}

impl Pattern {
    /// Parse an entry; `Err` says what is wrong with it.
    pub fn parse(text: &str) -> Result<Pattern, String> {
        if text.is_empty() {
            return Err("an entry is empty".into());
        }
        if text.len() > MAX_PATTERN_BYTES {
            return Err(format!("an entry is longer than {MAX_PATTERN_BYTES} bytes"));
        }
        if text.chars().any(|c| c.is_whitespace() || c.is_control()) {
            return Err(format!(
                "`{text}` contains whitespace or a control character"
            ));
        }
        let (source, rest) = match text.split_once(':') {
            Some((s, rest)) => match Source::parse(s) {
                Some(src) => (Some(src), rest),
                None => return Err(format!("`{s}` in `{text}` is not a source (native, mcp, skill, slash_command, browser, extension, connected_app)")),
            },
            None => (None, text),
        };
        if rest.contains(':') {
            return Err(format!("`{text}` has more than one `:`"));
        }
        let name = match rest.find('*') {
            None if rest.is_empty() => {
                return Err(format!("`{text}` has no name after the source"))
            }
            None => Name::Exact(rest.to_string()),
            Some(i) if i + 1 != rest.len() => {
                return Err(format!("`{text}`: `*` is only allowed at the end"))
            }
            Some(0) => Name::Any,
            Some(i) => Name::Prefix(rest[..i].to_string()),
        };
        Ok(Pattern {
            text: text.to_string(),
            source,
            name,
        })
    }

    /// The original text.
    pub fn as_str(&self) -> &str {
        &self.text
    }

    /// True for an exact name without wildcard or source.
    pub fn exact_name(&self) -> Option<&str> {
        match (&self.source, &self.name) {
            (None, Name::Exact(n)) => Some(n),
            _ => None,
        }
    }

    /// Does this entry match the tool?
    pub fn matches(&self, tool: &ToolDescriptor) -> bool {
        if self.source.is_some_and(|s| s != tool.source) {
            return false;
        }
        let hit = |candidate: &str| match &self.name {
            Name::Any => true,
            Name::Exact(n) => candidate == n,
            Name::Prefix(p) => candidate.starts_with(p.as_str()),
        };
        if hit(&tool.name) || tool.aliases.iter().any(|a| hit(a)) {
            return true;
        }
        match &self.name {
            Name::Any => true,
            Name::Exact(n) => {
                n.len() == tool.provider.id.len() + 1 + tool.local_name.len()
                    && n.starts_with(tool.provider.id.as_str())
                    && n.as_bytes().get(tool.provider.id.len()) == Some(&b'/')
                    && n.ends_with(tool.local_name.as_str())
            }
            Name::Prefix(_) => hit(&tool.qualified_name()),
        }
    }
}

impl fmt::Display for Pattern {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.text)
    }
}

impl serde::Serialize for Pattern {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&self.text)
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
        ] {
            assert!(Pattern::parse(ok).is_ok(), "{ok}");
        }
        for bad in ["", " x", "a*b", "**", "plugin:*", "mcp:", "a:b:c", "x\ty"] {
            assert!(Pattern::parse(bad).is_err(), "{bad}");
        }
    }
}
