//! The registry as a snapshot keeps it (`core/src/snapshot`): every
//! descriptor as validation left it, each distinct schema once (packed,
//! [`Blob::value`], with the digest, pool key, length and dialect
//! registration found for it), the hash tree's digests behind the version
//! (built at the first change), provider statuses and the skipped tools.
//!
//! Nothing here re-checks: a restore takes the descriptors, versions and
//! footprints as they were, shares each schema and its (lazily compiled)
//! validator between the tools that shared them, and puts them back in the
//! schema pool so a later registration of the same schema shares them too.
//! Types with `skip_serializing_if` (the JSON wire shapes) are mirrored by
//! plain tuples: the payload's encoding has no field names to skip by.

use super::{Entry, Registry, SkippedTool};
use crate::dialect::Reading;
use crate::schemas::{fast_hash, SchemaPool};
use crate::validate::{MetaCache, SchemaValidator};
use crate::version_tree::{TreeImage, VersionTree};
use holaryn_jsonschema::Draft;
use holaryn_model::{json_len, Annotations, Blob, Provider, ProviderStatus, SchemaDialect};
use holaryn_model::{
    ApprovalMode, Invokability, Source, ToolDescriptor, ToolRole, Trust, Visibility,
};
use serde_json::Value;
use std::collections::{BTreeMap, HashMap};
use std::sync::Arc;

/// A provider's fields, borrowed (the key providers are interned by).
type ProviderKey<'a> = (&'a str, &'a str, &'a str, Option<&'a str>, Option<&'a str>);
/// A schema dialect note: draft, reason.
type DialectImage = Option<(String, String)>;

/// The registry without its caches.
#[derive(Debug)]
pub(crate) struct RegistryImage {
    /// Distinct validators: the draft (as [`draft_code`]) and dialect note.
    validators: Vec<(u8, DialectImage)>,
    /// Distinct input schemas (one per shared copy).
    schemas: Vec<SchemaImage>,
    /// Distinct output schemas, packed ([`Blob::value`]).
    outputs: Vec<Blob>,
    /// Distinct providers.
    providers_of: Vec<Provider>,
    /// Every tool, in name order.
    pub(crate) tools: Vec<ToolImage>,
    providers: BTreeMap<String, ProviderStatus>,
    policy_digest: Option<String>,
    version: String,
    generation: u64,
    /// The hash tree's digests, its leaves in `tools` order.
    tree: TreeImage,
    skipped: BTreeMap<String, Vec<SkippedTool>>,
}

holaryn_model::packed!(RegistryImage {
    validators,
    schemas,
    outputs,
    providers_of,
    tools,
    providers,
    policy_digest,
    version,
    generation,
    tree,
    skipped,
});

/// One shared input schema.
#[derive(Debug)]
struct SchemaImage {
    /// The schema, packed ([`Blob::value`]: keys in their order, no text to parse).
    value: Blob,
    validator: u32,
    key: u64,
    digest: String,
    len: u64,
}

holaryn_model::packed!(SchemaImage {
    value,
    validator,
    key,
    digest,
    len
});

/// One descriptor, its schemas by index, and its footprint.
#[derive(Debug)]
pub(crate) struct ToolImage {
    pub(crate) name: String,
    /// `None`: the name without its `provider/` prefix ([`local_of`]).
    local_name: Option<String>,
    /// `None`: the name.
    title: Option<String>,
    description: String,
    aliases: Vec<String>,
    source: Source,
    /// Index in `providers_of`.
    provider: u32,
    trust: Trust,
    permissions: Vec<String>,
    input: u32,
    output: Option<u32>,
    annotations: [Option<bool>; 4],
    visibility: Visibility,
    invokability: Invokability,
    approval: ApprovalMode,
    timeout_ms: Option<u64>,
    role: ToolRole,
    usage: Option<String>,
    schema_missing: bool,
    version: String,
    footprint: u64,
}

holaryn_model::packed!(ToolImage {
    name,
    local_name,
    title,
    description,
    aliases,
    source,
    provider,
    trust,
    permissions,
    input,
    output,
    annotations,
    visibility,
    invokability,
    approval,
    timeout_ms,
    role,
    usage,
    schema_missing,
    version,
    footprint,
});

const DRAFTS: [Draft; 5] = [
    Draft::Draft4,
    Draft::Draft6,
    Draft::Draft7,
    Draft::Draft201909,
    Draft::Draft202012,
];

fn draft_code(d: Draft) -> u8 {
    DRAFTS.iter().position(|x| *x == d).unwrap_or(4) as u8
}

