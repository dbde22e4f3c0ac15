//! The decision: which scope narrows a tool first and with which rule
//! (deny wins in every scope; no scope widens). The module doc of
//! [`crate::policy`] states the rule in full.

use super::compiled::CompiledPolicy;
use super::pattern::Pattern;
use super::rules::Rules;
use holaryn_model::json_digest;
use holaryn_model::{ToolDescriptor, Visibility};
use serde::{Deserialize, Serialize};
use serde_json::{json, Value};

use holaryn_model::is_discovery_tool;

/// A policy scope, in evaluation order.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Scope {
    /// The session's options switch a runtime tool off (bounded code mode is
    /// off); not a policy rule, decided before every scope.
    SessionOptions,
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
    /// Wire name (`session_options`, `provider`, `profile`, `session`, `project`).
    pub fn as_str(self) -> &'static str {
        match self {
            Scope::SessionOptions => "session_options",
            Scope::Provider => "provider",
            Scope::Profile => "profile",
            Scope::Session => "session",
            Scope::Project => "project",
        }
    }
}

/// The policy decision for one tool.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "decision", rename_all = "snake_case")]
pub enum Decision {
    /// Permitted by every scope.
    Allowed,
    /// Not visible to the model at all (provider visibility or profile).
    Hidden {
        /// The scope that hid it.
        scope: Scope,
        /// What hid it, e.g. `hidden provider: github`.
        rule: Option<String>,
    },
    /// Listed but denied (session or project rules).
    Denied {
        /// The scope that denied it.
        scope: Scope,
        /// `deny: <entry>`, `allow: no entry matches` or `allow: [] (permits none)`.
        rule: String,
    },
}

impl Decision {
    /// True for [`Decision::Allowed`].
    pub fn is_allowed(&self) -> bool {
        matches!(self, Decision::Allowed)
    }
}

/// A session's effective policy over all four scopes.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Policy {
    /// Provider ids the host hides from this session.
    pub hidden_providers: Vec<String>,
    /// The profile's `allowed_tools` ceiling (`None` = all, `Some([])` = none).
    pub profile_allowed: Option<Vec<Pattern>>,
    /// Host session rules.
    pub session: Rules,
    /// The project policy file: its path (for messages) and rules.
    pub project: Option<(String, Rules)>,
}

/// Something that finds the first entry (in list order) matching a tool.
pub(crate) trait FirstMatch {
    /// The first matching entry.
    fn first_match(&self, tool: &ToolDescriptor) -> Option<&Pattern>;
    /// True when the list has no entries.
    fn is_empty_list(&self) -> bool;
}

impl FirstMatch for [Pattern] {
    fn first_match(&self, tool: &ToolDescriptor) -> Option<&Pattern> {
        self.iter().find(|p| p.matches(tool))
    }
    fn is_empty_list(&self) -> bool {
        self.is_empty()
    }
}

/// One `{allow, deny}` scope as seen by [`decide`].
pub(crate) struct ScopeRules<'a, M: FirstMatch + ?Sized> {
    pub scope: Scope,
    pub allow: Option<&'a M>,
    pub deny: &'a M,
}

/// The one decision procedure both evaluators share.
pub(crate) fn decide<M: FirstMatch + ?Sized>(
    tool: &ToolDescriptor,
    provider_hidden: bool,
    profile: Option<&M>,
    scopes: [Option<ScopeRules<'_, M>>; 2],
) -> Decision {
    if is_discovery_tool(&tool.name) {
        return Decision::Allowed;
    }
    if tool.visibility == Visibility::Hidden {
        return Decision::Hidden {
            scope: Scope::Provider,
            rule: Some("tool visibility: hidden".into()),
        };
    }
    if provider_hidden {
        return Decision::Hidden {
            scope: Scope::Provider,
            rule: Some(format!("hidden provider: {}", tool.provider.id)),
        };
    }
    if let Some(allowed) = profile {
        if allowed.first_match(tool).is_none() {
            return Decision::Hidden {
                scope: Scope::Profile,
                rule: Some(allow_miss("allowed_tools", allowed.is_empty_list())),
            };
        }
    }
    for s in scopes.iter().flatten() {
        if let Some(p) = s.deny.first_match(tool) {
            return Decision::Denied {
                scope: s.scope,
                rule: format!("deny: {p}"),
            };
        }
        if let Some(allow) = s.allow {
            if allow.first_match(tool).is_none() {
                return Decision::Denied {
                    scope: s.scope,
                    rule: allow_miss("allow", allow.is_empty_list()),
                };
            }
        }
    }
    Decision::Allowed
}

impl Rules {
    pub(crate) fn scope(&self, scope: Scope) -> ScopeRules<'_, [Pattern]> {
        ScopeRules {
            scope,
            allow: self.allow.as_deref(),
            deny: &self.deny,
        }
    }
}

fn allow_miss(list: &str, empty: bool) -> String {
    if empty {
        format!("{list}: [] (permits none)")
    } else {
        format!("{list}: no entry matches")
    }
}

fn canonical(list: &[Pattern]) -> Vec<&str> {
    let mut v: Vec<&str> = list.iter().map(Pattern::as_str).collect();
    v.sort_unstable();
    v.dedup();
    v
}

fn canonical_rules(r: &Rules) -> Value {
    json!({"allow": r.allow.as_deref().map(canonical), "deny": canonical(&r.deny)})
}

impl Policy {
    /// A policy from host session rules only (no hiding, no profile, no project).
    pub fn with_session(session: Rules) -> Policy {
        Policy {
            session,
            ..Policy::default()
        }
    }

    /// Decide for one tool, scope by scope; the first scope that narrows wins.
    pub fn evaluate(&self, tool: &ToolDescriptor) -> Decision {
        decide(
            tool,
            self.hidden_providers.contains(&tool.provider.id),
            self.profile_allowed.as_deref(),
            [
                Some(self.session.scope(Scope::Session)),
                self.project.as_ref().map(|(_, r)| r.scope(Scope::Project)),
            ],
        )
    }

    /// Precompile for fast bulk evaluation (see the module docs).
    pub fn compile(&self) -> CompiledPolicy {
        CompiledPolicy::new(self)
    }

    /// `sha256:` digest of the canonical rule set (entries sorted and
    /// de-duplicated per list, hidden providers sorted; the project file's
    /// path is not a rule and is left out). The session folds it into its
    /// effective version.
    pub fn digest(&self) -> String {
        let mut hidden: Vec<&str> = self.hidden_providers.iter().map(String::as_str).collect();
        hidden.sort_unstable();
        hidden.dedup();
        json_digest(&json!({
            "hiddenProviders": hidden,
            "profile": self.profile_allowed.as_deref().map(canonical),
            "session": canonical_rules(&self.session),
            "project": self.project.as_ref().map(|(_, r)| canonical_rules(r)),
        }))
    }
}
