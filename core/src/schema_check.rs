//! Registration-time compilability check for input schemas: cheap and
//! structural, so that registering tens of thousands of tools stays fast and
//! full validators can still be compiled lazily on first use.
//!
//! A schema that passed its meta-schema can still fail to compile; those are
//! refused here as `descriptor.invalid_schema` with the JSON pointer of the
//! keyword at fault:
//! - every `pattern` and `patternProperties` key must compile as the
//!   validator compiles it (compiled once per distinct pattern string);
//! - a `$ref` of the form `#` or `#/json/pointer` must point at a schema
//!   (an object or a boolean) in the document.
//!
//! Anything the structural walk cannot decide cheaply — a `$ref` that is not
//! a plain local pointer (remote, relative, an `#anchor`, percent-encoded),
//! a `$dynamicRef` or `$recursiveRef`, or a nested `$id` (draft-04: `id`)
//! that moves the base URI — is decided exactly by compiling the schema once,
//! here, with the validator's own resolution (`holaryn-jsonschema`'s index):
//! under a nested `$id` a `#/…` reference means that resource, not the
//! document root, so a `$ref` the walk cannot find in the root is no verdict
//! until the walk knows that no `$id` moves the base. That is rare in real
//! catalogs. A compile failure that still reaches a call or an
//! inspect is reported as `descriptor.invalid_schema` there too, never as
//! `args.invalid`.

use holaryn_jsonschema::{holds, Draft, Holds};
use holaryn_model::{escape_token, Error, ErrorCode};
use serde_json::Value;
use std::cell::RefCell;
use std::collections::{BTreeSet, HashMap};

/// Distinct patterns remembered before the cache starts over.
const PATTERN_CACHE_MAX: usize = 4096;

thread_local! {
    static PATTERNS: RefCell<HashMap<String, Option<String>>> = RefCell::new(HashMap::new());
}

/// Where and why a schema cannot be compiled.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Uncompilable {
    /// JSON pointer into the schema (empty for the root).
    pub pointer: String,
    /// What is wrong.
    pub message: String,
}

/// Check that `schema` (already valid against `draft`'s meta-schema)
/// compiles when read in `draft`; compiles it in full only when the
/// structural walk cannot decide.
pub fn check_compilable(schema: &Value, draft: Draft) -> Result<(), Uncompilable> {
    let mut walk = Walk {
        root: schema,
        draft,
        path: Vec::new(),
        seen: BTreeSet::new(),
        unusual: None,
        missing: None,
    };
    walk.schema(schema, true)?;
    match (walk.unusual, walk.missing) {
        // The exact compiler rarely names a place; the first reference the
        // walk could not decide is where to look.
        (Some(at), _) => compile(schema, draft).map_err(|mut u| {
            if u.pointer.is_empty() {
                u.pointer = at;
            }
            u
        }),
        (None, Some(missing)) => Err(missing),
        (None, None) => Ok(()),
    }
}

/// Compile `schema` exactly as the gate will (in `draft` unless its
/// `$schema` names another), mapping a failure to its pointer.
pub fn compile(schema: &Value, draft: Draft) -> Result<(), Uncompilable> {
    holaryn_jsonschema::validator_with_draft(schema, draft)
        .map(drop)
        .map_err(|e| Uncompilable {
            pointer: e.instance_path().to_string(),
            message: format!("the schema cannot be compiled: {e}"),
        })
}

/// One step of the JSON pointer to where the walk is (built only on error).
#[derive(Clone, Copy)]
enum Seg<'a> {
    /// An object key (escaped when printed).
    Key(&'a str),
    /// An array index.
    Index(usize),
    /// Pointer text that is already escaped (a `$ref` target).
    Raw(&'a str),
}

struct Walk<'a> {
    root: &'a Value,
    /// The dialect the schema is read in (draft-04 names its base URI `id`).
    draft: Draft,
    path: Vec<Seg<'a>>,
    seen: BTreeSet<&'a str>,
    /// Where the first thing the walk cannot decide is.
    unusual: Option<String>,
    /// The first `$ref` the walk could not resolve against the root: the
    /// verdict unless a nested `$id` makes the compiler decide.
    missing: Option<Uncompilable>,
}

