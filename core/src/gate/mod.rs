//! The one execution gate: every call path — direct name, alias, handle,
//! legacy `run_tool_script`, bounded-code inner call — passes the same steps,
//! in order, as a sans-IO state machine:
//!
//! 1. resolve through the *current* registry (unknown, forged, stale → refused
//!    before any host callback runs); 2. governance (policy now); 3. schema
//!    loaded (dynamic sessions); 4. argument validation; 5. hook `before`;
//! 6. approval when required; 7. execute with a timeout (re-resolved right
//!    before); 8. hook `after`, output cap and screening; 9. event recording.
//!
//! [`Runtime::start_call`] returns a [`GateStep`]; each suspension is its own
//! struct with a consuming `resume(self, runtime, answer, now_ms)`.

mod code;
mod outcome;
mod steps;

pub use outcome::{ArgError, CallOutcome, CallPath, CallStatus, Stage};
pub use steps::{
    ApprovalAnswer, ApprovalRequest, CallState, ExecAnswer, ExecuteRequest, GateStep, HookAnswer,
    HookPhase, HookRequest, ScreenAnswer, ScreenRequest,
};

use crate::availability::AvailabilityState;
use crate::builtin::is_discovery_tool;
use crate::codes::Code;
use crate::descriptor::ToolRole;
use crate::error::Error;
use crate::inspect::Resolved;
use crate::runtime::Runtime;
use crate::session::{DEFAULT_CALLBACK_TIMEOUT_MS, DEFAULT_MAX_OUTPUT_BYTES, DEFAULT_TIMEOUT_MS};
use serde_json::Value;

impl Runtime {
    /// Start a call from the model (`target`: canonical name, alias or handle).
    pub fn start_call(&mut self, sid: &str, target: &str, args: Value, now_ms: u64) -> GateStep {
        self.start_call_with(sid, target, args, false, now_ms)
    }

    /// Refuse a call before it resolves (e.g. a model called a name its tool
    /// list does not have), recorded like every refusal at the resolve step.
    pub fn refuse_call(&mut self, sid: &str, e: &Error, args: Value, now_ms: u64) -> GateStep {
        let Some(session) = self.sessions.get_mut(sid) else {
            let e = crate::runtime::unknown_session(sid);
            return GateStep::Done(steps::bare_refusal(sid, &e));
        };
        let call_id = session.next_id("call");
        CallState::new(sid, call_id, args, false, now_ms).refuse_error(
            self,
            Stage::Resolve,
            e,
            now_ms,
        )
    }

