//! `HolarynRuntime`: the registry and its sessions, for JavaScript.

use crate::convert::{from_js, to_js};
use crate::errors::{self, js};
use crate::session::HolarynSession;
use crate::shared::Shared;
use holaryn_core::SessionOptions;
use holaryn_core::Update;
use holaryn_core::{parse_catalog, parse_catalog_text, CatalogOptions};
use holaryn_core::{resolve_switch, ENV_CODE_MODE, ENV_DYNAMIC};
use holaryn_core::{Runtime, ToolSpec};
use holaryn_model::ProviderStatus;
use holaryn_model::Trust;
use js_sys::{Function, Reflect, Uint8Array};
use serde::Deserialize;
use serde_json::Value;
use std::rc::Rc;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;

/// The Holaryn runtime: one canonical registry, its sessions and activity.
#[wasm_bindgen]
pub struct HolarynRuntime {
    pub(crate) shared: Rc<Shared>,
}

#[derive(Deserialize, Default)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub(crate) struct RuntimeOptions {
    #[serde(default)]
    pub(crate) activity_capacity: Option<usize>,
    #[serde(default)]
    pub(crate) require_input_schema: Option<bool>,
}

impl RuntimeOptions {
    /// JS runtime options (undefined or null = defaults).
    pub(crate) fn of(options: JsValue) -> Result<RuntimeOptions, JsValue> {
        if options.is_undefined() || options.is_null() {
            return Ok(RuntimeOptions::default());
        }
        from_js(options, "runtime options")
    }
}

#[derive(Deserialize, Default)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
struct CatalogOpts {
    #[serde(default)]
    provider_id: Option<String>,
    #[serde(default)]
    qualify_names: bool,
    #[serde(default)]
    source: Option<String>,
    #[serde(default)]
    trust: Option<Trust>,
    #[serde(default)]
    qualify_refused_names: bool,
}

#[derive(Deserialize, Default)]
#[serde(rename_all = "camelCase")]
struct JsSessionOptions {
    #[serde(default)]
    dynamic_discovery: Option<bool>,
    #[serde(default)]
    bounded_code_mode: Option<bool>,
    #[serde(flatten)]
    rest: serde_json::Map<String, Value>,
}

/// JS catalog options (undefined = defaults) → core catalog options.
fn catalog_options(options: JsValue) -> Result<CatalogOptions, JsValue> {
    let o: CatalogOpts = if options.is_undefined() {
        CatalogOpts::default()
    } else {
        from_js(options, "catalog options")?
    };
    Ok(CatalogOptions {
        provider_id: o.provider_id,
        qualify_names: o.qualify_names,
        source: o.source,
        trust: o.trust,
        qualify_refused_names: o.qualify_refused_names,
    })
}

fn env_var(name: &str) -> Option<String> {
    let process = Reflect::get(&js_sys::global(), &"process".into()).ok()?;
    let env = Reflect::get(&process, &"env".into()).ok()?;
    Reflect::get(&env, &name.into()).ok()?.as_string()
}

fn random_secret() -> Result<Vec<u8>, JsValue> {
    let crypto = Reflect::get(&js_sys::global(), &"crypto".into())?;
    let get: Function = Reflect::get(&crypto, &"getRandomValues".into())?
        .dyn_into()
        .map_err(|_| errors::input("crypto.getRandomValues is not available; pass a secret"))?;
    let buf = Uint8Array::new_with_length(32);
    get.call1(&crypto, &buf)?;
    Ok(buf.to_vec())
}

#[wasm_bindgen]
impl HolarynRuntime {
    /// A new, empty runtime.
    #[wasm_bindgen(constructor)]
    pub fn new(
        #[wasm_bindgen(unchecked_optional_param_type = "RuntimeOptions")] options: JsValue,
    ) -> Result<HolarynRuntime, JsValue> {
        let opts = RuntimeOptions::of(options)?;
        let mut rt = Runtime::new();
        rt.set_require_input_schema(opts.require_input_schema.unwrap_or(false));
        Ok(HolarynRuntime::around(rt, &opts))
    }