impl<'a> Walk<'a> {
    /// The JSON pointer of the current place plus `last`.
    fn pointer(&self, last: &[&str]) -> String {
        let mut out = String::new();
        for seg in &self.path {
            out.push('/');
            match seg {
                Seg::Key(k) => out.push_str(&escape_token(k)),
                Seg::Index(i) => out.push_str(&i.to_string()),
                Seg::Raw(r) => {
                    out.pop();
                    out.push_str(r);
                }
            }
        }
        for k in last {
            out.push('/');
            out.push_str(&escape_token(k));
        }
        out
    }

    /// One pass over a schema object's keywords (no map lookups: a walk of
    /// tens of thousands of schemas must stay cheap).
    fn schema(&mut self, s: &'a Value, is_root: bool) -> Result<(), Uncompilable> {
        let Value::Object(obj) = s else {
            return Ok(());
        };
        for (key, value) in obj {
            let k = key.as_str();
            match (k, value) {
                ("$id", Value::String(_)) if !is_root => self.undecided(&[k]),
                ("id", Value::String(_)) if !is_root && self.draft == Draft::Draft4 => {
                    self.undecided(&[k]);
                }
                ("$dynamicRef" | "$recursiveRef", _) => self.undecided(&[k]),
                ("pattern", Value::String(p)) => {
                    check_pattern(p).map_err(|m| bad(self.pointer(&[k]), m))?;
                }
                ("$ref", Value::String(r)) => self.reference(r)?,
                (_, Value::Array(items)) if holds(k, value) == Some(Holds::Many) => {
                    self.path.push(Seg::Key(k));
                    let r = items.iter().enumerate().try_for_each(|(i, item)| {
                        self.path.push(Seg::Index(i));
                        let r = self.schema(item, false);
                        self.path.pop();
                        r
                    });
                    self.path.pop();
                    r?;
                }
                (_, Value::Object(map))
                    if matches!(holds(k, value), Some(Holds::Map | Holds::Defs)) =>
                {
                    self.path.push(Seg::Key(k));
                    let r = map.iter().try_for_each(|(name, sub)| {
                        if k == "patternProperties" {
                            check_pattern(name).map_err(|m| bad(self.pointer(&[name]), m))?;
                        }
                        self.path.push(Seg::Key(name));
                        let r = self.schema(sub, false);
                        self.path.pop();
                        r
                    });
                    self.path.pop();
                    r?;
                }
                (_, Value::Object(_)) if holds(k, value) == Some(Holds::One) => {
                    self.path.push(Seg::Key(k));
                    let r = self.schema(value, false);
                    self.path.pop();
                    r?;
                }
                _ => {}
            }
        }
        Ok(())
    }

    fn undecided(&mut self, last: &[&str]) {
        if self.unusual.is_none() {
            self.unusual = Some(self.pointer(last));
        }
    }

    /// A `$ref`: a plain local pointer is resolved here, anything else compiled.
    fn reference(&mut self, r: &'a str) -> Result<(), Uncompilable> {
        let Some(fragment) = r.strip_prefix('#') else {
            self.undecided(&["$ref"]);
            return Ok(());
        };
        if !(fragment.is_empty() || fragment.starts_with('/')) || fragment.contains('%') {
            self.undecided(&["$ref"]);
            return Ok(());
        }
        match self.root.pointer(fragment) {
            Some(t @ Value::Object(_)) => {
                if self.seen.insert(fragment) {
                    // Walk the target where it is, then come back.
                    let here = std::mem::replace(&mut self.path, vec![Seg::Raw(fragment)]);
                    let r = self.schema(t, false);
                    self.path = here;
                    r?;
                }
                Ok(())
            }
            Some(Value::Bool(_)) => Ok(()),
            Some(_) => {
                let why = format!("`$ref` target `{r}` is not a schema (an object or a boolean)");
                self.unresolved(why);
                Ok(())
            }
            None => {
                self.unresolved(format!("`$ref` target `{r}` does not exist in this schema"));
                Ok(())
            }
        }
    }

    /// Remember the first reference the root does not resolve.
    fn unresolved(&mut self, message: String) {
        if self.missing.is_none() {
            self.missing = Some(bad(self.pointer(&["$ref"]), message));
        }
    }
}

/// An input schema that cannot be compiled, as `descriptor.invalid_schema`.
pub fn uncompilable(tool: &str, u: Uncompilable) -> Error {
    let e = Error::new(ErrorCode::DescriptorInvalidSchema, u.message)
        .with_tool(tool)
        .with_field("inputSchema")
        .with_next_action("ask the tool's provider to fix its input schema");
    if u.pointer.is_empty() {
        e
    } else {
        e.with_pointer(u.pointer)
    }
}

