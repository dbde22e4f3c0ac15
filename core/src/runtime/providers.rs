//! Provider re-lists: a provider's tools registered as one list, each tool
//! the registry refuses skipped and kept ([`SkippedTool`]) while the rest
//! register.

use super::listed::Read;
use super::Runtime;
use crate::activity::ActivityRecord;
use crate::catalog::{ProviderList, Renamed};
use crate::registry::{Listing, RegistryChange, SkippedTool, Update};
use holaryn_model::{Provider, Result};
use serde::Serialize;
use serde_json::Value;

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

/// A re-list's answer where a registry change is expected (`registerCatalog`,
/// `syncProvider`): the change, and every tool the re-list skipped, so one
/// refused tool neither costs the others nor goes unreported.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ListChange {
    /// The registry change (old and new version equal, every list empty,
    /// when only what was skipped is news).
    #[serde(flatten)]
    pub change: RegistryChange,
    /// Every tool this re-list skipped.
    pub skipped: Vec<SkippedTool>,
    /// The tools the catalog rule renamed (`qualifyRefusedNames`), in catalog order.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub renamed: Vec<Renamed>,
}

impl ProviderSync {
    /// The answer as a [`ListChange`] at registry `version`: `None` only
    /// when nothing changed and nothing was skipped or renamed.
    pub fn into_change(self, version: &str) -> Option<ListChange> {
        let change = match self.change {
            Some(c) => c,
            None if self.skipped.is_empty() && self.renamed.is_empty() => return None,
            None => RegistryChange {
                old_version: version.to_string(),
                new_version: version.to_string(),
                added: Vec::new(),
                removed: Vec::new(),
                changed: Vec::new(),
            },
        };
        Some(ListChange {
            change,
            skipped: self.skipped,
            renamed: self.renamed,
        })
    }
}

impl Runtime {
    /// Register `tools` (tool spec values) as provider `provider_id`'s
    /// re-list, as [`Runtime::sync_provider_list`] does: a value that is no
    /// spec, or a spec the registry refuses, is skipped and kept while the
    /// rest register.
    pub fn sync_provider_values(
        &mut self,
        provider_id: &str,
        tools: Vec<Value>,
        now_ms: u64,
    ) -> Result<ProviderSync> {
        let provider = Provider::bare(provider_id);
        let mut list = ProviderList {
            provider,
            specs: Vec::with_capacity(tools.len()),
            skipped: Vec::new(),
            renamed: Vec::new(),
        };
        for (i, value) in tools.into_iter().enumerate() {
            let listing = Listing::of_value(i, &value, &list.provider);
            match crate::validate::parse_spec_owned(value) {
                Ok(spec) => list.specs.push(spec),
                Err(e) => list.skipped.push(listing.skip(&e)),
            }
        }
        self.sync_provider_list(list, now_ms)
    }

    /// Register `list` as its provider's tools (a re-list: the provider's
    /// other tools are removed), skipping each tool the registry refuses
    /// while the rest register. Records one `tool_skipped` activity record
    /// per skipped tool the provider's previous re-list did not skip the
    /// same way (a re-list that skips the same tool again records nothing
    /// new; the Capability Center row stays).
    pub fn sync_provider_list(&mut self, list: ProviderList, now_ms: u64) -> Result<ProviderSync> {
        self.sync_listed(list, Read::default(), now_ms)
    }

    /// [`Runtime::sync_provider_list`] with what reading the list's texts
    /// found: the prints of `list.specs` and the tools listed unchanged.
    pub(crate) fn sync_listed(
        &mut self,
        list: ProviderList,
        read: Read,
        now_ms: u64,
    ) -> Result<ProviderSync> {
        let ProviderList {
            provider,
            mut specs,
            mut skipped,
            renamed,
        } = list;
        let Read {
            mut prints,
            unchanged,
            ..
        } = read;
        if self.require_input_schema {
            prints.resize(specs.len(), None);
            let mut kept = prints.into_iter();
            let mut keep_prints = Vec::with_capacity(specs.len());
            specs.retain(|spec| {
                let print = kept.next().flatten();
                match crate::validate::require_input_schema(spec) {
                    Ok(()) => {
                        keep_prints.push(print);
                        true
                    }
                    Err(e) => {
                        skipped.push(Listing::of_spec(spec).skip(&e));
                        false
                    }
                }
            });
            prints = keep_prints;
        }
        let before = self.registry.skipped_of(&provider.id).to_vec();
        let update = Update {
            upsert: specs,
            sync_provider: Some(provider.id.clone()),
            skip_refused: true,
            skipped,
            prints,
            unchanged,
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
