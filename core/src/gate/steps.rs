//! The gate's suspensions: one struct per reason, each resumed once.

use super::code::CodeCtx;
use crate::activity::{ActivityKind, ActivityRecord};
use crate::registry::Entry;
use crate::runtime::Runtime;
use holaryn_model::Code;
use holaryn_model::Error;
use holaryn_model::ToolRole;
use holaryn_model::{ArgError, CallOutcome, CallPath, CallStatus, Stage};
use serde::{Deserialize, Serialize};
use serde_json::Value;

/// What the gate needs next. Dropping a step loses the call and its
/// activity record: resume it, or [`GateStep::cancel`] it.
#[derive(Debug)]
#[must_use = "a dropped step loses the call and its activity record; resume or cancel it"]
pub enum GateStep {
    /// Run the lifecycle hook `before`.
    HookBefore(HookRequest),
    /// Ask the host to approve.
    Approval(ApprovalRequest),
    /// Execute the tool (with the timeout and an AbortSignal).
    Execute(ExecuteRequest),
    /// Run the lifecycle hook `after`.
    HookAfter(HookRequest),
    /// Screen the output.
    Screen(ScreenRequest),
    /// Finished (and recorded).
    Done(CallOutcome),
}

impl GateStep {
    /// Cancel the call at whatever step it waits: the activity is recorded
    /// and the `cancelled` outcome returned (a finished call keeps its outcome).
    pub fn cancel(self, rt: &mut Runtime, now_ms: u64) -> CallOutcome {
        match self {
            GateStep::HookBefore(r) | GateStep::HookAfter(r) => r.cancel(rt, now_ms),
            GateStep::Approval(r) => r.cancel(rt, now_ms),
            GateStep::Execute(r) => r.cancel(rt, now_ms),
            GateStep::Screen(r) => r.cancel(rt, now_ms),
            GateStep::Done(o) => o,
        }
    }

    /// Make this (inner) call part of a bounded-code run whose deadline is
    /// `deadline_ms`; a finished call is handed back with its outcome.
    pub(crate) fn attach_code(self, ctx: Box<CodeCtx>, deadline_ms: u64, now_ms: u64) -> Attached {
        let mut step = self;
        let st = match &mut step {
            GateStep::Done(_) => None,
            GateStep::HookBefore(r) | GateStep::HookAfter(r) => Some(&mut r.st),
            GateStep::Approval(r) => Some(&mut r.st),
            GateStep::Execute(r) => Some(&mut r.st),
            GateStep::Screen(r) => Some(&mut r.st),
        };
        match st {
            Some(st) => {
                st.timeout_ms = st.timeout_ms.min(deadline_ms.saturating_sub(now_ms));
                st.deadline_ms = Some(deadline_ms);
                st.wait_until_ms = st.wait_until_ms.min(deadline_ms);
                st.code = Some(ctx);
                Attached::Suspended(step)
            }
            None => match step {
                GateStep::Done(o) => Attached::Finished(ctx, o),
                other => Attached::Suspended(other),
            },
        }
    }
}

/// An inner call after [`GateStep::attach_code`].
pub(crate) enum Attached {
    /// Waiting on the host, carrying the run.
    Suspended(GateStep),
    /// Finished at once (refused before any host callback).
    Finished(Box<CodeCtx>, CallOutcome),
}

/// The state carried through a call.
#[derive(Debug)]
pub struct CallState {
    pub(crate) session: String,
    pub(crate) call_id: String,
    /// The model's tool-call id, when the call came from a provider-shaped model call.
    pub(crate) tool_call_id: Option<String>,
    pub(crate) args: Value,
    pub(crate) from_code: bool,
    pub(crate) exec_started_ms: u64,
    pub(crate) path: CallPath,
    pub(crate) tool: Option<Entry>,
    pub(crate) version: String,
    pub(crate) timeout_ms: u64,
    /// How long a hook, approval or screening may wait (a run's deadline caps it).
    pub(crate) callback_timeout_ms: u64,
    /// The bounded-code run's deadline (host ms) for an inner call.
    pub(crate) deadline_ms: Option<u64>,
    /// The current step's answer is due by this host time (see [`CallState::wait_ms`]).
    pub(crate) wait_until_ms: u64,
    pub(crate) max_output_bytes: u64,
    pub(crate) errors: Vec<ArgError>,
    pub(crate) next_action: Option<String>,
    pub(crate) scope: Option<String>,
    pub(crate) rule: Option<String>,
    pub(crate) executed: bool,
    pub(crate) output: Option<Value>,
    pub(crate) output_bytes: u64,
    pub(crate) duration_ms: u64,
    pub(crate) keep_output: bool,
    pub(crate) code: Option<Box<CodeCtx>>,
}

