//! `HolarynSession`: one agent conversation — discovery tools, gated calls,
//! bounded code, footprints and the Capability Center table.

use crate::convert::{from_js, json, json_marked, json_marked_within, to_js};
use crate::driver::drive;
use crate::errors::js;
use crate::host::Host;
use crate::shared::Shared;
use holaryn_core::ModelCallStep;
use holaryn_core::PolicyFile;
use holaryn_core::SearchOutput;
use holaryn_model::Format;
use serde_json::{json, Value};
use std::cell::RefCell;
use std::rc::Rc;
use wasm_bindgen::prelude::*;

/// One session of the runtime.
#[wasm_bindgen]
pub struct HolarynSession {
    shared: Rc<Shared>,
    id: String,
    host: RefCell<Host>,
}

impl HolarynSession {
    pub(crate) fn new(shared: Rc<Shared>, id: String) -> Self {
        HolarynSession {
            shared,
            id,
            host: RefCell::new(Host::new(JsValue::UNDEFINED)),
        }
    }

    /// This call's host over the session's default (copied first: reading
    /// the host objects may run host getters, which may call this session).
    fn host_for(&self, host: JsValue) -> Host {
        let fallback = self
            .host
            .try_borrow()
            .map(|h| h.clone())
            .unwrap_or_else(|_| Host::new(JsValue::UNDEFINED));
        Host::new(host).or(&fallback)
    }

    /// One synchronous core step at the current time, then the host flush.
    fn run<T>(
        &self,
        f: impl FnOnce(&mut holaryn_core::Runtime, u64) -> holaryn_core::Result<T>,
    ) -> Result<T, JsValue> {
        let now = js_sys::Date::now() as u64;
        let r = f(&mut *self.shared.core()?, now);
        self.shared.flush();
        js(r)
    }

    /// A search with the host embedder (`crate::embedder::search`) as a
    /// Promise of its answer, converted by `convert`.
    fn embedder_search(
        &self,
        input: JsValue,
        convert: fn(&SearchOutput) -> Result<JsValue, JsValue>,
    ) -> Result<js_sys::Promise, JsValue> {
        let input = json_marked(input, "tool_search input")?;
        let (shared, id) = (self.shared.clone(), self.id.clone());
        Ok(wasm_bindgen_futures::future_to_promise(async move {
            convert(&js(crate::embedder::search(shared, &id, &input).await?)?)
        }))
    }

    /// `run`, its answer converted to a JS value.
    fn with_rt<T: serde::Serialize>(
        &self,
        f: impl FnOnce(&mut holaryn_core::Runtime, u64) -> holaryn_core::Result<T>,
    ) -> Result<JsValue, JsValue> {
        to_js(&self.run(f)?)
    }
}

/// The packed wire form of a search answer (a typed error if serde fails).
fn packed(out: &SearchOutput) -> Result<String, JsValue> {
    packed_view(&out.view())
}

/// [`packed`] of an answer borrowed from the runtime.
fn packed_view(out: &holaryn_core::SearchView<'_>) -> Result<String, JsValue> {
    crate::wire::search(out)
        .map_err(|e| crate::errors::input(format!("cannot convert to JavaScript: {e}")))
}

#[wasm_bindgen]
impl HolarynSession {
    /// The session id.
    #[wasm_bindgen(getter)]
    pub fn id(&self) -> String {
        self.id.clone()
    }

    /// The session's effective registry version.
    #[wasm_bindgen(getter)]
    pub fn version(&self) -> Result<String, JsValue> {
        js(self
            .shared
            .core_ref()?
            .session(&self.id)
            .map(|s| s.version().to_string()))
    }

    /// A counter that moves whenever this session's exported tool list may
    /// have changed (and never stays put when it did): re-export only when it moved.
    #[wasm_bindgen(getter, js_name = listRevision)]
    pub fn list_revision(&self) -> Result<f64, JsValue> {
        js(self
            .shared
            .core_ref()?
            .session(&self.id)
            .map(|s| s.list_revision() as f64))
    }

