//! Compiling a schema: its documents (the schema plus any embedded
//! meta-schema it references), the schema resources in them (`$id`, with
//! their `$anchor`s, `$dynamicAnchor`s and `$recursiveAnchor`), every
//! reachable `$ref`/`$dynamicRef`/`$recursiveRef` resolved to a place, and
//! every `pattern` compiled. Nothing is fetched: a reference to a document
//! that is neither the schema nor a known meta-schema does not compile.

use super::budget::{Budget, COMPILE_BUDGET};
use super::draft::Draft;
use super::error::CompileError;
use super::meta;
use super::uri;
use holaryn_pattern::Pattern;
use serde_json::Value;
use std::collections::{HashMap, HashSet};
use std::sync::Arc;

/// Base URI of a schema without `$id` (as the `jsonschema` crate uses).
pub(crate) const DEFAULT_BASE: &str = "json-schema:///";
/// Deepest schema nesting walked, and deepest chain of schemas evaluated
/// (meta-validation takes about six per level of a schema's nesting).
pub(crate) const MAX_DEPTH: usize = 512;

/// A place in one of the documents.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub(crate) struct Loc {
    /// Index into [`Index::docs`].
    pub doc: usize,
    /// JSON pointer from the document root (escaped).
    pub ptr: String,
}

/// One schema resource: a document root or a subschema with `$id`.
#[derive(Debug)]
pub(crate) struct Resource {
    /// Its absolute URI, without fragment.
    pub uri: String,
    /// Where it is.
    pub loc: Loc,
    /// The draft its keywords follow.
    pub draft: Draft,
    /// `$anchor`s (and `$dynamicAnchor`s, legacy `#name` ids) → pointer from the document root.
    pub anchors: HashMap<String, String>,
    /// Names declared with `$dynamicAnchor`.
    pub dynamic: HashSet<String>,
    /// `$recursiveAnchor: true` at its root.
    pub recursive: bool,
}

/// Where a reference leads.
#[derive(Debug, Clone)]
pub(crate) struct Target {
    /// The referenced schema.
    pub loc: Loc,
    /// The resource it belongs to.
    pub resource: usize,
    /// For `$dynamicRef`: the anchor name when the static target declares it dynamically.
    pub dynamic: Option<String>,
}

/// A compiled schema.
pub(crate) struct Index {
    /// The schema (0) and the meta-schemas it references.
    pub docs: Vec<Arc<Value>>,
    /// Every resource found.
    pub resources: Vec<Resource>,
    by_uri: HashMap<String, usize>,
    /// Address of a resource's root object → the resource.
    pub roots: HashMap<usize, usize>,
    /// Address of an object with `$ref` → its target.
    pub refs: HashMap<usize, Target>,
    /// Address of an object with `$dynamicRef`/`$recursiveRef` → its static target.
    pub dyn_refs: HashMap<usize, Target>,
    /// Compiled patterns by source.
    pub patterns: HashMap<String, Pattern>,
    /// Steps left for compiling.
    budget: Budget,
}

/// The address of a value, as a key (never dereferenced).
pub(crate) fn addr(v: &Value) -> usize {
    v as *const Value as usize
}

/// How a keyword's value holds subschemas.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Holds {
    /// One subschema (`not`, `additionalProperties`, object-form `items`, …).
    One,
    /// An array of subschemas (`allOf`, `prefixItems`, array-form `items`, …).
    Many,
    /// Names to subschemas (`properties`, `patternProperties`, …).
    Map,
    /// Names to definitions (`$defs`, `definitions`).
    Defs,
}

/// Whether (and how) `value` under keyword `k` holds subschemas: the one list
/// of applicator keywords, shared by the validator's index and the
/// registration-time walk (`schema_check`).
pub fn holds(k: &str, value: &Value) -> Option<Holds> {
    match (k, value) {
        ("allOf" | "anyOf" | "oneOf" | "prefixItems" | "items", Value::Array(_)) => {
            Some(Holds::Many)
        }
        (
            "properties" | "patternProperties" | "dependentSchemas" | "dependencies",
            Value::Object(_),
        ) => Some(Holds::Map),
        ("$defs" | "definitions", Value::Object(_)) => Some(Holds::Defs),
        (
            "additionalProperties"
            | "additionalItems"
            | "contains"
            | "propertyNames"
            | "not"
            | "if"
            | "then"
            | "else"
            | "unevaluatedItems"
            | "unevaluatedProperties"
            | "contentSchema"
            | "items",
            Value::Object(_) | Value::Bool(_),
        ) => Some(Holds::One),
        _ => None,
    }
}