impl CallState {
    pub(crate) fn new(
        session: &str,
        call_id: String,
        args: Value,
        from_code: bool,
        now_ms: u64,
    ) -> Self {
        CallState {
            session: session.to_string(),
            call_id,
            tool_call_id: None,
            args,
            from_code,
            exec_started_ms: now_ms,
            path: if from_code {
                CallPath::Code
            } else {
                CallPath::Direct
            },
            tool: None,
            version: String::new(),
            timeout_ms: 0,
            callback_timeout_ms: 0,
            deadline_ms: None,
            wait_until_ms: now_ms,
            max_output_bytes: 0,
            errors: Vec::new(),
            next_action: None,
            scope: None,
            rule: None,
            executed: false,
            output: None,
            output_bytes: 0,
            duration_ms: 0,
            keep_output: false,
            code: None,
        }
    }

    /// Keep the model's tool-call id (empty: none) for the activity record.
    pub(crate) fn with_tool_call_id(mut self, id: &str) -> Self {
        self.tool_call_id = (!id.is_empty()).then(|| id.to_string());
        self
    }

    /// Per-session call id.
    pub fn call_id(&self) -> &str {
        &self.call_id
    }
    /// Session id.
    pub fn session(&self) -> &str {
        &self.session
    }
    /// The arguments (for the host's execute and approval prompt only).
    pub fn args(&self) -> &Value {
        &self.args
    }
    /// How the call arrived.
    pub fn path(&self) -> CallPath {
        self.path
    }
    /// Timeout in ms for execution (capped by a bounded-code run's time left).
    pub fn timeout_ms(&self) -> u64 {
        self.timeout_ms
    }
    /// The bounded-code run's deadline in host ms, for an inner call.
    pub fn deadline_ms(&self) -> Option<u64> {
        self.deadline_ms
    }
    /// How long the host may take to answer the current step, from `now_ms`:
    /// race the callback against a timer of this many ms and resume with the
    /// step's `TimedOut` answer when it fires. An answer that arrives later is
    /// treated the same way (the call is cut off, whatever the answer).
    pub fn wait_ms(&self, now_ms: u64) -> u64 {
        self.wait_until_ms.saturating_sub(now_ms)
    }

    /// Open the wait for the next step: it may take `limit_ms`, never past the
    /// run's deadline, and nothing starts at or after that deadline (false).
    pub(crate) fn begin_wait(&mut self, limit_ms: u64, now_ms: u64) -> bool {
        if self.deadline_ms.is_some_and(|d| now_ms >= d) {
            return false;
        }
        let until = now_ms.saturating_add(limit_ms);
        self.wait_until_ms = self.deadline_ms.map_or(until, |d| until.min(d));
        true
    }

    /// True when an answer at `now_ms` arrived after its wait had ended.
    fn late(&self, now_ms: u64) -> bool {
        now_ms > self.wait_until_ms
    }

    /// End the call `timed_out` at `stage`: its wait ran out, or the run's
    /// deadline came before the stage could start. Whatever the host answered
    /// is dropped; `executed` says truthfully whether the tool was reached.
    pub(crate) fn cut_off(mut self, rt: &mut Runtime, stage: Stage, now_ms: u64) -> GateStep {
        if self.executed {
            self.duration_ms = now_ms.saturating_sub(self.exec_started_ms);
        }
        self.output = None;
        let msg = match (self.deadline_ms.is_some(), self.executed) {
            (_, true) if stage == Stage::Execute => {
                "the call passed its timeout and was aborted".to_string()
            }
            (true, false) => format!(
                "the bounded-code run's deadline passed at step `{}`; the call was cut off and never executed",
                stage.as_str()
            ),
            (true, true) => format!(
                "the bounded-code run's deadline passed at step `{}`; the call was cut off after it executed and its output was dropped",
                stage.as_str()
            ),
            (false, executed) => format!(
                "the host did not answer step `{}` in time; the call was cut off{}",
                stage.as_str(),
                if executed { " and its output was dropped" } else { " and never executed" }
            ),
        };
        self.done(
            rt,
            CallStatus::TimedOut,
            stage,
            Code::CallTimedOut,
            &msg,
            now_ms,
        )
    }
    /// The resolved tool's descriptor.
    pub fn descriptor(&self) -> Option<&holaryn_model::ToolDescriptor> {
        self.tool.as_ref().map(|e| e.descriptor.as_ref())
    }
    /// True for an inner call of a bounded-code run.
    pub fn is_code_call(&self) -> bool {
        self.from_code
    }

