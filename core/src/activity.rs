//! Activity records: what happened, with provenance — never what was said.
//!
//! Records cover registry transitions, tools a provider listed that were
//! skipped, searches, schema loads, denials, invocations and bounded-code
//! summaries. By construction they hold only
//! identifiers, versions, stable codes, fixed reason texts, durations and byte
//! counts: no prompts, search queries, tool arguments, tool output, host error
//! messages or secrets ever reach a record. Records go to a bounded ring the
//! host can read and to the runtime's outgoing event queue.

use crate::registry::SkippedTool;
use holaryn_model::Code;
use holaryn_model::ToolDescriptor;
use serde::{Deserialize, Serialize};
use std::collections::VecDeque;

/// Default ring capacity.
pub const DEFAULT_CAPACITY: usize = 1024;

/// What a record is about.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ActivityKind {
    /// The registry (or a session's effective version) changed.
    RegistryChanged,
    /// A session was created.
    SessionCreated,
    /// A `tool_search` ran.
    Search,
    /// A `tool_list` ran.
    List,
    /// A schema was loaded by `tool_inspect`.
    SchemaLoad,
    /// Something was refused (inspect or call).
    Denial,
    /// A tool call finished (any outcome).
    Invocation,
    /// A bounded-code run finished.
    CodeSummary,
    /// A provider's re-list skipped a tool the registry refused.
    ToolSkipped,
}

/// Stable provenance of the provider behind a tool.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Provenance {
    /// Provider id.
    pub provider_id: String,
    /// Provider kind.
    pub provider_kind: String,
    /// Provider version, when known.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub provider_version: Option<String>,
    /// Origin (package, extension id …), when known.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub origin: Option<String>,
    /// Source of the tool.
    pub source: String,
    /// Version of the tool descriptor (none for a skipped tool: it has no descriptor).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tool_version: Option<String>,
}

impl Provenance {
    /// Provenance of a descriptor.
    pub fn of(tool: &ToolDescriptor) -> Self {
        Provenance {
            provider_id: tool.provider.id.clone(),
            provider_kind: tool.provider.kind.clone(),
            provider_version: tool.provider.version.clone(),
            origin: tool.provider.origin.clone(),
            source: tool.source.as_str().to_string(),
            tool_version: Some(tool.version.clone()),
        }
    }
}

/// One activity record.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ActivityRecord {
    /// Monotonic sequence number (per runtime).
    pub seq: u64,
    /// Host time in ms.
    pub time_ms: u64,
    /// Kind.
    pub kind: ActivityKind,
    /// Session id.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub session: Option<String>,
    /// Canonical tool name (for a skipped tool: the name it would have had).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tool: Option<String>,
    /// Provider provenance.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub provenance: Option<Provenance>,
    /// Registry version (the session's effective version for session records).
    pub registry_version: String,
    /// Stable outcome code (`ok`, `policy.denied`, `handle.stale`, …).
    pub outcome: Code,
    /// Fixed human reason for the outcome (never host or model text).
    pub reason: String,
    /// How the call arrived (`direct`, `alias`, `handle`, `legacy_script`, `code`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub path: Option<String>,
    /// Duration in ms.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub duration_ms: Option<u64>,
    /// Bytes (output bytes, schema bytes …).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub bytes: Option<u64>,
    /// A count (results returned, calls attempted …).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub count: Option<u64>,
    /// For denials: the policy scope.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub scope: Option<String>,
    /// For denials: the matching rule (operator-written policy text).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rule: Option<String>,
    /// For calls: the gate's call id (`CallOutcome.callId`), so a record can be joined to its outcome.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub call_id: Option<String>,
    /// For calls from a model: the provider's tool-call id (`tool_use.id`,
    /// `tool_calls[i].id`, `function_call.call_id`), as the model sent it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tool_call_id: Option<String>,
}

impl ActivityRecord {
    /// A record with only the required fields set; `seq`/`time_ms` are filled by the log.
    pub fn new(kind: ActivityKind, registry_version: &str, outcome: Code, reason: &str) -> Self {
        ActivityRecord {
            seq: 0,
            time_ms: 0,
            kind,
            session: None,
            tool: None,
            provenance: None,
            registry_version: registry_version.to_string(),
            outcome,
            reason: reason.to_string(),
            path: None,
            duration_ms: None,
            bytes: None,
            count: None,
            scope: None,
            rule: None,
            call_id: None,
            tool_call_id: None,
        }
    }
    /// Attach a session id.
    pub fn session(mut self, id: &str) -> Self {
        self.session = Some(id.to_string());
        self
    }
    /// A `tool_skipped` record: the provider and the name (never the
    /// descriptor, its schema or the refusal's message), the refusal's code
    /// and that code's fixed reason.
    pub fn skipped(tool: &SkippedTool, registry_version: &str) -> Self {
        let p = &tool.provider;
        let mut r = ActivityRecord::new(
            ActivityKind::ToolSkipped,
            registry_version,
            tool.code,
            tool.code.reason(),
        );
        r.tool = Some(tool.name.clone());
        r.provenance = Some(Provenance {
            provider_id: p.id.clone(),
            provider_kind: p.kind.clone(),
            provider_version: p.version.clone(),
            origin: p.origin.clone(),
            source: tool.source.clone(),
            tool_version: None,
        });
        r
    }
    /// Attach a tool and its provenance.
    pub fn tool(mut self, tool: &ToolDescriptor) -> Self {
        self.tool = Some(tool.name.clone());
        self.provenance = Some(Provenance::of(tool));
        self
    }
}

/// The bounded ring of records.
#[derive(Debug, Clone)]
pub struct ActivityLog {
    ring: VecDeque<ActivityRecord>,
    capacity: usize,
    next_seq: u64,
}

impl Default for ActivityLog {
    fn default() -> Self {
        ActivityLog::with_capacity(DEFAULT_CAPACITY)
    }
}

impl ActivityLog {
    /// A ring holding at most `capacity` records (at least 1).
    pub fn with_capacity(capacity: usize) -> Self {
        ActivityLog {
            ring: VecDeque::new(),
            capacity: capacity.max(1),
            next_seq: 1,
        }
    }
    /// Append a record, stamping sequence and time; returns the stamped copy.
    pub fn push(&mut self, mut record: ActivityRecord, now_ms: u64) -> ActivityRecord {
        record.seq = self.next_seq;
        record.time_ms = now_ms;
        self.next_seq += 1;
        if self.ring.len() == self.capacity {
            self.ring.pop_front();
        }
        self.ring.push_back(record.clone());
        record
    }
    /// Records with `seq > after`, oldest first.
    pub fn since(&self, after: u64) -> Vec<ActivityRecord> {
        self.ring
            .iter()
            .filter(|r| r.seq > after)
            .cloned()
            .collect()
    }
}