/// Calls `f(segment, subschema)` for each subschema of a schema object; with
/// `defs`, also those under `$defs`/`definitions`.
pub(crate) fn subschemas<'v>(
    obj: &'v serde_json::Map<String, Value>,
    defs: bool,
    mut f: impl FnMut(String, &'v Value) -> Result<(), CompileError>,
) -> Result<(), CompileError> {
    for (k, v) in obj {
        let k = k.as_str();
        match (holds(k, v), v) {
            (Some(Holds::Many), Value::Array(items)) => {
                for (i, item) in items.iter().enumerate() {
                    f(format!("{k}/{i}"), item)?;
                }
            }
            (Some(Holds::Map), Value::Object(m)) => {
                for (name, sub) in m {
                    if sub.is_object() || sub.is_boolean() {
                        f(format!("{k}/{}", holaryn_model::escape_token(name)), sub)?;
                    }
                }
            }
            (Some(Holds::Defs), Value::Object(m)) if defs => {
                for (name, sub) in m {
                    f(format!("{k}/{}", holaryn_model::escape_token(name)), sub)?;
                }
            }
            (Some(Holds::One), _) => f(k.to_string(), v)?,
            _ => {}
        }
    }
    Ok(())
}

/// The identifier keyword's value when it makes `obj` a new resource.
fn resource_id(obj: &serde_json::Map<String, Value>, draft: Draft) -> Option<&str> {
    let key = if draft == Draft::Draft4 { "id" } else { "$id" };
    let id = obj.get(key)?.as_str()?;
    if draft <= Draft::Draft7 && (obj.contains_key("$ref") || id.starts_with('#')) {
        return None;
    }
    Some(id)
}

impl Index {
    /// Index `schema` (draft `draft` unless it says otherwise) and resolve everything reachable.
    pub(crate) fn build(schema: Arc<Value>, draft: Draft) -> Result<Index, CompileError> {
        let mut index = Index {
            docs: Vec::new(),
            resources: Vec::new(),
            by_uri: HashMap::new(),
            roots: HashMap::new(),
            refs: HashMap::new(),
            dyn_refs: HashMap::new(),
            patterns: HashMap::new(),
            budget: Budget::new(COMPILE_BUDGET),
        };
        index.add_doc(schema, draft)?;
        let mut seen = HashSet::new();
        let root = Loc {
            doc: 0,
            ptr: String::new(),
        };
        index.reach(&root, 0, &mut seen, 0)?;
        Ok(index)
    }

    /// Add a document and its resources; returns its index.
    fn add_doc(&mut self, doc: Arc<Value>, draft: Draft) -> Result<usize, CompileError> {
        let d = self.docs.len();
        self.docs.push(doc.clone());
        let draft = Draft::declared(&doc).unwrap_or(draft);
        let uri = match doc.as_object().and_then(|o| resource_id(o, draft)) {
            Some(id) => uri::split_fragment(&uri::resolve(DEFAULT_BASE, id))
                .0
                .to_string(),
            None => DEFAULT_BASE.to_string(),
        };
        let r = self.new_resource(
            uri,
            Loc {
                doc: d,
                ptr: String::new(),
            },
            draft,
            &doc,
        );
        self.walk_ids(&doc, d, String::new(), r, 0)?;
        Ok(d)
    }

    fn new_resource(&mut self, uri: String, loc: Loc, draft: Draft, v: &Value) -> usize {
        let i = self.resources.len();
        let recursive = draft == Draft::Draft201909
            && v.get("$recursiveAnchor").and_then(Value::as_bool) == Some(true);
        self.resources.push(Resource {
            uri: uri.clone(),
            loc,
            draft,
            anchors: HashMap::new(),
            dynamic: HashSet::new(),
            recursive,
        });
        self.by_uri.entry(uri).or_insert(i);
        self.roots.insert(addr(v), i);
        i
    }

