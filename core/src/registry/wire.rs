//! The registry's wire names ([`holaryn_model::wire_names`]' rule) kept up to
//! date per change: which tools prefer which wire name, and which of them the
//! rule may tag, are maintained in O(changed names) by
//! [`WireTable::settle`], so the first export or search after a change tags
//! only the contested tools instead of re-deriving every name.

use holaryn_model::{is_provider_safe, tag_wire_names, wire_contested, wire_name};
use std::cell::OnceCell;
use std::collections::{BTreeMap, BTreeSet};

/// Wire names of one registry.
#[derive(Debug, Clone, Default)]
pub struct WireTable {
    /// Preferred wire name → the (not provider-safe) canonical names preferring it.
    by_base: BTreeMap<String, Vec<String>>,
    /// Canonical names that do not keep their preferred wire name, with it.
    contested: BTreeMap<String, String>,
    /// Strings whose standing changed since the last [`WireTable::settle`]:
    /// preferred names gained or lost, registered names and aliases.
    dirty: BTreeSet<String>,
    /// The tagged wire names, computed on first use after a change.
    tagged: OnceCell<BTreeMap<String, String>>,
    /// Their inverse: tagged wire name → canonical name.
    untagged: OnceCell<BTreeMap<String, String>>,
}

impl WireTable {
    /// A tool `name` with `aliases` joins the registry.
    pub fn add(&mut self, name: &str, aliases: &[String]) {
        if !is_provider_safe(name) {
            let base = wire_name(name);
            let names = self.by_base.entry(base.clone()).or_default();
            if let Err(at) = names.binary_search_by(|n| n.as_str().cmp(name)) {
                names.insert(at, name.to_string());
            }
            self.dirty.insert(base);
        }
        self.touch(name, aliases);
    }

    /// A tool `name` with `aliases` leaves the registry.
    pub fn remove(&mut self, name: &str, aliases: &[String]) {
        if !is_provider_safe(name) {
            let base = wire_name(name);
            if let Some(names) = self.by_base.get_mut(&base) {
                names.retain(|n| n != name);
                if names.is_empty() {
                    self.by_base.remove(&base);
                }
            }
            self.contested.remove(name);
            self.dirty.insert(base);
        }
        self.touch(name, aliases);
    }

    fn touch(&mut self, name: &str, aliases: &[String]) {
        self.dirty.insert(name.to_string());
        self.dirty.extend(aliases.iter().cloned());
        self.tagged.take();
        self.untagged.take();
    }

    /// Re-decide, for every preferred name a change touched, whether its
    /// tools keep it; `is_registered` says whether a string is a registered
    /// name or alias (the registry after the change).
    pub fn settle(&mut self, is_registered: &dyn Fn(&str) -> bool) {
        for base in std::mem::take(&mut self.dirty) {
            let Some(names) = self.by_base.get(&base) else {
                continue;
            };
            let contested = wire_contested(&base, names.len(), is_registered);
            for name in names {
                if contested {
                    self.contested.insert(name.clone(), base.clone());
                } else {
                    self.contested.remove(name);
                }
            }
        }
    }

    /// Canonical name → tagged wire name, for every tool that does not keep
    /// its preferred one (settled: [`WireTable::settle`] ran since the last change).
    pub fn tagged(&self, is_registered: &dyn Fn(&str) -> bool) -> &BTreeMap<String, String> {
        self.tagged.get_or_init(|| {
            tag_wire_names(
                self.contested.iter().map(|(n, b)| (n.as_str(), b.as_str())),
                is_registered,
                &|w| self.by_base.contains_key(w),
            )
        })
    }

    /// The canonical name that is not provider-safe and is exported as `wire`.
    pub fn canonical_of(&self, wire: &str, is_registered: &dyn Fn(&str) -> bool) -> Option<&str> {
        let untagged = self.untagged.get_or_init(|| {
            let tagged = self.tagged(is_registered);
            tagged.iter().map(|(n, w)| (w.clone(), n.clone())).collect()
        });
        if let Some(name) = untagged.get(wire) {
            return Some(name.as_str());
        }
        // A tool keeping its preferred name is the only one preferring it.
        match self.by_base.get(wire).map(Vec::as_slice) {
            Some([name]) if !self.contested.contains_key(name) => Some(name.as_str()),
            _ => None,
        }
    }
}
