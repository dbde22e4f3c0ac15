//! The result of a bounded-code run: status, limits, trace and final value.
//!
//! The wire shape (camelCase JSON) is described exactly by
//! `schemas/code-result.schema.json`. [`CodeResult::summary`] is the part fit
//! for the activity record: counts, status and stable codes only — never
//! arguments, outputs or messages.

use crate::limits::CodeLimits;
use holaryn_model::Code;
use holaryn_model::Error;
use serde::{Deserialize, Serialize};
use serde_json::Value;

/// How a run ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum CodeStatus {
    /// Every call returned; `value` holds the last statement's value.
    Completed,
    /// Refused before running (syntax, forbidden construct, static limit), or
    /// an inner call was refused before dispatch (forged/stale handle, unknown
    /// tool, schema not loaded, invalid arguments, nested bridge).
    Rejected,
    /// An inner call was denied: policy, approval or a hook veto.
    Denied,
    /// An inner tool reported an error.
    Failed,
    /// The host cancelled the run while a call was active.
    Cancelled,
    /// The run's wall time passed, or the active tool timed out.
    TimedOut,
    /// A dynamic limit was exceeded: calls started or output retained.
    LimitExceeded,
}

impl CodeStatus {
    /// Wire name, e.g. `timed_out`.
    pub fn as_str(self) -> &'static str {
        match self {
            CodeStatus::Completed => "completed",
            CodeStatus::Rejected => "rejected",
            CodeStatus::Denied => "denied",
            CodeStatus::Failed => "failed",
            CodeStatus::Cancelled => "cancelled",
            CodeStatus::TimedOut => "timed_out",
            CodeStatus::LimitExceeded => "limit_exceeded",
        }
    }

    /// The run summary's code, `code.<status>` (e.g. `code.timed_out`).
    pub fn code(self) -> Code {
        match self {
            CodeStatus::Completed => Code::CodeCompleted,
            CodeStatus::Rejected => Code::CodeRejected,
            CodeStatus::Denied => Code::CodeDenied,
            CodeStatus::Failed => Code::CodeFailed,
            CodeStatus::Cancelled => Code::CodeCancelled,
            CodeStatus::TimedOut => Code::CodeTimedOut,
            CodeStatus::LimitExceeded => Code::CodeLimitExceeded,
        }
    }
}

/// What happened to one attempted call.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum RowStatus {
    /// The tool returned an output.
    Ok,
    /// Refused before dispatch.
    Refused,
    /// Denied by policy, approval or a hook.
    Denied,
    /// The tool reported an error.
    Failed,
    /// The tool (or the run's clock) timed out while it was active, or the
    /// run's deadline cut the call off before it executed (`durationMs` 0).
    TimedOut,
    /// The host cancelled while this call was active.
    Cancelled,
    /// The tool's output was over the gate's size cap.
    OutputTooLarge,
    /// The tool returned, but keeping its output passed `maxOutputBytes`.
    LimitExceeded,
}

/// One attempted call, in order.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct TraceRow {
    /// 0-based call index (= statement index).
    pub index: u32,
    /// 1-based line of the `call`.
    pub line: u32,
    /// 1-based UTF-16 column of the `call`.
    pub column: u32,
    /// The handle literal as written.
    pub handle: String,
    /// Canonical tool name, when the handle resolved.
    pub tool: Option<String>,
    /// What happened.
    pub status: RowStatus,
    /// Time the tool ran, in ms (0 when it never started).
    pub duration_ms: u64,
    /// Bytes of the tool's serialised JSON output (0 when none).
    pub output_bytes: u64,
    /// Stable error code, null when `ok`.
    pub error_code: Option<Code>,
}

/// Why a run did not complete.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct CodeError {
    /// Stable code (`code.syntax`, `code.forbidden`, `code.limit`, or the inner call's code).
    pub code: Code,
    /// Human message naming the construct or limit.
    pub message: String,
    /// 1-based line, when known.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub line: Option<u32>,
    /// 1-based UTF-16 column, when known.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub column: Option<u32>,
    /// What the model can do next, when there is advice.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub next_action: Option<String>,
}

impl From<&Error> for CodeError {
    fn from(err: &Error) -> Self {
        CodeError {
            code: err.code,
            message: err.message.clone(),
            line: err.line,
            column: err.column,
            next_action: err.next_action.clone(),
        }
    }
}

/// The structured result of one run (see `schemas/code-result.schema.json`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct CodeResult {
    /// Run id (host-chosen, e.g. `run_3`).
    pub run_id: String,
    /// How the run ended.
    pub status: CodeStatus,
    /// The limits in force.
    pub limits: CodeLimits,
    /// One row per attempted call, in order.
    pub trace: Vec<TraceRow>,
    /// The last statement's value when completed; null otherwise.
    pub value: Value,
    /// Why the run stopped, unless completed.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub error: Option<CodeError>,
    /// Calls started (rows in the trace).
    pub calls_attempted: u32,
    /// Bytes of output retained in names or returned as the value.
    pub output_bytes: u64,
    /// Host time from start to end, in ms.
    pub duration_ms: u64,
}

/// The activity-record view of a run: counts, status and codes only.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct CodeSummary {
    /// Run id.
    pub run_id: String,
    /// How the run ended.
    pub status: CodeStatus,
    /// Calls started.
    pub calls_attempted: u32,
    /// Calls that returned `ok`.
    pub calls_ok: u32,
    /// Bytes of output retained or returned.
    pub output_bytes: u64,
    /// Host time of the run, in ms.
    pub duration_ms: u64,
    /// The run's stable error code, unless completed.
    pub error_code: Option<Code>,
}

impl CodeResult {
    /// A run refused before any call (compile error): no trace, value null.
    pub fn rejected(run_id: String, limits: CodeLimits, err: &Error) -> CodeResult {
        CodeResult {
            run_id,
            status: CodeStatus::Rejected,
            limits: limits.clamped(),
            trace: Vec::new(),
            value: Value::Null,
            error: Some(CodeError::from(err)),
            calls_attempted: 0,
            output_bytes: 0,
            duration_ms: 0,
        }
    }

    /// Counts, status and codes for the activity record.
    pub fn summary(&self) -> CodeSummary {
        let ok = self
            .trace
            .iter()
            .filter(|r| r.status == RowStatus::Ok)
            .count();
        CodeSummary {
            run_id: self.run_id.clone(),
            status: self.status,
            calls_attempted: self.calls_attempted,
            calls_ok: u32::try_from(ok).unwrap_or(u32::MAX),
            output_bytes: self.output_bytes,
            duration_ms: self.duration_ms,
            error_code: self.error.as_ref().map(|e| e.code),
        }
    }
}
