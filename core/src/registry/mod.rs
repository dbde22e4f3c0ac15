//! The canonical tool registry: one source of truth every call resolves through.
//!
//! Every mutation is atomic (validated in full on a staging copy, then
//! committed) and, when content really changed, yields a [`RegistryChange`]
//! carrying the old and new registry versions. A batch of N tools costs
//! O(N), not O(registry). The registry version is a SHA-256 over canonical
//! JSON of the root of a hash tree over every (name, tool version)
//! ([`crate::VersionTree`]), the provider statuses and the scoped-policy
//! digest, so equal content gives an equal version whatever the
//! registration order, and any change gives a new one. Tools a provider
//! re-list skipped (`core/src/registry/skipped.rs`) are kept per provider beside the
//! tools and are no part of the version: the model never sees them.

pub(crate) mod image;
mod listings;
mod skipped;
mod wire;

pub use listings::Print;
pub use skipped::{Listing, SkippedTool};

use crate::schemas::SchemaPool;
use crate::validate::{normalise, parse_spec, MetaCache, SchemaValidator};
use crate::version_tree::VersionTree;
use holaryn_model::ProviderStatus;
use holaryn_model::{hex, json_digest};
use holaryn_model::{Error, ErrorCode, Result};
use holaryn_model::{ToolDescriptor, ToolSpec};
use serde::{Deserialize, Serialize};
use serde_json::{json, Value};
use std::collections::{BTreeMap, BTreeSet};
use std::sync::Arc;

/// One registered tool: its descriptor and compiled input validator.
#[derive(Clone)]
pub struct Entry {
    /// The validated descriptor.
    pub descriptor: Arc<ToolDescriptor>,
    /// Compiled input-schema validator.
    pub validator: SchemaValidator,
    /// Bytes of its model definition (name, description, exact input schema),
    /// counted once here so footprints never re-serialise schemas.
    pub footprint: u64,
}

impl std::fmt::Debug for Entry {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Entry")
            .field("name", &self.descriptor.name)
            .field("version", &self.descriptor.version)
            .finish()
    }
}

/// The `tool_registry_changed` event payload.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct RegistryChange {
    /// Registry version before the change.
    pub old_version: String,
    /// Registry version after the change.
    pub new_version: String,
    /// Tools added.
    pub added: Vec<String>,
    /// Tools removed.
    pub removed: Vec<String>,
    /// Tools whose version changed (including provider status changes).
    pub changed: Vec<String>,
}

/// An atomic batch of registry edits.
#[derive(Debug, Clone, Default)]
pub struct Update {
    /// Tools to add or replace (by canonical name).
    pub upsert: Vec<ToolSpec>,
    /// Canonical names (or aliases) to remove.
    pub remove: Vec<String>,
    /// When set, every tool of this provider not in `upsert` is removed (a provider re-list).
    pub sync_provider: Option<String>,
    /// Provider status changes.
    pub provider_status: Vec<(String, ProviderStatus)>,
    /// New scoped-policy digest (part of the registry version).
    pub policy_digest: Option<Option<String>>,
    /// With `sync_provider`: skip, rather than refuse the batch for, each
    /// upserted tool the registry refuses (see `core/src/registry/skipped.rs`).
    pub skip_refused: bool,
    /// With `sync_provider`: tools already skipped before the registry saw
    /// them (catalog entries that are no tool). The re-list's skipped tools,
    /// these first, replace the provider's previous ones.
    pub skipped: Vec<SkippedTool>,
    /// The print of each `upsert` spec's listing text, when it came as text
    /// (same positions; missing = none): see `core/src/registry/listings.rs`.
    pub prints: Vec<Option<Print>>,
    /// Registered tools listed again from the very text they came from
    /// ([`Registry::listed`]): kept as they are, never re-read.
    pub unchanged: Vec<String>,
}