    /// The JS runtime around a core runtime (a new or restored one).
    pub(crate) fn around(mut rt: Runtime, opts: &RuntimeOptions) -> HolarynRuntime {
        if let Some(c) = opts.activity_capacity {
            rt.set_activity_capacity(c);
        }
        rt.set_code_compiler(Some(crate::code::compiler()));
        // Listing prints keyed per runtime (a restored one too: a snapshot
        // keeps no prints), so no catalog can aim at another text's print.
        if let Ok(secret) = random_secret() {
            let mut key = [0u8; 16];
            key.copy_from_slice(&secret[..16]);
            rt.set_listing_key(key);
        }
        HolarynRuntime {
            shared: Rc::new(Shared::new(rt)),
        }
    }

    fn apply(&self, update: Update) -> Result<JsValue, JsValue> {
        self.edit(|rt, now| rt.update(update, now))
    }

    /// Run `f` on the core at the host's time, deliver the events it queued,
    /// and hand its answer to JavaScript.
    fn edit<T: serde::Serialize>(
        &self,
        f: impl FnOnce(&mut Runtime, u64) -> holaryn_core::Result<T>,
    ) -> Result<JsValue, JsValue> {
        let out = f(&mut *self.shared.core()?, js_sys::Date::now() as u64);
        self.shared.flush();
        to_js(&js(out)?)
    }

    /// Register (add or replace) tools atomically; returns the change or null.
    #[wasm_bindgen(js_name = registerTools, unchecked_return_type = "RegistryChange | null")]
    pub fn register_tools(
        &self,
        #[wasm_bindgen(unchecked_param_type = "ToolSpec[]")] tools: JsValue,
    ) -> Result<JsValue, JsValue> {
        let text = crate::convert::json_text(&tools, "tools")?;
        let Some(texts) = holaryn_core::list_elements(&text) else {
            let values: Vec<Value> = from_js(tools, "tools")?; // not an array: that error
            let specs = js(values
                .into_iter()
                .map(holaryn_core::parse_spec_owned)
                .collect::<Result<Vec<ToolSpec>, _>>())?;
            return self.apply(Update {
                upsert: specs,
                ..Update::default()
            });
        };
        self.edit(|rt, now| rt.register_texts(&texts, now))
    }

    /// Register an MCP `tools/list` result (or tool array) as one provider, replacing its previous tools;
    /// each tool the core refuses is skipped and listed in the answer's `skipped` while the rest register.
    #[wasm_bindgen(js_name = registerCatalog, unchecked_return_type = "CatalogChange | null")]
    pub fn register_catalog(
        &self,
        file: &str,
        text: &js_sys::JsString,
        #[wasm_bindgen(unchecked_optional_param_type = "CatalogOptions")] options: JsValue,
    ) -> Result<JsValue, JsValue> {
        let opts = catalog_options(options)?;
        let text = crate::convert::text_of(text, "catalog text")?; // long text: one native encode
        let read = js(self.shared.core_ref()?.read_catalog(file, &text, &opts))?;
        if read.is_empty() {
            return Ok(JsValue::NULL); // an empty catalog changes nothing
        }
        self.edit(|rt, now| {
            let sync = rt.sync_catalog_read(read, now)?;
            Ok(sync.into_change(rt.registry().version()))
        })
    }

    /// Register a catalog as one provider's re-list, skipping (not refusing the
    /// catalog for) each tool the core refuses: the rest register, and each
    /// skipped tool becomes a Capability Center row and a `tool_skipped` record.
    #[wasm_bindgen(js_name = syncCatalog, unchecked_return_type = "ProviderSync")]
    pub fn sync_catalog(
        &self,
        file: &str,
        text: &js_sys::JsString,
        #[wasm_bindgen(unchecked_optional_param_type = "CatalogOptions")] options: JsValue,
    ) -> Result<JsValue, JsValue> {
        let opts = catalog_options(options)?;
        let text = crate::convert::text_of(text, "catalog text")?; // long text: one native encode
        let read = js(self.shared.core_ref()?.read_catalog(file, &text, &opts))?;
        self.edit(|rt, now| rt.sync_catalog_read(read, now))
    }

