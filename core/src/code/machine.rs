//! The sans-IO interpreter: start, then one consuming resume per call.
//!
//! [`CodeRun::start`] either finishes at once or yields a [`PendingCall`]:
//! "call this handle with these arguments". The host passes the call through
//! the gate and answers with [`PendingCall::resume`] (or
//! [`PendingCall::cancel`]); each answer yields the next call or the final
//! [`CodeResult`]. Time only comes in as `now_ms`; there is no clock, no
//! randomness and no IO.
//!
//! Rules, in the order they are applied:
//! - **Deadline**: `start now + timeoutMs`. A call starts only while
//!   `now < deadline` (so it has at least 1 ms); a resume with
//!   `now > deadline` ends the run `timed_out` (an answer exactly at the
//!   deadline still counts). Remaining calls never start.
//! - **Calls**: a call starts only while fewer than `maxCalls` have started
//!   (the static check already guarantees this; it is checked again).
//! - **Output**: a call's output counts (bytes of compact serialised JSON)
//!   when it is *retained*: bound to a name, or the last statement's value.
//!   The sum over the run must stay `<= maxOutputBytes`; rebinding a name
//!   does not give bytes back. Passing it ends the run `limit_exceeded` and
//!   marks that call's row `limit_exceeded`.
//! - **Final value**: the value of the last statement — the output of its
//!   call, whether assigned or not. An empty program completes with null.

use super::limits::CodeLimits;
use super::program::Program;
use super::result::{CodeError, CodeResult, CodeStatus, RowStatus, TraceRow};
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
    /// Refused before dispatch (forged/stale handle, unknown tool, schema not
    /// loaded, invalid arguments, nested bridge …): run `rejected`, except
    /// the denial codes `policy.denied`, `approval.denied` and `hook.vetoed`,
    /// which make it `denied`.
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
    /// The tool's timeout fired (it was aborted): run `timed_out`.
    TimedOut {
        /// Canonical tool name.
        tool: String,
        /// Execution time in ms.
        duration_ms: u64,
    },
    /// The host cancelled the active tool: run `cancelled`.
    Cancelled {
        /// Canonical tool name.
        tool: String,
        /// Execution time in ms.
        duration_ms: u64,
    },
    /// The output was over the gate's cap: run `limit_exceeded`.
    OutputTooLarge {
        /// Canonical tool name.
        tool: String,
        /// Size of the refused output in bytes.
        bytes: u64,
    },
}

/// Refusal codes that mean "denied" rather than "rejected".
const DENIAL_CODES: [&str; 3] = ["policy.denied", "approval.denied", "hook.vetoed"];

/// One step of a run: a call for the host, or the end.
#[derive(Debug)]
pub enum CodeStep {
    /// Pass this call through the gate, then resume it.
    Call(PendingCall),
    /// The run is over.
    Done(CodeResult),
}

/// A run in progress (held inside a [`PendingCall`] while a call is active).
#[derive(Debug)]
pub struct CodeRun {
    program: Program,
    run_id: String,
    limits: CodeLimits,
    started_ms: u64,
    deadline_ms: u64,
    next: usize,
    vars: Vec<Option<Value>>,
    trace: Vec<TraceRow>,
    output_bytes: u64,
    calls: u32,
    last: Value,
}

/// A call the run is waiting on. Consume it with `resume` or `cancel`.
#[derive(Debug)]
pub struct PendingCall {
    run: Box<CodeRun>,
    index: u32,
    handle: String,
    args: Value,
    line: u32,
    column: u32,
    started_ms: u64,
}

impl CodeRun {
    /// Start `program` at host time `now_ms` with `limits` (capped at the maxima).
    pub fn start(program: Program, run_id: String, limits: CodeLimits, now_ms: u64) -> CodeStep {
        let limits = limits.clamped();
        let slots = program.slots;
        let run = CodeRun {
            program,
            run_id,
            limits,
            started_ms: now_ms,
            deadline_ms: now_ms.saturating_add(limits.timeout_ms),
            next: 0,
            vars: vec![None; slots],
            trace: Vec::new(),
            output_bytes: 0,
            calls: 0,
            last: Value::Null,
        };
        run.advance(now_ms)
    }

