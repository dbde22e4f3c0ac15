//! Sessions: one agent conversation's view of the registry.
//!
//! A session snapshots its switches (dynamic discovery, bounded code mode) at
//! creation, owns its policy, its handle table and the schemas the model has
//! loaded. Its *effective version* folds the registry version and its policy
//! digest together. When it changes, only the tools whose descriptor version
//! or availability changed lose their loaded schema and handle
//! (`Session::invalidate`); the rest stay loaded, in the order the model
//! inspected them (their *slot*), so exports keep a stable prefix.

use crate::availability::AvailabilityState;
use crate::handle::HandleTable;
use crate::policy::{parse_policy_file, Policy, Rules};
use crate::registry::Registry;
use holaryn_code::{CodeLimits, LimitsRequest};
use holaryn_model::{json_digest, ToolDescriptor};
use holaryn_model::{Error, ErrorCode, Result};
use serde::{Deserialize, Serialize};
use serde_json::{json, Value};
use std::collections::BTreeMap;
use std::sync::Arc;

/// A session's pinned deferred definitions, in first-export order.
#[derive(Debug, Clone, Default)]
pub struct Pins {
    /// On once the session exported in deferred mode (until a loaded-mode export).
    pub(crate) on: bool,
    /// (wire name, the descriptor as first exported).
    pub(crate) tools: Vec<(String, Arc<ToolDescriptor>)>,
}

/// Largest output a direct call may return, by default (bytes of JSON).
pub const DEFAULT_MAX_OUTPUT_BYTES: u64 = 256 * 1024;
/// Largest arguments a call may carry, by default (bytes of JSON text): more
/// than a model writes in one reply, so only a host's own calls come near it.
pub const DEFAULT_MAX_ARGUMENT_BYTES: u64 = 1024 * 1024;
/// Default per-call timeout.
pub const DEFAULT_TIMEOUT_MS: u64 = 60_000;
/// Default time a hook, approval or screening may wait for the host (10 minutes).
pub const DEFAULT_CALLBACK_TIMEOUT_MS: u64 = 600_000;

/// The project policy file as the host read it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct PolicyFile {
    /// Path, used in messages (e.g. `/repo/.holaryn/tool-policy.json`).
    pub path: String,
    /// File text.
    pub text: String,
}

/// Options for a new session (wire shape, camelCase).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct SessionOptions {
    /// Dynamic discovery on (three discovery tools) or off (static list).
    #[serde(default)]
    pub dynamic_discovery: bool,
    /// Bounded code mode (`run_tool_code`) on.
    #[serde(default)]
    pub bounded_code_mode: bool,
    /// The agent profile's `allowed_tools` ceiling (omitted = all).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub profile_allowed_tools: Option<Vec<String>>,
    /// Providers the host hides from this session.
    #[serde(default)]
    pub hidden_providers: Vec<String>,
    /// Host session rules `{allow, deny}`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rules: Option<Value>,
    /// The project policy file (`.holaryn/tool-policy.json`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub project_policy: Option<PolicyFile>,
    /// Lowered bounded-code limits.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub code_limits: Option<LimitsRequest>,
    /// Default per-call timeout in ms.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub default_timeout_ms: Option<u64>,
    /// Output size cap for a call, in bytes of JSON.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub max_output_bytes: Option<u64>,
    /// Arguments size cap for a call, in bytes of JSON text (checked before
    /// they are parsed; over it the call is refused as `args.too_large`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub max_argument_bytes: Option<u64>,
    /// How long a hook, approval or screening may wait for the host, in ms (then the call is cut off).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub callback_timeout_ms: Option<u64>,
    /// A call by the exact name `tool_search`/`tool_inspect` show, of a tool
    /// this session never listed, loads the tool's current descriptor and
    /// goes through the gate (dynamic sessions; for clients that open a
    /// session per command).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub exact_name_calls: bool,
    /// Start with the runtime's working set listed and add to it every tool
    /// this session loads (`crate::working_set`).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub shared_working_set: bool,
}

/// A schema the model has loaded (inspected) in this session.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LoadedSchema {
    /// Schema hash at load time.
    pub schema_hash: String,
    /// Tool (descriptor) version at load time: the one the model's inspect showed.
    pub tool_version: String,
    /// The tool's availability (as if not loaded) at load time.
    pub state: AvailabilityState,
    /// Position in the session's exports: the order of first inspection.
    pub slot: u64,
    /// Left out of an export while still current (its provider was down):
    /// when it is listed again it goes after the tools sent meanwhile.
    pub left_out: bool,
    /// False once the tool changed, was removed or its availability changed
    /// since the inspect; it must be inspected again before a call runs.
    pub current: bool,
}