    /// Remove a provider: every tool it registered, its status and its skipped tools.
    #[wasm_bindgen(js_name = removeProvider, unchecked_return_type = "RegistryChange | null")]
    pub fn remove_provider(&self, provider_id: &str) -> Result<JsValue, JsValue> {
        self.edit(|rt, now| rt.remove_provider(provider_id, now))
    }

    /// Replace every tool of one provider (a provider re-list); each tool the core refuses is skipped and
    /// listed in the answer's `skipped` while the rest register.
    #[wasm_bindgen(js_name = syncProvider, unchecked_return_type = "CatalogChange | null")]
    pub fn sync_provider(
        &self,
        provider_id: &str,
        #[wasm_bindgen(unchecked_param_type = "ToolSpec[]")] tools: JsValue,
    ) -> Result<JsValue, JsValue> {
        let text = crate::convert::json_text(&tools, "tools")?;
        let Some(texts) = holaryn_core::list_elements(&text) else {
            let values: Vec<Value> = from_js(tools, "tools")?; // not an array: that error
            return self.edit(|rt, now| {
                let sync = rt.sync_provider_values(provider_id, values, now)?;
                Ok(sync.into_change(rt.registry().version()))
            });
        };
        self.edit(|rt, now| {
            let sync = rt.sync_provider_texts(provider_id, &texts, now)?;
            Ok(sync.into_change(rt.registry().version()))
        })
    }

    /// Remove tools by canonical name or alias.
    #[wasm_bindgen(js_name = removeTools, unchecked_return_type = "RegistryChange | null")]
    pub fn remove_tools(&self, names: Vec<String>) -> Result<JsValue, JsValue> {
        self.apply(Update {
            remove: names,
            ..Update::default()
        })
    }

    /// Set a provider's status: `connected`, `disconnected` or `needs_auth`.
    #[wasm_bindgen(js_name = setProviderStatus, unchecked_return_type = "RegistryChange | null")]
    pub fn set_provider_status(
        &self,
        provider_id: &str,
        #[wasm_bindgen(unchecked_param_type = "ProviderStatus")] status: JsValue,
    ) -> Result<JsValue, JsValue> {
        let status: ProviderStatus = from_js(status, "provider status")?;
        self.apply(Update {
            provider_status: vec![(provider_id.to_string(), status)],
            ..Update::default()
        })
    }

    /// The registry version (`sha256:…`).
    #[wasm_bindgen(getter)]
    pub fn version(&self) -> Result<String, JsValue> {
        Ok(self.shared.core_ref()?.registry().version().to_string())
    }

    /// Number of registered tools.
    #[wasm_bindgen(getter)]
    pub fn size(&self) -> Result<usize, JsValue> {
        Ok(self.shared.core_ref()?.registry().len())
    }

    /// A registered tool by canonical name or alias (host view, schema included).
    #[wasm_bindgen(unchecked_return_type = "ToolDescriptor | undefined")]
    pub fn describe(&self, name: &str) -> Result<JsValue, JsValue> {
        match self.shared.core_ref()?.registry().get(name) {
            Some(e) => to_js(e.descriptor.as_ref()),
            None => Ok(JsValue::UNDEFINED),
        }
    }

    /// Every registered tool's descriptor, in canonical-name order.
    #[wasm_bindgen(unchecked_return_type = "ToolDescriptor[]")]
    pub fn tools(&self) -> Result<JsValue, JsValue> {
        let rt = self.shared.core_ref()?;
        let all: Vec<&holaryn_core::ToolDescriptor> = rt
            .registry()
            .entries()
            .map(|e| e.descriptor.as_ref())
            .collect();
        to_js(&all)
    }

