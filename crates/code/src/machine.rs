//! The sans-IO interpreter: start, then one consuming resume per call.
//!
//! [`CodeRun::start`] either finishes at once or yields a [`PendingCall`]:
//! "call this handle with these arguments". The host passes the call through
//! the gate and answers with [`PendingCall::resume`] (or
//! [`PendingCall::cancel`]); each answer yields the next call or the final
//! [`CodeResult`]. Time only comes in as `now_ms`; there is no clock, no
//! randomness and no IO. Outcomes map to statuses as in `outcome.rs`.
//!
//! Rules, in the order they are applied:
//! - **Deadline**: `start now + timeoutMs`. A call starts only while
//!   `now < deadline` (so it has at least 1 ms). A resume with
//!   `now > deadline` ends the run `timed_out` (an answer exactly at the
//!   deadline still counts); the call's row keeps its own status. Remaining
//!   calls never start.
//! - **Calls**: a call starts only while fewer than `maxCalls` have started
//!   (the static check already guarantees this; it is checked again).
//! - **Output**: a call's output counts (bytes of compact serialised JSON)
//!   when it is *retained*: bound to a name, or the last statement's value.
//!   The sum over the run must stay `<= maxOutputBytes`; rebinding a name
//!   does not give bytes back, and a discarded output (an expression
//!   statement that is not last) counts nothing. Passing the limit ends the
//!   run `limit_exceeded` and marks that call's row `limit_exceeded`.
//! - **Passed-on results**: before a call starts, the bytes its arguments
//!   take from earlier results (each use of a name counts, so `[a, a, a]`
//!   counts `a` three times; literals count nothing) must stay
//!   `<= maxOutputBytes`. Otherwise the run ends `limit_exceeded` with
//!   `code.limit` at that statement and the call never starts (no row).
//! - **Final value**: the value of the last statement — the output of its
//!   call, whether assigned or not — only when the run completed. An empty
//!   program completes with null.

use crate::limits::CodeLimits;
use crate::outcome::{Classified, InnerCallOutcome, Stop, CANCELLED};
use crate::program::Program;
use crate::result::{CodeError, CodeResult, CodeStatus, RowStatus, TraceRow};
use holaryn_model::json_len;
use holaryn_model::Code;
use serde_json::Value;

