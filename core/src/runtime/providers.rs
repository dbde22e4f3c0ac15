//! Provider re-lists: a provider's tools registered as one list, each tool
//! the registry refuses skipped and kept ([`SkippedTool`]) while the rest
//! register.

use super::Runtime;
use crate::activity::ActivityRecord;
use crate::catalog::ProviderList;
use crate::registry::{Listing, RegistryChange, SkippedTool, Update};
use holaryn_model::Result;
use serde::Serialize;

/// What a provider re-list did.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ProviderSync {
    /// The registry change (none when nothing registered changed, even if
    /// what was skipped did).
    pub change: Option<RegistryChange>,
    /// Every tool this re-list skipped.
    pub skipped: Vec<SkippedTool>,
    /// The tools the catalog rule renamed (`qualifyRefusedNames`), in catalog order.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub renamed: Vec<crate::catalog::Renamed>,
}

impl Runtime {
    /// Register `list` as its provider's tools (a re-list: the provider's
    /// other tools are removed), skipping each tool the registry refuses
    /// while the rest register. Records one `tool_skipped` activity record
    /// per skipped tool the provider's previous re-list did not skip the
    /// same way (a re-list that skips the same tool again records nothing
    /// new; the Capability Center row stays).
    pub fn sync_provider_list(&mut self, list: ProviderList, now_ms: u64) -> Result<ProviderSync> {
        let ProviderList {
            provider,
            mut specs,
            mut skipped,
            renamed,
        } = list;
        if self.require_input_schema {
            specs.retain(|spec| match crate::validate::require_input_schema(spec) {
                Ok(()) => true,
                Err(e) => {
                    skipped.push(Listing::of_spec(spec).skip(&e));
                    false
                }
            });
        }
        let before = self.registry.skipped_of(&provider.id).to_vec();
        let update = Update {
            upsert: specs,
            sync_provider: Some(provider.id.clone()),
            skip_refused: true,
            skipped,
            ..Update::default()
        };
        let change = self.update(update, now_ms)?;
        let skipped = self.registry.skipped_of(&provider.id).to_vec();
        let version = self.registry.version().to_string();
        for tool in skipped.iter().filter(|t| !before.contains(t)) {
            self.record(ActivityRecord::skipped(tool, &version), now_ms);
        }
        Ok(ProviderSync {
            change,
            skipped,
            renamed,
        })
    }

    /// Remove a provider: its tools, its status and its skipped tools.
    pub fn remove_provider(
        &mut self,
        provider_id: &str,
        now_ms: u64,
    ) -> Result<Option<RegistryChange>> {
        self.update(
            Update {
                sync_provider: Some(provider_id.to_string()),
                provider_status: vec![(
                    provider_id.to_string(),
                    holaryn_model::ProviderStatus::Connected,
                )],
                ..Update::default()
            },
            now_ms,
        )
    }
}
