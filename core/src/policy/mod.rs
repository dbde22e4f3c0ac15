//! STUB
#![allow(missing_docs, dead_code, unused)]
use crate::descriptor::ToolDescriptor;
use crate::error::Result;
use crate::registry::Registry;
use serde::{Deserialize, Serialize};
use serde_json::Value;
pub const DISCOVERY_TOOLS: [&str; 3] = ["tool_search", "tool_list", "tool_inspect"];
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Scope {
    Provider,
    Profile,
    Session,
    Project,
}
#[derive(Debug, Clone, PartialEq)]
pub struct Pattern(String);
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Rules {
    pub allow: Option<Vec<Pattern>>,
    pub deny: Vec<Pattern>,
}
impl Rules {
    pub fn from_value(v: &Value, file: Option<&str>) -> Result<Rules> {
        Ok(Rules::default())
    }
}
pub fn parse_policy_file(path: &str, text: &str) -> Result<Rules> {
    Ok(Rules::default())
}
#[derive(Debug, Clone, Default)]
pub struct Policy {
    pub hidden_providers: Vec<String>,
    pub profile_allowed: Option<Vec<Pattern>>,
    pub session: Rules,
    pub project: Option<(String, Rules)>,
}
#[derive(Debug, Clone, PartialEq)]
pub enum Decision {
    Allowed,
    Hidden { scope: Scope, rule: Option<String> },
    Denied { scope: Scope, rule: String },
}
impl Policy {
    pub fn evaluate(&self, r: &Registry, t: &ToolDescriptor) -> Decision {
        Decision::Allowed
    }
    pub fn digest(&self) -> String {
        String::new()
    }
}