    /// Whether dynamic discovery is on (snapshotted at creation).
    #[wasm_bindgen(getter, js_name = dynamicDiscovery)]
    pub fn dynamic_discovery(&self) -> Result<bool, JsValue> {
        js(self
            .shared
            .core_ref()?
            .session(&self.id)
            .map(|s| s.options.dynamic_discovery))
    }

    /// Whether bounded code mode is on (snapshotted at creation).
    #[wasm_bindgen(getter, js_name = boundedCodeMode)]
    pub fn bounded_code_mode(&self) -> Result<bool, JsValue> {
        js(self
            .shared
            .core_ref()?
            .session(&self.id)
            .map(|s| s.options.bounded_code_mode))
    }

    /// The bounded-code limits in force.
    #[wasm_bindgen(getter, js_name = codeLimits, unchecked_return_type = "CodeLimits")]
    pub fn code_limits(&self) -> Result<JsValue, JsValue> {
        let l = js(self
            .shared
            .core_ref()?
            .session(&self.id)
            .map(|s| s.code_limits))?;
        to_js(&l)
    }

    /// `tool_search`: up to 8 ranked, schema-free descriptors.
    #[wasm_bindgen(unchecked_return_type = "SearchOutput")]
    pub fn search(
        &self,
        #[wasm_bindgen(unchecked_param_type = "SearchInput")] input: JsValue,
    ) -> Result<JsValue, JsValue> {
        let input = json_marked(input, "tool_search input")?;
        self.with_rt(|rt, now| rt.tool_search(&self.id, &input, now))
    }

    /// `search` as the packed wire form (`crate::wire`); the JS entry's
    /// `search` calls this and unpacks it (`js/wire.mjs`).
    #[wasm_bindgen(js_name = __searchPacked, skip_typescript)]
    pub fn search_packed(&self, input: JsValue) -> Result<String, JsValue> {
        let input = json_marked(input, "tool_search input")?;
        packed(&self.run(|rt, now| rt.tool_search(&self.id, &input, now))?)
    }

    /// `search_packed` of the input `{query}` (the JS entry sends the common
    /// input this way when its text is well-formed): the core's
    /// `tool_search_query`, without a JSON text round trip.
    #[wasm_bindgen(js_name = __searchQueryPacked, skip_typescript)]
    pub fn search_query_packed(&self, query: String) -> Result<String, JsValue> {
        // Packed from the answer borrowed in the runtime: no owned copy of
        // every result's strings first.
        self.run(|rt, now| rt.tool_search_query_view(&self.id, query, now, packed_view))?
    }

    /// `searchAsync` as the packed wire form (see `search_packed`).
    #[wasm_bindgen(js_name = __searchAsyncPacked, skip_typescript)]
    pub fn search_async_packed(&self, input: JsValue) -> Result<js_sys::Promise, JsValue> {
        self.embedder_search(input, |out| packed(out).map(JsValue::from))
    }

    /// `tool_search` with the host embedder when one is set (see `setEmbedder`);
    /// a failing or slow embedder gives the lexical result, and `why` says so.
    #[wasm_bindgen(js_name = searchAsync, unchecked_return_type = "Promise<SearchOutput>")]
    pub fn search_async(
        &self,
        #[wasm_bindgen(unchecked_param_type = "SearchInput")] input: JsValue,
    ) -> Result<js_sys::Promise, JsValue> {
        self.embedder_search(input, to_js)
    }

    /// `tool_list`: a bounded page filtered by state, source or provider.
    #[wasm_bindgen(unchecked_return_type = "ListOutput")]
    pub fn list(
        &self,
        #[wasm_bindgen(unchecked_optional_param_type = "ListInput")] input: JsValue,
    ) -> Result<JsValue, JsValue> {
        let input = if input.is_undefined() {
            json!({})
        } else {
            json_marked(input, "tool_list input")?
        };
        self.with_rt(|rt, now| rt.tool_list(&self.id, &input, now))
    }

