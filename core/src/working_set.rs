//! The shared working set: the tools recently loaded (inspected, or called
//! by exact name) in sessions that share it, so that a client which opens a
//! fresh session per command (the MCP Inspector CLI) finds the tool it
//! inspected a command ago in its `tools/list`.
//!
//! The rule, decided here and nowhere else:
//! - the set holds at most [`MAX_WORKING_SET`] canonical names, most
//!   recently used first; using a name again moves it to the front;
//! - a session created with `sharedWorkingSet` starts with each name that
//!   is a registered tool, discoverable, and whose availability (as if not
//!   loaded) is `available` or `approval_required` loaded at its *current*
//!   descriptor, as if inspected (`Runtime::create_session`);
//! - listing grants nothing: every call still passes the whole gate, and a
//!   tool denied, hidden or out of the ceiling is never listed.
//!
//! The host keeps the set across processes as text ([`WorkingSet::to_text`],
//! [`WorkingSet::parse`]): `{"version": 1, "tools": ["server/tool", …]}`.

use holaryn_model::{Error, ErrorCode, Result, MAX_NAME_BYTES};
use serde_json::{json, Value};

/// Most names the working set keeps.
pub const MAX_WORKING_SET: usize = 32;

/// Recently loaded canonical names, most recent first.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct WorkingSet {
    names: Vec<String>,
}

impl WorkingSet {
    /// The names, most recently used first.
    pub fn names(&self) -> &[String] {
        &self.names
    }

    /// Put `name` first (dropping the oldest past the bound); true when the set changed.
    pub fn touch(&mut self, name: &str) -> bool {
        if self.names.first().is_some_and(|n| n == name) {
            return false;
        }
        self.names.retain(|n| n != name);
        self.names.insert(0, name.to_string());
        self.names.truncate(MAX_WORKING_SET);
        true
    }

    /// The set as the host stores it.
    pub fn to_text(&self) -> String {
        json!({"version": 1, "tools": self.names}).to_string()
    }

    /// Read a stored set; `path` names it in errors (`config.invalid` with a
    /// JSON pointer). Names past the bound are dropped, duplicates kept once.
    pub fn parse(path: &str, text: &str) -> Result<WorkingSet> {
        let bad = |pointer: &str, why: &str| {
            Error::new(ErrorCode::ConfigInvalid, why.to_string())
                .with_file(path)
                .with_pointer(pointer)
                .with_next_action("delete the file: the gateway starts a new working set")
        };
        let v: Value = serde_json::from_str(text)
            .map_err(|e| bad("", &format!("the working set is not JSON: {e}")))?;
        if v.get("version") != Some(&json!(1)) {
            return Err(bad("/version", "expected version 1"));
        }
        let Some(tools) = v.get("tools").and_then(Value::as_array) else {
            return Err(bad("/tools", "expected an array of tool names"));
        };
        let mut set = WorkingSet::default();
        for (i, t) in tools.iter().enumerate() {
            match t.as_str() {
                Some(n) if !n.is_empty() && n.len() <= MAX_NAME_BYTES => {
                    if !set.names.iter().any(|x| x == n) && set.names.len() < MAX_WORKING_SET {
                        set.names.push(n.to_string());
                    }
                }
                _ => return Err(bad(&format!("/tools/{i}"), "expected a tool name")),
            }
        }
        Ok(set)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn most_recent_first_and_bounded() {
        let mut s = WorkingSet::default();
        for i in 0..40 {
            assert!(s.touch(&format!("p/t{i}")));
        }
        assert_eq!(s.names().len(), MAX_WORKING_SET);
        assert_eq!(s.names()[0], "p/t39");
        assert!(s.touch("p/t20"));
        assert!(!s.touch("p/t20"), "already first: unchanged");
        assert_eq!(s.names()[0], "p/t20");
        let back = WorkingSet::parse("ws.json", &s.to_text()).expect("round trip");
        assert_eq!(back, s);
    }

    #[test]
    fn bad_files_name_the_pointer() {
        for (text, pointer) in [
            ("{", ""),
            (r#"{"version": 2, "tools": []}"#, "/version"),
            (r#"{"version": 1}"#, "/tools"),
            (r#"{"version": 1, "tools": ["a", 3]}"#, "/tools/1"),
        ] {
            let e = WorkingSet::parse("ws.json", text).expect_err(text);
            assert_eq!(e.code, ErrorCode::ConfigInvalid);
            assert_eq!(e.pointer.as_deref(), Some(pointer), "{text}");
            assert_eq!(e.file.as_deref(), Some("ws.json"));
        }
    }
}