/// The canonical registry.
#[derive(Debug, Clone, Default)]
pub struct Registry {
    tools: BTreeMap<String, Entry>,
    aliases: BTreeMap<String, String>,
    providers: BTreeMap<String, ProviderStatus>,
    policy_digest: Option<String>,
    version: String,
    generation: u64,
    metas: MetaCache,
    schemas: SchemaPool,
    /// Hash tree over (name, tool version): the tools part of the version.
    tree: VersionTree,
    /// A restored registry's tree as the snapshot kept it, built into
    /// `tree` at the first change (a restore that changes nothing never pays for it).
    kept_tree: Option<crate::version_tree::TreeImage>,
    /// Per provider, the tools its last re-list skipped (not part of the version).
    skipped: BTreeMap<String, Vec<SkippedTool>>,
    /// Wire names, kept up to date per change.
    wire: wire::WireTable,
    /// Prints of the texts tools were registered from.
    listings: listings::Listings,
    /// Provider id → its tools' canonical names (a re-list or status change
    /// visits only that provider's tools).
    by_provider: BTreeMap<String, BTreeSet<String>>,
}

impl Registry {
    /// An empty registry.
    pub fn new() -> Self {
        let mut r = Registry {
            tree: VersionTree::new(),
            ..Registry::default()
        };
        r.version = r.compute_version();
        r
    }

    /// The current registry version (`sha256:…`).
    pub fn version(&self) -> &str {
        &self.version
    }

    /// A counter bumped on every real change (never on a no-op).
    pub fn generation(&self) -> u64 {
        self.generation
    }

    /// Number of tools.
    pub fn len(&self) -> usize {
        self.tools.len()
    }

    /// True when no tool is registered.
    pub fn is_empty(&self) -> bool {
        self.tools.is_empty()
    }

    /// All entries, ordered by canonical name.
    pub fn entries(&self) -> impl Iterator<Item = &Entry> {
        self.tools.values()
    }

    /// Look a tool up by canonical name or alias.
    pub fn get(&self, name_or_alias: &str) -> Option<&Entry> {
        self.tools.get(name_or_alias).or_else(|| {
            self.aliases
                .get(name_or_alias)
                .and_then(|canonical| self.tools.get(canonical))
        })
    }

    /// Look a tool up or fail with `tool.unknown` and up to three close names.
    pub fn resolve(&self, name_or_alias: &str) -> Result<&Entry> {
        self.get(name_or_alias).ok_or_else(|| {
            Error::new(
                ErrorCode::ToolUnknown,
                format!("no tool named `{name_or_alias}`"),
            )
            .with_tool(name_or_alias)
            .with_suggestions(self.suggest(name_or_alias, 3))
            .with_next_action("call tool_search to find the right tool")
        })
    }

    /// The tools whose wire name is not their preferred one, tagged once per
    /// registry version (the rule: [`holaryn_model::wire_names`]; which tools
    /// it applies to is kept up to date per change).
    pub fn wire_names(&self) -> &BTreeMap<String, String> {
        self.wire.tagged(&|w| self.get(w).is_some())
    }

    /// The wire name of a registry tool: its canonical name when provider-safe,
    /// else its [`Registry::wire_names`] exception or its preferred
    /// [`holaryn_model::wire_name`].
    pub fn wire_of(&self, canonical: &str) -> String {
        let mut out = String::new();
        if !self.push_rewritten_wire_of(canonical, &mut out) {
            out.push_str(canonical);
        }
        out
    }

    /// [`Registry::wire_of`] appended to `out` for a tool whose canonical
    /// name is not provider-safe (true); nothing appended for one that is
    /// (false: it is its own wire name).
    pub fn push_rewritten_wire_of(&self, canonical: &str, out: &mut String) -> bool {
        if holaryn_model::is_provider_safe(canonical) {
            return false;
        }
        match self.wire_names().get(canonical) {
            Some(tagged) => out.push_str(tagged),
            None => {
                holaryn_model::push_rewritten_wire_name(canonical, out);
            }
        }
        true
    }

    /// The canonical name a wire name stands for under this registry version
    /// (the inverse of [`Registry::wire_of`]).
    pub fn by_wire(&self, wire: &str) -> Option<&str> {
        if holaryn_model::is_provider_safe(wire) {
            if let Some((name, _)) = self.tools.get_key_value(wire) {
                return Some(name.as_str());
            }
        }
        let canonical = self.wire.canonical_of(wire, &|w| self.get(w).is_some())?;
        self.tools.get_key_value(canonical).map(|(n, _)| n.as_str())
    }