    /// `tool_inspect`: one exact name, alias or handle; loads its schema when permitted.
    #[wasm_bindgen(unchecked_return_type = "InspectOutput")]
    pub fn inspect(
        &self,
        #[wasm_bindgen(unchecked_param_type = "InspectInput")] input: JsValue,
    ) -> Result<JsValue, JsValue> {
        let input = json_marked(input, "tool_inspect input")?;
        self.with_rt(|rt, now| rt.tool_inspect(&self.id, &input, now))
    }

    /// The model-visible tools now (discovery tools + loaded, or the static list).
    #[wasm_bindgen(js_name = modelTools, unchecked_return_type = "ModelTool[]")]
    pub fn model_tools(&self) -> Result<JsValue, JsValue> {
        self.with_rt(|rt, _| rt.model_tools(&self.id))
    }

    /// Schema bytes now, at creation, and what the static list would be.
    #[wasm_bindgen(unchecked_return_type = "Footprint")]
    pub fn footprint(&self) -> Result<JsValue, JsValue> {
        self.with_rt(|rt, _| rt.footprint(&self.id))
    }

    /// The Capability Center table: one row per tool, with state, reason and next safe action.
    #[wasm_bindgen(js_name = capabilityTable, unchecked_return_type = "CapabilityRow[]")]
    pub fn capability_table(&self) -> Result<JsValue, JsValue> {
        self.with_rt(|rt, _| rt.capability_table(&self.id))
    }

    /// Whether the provider's resources, prompts and completions are shown to this session (not hidden, not all denied).
    #[wasm_bindgen(js_name = providerExposed)]
    pub fn provider_exposed(&self, provider: &str) -> Result<bool, JsValue> {
        self.run(|rt, _| rt.provider_exposed(&self.id, provider))
    }

    /// The provider-safe wire name of a canonical name (`server/prompt` → `server__prompt`), by the tool names rule.
    #[wasm_bindgen(js_name = wireName)]
    pub fn wire_name(&self, canonical: &str) -> String {
        holaryn_core::Runtime::wire_name(canonical)
    }

    /// Policy entries worth a second look (exact names matching no tool, duplicates, …); not errors.
    #[wasm_bindgen(js_name = policyWarnings, unchecked_return_type = "PolicyWarning[]")]
    pub fn policy_warnings(&self) -> Result<JsValue, JsValue> {
        self.with_rt(|rt, _| rt.policy_warnings(&self.id))
    }

    /// Replace the host session rules `{allow?, deny?}` (a registry change for this session).
    #[wasm_bindgen(js_name = setRules)]
    pub fn set_rules(
        &self,
        #[wasm_bindgen(unchecked_param_type = "PolicyRules")] rules: JsValue,
    ) -> Result<(), JsValue> {
        let rules = json(rules, "rules")?;
        let now = js_sys::Date::now() as u64;
        let r = self
            .shared
            .core()?
            .edit_session(&self.id, now, |s| s.set_rules(&rules));
        self.shared.flush();
        js(r)
    }

    /// Replace the project policy file (`{path, text}` or null). On error the last good policy stays.
    #[wasm_bindgen(js_name = setProjectPolicy)]
    pub fn set_project_policy(
        &self,
        #[wasm_bindgen(unchecked_param_type = "PolicyFile | null")] file: JsValue,
    ) -> Result<(), JsValue> {
        let file: Option<PolicyFile> = if file.is_null() || file.is_undefined() {
            None
        } else {
            Some(from_js(file, "policy file")?)
        };
        let now = js_sys::Date::now() as u64;
        let r = self
            .shared
            .core()?
            .edit_session(&self.id, now, |s| s.set_project_policy(file));
        self.shared.flush();
        js(r)
    }

