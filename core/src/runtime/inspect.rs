//! `tool_inspect`, the model-visible tool list, footprints and the
//! Capability Center table.

use super::api::Resolved;
use super::api::{CapabilityRow, Footprint, InspectOutput};
use super::{unknown_session, Runtime};
use crate::activity::{ActivityKind, ActivityRecord};
use crate::availability::AvailabilityState;
use crate::builtin::{discovery_tools, ModelTool};
use crate::handle::Binding;
use crate::policy::PolicyWarning;
use crate::registry::Entry;
use crate::session::Session;
use holaryn_model::HANDLE_PREFIX;
use holaryn_model::{Error, ErrorCode, Result};
use holaryn_model::{ToolDescriptor, ToolRole};
use serde::Deserialize;
use serde_json::Value;
use std::collections::BTreeMap;

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct InspectInput {
    name: String,
}

impl Runtime {
    /// Resolve a name, alias or handle for a session against the current registry.
    ///
    /// Handles are checked (forged / stale) and must still match the tool's
    /// identity (name and descriptor version) and schema hash, and the tool
    /// must still be loaded as inspected (a change to *another* tool leaves a
    /// handle valid). Hidden tools resolve as unknown so their existence does
    /// not leak.
    pub fn resolve_for(&self, session: &Session, target: &str) -> Result<(Entry, Resolved)> {
        let (entry, how) = if target.starts_with(HANDLE_PREFIX) {
            let binding = session.handles.check(target)?;
            let entry = self
                .lookup(&binding.tool)
                .ok_or_else(|| stale("the tool was removed"))?;
            if binding.schema_hash != entry.descriptor.schema_hash
                || binding.tool_version != entry.descriptor.version
                || !session.is_loaded(&entry.descriptor)
            {
                return Err(stale("the tool changed since this handle was issued"));
            }
            (entry.clone(), Resolved::Handle)
        } else {
            // A canonical name or alias, else the wire name a client was shown.
            let entry = self
                .lookup(target)
                .or_else(|| self.registry.by_wire(target).and_then(|c| self.lookup(c)))
                .ok_or_else(|| self.unknown(session, target))?;
            let exact = entry.descriptor.name == target
                || self.registry.wire_of(&entry.descriptor.name) == target;
            let how = if exact {
                Resolved::Name
            } else {
                Resolved::Alias
            };
            (entry.clone(), how)
        };
        if !self.is_discoverable(session, &entry.descriptor) {
            return Err(self.unknown(session, target));
        }
        Ok((entry, how))
    }

    fn unknown(&self, session: &Session, target: &str) -> Error {
        let suggestions: Vec<String> = self
            .registry
            .suggest(target, 8)
            .into_iter()
            .filter(|n| {
                self.lookup(n)
                    .is_some_and(|e| self.is_discoverable(session, &e.descriptor))
            })
            .take(3)
            .collect();
        Error::new(ErrorCode::ToolUnknown, "no tool by that name")
            .with_suggestions(suggestions)
            .with_next_action("call tool_search to find the right tool")
    }