    /// The status of a provider (connected unless told otherwise).
    pub fn provider_status(&self, provider_id: &str) -> ProviderStatus {
        self.providers
            .get(provider_id)
            .copied()
            .unwrap_or(ProviderStatus::Connected)
    }

    /// Every skipped tool, by provider id then position in its list.
    pub fn skipped(&self) -> impl Iterator<Item = &SkippedTool> {
        self.skipped.values().flatten()
    }

    /// The tools `provider_id`'s last re-list skipped.
    pub fn skipped_of(&self, provider_id: &str) -> &[SkippedTool] {
        self.skipped.get(provider_id).map_or(&[], Vec::as_slice)
    }

    /// The current scoped-policy digest.
    pub fn policy_digest(&self) -> Option<&str> {
        self.policy_digest.as_deref()
    }

    /// Up to `n` canonical names closest to `name` (edit distance, then name).
    pub fn suggest(&self, name: &str, n: usize) -> Vec<String> {
        let lower = name.to_lowercase();
        let limit = (lower.chars().count() / 2).max(2);
        let mut scored: Vec<(usize, &String)> = self
            .tools
            .keys()
            .chain(self.aliases.keys())
            .map(|k| (edit_distance(&lower, &k.to_lowercase()), k))
            .filter(|(d, k)| *d <= limit || k.to_lowercase().contains(&lower))
            .collect();
        scored.sort();
        let mut out: Vec<String> = Vec::new();
        for (_, k) in scored {
            let canonical = self.aliases.get(k).unwrap_or(k).clone();
            if !out.contains(&canonical) {
                out.push(canonical);
            }
            if out.len() == n {
                break;
            }
        }
        out
    }

    /// Key the prints of listing texts (see `core/src/registry/listings.rs`);
    /// forgets the prints taken so far.
    pub fn set_listing_key(&mut self, key: [u8; 16]) {
        self.listings.set_key(key);
    }

    /// The print of a listing text, and the registered tool that came from
    /// that exact text, if one did.
    pub fn listed(&self, text: &str) -> (Print, Option<&Entry>) {
        let print = self.listings.print(text);
        (print, self.listed_print(print))
    }

    /// [`Registry::listed`] for a text read in a context (a catalog's
    /// provider and options): its print covers both.
    pub fn listed_in(&self, context: &str, text: &str) -> (Print, Option<&Entry>) {
        let print = self.listings.print_in(context, text);
        (print, self.listed_print(print))
    }

    fn listed_print(&self, print: Print) -> Option<&Entry> {
        self.listings.tool(print).and_then(|n| self.tools.get(n))
    }

    /// Register (add or replace) tools from host JSON values, atomically.
    pub fn register_values(&mut self, values: &[Value]) -> Result<Option<RegistryChange>> {
        let specs = values.iter().map(parse_spec).collect::<Result<Vec<_>>>()?;
        self.apply(Update {
            upsert: specs,
            ..Update::default()
        })
    }

    /// Register (add or replace) tools, atomically.
    pub fn register(&mut self, specs: Vec<ToolSpec>) -> Result<Option<RegistryChange>> {
        self.apply(Update {
            upsert: specs,
            ..Update::default()
        })
    }

    /// Remove tools by canonical name or alias, atomically.
    pub fn remove(&mut self, names: &[String]) -> Result<Option<RegistryChange>> {
        self.apply(Update {
            remove: names.to_vec(),
            ..Update::default()
        })
    }

    /// Replace all tools of one provider with `specs` (a provider re-list).
    pub fn sync_provider(
        &mut self,
        provider_id: &str,
        specs: Vec<ToolSpec>,
    ) -> Result<Option<RegistryChange>> {
        self.apply(Update {
            upsert: specs,
            sync_provider: Some(provider_id.to_string()),
            ..Update::default()
        })
    }