    /// Default host callbacks for this session's calls (`execute`, `approve`, `hook`, `screen`, `signal`, `now`).
    #[wasm_bindgen(js_name = setHost)]
    pub fn set_host(
        &self,
        #[wasm_bindgen(unchecked_param_type = "Host")] host: JsValue,
    ) -> Result<(), JsValue> {
        let host = Host::new(host);
        match self.host.try_borrow_mut() {
            Ok(mut h) => *h = host,
            Err(_) => {
                return Err(crate::errors::input(
                    "setHost was called while the host was in use",
                ))
            }
        }
        Ok(())
    }

    /// Call a tool through the gate (name, alias or handle). Resolves to the outcome; never rejects for tool failures.
    #[wasm_bindgen(unchecked_return_type = "Promise<CallOutcome>")]
    pub fn call(
        &self,
        target: String,
        #[wasm_bindgen(unchecked_param_type = "unknown")] args: JsValue,
        #[wasm_bindgen(unchecked_optional_param_type = "Host")] host: JsValue,
    ) -> Result<js_sys::Promise, JsValue> {
        let args = self.call_args(args)?;
        let host = self.host_for(host);
        let shared = self.shared.clone();
        let id = self.id.clone();
        Ok(wasm_bindgen_futures::future_to_promise(async move {
            to_js(&gated(shared, id, target, args, host).await?)
        }))
    }

    /// Dispatch one model tool call (discovery tool or gated call); resolves to `{isError, content, outcome?}`.
    #[wasm_bindgen(unchecked_return_type = "Promise<ToolResult>")]
    pub fn dispatch(
        &self,
        name: String,
        #[wasm_bindgen(unchecked_param_type = "unknown")] args: JsValue,
        #[wasm_bindgen(unchecked_optional_param_type = "Host")] host: JsValue,
    ) -> Result<js_sys::Promise, JsValue> {
        let args = self.call_args(args)?;
        let host = self.host_for(host);
        let now = host.now();
        let first = self.shared.core()?.dispatch(&self.id, &name, args, now);
        self.model_call(js(first)?, host)
    }

    /// The model-visible tools in a provider format (`anthropic`, `openai_chat`, `openai_responses`, `mcp`), with bytes and wire names;
    /// `{mode: "deferred"}` (Anthropic) sends every permitted tool with `defer_loading: true`.
    // Typed per format in `types.rs` (`HolarynSession` overloads).
    #[wasm_bindgen(js_name = exportTools, skip_typescript)]
    pub fn export_tools(&self, format: JsValue, options: JsValue) -> Result<JsValue, JsValue> {
        let format: Format = from_js(format, "format")?;
        let options: holaryn_core::ExportOptions = if options.is_undefined() {
            Default::default()
        } else {
            from_js(options, "options")?
        };
        self.with_rt(|rt, _| rt.export_tools_with(&self.id, format, &options))
    }

    /// Dispatch a provider-shaped tool call (`tool_use` block, chat `tool_calls[i]`, Responses `function_call`,
    /// or MCP `tools/call` params); resolves to the provider's tool-result shape, an error result when the model
    /// got the call wrong.
    // Typed per format in `types.rs` (`HolarynSession` overloads).
    #[wasm_bindgen(js_name = dispatchModelCall, skip_typescript)]
    pub fn dispatch_model_call(
        &self,
        format: JsValue,
        call: JsValue,
        host: JsValue,
    ) -> Result<js_sys::Promise, JsValue> {
        let format: Format = from_js(format, "format")?;
        let host = self.host_for(host);
        let first = match self.model_call_json(format, &call) {
            Ok(call) => {
                let now = host.now();
                let mut core = self.shared.core()?;
                core.dispatch_model_call(&self.id, format, &call, now)
            }
            // Arguments nested too deeply to convert: the format's error
            // result, as every format gives (never a throw).
            Err(e) => {
                let field = holaryn_core::object_arguments_field(format).unwrap_or("arguments");
                let head = js_sys::Object::assign(&js_sys::Object::new(), call.unchecked_ref());
                let _ = js_sys::Reflect::delete_property(&head, &field.into());
                let Ok(head) = json_marked(head.into(), "tool call") else {
                    return Err(e);
                };
                let why = js_sys::Reflect::get(&e, &"message".into())
                    .ok()
                    .and_then(|m| m.as_string())
                    .unwrap_or_else(|| "it cannot be converted".into());
                let now = host.now();
                let mut core = self.shared.core()?;
                core.dispatch_unreadable_call(&self.id, format, &head, &why, now)
            }
        };
        self.model_call(js(first)?, host)
    }

