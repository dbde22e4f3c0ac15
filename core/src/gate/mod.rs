//! The one execution gate: every call path — direct name, alias, handle,
//! legacy `run_tool_script`, bounded-code inner call — passes the same steps,
//! in order, as a sans-IO state machine. Each step is one function:
//!
//! 1. resolve through the *current* registry (unknown, forged, stale → refused
//!    before any host callback runs): `Runtime::resolve_step`;
//! 2. governance (nesting, policy now): `Runtime::governance_step`;
//! 3. schema loaded (dynamic sessions): `Runtime::schema_step`;
//! 4. argument validation: `Runtime::validation_step`;
//! 5. hook `before`: `Runtime::hook_before_step`;
//! 6. approval when required: `CallState::approval_step` (steps.rs);
//! 7. execute with a timeout, re-resolved right before (`Runtime::recheck`):
//!    `CallState::execute_step`;
//! 8. hook `after` ([`HookRequest::resume`]), then the output cap and
//!    screening: `screen_step` (steps.rs);
//! 9. event recording: `CallState::finish`.
//!
//! [`Runtime::start_call`] returns a [`GateStep`]; each suspension is its own
//! struct with a consuming `resume(self, runtime, answer, now_ms)`, and
//! [`GateStep::cancel`] ends the call at whatever step it waits.

mod code;
mod steps;

pub use holaryn_model::{ArgError, CallOutcome, CallPath, CallStatus, Stage};
pub use steps::{
    ApprovalAnswer, ApprovalRequest, CallState, ExecAnswer, ExecuteRequest, GateStep, HookAnswer,
    HookPhase, HookRequest, ScreenAnswer, ScreenRequest,
};

use crate::availability::AvailabilityState;
use crate::runtime::api::Resolved;
use crate::runtime::Runtime;
use crate::session::Session;
use crate::session::{DEFAULT_CALLBACK_TIMEOUT_MS, DEFAULT_MAX_OUTPUT_BYTES, DEFAULT_TIMEOUT_MS};
use holaryn_jsonschema::ErrorKind as ValidationErrorKind;
use holaryn_model::is_discovery_tool;
use holaryn_model::Code;
use holaryn_model::Error;
use holaryn_model::ToolDescriptor;
use holaryn_model::ToolRole;
use serde_json::Value;
use std::sync::Arc;

/// A call between steps: going on, or finished (refused and recorded).
type Flow = Result<CallState, GateStep>;

impl Runtime {
    /// Start a call from the model (`target`: canonical name, alias or handle).
    pub fn start_call(&mut self, sid: &str, target: &str, args: Value, now_ms: u64) -> GateStep {
        self.start_call_with(sid, target, args, false, now_ms)
    }

    /// Start a call a model made in a provider's shape, keeping its tool-call
    /// id (empty: none) for the call's activity record.
    pub(crate) fn start_model_call(
        &mut self,
        sid: &str,
        target: &str,
        args: Value,
        tool_call_id: &str,
        now_ms: u64,
    ) -> GateStep {
        let flow = self
            .open_call(sid, args, false, now_ms)
            .map(|st| st.with_tool_call_id(tool_call_id));
        self.run_call(flow, target, now_ms)
    }

    /// Refuse a call before it resolves (e.g. a model called a name its tool
    /// list does not have), recorded like every refusal at the resolve step.
    pub fn refuse_call(&mut self, sid: &str, e: &Error, args: Value, now_ms: u64) -> GateStep {
        self.refuse_model_call(sid, e, args, "", now_ms)
    }

    /// [`Runtime::refuse_call`] for a model's call, keeping its tool-call id
    /// (empty: none) for the activity record.
    pub(crate) fn refuse_model_call(
        &mut self,
        sid: &str,
        e: &Error,
        args: Value,
        tool_call_id: &str,
        now_ms: u64,
    ) -> GateStep {
        let Some(session) = self.sessions.get_mut(sid) else {
            let e = crate::runtime::unknown_session(sid);
            return GateStep::Done(steps::bare_refusal(sid, &e));
        };
        let call_id = session.next_id("call");
        CallState::new(sid, call_id, args, false, now_ms)
            .with_tool_call_id(tool_call_id)
            .refuse_error(self, Stage::Resolve, e, now_ms)
    }

    /// Start a call; `from_code` marks an inner call of bounded code mode.
    /// Steps 1–5 of the module docs, one function each; a step that refuses
    /// ends the call (`Err` carries the finished, recorded step).
    pub(crate) fn start_call_with(
        &mut self,
        sid: &str,
        target: &str,
        args: Value,
        from_code: bool,
        now_ms: u64,
    ) -> GateStep {
        let flow = self.open_call(sid, args, from_code, now_ms);
        self.run_call(flow, target, now_ms)
    }

    /// Steps 1–5 on an opened call.
    fn run_call(&mut self, flow: Flow, target: &str, now_ms: u64) -> GateStep {
        let flow = flow
            .and_then(|st| self.resolve_step(st, target, now_ms))
            .and_then(|st| self.governance_step(st, now_ms))
            .and_then(|st| self.schema_step(st, now_ms))
            .and_then(|st| self.validation_step(st, now_ms));
        match flow {
            Ok(st) => self.hook_before_step(st, now_ms),
            Err(done) => done,
        }
    }

