//! Shared pieces of the fuzz targets: a byte reader, a JSON generator biased
//! toward the shapes the core reads, the seed registry, and the invariant
//! checks more than one target asserts (a violated invariant is a panic, so
//! libFuzzer reports it as a crash).

use holaryn_core::{Registry, RegistryChange};
use holaryn_model::Error;
use holaryn_model::ProviderStatus;
use serde_json::{json, Map, Number, Value};

/// A cursor over the fuzz input; reads past the end yield zeros.
pub struct Bytes<'a> {
    data: &'a [u8],
}

impl<'a> Bytes<'a> {
    /// A reader over `data`.
    pub fn new(data: &'a [u8]) -> Self {
        Bytes { data }
    }
    /// The next byte (0 once the input is used up).
    pub fn byte(&mut self) -> u8 {
        match self.data.split_first() {
            Some((b, rest)) => {
                self.data = rest;
                *b
            }
            None => 0,
        }
    }
    /// The next two bytes, little-endian.
    pub fn u16(&mut self) -> u16 {
        u16::from_le_bytes([self.byte(), self.byte()])
    }
    /// The next eight bytes, little-endian.
    pub fn u64(&mut self) -> u64 {
        let mut b = [0u8; 8];
        for x in &mut b {
            *x = self.byte();
        }
        u64::from_le_bytes(b)
    }
    /// Up to `n` bytes.
    pub fn take(&mut self, n: usize) -> &'a [u8] {
        let (head, rest) = self.data.split_at(n.min(self.data.len()));
        self.data = rest;
        head
    }
    /// Everything not read yet.
    pub fn rest(&self) -> &'a [u8] {
        self.data
    }
    /// True once every byte was read.
    pub fn is_empty(&self) -> bool {
        self.data.is_empty()
    }
    /// One of `items`, chosen by the next byte.
    pub fn pick<T: Copy>(&mut self, items: &[T]) -> T {
        items[usize::from(self.byte()) % items.len()]
    }
}

/// Keys the core's readers look for (descriptors, catalogs, policies, model calls, schemas).
pub const KEYS: &[&str] = &[
    "name",
    "title",
    "description",
    "aliases",
    "source",
    "provider",
    "id",
    "kind",
    "displayName",
    "version",
    "origin",
    "localName",
    "trust",
    "permissions",
    "inputSchema",
    "input_schema",
    "outputSchema",
    "annotations",
    "readOnlyHint",
    "destructiveHint",
    "visibility",
    "invokability",
    "approval",
    "timeoutMs",
    "role",
    "usage",
    "tools",
    "server",
    "serverInfo",
    "allow",
    "deny",
    "$schema",
    "type",
    "properties",
    "required",
    "items",
    "enum",
    "$ref",
    "$defs",
    "pattern",
    "minimum",
    "additionalProperties",
    "input",
    "function",
    "arguments",
    "call_id",
];

/// String values the core gives meaning to.
pub const WORDS: &[&str] = &[
    "",
    "mcp",
    "native",
    "skill",
    "slash_command",
    "browser",
    "extension",
    "connected_app",
    "trusted",
    "untrusted",
    "builtin",
    "hidden",
    "model_visible",
    "catalog_only",
    "callable",
    "ask",
    "never",
    "auto",
    "bridge",
    "legacy_script",
    "code_mode",
    "object",
    "string",
    "integer",
    "array",
    "boolean",
    "tool_use",
    "function",
    "function_call",
    "read_file",
    "read",
    "github",
    "github/create_issue",
    "github/*",
    "create_issue",
    "mcp:*",
    "native:read_file",
    "*",
    "**",
    "a*b",
    "run_tool_script",
    "run_tool_code",
    "tool_search",
    "tool_inspect",
    "toolh_",
    "#/$defs/x",
    "^[a-z]+$",
    "(a+)+$",
    "{\"a\":1}",
    "fs.read",
    "é😀",
    "\u{feff}x",
    "a b",
];

