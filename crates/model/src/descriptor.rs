//! Tool descriptors: one normalised shape for every source of tools.
//!
//! Hosts hand tools in as JSON ([`ToolSpec`], camelCase); the registry
//! validates them into [`ToolDescriptor`]s. Skills and slash commands are
//! always catalog-only and hidden from model schemas.

use serde::{Deserialize, Serialize};
use serde_json::Value;
use std::sync::Arc;

/// Where a tool comes from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Source {
    /// Built into the host.
    Native,
    /// A Model Context Protocol server.
    Mcp,
    /// An installed skill (catalog-only).
    Skill,
    /// A slash command (catalog-only).
    SlashCommand,
    /// A browser capability (tabs, page text, …).
    Browser,
    /// A browser-extension capability.
    Extension,
    /// A connected third-party app.
    ConnectedApp,
}

impl Source {
    /// All sources, in their canonical order.
    pub const ALL: [Source; 7] = [
        Source::Native,
        Source::Mcp,
        Source::Skill,
        Source::SlashCommand,
        Source::Browser,
        Source::Extension,
        Source::ConnectedApp,
    ];
    /// The wire name (`slash_command`, …).
    pub fn as_str(self) -> &'static str {
        match self {
            Source::Native => "native",
            Source::Mcp => "mcp",
            Source::Skill => "skill",
            Source::SlashCommand => "slash_command",
            Source::Browser => "browser",
            Source::Extension => "extension",
            Source::ConnectedApp => "connected_app",
        }
    }
    /// Parse a wire name.
    pub fn parse(text: &str) -> Option<Source> {
        Source::ALL.into_iter().find(|s| s.as_str() == text)
    }
    /// Skills and slash commands are never callable through a tool path.
    pub fn is_catalog_only(self) -> bool {
        matches!(self, Source::Skill | Source::SlashCommand)
    }
}

/// Who provides a tool: a stable identity for provenance.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Provider {
    /// Stable provider id chosen by the host (e.g. `github`).
    pub id: String,
    /// Provider kind (e.g. `mcp`, `native`, `extension`).
    #[serde(default)]
    pub kind: String,
    /// Human name.
    #[serde(default)]
    pub display_name: String,
    /// Provider version, e.g. the MCP server's `serverInfo.version`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub version: Option<String>,
    /// Where it came from (package, URL, extension id …).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub origin: Option<String>,
    /// What the provider is for, in its own words (an MCP server's
    /// `serverInfo.description` or `instructions`): searched with the
    /// provider's id and name, so a request that describes the service
    /// without naming it finds its tools.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
}

impl Provider {
    /// A provider known only by its id (its name is the id; no kind, version,
    /// origin or description): what a re-list without provider details names.
    pub fn bare(id: &str) -> Provider {
        Provider {
            id: id.to_string(),
            kind: String::new(),
            display_name: id.to_string(),
            version: None,
            origin: None,
            description: None,
        }
    }
}

/// How far the host trusts a tool's provider.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Trust {
    /// Shipped with the host.
    Builtin,
    /// Reviewed or installed deliberately by the user or operator.
    Trusted,
    /// Third-party, unreviewed.
    Untrusted,
}

impl Trust {
    /// The wire name (`untrusted`, …).
    pub fn as_str(self) -> &'static str {
        match self {
            Trust::Builtin => "builtin",
            Trust::Trusted => "trusted",
            Trust::Untrusted => "untrusted",
        }
    }
}

/// MCP tool annotations (hints, never guarantees).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Annotations {
    /// The tool does not modify its environment.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub read_only_hint: Option<bool>,
    /// The tool may perform destructive updates.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub destructive_hint: Option<bool>,
    /// Repeating the call with the same arguments has no further effect.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub idempotent_hint: Option<bool>,
    /// The tool interacts with an open world of external entities.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub open_world_hint: Option<bool>,
}

/// Whether the model may see a tool at all.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Visibility {
    /// Discoverable by the model.
    ModelVisible,
    /// Never shown to the model.
    Hidden,
}

/// Whether a tool can be called through a tool path.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Invokability {
    /// Callable through the gate.
    Callable,
    /// Listed only; used through its own surface.
    CatalogOnly,
}

/// Whether calls need a host approval.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ApprovalMode {
    /// Ask when the tool is destructive by annotation, otherwise run.
    Auto,
    /// Always ask first.
    Ask,
    /// Never ask (host vouches for the tool).
    Never,
}

/// Special roles the gate and the interpreter must know about.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ToolRole {
    /// An ordinary tool.
    Ordinary,
    /// Delegation or script bridge: never callable from bounded code.
    Bridge,
    /// The legacy `run_tool_script`: ambient process access, always approval-gated.
    LegacyScript,
    /// The runtime's own `run_tool_code`.
    CodeMode,
}

/// Connection status of a provider.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ProviderStatus {
    /// Tools can be called.
    Connected,
    /// The provider went away; its tools are unavailable.
    Disconnected,
    /// The provider needs the user to authenticate.
    NeedsAuth,
}