/// One session's state.
#[derive(Debug, Clone)]
pub struct Session {
    /// Session id (derived from the host secret).
    pub id: String,
    /// Options as given.
    pub options: SessionOptions,
    /// Effective policy.
    pub policy: Policy,
    /// Bounded-code limits in force.
    pub code_limits: CodeLimits,
    pub(crate) handles: HandleTable,
    pub(crate) loaded: BTreeMap<String, LoadedSchema>,
    pub(crate) effective_version: String,
    pub(crate) registry_generation: u64,
    pub(crate) counter: u64,
    pub(crate) initial_footprint: u64,
    /// Per format, the last export handed out: wire name → (canonical name, descriptor version).
    pub(crate) exported: BTreeMap<holaryn_model::Format, BTreeMap<String, (String, String)>>,
    /// Deferred-mode definitions pinned at their first export.
    pub(crate) pins: Pins,
    /// Moves whenever something the session's exports depend on may have
    /// changed (a load, an invalidation, a registry or policy change, a pin);
    /// never stays put across a change ([`Session::list_revision`]).
    pub(crate) list_revision: u64,
    /// Host time at creation.
    pub created_ms: u64,
}

impl Session {
    /// Validate options and build a session; nothing is created on error.
    pub fn new(
        registry: &Registry,
        options: SessionOptions,
        secret: &[u8],
        now_ms: u64,
    ) -> Result<Session> {
        let handles = HandleTable::new(secret)?;
        let session_rules = match &options.rules {
            Some(v) => Rules::from_value(v, None)?,
            None => Rules::default(),
        };
        let profile_allowed = match &options.profile_allowed_tools {
            Some(list) => {
                Rules::from_value(&json!({ "allow": list }), None)
                    .map_err(|e| e.with_field("profileAllowedTools"))?
                    .allow
            }
            None => None,
        };
        let project = match &options.project_policy {
            Some(f) => Some((f.path.clone(), parse_policy_file(&f.path, &f.text)?)),
            None => None,
        };
        let code_limits = match &options.code_limits {
            Some(req) => CodeLimits::defaults().lowered(req)?,
            None => CodeLimits::defaults(),
        };
        if options.default_timeout_ms == Some(0)
            || options.max_output_bytes == Some(0)
            || options.max_argument_bytes == Some(0)
        {
            return Err(Error::new(
                ErrorCode::SessionInvalidOptions,
                "defaultTimeoutMs, maxOutputBytes and maxArgumentBytes must be positive",
            ));
        }
        let policy = Policy {
            hidden_providers: options.hidden_providers.clone(),
            profile_allowed,
            session: session_rules,
            project,
        };
        let id = format!("sess_{}", handles.derived_id("session-id"));
        let mut s = Session {
            id,
            options,
            policy,
            code_limits,
            handles,
            loaded: BTreeMap::new(),
            effective_version: String::new(),
            registry_generation: registry.generation(),
            counter: 0,
            initial_footprint: 0,
            exported: BTreeMap::new(),
            pins: Pins::default(),
            list_revision: 0,
            created_ms: now_ms,
        };
        s.effective_version = s.compute_version(registry);
        Ok(s)
    }

    /// True when dynamic discovery is on.
    pub fn is_dynamic(&self) -> bool {
        self.options.dynamic_discovery
    }

    /// The effective registry version this session sees.
    pub fn version(&self) -> &str {
        &self.effective_version
    }

    /// A counter that moves whenever the session's exports may have changed
    /// and never stays put when they did: a host compares it with the one of
    /// its last export and re-exports only when it moved (an export is then
    /// compared to say whether the list really changed).
    pub fn list_revision(&self) -> u64 {
        self.list_revision
    }

    /// Names whose schemas are loaded and current, in no particular order.
    pub fn loaded_names(&self) -> impl Iterator<Item = &String> {
        self.loaded
            .iter()
            .filter(|(_, l)| l.current)
            .map(|(n, _)| n)
    }

    /// True when the model's last inspect of `tool` showed exactly this
    /// descriptor version and nothing about the tool changed since.
    pub fn is_loaded(&self, tool: &holaryn_model::ToolDescriptor) -> bool {
        self.loaded.get(&tool.name).is_some_and(|l| {
            l.current && l.tool_version == tool.version && l.schema_hash == tool.schema_hash
        })
    }

    /// What the session remembers of a tool the model inspected (current or not).
    pub fn inspected(&self, name: &str) -> Option<&LoadedSchema> {
        self.loaded.get(name)
    }