/// A JSON value from the input: raw JSON text (first byte even) or built by
/// [`gen`] from the bytes (odd). `None` when the text does not parse.
pub fn json_input(data: &[u8]) -> Option<Value> {
    let mut b = Bytes::new(data);
    if b.byte().is_multiple_of(2) {
        serde_json::from_slice(b.rest()).ok()
    } else {
        Some(gen(&mut b, 0))
    }
}

/// A value built from the bytes, with keys and strings mostly from [`KEYS`] and [`WORDS`].
pub fn gen(b: &mut Bytes, depth: u32) -> Value {
    let tag = b.byte();
    let nested = depth < 6 && !b.is_empty();
    match tag % 10 {
        0 => Value::Null,
        1 => Value::Bool(tag & 0x10 != 0),
        2 => number(b),
        3 | 4 => Value::String(string(b)),
        5 | 6 if nested => {
            let n = usize::from(b.byte() % 6);
            Value::Array((0..n).map(|_| gen(b, depth + 1)).collect())
        }
        _ if nested => {
            let n = usize::from(b.byte() % 8);
            let mut m = Map::new();
            for _ in 0..n {
                let key = if b.byte().is_multiple_of(8) {
                    string(b)
                } else {
                    b.pick(KEYS).to_string()
                };
                m.insert(key, gen(b, depth + 1));
            }
            Value::Object(m)
        }
        _ => Value::String(b.pick(WORDS).to_string()),
    }
}

fn number(b: &mut Bytes) -> Value {
    match b.byte() % 6 {
        0 => json!(b.byte()),
        1 => json!(-i64::from(b.u16())),
        2 => json!(b.u64()),
        3 => Number::from_f64(f64::from(b.u16()) / 7.0).map_or(Value::Null, Value::Number),
        4 => json!(u64::MAX),
        _ => json!(0),
    }
}

fn string(b: &mut Bytes) -> String {
    match b.byte() % 4 {
        0 => {
            let n = usize::from(b.byte() % 24);
            String::from_utf8_lossy(b.take(n)).into_owned()
        }
        1 => format!("{}{}", b.pick(WORDS), b.pick(WORDS)),
        _ => b.pick(WORDS).to_string(),
    }
}

/// Tools every registry target starts from: aliases, qualified names, every source.
pub fn seed_tools() -> Value {
    json!([
        {"name": "read_file", "description": "Read a file", "aliases": ["read"], "source": "native",
         "provider": {"id": "host"}, "inputSchema": {"type": "object", "properties": {"path": {"type": "string"}}, "required": ["path"]}},
        {"name": "github/create_issue", "localName": "create_issue", "description": "Open an issue",
         "source": "mcp", "provider": {"id": "github"}, "aliases": ["gh_issue"],
         "annotations": {"destructiveHint": true}},
        {"name": "github/list_issues", "localName": "list_issues", "source": "mcp", "provider": {"id": "github"}},
        {"name": "deploy", "source": "slash_command", "provider": {"id": "cmds"}, "usage": "/deploy"},
        {"name": "summarise", "source": "skill", "provider": {"id": "skills"}},
        {"name": "tabs_list", "source": "browser", "provider": {"id": "browser"}, "visibility": "hidden"},
        {"name": "run_tool_script", "source": "native", "provider": {"id": "host"}}
    ])
}

/// A registry holding [`seed_tools`] (with one provider disconnected), built
/// once per thread and cloned (registration compiles meta-schemas: slow per run).
pub fn seed_registry() -> Registry {
    with_seed(Registry::clone)
}

/// Borrow the seed registry.
pub fn with_seed<R>(f: impl FnOnce(&Registry) -> R) -> R {
    thread_local! {
        static SEED: Registry = {
            let mut r = Registry::new();
            let tools = seed_tools();
            let tools = tools.as_array().map(Vec::as_slice).unwrap_or(&[]);
            r.register_values(tools).expect("the seed tools register");
            r.set_provider_status("browser", ProviderStatus::Disconnected)
                .expect("the seed provider exists");
            r
        };
    }
    SEED.with(f)
}

