//! What the host answers for one call, and how each answer maps to statuses.
//!
//! | outcome                                              | row status         | run status       | row code             |
//! |------------------------------------------------------|--------------------|------------------|----------------------|
//! | `Ok`                                                 | `ok`               | (continues)      | null                 |
//! | `Refused` (forged/stale handle, unknown tool, schema not loaded, invalid args, nested bridge …) | `refused` | `rejected` | the gate's code |
//! | `Refused` with `policy.denied`, `approval.denied` or `hook.vetoed` | `denied` | `denied` | the gate's code |
//! | `Denied`                                             | `denied`           | `denied`         | the gate's code      |
//! | `Failed`                                             | `failed`           | `failed`         | the gate's code      |
//! | `TimedOut`                                           | `timed_out`        | `timed_out`      | `call.timed_out`     |
//! | `CutOff` (the deadline came before it executed; durationMs 0) | `timed_out` | `timed_out`   | `call.timed_out`     |
//! | `Cancelled` (or [`crate::PendingCall::cancel`])       | `cancelled`       | `cancelled`      | `call.cancelled`     |
//! | `OutputTooLarge`                                     | `output_too_large` | `limit_exceeded` | `output.too_large`   |
//!
//! Denial codes are those for which [`Code::is_denial`] is true.

use crate::result::{CodeStatus, RowStatus};
use holaryn_model::Code;
use serde_json::Value;

/// What the host (the gate) says about one call the interpreter yielded.
/// Not the gate's own [`CallOutcome`](holaryn_model::CallOutcome): this is its summary for the run.
#[derive(Debug, Clone, PartialEq)]
pub enum InnerCallOutcome {
    /// The tool returned `output` after `duration_ms`.
    Ok {
        /// Canonical tool name.
        tool: String,
        /// The tool's output.
        output: Value,
        /// Execution time in ms.
        duration_ms: u64,
    },
    /// Refused before dispatch: run `rejected`, or `denied` for a denial code.
    Refused {
        /// Canonical tool name, when the handle resolved.
        tool: Option<String>,
        /// Stable gate code, e.g. `handle.forged`.
        code: Code,
        /// Gate message.
        message: String,
    },
    /// Denied by policy, approval or a hook veto: run `denied`.
    Denied {
        /// Canonical tool name.
        tool: String,
        /// Stable gate code, e.g. `approval.denied`.
        code: Code,
        /// Gate message.
        message: String,
    },
    /// The tool reported an error: run `failed`.
    Failed {
        /// Canonical tool name.
        tool: String,
        /// Stable gate code, e.g. `tool.failed`.
        code: Code,
        /// Gate message.
        message: String,
        /// Execution time in ms.
        duration_ms: u64,
    },
    /// The tool's timeout fired and it was aborted: run `timed_out`.
    TimedOut {
        /// Canonical tool name.
        tool: String,
        /// Execution time in ms.
        duration_ms: u64,
    },
    /// The run's deadline came while the call waited for hooks or approval:
    /// it was cut off and never executed. Run `timed_out`.
    CutOff {
        /// Canonical tool name.
        tool: String,
    },
    /// The host cancelled the active tool: run `cancelled`.
    Cancelled {
        /// Canonical tool name.
        tool: String,
        /// Execution time in ms.
        duration_ms: u64,
    },
    /// The output was over the gate's size cap: run `limit_exceeded`.
    OutputTooLarge {
        /// Canonical tool name.
        tool: String,
        /// Size of the refused output in bytes.
        bytes: u64,
    },
}

/// A non-`Ok` outcome, classified: what the row and the run record.
pub(crate) struct Stop {
    pub(crate) tool: Option<String>,
    pub(crate) row: RowStatus,
    pub(crate) run: CodeStatus,
    pub(crate) code: Code,
    pub(crate) message: String,
    pub(crate) duration_ms: u64,
    pub(crate) bytes: u64,
}

/// Either the tool's output or the reason the run stops.
pub(crate) enum Classified {
    /// `(tool, output, duration_ms)`.
    Returned(String, Value, u64),
    /// The run ends here.
    Stopped(Stop),
}

impl InnerCallOutcome {
    /// Classify this outcome by the table in the module docs.
    pub(crate) fn classify(self) -> Classified {
        let stop = |tool, row, run, code, message, duration_ms, bytes| {
            Classified::Stopped(Stop {
                tool,
                row,
                run,
                code,
                message,
                duration_ms,
                bytes,
            })
        };
        match self {
            InnerCallOutcome::Ok {
                tool,
                output,
                duration_ms,
            } => Classified::Returned(tool, output, duration_ms),
            InnerCallOutcome::Refused {
                tool,
                code,
                message,
            } => {
                let (row, run) = if code.is_denial() {
                    (RowStatus::Denied, CodeStatus::Denied)
                } else {
                    (RowStatus::Refused, CodeStatus::Rejected)
                };
                stop(tool, row, run, code, message, 0, 0)
            }
            InnerCallOutcome::Denied {
                tool,
                code,
                message,
            } => stop(
                Some(tool),
                RowStatus::Denied,
                CodeStatus::Denied,
                code,
                message,
                0,
                0,
            ),
            InnerCallOutcome::Failed {
                tool,
                code,
                message,
                duration_ms,
            } => stop(
                Some(tool),
                RowStatus::Failed,
                CodeStatus::Failed,
                code,
                message,
                duration_ms,
                0,
            ),
            InnerCallOutcome::TimedOut { tool, duration_ms } => stop(
                Some(tool),
                RowStatus::TimedOut,
                CodeStatus::TimedOut,
                Code::CallTimedOut,
                "the tool timed out and was aborted; remaining calls did not start".into(),
                duration_ms,
                0,
            ),
            InnerCallOutcome::CutOff { tool } => stop(
                Some(tool),
                RowStatus::TimedOut,
                CodeStatus::TimedOut,
                Code::CallTimedOut,
                "the run's deadline came before the call executed: it was cut off and never ran; remaining calls did not start".into(),
                0,
                0,
            ),
            InnerCallOutcome::Cancelled { tool, duration_ms } => stop(
                Some(tool),
                RowStatus::Cancelled,
                CodeStatus::Cancelled,
                Code::CallCancelled,
                CANCELLED.into(),
                duration_ms,
                0,
            ),
            InnerCallOutcome::OutputTooLarge { tool, bytes } => stop(
                Some(tool),
                RowStatus::OutputTooLarge,
                CodeStatus::LimitExceeded,
                Code::OutputTooLarge,
                format!("output: the tool returned {bytes} bytes, over the gate's cap"),
                0,
                bytes,
            ),
        }
    }
}

/// The message of a cancelled run.
pub(crate) const CANCELLED: &str = "the host cancelled the run";
