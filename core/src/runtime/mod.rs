//! The runtime: one registry, its sessions, the activity log and the
//! outgoing event queue.
//!
//! Every registry mutation goes through here so that a change reaches every
//! session at once: the handles and loaded schemas of exactly the tools whose
//! descriptor version or availability changed are invalidated, and a
//! `tool_registry_changed` event is queued per session. Hosts drain events
//! with [`Runtime::drain_events`] after each operation.

// The runtime's verbs, one file each (`impl Runtime` lives only here); the
// data types they share are in `api`. The crate root re-exports their public
// types, so this file never imports a verb file (no import circle).
pub(crate) mod api;
pub(crate) mod catalog_read;
pub(crate) mod deferred;
mod discovery;
mod inspect;
pub(crate) mod listed;
pub(crate) mod model_call;
pub(crate) mod providers;
pub(crate) mod search_view;
pub(crate) mod semantic;

use self::semantic::EmbedDocs;
use crate::activity::{ActivityKind, ActivityLog, ActivityRecord};
use crate::availability::{availability, availability_state, Availability, AvailabilityState};
use crate::builtin::code_tool_entry;
use crate::embeddings::EmbeddingStore;
use crate::policy::Decision;
use crate::registry::{Entry, Registry, RegistryChange, Update};
use crate::session::{Session, SessionOptions};
use crate::working_set::WorkingSet;
use holaryn_model::ProviderStatus;
use holaryn_model::{Error, ErrorCode, Result};
use holaryn_model::{ToolDescriptor, Visibility};
use holaryn_search::SearchIndex;
use serde::{Deserialize, Serialize};
use serde_json::Value;
use std::collections::BTreeMap;
use std::sync::Arc;

/// A `tool_registry_changed` event.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct RegistryChangedEvent {
    /// The session this event is for (`None`: the registry itself).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub session_id: Option<String>,
    /// Old version (the session's effective version for session events).
    pub old_version: String,
    /// New version.
    pub new_version: String,
    /// What caused it: `registry` or `policy`.
    pub cause: String,
    /// Tools added (the first [`MAX_LISTED`]; `addedCount` has them all).
    pub added: Vec<String>,
    /// Tools removed (the first [`MAX_LISTED`]).
    pub removed: Vec<String>,
    /// Tools changed (the first [`MAX_LISTED`]); for a policy change, the
    /// tools whose availability changed.
    pub changed: Vec<String>,
    /// How many tools were added.
    pub added_count: usize,
    /// How many tools were removed.
    pub removed_count: usize,
    /// How many tools changed.
    pub changed_count: usize,
    /// Session events: the loaded tools this change invalidated (they must be
    /// inspected again), the first [`MAX_LISTED`]; every other loaded tool
    /// stays loaded with its handle.
    #[serde(default)]
    pub invalidated: Vec<String>,
    /// How many loaded tools were invalidated.
    #[serde(default)]
    pub invalidated_count: usize,
}

/// Most tool names one `tool_registry_changed` list carries (the counts are exact).
pub const MAX_LISTED: usize = 50;

/// The first [`MAX_LISTED`] names of a list.
fn listed(names: &[String]) -> Vec<String> {
    names.iter().take(MAX_LISTED).cloned().collect()
}

impl RegistryChangedEvent {
    /// An event for `added`/`removed`/`changed`, with bounded lists and exact counts.
    fn new(
        session_id: Option<String>,
        (old_version, new_version): (String, String),
        cause: &str,
        (added, removed, changed): (&[String], &[String], &[String]),
        invalidated: &[String],
    ) -> Self {
        RegistryChangedEvent {
            session_id,
            old_version,
            new_version,
            cause: cause.to_string(),
            added: listed(added),
            removed: listed(removed),
            changed: listed(changed),
            added_count: added.len(),
            removed_count: removed.len(),
            changed_count: changed.len(),
            invalidated: listed(invalidated),
            invalidated_count: invalidated.len(),
        }
    }
}

