//! Routing one model tool call, sans-IO: what `dispatch(name, args)` and
//! `dispatchModelCall(format, call)` do, for every binding alike.
//!
//! 1. A provider-shaped call is parsed ([`crate::formats::parse_call`]); a
//!    call the model got wrong (arguments that are not JSON, no name, a name
//!    not in the session's current export, a stale wire name) is refused at
//!    the gate's resolve step and answered with the format's error tool
//!    result, never an error to the host.
//! 2. A discovery tool runs at once (`tool_search` may first ask the host's
//!    embedder: [`ModelCallStep::Embed`]); in a static session it is an error
//!    result.
//! 3. Anything else goes through the gate ([`ModelCallStep::Gate`]): the host
//!    drives the [`GateStep`] and hands the outcome to [`Finish::resume`].
//!
//! Every result is put in the format's shape by [`crate::content`]. Only host
//! programming errors are `Err`: an unknown session, and a provider-shaped
//! call with no call id to address a result to.

use super::inspect::CallTarget;
use super::semantic::{EmbedFailure, EmbedRequest, SearchStep};
use super::Runtime;
use crate::content::{result_shape, ToolResult};
use crate::formats;
use crate::gate::{CallOutcome, GateStep};
use holaryn_model::is_discovery_tool;
use holaryn_model::Format;
use holaryn_model::{Error, ErrorCode, Result};
use serde_json::{json, Value};

/// What a model call needs next.
#[derive(Debug)]
#[must_use = "a dropped step loses the model's tool result"]
#[allow(clippy::large_enum_variant)] // one step at a time, moved along, never stored in bulk
pub enum ModelCallStep {
    /// The tool result, in the call's shape.
    Done(Value),
    /// `tool_search` wants the host embedder's vectors first.
    Embed(SearchCall),
    /// A gated call: drive the gate, then [`Finish::resume`] with its outcome.
    Gate(GateCall),
}

/// Where a result goes: a format and call id, or the format-free shape.
#[derive(Debug, Clone)]
struct Reply {
    format: Option<Format>,
    call_id: String,
}

impl Reply {
    fn shape(&self, r: &ToolResult) -> Value {
        match self.format {
            Some(f) => result_shape(f, &self.call_id, r),
            None => r.plain(),
        }
    }

    fn outcome(&self, o: CallOutcome) -> ModelCallStep {
        ModelCallStep::Done(self.shape(&ToolResult::from_outcome(o)))
    }

    fn gate(self, step: GateStep) -> ModelCallStep {
        match step {
            GateStep::Done(o) => self.outcome(o),
            step => ModelCallStep::Gate(GateCall { step, reply: self }),
        }
    }

    fn search(self, step: Result<SearchStep>) -> ModelCallStep {
        match step {
            Ok(SearchStep::NeedEmbeddings(req)) => {
                ModelCallStep::Embed(SearchCall { req, reply: self })
            }
            Ok(SearchStep::Done(out)) => {
                ModelCallStep::Done(self.shape(&ToolResult::ok(json!(out))))
            }
            Ok(SearchStep::Prepared(_)) => self.error(&Error::new(
                ErrorCode::ProtocolInvalidResume,
                "a search ended without a result",
            )),
            Err(e) => self.error(&e),
        }
    }

    fn error(&self, e: &Error) -> ModelCallStep {
        ModelCallStep::Done(self.shape(&ToolResult::error(json!(e))))
    }
}

/// A suspension: `tool_search` waits for the host embedder.
#[derive(Debug)]
#[must_use = "a dropped step loses the model's tool result"]
pub struct SearchCall {
    req: EmbedRequest,
    reply: Reply,
}

impl SearchCall {
    /// The embedding request to answer.
    pub fn request(&self) -> &EmbedRequest {
        &self.req
    }

    /// Resume with the vectors (or why there are none).
    pub fn resume(
        self,
        rt: &mut Runtime,
        answer: std::result::Result<Vec<Vec<f32>>, EmbedFailure>,
        now_ms: u64,
    ) -> ModelCallStep {
        let next = self.req.resume(rt, answer, now_ms);
        self.reply.search(next)
    }
}

/// A suspension: a call in the gate.
#[derive(Debug)]
#[must_use = "a dropped step loses the model's tool result"]
pub struct GateCall {
    step: GateStep,
    reply: Reply,
}

impl GateCall {
    /// The gate step to drive, and what turns its outcome into the tool result.
    pub fn into_parts(self) -> (GateStep, Finish) {
        (self.step, Finish { reply: self.reply })
    }
}

/// The tool result a gated call becomes.
#[derive(Debug)]
#[must_use = "a dropped step loses the model's tool result"]
pub struct Finish {
    reply: Reply,
}

impl Finish {
    /// The gate's outcome as the call's tool result.
    pub fn resume(self, outcome: CallOutcome) -> Value {
        self.reply.shape(&ToolResult::from_outcome(outcome))
    }
}

