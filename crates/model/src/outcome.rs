//! Call outcomes: what the gate says happened, with stable codes.

use crate::codes::Code;
use serde::{Deserialize, Serialize};
use serde_json::Value;

/// How a call reached the gate.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum CallPath {
    /// A model call by canonical name.
    Direct,
    /// A model call by alias.
    Alias,
    /// A model call by opaque handle.
    Handle,
    /// The legacy `run_tool_script` tool.
    LegacyScript,
    /// An inner call of bounded code mode.
    Code,
}

impl CallPath {
    /// Wire name.
    pub fn as_str(self) -> &'static str {
        match self {
            CallPath::Direct => "direct",
            CallPath::Alias => "alias",
            CallPath::Handle => "handle",
            CallPath::LegacyScript => "legacy_script",
            CallPath::Code => "code",
        }
    }
}

/// The gate step a call stopped at (or finished after).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Stage {
    /// 1. resolve through the current registry.
    Resolve,
    /// 2. governance: the session's policy now.
    Governance,
    /// 3. schema loaded in this (dynamic) session.
    Schema,
    /// 4. argument validation against the exact schema.
    Validation,
    /// 5. lifecycle hook `before`.
    HookBefore,
    /// 6. host approval.
    Approval,
    /// 7. execution.
    Execute,
    /// 8a. lifecycle hook `after`.
    HookAfter,
    /// 8b. output size cap and screening.
    Screen,
    /// 9. finished and recorded.
    Done,
}

impl Stage {
    /// Wire name, e.g. `hook_before`.
    pub fn as_str(self) -> &'static str {
        match self {
            Stage::Resolve => "resolve",
            Stage::Governance => "governance",
            Stage::Schema => "schema",
            Stage::Validation => "validation",
            Stage::HookBefore => "hook_before",
            Stage::Approval => "approval",
            Stage::Execute => "execute",
            Stage::HookAfter => "hook_after",
            Stage::Screen => "screen",
            Stage::Done => "done",
        }
    }
}

/// Final status of a call.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum CallStatus {
    /// Executed; output returned.
    Ok,
    /// Refused before execution (unknown, forged, stale, denied, not loaded, invalid).
    Refused,
    /// A lifecycle hook vetoed the call.
    Vetoed,
    /// The host's approval was denied.
    ApprovalDenied,
    /// Cut off: execution passed its timeout (the AbortSignal fired), a wait
    /// for the host ran out, or a bounded-code run's deadline came first
    /// (`executed` says whether the tool was reached).
    TimedOut,
    /// The host cancelled the call.
    Cancelled,
    /// The tool reported an error.
    Failed,
    /// The output exceeded the size cap.
    OutputTooLarge,
    /// Output screening blocked the output.
    Blocked,
}

/// One argument validation error.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ArgError {
    /// JSON pointer into the arguments.
    pub pointer: String,
    /// What is wrong.
    pub message: String,
}

/// The outcome of one call through the gate.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct CallOutcome {
    /// Per-session call id.
    pub call_id: String,
    /// Final status.
    pub status: CallStatus,
    /// Stable code (`ok`, `policy.denied`, `handle.stale`, `args.invalid`, …).
    pub code: Code,
    /// Human message for the model or operator.
    pub message: String,
    /// The stage it stopped at.
    pub stage: Stage,
    /// Canonical tool, when it resolved.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tool: Option<String>,
    /// How the call arrived.
    pub path: CallPath,
    /// Output, when `ok` (or the bounded-code result for `run_tool_code`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub output: Option<Value>,
    /// Execution time in ms (0 when it never executed).
    pub duration_ms: u64,
    /// Bytes of output JSON.
    pub output_bytes: u64,
    /// Argument validation errors.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub errors: Vec<ArgError>,
    /// The next safe action.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub next_action: Option<String>,
    /// For policy denials: the scope.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub scope: Option<String>,
    /// For policy denials: the rule.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rule: Option<String>,
    /// True when the host's execute callback was reached.
    pub executed: bool,
}