    /// Register the resources and anchors under `v` (at `ptr` in document `doc`).
    fn walk_ids(
        &mut self,
        v: &Value,
        doc: usize,
        ptr: String,
        mut res: usize,
        depth: usize,
    ) -> Result<(), CompileError> {
        let Value::Object(obj) = v else {
            return Ok(());
        };
        if depth > MAX_DEPTH {
            return Err(too_deep(&ptr));
        }
        self.charge(1 + obj.len() as u64, &ptr)?;
        let mut draft = self.resources[res].draft;
        if depth > 0 {
            if let Some(d) = Draft::declared(v).filter(|_| obj.contains_key("$id")) {
                draft = d;
            }
            if let Some(id) = resource_id(obj, draft) {
                let full = uri::resolve(&self.resources[res].uri, id);
                let base = uri::split_fragment(&full).0.to_string();
                let loc = Loc {
                    doc,
                    ptr: ptr.clone(),
                };
                res = self.new_resource(base, loc, draft, v);
            }
        }
        let mut anchor = |name: &str, dynamic: bool| {
            let r = &mut self.resources[res];
            r.anchors.entry(name.to_string()).or_insert(ptr.clone());
            if dynamic {
                r.dynamic.insert(name.to_string());
            }
        };
        if draft >= Draft::Draft201909 {
            if let Some(a) = obj.get("$anchor").and_then(Value::as_str) {
                anchor(a, false);
            }
        }
        if draft == Draft::Draft202012 {
            if let Some(a) = obj.get("$dynamicAnchor").and_then(Value::as_str) {
                anchor(a, true);
            }
        }
        if draft <= Draft::Draft7 {
            let key = if draft == Draft::Draft4 { "id" } else { "$id" };
            if let Some(a) = obj.get(key).and_then(Value::as_str) {
                if let Some(name) = a.strip_prefix('#').filter(|_| !obj.contains_key("$ref")) {
                    anchor(name, false);
                } else if let (Some(i), false) = (a.find('#'), obj.contains_key("$ref")) {
                    if i + 1 < a.len() {
                        anchor(&a[i + 1..], false);
                    }
                }
            }
        }
        let mut subs = Vec::new();
        subschemas(obj, true, |seg, sub| {
            subs.push((seg, sub));
            Ok(())
        })?;
        for (seg, sub) in subs {
            self.walk_ids(sub, doc, format!("{ptr}/{seg}"), res, depth + 1)?;
        }
        Ok(())
    }

    /// The value at `loc`.
    pub(crate) fn get(&self, loc: &Loc) -> Option<&Value> {
        self.docs.get(loc.doc)?.pointer(&loc.ptr)
    }

    /// The innermost resource containing `loc`.
    fn resource_of(&self, loc: &Loc) -> usize {
        let mut best = (0, None);
        for (i, r) in self.resources.iter().enumerate() {
            let inside = r.loc.doc == loc.doc
                && (loc.ptr == r.loc.ptr || loc.ptr.starts_with(&format!("{}/", r.loc.ptr)));
            if inside && (best.1.is_none() || r.loc.ptr.len() >= best.0) {
                best = (r.loc.ptr.len(), Some(i));
            }
        }
        best.1.unwrap_or(0)
    }

    /// Resolve `reference` against resource `res`'s base URI.
    pub(crate) fn resolve(&mut self, res: usize, reference: &str) -> Result<Target, String> {
        let full = uri::resolve(&self.resources[res].uri, reference);
        let (base, fragment) = uri::split_fragment(&full);
        let r = match self.by_uri.get(base) {
            Some(&r) => r,
            None => match meta::document(base) {
                Some((doc, draft)) => {
                    let d = self.add_doc(doc, draft).map_err(|e| e.message)?;
                    self.resource_of(&Loc { doc: d, ptr: String::new() })
                }
                None => {
                    return Err(format!(
                        "Resource '{base}' is not present in a registry and retrieving it failed: remote references are not fetched"
                    ))
                }
            },
        };
        let root = &self.resources[r];
        let ptr = if fragment.is_empty() {
            root.loc.ptr.clone()
        } else if fragment.starts_with('/') {
            format!("{}{}", root.loc.ptr, uri::percent_decode(fragment))
        } else {
            match root.anchors.get(&uri::percent_decode(fragment)) {
                Some(p) => p.clone(),
                None => return Err(format!("Anchor '{fragment}' does not exist")),
            }
        };
        let loc = Loc {
            doc: root.loc.doc,
            ptr,
        };
        match self.get(&loc) {
            Some(Value::Object(_) | Value::Bool(_)) => {}
            _ => return Err(format!("Unresolvable reference: {reference}")),
        }
        let dynamic = (!fragment.is_empty() && !fragment.starts_with('/'))
            .then(|| fragment.to_string())
            .filter(|f| root.dynamic.contains(f));
        let resource = self.resource_of(&loc);
        Ok(Target {
            loc,
            resource,
            dynamic,
        })
    }