/// Events the host drains after each operation.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
#[allow(clippy::large_enum_variant)] // events are built once and drained at once
pub enum Event {
    /// The registry or a session's effective version changed.
    ToolRegistryChanged(RegistryChangedEvent),
    /// An activity record.
    Activity(ActivityRecord),
}

/// The runtime.
#[derive(Debug)]
pub struct Runtime {
    pub(crate) registry: Registry,
    pub(crate) sessions: BTreeMap<String, Session>,
    pub(crate) activity: ActivityLog,
    pub(crate) events: Vec<Event>,
    pub(crate) code_tool: Entry,
    /// The catalog (registry tools + built-ins) and its search index, kept
    /// in step with the registry change by change (never rebuilt).
    pub(crate) index: SearchIndex,
    /// Refuse tools registered without an input schema (host option).
    pub(crate) require_input_schema: bool,
    pub(crate) embeddings: EmbeddingStore,
    pub(crate) embed_docs: Option<EmbedDocs>,
    /// The bounded-code compiler a host installed (see [`holaryn_code::decode`]).
    pub(crate) code_compiler: Option<holaryn_code::Compiler>,
    /// Tools recently loaded by sessions that share it (`crate::working_set`).
    pub(crate) working_set: WorkingSet,
    /// The handle epoch sessions start at: above every epoch of the runtime
    /// a snapshot was taken of, so its handles are stale here (`crate::snapshot`).
    pub(crate) handle_epoch: u32,
}

impl Default for Runtime {
    fn default() -> Self {
        Runtime::new()
    }
}

impl Runtime {
    /// An empty runtime.
    pub fn new() -> Self {
        let code_tool = code_tool_entry();
        let index = SearchIndex::build(std::slice::from_ref(&code_tool.descriptor));
        Runtime {
            registry: Registry::new(),
            sessions: BTreeMap::new(),
            activity: ActivityLog::default(),
            events: Vec::new(),
            code_tool,
            index,
            require_input_schema: false,
            embeddings: EmbeddingStore::default(),
            embed_docs: None,
            code_compiler: None,
            working_set: WorkingSet::default(),
            handle_epoch: 0,
        }
    }

    /// Install (or remove) the bounded-code compiler whose answers
    /// [`holaryn_code::decode`] re-checks; with none, the built-in one
    /// (feature `parser`) compiles, or runs are `code.unavailable`.
    pub fn set_code_compiler(&mut self, compiler: Option<holaryn_code::Compiler>) {
        self.code_compiler = compiler;
    }

    /// Refuse (with `descriptor.invalid_schema`) tools registered from now on
    /// without an input schema, instead of letting them take any object.
    pub fn set_require_input_schema(&mut self, on: bool) {
        self.require_input_schema = on;
    }

    /// The shared working set (`crate::working_set`).
    pub fn working_set(&self) -> &WorkingSet {
        &self.working_set
    }

    /// Replace the shared working set (e.g. the one a host kept on disk);
    /// sessions created from now on start with it.
    pub fn set_working_set(&mut self, set: WorkingSet) {
        self.working_set = set;
    }

    /// Load `tool`'s current descriptor into a session, as an inspect does,
    /// and add it to the working set when the session shares it.
    pub(crate) fn load_into(&mut self, sid: &str, tool: &ToolDescriptor) {
        let Some(session) = self.sessions.get(sid) else {
            return;
        };
        let state = self.load_state(session, tool);
        let Some(session) = self.sessions.get_mut(sid) else {
            return;
        };
        session.load(tool, state);
        if session.options.shared_working_set && tool.name != self.code_tool.descriptor.name {
            self.working_set.touch(&tool.name);
        }
    }

    /// The name a client calls a tool by, when it is not the canonical name
    /// (its wire name: `github/create_issue` → `github__create_issue`).
    pub(crate) fn call_name(&self, canonical: &str) -> Option<String> {
        let mut out = String::new();
        self.push_call_name(canonical, &mut out).map(|_| out)
    }