    /// Set a provider's connection status.
    pub fn set_provider_status(
        &mut self,
        provider_id: &str,
        status: ProviderStatus,
    ) -> Result<Option<RegistryChange>> {
        self.apply(Update {
            provider_status: vec![(provider_id.to_string(), status)],
            ..Update::default()
        })
    }

    /// Set the scoped-policy digest that is part of the registry version.
    pub fn set_policy_digest(&mut self, digest: Option<String>) -> Option<RegistryChange> {
        self.apply(Update {
            policy_digest: Some(digest),
            ..Update::default()
        })
        .unwrap_or_default()
    }

    /// Apply a batch atomically: on error nothing changes. Costs O(batch),
    /// not O(registry): only a provider re-list or a status change scans for
    /// that provider's tools.
    pub fn apply(&mut self, update: Update) -> Result<Option<RegistryChange>> {
        let mut removed: BTreeSet<String> = BTreeSet::new();
        for name in &update.remove {
            removed.insert(self.resolve(name)?.descriptor.name.clone());
        }
        // Skipping needs a provider whose skipped tools these are.
        let skipping = update.skip_refused && update.sync_provider.is_some();
        let mut skipped = update.skipped;
        // A refusal of one tool: fatal, or (skipping) that tool is kept as skipped.
        let mut refuse = |listing: Listing, e: Error| -> Result<()> {
            if !skipping {
                return Err(e);
            }
            skipped.push(listing.skip(&e));
            Ok(())
        };
        let unchanged: BTreeSet<&String> = update.unchanged.iter().collect();
        let mut upserted: BTreeMap<String, Entry> = BTreeMap::new();
        // Listing prints of the upserted tools, set once nothing can fail.
        let mut prints: BTreeMap<String, Print> = BTreeMap::new();
        for (i, spec) in update.upsert.into_iter().enumerate() {
            let print = update.prints.get(i).copied().flatten();
            let listing = skipping.then(|| Listing::of_spec(&spec));
            let checked = normalise(spec, &self.metas, &self.schemas).and_then(|n| {
                if upserted.contains_key(&n.0.name) || unchanged.contains(&n.0.name) {
                    return Err(Error::new(
                        ErrorCode::DescriptorDuplicateName,
                        format!("`{}` appears twice in one registration", n.0.name),
                    )
                    .with_tool(&n.0.name)
                    .with_field("name"));
                }
                Ok(n)
            });
            let (desc, validator, footprint) = match (checked, listing) {
                (Ok(n), _) => n,
                (Err(e), Some(listing)) => {
                    refuse(listing, e)?;
                    continue;
                }
                (Err(e), None) => return Err(e),
            };
            if let Some(p) = print {
                prints.insert(desc.name.clone(), p);
            }
            upserted.insert(
                desc.name.clone(),
                Entry {
                    footprint,
                    descriptor: Arc::new(desc),
                    validator,
                },
            );
        }
        if let Some(provider) = &update.sync_provider {
            for name in self.by_provider.get(provider).into_iter().flatten() {
                if !upserted.contains_key(name) && !unchanged.contains(name) {
                    removed.insert(name.clone());
                }
            }
        }
        let mut puts: BTreeMap<String, Entry> = BTreeMap::new();
        // Upserted tools equal to the registered ones (kept, their prints taken).
        let mut kept: Vec<String> = Vec::new();
        for (name, entry) in upserted {
            if let Some(old) = self.tools.get(&name) {
                let same = old.descriptor.version == entry.descriptor.version;
                if removed.contains(&name) {
                    if same {
                        removed.remove(&name); // removed and re-added unchanged
                        kept.push(name);
                    } else {
                        puts.insert(name, entry);
                    }
                    continue;
                }
                if old.descriptor.provider.id != entry.descriptor.provider.id {
                    let e = Error::new(
                        ErrorCode::DescriptorDuplicateName,
                        format!(
                            "`{name}` is already registered by provider `{}`",
                            old.descriptor.provider.id
                        ),
                    )
                    .with_tool(&name)
                    .with_field("name")
                    .with_next_action(
                        "register with qualified names (`qualifyNames: true`): `provider/name` keeps servers' tools apart",
                    );
                    refuse(Listing::of_descriptor(&entry.descriptor), e)?;
                    continue;
                }
                if same {
                    kept.push(name);
                    continue; // identical content: keep the old entry
                }
            }
            puts.insert(name, entry);
        }
        while self.alias_clash(&removed, &puts) {
            // Rare: rebuild the whole alias table to report exactly the clash
            // a full check reports (first in name order).
            let mut staged = self.tools.clone();
            staged.retain(|name, _| !removed.contains(name));
            staged.extend(puts.iter().map(|(n, e)| (n.clone(), e.clone())));
            let Err((e, other)) = build_aliases(&staged) else {
                break;
            };
            // Skip the tool of this batch in the clash (the registry holds none).
            let Some(name) = [e.tool.clone().unwrap_or_default(), other]
                .into_iter()
                .find(|n| puts.contains_key(n))
            else {
                return Err(e);
            };
            if let Some(entry) = puts.remove(&name) {
                refuse(Listing::of_descriptor(&entry.descriptor), e)?;
            }
        }
        let mut providers = self.providers.clone();
        for (id, status) in &update.provider_status {
            if *status == ProviderStatus::Connected {
                providers.remove(id);
            } else {
                providers.insert(id.clone(), *status);
            }
        }
        let policy_digest = match update.policy_digest {
            Some(d) => d,
            None => self.policy_digest.clone(),
        };
        // What a re-list skipped replaces what the last one did; not part of the version.
        if let Some(provider) = &update.sync_provider {
            if skipped.is_empty() {
                self.skipped.remove(provider);
            } else {
                self.skipped.insert(provider.clone(), skipped);
            }
        }
        // Prints are no content: a kept tool takes its new text's print even when nothing changes.
        for name in &kept {
            if let Some(p) = prints.get(name) {
                self.listings.set(name, *p);
            }
        }
        if removed.is_empty()
            && puts.is_empty()
            && providers == self.providers
            && policy_digest == self.policy_digest
        {
            return Ok(None);
        }
        // Nothing below can fail: commit.
        self.unpack_tree();
        let mut added = Vec::new();
        let mut changed = BTreeSet::new();
        for name in &removed {
            if let Some(old) = self.tools.remove(name) {
                self.drop_aliases(&old);
                self.wire.remove(name, &old.descriptor.aliases);
                self.leave_provider(&old);
            }
            self.listings.forget(name);
            self.tree.remove(name);
        }
        for (name, entry) in puts {
            if let Some(old) = self.tools.get(&name).cloned() {
                self.drop_aliases(&old);
                self.wire.remove(&name, &old.descriptor.aliases);
                self.leave_provider(&old);
                changed.insert(name.clone());
            } else {
                added.push(name.clone());
            }
            self.join_indexes(&name, &entry);
            match prints.get(&name) {
                Some(p) => self.listings.set(&name, *p),
                None => self.listings.forget(&name),
            }
            for alias in &entry.descriptor.aliases {
                self.aliases.insert(alias.clone(), name.clone());
            }
            self.tree.set(&name, &entry.descriptor.version);
            self.tools.insert(name, entry);
        }
        let moved: BTreeSet<&String> = providers
            .keys()
            .chain(self.providers.keys())
            .filter(|id| providers.get(*id) != self.providers.get(*id))
            .collect();
        for id in moved {
            for name in self.by_provider.get(id).into_iter().flatten() {
                if !added.contains(name) {
                    changed.insert(name.clone());
                }
            }
        }
        self.providers = providers;
        self.policy_digest = policy_digest;
        self.settle_wire_names();
        let new_version = self.compute_version();
        let old_version = std::mem::replace(&mut self.version, new_version.clone());
        self.generation += 1;
        Ok(Some(RegistryChange {
            old_version,
            new_version,
            added,
            removed: removed.into_iter().collect(),
            changed: changed.into_iter().collect(),
        }))
    }

