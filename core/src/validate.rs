//! Descriptor validation: host JSON → [`ToolDescriptor`], or a typed error
//! naming the tool and the field.

use crate::dialect::{Depth, Reading};
use crate::schemas::{fast_hash, same_order, SchemaPool};
use holaryn_jsonschema::{validator_with_draft, Draft, Validator};
use holaryn_model::{json_digest, SchemaDialect};
use holaryn_model::{
    ApprovalMode, Invokability, ToolDescriptor, ToolRole, ToolSpec, Trust, Visibility,
};
use holaryn_model::{Error, ErrorCode, Result};
use holaryn_model::{HANDLE_PREFIX, MAX_NAME_BYTES};
use serde_json::{json, Value};
use std::sync::Arc;

/// An input-schema validator compiled on first use and shared between
/// registry versions (compiling every schema at registration is costly in
/// wasm; registration checks schemas against the cached meta-schema instead),
/// with the dialect the schema is read in ([`crate::dialect`]).
#[derive(Clone)]
pub struct SchemaValidator(Arc<Compiled>);

/// A schema's dialect and its validator once compiled.
pub struct Compiled {
    reading: Reading,
    cell: std::sync::OnceLock<std::result::Result<Validator, String>>,
}

impl Default for SchemaValidator {
    fn default() -> Self {
        SchemaValidator::new(Reading {
            draft: Draft::Draft202012,
            note: None,
        })
    }
}

/// A [`SchemaValidator`] that does not keep its compiled form alive.
pub type WeakValidator = std::sync::Weak<Compiled>;

impl SchemaValidator {
    /// A validator to compile in `reading`'s draft.
    pub fn new(reading: Reading) -> Self {
        SchemaValidator(Arc::new(Compiled {
            reading,
            cell: std::sync::OnceLock::new(),
        }))
    }

    /// A reference that does not keep the validator alive.
    pub fn downgrade(&self) -> WeakValidator {
        Arc::downgrade(&self.0)
    }

    /// The validator again, while something still holds it.
    pub fn upgrade(weak: &WeakValidator) -> Option<SchemaValidator> {
        weak.upgrade().map(SchemaValidator)
    }

    /// How the schema is read (what a snapshot keeps of the validator).
    pub fn reading(&self) -> &Reading {
        &self.0.reading
    }

    /// The same validator when both share one compiled form.
    pub fn same(&self, other: &SchemaValidator) -> bool {
        Arc::ptr_eq(&self.0, &other.0)
    }

    /// The note on the dialect, when the schema is read in an inferred older draft.
    pub fn dialect(&self) -> Option<&SchemaDialect> {
        self.0.reading.note.as_ref()
    }

    /// The compiled validator for `schema` (the schema it was created for), or why it does not compile.
    pub fn get(&self, schema: &Value) -> std::result::Result<&Validator, &str> {
        let draft = self.0.reading.draft;
        self.0
            .cell
            .get_or_init(|| validator_with_draft(schema, draft).map_err(|e| e.to_string()))
            .as_ref()
            .map_err(String::as_str)
    }
}

pub use crate::dialect::MetaCache;

/// Check a tool name or alias's shape; `field` names where it came from
/// (what a name may *mean* is `check_reserved_names` in `crates/model/src/names.rs`).
pub fn check_name(tool: &str, field: &str, name: &str) -> Result<()> {
    let bad = |why: &str| {
        Err(
            Error::new(ErrorCode::DescriptorInvalidName, why.to_string())
                .with_tool(tool)
                .with_field(field),
        )
    };
    if name.is_empty() {
        return bad("name is empty");
    }
    if name.len() > MAX_NAME_BYTES {
        return bad(&format!(
            "name is {} bytes long; at most {MAX_NAME_BYTES} are allowed",
            name.len()
        ));
    }
    if let Some(c) = name.chars().find(|c| c.is_whitespace() || c.is_control()) {
        return bad(&format!(
            "name contains a whitespace or control character {:?}",
            c
        ));
    }
    if name.starts_with(HANDLE_PREFIX) {
        return bad("names may not start with `toolh_` (reserved for opaque handles)");
    }
    Ok(())
}