    /// [`Runtime::call_name`] appended to `out`: the range it takes, or
    /// `None` (nothing appended) when the tool is called by its canonical name.
    pub(crate) fn push_call_name(
        &self,
        canonical: &str,
        out: &mut String,
    ) -> Option<std::ops::Range<usize>> {
        let start = out.len();
        if !self.registry.push_rewritten_wire_of(canonical, out) || out[start..] == *canonical {
            out.truncate(start);
            return None;
        }
        Some(start..out.len())
    }

    /// True when a session may list `tool` without an inspect (working set,
    /// exact-name call): discoverable, and `available` or
    /// `approval_required` as if not loaded.
    pub(crate) fn listable(&self, session: &Session, tool: &ToolDescriptor) -> bool {
        matches!(
            self.load_state(session, tool),
            AvailabilityState::Available | AvailabilityState::ApprovalRequired
        )
    }

    /// The registry (read-only; mutate through the runtime).
    pub fn registry(&self) -> &Registry {
        &self.registry
    }

    /// Resize the activity ring.
    pub fn set_activity_capacity(&mut self, capacity: usize) {
        let mut log = ActivityLog::with_capacity(capacity);
        for r in self.activity.since(0) {
            let t = r.time_ms;
            log.push(r, t);
        }
        self.activity = log;
    }

    /// Records with `seq > after`.
    pub fn activity_since(&self, after: u64) -> Vec<ActivityRecord> {
        self.activity.since(after)
    }

    /// Take the queued events.
    pub fn drain_events(&mut self) -> Vec<Event> {
        std::mem::take(&mut self.events)
    }

    /// Drop the queued events, keeping the queue's buffer (for a host with
    /// nobody to deliver them to: no new queue per operation).
    pub fn discard_events(&mut self) {
        self.events.clear();
    }

    /// Apply a registry update atomically and propagate the change.
    pub fn update(&mut self, update: Update, now_ms: u64) -> Result<Option<RegistryChange>> {
        if self.require_input_schema {
            for spec in &update.upsert {
                crate::validate::require_input_schema(spec)?;
            }
        }
        let change = self.registry.apply(update)?;
        if let Some(c) = &change {
            self.propagate(c, now_ms);
        }
        Ok(change)
    }

    /// Register tools from host JSON values.
    pub fn register_values(
        &mut self,
        values: &[Value],
        now_ms: u64,
    ) -> Result<Option<RegistryChange>> {
        let specs = values
            .iter()
            .map(crate::validate::parse_spec)
            .collect::<Result<Vec<_>>>()?;
        self.update(
            Update {
                upsert: specs,
                ..Update::default()
            },
            now_ms,
        )
    }

    /// Set a provider's status (disconnect, needs auth, reconnect).
    pub fn set_provider_status(
        &mut self,
        id: &str,
        status: ProviderStatus,
        now_ms: u64,
    ) -> Result<Option<RegistryChange>> {
        self.update(
            Update {
                provider_status: vec![(id.to_string(), status)],
                ..Update::default()
            },
            now_ms,
        )
    }

    fn propagate(&mut self, change: &RegistryChange, now_ms: u64) {
        self.reindex(change);
        self.events
            .push(Event::ToolRegistryChanged(RegistryChangedEvent::new(
                None,
                (change.old_version.clone(), change.new_version.clone()),
                "registry",
                (&change.added, &change.removed, &change.changed),
                &[],
            )));
        let rec = ActivityRecord {
            count: Some((change.added.len() + change.removed.len() + change.changed.len()) as u64),
            ..ActivityRecord::new(
                ActivityKind::RegistryChanged,
                &change.new_version,
                holaryn_model::Code::RegistryChanged,
                holaryn_model::Code::RegistryChanged.reason(),
            )
        };
        self.record(rec, now_ms);
        let ids: Vec<String> = self.sessions.keys().cloned().collect();
        for id in ids {
            let lists = (&change.added[..], &change.removed[..], &change.changed[..]);
            self.sync_session(&id, lists, "registry", now_ms);
        }
    }