    /// `tool_inspect`: one exact name, alias or handle.
    pub fn tool_inspect(&mut self, sid: &str, input: &Value, now_ms: u64) -> Result<InspectOutput> {
        let input: InspectInput = super::api::parse_input(holaryn_model::TOOL_INSPECT, input)?;
        let session = self.sessions.get(sid).ok_or_else(|| unknown_session(sid))?;
        let (entry, _) = self.resolve_for(session, &input.name)?;
        let tool = entry.descriptor.clone();
        let avail = self.availability_of(session, &tool);
        let version = session.version().to_string();
        let loadable = matches!(
            avail.state,
            AvailabilityState::Available
                | AvailabilityState::ApprovalRequired
                | AvailabilityState::Loaded
        );
        let mut out = InspectOutput {
            name: tool.name.clone(),
            call_name: self.call_name(&tool.name),
            title: tool.title.clone(),
            description: tool.description.clone(),
            source: tool.source,
            provider: tool.provider.id.clone(),
            trust: tool.trust,
            permissions: tool.permissions.clone(),
            annotations: tool.annotations.clone(),
            aliases: tool.aliases.clone(),
            availability: avail.clone(),
            asks_first: tool.asks_first(),
            loaded: false,
            schema: None,
            output_schema: None,
            schema_hash: None,
            version: tool.version.clone(),
            handle: None,
            usage: tool.usage.clone(),
            dialect: tool.dialect.clone(),
        };
        if !loadable {
            let (kind, outcome) = match avail.state {
                AvailabilityState::CatalogOnly => {
                    (ActivityKind::SchemaLoad, holaryn_model::Code::CatalogOnly)
                }
                _ => (ActivityKind::Denial, avail.code),
            };
            let rec = ActivityRecord {
                scope: avail.scope.map(|s| s.as_str().to_string()),
                rule: avail.rule.clone(),
                path: Some("inspect".into()),
                ..ActivityRecord::new(kind, &version, outcome, "tool_inspect loaded nothing")
            }
            .session(sid)
            .tool(&tool);
            self.record(rec, now_ms);
            return Ok(out);
        }
        // The validator is compiled here at the latest (registration only
        // checks schemas structurally); one that does not compile is refused.
        if let Err(why) = entry.validator.get(&tool.input_schema) {
            return Err(crate::validate::uncompilable(
                &tool.name,
                crate::schema_check::Uncompilable {
                    pointer: String::new(),
                    message: format!("the tool's input schema cannot be compiled: {why}"),
                },
            ));
        }
        self.load_into(sid, &tool);
        let session = self
            .sessions
            .get_mut(sid)
            .ok_or_else(|| unknown_session(sid))?;
        let handle = session.handles.issue(Binding {
            tool: tool.name.clone(),
            tool_version: tool.version.clone(),
            registry_version: version.clone(),
            schema_hash: tool.schema_hash.clone(),
        });
        let session = self.sessions.get(sid).ok_or_else(|| unknown_session(sid))?;
        out.availability = self.availability_of(session, &tool);
        out.loaded = true;
        out.schema = Some(Value::clone(&tool.input_schema));
        out.output_schema = tool.output_schema.as_deref().cloned();
        out.schema_hash = Some(tool.schema_hash.clone());
        out.handle = Some(handle);
        let rec = ActivityRecord {
            bytes: Some(holaryn_model::json_len(&*tool.input_schema)),
            path: Some("inspect".into()),
            ..ActivityRecord::new(
                ActivityKind::SchemaLoad,
                &version,
                holaryn_model::Code::Ok,
                "schema loaded",
            )
        }
        .session(sid)
        .tool(&tool);
        self.record(rec, now_ms);
        Ok(out)
    }

    /// The model-visible tools of a session, in the order a model sees them:
    /// in a dynamic session the discovery tools, then every loaded tool in the
    /// order it was first inspected (so the list only grows, with a stable
    /// prefix; a tool that changed drops out of its place until inspected
    /// again); in a static session every statically loaded tool.
    pub fn model_tools(&self, sid: &str) -> Result<Vec<ModelTool>> {
        let session = self.session(sid)?;
        let as_model = |t: &ToolDescriptor| ModelTool {
            name: t.name.clone(),
            description: t.description.clone(),
            input_schema: Value::clone(&t.input_schema),
        };
        let mut out = if session.is_dynamic() {
            discovery_tools()
        } else {
            Vec::new()
        };
        out.extend(self.listed_descriptors(session).into_iter().map(as_model));
        Ok(out)
    }

    /// The names of [`Runtime::model_tools`], without copying any schema
    /// (what a call is resolved against).
    fn model_tool_names(&self, sid: &str) -> Result<Vec<String>> {
        let session = self.session(sid)?;
        let mut out: Vec<String> = if session.is_dynamic() {
            holaryn_model::DISCOVERY_TOOLS
                .iter()
                .map(|n| n.to_string())
                .collect()
        } else {
            Vec::new()
        };
        out.extend(
            self.listed_descriptors(session)
                .into_iter()
                .map(|d| d.name.clone()),
        );
        Ok(out)
    }