    /// Start the next call, or finish.
    fn advance(mut self, now_ms: u64) -> CodeStep {
        let Some(stmt) = self.program.statements.get(self.next) else {
            let value = std::mem::take(&mut self.last);
            return CodeStep::Done(self.finish(CodeStatus::Completed, value, None, now_ms));
        };
        let (line, column) = (stmt.line, stmt.column);
        if now_ms >= self.deadline_ms {
            let msg = format!(
                "time: the run used {} ms of its {} ms limit; remaining calls did not start",
                now_ms.saturating_sub(self.started_ms),
                self.limits.timeout_ms
            );
            let err = error("code.limit", msg, line, column);
            return CodeStep::Done(self.finish(
                CodeStatus::TimedOut,
                Value::Null,
                Some(err),
                now_ms,
            ));
        }
        if self.calls >= self.limits.max_calls {
            let msg = format!(
                "calls: the run may start at most {} calls (maxCalls)",
                self.limits.max_calls
            );
            let err = error("code.limit", msg, line, column);
            return CodeStep::Done(self.finish(
                CodeStatus::LimitExceeded,
                Value::Null,
                Some(err),
                now_ms,
            ));
        }
        let handle = stmt.handle.clone();
        let args = stmt.args.instantiate(&self.vars);
        let index = u32::try_from(self.next).unwrap_or(u32::MAX);
        self.calls = self.calls.saturating_add(1);
        CodeStep::Call(PendingCall {
            run: Box::new(self),
            index,
            handle,
            args,
            line,
            column,
            started_ms: now_ms,
        })
    }

    fn finish(
        self,
        status: CodeStatus,
        value: Value,
        error: Option<CodeError>,
        now_ms: u64,
    ) -> CodeResult {
        CodeResult {
            run_id: self.run_id,
            status,
            limits: self.limits,
            trace: self.trace,
            value: if status == CodeStatus::Completed {
                value
            } else {
                Value::Null
            },
            error,
            calls_attempted: self.calls,
            output_bytes: self.output_bytes,
            duration_ms: now_ms.saturating_sub(self.started_ms),
        }
    }
}

impl PendingCall {
    /// 0-based call index (= statement index).
    pub fn index(&self) -> u32 {
        self.index
    }
    /// The handle literal; resolve it through the current registry.
    pub fn handle(&self) -> &str {
        &self.handle
    }
    /// The arguments, with earlier names substituted.
    pub fn args(&self) -> &Value {
        &self.args
    }
    /// 1-based line of the `call`.
    pub fn line(&self) -> u32 {
        self.line
    }
    /// 1-based UTF-16 column of the `call`.
    pub fn column(&self) -> u32 {
        self.column
    }
    /// The run's deadline in host ms: give the tool `min(tool timeout, deadline - now)`.
    pub fn deadline_ms(&self) -> u64 {
        self.run.deadline_ms
    }
    /// Time left before the deadline at `now_ms` (0 when passed).
    pub fn time_left_ms(&self, now_ms: u64) -> u64 {
        self.run.deadline_ms.saturating_sub(now_ms)
    }
    /// True when this call's output will count against `maxOutputBytes`.
    pub fn retains_output(&self) -> bool {
        self.retains()
    }
    /// Output bytes still available to the run.
    pub fn output_budget(&self) -> u64 {
        self.run
            .limits
            .max_output_bytes
            .saturating_sub(self.run.output_bytes)
    }
    /// The run id.
    pub fn run_id(&self) -> &str {
        &self.run.run_id
    }

    fn retains(&self) -> bool {
        let i = self.run.next;
        let bound = self
            .run
            .program
            .statements
            .get(i)
            .is_some_and(|s| s.target.is_some());
        bound || i.saturating_add(1) >= self.run.program.statements.len()
    }

    fn row(
        &self,
        tool: Option<String>,
        status: RowStatus,
        duration_ms: u64,
        bytes: u64,
        code: Option<&str>,
    ) -> TraceRow {
        TraceRow {
            index: self.index,
            line: self.line,
            column: self.column,
            handle: self.handle.clone(),
            tool,
            status,
            duration_ms,
            output_bytes: bytes,
            error_code: code.map(str::to_string),
        }
    }