    /// A fresh call state with the session's next call id.
    fn open_call(&mut self, sid: &str, args: Value, from_code: bool, now_ms: u64) -> Flow {
        match self.sessions.get_mut(sid) {
            Some(s) => {
                let call_id = s.next_id("call");
                Ok(CallState::new(sid, call_id, args, from_code, now_ms))
            }
            None => {
                let e = crate::runtime::unknown_session(sid);
                Err(GateStep::Done(steps::bare_refusal(sid, &e)))
            }
        }
    }

    /// Step 1: Resolve through the current registry (unknown, forged, stale).
    fn resolve_step(&mut self, mut st: CallState, target: &str, now_ms: u64) -> Flow {
        let resolved = match self.sessions.get(&st.session) {
            Some(session) => self.resolve_for(session, target),
            None => Err(crate::runtime::unknown_session(&st.session)),
        };
        let (entry, how) = match resolved {
            Ok(r) => r,
            Err(e) => return Err(st.refuse_error(self, Stage::Resolve, &e, now_ms)),
        };
        st.path = if st.from_code {
            CallPath::Code
        } else if entry.descriptor.role == ToolRole::LegacyScript {
            CallPath::LegacyScript
        } else {
            match how {
                Resolved::Name => CallPath::Direct,
                Resolved::Alias => CallPath::Alias,
                Resolved::Handle => CallPath::Handle,
            }
        };
        st.tool = Some(entry.clone());
        match self.sessions.get(&st.session) {
            Some(session) => {
                st.version = session.version().to_string();
                Ok(st)
            }
            None => Err(st.refuse(
                self,
                Stage::Resolve,
                Code::ToolUnknown,
                "session closed",
                now_ms,
            )),
        }
    }

    /// Step 2: Governance: nesting, then the session's policy and the tool's
    /// availability now.
    pub(super) fn governance_step(&mut self, mut st: CallState, now_ms: u64) -> Flow {
        let Some((session, tool)) = self.call_parts(&st) else {
            return Ok(st);
        };
        if st.from_code && (tool.is_bridge() || is_discovery_tool(&tool.name)) {
            return Err(st.refuse(
                self,
                Stage::Governance,
                Code::CodeNesting,
                "bounded code may not call code mode, discovery tools, delegation or script bridges (nesting depth one)",
                now_ms,
            ));
        }
        let avail = self.availability_of(session, &tool);
        let (stage, code, reason) = match avail.state {
            AvailabilityState::Denied => {
                st.scope = avail.scope.map(|s| s.as_str().to_string());
                st.rule = avail.rule.clone();
                (Stage::Governance, Code::PolicyDenied, avail.reason)
            }
            AvailabilityState::CatalogOnly => {
                (Stage::Governance, Code::ToolCatalogOnly, avail.reason)
            }
            AvailabilityState::Unavailable => {
                (Stage::Governance, Code::ProviderUnavailable, avail.reason)
            }
            AvailabilityState::Hidden => {
                // Never describe a hidden tool: it is simply unknown.
                let step = st.refuse(
                    self,
                    Stage::Resolve,
                    Code::ToolUnknown,
                    "no tool by that name",
                    now_ms,
                );
                return Err(step);
            }
            _ => return Ok(st),
        };
        st.next_action = Some(avail.next_action);
        Err(st.refuse(self, stage, code, &reason, now_ms))
    }

    /// Step 3: Schema loaded (dynamic sessions).
    fn schema_step(&mut self, mut st: CallState, now_ms: u64) -> Flow {
        let Some((session, tool)) = self.call_parts(&st) else {
            return Ok(st);
        };
        if !session.is_dynamic() || session.is_loaded(&tool) {
            return Ok(st);
        }
        st.next_action = Some(format!("call tool_inspect with name `{}` first", tool.name));
        Err(st.refuse(
            self,
            Stage::Schema,
            Code::SchemaNotLoaded,
            "the tool's schema is not loaded in this session; inspect it first",
            now_ms,
        ))
    }