    /// Canonical tool name, once resolved.
    pub fn tool_name(&self) -> Option<&str> {
        self.tool.as_ref().map(|e| e.descriptor.name.as_str())
    }

    pub(crate) fn refuse_error(
        self,
        rt: &mut Runtime,
        stage: Stage,
        e: &Error,
        now_ms: u64,
    ) -> GateStep {
        let mut st = self;
        st.next_action = e.next_action.clone();
        st.refuse(rt, stage, e.code, &e.message, now_ms)
    }

    pub(crate) fn refuse(
        self,
        rt: &mut Runtime,
        stage: Stage,
        code: Code,
        message: &str,
        now_ms: u64,
    ) -> GateStep {
        self.done(rt, CallStatus::Refused, stage, code, message, now_ms)
    }

    /// Finish and hand the outcome on: to the bounded-code run this call
    /// belongs to, or to the host.
    pub(crate) fn done(
        mut self,
        rt: &mut Runtime,
        status: CallStatus,
        stage: Stage,
        code: Code,
        message: &str,
        now_ms: u64,
    ) -> GateStep {
        let ctx = self.code.take();
        let outcome = self.finish(rt, status, stage, code, message, now_ms);
        match ctx {
            Some(ctx) => rt.code_continue(ctx, &outcome, now_ms),
            None => GateStep::Done(outcome),
        }
    }

    /// Step 9: build the outcome and record it.
    pub(crate) fn finish(
        self,
        rt: &mut Runtime,
        status: CallStatus,
        stage: Stage,
        code: Code,
        message: &str,
        now_ms: u64,
    ) -> CallOutcome {
        let pre_execution = !self.executed;
        let kind = if pre_execution && status != CallStatus::Cancelled {
            ActivityKind::Denial
        } else {
            ActivityKind::Invocation
        };
        let version = if self.version.is_empty() {
            rt.sessions
                .get(&self.session)
                .map(|s| s.version().to_string())
                .unwrap_or_default()
        } else {
            self.version.clone()
        };
        let mut rec = ActivityRecord {
            path: Some(self.path.as_str().into()),
            duration_ms: Some(self.duration_ms),
            bytes: Some(self.output_bytes),
            scope: self.scope.clone(),
            rule: self.rule.clone(),
            call_id: Some(self.call_id.clone()),
            tool_call_id: self.tool_call_id.clone(),
            ..ActivityRecord::new(kind, &version, code, code.reason())
        }
        .session(&self.session);
        if let Some(t) = &self.tool {
            rec = rec.tool(&t.descriptor);
        }
        rt.record(rec, now_ms);
        CallOutcome {
            call_id: self.call_id,
            status,
            code,
            message: message.to_string(),
            stage,
            tool: self.tool.as_ref().map(|t| t.descriptor.name.clone()),
            path: self.path,
            output: if status == CallStatus::Ok || self.keep_output {
                self.output
            } else {
                None
            },
            duration_ms: self.duration_ms,
            output_bytes: self.output_bytes,
            errors: self.errors,
            next_action: self.next_action,
            scope: self.scope,
            rule: self.rule,
            executed: self.executed,
        }
    }

