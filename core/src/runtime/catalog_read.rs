//! A catalog text (an MCP `tools/list` result or a tool array) read as its
//! provider's re-list: each entry whose exact text, under the same provider
//! and catalog options, a registered tool came from is that tool unchanged
//! and is not read again (`core/src/runtime/listed.rs`); the others are read
//! as `parse_provider_list` reads them. A text this reader does not split
//! cleanly, or `qualifyRefusedNames` (whose renamed rows are per re-list),
//! is read whole as before, so errors and answers are the same.

use super::listed::{top_level, Read, TopLevel};
use super::providers::ProviderSync;
use super::Runtime;
use crate::catalog::{entry_skipped, entry_spec, parse_provider_list, provider_for};
use crate::catalog::{CatalogOptions, ProviderList};
use holaryn_model::Result;
use serde_json::{Map, Value};

/// A catalog read against the registry, ready to sync.
pub struct CatalogRead {
    list: ProviderList,
    read: Read,
}

impl CatalogRead {
    /// The registered tools the catalog lists unchanged (not read again).
    pub fn unchanged(&self) -> &[String] {
        &self.read.unchanged
    }

    /// True when the catalog lists no entry at all.
    pub fn is_empty(&self) -> bool {
        self.list.specs.is_empty() && self.list.skipped.is_empty() && self.read.unchanged.is_empty()
    }
}

impl Runtime {
    /// Read catalog `text` (`file` names it in errors) as one provider's
    /// re-list, as [`parse_provider_list`] does, with unchanged entries not read again.
    pub fn read_catalog(
        &self,
        file: &str,
        text: &str,
        opts: &CatalogOptions,
    ) -> Result<CatalogRead> {
        if let Some(read) = self.read_catalog_entries(file, text, opts) {
            return Ok(read);
        }
        Ok(CatalogRead {
            list: parse_provider_list(file, text, opts)?,
            read: Read::default(),
        })
    }

    /// Register a read catalog as its provider's re-list ([`Runtime::sync_provider_list`]).
    pub fn sync_catalog_read(&mut self, catalog: CatalogRead, now_ms: u64) -> Result<ProviderSync> {
        self.sync_listed(catalog.list, catalog.read, now_ms)
    }

    /// The entry-by-entry read; `None` sends the text to the whole read.
    fn read_catalog_entries(
        &self,
        file: &str,
        text: &str,
        opts: &CatalogOptions,
    ) -> Option<CatalogRead> {
        if opts.qualify_refused_names {
            return None;
        }
        let (entries, meta, base) = match top_level(text)? {
            TopLevel::Array(items) => (items, None, ""),
            TopLevel::Object(members) => {
                let mut meta = Map::new();
                let mut tools = None;
                for (key, value) in members {
                    let key: String = serde_json::from_str(key).ok()?;
                    if key == "tools" {
                        tools = Some(value); // a repeated key: the last one, as a JSON reader keeps
                        continue;
                    }
                    meta.insert(key, serde_json::from_str(value).ok()?);
                }
                match top_level(tools?)? {
                    TopLevel::Array(items) => (items, Some(meta), "/tools"),
                    TopLevel::Object(_) => return None,
                }
            }
        };
        let provider = provider_for(file, meta.as_ref(), opts);
        // Everything besides the entry that shapes its spec.
        let context =
            serde_json::to_string(&(&provider, opts.qualify_names, &opts.source, opts.trust))
                .ok()?;
        let mut list = ProviderList {
            provider,
            specs: Vec::new(),
            skipped: Vec::new(),
            renamed: Vec::new(),
        };
        let mut read = Read::default();
        for (i, entry) in entries.into_iter().enumerate() {
            let listed = self.registry.listed_in(&context, entry);
            if read.unchanged_as(self, listed) {
                continue;
            }
            let value: Value = serde_json::from_str(entry).ok()?;
            match entry_spec(file, (base, i), &value, &list.provider, opts) {
                Ok(spec) => {
                    read.push(&spec);
                    list.specs.push(spec);
                }
                Err(e) => {
                    read.skip();
                    list.skipped
                        .push(entry_skipped(i, &list.provider, opts, &e));
                }
            }
        }
        Some(CatalogRead { list, read })
    }
}
