//! Availability states: exactly one per tool per session, with a machine
//! code, a human reason and the next safe action. These are the Capability
//! Center's columns, and what `tool_search`, `tool_list` and `tool_inspect`
//! show the model.
//!
//! | state               | code(s)                                              |
//! |---------------------|------------------------------------------------------|
//! | `hidden`            | `hidden.provider`, `hidden.profile`, `hidden.session_options` |
//! | `denied`            | `denied.session`, `denied.project`                   |
//! | `catalog_only`      | `catalog_only`                                       |
//! | `unavailable`       | `unavailable.disconnected`, `unavailable.needs_auth`, `unavailable.skipped` |
//! | `loaded`            | `loaded`                                             |
//! | `approval_required` | `approval_required`                                  |
//! | `available`         | `available`, `available.static`                      |
//!
//! **Precedence** (the first that applies wins):
//! `hidden` > `denied` > `catalog_only` > `unavailable` > `loaded` >
//! `approval_required` > `available`. Why this order:
//!
//! - Policy first, because it is what the operator controls and it is
//!   stable: a hidden or denied tool stays so whether or not its provider is
//!   up, and the row names the scope and rule to change. Hidden beats denied
//!   because scopes apply in order and a hidden tool must not be described to
//!   the model at all.
//! - `catalog_only` next: a permitted skill or slash command is never a tool
//!   call, whatever its provider's state, and the row says how to use it.
//! - `unavailable` before `loaded`: a loaded schema does not make a
//!   disconnected provider callable; the fix (reconnect, sign in) comes first.
//! - A loaded tool that asks first stays `loaded`: loading is per session,
//!   approval is per call, and hiding the fact that the schema is loaded
//!   would make the table lie about the model's context. The next action says
//!   the host will ask, and the Capability Center's `asksFirst` column says so
//!   for every row. Before loading, an ask-first tool is `approval_required`
//!   rather than `available`, so operators see it before the model calls it.
//!
//! **Skipped tools** (a provider listed them, the registry refused their
//! descriptors; `core/src/registry/skipped.rs`) are no tools: no policy, session or
//! model ever sees them. The Capability Center shows each as `unavailable`
//! with code `unavailable.skipped`, the refusal as its reason and the fix on
//! the provider's side as its next action ([`skipped`]).
//!
//! **Static sessions** (discovery off) use the same table: permitted,
//! callable, connected tools whose schemas were supplied at creation are
//! `loaded`; tools the provider or profile excluded are `hidden`. A permitted
//! tool that was not supplied (`loaded = false`) is `available` with code
//! `available.static`: there is no `tool_inspect` to load it, so the next
//! action is for the host.

use crate::policy::{Decision, Scope};
use crate::registry::SkippedTool;
use holaryn_model::Code;
use holaryn_model::ProviderStatus;
use holaryn_model::{ApprovalMode, Source, ToolDescriptor, ToolRole};
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

impl AvailabilityState {
    /// Every state.
    pub const ALL: [AvailabilityState; 7] = [
        AvailabilityState::Loaded,
        AvailabilityState::Available,
        AvailabilityState::ApprovalRequired,
        AvailabilityState::Denied,
        AvailabilityState::Hidden,
        AvailabilityState::CatalogOnly,
        AvailabilityState::Unavailable,
    ];
    /// Wire name (`approval_required`, …).
    pub fn as_str(self) -> &'static str {
        match self {
            AvailabilityState::Loaded => "loaded",
            AvailabilityState::Available => "available",
            AvailabilityState::ApprovalRequired => "approval_required",
            AvailabilityState::Denied => "denied",
            AvailabilityState::Hidden => "hidden",
            AvailabilityState::CatalogOnly => "catalog_only",
            AvailabilityState::Unavailable => "unavailable",
        }
    }
}

/// A state with its code, reason and next safe action.
#[derive(Serialize, Clone, Debug, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct Availability {
    /// The state.
    pub state: AvailabilityState,
    /// Machine code, e.g. `denied.project`, `unavailable.needs_auth`.
    pub code: Code,
    /// Human reason.
    pub reason: String,
    /// The next safe action.
    pub next_action: String,
    /// For `hidden`/`denied`: the scope.
    pub scope: Option<Scope>,
    /// For `hidden`/`denied`: the rule.
    pub rule: Option<String>,
}

fn make(state: AvailabilityState, code: Code, reason: String, next: &str) -> Availability {
    Availability {
        state,
        code,
        reason,
        next_action: next.into(),
        scope: None,
        rule: None,
    }
}