    /// Cancel at any suspension.
    pub(crate) fn cancel(mut self, rt: &mut Runtime, stage: Stage, now_ms: u64) -> CallOutcome {
        if self.executed {
            self.duration_ms = now_ms.saturating_sub(self.exec_started_ms);
        }
        let ctx = self.code.take();
        let outcome = self.finish(
            rt,
            CallStatus::Cancelled,
            stage,
            Code::CallCancelled,
            "the host cancelled the call",
            now_ms,
        );
        match ctx {
            Some(ctx) => rt.code_cancel(ctx, now_ms),
            None => outcome,
        }
    }

    /// Step 6: approval if the tool asks first, else straight to step 7.
    fn approval_step(mut self, rt: &mut Runtime, now_ms: u64) -> GateStep {
        let asks = self
            .tool
            .as_ref()
            .is_some_and(|t| t.descriptor.asks_first());
        if !asks {
            return self.execute_step(rt, now_ms);
        }
        if !self.begin_wait(self.callback_timeout_ms, now_ms) {
            return self.cut_off(rt, Stage::Approval, now_ms);
        }
        GateStep::Approval(ApprovalRequest { st: self })
    }

    /// Step 7: re-resolve, then execute (or start the bounded-code run).
    fn execute_step(self, rt: &mut Runtime, now_ms: u64) -> GateStep {
        // Policy and the provider now: a deny or an outage that landed while
        // the call waited (for a hook or an approval) is what the call says.
        let st = match rt.governance_step(self, now_ms) {
            Ok(st) => st,
            Err(done) => return done,
        };
        if let Err(e) = rt.recheck(&st) {
            return st.refuse_error(rt, Stage::Execute, &e, now_ms);
        }
        st.execute_now(rt, now_ms)
    }

    /// Step 7, once re-resolved: execute (or start the bounded-code run).
    fn execute_now(mut self, rt: &mut Runtime, now_ms: u64) -> GateStep {
        // The tool gets what is left of the run, and nothing once it is over.
        if let Some(deadline) = self.deadline_ms {
            self.timeout_ms = self.timeout_ms.min(deadline.saturating_sub(now_ms));
        }
        if !self.begin_wait(self.timeout_ms, now_ms) {
            return self.cut_off(rt, Stage::Execute, now_ms);
        }
        self.executed = true;
        self.exec_started_ms = now_ms;
        if self
            .descriptor()
            .is_some_and(|d| d.role == ToolRole::CodeMode)
        {
            return rt.start_code(self, now_ms);
        }
        GateStep::Execute(ExecuteRequest { st: self })
    }
}

/// A refusal outcome for a call that has no session.
pub(crate) fn bare_refusal(sid: &str, e: &Error) -> CallOutcome {
    CallOutcome {
        call_id: String::new(),
        status: CallStatus::Refused,
        code: e.code,
        message: format!("no session `{sid}`"),
        stage: Stage::Resolve,
        tool: None,
        path: CallPath::Direct,
        output: None,
        duration_ms: 0,
        output_bytes: 0,
        errors: Vec::new(),
        next_action: None,
        scope: None,
        rule: None,
        executed: false,
    }
}

/// Which lifecycle hook.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum HookPhase {
    /// Before approval and execution.
    Before,
    /// After execution, before screening.
    After,
}

/// The host's answer to a hook.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "decision", rename_all = "snake_case")]
pub enum HookAnswer {
    /// Go on.
    Continue,
    /// Stop the call (the reason goes to the model, never into records).
    Veto {
        /// Why.
        #[serde(default)]
        reason: String,
    },
    /// The host's timer for this wait fired ([`CallState::wait_ms`]): cut the call off.
    TimedOut,
}

/// A lifecycle hook request.
#[derive(Debug)]
#[must_use = "a dropped request loses the call and its activity record; resume or cancel it"]
pub struct HookRequest {
    st: CallState,
    /// Which hook.
    pub phase: HookPhase,
}