    /// True when the batch may make a name and an alias, or two aliases,
    /// collide (the registry itself never holds a clash).
    fn alias_clash(&self, removed: &BTreeSet<String>, puts: &BTreeMap<String, Entry>) -> bool {
        let leaving = |owner: &String| removed.contains(owner) || puts.contains_key(owner);
        let mut fresh: BTreeSet<&String> = BTreeSet::new();
        for (name, e) in puts {
            if self.aliases.get(name).is_some_and(|owner| !leaving(owner)) {
                return true;
            }
            for alias in &e.descriptor.aliases {
                let is_name = puts.contains_key(alias)
                    || (self.tools.contains_key(alias) && !removed.contains(alias));
                let taken = self.aliases.get(alias).is_some_and(|owner| !leaving(owner));
                if is_name || taken || !fresh.insert(alias) {
                    return true;
                }
            }
        }
        false
    }

    /// Tool `name` joins the provider index and the wire-name table.
    fn join_indexes(&mut self, name: &str, entry: &Entry) {
        self.by_provider
            .entry(entry.descriptor.provider.id.clone())
            .or_default()
            .insert(name.to_string());
        self.wire.add(name, &entry.descriptor.aliases);
    }

    /// Wire names: who keeps a preferred name is settled now (O(change)), tags on first use.
    fn settle_wire_names(&mut self) {
        let (tools, aliases) = (&self.tools, &self.aliases);
        self.wire
            .settle(&|w| tools.contains_key(w) || aliases.contains_key(w));
    }