/// Why a call must wait for the host's approval: the `reason` the host's
/// `approve` callback is given, and the words the availability row uses.
#[derive(Serialize, Clone, Copy, PartialEq, Eq, Debug)]
#[serde(rename_all = "snake_case")]
pub enum ApprovalReason {
    /// The legacy script: it can reach the host process.
    AmbientProcessAccess,
    /// The tool (or its provider) is configured to ask first.
    AskFirst,
    /// The tool's annotations say it may make destructive changes.
    Destructive,
}

impl ApprovalReason {
    /// The reason for a tool that asks first ([`ToolDescriptor::asks_first`]).
    pub fn of(tool: &ToolDescriptor) -> ApprovalReason {
        if tool.role == ToolRole::LegacyScript {
            ApprovalReason::AmbientProcessAccess
        } else if tool.approval == ApprovalMode::Ask {
            ApprovalReason::AskFirst
        } else if tool.annotations.destructive_hint == Some(true) {
            ApprovalReason::Destructive
        } else {
            ApprovalReason::AskFirst
        }
    }

    /// Wire name (`ambient_process_access`, `ask_first`, `destructive`).
    pub fn as_str(self) -> &'static str {
        match self {
            ApprovalReason::AmbientProcessAccess => "ambient_process_access",
            ApprovalReason::AskFirst => "ask_first",
            ApprovalReason::Destructive => "destructive",
        }
    }

    /// The reason in words ("it may make destructive changes").
    pub fn text(self) -> &'static str {
        match self {
            ApprovalReason::AmbientProcessAccess => "it has ambient process access",
            ApprovalReason::AskFirst => "it is marked ask-first",
            ApprovalReason::Destructive => "it may make destructive changes",
        }
    }
}

fn approval_reason(tool: &ToolDescriptor) -> &'static str {
    ApprovalReason::of(tool).text()
}

fn hidden(scope: Scope, rule: &Option<String>) -> Availability {
    let (what, next) = match scope {
        Scope::Profile => (
            "excluded by the agent profile's allowed_tools",
            "none for the model; an operator can add a matching entry to the agent profile's allowed_tools",
        ),
        Scope::SessionOptions => (
            "switched off by the session options",
            "none for the model; the host can enable bounded code mode (boundedCodeMode) in the session options",
        ),
        _ => (
            "hidden by provider visibility",
            "none for the model; an operator can make the provider or tool visible to this session",
        ),
    };
    let reason = match rule {
        Some(r) => format!("{what} ({r})"),
        None => what.to_string(),
    };
    let code = match scope {
        Scope::Profile => Code::HiddenProfile,
        Scope::SessionOptions => Code::HiddenSessionOptions,
        _ => Code::HiddenProvider,
    };
    let mut a = make(AvailabilityState::Hidden, code, reason, next);
    a.scope = Some(scope);
    a.rule = rule.clone();
    a
}

fn denied(scope: Scope, rule: &str) -> Availability {
    let (whose, next) = match scope {
        Scope::Project => (
            "the project policy file",
            "choose another tool; permitting this one needs a change to .holaryn/tool-policy.json",
        ),
        _ => (
            "the host's session rules",
            "choose another tool; permitting this one needs a change to the host's session rules",
        ),
    };
    let code = match scope {
        Scope::Project => Code::DeniedProject,
        _ => Code::DeniedSession,
    };
    let reason = format!("denied by {whose} ({rule})");
    let mut a = make(AvailabilityState::Denied, code, reason, next);
    a.scope = Some(scope);
    a.rule = Some(rule.to_string());
    a
}

fn catalog_only(tool: &ToolDescriptor) -> Availability {
    let kind = match tool.source {
        Source::Skill => "skill",
        Source::SlashCommand => "slash command",
        _ => "catalog-only entry",
    };
    let next = match &tool.usage {
        Some(u) => format!("use it through its own surface: {u}"),
        None => format!("use the {kind} through its own surface, not as a tool call"),
    };
    let reason = format!("this {kind} is listed for reference and is not callable as a tool");
    make(
        AvailabilityState::CatalogOnly,
        Code::CatalogOnly,
        reason,
        &next,
    )
}

/// The Capability Center row of a tool its provider listed but the registry refused.
pub fn skipped(tool: &SkippedTool) -> Availability {
    make(
        AvailabilityState::Unavailable,
        Code::UnavailableSkipped,
        format!(
            "provider `{}` listed it, but it was not registered ({}): {}",
            tool.provider.id, tool.code, tool.message
        ),
        &tool.next_action,
    )
}

