//! `run_tool_code` through the gate: the bounded-code interpreter's calls
//! each become an ordinary gated call (path `code`).
//!
//! The outer `run_tool_code` call passes steps 1–5 like any tool; at step 7
//! the interpreter starts instead of a host execute. Each `call(...)` it
//! yields is started with [`Runtime::start_call_with`] (`from_code = true`),
//! and the inner call's final outcome resumes the interpreter. The context
//! travels inside the inner call's state, so every suspension the host sees
//! is an ordinary gate step.

use super::steps::{Attached, CallState, GateStep};
use crate::activity::{ActivityKind, ActivityRecord};
use crate::runtime::Runtime;
use holaryn_code::{
    check_source_size, decode, unavailable, CodeLimits, CodeResult, CodeRun, CodeStatus, CodeStep,
    InnerCallOutcome, PendingCall, Program,
};
use holaryn_model::Code;
use holaryn_model::Result;
use holaryn_model::{CallOutcome, CallStatus, Stage};
use serde_json::Value;

/// A bounded-code run in progress: the outer call and the interpreter's pending call.
#[derive(Debug)]
pub struct CodeCtx {
    outer: CallState,
    pending: PendingCall,
}

impl Runtime {
    /// Step 7 for `run_tool_code`: compile and start the interpreter.
    pub(crate) fn start_code(&mut self, outer: CallState, now_ms: u64) -> GateStep {
        let Some(session) = self.sessions.get_mut(&outer.session) else {
            return GateStep::Done(outer.finish(
                self,
                CallStatus::Refused,
                Stage::Execute,
                Code::SessionUnknown,
                "session closed",
                now_ms,
            ));
        };
        let limits = session.code_limits;
        let run_id = session.next_id("run");
        let source = outer.args.get("code").and_then(Value::as_str).unwrap_or("");
        let step = match self.compile_code(source, &limits) {
            Ok(program) => CodeRun::start(program, run_id, limits, now_ms),
            Err(err) => CodeStep::Done(CodeResult::rejected(run_id, limits, &err)),
        };
        self.drive_code(outer, step, now_ms)
    }

    /// The installed compiler's answer, re-checked; else the built-in compiler.
    fn compile_code(&self, source: &str, limits: &CodeLimits) -> Result<Program> {
        check_source_size(source, limits)?;
        match &self.code_compiler {
            Some(compiler) => match (compiler.0)(source, limits) {
                Ok(text) => decode(&text, source, limits),
                Err(why) => Err(unavailable(&why)),
            },
            #[cfg(feature = "parser")]
            None => holaryn_code::compile(source, limits),
            #[cfg(not(feature = "parser"))]
            None => Err(unavailable("no compiler is installed")),
        }
    }

    /// Advance the interpreter until it needs the host or finishes.
    fn drive_code(&mut self, mut outer: CallState, mut step: CodeStep, now_ms: u64) -> GateStep {
        loop {
            match step {
                CodeStep::Done(result) => return self.finish_code(outer, result, now_ms),
                CodeStep::Call(pending) => {
                    let handle = pending.handle().to_string();
                    let args = pending.args().clone();
                    let deadline = pending.deadline_ms();
                    let inner = self.start_call_with(&outer.session, &handle, args, true, now_ms);
                    let ctx = Box::new(CodeCtx { outer, pending });
                    match inner.attach_code(ctx, deadline, now_ms) {
                        Attached::Suspended(suspended) => return suspended,
                        Attached::Finished(ctx, outcome) => {
                            let CodeCtx { outer: o, pending } = *ctx;
                            outer = o;
                            step = pending.resume(to_code_outcome(&outcome), now_ms);
                        }
                    }
                }
            }
        }
    }

    /// An inner call finished: resume the interpreter with its outcome.
    pub(crate) fn code_continue(
        &mut self,
        ctx: Box<CodeCtx>,
        inner: &CallOutcome,
        now_ms: u64,
    ) -> GateStep {
        let CodeCtx { outer, pending } = *ctx;
        let step = pending.resume(to_code_outcome(inner), now_ms);
        self.drive_code(outer, step, now_ms)
    }

