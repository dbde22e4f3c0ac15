//! Policy warnings: things worth telling an operator that are not errors.
//!
//! Catalogs change, so an entry naming a tool that is not registered right
//! now is not malformed; it is reported here instead. Only exact entries
//! (no `*`) are checked: a wildcard matching nothing is normal. Also
//! reported: entries listed twice, entries naming a discovery tool (which no
//! rule can remove) and hidden providers with no registered tool.

use super::decide::{Policy, Scope};
use super::pattern::Pattern;
use crate::registry::Registry;
use holaryn_model::is_discovery_tool;
use serde::Serialize;
use std::collections::HashSet;

/// One warning about a policy entry.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct PolicyWarning {
    /// The scope the entry belongs to.
    pub scope: Scope,
    /// The entry as written.
    pub entry: String,
    /// Where it is: `/deny/2` for rules, `/3` for the profile list, `""` for a provider.
    pub pointer: String,
    /// What is odd about it, for a human.
    pub message: String,
}

fn names_a_tool(registry: &Registry, p: &Pattern) -> bool {
    if let Some(name) = p.exact_name() {
        if let Some(e) = registry.get(name) {
            if p.matches(&e.descriptor) {
                return true;
            }
        }
        if !name.contains('/') {
            return false;
        }
    }
    registry.entries().any(|e| p.matches(&e.descriptor))
}

fn check_list(
    out: &mut Vec<PolicyWarning>,
    registry: &Registry,
    (scope, base, origin): (Scope, &str, &str),
    list: &[Pattern],
) {
    let mut seen = HashSet::new();
    for (i, p) in list.iter().enumerate() {
        let pointer = format!("{base}/{i}");
        let mut warn = |message: String| {
            out.push(PolicyWarning {
                scope,
                entry: p.to_string(),
                pointer: pointer.clone(),
                message: format!("{origin}: {message}"),
            })
        };
        if !seen.insert(p.as_str()) {
            warn(format!("`{p}` is listed more than once"));
            continue;
        }
        let Some(name) = p.exact_name() else {
            continue;
        };
        if is_discovery_tool(name) {
            warn(format!(
                "`{p}` is a discovery tool; discovery tools are always available, so this entry has no effect"
            ));
        } else if !names_a_tool(registry, p) {
            let what = match p.source() {
                Some(s) => format!("no registered {} tool", s.as_str()),
                None => "no registered tool".to_string(),
            };
            warn(format!(
                "`{p}` names {what} (not an error: it takes effect if one is registered)"
            ));
        }
    }
}

impl Policy {
    /// Warnings for this policy against the current registry, in scope order.
    pub fn warnings(&self, registry: &Registry) -> Vec<PolicyWarning> {
        let mut out = Vec::new();
        let mut seen = HashSet::new();
        for id in &self.hidden_providers {
            let known = registry.entries().any(|e| &e.descriptor.provider.id == id);
            if seen.insert(id.as_str()) && !known {
                out.push(PolicyWarning {
                    scope: Scope::Provider,
                    entry: id.clone(),
                    pointer: String::new(),
                    message: format!("hidden provider `{id}` has no registered tool"),
                });
            }
        }
        if let Some(list) = &self.profile_allowed {
            let at = (Scope::Profile, "", "allowed_tools");
            check_list(&mut out, registry, at, list);
        }
        let mut scopes = vec![(Scope::Session, "session rules", &self.session)];
        if let Some((path, rules)) = &self.project {
            scopes.push((Scope::Project, path.as_str(), rules));
        }
        for (scope, origin, rules) in scopes {
            if let Some(allow) = &rules.allow {
                check_list(&mut out, registry, (scope, "/allow", origin), allow);
            }
            check_list(&mut out, registry, (scope, "/deny", origin), &rules.deny);
        }
        out
    }
}
