//! The model tool formats a session exports to and reads calls from.

use serde::{Deserialize, Serialize};

/// A model tool format.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Format {
    /// Anthropic Messages API `tools`.
    Anthropic,
    /// OpenAI Chat Completions `tools`.
    OpenaiChat,
    /// OpenAI Responses API `tools`.
    OpenaiResponses,
    /// MCP `Tool` objects (`tools/list`).
    Mcp,
}

impl Format {
    /// All formats.
    pub const ALL: [Format; 4] = [
        Format::Anthropic,
        Format::OpenaiChat,
        Format::OpenaiResponses,
        Format::Mcp,
    ];
}
