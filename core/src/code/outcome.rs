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
//! | `Cancelled` (or [`crate::code::PendingCall::cancel`]) | `cancelled`       | `cancelled`      | `call.cancelled`     |
//! | `OutputTooLarge`                                     | `output_too_large` | `limit_exceeded` | `output.too_large`   |
//!
//! A blank gate code is replaced by `call.refused`, `call.denied` or
//! `call.failed`, so a row's code is never empty.

use super::result::{CodeStatus, RowStatus};
use serde_json::Value;

/// What the host says about one yielded call.
#[derive(Debug, Clone, PartialEq)]
pub enum CallOutcome {
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
        code: String,
        /// Gate message.
        message: String,
    },
    /// Denied by policy, approval or a hook veto: run `denied`.
    Denied {
        /// Canonical tool name.
        tool: String,
        /// Stable gate code, e.g. `approval.denied`.
        code: String,
        /// Gate message.
        message: String,
    },
    /// The tool reported an error: run `failed`.
    Failed {
        /// Canonical tool name.
        tool: String,
        /// Stable gate code, e.g. `call.failed`.
        code: String,
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

/// Refusal codes that mean "denied" rather than "rejected".
pub const DENIAL_CODES: [&str; 3] = ["policy.denied", "approval.denied", "hook.vetoed"];

/// A non-`Ok` outcome, classified: what the row and the run record.
pub(crate) struct Stop {
    pub(crate) tool: Option<String>,
    pub(crate) row: RowStatus,
    pub(crate) run: CodeStatus,
    pub(crate) code: String,
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

impl CallOutcome {
    /// Classify this outcome by the table in the module docs.
    pub(crate) fn classify(self) -> Classified {
        let stop = |tool, row, run, code: &str, message, duration_ms, bytes| {
            Classified::Stopped(Stop {
                tool,
                row,
                run,
                code: code.to_string(),
                message,
                duration_ms,
                bytes,
            })
        };
        match self {
            CallOutcome::Ok {
                tool,
                output,
                duration_ms,
            } => Classified::Returned(tool, output, duration_ms),
            CallOutcome::Refused {
                tool,
                code,
                message,
            } => {
                let (row, run) = if DENIAL_CODES.contains(&code.as_str()) {
                    (RowStatus::Denied, CodeStatus::Denied)
                } else {
                    (RowStatus::Refused, CodeStatus::Rejected)
                };
                stop(tool, row, run, or(&code, "call.refused"), message, 0, 0)
            }
            CallOutcome::Denied {
                tool,
                code,
                message,
            } => stop(
                Some(tool),
                RowStatus::Denied,
                CodeStatus::Denied,
                or(&code, "call.denied"),
                message,
                0,
                0,
            ),
            CallOutcome::Failed {
                tool,
                code,
                message,
                duration_ms,
            } => stop(
                Some(tool),
                RowStatus::Failed,
                CodeStatus::Failed,
                or(&code, "call.failed"),
                message,
                duration_ms,
                0,
            ),
            CallOutcome::TimedOut { tool, duration_ms } => stop(
                Some(tool),
                RowStatus::TimedOut,
                CodeStatus::TimedOut,
                "call.timed_out",
                "the tool timed out and was aborted; remaining calls did not start".into(),
                duration_ms,
                0,
            ),
            CallOutcome::CutOff { tool } => stop(
                Some(tool),
                RowStatus::TimedOut,
                CodeStatus::TimedOut,
                "call.timed_out",
                "the run's deadline came before the call executed: it was cut off and never ran; remaining calls did not start".into(),
                0,
                0,
            ),
            CallOutcome::Cancelled { tool, duration_ms } => stop(
                Some(tool),
                RowStatus::Cancelled,
                CodeStatus::Cancelled,
                "call.cancelled",
                CANCELLED.into(),
                duration_ms,
                0,
            ),
            CallOutcome::OutputTooLarge { tool, bytes } => stop(
                Some(tool),
                RowStatus::OutputTooLarge,
                CodeStatus::LimitExceeded,
                "output.too_large",
                format!("output: the tool returned {bytes} bytes, over the gate's cap"),
                0,
                bytes,
            ),
        }
    }
}

/// The message of a cancelled run.
pub(crate) const CANCELLED: &str = "the host cancelled the run";

/// The host's code, or `fallback` when it is blank (codes are never empty).
fn or<'a>(code: &'a str, fallback: &'a str) -> &'a str {
    if code.trim().is_empty() {
        fallback
    } else {
        code
    }
}

/// Bytes of `value` as compact serialised JSON, without building the string.
pub fn json_len(value: &Value) -> u64 {
    struct Count(u64);
    impl std::io::Write for Count {
        fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
            self.0 = self.0.saturating_add(buf.len() as u64);
            Ok(buf.len())
        }
        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }
    let mut count = Count(0);
    match serde_json::to_writer(&mut count, value) {
        Ok(()) => count.0,
        Err(_) => u64::MAX,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn json_len_is_the_compact_serialised_size() {
        for v in [json!(null), json!({"a": [1, "é😀", 2.5]}), json!("x\n\"")] {
            assert_eq!(json_len(&v), v.to_string().len() as u64);
        }
    }
}