/// Why the registry refuses `spec`'s canonical name, if it does: its shape
/// ([`check_name`], `descriptor.invalid_name`) or what it reads as
/// ([`holaryn_model::check_reserved_names`] on the field `name`,
/// `descriptor.reserved_name`). The same checks, in the same order, as
/// [`normalise`] starts with.
pub fn name_refusal(spec: &ToolSpec) -> Option<Error> {
    if let Err(e) = check_name(&spec.name, "name", &spec.name) {
        return Some(e);
    }
    holaryn_model::check_reserved_names(spec)
        .err()
        .filter(|e| e.field.as_deref() == Some("name"))
}

/// Check that `schema` is a JSON object some dialect reads ([`crate::dialect`]):
/// the declared draft, 2020-12, or an older draft whose forms it uses.
pub fn check_schema(
    tool: &str,
    field: &str,
    schema: &Value,
    metas: &MetaCache,
    depth: Depth,
) -> Result<Reading> {
    if !schema.is_object() {
        return Err(Error::new(
            ErrorCode::DescriptorInvalidSchema,
            format!(
                "a tool schema must be a JSON object, not {}",
                kind_of(schema)
            ),
        )
        .with_tool(tool)
        .with_field(field));
    }
    crate::dialect::read(tool, field, schema, metas, depth)
}

/// MCP arguments are always a JSON object: a root `type`, when present,
/// must be (or include) `"object"`.
fn check_input_root(tool: &str, schema: &Value) -> Result<()> {
    let allows_object = match schema.get("type") {
        None => true,
        Some(Value::String(t)) => t == "object",
        Some(Value::Array(ts)) => ts.iter().any(|t| t == "object"),
        Some(_) => false,
    };
    if allows_object {
        return Ok(());
    }
    Err(Error::new(
        ErrorCode::DescriptorInvalidSchema,
        "a tool's input schema must have `type: \"object\"`: arguments are always a JSON object",
    )
    .with_tool(tool)
    .with_field("inputSchema")
    .with_pointer("/type"))
}

pub use crate::schema_check::uncompilable;

/// Refuse a tool without an input schema when the host requires one.
pub fn require_input_schema(spec: &ToolSpec) -> Result<()> {
    if spec.input_schema.is_some() {
        return Ok(());
    }
    Err(Error::new(
        ErrorCode::DescriptorInvalidSchema,
        "the tool declares no input schema, and this runtime requires one (`requireInputSchema`)",
    )
    .with_tool(&spec.name)
    .with_field("inputSchema"))
}

/// The JSON type name of a value, for messages.
pub fn kind_of(v: &Value) -> &'static str {
    match v {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
    }
}

/// Parse one host-supplied tool value into a spec, naming the tool on error.
pub fn parse_spec(value: &Value) -> Result<ToolSpec> {
    parse_spec_owned(value.clone())
}

/// [`parse_spec`] without copying the value (schemas are most of a tool).
pub fn parse_spec_owned(value: Value) -> Result<ToolSpec> {
    let name = value
        .get("name")
        .and_then(Value::as_str)
        .unwrap_or("<unnamed>")
        .to_string();
    if let Some(src) = value.get("source").and_then(Value::as_str) {
        if holaryn_model::Source::parse(src).is_none() {
            return Err(unknown_source(&name, src));
        }
    }
    serde_json::from_value::<ToolSpec>(value).map_err(|e| {
        let msg = e.to_string();
        let field = msg
            .split('`')
            .nth(1)
            .map(str::to_string)
            .unwrap_or_default();
        let mut err = Error::new(ErrorCode::DescriptorInvalid, msg).with_tool(name);
        if !field.is_empty() {
            err = err.with_field(field);
        }
        err
    })
}

fn unknown_source(tool: &str, src: &str) -> Error {
    Error::new(
        ErrorCode::DescriptorUnknownSource,
        format!(
            "unknown source `{src}`; expected one of native, mcp, skill, slash_command, browser, extension, connected_app"
        ),
    )
    .with_tool(tool)
    .with_field("source")
}