    /// Start a call; `from_code` marks an inner call of bounded code mode.
    pub(crate) fn start_call_with(
        &mut self,
        sid: &str,
        target: &str,
        args: Value,
        from_code: bool,
        now_ms: u64,
    ) -> GateStep {
        let call_id = match self.sessions.get_mut(sid) {
            Some(s) => s.next_id("call"),
            None => {
                let e = crate::runtime::unknown_session(sid);
                return GateStep::Done(steps::bare_refusal(sid, &e));
            }
        };
        let mut st = CallState::new(sid, call_id, args, from_code, now_ms);
        // 1. Resolve.
        let resolved = match self.sessions.get(sid) {
            Some(session) => self.resolve_for(session, target),
            None => Err(crate::runtime::unknown_session(sid)),
        };
        let (entry, how) = match resolved {
            Ok(r) => r,
            Err(e) => return st.refuse_error(self, Stage::Resolve, &e, now_ms),
        };
        let tool = entry.descriptor.clone();
        st.path = if from_code {
            CallPath::Code
        } else if tool.role == ToolRole::LegacyScript {
            CallPath::LegacyScript
        } else {
            match how {
                Resolved::Name => CallPath::Direct,
                Resolved::Alias => CallPath::Alias,
                Resolved::Handle => CallPath::Handle,
            }
        };
        st.tool = Some(entry.clone());
        let Some(session) = self.sessions.get(sid) else {
            return st.refuse(
                self,
                Stage::Resolve,
                Code::ToolUnknown,
                "session closed",
                now_ms,
            );
        };
        st.version = session.version().to_string();
        // 2. Governance.
        if from_code && (tool.is_bridge() || is_discovery_tool(&tool.name)) {
            return st.refuse(
                self,
                Stage::Governance,
                Code::CodeNesting,
                "bounded code may not call code mode, discovery tools, delegation or script bridges (nesting depth one)",
                now_ms,
            );
        }
        let avail = self.availability_of(session, &tool);
        match avail.state {
            AvailabilityState::Denied => {
                st.scope = avail.scope.map(|s| s.as_str().to_string());
                st.rule = avail.rule.clone();
                st.next_action = Some(avail.next_action.clone());
                return st.refuse(
                    self,
                    Stage::Governance,
                    Code::PolicyDenied,
                    &avail.reason,
                    now_ms,
                );
            }
            AvailabilityState::CatalogOnly => {
                st.next_action = Some(avail.next_action.clone());
                return st.refuse(
                    self,
                    Stage::Governance,
                    Code::ToolCatalogOnly,
                    &avail.reason,
                    now_ms,
                );
            }
            AvailabilityState::Unavailable => {
                st.next_action = Some(avail.next_action.clone());
                return st.refuse(
                    self,
                    Stage::Governance,
                    Code::ProviderUnavailable,
                    &avail.reason,
                    now_ms,
                );
            }
            AvailabilityState::Hidden => {
                return st.refuse(
                    self,
                    Stage::Resolve,
                    Code::ToolUnknown,
                    "no tool by that name",
                    now_ms,
                );
            }
            _ => {}
        }
        // 3. Schema loaded (dynamic sessions).
        if session.is_dynamic() && !session.is_loaded(&tool.name, &tool.schema_hash) {
            st.next_action = Some(format!("call tool_inspect with name `{}` first", tool.name));
            return st.refuse(
                self,
                Stage::Schema,
                Code::SchemaNotLoaded,
                "the tool's schema is not loaded in this session; inspect it first",
                now_ms,
            );
        }
        // 4. Validation: a JSON object the runtime can pass on unchanged,
        // then the tool's schema (a schema that does not compile is the
        // tool's fault, never the arguments').
        let validator = match entry.validator.get(&tool.input_schema) {
            Ok(v) => v,
            Err(why) => {
                st.errors = vec![ArgError {
                    pointer: String::new(),
                    message: format!("the tool's input schema cannot be compiled: {why}"),
                }];
                st.next_action = Some("ask the tool's provider to fix its input schema".into());
                return st.refuse(
                    self,
                    Stage::Validation,
                    Code::DescriptorInvalidSchema,
                    "the tool's input schema cannot be compiled",
                    now_ms,
                );
            }
        };
        let errors: Vec<ArgError> = if !st.args.is_object() {
            vec![ArgError {
                pointer: String::new(),
                message: format!(
                    "arguments must be a JSON object, not {}",
                    crate::validate::kind_of(&st.args)
                ),
            }]
        } else if let Some(e) = crate::args::unrepresentable(&st.args) {
            vec![e]
        } else {
            validator
                .iter_errors(&st.args)
                .map(|e| ArgError {
                    pointer: e.instance_path().to_string(),
                    message: e.to_string(),
                })
                .collect()
        };
        if !errors.is_empty() {
            st.errors = errors;
            st.next_action = Some("fix the arguments to match the tool's input schema".into());
            return st.refuse(
                self,
                Stage::Validation,
                Code::ArgsInvalid,
                "the arguments do not match the tool's input schema",
                now_ms,
            );
        }
        st.timeout_ms = tool
            .timeout_ms
            .or(session.options.default_timeout_ms)
            .unwrap_or(DEFAULT_TIMEOUT_MS);
        st.max_output_bytes = session
            .options
            .max_output_bytes
            .unwrap_or(DEFAULT_MAX_OUTPUT_BYTES);
        st.callback_timeout_ms = session
            .options
            .callback_timeout_ms
            .unwrap_or(DEFAULT_CALLBACK_TIMEOUT_MS);
        // 5. Hook `before` (every wait is bounded: see `CallState::wait_ms`).
        st.begin_wait(st.callback_timeout_ms, now_ms);
        GateStep::HookBefore(HookRequest::new(st, HookPhase::Before))
    }

    /// Re-resolve right before execution: the session and the tool must be
    /// exactly as they were when the call started. A handle that no longer
    /// holds is `handle.stale`; a call by name or alias whose
    /// tool went away is `tool.unknown`, and one whose tool or session
    /// changed is `tool.changed`.
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
        if session.version() != st.version || current.descriptor.version != tool.descriptor.version
        {
            return Err(changed());
        }
        Ok(())
    }
}