/// Everything observable about a registry that a refused change must leave alone.
#[derive(Debug, PartialEq)]
pub struct Snapshot {
    version: String,
    generation: u64,
    tools: Vec<(String, String, Vec<String>, ProviderStatus)>,
    lookups: Vec<(String, Option<String>)>,
}

/// Snapshot `r`; `names` are looked up too (names and aliases the input mentions).
pub fn snapshot(r: &Registry, names: &[String]) -> Snapshot {
    let tools = r
        .entries()
        .map(|e| {
            let d = &e.descriptor;
            let status = r.provider_status(&d.provider.id);
            (d.name.clone(), d.version.clone(), d.aliases.clone(), status)
        })
        .collect::<Vec<_>>();
    let mut keys: Vec<String> = names.to_vec();
    for (name, _, aliases, _) in &tools {
        keys.push(name.clone());
        keys.extend(aliases.iter().cloned());
    }
    let lookups = keys
        .into_iter()
        .map(|k| {
            let hit = r.get(&k).map(|e| e.descriptor.name.clone());
            (k, hit)
        })
        .collect();
    Snapshot {
        version: r.version().to_string(),
        generation: r.generation(),
        tools,
        lookups,
    }
}

/// The registry invariant: a refusal leaves it exactly as it was; a success
/// reports a change exactly when the version moved.
pub fn check_change(
    before: &Snapshot,
    r: &Registry,
    names: &[String],
    result: &Result<Option<RegistryChange>, Error>,
) {
    match result {
        Err(_) => assert_eq!(
            &snapshot(r, names),
            before,
            "a refused change altered the registry"
        ),
        Ok(None) => assert_eq!(r.version(), before.version, "a silent change"),
        Ok(Some(c)) => {
            assert_eq!(c.old_version, before.version);
            assert_eq!(c.new_version, r.version());
            assert_ne!(
                c.old_version, c.new_version,
                "a change that changed nothing"
            );
        }
    }
}

/// Every string anywhere in `v` (names the input mentions).
pub fn strings_in(v: &Value, out: &mut Vec<String>) {
    match v {
        Value::String(s) => out.push(s.clone()),
        Value::Array(items) => items.iter().for_each(|i| strings_in(i, out)),
        Value::Object(m) => m.iter().for_each(|(k, i)| {
            out.push(k.clone());
            strings_in(i, out)
        }),
        _ => {}
    }
}

/// True when 1-based `line`:`column` (UTF-16 units) is inside `text` or just past its end.
pub fn inside(text: &str, line: u32, column: u32) -> bool {
    // Lines end at `\n`, `\r\n` or a lone `\r`, as `line_col_utf16` counts them.
    let text = text.replace("\r\n", "\n").replace('\r', "\n");
    let Some(l) = text.split('\n').nth((line as usize).wrapping_sub(1)) else {
        return false;
    };
    let units: usize = l.chars().map(char::len_utf16).sum();
    line >= 1 && column >= 1 && column as usize <= units + 1
}

/// An error located in `text`: a line:column inside it, or a pointer that
/// resolves in `parsed` (its value once decoded).
pub fn assert_located(text: &str, parsed: Option<&Value>, err: &Error) {
    match (err.line, err.column, &err.pointer) {
        (Some(l), Some(c), _) => assert!(inside(text, l, c), "{l}:{c} is outside the input"),
        (None, None, Some(p)) => {
            let v = parsed.expect("a pointer error on input that is not JSON");
            assert!(v.pointer(p).is_some(), "pointer {p:?} resolves to nothing");
        }
        _ => panic!("an error without a location: {err:?}"),
    }
}
