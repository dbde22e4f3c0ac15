//! The deferred-loading export mode (Anthropic `defer_loading` +
//! `tool_reference`).
//!
//! In this mode `exportTools("anthropic", {mode: "deferred"})` sends the
//! discovery tools as they are plus every permitted tool with
//! `defer_loading: true`, and a `tool_inspect` result carries a
//! `{"type": "tool_reference", "tool_name": wire}` block so the API expands
//! exactly the inspected tool's definition into the model's context. The
//! session *pins* each deferred definition the first time it exports it, so
//! the tools array stays byte-identical across inspects and registry changes:
//! a tool that changes keeps its pinned (old) definition in the array and its
//! inspect answers with the current schema inline instead of a reference; a
//! removed tool keeps its entry (a call says it was removed); a newly
//! permitted tool is appended at the end on the next export (the prefix stays).
//! Every call still passes the gate, which runs only the descriptor version
//! the session's last inspect showed.

use super::Runtime;
use crate::builtin::discovery_tools;
use crate::formats::{export, wire_for, Export};
use crate::policy::Decision;
use holaryn_model::Format;
use holaryn_model::{Error, ErrorCode, Result};
use holaryn_model::{ToolDescriptor, Visibility};
use serde_json::{json, Value};
use std::sync::Arc;

use super::api::{ExportMode, ExportOptions};

impl Runtime {
    /// Export in `mode`; a deferred export pins every newly permitted tool first.
    pub fn export_tools_with(
        &mut self,
        sid: &str,
        format: Format,
        options: &ExportOptions,
    ) -> Result<Export> {
        if options.mode == ExportMode::Loaded {
            if let Some(s) = self.sessions.get_mut(sid) {
                if format == Format::Anthropic && s.pins.on {
                    s.pins.on = false;
                    s.list_revision += 1;
                }
            }
            return self.export_tools(sid, format);
        }
        let session = self.session(sid)?;
        if format != Format::Anthropic || !session.is_dynamic() {
            return Err(Error::new(
                ErrorCode::InputInvalid,
                "the deferred export mode is for `anthropic` in a session with dynamic discovery (OpenAI Responses: see the README)",
            )
            .with_field("mode"));
        }
        let fresh: Vec<(String, Arc<ToolDescriptor>)> = self
            .registry
            .entries()
            .chain(std::iter::once(&self.code_tool))
            .filter(|e| self.is_permitted(session, &e.descriptor))
            .filter(|e| {
                !session
                    .pins
                    .tools
                    .iter()
                    .any(|(_, d)| d.name == e.descriptor.name)
            })
            .map(|e| {
                (
                    wire_for(format, &e.descriptor.name, &self.registry),
                    e.descriptor.clone(),
                )
            })
            .collect();
        if let Some(s) = self.sessions.get_mut(sid) {
            s.pins.on = true;
            s.list_revision += 1;
            for (wire, d) in fresh {
                if !s.pins.tools.iter().any(|(w, _)| *w == wire) {
                    s.pins.tools.push((wire, d));
                }
            }
        }
        self.export_tools(sid, format)
    }

    /// True when policy lets the model see and call `tool` at all (its provider may be down).
    fn is_permitted(&self, session: &crate::session::Session, tool: &ToolDescriptor) -> bool {
        matches!(self.decide(session, tool), Decision::Allowed)
            && !tool.is_catalog_only()
            && tool.visibility == Visibility::ModelVisible
    }

    /// The session's deferred export, if it is in deferred mode for `format`.
    pub(crate) fn deferred_export(&self, sid: &str, format: Format) -> Result<Option<Export>> {
        let session = self.session(sid)?;
        if format != Format::Anthropic || !session.pins.on {
            return Ok(None);
        }
        let mut out = export(&discovery_tools(), format, &self.registry);
        for (wire, d) in &session.pins.tools {
            out.tools.push(json!({
                "name": wire, "description": d.description,
                "input_schema": d.input_schema, "defer_loading": true,
            }));
            out.names.insert(wire.clone(), d.name.clone());
        }
        out.bytes = Value::Array(out.tools.clone()).to_string().len() as u64;
        Ok(Some(out))
    }

    /// The wire name to reference for a `tool_inspect` result in `format`:
    /// only in deferred mode, only when the inspect loaded the tool and its
    /// pinned definition is exactly the descriptor the inspect showed.
    pub fn inspect_reference(&self, sid: &str, format: Format, inspect: &Value) -> Option<String> {
        let session = self.session(sid).ok()?;
        if format != Format::Anthropic || !session.pins.on || inspect["loaded"] != json!(true) {
            return None;
        }
        let (name, version) = (inspect["name"].as_str()?, inspect["version"].as_str()?);
        session
            .pins
            .tools
            .iter()
            .find(|(_, d)| d.name == name && d.version == version)
            .map(|(w, _)| w.clone())
    }
}

/// The Anthropic `tool_result` for a `tool_inspect` answered by reference:
/// the inspect output without the schemas (the API expands the definition),
/// then the `tool_reference` block.
pub fn reference_result(call_id: &str, inspect: &Value, wire: &str) -> Value {
    let mut text = inspect.clone();
    if let Some(o) = text.as_object_mut() {
        o.remove("schema");
        o.remove("outputSchema");
    }
    json!({
        "type": "tool_result",
        "tool_use_id": call_id,
        "content": [
            {"type": "text", "text": text.to_string()},
            {"type": "tool_reference", "tool_name": wire},
        ],
        "is_error": false,
    })
}