    /// Walk what evaluation can reach from `loc` (in resource `res`): resolve references, compile patterns.
    fn reach(
        &mut self,
        loc: &Loc,
        mut res: usize,
        seen: &mut HashSet<Loc>,
        depth: usize,
    ) -> Result<(), CompileError> {
        if depth > MAX_DEPTH {
            return Err(too_deep(&loc.ptr));
        }
        if !seen.insert(loc.clone()) {
            return Ok(());
        }
        // A step for the place, and `resource_of`'s scan of the resources.
        self.charge(1 + self.resources.len() as u64, &loc.ptr)?;
        let Some(doc) = self.docs.get(loc.doc).cloned() else {
            return Ok(());
        };
        let Some(Value::Object(obj)) = doc.pointer(&loc.ptr) else {
            return Ok(());
        };
        let here = addr(doc.pointer(&loc.ptr).unwrap_or(&Value::Null));
        if let Some(&r) = self.roots.get(&here) {
            res = r;
        }
        let draft = self.resources[res].draft;
        let at = |k: &str| format!("{}/{k}", loc.ptr);
        let mut next: Vec<(Loc, usize)> = Vec::new();
        if let Some(Value::String(r)) = obj.get("$ref") {
            let t = self
                .resolve(res, r)
                .map_err(|m| CompileError::new(at("$ref"), m))?;
            next.push((t.loc.clone(), t.resource));
            self.refs.insert(here, t);
            if draft <= Draft::Draft7 {
                return self.reach_all(next, seen, depth);
            }
        }
        let dynamic = match draft {
            Draft::Draft202012 => obj.get("$dynamicRef").map(|v| ("$dynamicRef", v)),
            Draft::Draft201909 => obj.get("$recursiveRef").map(|v| ("$recursiveRef", v)),
            _ => None,
        };
        if let Some((k, Value::String(r))) = dynamic {
            let t = self
                .resolve(res, r)
                .map_err(|m| CompileError::new(at(k), m))?;
            next.push((t.loc.clone(), t.resource));
            self.dyn_refs.insert(here, t);
        }
        if let Some(Value::String(p)) = obj.get("pattern") {
            self.pattern(p)
                .map_err(|m| CompileError::new(at("pattern"), m))?;
        }
        if let Some(Value::Object(pp)) = obj.get("patternProperties") {
            for p in pp.keys() {
                let ptr = at(&format!(
                    "patternProperties/{}",
                    holaryn_model::escape_token(p)
                ));
                self.pattern(p).map_err(|m| CompileError::new(ptr, m))?;
            }
        }
        subschemas(obj, false, |seg, _| {
            let sub = Loc {
                doc: loc.doc,
                ptr: format!("{}/{seg}", loc.ptr),
            };
            next.push((sub, res));
            Ok(())
        })?;
        self.reach_all(next, seen, depth)
    }

    fn reach_all(
        &mut self,
        next: Vec<(Loc, usize)>,
        seen: &mut HashSet<Loc>,
        depth: usize,
    ) -> Result<(), CompileError> {
        for (l, r) in next {
            self.reach(&l, r, seen, depth + 1)?;
        }
        Ok(())
    }

    /// Take `n` compile steps; past the budget the schema does not compile (at `ptr`).
    fn charge(&mut self, n: u64, ptr: &str) -> Result<(), CompileError> {
        if self.budget.charge(n) {
            return Ok(());
        }
        Err(CompileError::new(
            ptr,
            format!(
                "compiling the schema needs more than {COMPILE_BUDGET} steps (the compile budget)"
            ),
        ))
    }

    fn pattern(&mut self, p: &str) -> Result<(), String> {
        if !self.patterns.contains_key(p) {
            let compiled = Pattern::new(p)
                .map_err(|why| format!("`{p}` is not a valid regular expression: {why}"))?;
            self.patterns.insert(p.to_string(), compiled);
        }
        Ok(())
    }
}

fn too_deep(ptr: &str) -> CompileError {
    CompileError::new(
        ptr,
        format!("the schema is nested more than {MAX_DEPTH} levels deep"),
    )
}