/// The local name a tool named `name` of provider `id` has when none is kept.
fn local_of<'a>(name: &'a str, id: &str) -> &'a str {
    (name.strip_prefix(id))
        .and_then(|rest| rest.strip_prefix('/'))
        .unwrap_or(name)
}

/// Index of `item` in a table keyed by address, added when new.
fn index_of<T>(
    table: &mut Vec<T>,
    seen: &mut HashMap<usize, u32>,
    at: usize,
    item: impl FnOnce() -> T,
) -> u32 {
    *seen.entry(at).or_insert_with(|| {
        table.push(item());
        (table.len() - 1) as u32
    })
}

impl Registry {
    /// The registry as a snapshot keeps it.
    pub(crate) fn image(&self) -> RegistryImage {
        let (mut validators, mut schemas, mut outputs) = (Vec::new(), Vec::new(), Vec::new());
        let (mut seen_v, mut seen_s, mut seen_o) = (HashMap::new(), HashMap::new(), HashMap::new());
        let mut providers_of: Vec<Provider> = Vec::new();
        let mut seen_p: HashMap<ProviderKey, u32> = HashMap::new();
        let mut tools = Vec::with_capacity(self.tools.len());
        for e in self.tools.values() {
            let d = &e.descriptor;
            let r = e.validator.reading();
            let validator = index_of(
                &mut validators,
                &mut seen_v,
                validator_addr(&e.validator),
                || {
                    let note = r.note.as_ref().map(|n| (n.draft.clone(), n.reason.clone()));
                    (draft_code(r.draft), note)
                },
            );
            let input = index_of(
                &mut schemas,
                &mut seen_s,
                Arc::as_ptr(&d.input_schema) as usize,
                || SchemaImage {
                    value: packed(&d.input_schema),
                    validator,
                    key: fast_hash(&d.input_schema),
                    digest: d.schema_hash.clone(),
                    len: json_len(&*d.input_schema),
                },
            );
            let output = d.output_schema.as_ref().map(|o| {
                index_of(&mut outputs, &mut seen_o, Arc::as_ptr(o) as usize, || {
                    packed(o)
                })
            });
            let a = &d.annotations;
            let p = &d.provider;
            let key = (
                p.id.as_str(),
                p.kind.as_str(),
                p.display_name.as_str(),
                p.version.as_deref(),
                p.origin.as_deref(),
            );
            let provider = *seen_p.entry(key).or_insert_with(|| {
                providers_of.push(p.clone());
                (providers_of.len() - 1) as u32
            });
            tools.push(ToolImage {
                name: d.name.clone(),
                local_name: (d.local_name != local_of(&d.name, &d.provider.id))
                    .then(|| d.local_name.clone()),
                title: (d.title != d.name).then(|| d.title.clone()),
                description: d.description.clone(),
                aliases: d.aliases.clone(),
                source: d.source,
                provider,
                trust: d.trust,
                permissions: d.permissions.clone(),
                input,
                output,
                annotations: [
                    a.read_only_hint,
                    a.destructive_hint,
                    a.idempotent_hint,
                    a.open_world_hint,
                ],
                visibility: d.visibility,
                invokability: d.invokability,
                approval: d.approval,
                timeout_ms: d.timeout_ms,
                role: d.role,
                usage: d.usage.clone(),
                schema_missing: d.schema_missing,
                version: d.version.clone(),
                footprint: e.footprint,
            });
        }
        RegistryImage {
            validators,
            schemas,
            outputs,
            providers_of,
            tools,
            providers: self.providers.clone(),
            policy_digest: self.policy_digest.clone(),
            version: self.version.clone(),
            generation: self.generation,
            // Always there: the tree has a leaf per tool and is hashed after
            // each change (an empty image would make the restore refuse).
            skipped: self.skipped.clone(),
            tree: match &self.kept_tree {
                Some(kept) => kept.clone(),
                None => (self.tree)
                    .image(self.tools.keys().map(String::as_str))
                    .unwrap_or_default(),
            },
        }
    }