/// Validate a spec into a descriptor plus its input validator (compiled on
/// first use, shared with every tool of the same schema through `pool`) and
/// its footprint ([`crate::builtin::footprint_of`], the schema's bytes
/// counted once per distinct schema).
pub fn normalise(
    spec: ToolSpec,
    metas: &MetaCache,
    pool: &SchemaPool,
) -> Result<(ToolDescriptor, SchemaValidator, u64)> {
    let tool = spec.name.clone();
    check_name(&tool, "name", &spec.name)?;
    let legacy = holaryn_model::check_reserved_names(&spec)?;
    let source = holaryn_model::Source::parse(&spec.source)
        .ok_or_else(|| unknown_source(&tool, &spec.source))?;
    let mut aliases = Vec::with_capacity(spec.aliases.len());
    for (i, alias) in spec.aliases.iter().enumerate() {
        check_name(&tool, &format!("aliases[{i}]"), alias)?;
        if alias == &spec.name {
            return Err(Error::new(
                ErrorCode::DescriptorAliasCollision,
                format!("alias `{alias}` repeats the tool's own name"),
            )
            .with_tool(&tool)
            .with_field(format!("aliases[{i}]")));
        }
        aliases.push(alias.clone());
    }
    aliases.sort();
    aliases.dedup();
    let schema_missing = spec.input_schema.is_none();
    let input_schema = spec
        .input_schema
        .unwrap_or_else(|| json!({"type": "object", "properties": {}}));
    let key = fast_hash(&input_schema);
    // A schema in use by another tool passed the same checks already (and
    // its digest was taken then).
    let (input_schema, validator, schema_hash, schema_len) = match pool.get(key, &input_schema) {
        // The same schema in another key order: shared checks, its own copy.
        Some((shared, validator, digest, len)) if !same_order(&shared, &input_schema) => {
            (Arc::new(input_schema), validator, digest, len)
        }
        Some(shared) => shared,
        None => {
            let reading = check_schema(&tool, "inputSchema", &input_schema, metas, Depth::Compile)?;
            check_input_root(&tool, &input_schema)?;
            pool.insert(key, json_digest(&input_schema), input_schema, reading)
        }
    };
    // Like the input schema: one check and one digest per distinct schema.
    let (output_schema, output_hash) = match spec.output_schema {
        Some(out) => {
            let key = fast_hash(&out);
            let (shared, digest) = match pool.get_output(key, &out) {
                Some((shared, digest)) if !same_order(&shared, &out) => (Arc::new(out), digest),
                Some(shared) => shared,
                None => {
                    check_schema(&tool, "outputSchema", &out, metas, Depth::Meta)?;
                    pool.insert_output(key, json_digest(&out), out)
                }
            };
            (Some(shared), Some(digest))
        }
        None => (None, None),
    };
    let mut permissions: Vec<String> = spec.permissions.clone();
    if let Some(i) = permissions.iter().position(|p| p.trim().is_empty()) {
        return Err(
            Error::new(ErrorCode::DescriptorInvalid, "permission is empty")
                .with_tool(&tool)
                .with_field(format!("permissions[{i}]")),
        );
    }
    permissions.sort();
    permissions.dedup();
    let catalog_only = source.is_catalog_only();
    let role = if legacy {
        ToolRole::LegacyScript
    } else {
        spec.role.unwrap_or(ToolRole::Ordinary)
    };
    let mut description = spec.description.clone();
    if role == ToolRole::LegacyScript && !description.contains("ambient process access") {
        description = format!("[ambient process access] {description}");
    }
    if role == ToolRole::LegacyScript && !permissions.iter().any(|p| p == "process.ambient") {
        permissions.push("process.ambient".into());
        permissions.sort();
    }
    let mut desc = ToolDescriptor {
        local_name: spec.local_name.clone().unwrap_or_else(|| spec.name.clone()),
        title: spec
            .title
            .clone()
            .filter(|t| !t.trim().is_empty())
            .unwrap_or_else(|| spec.name.clone()),
        name: spec.name,
        description,
        aliases,
        source,
        provider: spec.provider,
        trust: spec.trust.unwrap_or(Trust::Untrusted),
        permissions,
        input_schema,
        output_schema,
        annotations: spec.annotations,
        visibility: spec.visibility.unwrap_or(Visibility::ModelVisible),
        invokability: if catalog_only {
            Invokability::CatalogOnly
        } else {
            spec.invokability.unwrap_or(Invokability::Callable)
        },
        // The one place `run_tool_script` (under any name) is made to ask
        // first, whatever its spec says.
        approval: if role == ToolRole::LegacyScript {
            ApprovalMode::Ask
        } else {
            spec.approval.unwrap_or(ApprovalMode::Auto)
        },
        timeout_ms: spec.timeout_ms,
        role,
        usage: spec.usage,
        schema_hash,
        schema_missing,
        dialect: validator.dialect().cloned(),
        version: String::new(),
    };
    desc.version = version_with(&desc, output_hash);
    let footprint = footprint_with(&desc.name, &desc.description, schema_len);
    Ok((desc, validator, footprint))
}