    /// Step 4: Validation: arguments within the session's size cap (the host
    /// did not parse bigger ones: `holaryn_model::oversized`), a JSON object
    /// the runtime can pass on unchanged, then the tool's schema (a schema
    /// that does not compile is the tool's fault, never the arguments').
    fn validation_step(&mut self, mut st: CallState, now_ms: u64) -> Flow {
        let Some(entry) = st.tool.clone() else {
            return Ok(st);
        };
        if let Some(bytes) = holaryn_model::oversized(&st.args) {
            st.args = Value::Object(Default::default());
            st.next_action = Some(
                "send smaller arguments, or have the host raise the session's maxArgumentBytes"
                    .into(),
            );
            let reason = format!(
                "the arguments are {bytes} bytes of JSON, over this session's cap of {} (maxArgumentBytes)",
                self.max_argument_bytes(&st.session)
            );
            return Err(st.refuse(self, Stage::Validation, Code::ArgsTooLarge, &reason, now_ms));
        }
        let validator = match entry.validator.get(&entry.descriptor.input_schema) {
            Ok(v) => v,
            Err(why) => {
                st.errors = vec![ArgError {
                    pointer: String::new(),
                    message: format!("the tool's input schema cannot be compiled: {why}"),
                }];
                st.next_action = Some("ask the tool's provider to fix its input schema".into());
                return Err(st.refuse(
                    self,
                    Stage::Validation,
                    Code::DescriptorInvalidSchema,
                    "the tool's input schema cannot be compiled",
                    now_ms,
                ));
            }
        };
        let mut over_budget = false;
        let errors: Vec<ArgError> = if !st.args.is_object() {
            vec![ArgError {
                pointer: String::new(),
                message: format!(
                    "arguments must be a JSON object, not {}",
                    crate::validate::kind_of(&st.args)
                ),
            }]
        } else if let Some(e) = holaryn_model::unrepresentable(&st.args) {
            vec![e]
        } else {
            validator
                .iter_errors(&st.args)
                .inspect(|e| over_budget |= *e.kind() == ValidationErrorKind::BudgetExceeded)
                .map(|e| ArgError {
                    pointer: e.instance_path().to_string(),
                    message: e.to_string(),
                })
                .collect()
        };
        if errors.is_empty() {
            return Ok(st);
        }
        st.errors = errors;
        if over_budget {
            // Undecided is refused (fail closed), as its own code.
            st.next_action = Some(
                "send smaller arguments, or ask the tool's provider for a simpler input schema"
                    .into(),
            );
            return Err(st.refuse(
                self,
                Stage::Validation,
                Code::ArgsBudgetExceeded,
                "checking the arguments needed more steps than the validation budget",
                now_ms,
            ));
        }
        st.next_action = Some("fix the arguments to match the tool's input schema".into());
        Err(st.refuse(
            self,
            Stage::Validation,
            Code::ArgsInvalid,
            "the arguments do not match the tool's input schema",
            now_ms,
        ))
    }

    /// Step 5: hook `before`, once the call's time limits are fixed (every
    /// wait is bounded: see `CallState::wait_ms`).
    fn hook_before_step(&mut self, mut st: CallState, now_ms: u64) -> GateStep {
        let options = self.sessions.get(&st.session).map(|s| &s.options);
        let tool_timeout = st.tool.as_ref().and_then(|t| t.descriptor.timeout_ms);
        st.timeout_ms = tool_timeout
            .or(options.and_then(|o| o.default_timeout_ms))
            .unwrap_or(DEFAULT_TIMEOUT_MS);
        st.max_output_bytes = options
            .and_then(|o| o.max_output_bytes)
            .unwrap_or(DEFAULT_MAX_OUTPUT_BYTES);
        st.callback_timeout_ms = options
            .and_then(|o| o.callback_timeout_ms)
            .unwrap_or(DEFAULT_CALLBACK_TIMEOUT_MS);
        st.begin_wait(st.callback_timeout_ms, now_ms);
        GateStep::HookBefore(HookRequest::new(st, HookPhase::Before))
    }

    /// The call's session and resolved tool (both exist after step 1).
    fn call_parts(&self, st: &CallState) -> Option<(&Session, Arc<ToolDescriptor>)> {
        let session = self.sessions.get(&st.session)?;
        let tool = st.tool.as_ref()?.descriptor.clone();
        Some((session, tool))
    }

    /// Re-resolve right before execution: the tool must be exactly the
    /// descriptor the call started with (a change to another tool, or to the
    /// registry elsewhere, is no reason to stop it; policy and provider are
    /// checked again by the governance step before this). A handle that no
    /// longer holds is `handle.stale`; a call by name or alias whose tool went
    /// away is `tool.unknown`, and one whose tool changed is `tool.changed`.
    pub(crate) fn recheck(&self, st: &CallState) -> Result<(), Error> {
        // Bounded code calls by handle only.
        let by_handle = matches!(st.path, CallPath::Handle | CallPath::Code);
        let changed = || {
            let code = if by_handle {
                Code::HandleStale
            } else {
                Code::ToolChanged
            };
            Error::new(code, "the registry changed while the call was pending")
                .with_next_action("inspect the tool again and retry")
        };
        let session = self
            .sessions
            .get(&st.session)
            .ok_or_else(|| crate::runtime::unknown_session(&st.session))?;
        let tool = st.tool.as_ref().ok_or_else(changed)?;
        let Some(current) = self.lookup(&tool.descriptor.name) else {
            if by_handle {
                return Err(changed());
            }
            return Err(Error::new(
                Code::ToolUnknown,
                "the tool was removed while the call was pending",
            )
            .with_next_action("call tool_search to find another tool"));
        };
        if current.descriptor.version != tool.descriptor.version
            || current.descriptor.schema_hash != tool.descriptor.schema_hash
            || current.descriptor.name != tool.descriptor.name
        {
            return Err(changed());
        }
        // A handle holds while its tool stays loaded as inspected.
        if st.path == CallPath::Handle
            && session.is_dynamic()
            && !session.is_loaded(&current.descriptor)
        {
            return Err(changed());
        }
        Ok(())
    }
}
