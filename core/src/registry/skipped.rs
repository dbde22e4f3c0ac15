//! Skipped tools: what a provider listed that the runtime refused, kept so
//! operators see it.
//!
//! A provider re-list that skips ([`crate::registry::Update::skip_refused`])
//! registers every tool the registry accepts and keeps each refused one as a
//! [`SkippedTool`]: the name it would have had, the name the provider gave,
//! the refusal's stable code, field and message, and the next safe action.
//! The registry keeps them per provider, replaced by the provider's next
//! re-list and dropped with the provider. They are not tools: the model
//! never sees them, so they are not part of the registry version (a re-list
//! that only changes what was skipped is no registry change); the Capability
//! Center shows each as an `unavailable.skipped` row
//! ([`crate::availability::skipped`]) and the runtime records one
//! `tool_skipped` activity record per newly skipped tool
//! ([`crate::activity::ActivityRecord::skipped`]).

use holaryn_model::Code;
use holaryn_model::Error;
use holaryn_model::MAX_NAME_BYTES;
use holaryn_model::{Provider, ToolDescriptor, ToolSpec, Trust};
use serde::Serialize;

/// A tool a provider listed that was not registered, and why.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct SkippedTool {
    /// The canonical name it would have had (`provider/name` when qualified);
    /// `#N`, its position in the list, when it had no string name. Names
    /// longer than a tool name may be are cut (ending in `…`).
    pub name: String,
    /// The name as the provider gave it, when it gave a string (cut likewise).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub local_name: Option<String>,
    /// The provider that listed it.
    pub provider: Provider,
    /// The source its siblings get (`mcp` for an MCP server).
    pub source: String,
    /// The trust its siblings get.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub trust: Option<Trust>,
    /// The refusal's stable code (`descriptor.invalid_name`, `catalog.malformed`, …).
    pub code: Code,
    /// The descriptor field refused (`name`, `inputSchema`, `aliases[1]`), when one was.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub field: Option<String>,
    /// The JSON pointer of the refused value (into the field's schema, or
    /// into the catalog file for an entry that is no tool), when known.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pointer: Option<String>,
    /// What was wrong, in words (for the operator; never copied into activity).
    pub message: String,
    /// The next safe action ("fix the tool on the server: …").
    pub next_action: String,
}

holaryn_model::packed!(SkippedTool {
    name,
    local_name,
    provider,
    source,
    trust,
    code,
    field,
    pointer,
    message,
    next_action,
});

/// What names a listed tool, taken before it is validated (its schemas are
/// not copied), so a refusal can be kept as a [`SkippedTool`].
#[derive(Debug, Clone)]
pub struct Listing {
    name: String,
    local_name: Option<String>,
    provider: Provider,
    source: String,
    trust: Option<Trust>,
}

impl Listing {
    /// A spec about to be validated.
    pub fn of_spec(spec: &ToolSpec) -> Self {
        Listing {
            name: spec.name.clone(),
            local_name: Some(spec.local_name.clone().unwrap_or_else(|| spec.name.clone())),
            provider: spec.provider.clone(),
            source: spec.source.clone(),
            trust: spec.trust,
        }
    }

    /// A validated descriptor that a batch-wide check refused (a duplicate or an alias clash).
    pub fn of_descriptor(d: &ToolDescriptor) -> Self {
        Listing {
            name: d.name.clone(),
            local_name: Some(d.local_name.clone()),
            provider: d.provider.clone(),
            source: d.source.as_str().to_string(),
            trust: Some(d.trust),
        }
    }

    /// A catalog entry (at `index`) that is no tool at all: not an object, or no string name.
    pub fn of_entry(index: usize, provider: &Provider, source: &str, trust: Option<Trust>) -> Self {
        Listing {
            name: format!("#{index}"),
            local_name: None,
            provider: provider.clone(),
            source: source.to_string(),
            trust,
        }
    }

    /// A tool spec value (at `index`) of `provider`'s list, before it is read
    /// as a spec: its string `name` and `source` when it has them (`native`
    /// otherwise), else `#index`.
    pub fn of_value(index: usize, value: &serde_json::Value, provider: &Provider) -> Self {
        let text = |key: &str| value.get(key).and_then(serde_json::Value::as_str);
        let name = text("name").map(str::to_string);
        Listing {
            name: name.clone().unwrap_or_else(|| format!("#{index}")),
            local_name: name,
            provider: provider.clone(),
            source: text("source").unwrap_or("native").to_string(),
            trust: None,
        }
    }

    /// The listed tool, skipped because of `e`.
    pub fn skip(self, e: &Error) -> SkippedTool {
        SkippedTool {
            name: cut(&self.name),
            local_name: self.local_name.as_deref().map(cut),
            provider: self.provider,
            source: self.source,
            trust: self.trust,
            code: e.code,
            field: e.field.clone(),
            pointer: e.pointer.clone(),
            message: e.message.clone(),
            next_action: e.next_action.clone().unwrap_or_else(|| fix(e)),
        }
    }
}

/// The fix on the provider's side for a refusal.
fn fix(e: &Error) -> String {
    let what = match e.code {
        Code::DescriptorInvalidName => {
            format!("give it a name of at most {MAX_NAME_BYTES} bytes without whitespace or control characters")
        }
        Code::DescriptorInvalidSchema => format!(
            "make its {} a valid JSON Schema the runtime can compile",
            e.field.as_deref().unwrap_or("schema")
        ),
        Code::DescriptorReservedName => "rename it: the runtime reserves that name".into(),
        Code::DescriptorDuplicateName => "give it a name no other tool has".into(),
        Code::DescriptorAliasCollision => "give it aliases no other tool uses".into(),
        Code::CatalogMalformed => "list it as an object with a string `name`".into(),
        _ => match &e.field {
            Some(f) => format!("correct its `{f}`"),
            None => "correct its descriptor".into(),
        },
    };
    format!("fix the tool on the server: {what}; its other tools are registered")
}

/// `text` cut to at most [`MAX_NAME_BYTES`] bytes (on a char boundary, `…` appended).
fn cut(text: &str) -> String {
    if text.len() <= MAX_NAME_BYTES {
        return text.to_string();
    }
    let mut end = MAX_NAME_BYTES;
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    format!("{}…", &text[..end])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn long_names_are_cut_on_a_char_boundary() {
        let long = "é".repeat(100);
        let c = cut(&long);
        assert!(c.ends_with('…'));
        assert!(c.len() <= MAX_NAME_BYTES + '…'.len_utf8());
        assert_eq!(cut("short"), "short");
    }
}