/// The footprint of a tool definition from borrowed parts: the length of
/// `{"name","description","input_schema"}` as compact JSON, counted while
/// serialising (nothing is cloned or kept; key order does not change it).
pub fn footprint_of(name: &str, description: &str, input_schema: &Value) -> u64 {
    #[derive(serde::Serialize)]
    struct View<'a> {
        name: &'a str,
        description: &'a str,
        input_schema: &'a Value,
    }
    holaryn_model::json_len(&View {
        name,
        description,
        input_schema,
    })
}

/// [`footprint_of`] with the schema's compact JSON length already known.
pub fn footprint_with(name: &str, description: &str, schema_len: u64) -> u64 {
    // `null` stands in for the schema: 4 bytes.
    let rest = footprint_of(name, description, &Value::Null);
    rest.saturating_sub(4).saturating_add(schema_len)
}

/// The per-tool version: digest of the canonical JSON object of every
/// versioned field, hashed while written (long texts are never copied).
pub fn tool_version(d: &ToolDescriptor) -> String {
    version_with(d, d.output_schema.as_deref().map(json_digest))
}

/// [`tool_version`] with the output schema's digest already taken.
fn version_with(d: &ToolDescriptor, output_hash: Option<String>) -> String {
    use holaryn_model::{canonical_json_into, digest_text, json_string_into, HashSink, Sink};
    /// A field's value: borrowed text, or a small serialised value.
    enum Piece<'a> {
        Text(&'a str),
        Json(Value),
    }
    let json = |v: serde_json::Result<Value>| Piece::Json(v.unwrap_or(Value::Null));
    let mut fields: Vec<(&str, Piece)> = vec![
        ("name", Piece::Text(&d.name)),
        ("localName", Piece::Text(&d.local_name)),
        ("title", Piece::Text(&d.title)),
        ("description", Piece::Text(&d.description)),
        ("aliases", json(serde_json::to_value(&d.aliases))),
        ("source", json(serde_json::to_value(d.source))),
        ("provider", json(serde_json::to_value(&d.provider))),
        ("trust", json(serde_json::to_value(d.trust))),
        ("permissions", json(serde_json::to_value(&d.permissions))),
        ("inputSchemaHash", Piece::Text(&d.schema_hash)),
        ("outputSchemaHash", json(serde_json::to_value(&output_hash))),
        ("annotations", json(serde_json::to_value(&d.annotations))),
        ("visibility", json(serde_json::to_value(d.visibility))),
        ("invokability", json(serde_json::to_value(d.invokability))),
        ("approval", json(serde_json::to_value(d.approval))),
        ("timeoutMs", json(serde_json::to_value(d.timeout_ms))),
        ("role", json(serde_json::to_value(d.role))),
        ("usage", json(serde_json::to_value(&d.usage))),
    ];
    if d.schema_missing {
        // Only when set, so versions of tools with a schema stay as they were.
        fields.push(("schemaMissing", Piece::Json(Value::Bool(true))));
    }
    fields.sort_unstable_by(|a, b| a.0.cmp(b.0));
    let mut sink = HashSink::default();
    sink.put("{");
    for (i, (key, piece)) in fields.iter().enumerate() {
        if i > 0 {
            sink.put(",");
        }
        json_string_into(key, &mut sink);
        sink.put(":");
        match piece {
            Piece::Text(t) => json_string_into(t, &mut sink),
            Piece::Json(v) => canonical_json_into(v, &mut sink),
        }
    }
    sink.put("}");
    digest_text(&sink.finish())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The version as it was computed before it was streamed: via a `json!` object.
    fn json_version(d: &ToolDescriptor) -> String {
        let output_hash = d.output_schema.as_deref().map(json_digest);
        let mut fields = json!({
            "name": d.name,
            "localName": d.local_name,
            "title": d.title,
            "description": d.description,
            "aliases": d.aliases,
            "source": d.source,
            "provider": d.provider,
            "trust": d.trust,
            "permissions": d.permissions,
            "inputSchemaHash": d.schema_hash,
            "outputSchemaHash": output_hash,
            "annotations": d.annotations,
            "visibility": d.visibility,
            "invokability": d.invokability,
            "approval": d.approval,
            "timeoutMs": d.timeout_ms,
            "role": d.role,
            "usage": d.usage,
        });
        if d.schema_missing {
            // Only when set, so versions of tools with a schema stay as they were.
            fields["schemaMissing"] = Value::Bool(true);
        }
        json_digest(&fields)
    }

    #[test]
    fn streamed_version_equals_the_json_object_digest() {
        let specs = [
            json!({"name": "a", "description": "d\n\"q\"", "provider": {"id": "p"}, "source": "mcp"}),
            json!({"name": "p/b", "title": "B é", "description": "", "aliases": ["z", "y"],
                   "provider": {"id": "p", "displayName": "P"}, "source": "native",
                   "permissions": ["fs.read"], "timeoutMs": 5, "usage": "u",
                   "annotations": {"readOnlyHint": true},
                   "inputSchema": {"type": "object", "properties": {"x": {"type": "number", "minimum": 1.5}}},
                   "outputSchema": {"type": "object"}}),
            json!({"name": "c", "description": "no schema", "provider": {"id": "p"}, "source": "skill",
                   "inputSchema": null}),
        ];
        let (metas, pool) = (MetaCache::default(), SchemaPool::default());
        for spec in specs {
            let spec = parse_spec_owned(spec).expect("spec");
            let (d, _, footprint) = normalise(spec, &metas, &pool).expect("valid");
            assert_eq!(d.version, json_version(&d), "{}", d.name);
            let counted = footprint_of(&d.name, &d.description, &d.input_schema);
            assert_eq!(footprint, counted, "{}", d.name);
        }
    }

    #[test]
    fn output_schemas_are_pooled_and_refusals_are_not() {
        let (metas, pool) = (MetaCache::default(), SchemaPool::default());
        let spec = |name: &str, out: Value| {
            parse_spec_owned(
                json!({"name": name, "description": "d", "provider": {"id": "p"},
                                    "source": "mcp", "outputSchema": out}),
            )
            .expect("spec")
        };
        let good = json!({"type": "object", "properties": {"a": {"type": "string"}, "b": {}}});
        let same = json!({"properties": {"b": {}, "a": {"type": "string"}}, "type": "object"});
        let out = |d: &ToolDescriptor| d.output_schema.clone().expect("output schema");
        let (a, ..) = normalise(spec("a", good.clone()), &metas, &pool).expect("valid");
        let (b, ..) = normalise(spec("b", same.clone()), &metas, &pool).expect("other order");
        let (c, ..) = normalise(spec("c", good.clone()), &metas, &pool).expect("again");
        // One shared copy; a tool with another key order keeps its own.
        assert!(Arc::ptr_eq(&out(&a), &out(&c)));
        assert!(same_order(&out(&b), &same) && !same_order(&out(&b), &good));
        // The digest is taken once, from the pool, and versions are as computed afresh.
        let shared = pool.get_output(fast_hash(&same), &same).map(|s| s.1);
        assert_eq!(shared, Some(json_digest(&good)));
        for d in [&a, &b, &c] {
            assert_eq!(d.version, tool_version(d));
        }
        let bad = json!({"type": "object", "minProperties": -1});
        for name in ["d", "e"] {
            let err = normalise(spec(name, bad.clone()), &metas, &pool).err();
            let code = err.map(|e| e.code);
            assert_eq!(code, Some(ErrorCode::DescriptorInvalidSchema), "{name}");
        }
        assert!(pool.get_output(fast_hash(&bad), &bad).is_none());
    }
}