impl Runtime {
    /// One model tool call by name (the format-free path): the result is
    /// `{isError, content, outcome?}`.
    pub fn dispatch(
        &mut self,
        sid: &str,
        name: &str,
        args: Value,
        now_ms: u64,
    ) -> Result<ModelCallStep> {
        self.session(sid)?;
        let reply = Reply {
            format: None,
            call_id: String::new(),
        };
        Ok(self.route(sid, name, args, reply, now_ms))
    }

    /// One provider-shaped model call (`tool_use` block, chat `tool_calls[i]`,
    /// Responses `function_call`, MCP `tools/call` params); the result is the
    /// format's tool-result shape.
    pub fn dispatch_model_call(
        &mut self,
        sid: &str,
        format: Format,
        call: &Value,
        now_ms: u64,
    ) -> Result<ModelCallStep> {
        self.session(sid)?;
        let call_id = formats::call_id_of(format, call);
        let parsed = formats::parse_call(format, call, self.max_argument_bytes(sid));
        let call_id = match (&parsed, call_id) {
            (Ok(p), _) => p.call_id.clone(),
            (Err(_), Some(id)) => id,
            (Err(_), None) if format == Format::Mcp => String::new(),
            (Err(e), None) => {
                return Err(e
                    .clone()
                    .with_next_action("pass the model's tool call object unchanged"))
            }
        };
        let reply = Reply {
            format: Some(format),
            call_id,
        };
        let parsed = match parsed {
            Ok(p) => p,
            Err(e) => {
                let step = self.refuse_model_call(sid, &e, json!({}), &reply.call_id, now_ms);
                return Ok(reply.gate(step));
            }
        };
        match self.call_target(sid, format, &parsed.name) {
            Ok(CallTarget::Route(name)) => {
                Ok(self.route(sid, &name, parsed.arguments, reply, now_ms))
            }
            Ok(CallTarget::Load(name)) => {
                if let Some(tool) = self.lookup(&name).map(|e| e.descriptor.clone()) {
                    self.load_into(sid, &tool);
                }
                Ok(self.route(sid, &name, parsed.arguments, reply, now_ms))
            }
            Err(e) if e.code == ErrorCode::SessionUnknown => Err(e),
            Err(e) => {
                let step =
                    self.refuse_model_call(sid, &e, parsed.arguments, &reply.call_id, now_ms);
                Ok(reply.gate(step))
            }
        }
    }

    /// A provider-shaped call whose arguments the binding could not convert
    /// (nested deeper than JSON conversion goes): the format's error result, as
    /// arguments that are not JSON get. `head` is the call without its
    /// arguments field (`input`, `arguments`); `why` says what failed.
    pub fn dispatch_unreadable_call(
        &mut self,
        sid: &str,
        format: Format,
        head: &Value,
        why: &str,
        now_ms: u64,
    ) -> Result<ModelCallStep> {
        self.session(sid)?;
        // The OpenAI formats' `arguments` is text, never too deep: named for the message only.
        let field = formats::object_arguments_field(format).unwrap_or("arguments");
        let id = match format {
            Format::Mcp => Some(String::new()),
            _ => formats::call_id_of(format, head),
        };
        let e = formats::unreadable_arguments(field, why);
        let Some(call_id) = id else {
            return Err(e.with_next_action("pass the model's tool call object unchanged"));
        };
        let reply = Reply {
            format: Some(format),
            call_id,
        };
        Ok(reply.gate(self.refuse_call(sid, &e, json!({}), now_ms)))
    }

    /// A discovery tool at once, anything else into the gate.
    fn route(
        &mut self,
        sid: &str,
        name: &str,
        args: Value,
        reply: Reply,
        now_ms: u64,
    ) -> ModelCallStep {
        if !is_discovery_tool(name) {
            let step = self.start_model_call(sid, name, args, &reply.call_id, now_ms);
            return reply.gate(step);
        }
        if !self.session(sid).is_ok_and(|s| s.is_dynamic()) {
            let e = Error::new(
                ErrorCode::ToolUnknown,
                "discovery tools are off in a static session",
            )
            .with_tool(name)
            .with_next_action("call a tool by a name from the current tool list");
            return reply.error(&e);
        }
        let out = match name {
            "tool_search" => return reply.search(self.search_step(sid, &args, now_ms)),
            "tool_list" => self.tool_list(sid, &args, now_ms).map(|o| json!(o)),
            _ => self.tool_inspect(sid, &args, now_ms).map(|o| json!(o)),
        };
        // Deferred mode: an inspect answers with a tool_reference the API expands.
        let reference = match (&out, reply.format) {
            (Ok(v), Some(f)) if name == "tool_inspect" => self
                .inspect_reference(sid, f, v)
                .map(|wire| super::deferred::reference_result(&reply.call_id, v, &wire)),
            _ => None,
        };
        if let Some(r) = reference {
            return ModelCallStep::Done(r);
        }
        match out {
            Ok(v) => ModelCallStep::Done(reply.shape(&ToolResult::ok(v))),
            Err(e) => reply.error(&e),
        }
    }
}