impl HookRequest {
    pub(crate) fn new(st: CallState, phase: HookPhase) -> Self {
        HookRequest { st, phase }
    }
    /// The call.
    pub fn call(&self) -> &CallState {
        &self.st
    }
    /// Resume with the host's answer.
    pub fn resume(self, rt: &mut Runtime, answer: HookAnswer, now_ms: u64) -> GateStep {
        let stage = match self.phase {
            HookPhase::Before => Stage::HookBefore,
            HookPhase::After => Stage::HookAfter,
        };
        if self.st.late(now_ms) {
            return self.st.cut_off(rt, stage, now_ms);
        }
        match (answer, self.phase) {
            (HookAnswer::TimedOut, _) => self.st.cut_off(rt, stage, now_ms),
            (HookAnswer::Veto { reason }, _) => {
                let msg = if reason.is_empty() {
                    "a lifecycle hook vetoed the call".to_string()
                } else {
                    reason
                };
                self.st.done(
                    rt,
                    CallStatus::Vetoed,
                    stage,
                    Code::HookVetoed,
                    &msg,
                    now_ms,
                )
            }
            (HookAnswer::Continue, HookPhase::Before) => self.st.approval_step(rt, now_ms),
            (HookAnswer::Continue, HookPhase::After) => screen_step(self.st, rt, now_ms),
        }
    }
    /// Cancel.
    pub fn cancel(self, rt: &mut Runtime, now_ms: u64) -> CallOutcome {
        let stage = if self.phase == HookPhase::Before {
            Stage::HookBefore
        } else {
            Stage::HookAfter
        };
        self.st.cancel(rt, stage, now_ms)
    }
}

/// The host's answer to an approval request.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "decision", rename_all = "snake_case")]
pub enum ApprovalAnswer {
    /// Approved for this call.
    Approve,
    /// Denied; final for this call.
    Deny {
        /// Why (to the model only).
        #[serde(default)]
        reason: String,
    },
    /// The host's timer for this wait fired ([`CallState::wait_ms`]): cut the call off.
    TimedOut,
}

/// An approval request.
#[derive(Debug)]
#[must_use = "a dropped request loses the call and its activity record; resume or cancel it"]
pub struct ApprovalRequest {
    st: CallState,
}

impl ApprovalRequest {
    /// The call (tool, path, arguments — for the host's prompt only).
    pub fn call(&self) -> &CallState {
        &self.st
    }
    /// Resume with the host's decision.
    pub fn resume(self, rt: &mut Runtime, answer: ApprovalAnswer, now_ms: u64) -> GateStep {
        if self.st.late(now_ms) {
            return self.st.cut_off(rt, Stage::Approval, now_ms);
        }
        match answer {
            ApprovalAnswer::TimedOut => self.st.cut_off(rt, Stage::Approval, now_ms),
            ApprovalAnswer::Approve => self.st.execute_step(rt, now_ms),
            ApprovalAnswer::Deny { reason } => {
                // A policy deny (or a change to the tool) that landed while
                // the approval waited is what ends the call, whatever the host answered.
                let st = match rt.governance_step(self.st, now_ms) {
                    Ok(st) => st,
                    Err(done) => return done,
                };
                if let Err(e) = rt.recheck(&st) {
                    return st.refuse_error(rt, Stage::Approval, &e, now_ms);
                }
                let msg = if reason.is_empty() {
                    "the host denied approval for this call".to_string()
                } else {
                    reason
                };
                st.done(
                    rt,
                    CallStatus::ApprovalDenied,
                    Stage::Approval,
                    Code::ApprovalDenied,
                    &msg,
                    now_ms,
                )
            }
        }
    }
    /// Cancel.
    pub fn cancel(self, rt: &mut Runtime, now_ms: u64) -> CallOutcome {
        self.st.cancel(rt, Stage::Approval, now_ms)
    }
}

/// The host's answer to an execute request.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum ExecAnswer {
    /// The tool returned output.
    Ok {
        /// Output JSON.
        output: Value,
    },
    /// The tool failed (message to the model only).
    Error {
        /// Message.
        #[serde(default)]
        message: String,
    },
    /// The host's timer fired and the AbortSignal was raised.
    TimedOut,
}

/// An execute request.
#[derive(Debug)]
#[must_use = "a dropped request loses the call and its activity record; resume or cancel it"]
pub struct ExecuteRequest {
    pub(crate) st: CallState,
}

