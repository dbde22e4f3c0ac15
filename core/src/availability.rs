//! STUB
#![allow(missing_docs, dead_code, unused)]
use crate::descriptor::ToolDescriptor;
use crate::policy::{Decision, Scope};
use crate::registry::ProviderStatus;
use serde::{Deserialize, Serialize};
#[derive(Serialize, Deserialize, Clone, Copy, PartialEq, Eq, Debug, Hash, PartialOrd, Ord)]
#[serde(rename_all = "snake_case")]
pub enum AvailabilityState {
    Loaded,
    Available,
    ApprovalRequired,
    Denied,
    Hidden,
    CatalogOnly,
    Unavailable,
}
#[derive(Serialize, Clone, Debug, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct Availability {
    pub state: AvailabilityState,
    pub code: String,
    pub reason: String,
    pub next_action: String,
    pub scope: Option<Scope>,
    pub rule: Option<String>,
}
pub fn availability(
    tool: &ToolDescriptor,
    decision: &Decision,
    provider: ProviderStatus,
    loaded: bool,
    dynamic: bool,
) -> Availability {
    Availability {
        state: if loaded {
            AvailabilityState::Loaded
        } else {
            AvailabilityState::Available
        },
        code: String::new(),
        reason: String::new(),
        next_action: String::new(),
        scope: None,
        rule: None,
    }
}