    /// The registry tools (and `run_tool_code`) a session's model sees, in
    /// [`Runtime::model_tools`] order.
    fn listed_descriptors<'a>(&'a self, session: &'a Session) -> Vec<&'a ToolDescriptor> {
        if session.is_dynamic() {
            return session
                .export_order()
                .into_iter()
                .filter_map(|name| self.lookup(name).filter(|e| e.descriptor.name == name))
                .map(|e| &*e.descriptor)
                .filter(|d| self.state_of(session, d) == AvailabilityState::Loaded)
                .collect();
        }
        self.registry
            .entries()
            .chain(std::iter::once(&self.code_tool))
            .map(|e| &*e.descriptor)
            .filter(|d| self.state_of(session, d) == AvailabilityState::Loaded)
            .collect()
    }

    /// Bytes of the static list a session would have with discovery off.
    pub fn static_footprint(&self, sid: &str) -> Result<u64> {
        let session = self.session(sid)?;
        let mut bytes = 0;
        for e in self
            .registry
            .entries()
            .chain(std::iter::once(&self.code_tool))
        {
            if self.is_statically_loaded(session, &e.descriptor) {
                bytes += e.footprint;
            }
        }
        Ok(bytes)
    }

    /// The session's schema-byte footprint.
    pub fn footprint(&self, sid: &str) -> Result<Footprint> {
        let session = self.session(sid)?;
        let now = self
            .model_tools(sid)?
            .iter()
            .map(ModelTool::footprint)
            .sum();
        Ok(Footprint {
            now,
            at_creation: session.initial_footprint,
            static_equivalent: self.static_footprint(sid)?,
        })
    }

    /// Warnings about the session's policy entries against the current
    /// registry (exact names that match no tool, duplicates, discovery
    /// tools, unknown hidden providers), in scope order. Not errors.
    pub fn policy_warnings(&self, sid: &str) -> Result<Vec<PolicyWarning>> {
        Ok(self.session(sid)?.policy.warnings(self.registry()))
    }

    /// Whether a provider's resources, prompts and completions are shown to a
    /// session (the gateway's proxy): not when the session hides the provider,
    /// nor when it has tools and every one is hidden or denied for the session.
    pub fn provider_exposed(&self, sid: &str, provider: &str) -> Result<bool> {
        let session = self.session(sid)?;
        if session
            .policy
            .hidden_providers
            .iter()
            .any(|p| p == provider)
        {
            return Ok(false);
        }
        let mut any = false;
        for t in self.index.tools().filter(|t| t.provider.id == provider) {
            any = true;
            let state = self.availability_of(session, t).state;
            if !matches!(state, AvailabilityState::Hidden | AvailabilityState::Denied) {
                return Ok(true);
            }
        }
        Ok(!any)
    }

    /// The provider-safe name (`^[a-zA-Z0-9_-]{1,64}$`) the tool names rule
    /// gives `canonical` (`server/prompt` → `server__prompt`).
    pub fn wire_name(canonical: &str) -> String {
        holaryn_model::wire_name(canonical)
    }

    /// The Capability Center table: one row per catalog tool, hidden ones included.
    pub fn capability_table(&mut self, sid: &str) -> Result<Vec<CapabilityRow>> {
        let session = self.session(sid)?;
        let mut rows: Vec<CapabilityRow> = self
            .index
            .tools()
            .map(|t| {
                let p = &t.provider;
                CapabilityRow {
                    name: t.name.clone(),
                    title: t.title.clone(),
                    source: t.source,
                    provider: p.id.clone(),
                    provider_name: p.display_name.clone(),
                    availability: self.availability_of(session, t),
                    permissions: t.permissions.clone(),
                    trust: t.trust,
                    provenance: provenance(p),
                    asks_first: t.asks_first(),
                    ambient_process_access: t.role == ToolRole::LegacyScript,
                    schema_missing: t.schema_missing,
                    dialect: t.dialect.clone(),
                }
            })
            .collect();
        rows.extend(self.registry.skipped().map(skipped_row));
        rows.sort_by(|a, b| a.name.cmp(&b.name));
        Ok(rows)
    }
}