    /// Re-derive a session's effective version; when it changed, invalidate
    /// the loaded tools that changed and announce the change with `lists`
    /// (added, removed, changed).
    pub(crate) fn sync_session(
        &mut self,
        id: &str,
        lists: (&[String], &[String], &[String]),
        cause: &str,
        now_ms: u64,
    ) {
        let Some(session) = self.sessions.get_mut(id) else {
            return;
        };
        let Some((old, new)) = session.sync(&self.registry) else {
            return;
        };
        let invalidated = self.invalidate_changed(id);
        self.events
            .push(Event::ToolRegistryChanged(RegistryChangedEvent::new(
                Some(id.to_string()),
                (old, new.clone()),
                cause,
                lists,
                &invalidated,
            )));
        let rec = ActivityRecord {
            count: Some(invalidated.len() as u64),
            ..ActivityRecord::new(
                ActivityKind::RegistryChanged,
                &new,
                holaryn_model::Code::SessionVersionChanged,
                holaryn_model::Code::SessionVersionChanged.reason(),
            )
        }
        .session(id);
        self.record(rec, now_ms);
    }

    /// Invalidate the session's loaded tools whose descriptor version or
    /// availability changed (or that were removed); returns their names.
    fn invalidate_changed(&mut self, id: &str) -> Vec<String> {
        let Some(session) = self.sessions.get(id) else {
            return Vec::new();
        };
        let keep: std::collections::BTreeSet<String> = session
            .loaded
            .iter()
            .filter(|(name, l)| l.current && self.still_loaded(session, name, l))
            .map(|(name, _)| name.clone())
            .collect();
        match self.sessions.get_mut(id) {
            Some(s) => s.invalidate(|name, _| keep.contains(name)),
            None => Vec::new(),
        }
    }

    /// True when a tool loaded as `l` is still exactly what the model inspected:
    /// same canonical tool, same descriptor version, same availability. A
    /// provider that is down (and may come back with the same descriptors) is
    /// not a change: the tool is unavailable meanwhile, and listed again once
    /// it reconnects unchanged.
    pub(crate) fn still_loaded(
        &self,
        session: &Session,
        name: &str,
        l: &crate::session::LoadedSchema,
    ) -> bool {
        self.lookup(name).is_some_and(|e| {
            let state = self.load_state(session, &e.descriptor);
            e.descriptor.name == name
                && e.descriptor.version == l.tool_version
                && (state == l.state || state == AvailabilityState::Unavailable)
        })
    }

    /// A tool's availability in a session as if its schema were not loaded:
    /// what an inspect records and a change is compared against.
    pub(crate) fn load_state(&self, session: &Session, tool: &ToolDescriptor) -> AvailabilityState {
        let decision = self.decide(session, tool);
        let status = self.registry.provider_status(&tool.provider.id);
        availability_state(tool, &decision, status, false, session.is_dynamic())
    }

    /// Registry tools whose availability differs between two versions of one session.
    fn availability_changes(&self, before: &Session, after: &Session) -> Vec<String> {
        self.registry
            .entries()
            .chain(std::iter::once(&self.code_tool))
            .filter(|e| {
                self.load_state(before, &e.descriptor) != self.load_state(after, &e.descriptor)
            })
            .map(|e| e.descriptor.name.clone())
            .collect()
    }

    /// Stamp, keep and queue an activity record.
    pub(crate) fn record(&mut self, record: ActivityRecord, now_ms: u64) {
        let stamped = self.activity.push(record, now_ms);
        self.events.push(Event::Activity(stamped));
    }

