//! Tools registered from their JSON texts (the package's `registerTools` and
//! `syncProvider` elements): an element whose exact text a registered tool
//! came from is that tool unchanged ([`crate::Registry::listed`],
//! `core/src/registry/listings.rs`) and is not read, checked, hashed or
//! re-indexed again; every other element is read and registered as a spec
//! value is, with the same refusals.

use super::providers::ProviderSync;
use super::Runtime;
use crate::catalog::ProviderList;
use crate::registry::{Listing, Print, RegistryChange, Update};
use crate::validate::parse_spec_owned;
use holaryn_model::{Error, ErrorCode, Provider, Result, ToolSpec};
use serde_json::Value;
use std::collections::BTreeSet;

/// What reading a list's texts found: the unchanged tools and, for each spec
/// read, its text's print.
#[derive(Default)]
pub(crate) struct Read {
    pub(crate) prints: Vec<Option<Print>>,
    pub(crate) unchanged: Vec<String>,
    /// Names listed so far: a name listed twice is read (and refused) as today.
    seen: BTreeSet<String>,
    pending: Option<Print>,
}

impl Read {
    /// True when `text` is a registered tool's own text, unchanged (recorded);
    /// else its print waits for the spec read from it ([`Read::push`]).
    fn unchanged(&mut self, rt: &Runtime, text: &str) -> bool {
        let (print, entry) = rt.registry.listed(text);
        // A name listed already, or a schema-less tool the runtime now refuses, is read again.
        let refused = |e: &crate::registry::Entry| {
            self.seen.contains(&e.descriptor.name)
                || (rt.require_input_schema && e.descriptor.schema_missing)
        };
        let keep = entry.filter(|e| !refused(e));
        match keep {
            Some(e) => {
                self.seen.insert(e.descriptor.name.clone());
                self.unchanged.push(e.descriptor.name.clone());
                true
            }
            None => {
                self.pending = Some(print);
                false
            }
        }
    }

    /// The spec read from the last text that was not unchanged.
    fn push(&mut self, spec: &ToolSpec) {
        self.seen.insert(spec.name.clone());
        self.prints.push(self.pending.take());
    }
}

/// One element's JSON text as a value.
fn read_value(text: &str) -> Result<Value> {
    serde_json::from_str(text).map_err(|e| {
        Error::new(
            ErrorCode::DescriptorInvalid,
            format!("invalid tool JSON: {e}"),
        )
    })
}

impl Runtime {
    /// Key the prints of listing texts (the package: random per runtime).
    pub fn set_listing_key(&mut self, key: [u8; 16]) {
        self.registry.set_listing_key(key);
    }

    /// Register (add or replace) tools given as their JSON texts, atomically:
    /// [`Runtime::register_values`], except that an unchanged tool's text is not read again.
    pub fn register_texts(
        &mut self,
        texts: &[&str],
        now_ms: u64,
    ) -> Result<Option<RegistryChange>> {
        let mut read = Read::default();
        let mut upsert = Vec::new();
        for text in texts {
            if !read.unchanged(self, text) {
                let spec = parse_spec_owned(read_value(text)?)?;
                read.push(&spec);
                upsert.push(spec);
            }
        }
        let update = Update {
            upsert,
            prints: read.prints,
            unchanged: read.unchanged,
            ..Update::default()
        };
        self.update(update, now_ms)
    }

    /// Register `texts` (tool spec JSON texts) as provider `provider_id`'s
    /// re-list: [`Runtime::sync_provider_values`], except that an unchanged
    /// tool's text is not read again, so a re-list costs what changed.
    pub fn sync_provider_texts(
        &mut self,
        provider_id: &str,
        texts: &[&str],
        now_ms: u64,
    ) -> Result<ProviderSync> {
        let mut list = ProviderList {
            provider: Provider {
                id: provider_id.to_string(),
                kind: String::new(),
                display_name: provider_id.to_string(),
                version: None,
                origin: None,
            },
            specs: Vec::new(),
            skipped: Vec::new(),
            renamed: Vec::new(),
        };
        let mut read = Read::default();
        for (i, text) in texts.iter().enumerate() {
            if read.unchanged(self, text) {
                continue;
            }
            let value = read_value(text)?;
            let listing = Listing::of_value(i, &value, &list.provider);
            match parse_spec_owned(value) {
                Ok(spec) => {
                    read.push(&spec);
                    list.specs.push(spec);
                }
                Err(e) => {
                    read.pending = None;
                    list.skipped.push(listing.skip(&e));
                }
            }
        }
        self.sync_listed(list, read, now_ms)
    }
}