/// The row of a tool its provider listed but the registry refused.
fn skipped_row(t: &crate::registry::SkippedTool) -> CapabilityRow {
    let p = &t.provider;
    CapabilityRow {
        name: t.name.clone(),
        title: String::new(),
        source: crate::Source::parse(&t.source).unwrap_or(crate::Source::Mcp),
        provider: p.id.clone(),
        provider_name: p.display_name.clone(),
        availability: crate::availability::skipped(t),
        permissions: Vec::new(),
        trust: t.trust.unwrap_or(holaryn_model::Trust::Untrusted),
        provenance: provenance(p),
        asks_first: false,
        ambient_process_access: false,
        schema_missing: false,
        dialect: None,
    }
}

/// Provider id, version and origin in one line (`github@1.2 (npm:pkg)`).
fn provenance(p: &holaryn_model::Provider) -> String {
    let mut line = p.id.clone();
    if let Some(v) = &p.version {
        line.push_str(&format!("@{v}"));
    }
    if let Some(o) = &p.origin {
        line.push_str(&format!(" ({o})"));
    }
    line
}

fn stale(why: &str) -> Error {
    Error::new(
        ErrorCode::HandleStale,
        format!("this handle is stale: {why}"),
    )
    .with_next_action("call tool_inspect again to get a current handle")
}

impl Runtime {
    /// The session's model-visible tools in a provider format, with bytes and
    /// wire names; records what each wire name meant so later calls bind to it.
    pub fn export_tools(
        &mut self,
        sid: &str,
        format: holaryn_model::Format,
    ) -> Result<crate::formats::Export> {
        let (export, sent) = self.current_export(sid, format)?;
        let bound = self.bindings(&export.names);
        if let Some(session) = self.sessions.get_mut(sid) {
            session.exported.insert(format, bound);
            if let Some(sent) = &sent {
                session.record_export(sent.iter().map(|t| t.name.as_str()));
            }
        }
        Ok(export)
    }

    /// The export as it would be now, without recording it; for a
    /// loaded-mode export also the tools it sent, in the order sent (a
    /// deferred export is pinned: `None`).
    fn current_export(
        &self,
        sid: &str,
        format: holaryn_model::Format,
    ) -> Result<(crate::formats::Export, Option<Vec<ModelTool>>)> {
        if let Some(e) = self.deferred_export(sid, format)? {
            return Ok((e, None));
        }
        let tools = self.model_tools(sid)?;
        let export = crate::formats::export(&tools, format, &self.registry);
        Ok((export, Some(tools)))
    }

    /// The wire-name map of [`Runtime::current_export`], built without the
    /// tools' JSON (a call needs only the names).
    fn current_names(
        &self,
        sid: &str,
        format: holaryn_model::Format,
    ) -> Result<BTreeMap<String, String>> {
        if let Some(e) = self.deferred_export(sid, format)? {
            return Ok(e.names);
        }
        Ok(self
            .model_tool_names(sid)?
            .into_iter()
            .map(|c| (crate::formats::wire_for(format, &c, &self.registry), c))
            .collect())
    }

    /// Wire name → (canonical name, descriptor version; empty for discovery tools).
    fn bindings(&self, names: &BTreeMap<String, String>) -> BTreeMap<String, (String, String)> {
        let version = |canonical: &str| {
            self.lookup(canonical)
                .filter(|e| e.descriptor.name == canonical)
                .map(|e| e.descriptor.version.clone())
                .unwrap_or_default()
        };
        names
            .iter()
            .map(|(w, c)| (w.clone(), (c.clone(), version(c))))
            .collect()
    }