    /// Create a session. Switches left unset come from `HOLARYN_DYNAMIC_TOOL_DISCOVERY` /
    /// `HOLARYN_BOUNDED_CODE_MODE` (Node) and default to off. `secret`: ≥ 16 random bytes (default: crypto).
    #[wasm_bindgen(js_name = createSession)]
    pub fn create_session(
        &self,
        #[wasm_bindgen(unchecked_optional_param_type = "SessionOptions")] options: JsValue,
        #[wasm_bindgen(unchecked_optional_param_type = "Uint8Array")] secret: Option<Uint8Array>,
    ) -> Result<HolarynSession, JsValue> {
        let raw: JsSessionOptions = if options.is_undefined() || options.is_null() {
            JsSessionOptions::default()
        } else {
            from_js(options, "session options")?
        };
        let dynamic = js(resolve_switch(
            raw.dynamic_discovery,
            ENV_DYNAMIC,
            env_var(ENV_DYNAMIC).as_deref(),
        ))?;
        let code = js(resolve_switch(
            raw.bounded_code_mode,
            ENV_CODE_MODE,
            env_var(ENV_CODE_MODE).as_deref(),
        ))?;
        let mut map = raw.rest;
        map.insert("dynamicDiscovery".into(), Value::Bool(dynamic));
        map.insert("boundedCodeMode".into(), Value::Bool(code));
        let opts: SessionOptions = serde_json::from_value(Value::Object(map)).map_err(|e| {
            errors::to_js(&holaryn_core::Error::new(
                holaryn_core::ErrorCode::SessionInvalidOptions,
                format!("invalid session options: {e}"),
            ))
        })?;
        let secret = match secret {
            Some(s) => s.to_vec(),
            None => random_secret()?,
        };
        let id = self
            .shared
            .core()?
            .create_session(opts, &secret, js_sys::Date::now() as u64);
        self.shared.flush();
        Ok(HolarynSession::new(self.shared.clone(), js(id)?))
    }

    /// Listen to events (`tool_registry_changed` and `activity`).
    #[wasm_bindgen(js_name = addEventListener)]
    pub fn add_event_listener(
        &self,
        #[wasm_bindgen(unchecked_param_type = "(event: HolarynEvent) => void")] listener: Function,
    ) -> Result<(), JsValue> {
        self.shared.listen(listener)
    }

    /// Stop listening.
    #[wasm_bindgen(js_name = removeEventListener)]
    pub fn remove_event_listener(
        &self,
        #[wasm_bindgen(unchecked_param_type = "(event: HolarynEvent) => void")] listener: Function,
    ) -> Result<(), JsValue> {
        self.shared.unlisten(&listener)
    }

    /// Activity records with `seq > since` from the bounded ring.
    #[wasm_bindgen(unchecked_return_type = "ActivityRecord[]")]
    pub fn activity(&self, since: Option<f64>) -> Result<JsValue, JsValue> {
        let records = self
            .shared
            .core_ref()?
            .activity_since(since.unwrap_or(0.0) as u64);
        to_js(&records)
    }

    /// Use a host embedding model for `searchAsync` and model `tool_search` calls
    /// (`null`: lexical only). A different model or dimension drops cached vectors.
    #[wasm_bindgen(js_name = setEmbedder)]
    pub fn set_embedder(
        &self,
        #[wasm_bindgen(unchecked_param_type = "HostEmbedder | null")] embedder: JsValue,
    ) -> Result<(), JsValue> {
        let parsed = if embedder.is_null() || embedder.is_undefined() {
            None
        } else {
            Some(crate::embedder::parse(&embedder)?)
        };
        let model = parsed.as_ref().map(|(m, _)| m.clone());
        js(self.shared.core()?.set_embedding_model(model))?;
        self.shared.set_embedder(parsed.map(|(_, e)| e))
    }