    /// The host cancelled during an inner call: the run is cancelled.
    pub(crate) fn code_cancel(&mut self, ctx: Box<CodeCtx>, now_ms: u64) -> CallOutcome {
        let CodeCtx { outer, pending } = *ctx;
        let result = pending.cancel(now_ms);
        self.code_outcome(outer, result, now_ms)
    }

    fn finish_code(&mut self, outer: CallState, result: CodeResult, now_ms: u64) -> GateStep {
        GateStep::Done(self.code_outcome(outer, result, now_ms))
    }

    /// Record the run's summary and finish the outer `run_tool_code` call
    /// (which is never itself inside a run: nesting depth one).
    fn code_outcome(
        &mut self,
        mut outer: CallState,
        result: CodeResult,
        now_ms: u64,
    ) -> CallOutcome {
        let summary = result.summary();
        let rec = ActivityRecord {
            count: Some(summary.calls_attempted as u64),
            bytes: Some(summary.output_bytes),
            duration_ms: Some(summary.duration_ms),
            path: Some("code".into()),
            call_id: Some(outer.call_id.clone()),
            tool_call_id: outer.tool_call_id.clone(),
            ..ActivityRecord::new(
                ActivityKind::CodeSummary,
                &outer.version,
                summary.status.code(),
                "bounded-code run finished",
            )
        }
        .session(&outer.session);
        let rec = match &outer.tool {
            Some(t) => rec.tool(&t.descriptor),
            None => rec,
        };
        self.record(rec, now_ms);
        let status = result.status;
        let json = serde_json::to_value(&result).unwrap_or(Value::Null);
        outer.duration_ms = now_ms.saturating_sub(outer.exec_started_ms);
        outer.output_bytes = holaryn_model::json_len(&json);
        outer.output = Some(json);
        let (call_status, code, msg) = match status {
            CodeStatus::Completed => (
                CallStatus::Ok,
                Code::Ok,
                "the program completed".to_string(),
            ),
            CodeStatus::Cancelled => (
                CallStatus::Cancelled,
                Code::CallCancelled,
                "the host cancelled the program".into(),
            ),
            other => (
                CallStatus::Failed,
                other.code(),
                format!("the program ended: {}", other.as_str()),
            ),
        };
        outer.keep_output = true;
        let stage = if call_status == CallStatus::Ok {
            Stage::Done
        } else {
            Stage::Execute
        };
        outer.finish(self, call_status, stage, code, &msg, now_ms)
    }
}

/// Map a gate outcome to what the interpreter needs.
fn to_code_outcome(o: &CallOutcome) -> InnerCallOutcome {
    let tool = o.tool.clone().unwrap_or_default();
    match o.status {
        CallStatus::Ok => InnerCallOutcome::Ok {
            tool,
            output: o.output.clone().unwrap_or(Value::Null),
            duration_ms: o.duration_ms,
        },
        CallStatus::Refused if o.code.is_denial() => InnerCallOutcome::Denied {
            tool,
            code: o.code,
            message: o.message.clone(),
        },
        CallStatus::Refused => InnerCallOutcome::Refused {
            tool: o.tool.clone(),
            code: o.code,
            message: o.message.clone(),
        },
        CallStatus::Vetoed | CallStatus::ApprovalDenied => InnerCallOutcome::Denied {
            tool,
            code: o.code,
            message: o.message.clone(),
        },
        CallStatus::TimedOut if !o.executed => InnerCallOutcome::CutOff { tool },
        CallStatus::TimedOut => InnerCallOutcome::TimedOut {
            tool,
            duration_ms: o.duration_ms,
        },
        CallStatus::Cancelled => InnerCallOutcome::Cancelled {
            tool,
            duration_ms: o.duration_ms,
        },
        CallStatus::OutputTooLarge => InnerCallOutcome::OutputTooLarge {
            tool,
            bytes: o.output_bytes,
        },
        CallStatus::Failed | CallStatus::Blocked => InnerCallOutcome::Failed {
            tool,
            code: o.code,
            message: o.message.clone(),
            duration_ms: o.duration_ms,
        },
    }
}
