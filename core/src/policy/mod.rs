//! Policy: four scopes decide what the model may see and do with each tool.
//!
//! In order, each scope can only narrow: 1. provider visibility (a hidden
//! tool or provider), 2. the agent profile's `allowed_tools` ceiling, 3. the
//! host's session rules `{allow, deny}`, 4. the project file
//! `.holaryn/tool-policy.json`. Deny wins at every scope; an omitted `allow`
//! permits every otherwise permitted tool, an empty `allow` permits none.
//! Scopes 1–2 *hide* a tool; scopes 3–4 *deny* it (visible, with the reason).
//! The discovery tools are not registry tools and are never affected.
//! Entry grammar: see [`pattern`].

pub mod pattern;
mod rules;

pub use pattern::Pattern;
pub use rules::{parse_policy_file, Rules};

use crate::descriptor::{ToolDescriptor, Visibility};
use crate::hash::json_digest;
use crate::registry::Registry;
use serde::{Deserialize, Serialize};
use serde_json::json;

/// The discovery tools: always present, never removed by any rule.
pub const DISCOVERY_TOOLS: [&str; 3] = ["tool_search", "tool_list", "tool_inspect"];

/// A policy scope.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Scope {
    /// Provider or tool visibility.
    Provider,
    /// The agent profile's `allowed_tools`.
    Profile,
    /// The host's session rules.
    Session,
    /// The project policy file.
    Project,
}

impl Scope {
    /// Wire name.
    pub fn as_str(self) -> &'static str {
        match self {
            Scope::Provider => "provider",
            Scope::Profile => "profile",
            Scope::Session => "session",
            Scope::Project => "project",
        }
    }
}

/// The decision for one tool.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(tag = "decision", rename_all = "snake_case")]
pub enum Decision {
    /// Permitted.
    Allowed,
    /// Not visible to the model at all.
    Hidden {
        /// The scope that hid it.
        scope: Scope,
        /// What hid it.
        rule: Option<String>,
    },
    /// Visible but denied, with the rule that denied it.
    Denied {
        /// The scope that denied it.
        scope: Scope,
        /// The matching deny entry, or `allow: […]` when no allow entry matched.
        rule: String,
    },
}

/// An entry that names no registered tool (not an error: catalogs change).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct PolicyWarning {
    /// Where the entry is.
    pub scope: Scope,
    /// The entry.
    pub entry: String,
    /// What is odd about it.
    pub message: String,
}

/// A session's effective policy over all four scopes.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Policy {
    /// Providers hidden from this session.
    pub hidden_providers: Vec<String>,
    /// The profile's `allowed_tools` ceiling (`None` = all).
    pub profile_allowed: Option<Vec<Pattern>>,
    /// Host session rules.
    pub session: Rules,
    /// The project policy file: its path and rules.
    pub project: Option<(String, Rules)>,
}

fn rules_decision(scope: Scope, rules: &Rules, tool: &ToolDescriptor) -> Option<Decision> {
    if let Some(p) = rules.deny.iter().find(|p| p.matches(tool)) {
        return Some(Decision::Denied {
            scope,
            rule: format!("deny: {p}"),
        });
    }
    match &rules.allow {
        Some(allow) if !allow.iter().any(|p| p.matches(tool)) => Some(Decision::Denied {
            scope,
            rule: if allow.is_empty() {
                "allow: [] (empty allow permits none)".into()
            } else {
                "not in allow".into()
            },
        }),
        _ => None,
    }
}

impl Policy {
    /// Decide for one tool, scope by scope; the first scope that narrows wins.
    pub fn evaluate(&self, _registry: &Registry, tool: &ToolDescriptor) -> Decision {
        if DISCOVERY_TOOLS.contains(&tool.name.as_str()) {
            return Decision::Allowed;
        }
        if tool.visibility == Visibility::Hidden {
            return Decision::Hidden {
                scope: Scope::Provider,
                rule: Some("tool marked hidden".into()),
            };
        }
        if self.hidden_providers.contains(&tool.provider.id) {
            return Decision::Hidden {
                scope: Scope::Provider,
                rule: Some(format!("provider `{}` hidden", tool.provider.id)),
            };
        }
        if let Some(allowed) = &self.profile_allowed {
            if !allowed.iter().any(|p| p.matches(tool)) {
                return Decision::Hidden {
                    scope: Scope::Profile,
                    rule: Some("not in the profile's allowed_tools".into()),
                };
            }
        }
        if let Some(d) = rules_decision(Scope::Session, &self.session, tool) {
            return d;
        }
        if let Some((_, rules)) = &self.project {
            if let Some(d) = rules_decision(Scope::Project, rules, tool) {
                return d;
            }
        }
        Decision::Allowed
    }

    /// Digest of every rule (part of the session's effective registry version).
    pub fn digest(&self) -> String {
        fn list(v: &[Pattern]) -> Vec<&str> {
            v.iter().map(Pattern::as_str).collect()
        }
        let rules =
            |r: &Rules| json!({"allow": r.allow.as_deref().map(list), "deny": list(&r.deny)});
        let mut hidden = self.hidden_providers.clone();
        hidden.sort();
        json_digest(&json!({
            "hiddenProviders": hidden,
            "profile": self.profile_allowed.as_deref().map(list),
            "session": rules(&self.session),
            "project": self.project.as_ref().map(|(path, r)| json!({"path": path, "rules": rules(r)})),
        }))
    }

    /// Exact entries that name no registered tool.
    pub fn warnings(&self, registry: &Registry) -> Vec<PolicyWarning> {
        let mut out = Vec::new();
        let mut check = |scope: Scope, patterns: &[Pattern]| {
            for p in patterns {
                if p.exact_name().is_some() && !registry.entries().any(|e| p.matches(&e.descriptor))
                {
                    out.push(PolicyWarning {
                        scope,
                        entry: p.to_string(),
                        message: format!("`{p}` names no registered tool"),
                    });
                }
            }
        };
        if let Some(a) = &self.profile_allowed {
            check(Scope::Profile, a);
        }
        check(Scope::Session, self.session.allow.as_deref().unwrap_or(&[]));
        check(Scope::Session, &self.session.deny);
        if let Some((_, r)) = &self.project {
            check(Scope::Project, r.allow.as_deref().unwrap_or(&[]));
            check(Scope::Project, &r.deny);
        }
        out
    }
}