/// A tool as a host supplies it (wire shape, camelCase).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct ToolSpec {
    /// Canonical name, unique in the registry.
    pub name: String,
    /// Human title.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub title: Option<String>,
    /// Description shown in search summaries and model schemas.
    #[serde(default)]
    pub description: String,
    /// Other names that resolve to this tool.
    #[serde(default)]
    pub aliases: Vec<String>,
    /// Source (`native`, `mcp`, `skill`, `slash_command`, `browser`, `extension`, `connected_app`).
    pub source: String,
    /// Provider identity.
    pub provider: Provider,
    /// The provider's own name for the tool (defaults to `name`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub local_name: Option<String>,
    /// Trust level (default `untrusted`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub trust: Option<Trust>,
    /// Permissions the tool needs (e.g. `fs.read`, `network`).
    #[serde(default)]
    pub permissions: Vec<String>,
    /// Exact input JSON Schema (default: an empty object schema).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub input_schema: Option<Value>,
    /// Optional output JSON Schema.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub output_schema: Option<Value>,
    /// MCP annotations.
    #[serde(default)]
    pub annotations: Annotations,
    /// Visibility (default `model_visible`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub visibility: Option<Visibility>,
    /// Invokability (default `callable`; skills and slash commands are forced catalog-only).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub invokability: Option<Invokability>,
    /// Approval mode (default `auto`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub approval: Option<ApprovalMode>,
    /// Per-tool timeout in milliseconds.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub timeout_ms: Option<u64>,
    /// Role (default `ordinary`; `run_tool_script` is forced `legacy_script`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub role: Option<ToolRole>,
    /// For skills and slash commands: how to use it through its own surface (e.g. `/deploy`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub usage: Option<String>,
}

/// The draft an input schema without `$schema` is read in, when not 2020-12.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct SchemaDialect {
    /// `draft-04`, `draft-06`, `draft-07` or `2019-09`.
    pub draft: String,
    /// Why: what 2020-12 refuses, and where.
    pub reason: String,
}

/// A validated, normalised tool in the registry.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ToolDescriptor {
    /// Canonical name.
    pub name: String,
    /// Provider-local name.
    pub local_name: String,
    /// Human title (falls back to the name).
    pub title: String,
    /// Description.
    pub description: String,
    /// Aliases, sorted and de-duplicated.
    pub aliases: Vec<String>,
    /// Source.
    pub source: Source,
    /// Provider identity.
    pub provider: Provider,
    /// Trust level.
    pub trust: Trust,
    /// Required permissions, sorted and de-duplicated.
    pub permissions: Vec<String>,
    /// Exact input schema as supplied (key order preserved; one shared copy per distinct schema).
    pub input_schema: Arc<Value>,
    /// Optional output schema, exactly as supplied (one shared copy per distinct schema).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub output_schema: Option<Arc<Value>>,
    /// MCP annotations.
    pub annotations: Annotations,
    /// Visibility.
    pub visibility: Visibility,
    /// Invokability.
    pub invokability: Invokability,
    /// Approval mode.
    pub approval: ApprovalMode,
    /// Per-tool timeout in ms.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub timeout_ms: Option<u64>,
    /// Role.
    pub role: ToolRole,
    /// Usage hint for catalog-only entries.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub usage: Option<String>,
    /// `sha256:` digest of the canonical input schema.
    pub schema_hash: String,
    /// True when the host gave no (or a `null`) input schema and the runtime
    /// put in `{"type": "object", "properties": {}}` (any object).
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub schema_missing: bool,
    /// Set when the input schema declares no `$schema`, is invalid as
    /// 2020-12 (MCP's default) and is read in an older draft whose forms it
    /// uses (`core/src/dialect.rs`). Not versioned: the schema's digest is.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub dialect: Option<SchemaDialect>,
    /// `sha256:` digest of the descriptor's versioned content.
    pub version: String,
}

impl ToolDescriptor {
    /// `provider/local_name`, the provider-qualified name policies can use.
    pub fn qualified_name(&self) -> String {
        format!("{}/{}", self.provider.id, self.local_name)
    }
    /// True when calls must be approved by the host first: `approval: ask`
    /// (which validation sets for every legacy script, `core/src/validate.rs`),
    /// or `auto` with a destructive hint.
    pub fn asks_first(&self) -> bool {
        match self.approval {
            ApprovalMode::Ask => true,
            ApprovalMode::Never => false,
            ApprovalMode::Auto => self.annotations.destructive_hint == Some(true),
        }
    }
    /// True for tools bounded code may not call (nesting depth one).
    pub fn is_bridge(&self) -> bool {
        self.role != ToolRole::Ordinary
    }
    /// True for skills, slash commands and other catalog-only entries.
    pub fn is_catalog_only(&self) -> bool {
        self.invokability == Invokability::CatalogOnly
    }
    /// The first line of the description, at most 160 chars.
    pub fn summary(&self) -> String {
        summary_of(&self.description)
    }
    /// [`ToolDescriptor::summary`] as its text and whether `...` follows (no copy).
    pub fn summary_parts(&self) -> (&str, bool) {
        SummarySpan::of(&self.description).parts(&self.description)
    }
}