    /// The canonical name behind a tool name a model called in `format`
    /// (`Runtime::call_target` without saying whether it must be loaded first).
    pub fn model_call_target(
        &self,
        sid: &str,
        format: holaryn_model::Format,
        wire: &str,
    ) -> Result<String> {
        self.call_target(sid, format, wire)
            .map(CallTarget::into_name)
    }

    /// What a tool name a model called in `format` leads to: only names in
    /// the session's current export count, and once the session exported
    /// `format`, only with the meaning and descriptor version that export
    /// gave them. A name the model was shown for a tool that has since
    /// changed is `schema.not_loaded` ("inspect it again"); one for a tool
    /// that was removed is `tool.unknown` ("it was removed"); one for a tool
    /// unchanged but now denied, unavailable or catalog-only goes to the
    /// gate, which says so. With `exactNameCalls`, the exact name of a tool
    /// the session never listed loads its current descriptor first
    /// ([`CallTarget::Load`]).
    pub(crate) fn call_target(
        &self,
        sid: &str,
        format: holaryn_model::Format,
        wire: &str,
    ) -> Result<CallTarget> {
        let names = self.current_names(sid, format)?;
        // An MCP client or cache from before call names (MCP lists used canonical
        // names): a canonical name of a tool the list shows under its call name is
        // that tool. Model formats always saw wire names, so they are not guessed.
        let listed = (format == holaryn_model::Format::Mcp && !names.contains_key(wire))
            .then(|| crate::formats::wire_for(format, wire, &self.registry))
            .filter(|listed| names.get(listed).is_some_and(|c| c == wire));
        let wire = listed.as_deref().unwrap_or(wire);
        let session = self.session(sid)?;
        let dynamic = session.is_dynamic();
        let now = self.bindings(&names).remove(wire);
        if let Some((c, v)) = &now {
            // A pinned deferred entry whose tool is gone.
            if v.is_empty() && !holaryn_model::is_discovery_tool(c) && self.lookup(c).is_none() {
                return Err(self.gone(session, wire, c, false));
            }
        }
        let seen = session.exported.get(&format).map(|sent| sent.get(wire));
        let route = |c: String| Ok(CallTarget::Route(c));
        match (seen, now) {
            (Some(Some(seen)), Some(now)) if *seen == now => route(now.0),
            // Same tool, and the model inspected its current version since.
            (Some(Some(seen)), Some(now))
                if dynamic && seen.0 == now.0 && self.inspected_now(session, &now.0) =>
            {
                route(now.0)
            }
            (Some(Some(seen)), now) => {
                let reassigned = now.is_some_and(|n| n.0 != seen.0);
                if !reassigned && self.shown_but_barred(session, &seen.0, &seen.1) {
                    return route(seen.0.clone());
                }
                Err(self.gone(session, wire, &seen.0, reassigned))
            }
            (Some(None), Some(now)) if dynamic => route(now.0), // loaded since the last export
            (Some(None), Some(_)) => Err(changed(wire, false)),
            (None, Some(now)) => route(now.0),
            (_, None) => {
                let inspected = session
                    .loaded
                    .iter()
                    .find(|(c, _)| crate::formats::wire_for(format, c, &self.registry) == wire);
                match inspected {
                    Some((c, l)) if self.shown_but_barred(session, c, &l.tool_version) => {
                        route(c.clone())
                    }
                    Some((c, _)) => Err(self.gone(session, wire, c, false)),
                    None if dynamic && session.options.exact_name_calls => {
                        self.exact_target(session, wire)
                    }
                    None if dynamic => Err(crate::formats::not_listed(wire)),
                    None => Err(crate::formats::not_listed(wire)
                        .with_next_action("call a tool by a name from the current tool list")),
                }
            }
        }
    }