    /// Embed every tool that has no cached vector yet (batches of at most 64).
    #[wasm_bindgen(js_name = prepareEmbeddings, unchecked_return_type = "Promise<EmbeddingStats>")]
    pub fn prepare_embeddings(&self) -> Result<js_sys::Promise, JsValue> {
        let first = js(self
            .shared
            .core()?
            .prepare_embeddings(js_sys::Date::now() as u64))?;
        let shared = self.shared.clone();
        Ok(wasm_bindgen_futures::future_to_promise(async move {
            match js(crate::embedder::drive(shared, first).await?)? {
                holaryn_core::SearchStep::Prepared(stats) => to_js(&stats),
                _ => Err(errors::input("preparation ended without stats")),
            }
        }))
    }

    /// The cached vectors of the current tools (`holaryn.embeddings/1`), to persist.
    #[wasm_bindgen(js_name = exportEmbeddings, unchecked_return_type = "EmbeddingsExport")]
    pub fn export_embeddings(
        &self,
        #[wasm_bindgen(unchecked_optional_param_type = "{ encoding?: EmbeddingEncoding }")]
        options: JsValue,
    ) -> Result<JsValue, JsValue> {
        #[derive(Deserialize, Default)]
        #[serde(deny_unknown_fields)]
        struct Opts {
            #[serde(default)]
            encoding: holaryn_core::Encoding,
        }
        let o: Opts = if options.is_undefined() || options.is_null() {
            Opts::default()
        } else {
            from_js(options, "export options")?
        };
        to_js(&js(self.shared.core()?.export_embeddings(o.encoding))?)
    }

    /// Import exported vectors; returns how many. Another model or dimension is
    /// refused (`input.embeddings_mismatch`) and nothing changes.
    #[wasm_bindgen(js_name = importEmbeddings)]
    pub fn import_embeddings(
        &self,
        #[wasm_bindgen(unchecked_param_type = "EmbeddingsExport")] data: JsValue,
    ) -> Result<usize, JsValue> {
        let v: Value = from_js(data, "embeddings")?;
        js(self.shared.core()?.import_embeddings(&v))
    }

    /// Parse a catalog file without registering it, strictly: any entry that is no tool refuses the catalog
    /// (an array has no room to say what was skipped; `parseCatalogWithNotes` skips and says).
    #[wasm_bindgen(js_name = parseCatalog, unchecked_return_type = "ToolSpec[]")]
    pub fn parse_catalog(
        file: &str,
        text: &str,
        #[wasm_bindgen(unchecked_optional_param_type = "CatalogOptions")] options: JsValue,
    ) -> Result<JsValue, JsValue> {
        let opts = catalog_options(options)?;
        to_js(&js(parse_catalog_text(file, text, &opts))?)
    }

    /// Parse a catalog file without registering it, with the tools
    /// `qualifyRefusedNames` renamed (the CLI prints them as notes).
    #[wasm_bindgen(js_name = parseCatalogWithNotes, unchecked_return_type = "ParsedCatalog")]
    pub fn parse_catalog_with_notes(
        file: &str,
        text: &str,
        #[wasm_bindgen(unchecked_optional_param_type = "CatalogOptions")] options: JsValue,
    ) -> Result<JsValue, JsValue> {
        let opts = catalog_options(options)?;
        to_js(&js(parse_catalog(file, text, &opts))?)
    }

    /// The shared working set as text to keep (`{"version": 1, "tools": [...]}`,
    /// most recently used first): the tools recently loaded by sessions created
    /// with `sharedWorkingSet`.
    #[wasm_bindgen(js_name = workingSet)]
    pub fn working_set(&self) -> Result<String, JsValue> {
        Ok(self.shared.core_ref()?.working_set().to_text())
    }

    /// Replace the shared working set with one kept as text (`file` names it
    /// in errors); a bad file is a `ConfigError` and changes nothing.
    #[wasm_bindgen(js_name = setWorkingSet)]
    pub fn set_working_set(&self, file: &str, text: &str) -> Result<(), JsValue> {
        let set = js(holaryn_core::WorkingSet::parse(file, text))?;
        self.shared.core()?.set_working_set(set);
        Ok(())
    }
}