    /// Create a session; on any error nothing is created.
    pub fn create_session(
        &mut self,
        options: SessionOptions,
        secret: &[u8],
        now_ms: u64,
    ) -> Result<String> {
        let mut session = Session::new(&self.registry, options, secret, now_ms)?;
        session.handles.start_at(self.handle_epoch);
        if self.sessions.contains_key(&session.id) {
            return Err(Error::new(
                ErrorCode::SessionInvalidOptions,
                "a session with this secret already exists; supply fresh random bytes",
            )
            .with_field("secret"));
        }
        let id = session.id.clone();
        let rec = ActivityRecord::new(
            ActivityKind::SessionCreated,
            session.version(),
            holaryn_model::Code::SessionCreated,
            if session.is_dynamic() {
                "session created with dynamic discovery"
            } else {
                "session created with the static tool list"
            },
        )
        .session(&id);
        let shared = session.is_dynamic() && session.options.shared_working_set;
        self.sessions.insert(id.clone(), session);
        if shared {
            // Oldest first, so the most recent tool takes the last slot.
            for name in self.working_set.names().to_vec().iter().rev() {
                let (tool, state) = match (self.registry.get(name), self.sessions.get(&id)) {
                    (Some(e), Some(s))
                        if e.descriptor.name == *name && self.listable(s, &e.descriptor) =>
                    {
                        (e.descriptor.clone(), self.load_state(s, &e.descriptor))
                    }
                    _ => continue,
                };
                if let Some(s) = self.sessions.get_mut(&id) {
                    s.load(&tool, state);
                }
            }
        }
        let initial: u64 = self
            .model_tools(&id)?
            .iter()
            .map(crate::builtin::ModelTool::footprint)
            .sum();
        if let Some(s) = self.sessions.get_mut(&id) {
            s.initial_footprint = initial;
        }
        self.record(rec, now_ms);
        Ok(id)
    }

    /// Close a session.
    pub fn close_session(&mut self, id: &str) -> Result<()> {
        self.sessions
            .remove(id)
            .map(|_| ())
            .ok_or_else(|| unknown_session(id))
    }

    /// The arguments size cap of session `id` in bytes of JSON text (the
    /// default for an unknown session, which the gate then refuses anyway):
    /// a host measures arguments' text against it before parsing them and
    /// passes `holaryn_model::oversized_marker` for bigger ones.
    pub fn max_argument_bytes(&self, id: &str) -> u64 {
        self.sessions
            .get(id)
            .and_then(|s| s.options.max_argument_bytes)
            .unwrap_or(crate::session::DEFAULT_MAX_ARGUMENT_BYTES)
    }

    /// A session by id.
    pub fn session(&self, id: &str) -> Result<&Session> {
        self.sessions.get(id).ok_or_else(|| unknown_session(id))
    }

    /// Change a session's host rules or project policy through `edit`;
    /// a changed policy is a registry change for that session.
    pub fn edit_session<F>(&mut self, id: &str, now_ms: u64, edit: F) -> Result<()>
    where
        F: FnOnce(&mut Session) -> Result<()>,
    {
        let session = self
            .sessions
            .get_mut(id)
            .ok_or_else(|| unknown_session(id))?;
        let mut staged = session.clone();
        edit(&mut staged)?;
        let before = std::mem::replace(session, staged);
        let changed = match self.sessions.get(id) {
            Some(after) => self.availability_changes(&before, after),
            None => Vec::new(),
        };
        self.sync_session(id, (&[], &[], &changed), "policy", now_ms);
        Ok(())
    }

    /// Bring the search index in step with one registry change: only the
    /// tools it names are re-indexed (a provider status change re-indexes
    /// nothing: the descriptor is the same).
    fn reindex(&mut self, change: &RegistryChange) {
        for name in &change.removed {
            self.index.remove(name);
        }
        for name in change.added.iter().chain(&change.changed) {
            let Some(entry) = self.registry.get(name) else {
                continue;
            };
            let same = self
                .index
                .get(name)
                .is_some_and(|t| Arc::ptr_eq(t, &entry.descriptor));
            if !same {
                self.index.insert(entry.descriptor.clone());
            }
        }
        self.index.refresh();
    }

