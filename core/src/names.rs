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
//!   and role `code_mode` are the runtime's own.
//!
//! Refusals are `descriptor.reserved_name`, naming the tool and the field.

use crate::builtin::{RUN_TOOL_CODE, TOOL_INSPECT, TOOL_LIST, TOOL_SEARCH};
use crate::descriptor::{ToolRole, ToolSpec, RUN_TOOL_SCRIPT};
use crate::error::{Error, ErrorCode, Result};

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
    if spec.provider.id == RUNTIME_PROVIDER {
        return Err(reserved(
            tool,
            "provider.id",
            format!("provider id `{RUNTIME_PROVIDER}` is reserved for the runtime's own tools"),
        ));
    }
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

#[cfg(test)]
mod tests {
    use super::*;

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
}