    /// The registry an image keeps, or what does not fit (a schema that is
    /// no JSON, an index out of range, an alias twice).
    pub(crate) fn from_image(image: RegistryImage) -> Result<Registry, String> {
        let validators: Vec<SchemaValidator> = (image.validators.into_iter())
            .map(|(draft, note)| {
                SchemaValidator::new(Reading {
                    draft: DRAFTS
                        .get(draft as usize)
                        .copied()
                        .unwrap_or(Draft::Draft202012),
                    note: note.map(|(draft, reason)| SchemaDialect { draft, reason }),
                })
            })
            .collect();
        let pool = SchemaPool::default();
        let mut schemas = Vec::with_capacity(image.schemas.len());
        for s in image.schemas {
            let value: Value =
                (s.value.reader().value()).ok_or("a kept schema does not read back")?;
            let validator = validators
                .get(s.validator as usize)
                .ok_or("a schema's validator is out of range")?;
            let shared = (Arc::new(value), validator.clone(), s.digest, s.len);
            pool.insert_known(s.key, &shared);
            schemas.push(shared);
        }
        let outputs = (image.outputs.iter())
            .map(|b| b.reader().value().map(Arc::new))
            .collect::<Option<Vec<Arc<Value>>>>()
            .ok_or("a kept output schema does not read back")?;
        let mut tools = Vec::with_capacity(image.tools.len());
        let mut aliases = Vec::new();
        for t in image.tools {
            let (schema, validator, digest, _) = schemas
                .get(t.input as usize)
                .ok_or("a tool's schema is out of range")?;
            let output = match t.output {
                Some(i) => Some(
                    outputs
                        .get(i as usize)
                        .ok_or("a tool's output schema is out of range")?
                        .clone(),
                ),
                None => None,
            };
            let [read_only_hint, destructive_hint, idempotent_hint, open_world_hint] =
                t.annotations;
            let provider = (image.providers_of.get(t.provider as usize))
                .ok_or("a tool's provider is out of range")?;
            let provider = provider.clone();
            let descriptor = ToolDescriptor {
                local_name: (t.local_name)
                    .unwrap_or_else(|| local_of(&t.name, &provider.id).to_string()),
                title: t.title.unwrap_or_else(|| t.name.clone()),
                name: t.name,
                description: t.description,
                aliases: t.aliases,
                source: t.source,
                provider,
                trust: t.trust,
                permissions: t.permissions,
                input_schema: schema.clone(),
                output_schema: output,
                annotations: Annotations {
                    read_only_hint,
                    destructive_hint,
                    idempotent_hint,
                    open_world_hint,
                },
                visibility: t.visibility,
                invokability: t.invokability,
                approval: t.approval,
                timeout_ms: t.timeout_ms,
                role: t.role,
                usage: t.usage,
                schema_hash: digest.clone(),
                schema_missing: t.schema_missing,
                dialect: validator.dialect().cloned(),
                version: t.version,
            };
            for alias in &descriptor.aliases {
                aliases.push((alias.clone(), descriptor.name.clone()));
            }
            let entry = Entry {
                descriptor: Arc::new(descriptor),
                validator: validator.clone(),
                footprint: t.footprint,
            };
            tools.push((entry.descriptor.name.clone(), entry));
        }
        // Kept in name order, each once: built in one pass (no search per tool).
        if !tools.windows(2).all(|w| w[0].0 < w[1].0) {
            return Err("the kept tools are not in name order, each once".into());
        }
        if !VersionTree::fits(&image.tree, tools.len()) {
            return Err("the kept version tree does not fit the tools".into());
        }
        // Inserted in order (no sort: `collect` into a map would sort, and
        // its code is one more sort per type in the wasm).
        let mut by_name = BTreeMap::new();
        for (name, entry) in tools {
            by_name.insert(name, entry);
        }
        let mut by_alias = BTreeMap::new();
        for (alias, name) in aliases {
            if let Some(other) = by_alias.insert(alias, name) {
                return Err(format!("an alias of `{other}` is kept twice"));
            }
        }
        let mut registry = Registry {
            tools: by_name,
            aliases: by_alias,
            providers: image.providers,
            policy_digest: image.policy_digest,
            version: image.version,
            generation: image.generation,
            metas: MetaCache::default(),
            schemas: pool,
            tree: VersionTree::new(),
            kept_tree: Some(image.tree),
            skipped: image.skipped,
            // Rebuilt below, not kept.
            wire: Default::default(),
            by_provider: BTreeMap::new(),
            // Keyed per runtime, so a restored registry has none: its first
            // re-list reads every entry once.
            listings: Default::default(),
        };
        // The provider index and the wire-name table follow from the tools,
        // as `apply` keeps them.
        let tools = std::mem::take(&mut registry.tools);
        for (name, entry) in &tools {
            registry.join_indexes(name, entry);
        }
        registry.tools = tools;
        registry.settle_wire_names();
        Ok(registry)
    }
}

/// A schema packed ([`Blob::value`]).
fn packed(v: &Value) -> Blob {
    let mut b = Blob::default();
    b.value(v);
    b
}

/// The address of a validator's shared compiled form (its identity in a snapshot).
fn validator_addr(v: &SchemaValidator) -> usize {
    std::sync::Weak::as_ptr(&v.downgrade()) as usize
}