/// Where a tool's summary lies in its description (see `summary_of`):
/// found once when the tool is indexed, so a search result copies it
/// without walking the description again.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct SummarySpan {
    start: u32,
    end: u32,
    /// `...` follows (the line was cut).
    cut: bool,
}

packed!(SummarySpan { start, end, cut });
packed!(Provider {
    id,
    kind,
    display_name,
    version,
    origin,
    description
});

// How a snapshot keeps the descriptor's enums (`core/src/snapshot`): by position.
packed_enum!(Source {
    Native,
    Mcp,
    Skill,
    SlashCommand,
    Browser,
    Extension,
    ConnectedApp
});
packed_enum!(Trust {
    Builtin,
    Trusted,
    Untrusted
});
packed_enum!(Visibility {
    ModelVisible,
    Hidden
});
packed_enum!(Invokability {
    Callable,
    CatalogOnly
});
packed_enum!(ApprovalMode { Auto, Ask, Never });
packed_enum!(ToolRole {
    Ordinary,
    Bridge,
    LegacyScript,
    CodeMode
});
packed_enum!(ProviderStatus {
    Connected,
    Disconnected,
    NeedsAuth
});

impl SummarySpan {
    /// The span of `description`'s summary.
    pub fn of(description: &str) -> SummarySpan {
        let Some(first) = description.lines().find(|l| !l.trim().is_empty()) else {
            return SummarySpan::default();
        };
        let line = first.trim();
        // `line` is a slice of `description`: its offset is a pointer difference.
        let start = line.as_ptr() as usize - description.as_ptr() as usize;
        let span = |len: usize, cut: bool| SummarySpan {
            start: start as u32,
            end: (start + len) as u32,
            cut,
        };
        if line.len() <= 160 {
            return span(line.len(), false);
        }
        // ASCII first 161 bytes (the common case): 161 characters at least, and
        // character 157 starts at byte 157, with no walk over the characters.
        let end = if line.as_bytes()[..=160].is_ascii() {
            157
        } else if line.char_indices().nth(160).is_none() {
            return span(line.len(), false);
        } else {
            line.char_indices().nth(157).map_or(line.len(), |(i, _)| i)
        };
        span(line[..end].trim_end().len(), true)
    }

    /// The summary of `description` (the one the span was found in) as its
    /// text and whether `...` follows (the line was cut).
    pub fn parts(self, description: &str) -> (&str, bool) {
        let text = description
            .get(self.start as usize..self.end as usize)
            .unwrap_or_default();
        (text, self.cut)
    }

    /// The summary text of `description` (the one the span was found in).
    pub fn text(self, description: &str) -> String {
        let (text, cut) = self.parts(description);
        summary_text(text, cut)
    }
}

/// A summary's text from its [`SummarySpan::parts`]: `text`, then `...` when cut.
pub fn summary_text(text: &str, cut: bool) -> String {
    let mut out = String::with_capacity(text.len() + if cut { 3 } else { 0 });
    out.push_str(text);
    if cut {
        out.push_str("...");
    }
    out
}

/// The first non-blank line of `description`, trimmed, cut to 157 chars
/// plus `...` when longer than 160. Cut by byte offset, with no copy per
/// character: this runs for every search result.
fn summary_of(description: &str) -> String {
    SummarySpan::of(description).text(description)
}

#[cfg(test)]
mod tests {
    use super::{summary_of, Source, Trust};

    #[test]
    fn wire_names_are_the_serde_names() {
        let json = |v: serde_json::Value| v.as_str().map(str::to_string);
        for s in Source::ALL {
            assert_eq!(json(serde_json::json!(s)).as_deref(), Some(s.as_str()));
        }
        for t in [Trust::Builtin, Trust::Trusted, Trust::Untrusted] {
            assert_eq!(json(serde_json::json!(t)).as_deref(), Some(t.as_str()));
        }
    }

    /// The per-character form `summary_of` replaced.
    fn reference(description: &str) -> String {
        let first = description.lines().find(|l| !l.trim().is_empty());
        let line = first.unwrap_or("").trim();
        if line.chars().count() <= 160 {
            line.to_string()
        } else {
            let cut: String = line.chars().take(157).collect();
            format!("{}...", cut.trim_end())
        }
    }

    #[test]
    fn summaries_cut_as_the_per_character_form_did() {
        let mut texts = vec![String::new(), "\n \n  Read a file.\nMore".to_string()];
        for unit in ["a", "é", "東", "a ", "🙂", " "] {
            for n in [100, 155, 156, 157, 158, 159, 160, 161, 162, 400] {
                texts.push(unit.repeat(n));
                texts.push(format!(
                    "{}{}x\nsecond",
                    "b".repeat(150),
                    unit.repeat(n % 13)
                ));
            }
        }
        for t in &texts {
            assert_eq!(summary_of(t), reference(t), "{t:?}");
        }
    }
}