    /// True when `canonical` is still the descriptor `version` the session
    /// was shown, but is left out of its list because it is now denied,
    /// unavailable or catalog-only: the gate refuses it, saying which.
    fn shown_but_barred(&self, session: &Session, canonical: &str, version: &str) -> bool {
        self.lookup(canonical).is_some_and(|e| {
            e.descriptor.name == canonical
                && e.descriptor.version == version
                && matches!(
                    self.state_of(session, &e.descriptor),
                    AvailabilityState::Denied
                        | AvailabilityState::Unavailable
                        | AvailabilityState::CatalogOnly
                )
        })
    }

    /// A call by the exact name search and inspect show (`exactNameCalls`;
    /// the call name, or the canonical name, never an alias):
    /// a tool that may be listed is loaded at its current descriptor first;
    /// a denied, unavailable or catalog-only one goes to the gate, which says
    /// so; a hidden or unknown one is not in the list.
    fn exact_target(&self, session: &Session, wire: &str) -> Result<CallTarget> {
        // The call name, or the canonical name (what search shows as `name`).
        let entry = self
            .registry
            .by_wire(wire)
            .or_else(|| self.registry.get(wire).map(|e| e.descriptor.name.as_str()))
            .filter(|c| *c == wire || self.registry.wire_of(c) == wire)
            .and_then(|c| self.registry.get(c))
            .filter(|e| self.is_discoverable(session, &e.descriptor));
        let Some(e) = entry else {
            return Err(crate::formats::not_listed(wire));
        };
        let name = e.descriptor.name.clone();
        if self.listable(session, &e.descriptor) {
            Ok(CallTarget::Load(name))
        } else {
            Ok(CallTarget::Route(name))
        }
    }

    /// True when the session's last inspect of `canonical` showed its current descriptor.
    fn inspected_now(&self, session: &Session, canonical: &str) -> bool {
        self.lookup(canonical)
            .is_some_and(|e| e.descriptor.name == canonical && session.is_loaded(&e.descriptor))
    }

    /// Why a wire name the model was shown for `canonical` no longer runs it:
    /// the tool was removed (`tool.unknown`), the name now means another tool
    /// (`reassigned`: `tool.unknown`, send the list again), or the tool changed
    /// since the model saw it (`schema.not_loaded`, inspect it again).
    fn gone(&self, session: &Session, wire: &str, canonical: &str, reassigned: bool) -> Error {
        let exists = self
            .lookup(canonical)
            .filter(|e| e.descriptor.name == canonical)
            .is_some_and(|e| self.is_discoverable(session, &e.descriptor));
        if !exists {
            return Error::new(
                ErrorCode::ToolUnknown,
                format!("`{wire}` was removed: no tool by that name any more"),
            )
            .with_tool(wire)
            .with_next_action("it was removed: call tool_search to find another tool");
        }
        if reassigned {
            return changed(wire, session.is_dynamic());
        }
        let next = if session.is_dynamic() {
            format!("`{canonical}` changed since it was inspected: call tool_inspect with name `{canonical}` again, then call it")
        } else {
            "the tool changed since the tool list was sent: send the current tool list again".into()
        };
        Error::new(
            ErrorCode::SchemaNotLoaded,
            format!("`{wire}` changed since this session was shown it; inspect it again"),
        )
        .with_tool(canonical)
        .with_next_action(next)
    }
}
/// Where a model call by name goes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum CallTarget {
    /// Into the gate by this canonical (or discovery tool) name.
    Route(String),
    /// Load this tool's current descriptor into the session, then into the gate.
    Load(String),
}

impl CallTarget {
    fn into_name(self) -> String {
        match self {
            CallTarget::Route(n) | CallTarget::Load(n) => n,
        }
    }
}

/// A wire name whose tool (or its descriptor) changed since the list was sent.
fn changed(wire: &str, dynamic: bool) -> Error {
    let next = if dynamic {
        "call tool_inspect again, then call the tool by the name the current tool list shows"
    } else {
        "the tool list changed since it was sent: send the current tool list again and call a tool by a name from it"
    };
    Error::new(
        ErrorCode::ToolUnknown,
        format!(
            "`{wire}` means a different tool (or version) than in the tool list this session sent"
        ),
    )
    .with_tool(wire)
    .with_next_action(next)
}
