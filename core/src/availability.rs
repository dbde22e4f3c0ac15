//! Availability states: exactly one per tool per session, with a machine
//! code, a human reason and the next safe action — the Capability Center's
//! columns, and what search, list and inspect show.
//!
//! Precedence, first that applies: `hidden` (provider visibility or profile
//! allowlist) > `denied` (session or project rule) > `catalog_only` (skills,
//! slash commands) > `unavailable` (provider disconnected or needs auth) >
//! `loaded` (schema in the model's context) > `approval_required` (an
//! ask-first tool not yet loaded) > `available`. A loaded ask-first tool is
//! `loaded`: the table's `asksFirst` column still says it will ask.
//! Static sessions use the same table: permitted, callable, connected tools
//! are `loaded` (their schemas were supplied at creation).

use crate::descriptor::{Source, ToolDescriptor, ToolRole};
use crate::policy::{Decision, Scope};
use crate::registry::ProviderStatus;
use serde::{Deserialize, Serialize};

/// The state of a tool in a session.
#[derive(Serialize, Deserialize, Clone, Copy, PartialEq, Eq, Debug, Hash, PartialOrd, Ord)]
#[serde(rename_all = "snake_case")]
pub enum AvailabilityState {
    /// The exact schema is in the model's context.
    Loaded,
    /// Discoverable; inspect to load.
    Available,
    /// Callable after a host approval; inspect to load.
    ApprovalRequired,
    /// Denied by a session or project rule.
    Denied,
    /// Excluded by provider visibility or the profile allowlist.
    Hidden,
    /// A skill or slash command: used through its own surface.
    CatalogOnly,
    /// The provider is disconnected or needs authentication.
    Unavailable,
}

/// A state with its code, reason and next safe action.
#[derive(Serialize, Clone, Debug, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct Availability {
    /// The state.
    pub state: AvailabilityState,
    /// Machine code, e.g. `denied.project`, `unavailable.needs_auth`.
    pub code: String,
    /// Human reason.
    pub reason: String,
    /// The next safe action.
    pub next_action: String,
    /// For `hidden`/`denied`: the scope.
    pub scope: Option<Scope>,
    /// For `hidden`/`denied`: the rule.
    pub rule: Option<String>,
}

fn make(state: AvailabilityState, code: &str, reason: String, next: String) -> Availability {
    Availability {
        state,
        code: code.into(),
        reason,
        next_action: next,
        scope: None,
        rule: None,
    }
}

fn approval_reason(tool: &ToolDescriptor) -> &'static str {
    if tool.role == ToolRole::LegacyScript {
        "it has ambient process access"
    } else if tool.annotations.destructive_hint == Some(true) {
        "it may make destructive changes"
    } else {
        "it is marked ask-first"
    }
}

/// The availability of `tool` given the policy decision, provider status and
/// whether its schema is loaded (`dynamic`: discovery on).
pub fn availability(
    tool: &ToolDescriptor,
    decision: &Decision,
    provider: ProviderStatus,
    loaded: bool,
    dynamic: bool,
) -> Availability {
    use AvailabilityState as S;
    match decision {
        Decision::Hidden { scope, rule } => {
            let mut a = make(
                S::Hidden,
                &format!("hidden.{}", scope.as_str()),
                match scope {
                    Scope::Profile => "excluded by the agent profile's allowed_tools".into(),
                    _ => "hidden by provider visibility".into(),
                },
                "none for the model; an operator can change the agent profile or provider visibility".into(),
            );
            a.scope = Some(*scope);
            a.rule = rule.clone();
            return a;
        }
        Decision::Denied { scope, rule } => {
            let mut a = make(
                S::Denied,
                &format!("denied.{}", scope.as_str()),
                format!("denied by the {} policy ({rule})", scope.as_str()),
                match scope {
                    Scope::Project => "ask the operator to change .holaryn/tool-policy.json".into(),
                    _ => "ask the host operator to change the session rules".into(),
                },
            );
            a.scope = Some(*scope);
            a.rule = Some(rule.clone());
            return a;
        }
        Decision::Allowed => {}
    }
    if tool.is_catalog_only() {
        let kind = match tool.source {
            Source::Skill => "skill",
            Source::SlashCommand => "slash command",
            _ => "catalog-only entry",
        };
        let next = match &tool.usage {
            Some(u) => format!("use it through its own surface: {u}"),
            None => format!("use the {kind} through its own surface, not as a tool call"),
        };
        return make(
            S::CatalogOnly,
            "catalog_only",
            format!("this {kind} is listed for reference and is not callable as a tool"),
            next,
        );
    }
    match provider {
        ProviderStatus::Disconnected => {
            return make(
                S::Unavailable,
                "unavailable.disconnected",
                format!("provider `{}` is disconnected", tool.provider.id),
                "wait for the provider to reconnect, or choose another tool".into(),
            )
        }
        ProviderStatus::NeedsAuth => {
            return make(
                S::Unavailable,
                "unavailable.needs_auth",
                format!("provider `{}` needs the user to sign in", tool.provider.id),
                "ask the user to authenticate the provider".into(),
            )
        }
        ProviderStatus::Connected => {}
    }
    if loaded {
        let reason = if dynamic {
            "its exact schema is loaded in this session"
        } else {
            "its schema was supplied at session creation"
        };
        let next = if tool.asks_first() {
            format!(
                "call it; the host will ask for approval because {}",
                approval_reason(tool)
            )
        } else {
            "call it".into()
        };
        return make(S::Loaded, "loaded", reason.into(), next);
    }
    if tool.asks_first() {
        return make(
            S::ApprovalRequired,
            "approval_required",
            format!(
                "calls need a host approval because {}",
                approval_reason(tool)
            ),
            "call tool_inspect to load its schema, then call it and wait for the approval".into(),
        );
    }
    make(
        S::Available,
        "available",
        "discoverable; its schema is not loaded".into(),
        "call tool_inspect to load its schema".into(),
    )
}