impl ExecuteRequest {
    /// The call.
    pub fn call(&self) -> &CallState {
        &self.st
    }
    /// Resume with what the tool did.
    pub fn resume(self, rt: &mut Runtime, answer: ExecAnswer, now_ms: u64) -> GateStep {
        let mut st = self.st;
        st.duration_ms = now_ms.saturating_sub(st.exec_started_ms);
        if st.late(now_ms) {
            return st.cut_off(rt, Stage::Execute, now_ms);
        }
        match answer {
            ExecAnswer::TimedOut => st.cut_off(rt, Stage::Execute, now_ms),
            ExecAnswer::Error { message } => {
                let msg = if message.is_empty() {
                    "the tool reported an error".to_string()
                } else {
                    message
                };
                st.done(
                    rt,
                    CallStatus::Failed,
                    Stage::Execute,
                    Code::ToolFailed,
                    &msg,
                    now_ms,
                )
            }
            ExecAnswer::Ok { output } => {
                st.output_bytes = crate::content::model_bytes(&output);
                st.output = Some(output);
                if !st.begin_wait(st.callback_timeout_ms, now_ms) {
                    return st.cut_off(rt, Stage::HookAfter, now_ms);
                }
                GateStep::HookAfter(HookRequest::new(st, HookPhase::After))
            }
        }
    }
    /// Cancel (the host aborts the tool).
    pub fn cancel(self, rt: &mut Runtime, now_ms: u64) -> CallOutcome {
        self.st.cancel(rt, Stage::Execute, now_ms)
    }
}

/// Step 8 (after the hook `after`): the output cap, then screening.
fn screen_step(mut st: CallState, rt: &mut Runtime, now_ms: u64) -> GateStep {
    if st.output_bytes > st.max_output_bytes {
        let msg = format!(
            "the output is {} bytes; the cap is {}",
            st.output_bytes, st.max_output_bytes
        );
        st.output = None;
        return st.done(
            rt,
            CallStatus::OutputTooLarge,
            Stage::Screen,
            Code::OutputTooLarge,
            &msg,
            now_ms,
        );
    }
    if !st.begin_wait(st.callback_timeout_ms, now_ms) {
        return st.cut_off(rt, Stage::Screen, now_ms);
    }
    GateStep::Screen(ScreenRequest { st })
}

/// The host's answer to screening.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "decision", rename_all = "snake_case")]
pub enum ScreenAnswer {
    /// Pass the output through.
    Pass,
    /// Replace the output (e.g. redacted).
    Replace {
        /// The new output.
        output: Value,
    },
    /// Withhold the output.
    Block {
        /// Why (to the model only).
        #[serde(default)]
        reason: String,
    },
    /// The host's timer for this wait fired ([`CallState::wait_ms`]): cut the call off.
    TimedOut,
}

/// An output screening request.
#[derive(Debug)]
#[must_use = "a dropped request loses the call and its activity record; resume or cancel it"]
pub struct ScreenRequest {
    st: CallState,
}

impl ScreenRequest {
    /// The call.
    pub fn call(&self) -> &CallState {
        &self.st
    }
    /// The output to screen.
    pub fn output(&self) -> Option<&Value> {
        self.st.output.as_ref()
    }
    /// Resume with the screening decision.
    pub fn resume(self, rt: &mut Runtime, answer: ScreenAnswer, now_ms: u64) -> GateStep {
        let mut st = self.st;
        if st.late(now_ms) {
            return st.cut_off(rt, Stage::Screen, now_ms);
        }
        match answer {
            ScreenAnswer::TimedOut => return st.cut_off(rt, Stage::Screen, now_ms),
            ScreenAnswer::Pass => {}
            ScreenAnswer::Replace { output } => {
                st.output_bytes = crate::content::model_bytes(&output);
                st.output = Some(output);
                if st.output_bytes > st.max_output_bytes {
                    return screen_step(st, rt, now_ms);
                }
            }
            ScreenAnswer::Block { reason } => {
                st.output = None;
                let msg = if reason.is_empty() {
                    "output screening withheld the output".to_string()
                } else {
                    reason
                };
                return st.done(
                    rt,
                    CallStatus::Blocked,
                    Stage::Screen,
                    Code::OutputBlocked,
                    &msg,
                    now_ms,
                );
            }
        }
        st.done(
            rt,
            CallStatus::Ok,
            Stage::Done,
            Code::Ok,
            "the call completed",
            now_ms,
        )
    }
    /// Cancel.
    pub fn cancel(self, rt: &mut Runtime, now_ms: u64) -> CallOutcome {
        self.st.cancel(rt, Stage::Screen, now_ms)
    }
}