    /// Drive a model call's steps to its tool result (events delivered first).
    fn model_call(&self, first: ModelCallStep, host: Host) -> Result<js_sys::Promise, JsValue> {
        self.shared.flush();
        let shared = self.shared.clone();
        Ok(wasm_bindgen_futures::future_to_promise(async move {
            let mut step = first;
            let result = loop {
                step = match step {
                    ModelCallStep::Done(v) => break v,
                    ModelCallStep::Embed(call) => {
                        let answer = crate::embedder::answer(&shared, call.request()).await;
                        let now = host.now();
                        let next = call.resume(&mut *shared.core()?, answer, now);
                        shared.flush();
                        next
                    }
                    ModelCallStep::Gate(call) => {
                        let (gate, finish) = call.into_parts();
                        let outcome = drive(shared.clone(), host.clone(), gate).await;
                        shared.flush();
                        ModelCallStep::Done(finish.resume(outcome?))
                    }
                };
            };
            to_js(&result)
        }))
    }

    /// Close the session.
    pub fn close(&self) -> Result<(), JsValue> {
        let r = self.shared.core()?.close_session(&self.id);
        js(r)
    }
}

impl HolarynSession {
    /// Call arguments (`undefined` means `{}`), over the session's size cap
    /// the oversize marker instead of a parse.
    fn call_args(&self, args: JsValue) -> Result<Value, JsValue> {
        if args.is_undefined() {
            return Ok(json!({}));
        }
        let cap = self.shared.core_ref()?.max_argument_bytes(&self.id);
        json_marked_within(args, "arguments", cap)
    }

    /// A provider-shaped call as JSON; over the session's size cap, in the
    /// formats whose arguments are an object, the call without them and the
    /// oversize marker in their place (the OpenAI formats' arguments are
    /// text, which the core measures).
    fn model_call_json(&self, format: Format, call: &JsValue) -> Result<Value, JsValue> {
        let Some(field) = holaryn_core::object_arguments_field(format) else {
            return json_marked(call.clone(), "tool call");
        };
        let cap = self.shared.core_ref()?.max_argument_bytes(&self.id);
        let whole = json_marked_within(call.clone(), "tool call", cap)?;
        let Some(bytes) = holaryn_model::oversized(&whole) else {
            return Ok(whole);
        };
        let head = js_sys::Object::assign(&js_sys::Object::new(), call.unchecked_ref());
        let _ = js_sys::Reflect::delete_property(&head, &field.into());
        let mut head = json_marked(head.into(), "tool call")?;
        if let Some(obj) = head.as_object_mut() {
            obj.insert(
                field.into(),
                holaryn_model::oversized_marker(bytes as usize),
            );
        }
        Ok(head)
    }
}

/// Start a call through the gate and drive it to its outcome.
async fn gated(
    shared: Rc<Shared>,
    id: String,
    target: String,
    args: Value,
    host: Host,
) -> Result<holaryn_core::CallOutcome, JsValue> {
    let now = host.now();
    let first = shared.core()?.start_call(&id, &target, args, now);
    let outcome = drive(shared.clone(), host, first).await;
    shared.flush();
    outcome
}