    /// The search index over the registry's tools and the built-ins.
    pub fn search_index(&self) -> &SearchIndex {
        &self.index
    }

    /// Look up a registry tool or built-in by canonical name or alias.
    pub fn lookup(&self, name: &str) -> Option<&Entry> {
        if name == self.code_tool.descriptor.name {
            return Some(&self.code_tool);
        }
        self.registry.get(name)
    }

    /// The policy decision for a tool in a session (built-ins follow the switches).
    pub(crate) fn decide(&self, session: &Session, tool: &ToolDescriptor) -> Decision {
        if tool.name == self.code_tool.descriptor.name && !session.options.bounded_code_mode {
            return Decision::Hidden {
                scope: crate::policy::Scope::SessionOptions,
                rule: Some("bounded code mode is off".into()),
            };
        }
        session.policy.evaluate(tool)
    }

    /// The availability of one tool in a session.
    pub fn availability_of(&self, session: &Session, tool: &ToolDescriptor) -> Availability {
        let (decision, status, loaded) = self.availability_inputs(session, tool);
        availability(tool, &decision, status, loaded, session.is_dynamic())
    }

    /// Only the state of [`Runtime::availability_of`] (no texts are built).
    pub fn state_of(&self, session: &Session, tool: &ToolDescriptor) -> AvailabilityState {
        let (decision, status, loaded) = self.availability_inputs(session, tool);
        availability_state(tool, &decision, status, loaded, session.is_dynamic())
    }

    /// [`Runtime::state_of`] when the policy decision is already at hand.
    pub(crate) fn state_given(
        &self,
        session: &Session,
        tool: &ToolDescriptor,
        decision: &Decision,
    ) -> AvailabilityState {
        let status = self.registry.provider_status(&tool.provider.id);
        let loaded = if session.is_dynamic() {
            session.is_loaded(tool)
        } else {
            static_loaded(tool, decision, status)
        };
        availability_state(tool, decision, status, loaded, session.is_dynamic())
    }

    /// What availability depends on: the policy decision, the provider's
    /// status and whether the schema is in the model's context.
    fn availability_inputs(
        &self,
        session: &Session,
        tool: &ToolDescriptor,
    ) -> (Decision, ProviderStatus, bool) {
        let decision = self.decide(session, tool);
        let status = self.registry.provider_status(&tool.provider.id);
        let loaded = if session.is_dynamic() {
            session.is_loaded(tool)
        } else {
            static_loaded(tool, &decision, status)
        };
        (decision, status, loaded)
    }

    /// True when a static view of `session` (discovery off) sends `tool`'s
    /// schema up front, i.e. its availability would be `loaded` there. Cheap:
    /// no availability texts are built.
    pub(crate) fn is_statically_loaded(&self, session: &Session, tool: &ToolDescriptor) -> bool {
        let status = self.registry.provider_status(&tool.provider.id);
        static_loaded(tool, &self.decide(session, tool), status)
    }

    /// True when the tool may appear to the model at all in this session
    /// (cheap: no availability texts are built).
    pub(crate) fn is_discoverable(&self, session: &Session, tool: &ToolDescriptor) -> bool {
        !matches!(self.decide(session, tool), Decision::Hidden { .. })
    }
}

/// A static session sends a tool's schema when policy allows it, it can be
/// called, the model may see it, and its provider is connected.
fn static_loaded(tool: &ToolDescriptor, decision: &Decision, status: ProviderStatus) -> bool {
    matches!(decision, Decision::Allowed)
        && !tool.is_catalog_only()
        && tool.visibility == Visibility::ModelVisible
        && status == ProviderStatus::Connected
}

pub(crate) fn unknown_session(id: &str) -> Error {
    Error::new(ErrorCode::SessionUnknown, format!("no session `{id}`"))
}