/// Serialised size of `null`, what an unbound slot substitutes (impossible once checked).
const NULL_BYTES: u64 = 4;

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
    /// Index of the next statement to run (the active one while suspended).
    next: usize,
    vars: Vec<Option<Value>>,
    /// Serialised length of each bound name (parallel to `vars`).
    var_bytes: Vec<u64>,
    /// Output of the last statement when it bound no name.
    last: Value,
    trace: Vec<TraceRow>,
    output_bytes: u64,
    calls: u32,
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
        let vars = vec![None; program.slots];
        let var_bytes = vec![NULL_BYTES; program.slots];
        let run = CodeRun {
            program,
            run_id,
            limits,
            started_ms: now_ms,
            deadline_ms: now_ms.saturating_add(limits.timeout_ms),
            next: 0,
            vars,
            var_bytes,
            last: Value::Null,
            trace: Vec::new(),
            output_bytes: 0,
            calls: 0,
        };
        run.advance(now_ms)
    }

    /// Start the next call, or finish.
    fn advance(mut self, now_ms: u64) -> CodeStep {
        let Some(stmt) = self.program.statements.get(self.next) else {
            let value = self.final_value();
            return CodeStep::Done(self.finish(CodeStatus::Completed, value, None, now_ms));
        };
        let (line, column) = (stmt.line, stmt.column);
        if now_ms >= self.deadline_ms {
            let msg = self.time_message(now_ms);
            return self.stop_before(CodeStatus::TimedOut, msg, (line, column), now_ms);
        }
        if !self.limits.allows_calls(self.calls.saturating_add(1)) {
            let msg = format!(
                "calls: the run may start at most {} calls (maxCalls)",
                self.limits.max_calls
            );
            return self.stop_before(CodeStatus::LimitExceeded, msg, (line, column), now_ms);
        }
        // A name's value may be passed on, not multiplied: `[a, a, a, …]`
        // would otherwise turn 64 KiB of retained output into megabytes.
        let passed = stmt
            .args
            .substituted_len(&|slot| self.var_bytes.get(slot).copied().unwrap_or(NULL_BYTES));
        if passed > self.limits.max_output_bytes {
            let msg = format!(
                "arguments: this call would pass {passed} bytes of earlier results (names count once per use); the limit is {} bytes (maxOutputBytes)",
                self.limits.max_output_bytes
            );
            return self.stop_before(CodeStatus::LimitExceeded, msg, (line, column), now_ms);
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

    /// End the run before this statement's call starts: `code.limit` at `line:column`, no trace row.
    fn stop_before(
        self,
        status: CodeStatus,
        message: String,
        (line, column): (u32, u32),
        now_ms: u64,
    ) -> CodeStep {
        let err = error(Code::CodeLimit, message, line, column);
        CodeStep::Done(self.finish(status, Value::Null, Some(err), now_ms))
    }

    /// The last statement's value: its bound name's value, or its kept output.
    fn final_value(&mut self) -> Value {
        let slot = self
            .program
            .statements
            .last()
            .and_then(|s| s.target.as_ref())
            .map(|t| t.slot);
        match slot.and_then(|s| self.vars.get_mut(s)) {
            Some(var) => var.take().unwrap_or(Value::Null),
            None => std::mem::take(&mut self.last),
        }
    }

    fn time_message(&self, now_ms: u64) -> String {
        format!(
            "time: the run used {} ms of its {} ms limit; remaining calls did not start",
            now_ms.saturating_sub(self.started_ms),
            self.limits.timeout_ms
        )
    }

    fn finish(
        self,
        status: CodeStatus,
        value: Value,
        error: Option<CodeError>,
        now_ms: u64,
    ) -> CodeResult {
        let completed = status == CodeStatus::Completed;
        CodeResult {
            run_id: self.run_id,
            status,
            limits: self.limits,
            trace: self.trace,
            value: if completed { value } else { Value::Null },
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
        let statements = &self.run.program.statements;
        let i = self.run.next;
        let bound = statements.get(i).is_some_and(|s| s.target.is_some());
        bound || i.saturating_add(1) >= statements.len()
    }
    /// Output bytes the run may still retain.
    pub fn output_budget(&self) -> u64 {
        let run = &self.run;
        run.limits.max_output_bytes.saturating_sub(run.output_bytes)
    }
    /// The run id.
    pub fn run_id(&self) -> &str {
        &self.run.run_id
    }

    fn row(
        &self,
        tool: Option<String>,
        status: RowStatus,
        duration_ms: u64,
        bytes: u64,
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
            error_code: None,
        }
    }

    /// Answer the call with the gate's outcome at host time `now_ms`.
    pub fn resume(self, outcome: InnerCallOutcome, now_ms: u64) -> CodeStep {
        match outcome.classify() {
            Classified::Returned(tool, output, duration_ms) => {
                self.returned(tool, output, duration_ms, now_ms)
            }
            Classified::Stopped(stop) => CodeStep::Done(self.stop(stop, now_ms)),
        }
    }

    /// The host cancelled while the call was active: the run is `cancelled`.
    pub fn cancel(self, now_ms: u64) -> CodeResult {
        let stop = Stop {
            tool: None,
            row: RowStatus::Cancelled,
            run: CodeStatus::Cancelled,
            code: Code::CallCancelled,
            message: CANCELLED.into(),
            duration_ms: now_ms.saturating_sub(self.started_ms),
            bytes: 0,
        };
        self.stop(stop, now_ms)
    }

    /// Record the call's row and end the run.
    fn stop(self, stop: Stop, now_ms: u64) -> CodeResult {
        let mut row = self.row(stop.tool, stop.row, stop.duration_ms, stop.bytes);
        row.error_code = Some(stop.code);
        let err = error(stop.code, stop.message, self.line, self.column);
        let mut run = *self.run;
        run.trace.push(row);
        run.finish(stop.run, Value::Null, Some(err), now_ms)
    }

    /// An `ok` outcome: check time and output, bind, go on.
    fn returned(self, tool: String, output: Value, duration_ms: u64, now_ms: u64) -> CodeStep {
        let bytes = json_len(&output);
        let retains = self.retains_output();
        let mut row = self.row(Some(tool), RowStatus::Ok, duration_ms, bytes);
        let (line, column) = (self.line, self.column);
        let mut run = *self.run;
        if now_ms > run.deadline_ms {
            let err = error(Code::CodeLimit, run.time_message(now_ms), line, column);
            run.trace.push(row);
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
                row.error_code = Some(Code::CodeLimit);
                run.trace.push(row);
                let err = error(Code::CodeLimit, msg, line, column);
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
        let slot = run
            .program
            .statements
            .get(run.next)
            .and_then(|s| s.target.as_ref())
            .map(|t| t.slot);
        if let Some(len) = slot.and_then(|s| run.var_bytes.get_mut(s)) {
            *len = bytes;
        }
        match slot.and_then(|s| run.vars.get_mut(s)) {
            Some(var) => *var = Some(output),
            None => run.last = output,
        }
        run.next = run.next.saturating_add(1);
        run.advance(now_ms)
    }
}

fn error(code: Code, message: String, line: u32, column: u32) -> CodeError {
    CodeError {
        code,
        message,
        line: Some(line),
        column: Some(column),
        next_action: None,
    }
}