    /// Loaded, current tool names in export order: first inspection first,
    /// except that a tool an export left out comes back after the others, so
    /// a rejoining tool extends the export the model last saw instead of
    /// reshaping it.
    pub fn export_order(&self) -> Vec<&str> {
        let mut v: Vec<(bool, u64, &str)> = self
            .loaded
            .iter()
            .filter(|(_, l)| l.current)
            .map(|(n, l)| (l.left_out, l.slot, n.as_str()))
            .collect();
        v.sort();
        v.into_iter().map(|(_, _, n)| n).collect()
    }

    /// Record which loaded tools an export sent: a current tool it left out
    /// is marked, and a marked tool it sent takes the next slot (in the order
    /// sent), so later exports keep this one as their prefix.
    pub(crate) fn record_export<'a>(&mut self, sent: impl IntoIterator<Item = &'a str>) {
        let mut next = self.next_slot();
        let mut in_export = std::collections::BTreeSet::new();
        for name in sent {
            in_export.insert(name);
            if let Some(l) = self.loaded.get_mut(name).filter(|l| l.left_out) {
                l.left_out = false;
                l.slot = next;
                next += 1;
            }
        }
        for (name, l) in self.loaded.iter_mut() {
            if l.current && !in_export.contains(name.as_str()) {
                l.left_out = true;
            }
        }
    }

    fn next_slot(&self) -> u64 {
        self.loaded.values().map(|l| l.slot + 1).max().unwrap_or(0)
    }

    /// Record an inspect: a loaded tool keeps its slot; any other (new, or
    /// changed since) takes the next one, so it never lands before tools an
    /// export already sent after it.
    pub(crate) fn load(&mut self, tool: &holaryn_model::ToolDescriptor, state: AvailabilityState) {
        self.list_revision += 1;
        let slot = match self.loaded.get(&tool.name) {
            Some(l) if l.current && !l.left_out => l.slot,
            _ => self.next_slot(),
        };
        self.loaded.insert(
            tool.name.clone(),
            LoadedSchema {
                schema_hash: tool.schema_hash.clone(),
                tool_version: tool.version.clone(),
                state,
                slot,
                left_out: false,
                current: true,
            },
        );
    }

    /// Mark loaded tools as changed: `still(name, loaded)` says whether one is
    /// unchanged. Returns the names invalidated, in name order.
    pub(crate) fn invalidate(
        &mut self,
        still: impl Fn(&str, &LoadedSchema) -> bool,
    ) -> Vec<String> {
        let mut gone = Vec::new();
        for (name, l) in self.loaded.iter_mut() {
            if l.current && !still(name, l) {
                l.current = false;
                gone.push(name.clone());
            }
        }
        if !gone.is_empty() {
            self.list_revision += 1;
        }
        gone
    }

    /// A fresh per-session id with a prefix (`call_…`, `run_…`).
    pub fn next_id(&mut self, prefix: &str) -> String {
        self.counter += 1;
        let tag = self
            .handles
            .derived_id(&format!("{prefix}-{}", self.counter));
        format!("{prefix}_{}_{}", self.counter, &tag[..8])
    }

    pub(crate) fn compute_version(&self, registry: &Registry) -> String {
        json_digest(&json!({
            "registry": registry.version(),
            "policy": self.policy.digest(),
            "codeMode": self.options.bounded_code_mode,
        }))
    }

    /// Re-derive the effective version and return `(old, new)` when it
    /// changed. Loaded schemas and handles are left to the runtime, which
    /// invalidates exactly the tools that changed ([`Session::invalidate`]).
    pub(crate) fn sync(&mut self, registry: &Registry) -> Option<(String, String)> {
        let new = self.compute_version(registry);
        self.registry_generation = registry.generation();
        // Availability, wire names and policy may have moved even when the version did not.
        self.list_revision += 1;
        if new == self.effective_version {
            return None;
        }
        let old = std::mem::replace(&mut self.effective_version, new.clone());
        Some((old, new))
    }

    /// Replace the host session rules (a policy change is a registry change for this session).
    pub fn set_rules(&mut self, rules: &Value) -> Result<()> {
        self.policy.session = Rules::from_value(rules, None)?;
        self.options.rules = Some(rules.clone());
        Ok(())
    }

    /// Replace the project policy file; on error the last good policy stays.
    pub fn set_project_policy(&mut self, file: Option<PolicyFile>) -> Result<()> {
        self.policy.project = match &file {
            Some(f) => Some((f.path.clone(), parse_policy_file(&f.path, &f.text)?)),
            None => None,
        };
        self.options.project_policy = file;
        Ok(())
    }
}