/// Compile one `pattern` as the validator does, remembering the verdict.
fn check_pattern(pattern: &str) -> Result<(), String> {
    let cached = PATTERNS.with(|c| c.borrow().get(pattern).cloned());
    let verdict = match cached {
        Some(v) => v,
        None => {
            let v = holaryn_pattern::Pattern::new(pattern)
                .err()
                .map(|e| format!("`{pattern}` is not a valid regular expression: {e}"));
            PATTERNS.with(|c| {
                let mut c = c.borrow_mut();
                if c.len() >= PATTERN_CACHE_MAX {
                    c.clear();
                }
                c.insert(pattern.to_string(), v.clone());
            });
            v
        }
    };
    verdict.map_or(Ok(()), Err)
}

fn bad(pointer: String, message: String) -> Uncompilable {
    Uncompilable { pointer, message }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    const D: Draft = Draft::Draft202012;

    #[test]
    fn refs_under_a_nested_id_resolve_in_that_resource() {
        // The suite's "$ref resolves to /$defs/A under a nested $id" shape.
        let nested = json!({"type": "object", "properties": {"x": {
            "$id": "http://example.com/inner.json",
            "$defs": {"A": {"type": "integer"}},
            "$ref": "#/$defs/A"}}});
        assert_eq!(check_compilable(&nested, D), Ok(()));
        // Without the `$id` the same reference names the root: refused.
        let mut flat = nested.clone();
        flat["properties"]["x"]
            .as_object_mut()
            .map(|o| o.remove("$id"));
        let err = check_compilable(&flat, D).expect_err("missing");
        assert_eq!(err.pointer, "/properties/x/$ref");
        // Draft-04 names the base URI `id` (and ignores a `$ref`'s siblings);
        // later drafts ignore `id`.
        let draft4 = json!({"type": "object", "properties": {"x": {
            "id": "http://example.com/inner.json",
            "definitions": {"A": {"type": "integer"}},
            "properties": {"y": {"$ref": "#/definitions/A"}}}}});
        assert_eq!(check_compilable(&draft4, Draft::Draft4), Ok(()));
        assert!(check_compilable(&draft4, D).is_err());
    }

    #[test]
    fn local_refs_resolve_and_missing_ones_are_named() {
        let ok = json!({"type": "object", "$defs": {"a": {"type": "string"}},
            "properties": {"x": {"$ref": "#/$defs/a"}, "y": {"$ref": "#"}}});
        assert_eq!(check_compilable(&ok, D), Ok(()));
        let missing = json!({"type": "object", "properties": {"x": {"$ref": "#/$defs/nope"}}});
        let err = check_compilable(&missing, D).expect_err("missing target");
        assert_eq!(err.pointer, "/properties/x/$ref");
    }

    #[test]
    fn patterns_are_compiled_where_they_are() {
        let bad_key = json!({"type": "object", "patternProperties": {"(": {}}});
        let err = check_compilable(&bad_key, D).expect_err("bad pattern");
        assert_eq!(err.pointer, "/patternProperties/(");
        let nested =
            json!({"type": "object", "properties": {"a": {"items": {"pattern": "[z-a]"}}}});
        let err = check_compilable(&nested, D).expect_err("bad pattern");
        assert_eq!(err.pointer, "/properties/a/items/pattern");
        // A property *named* `pattern` is not a keyword.
        let named = json!({"type": "object", "properties": {"pattern": {"type": "string"}}});
        assert_eq!(check_compilable(&named, D), Ok(()));
    }

    #[test]
    fn remote_and_dynamic_refs_are_compiled_exactly() {
        let remote =
            json!({"type": "object", "properties": {"x": {"$ref": "https://example.com/s.json"}}});
        let err = check_compilable(&remote, D).expect_err("remote");
        assert_eq!(err.pointer, "/properties/x/$ref");
        let dynamic = json!({"type": "object", "properties": {"x": {"$dynamicRef": "#nowhere"}}});
        assert!(check_compilable(&dynamic, D).is_err());
        let anchored = json!({"type": "object", "$defs": {"a": {"$anchor": "here"}}, "properties": {"x": {"$ref": "#here"}}});
        assert_eq!(check_compilable(&anchored, D), Ok(()));
    }
}