    /// Answer the call with the gate's outcome at host time `now_ms`.
    pub fn resume(self, outcome: CallOutcome, now_ms: u64) -> CodeStep {
        let (row, status, message) = match outcome {
            CallOutcome::Ok {
                tool,
                output,
                duration_ms,
            } => return self.returned(tool, output, duration_ms, now_ms),
            CallOutcome::Refused {
                tool,
                code,
                message,
            } => {
                let denied = DENIAL_CODES.contains(&code.as_str());
                let (row_status, status) = if denied {
                    (RowStatus::Denied, CodeStatus::Denied)
                } else {
                    (RowStatus::Refused, CodeStatus::Rejected)
                };
                (
                    self.row(tool, row_status, 0, 0, Some(or(&code, "call.refused"))),
                    status,
                    message,
                )
            }
            CallOutcome::Denied {
                tool,
                code,
                message,
            } => (
                self.row(
                    Some(tool),
                    RowStatus::Denied,
                    0,
                    0,
                    Some(or(&code, "call.denied")),
                ),
                CodeStatus::Denied,
                message,
            ),
            CallOutcome::Failed {
                tool,
                code,
                message,
                duration_ms,
            } => (
                self.row(
                    Some(tool),
                    RowStatus::Failed,
                    duration_ms,
                    0,
                    Some(or(&code, "call.failed")),
                ),
                CodeStatus::Failed,
                message,
            ),
            CallOutcome::TimedOut { tool, duration_ms } => (
                self.row(
                    Some(tool),
                    RowStatus::TimedOut,
                    duration_ms,
                    0,
                    Some("call.timed_out"),
                ),
                CodeStatus::TimedOut,
                "the tool timed out and was aborted; remaining calls did not start".to_string(),
            ),
            CallOutcome::Cancelled { tool, duration_ms } => (
                self.row(
                    Some(tool),
                    RowStatus::Cancelled,
                    duration_ms,
                    0,
                    Some("call.cancelled"),
                ),
                CodeStatus::Cancelled,
                "the host cancelled the run".to_string(),
            ),
            CallOutcome::OutputTooLarge { tool, bytes } => (
                self.row(
                    Some(tool),
                    RowStatus::OutputTooLarge,
                    0,
                    bytes,
                    Some("output.too_large"),
                ),
                CodeStatus::LimitExceeded,
                format!("output: the tool returned {bytes} bytes, over the cap"),
            ),
        };
        CodeStep::Done(self.stop(row, status, message, now_ms))
    }

    /// The host cancelled while the call was active: the run is `cancelled`.
    pub fn cancel(self, now_ms: u64) -> CodeResult {
        let duration = now_ms.saturating_sub(self.started_ms);
        let row = self.row(
            None,
            RowStatus::Cancelled,
            duration,
            0,
            Some("call.cancelled"),
        );
        self.stop(
            row,
            CodeStatus::Cancelled,
            "the host cancelled the run".into(),
            now_ms,
        )
    }

    /// Record `row` and end the run with `status`.
    fn stop(self, row: TraceRow, status: CodeStatus, message: String, now_ms: u64) -> CodeResult {
        let code = row
            .error_code
            .clone()
            .unwrap_or_else(|| status.as_str().to_string());
        let err = error(&code, message, self.line, self.column);
        let mut run = *self.run;
        run.trace.push(row);
        run.finish(status, Value::Null, Some(err), now_ms)
    }

    /// An `ok` outcome: check time and output, bind, go on.
    fn returned(self, tool: String, output: Value, duration_ms: u64, now_ms: u64) -> CodeStep {
        let bytes = json_len(&output);
        let retains = self.retains();
        let mut row = self.row(Some(tool), RowStatus::Ok, duration_ms, bytes, None);
        let (line, column) = (self.line, self.column);
        let mut run = *self.run;
        if now_ms > run.deadline_ms {
            let msg = format!(
                "time: the run used {} ms of its {} ms limit; remaining calls did not start",
                now_ms.saturating_sub(run.started_ms),
                run.limits.timeout_ms
            );
            run.trace.push(row);
            let err = error("code.limit", msg, line, column);
            return CodeStep::Done(run.finish(
                CodeStatus::TimedOut,
                Value::Null,
                Some(err),
                now_ms,
            ));
        }
        if retains {
            let total = run.output_bytes.saturating_add(bytes);
            if total > run.limits.max_output_bytes {
                let msg = format!(
                    "output: keeping this call's {bytes} bytes would make {total} bytes; the limit is {} bytes",
                    run.limits.max_output_bytes
                );
                row.status = RowStatus::LimitExceeded;
                row.error_code = Some("code.limit".into());
                run.trace.push(row);
                let err = error("code.limit", msg, line, column);
                return CodeStep::Done(run.finish(
                    CodeStatus::LimitExceeded,
                    Value::Null,
                    Some(err),
                    now_ms,
                ));
            }
            run.output_bytes = total;
        }
        run.trace.push(row);
        let target = run
            .program
            .statements
            .get(run.next)
            .and_then(|s| s.target.as_ref())
            .map(|t| t.slot);
        match target.and_then(|slot| run.vars.get_mut(slot)) {
            Some(var) => {
                run.last = output.clone();
                *var = Some(output);
            }
            None => run.last = output,
        }
        run.next = run.next.saturating_add(1);
        run.advance(now_ms)
    }
}

/// The host's code, or `fallback` when it is blank (codes are never empty).
fn or<'a>(code: &'a str, fallback: &'a str) -> &'a str {
    if code.trim().is_empty() {
        fallback
    } else {
        code
    }
}

fn error(code: &str, message: String, line: u32, column: u32) -> CodeError {
    CodeError {
        code: code.to_string(),
        message,
        line: Some(line),
        column: Some(column),
        next_action: None,
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