    fn leave_provider(&mut self, old: &Entry) {
        let id = &old.descriptor.provider.id;
        if let Some(names) = self.by_provider.get_mut(id) {
            names.remove(&old.descriptor.name);
            if names.is_empty() {
                self.by_provider.remove(id);
            }
        }
    }

    fn drop_aliases(&mut self, old: &Entry) {
        for alias in &old.descriptor.aliases {
            if self.aliases.get(alias) == Some(&old.descriptor.name) {
                self.aliases.remove(alias);
            }
        }
    }

    /// Build the tree a snapshot kept (its leaves in name order), once.
    fn unpack_tree(&mut self) {
        if let Some(kept) = self.kept_tree.take() {
            // A kept tree that does not fit (checked at restore) is rebuilt: a hash per tool.
            self.tree = VersionTree::from_image(&kept, self.tools.keys().map(String::as_str))
                .unwrap_or_else(|| {
                    let mut tree = VersionTree::new();
                    for (name, e) in &self.tools {
                        tree.set(name, &e.descriptor.version);
                    }
                    tree
                });
        }
    }

    fn compute_version(&mut self) -> String {
        json_digest(&json!({
            "format": 2,
            "tools": hex(&self.tree.root()),
            "providers": self.providers,
            "policy": self.policy_digest,
        }))
    }
}

/// The alias table of `tools`, or the first clash in name order with the other
/// name in it (the tool that has the name, or the alias's first owner).
fn build_aliases(
    tools: &BTreeMap<String, Entry>,
) -> std::result::Result<BTreeMap<String, String>, (Error, String)> {
    let mut aliases: BTreeMap<String, String> = BTreeMap::new();
    for (name, e) in tools {
        for (i, alias) in e.descriptor.aliases.iter().enumerate() {
            let clash = if tools.contains_key(alias) {
                Some(alias.clone())
            } else {
                aliases.get(alias).cloned()
            };
            if let Some(other) = clash {
                let e = Error::new(
                    ErrorCode::DescriptorAliasCollision,
                    format!("alias `{alias}` collides with tool `{other}`"),
                )
                .with_tool(name)
                .with_field(format!("aliases[{i}]"));
                return Err((e, other));
            }
            aliases.insert(alias.clone(), name.clone());
        }
    }
    Ok(aliases)
}

/// Levenshtein distance over chars.
pub fn edit_distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut prev: Vec<usize> = (0..=b.len()).collect();
    let mut cur = vec![0; b.len() + 1];
    for (i, ca) in a.chars().enumerate() {
        cur[0] = i + 1;
        for (j, cb) in b.iter().enumerate() {
            let cost = usize::from(ca != *cb);
            cur[j + 1] = (prev[j] + cost).min(prev[j + 1] + 1).min(cur[j] + 1);
        }
        std::mem::swap(&mut prev, &mut cur);
    }
    prev[b.len()]
}