/// Only the state [`availability`] would give, without building its texts
/// (for ranking filters and lists). An exhaustive test keeps the two equal.
pub fn availability_state(
    tool: &ToolDescriptor,
    decision: &Decision,
    provider: ProviderStatus,
    loaded: bool,
    dynamic: bool,
) -> AvailabilityState {
    use AvailabilityState as S;
    match decision {
        Decision::Hidden { .. } => S::Hidden,
        Decision::Denied { .. } => S::Denied,
        Decision::Allowed if tool.is_catalog_only() => S::CatalogOnly,
        Decision::Allowed if provider != ProviderStatus::Connected => S::Unavailable,
        Decision::Allowed if loaded => S::Loaded,
        Decision::Allowed if dynamic && tool.asks_first() => S::ApprovalRequired,
        Decision::Allowed => S::Available,
    }
}

/// The availability of `tool` in a session: its policy `decision`, its
/// provider's status, whether its schema is `loaded` in the model's context
/// and whether the session is `dynamic` (discovery on). Precedence: see the
/// module docs.
pub fn availability(
    tool: &ToolDescriptor,
    decision: &Decision,
    provider: ProviderStatus,
    loaded: bool,
    dynamic: bool,
) -> Availability {
    use AvailabilityState as S;
    match decision {
        Decision::Hidden { scope, rule } => return hidden(*scope, rule),
        Decision::Denied { scope, rule } => return denied(*scope, rule),
        Decision::Allowed => {}
    }
    if tool.is_catalog_only() {
        return catalog_only(tool);
    }
    let id = &tool.provider.id;
    match provider {
        ProviderStatus::Disconnected => {
            return make(
                S::Unavailable,
                Code::UnavailableDisconnected,
                format!("provider `{id}` is disconnected"),
                "choose another tool, or wait for the provider to reconnect",
            )
        }
        ProviderStatus::NeedsAuth => {
            return make(
                S::Unavailable,
                Code::UnavailableNeedsAuth,
                format!("provider `{id}` needs the user to sign in"),
                "ask the user to authenticate the provider, then try again",
            )
        }
        ProviderStatus::Connected => {}
    }
    let asks = tool.asks_first();
    if loaded {
        let reason = if dynamic {
            "its exact schema is loaded in this session"
        } else {
            "its schema was supplied at session creation"
        };
        let next = if asks {
            format!(
                "call it; the host will ask for approval first because {}",
                approval_reason(tool)
            )
        } else {
            "call it".into()
        };
        return make(S::Loaded, Code::Loaded, reason.into(), &next);
    }
    if !dynamic {
        return make(
            S::Available,
            Code::AvailableStatic,
            "permitted, but discovery is off and its schema was not supplied at session creation"
                .into(),
            "none for the model; the host can supply it when creating the session or turn discovery on",
        );
    }
    if asks {
        return make(
            S::ApprovalRequired,
            Code::ApprovalRequired,
            format!("calls need a host approval because {}", approval_reason(tool)),
            "call tool_inspect to load its schema, then call it; the host will ask for approval first",
        );
    }
    make(
        S::Available,
        Code::Available,
        "discoverable; its schema is not loaded yet".into(),
        "call tool_inspect to load its schema, then call it",
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::policy::Scope;
    use holaryn_model::{ApprovalMode, Invokability};

    #[test]
    fn the_state_alone_always_equals_the_full_availability_state() {
        let base = (*crate::builtin::code_tool_entry().descriptor).clone();
        let decisions = [
            Decision::Allowed,
            Decision::Hidden {
                scope: Scope::Provider,
                rule: None,
            },
            Decision::Denied {
                scope: Scope::Project,
                rule: "deny: x".into(),
            },
        ];
        let mut seen = 0;
        for catalog_only in [false, true] {
            for approval in [ApprovalMode::Auto, ApprovalMode::Ask, ApprovalMode::Never] {
                for destructive in [None, Some(true)] {
                    for role in [ToolRole::Ordinary, ToolRole::LegacyScript] {
                        let mut tool = base.clone();
                        tool.invokability = if catalog_only {
                            Invokability::CatalogOnly
                        } else {
                            Invokability::Callable
                        };
                        tool.approval = approval;
                        tool.annotations.destructive_hint = destructive;
                        tool.role = role;
                        for d in &decisions {
                            for p in [
                                ProviderStatus::Connected,
                                ProviderStatus::Disconnected,
                                ProviderStatus::NeedsAuth,
                            ] {
                                for loaded in [false, true] {
                                    for dynamic in [false, true] {
                                        let full = availability(&tool, d, p, loaded, dynamic);
                                        let state =
                                            availability_state(&tool, d, p, loaded, dynamic);
                                        assert_eq!(state, full.state, "{d:?} {p:?} loaded={loaded} dynamic={dynamic} {approval:?} {role:?}");
                                        seen += 1;
                                    }
                                }
                            }
                        }
                    }
                }
            }
        }
        assert_eq!(seen, 2 * 3 * 2 * 2 * 3 * 3 * 2 * 2);
    }
}
