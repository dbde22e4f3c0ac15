//! Evaluation: one schema object's keywords against one instance, in the
//! order the `jsonschema` crate reports them (cheap assertions first), with
//! the annotations `unevaluatedProperties`/`unevaluatedItems` need and the
//! dynamic scope `$dynamicRef`/`$recursiveRef` resolve in.

use super::budget::{hash_within, Budget, EVAL_STEPS};
use super::draft::Draft;
use super::error::{ErrorKind, ValidationError};
use super::index::{addr, Index, MAX_DEPTH};
use holaryn_model::escape_token;
use serde_json::{Map, Value};
use std::collections::HashMap;

/// One step of the instance pointer.
#[derive(Clone, Copy)]
pub(crate) enum Seg<'i> {
    /// An object member.
    Key(&'i str),
    /// An array item.
    Index(usize),
}

/// What a successful evaluation marked as evaluated.
#[derive(Default, Clone)]
pub(crate) struct Ann<'i> {
    pub(super) all_props: bool,
    pub(super) props: Vec<&'i str>,
    pub(super) all_items: bool,
    pub(super) items: usize,
    pub(super) item_set: Vec<usize>,
}

impl<'i> Ann<'i> {
    fn merge(&mut self, o: Ann<'i>) {
        self.all_props |= o.all_props;
        self.props.extend(o.props);
        self.all_items |= o.all_items;
        self.items = self.items.max(o.items);
        self.item_set.extend(o.item_set);
    }
    /// Its size, as steps to copy it.
    fn steps(&self) -> u64 {
        (self.props.len() + self.item_set.len()) as u64
    }
}

/// An evaluation in progress.
pub(crate) struct Eval<'v, 'i> {
    pub(super) ix: &'v Index,
    /// Resources entered, outermost first.
    pub(super) scope: Vec<usize>,
    /// Collect every error (else stop at the first failure).
    pub(super) collect: bool,
    /// The errors found (when collecting).
    pub errors: Vec<ValidationError>,
    pub(super) path: Vec<Seg<'i>>,
    depth: usize,
    /// (schema, instance) addresses of the references being followed.
    active: Vec<(usize, usize)>,
    /// The lowest entry of `active` a cycle (or the depth limit: 0) was cut
    /// at below the reference being followed: its result is memoised only
    /// when nothing outside it was assumed.
    low: usize,
    /// Results of followed references, by [`MemoKey`].
    memo: HashMap<MemoKey, Memo<'i>>,
    /// Canonical hashes of `enum` options, by address.
    hashes: HashMap<usize, u64>,
    /// Steps left.
    pub(super) budget: Budget,
    /// Where the budget ran out (the instance pointer), once it has.
    pub spent_at: Option<String>,
}

/// (target schema, instance, collecting, dynamic scope) of a followed reference.
type MemoKey = (usize, usize, bool, u64);

/// A followed reference's outcome, replayed when it is followed again.
struct Memo<'i> {
    ok: bool,
    ann: Ann<'i>,
    errors: Vec<ValidationError>,
}

/// The keyword's place in the report order (`None`: not a keyword of `draft`).
fn priority(k: &str, draft: Draft) -> Option<u8> {
    let modern = draft >= Draft::Draft201909;
    Some(match k {
        "type" => 1,
        "const" if draft >= Draft::Draft6 => 5,
        "enum" => 6,
        "minimum" => 10,
        "maximum" => 11,
        "exclusiveMinimum" if draft >= Draft::Draft6 => 12,
        "exclusiveMaximum" if draft >= Draft::Draft6 => 13,
        "multipleOf" => 14,
        "minLength" => 20,
        "maxLength" => 21,
        "minItems" => 22,
        "maxItems" => 23,
        "minProperties" => 24,
        "maxProperties" => 25,
        "required" => 26,
        "dependentRequired" if modern => 27,
        "pattern" => 30,
        "format" => 31,
        "contentEncoding" if !modern && draft >= Draft::Draft6 => 32,
        "contentMediaType" if !modern && draft >= Draft::Draft6 => 33,
        "uniqueItems" => 35,
        "properties" => 40,
        "patternProperties" => 41,
        "additionalProperties" => 42,
        "propertyNames" if draft >= Draft::Draft6 => 43,
        "items" => 44,
        "prefixItems" if draft == Draft::Draft202012 => 45,
        "additionalItems" if draft < Draft::Draft202012 => 46,
        "contains" if draft >= Draft::Draft6 => 47,
        "dependencies" => 48,
        "dependentSchemas" if modern => 49,
        "allOf" => 50,
        "anyOf" => 51,
        "oneOf" => 52,
        "not" => 53,
        "if" if draft >= Draft::Draft7 => 54,
        "$ref" => 70,
        "$recursiveRef" if draft == Draft::Draft201909 => 71,
        "$dynamicRef" if draft == Draft::Draft202012 => 72,
        "unevaluatedProperties" if modern => 90,
        "unevaluatedItems" if modern => 91,
        _ => return None,
    })
}

/// One `required` name in an object closed by `additionalProperties: false`
/// with `properties` and no `patternProperties`: the crate checks it with the
/// closed object, so it is reported right after `additionalProperties`.
fn closed_single(obj: &Map<String, Value>, required: &Value) -> bool {
    required.as_array().is_some_and(|r| r.len() == 1)
        && obj.get("additionalProperties") == Some(&Value::Bool(false))
        && obj.contains_key("properties")
        && !obj.contains_key("patternProperties")
}

impl<'v, 'i> Eval<'v, 'i> {
    /// A fresh evaluation over `ix`, with `steps` to spend.
    pub(crate) fn new(ix: &'v Index, collect: bool, steps: u64) -> Self {
        Eval {
            ix,
            scope: vec![0],
            collect,
            errors: Vec::new(),
            path: Vec::new(),
            depth: 0,
            active: Vec::new(),
            low: usize::MAX,
            memo: HashMap::new(),
            hashes: HashMap::new(),
            budget: Budget::new(steps),
            spent_at: None,
        }
    }

    /// Take `n` steps; once the budget is spent, record where and answer `false`.
    pub(super) fn charge(&mut self, n: u64) -> bool {
        if self.budget.charge(n) {
            return true;
        }
        self.out_of_steps();
        false
    }

    /// Whether the budget is spent.
    pub(super) fn spent(&self) -> bool {
        self.spent_at.is_some()
    }

    /// The budget is spent here (the first place is kept).
    pub(super) fn out_of_steps(&mut self) {
        if self.spent_at.is_none() {
            self.spent_at = Some(self.pointer());
        }
        self.budget.left = 0;
    }

    /// The canonical hash of `v` (`None`: the budget ran out).
    pub(super) fn hash(&mut self, v: &Value) -> Option<u64> {
        let h = hash_within(v, &mut self.budget);
        if h.is_none() {
            self.out_of_steps();
        }
        h
    }

    /// [`Eval::hash`] of a value hashed again and again (an `enum` option), once per evaluation.
    pub(super) fn hash_once(&mut self, v: &Value) -> Option<u64> {
        if let Some(&h) = self.hashes.get(&addr(v)) {
            return Some(h);
        }
        let h = self.hash(v)?;
        self.hashes.insert(addr(v), h);
        Some(h)
    }

    /// JSON equality of `a` and `b`, charged (`None`: the budget ran out).
    pub(super) fn equal(&mut self, a: &Value, b: &Value) -> Option<bool> {
        let same = super::budget::equal_within(a, b, &mut self.budget);
        if same.is_none() {
            self.out_of_steps();
        }
        same
    }

    pub(super) fn pointer(&self) -> String {
        let mut out = String::new();
        for s in &self.path {
            out.push('/');
            match s {
                Seg::Key(k) => out.push_str(&escape_token(k)),
                Seg::Index(i) => out.push_str(&i.to_string()),
            }
        }
        out
    }

    /// Record a failure (the message is only built when collecting).
    pub(super) fn fail(&mut self, kind: ErrorKind, message: impl FnOnce() -> String) -> bool {
        if self.collect {
            let pointer = self.pointer();
            let message = message();
            // A message quotes the instance: its length is work done.
            if self.charge(1 + message.len() as u64 / super::budget::BYTES_PER_STEP) {
                self.errors.push(ValidationError {
                    pointer,
                    kind,
                    message,
                });
            }
        }
        false
    }

    fn draft(&self) -> Draft {
        let r = self.scope.last().copied().unwrap_or(0);
        self.ix
            .resources
            .get(r)
            .map_or(Draft::Draft202012, |r| r.draft)
    }

    /// Evaluate `s` against `inst`; on success its annotations join `out`.
    pub(crate) fn eval(&mut self, s: &'v Value, inst: &'i Value, out: &mut Ann<'i>) -> bool {
        let obj = match s {
            Value::Object(o) => o,
            Value::Bool(false) => {
                return self.fail(ErrorKind::Other, || {
                    format!("False schema does not allow {inst}")
                })
            }
            _ => return true,
        };
        if !self.charge(EVAL_STEPS) {
            return false;
        }
        if self.depth >= MAX_DEPTH {
            // Cut here: no enclosing reference's result may be memoised.
            self.low = 0;
            return self.fail(ErrorKind::Other, || {
                format!("the schema and instance are nested too deeply to validate (more than {MAX_DEPTH} schemas deep)")
            });
        }
        let entered = match self.ix.roots.get(&addr(s)) {
            Some(&r) if self.scope.last() != Some(&r) => {
                self.scope.push(r);
                true
            }
            _ => false,
        };
        self.depth += 1;
        let mut local = Ann::default();
        let ok = self.keywords(obj, s, inst, &mut local);
        self.depth -= 1;
        if entered {
            self.scope.pop();
        }
        if ok {
            out.merge(local);
        }
        ok
    }

    /// Evaluate without reporting (for `anyOf`, `not`, `if`…).
    pub(super) fn quietly(&mut self, s: &'v Value, inst: &'i Value, out: &mut Ann<'i>) -> bool {
        let was = std::mem::replace(&mut self.collect, false);
        let ok = self.eval(s, inst, out);
        self.collect = was;
        ok
    }

    /// Evaluate `s` against a child of the instance.
    pub(super) fn child(
        &mut self,
        seg: Seg<'i>,
        s: &'v Value,
        inst: &'i Value,
        out: &mut Ann<'i>,
    ) -> bool {
        self.path.push(seg);
        let ok = self.eval(s, inst, out);
        self.path.pop();
        ok
    }

    fn keywords(
        &mut self,
        obj: &'v Map<String, Value>,
        s: &'v Value,
        inst: &'i Value,
        ann: &mut Ann<'i>,
    ) -> bool {
        let draft = self.draft();
        if draft <= Draft::Draft7 && obj.contains_key("$ref") {
            return self.reference(s, inst, ann);
        }
        let mut keys: Vec<(u16, &'v str, &'v Value)> = obj
            .iter()
            .filter_map(|(k, v)| priority(k, draft).map(|p| (u16::from(p) * 2, k.as_str(), v)))
            .map(|(p, k, v)| {
                // Right after `additionalProperties` (42).
                let closed = k == "required" && closed_single(obj, v);
                (if closed { 85 } else { p }, k, v)
            })
            .collect();
        keys.sort_by_key(|k| k.0);
        let mut ok = true;
        for (_, k, v) in keys {
            ok &= self.keyword(k, v, obj, s, inst, ann, draft);
            if self.spent() {
                return false;
            }
            if !ok && !self.collect {
                return false;
            }
        }
        ok
    }

    #[allow(clippy::too_many_arguments)]
    fn keyword(
        &mut self,
        k: &'v str,
        v: &'v Value,
        obj: &'v Map<String, Value>,
        s: &'v Value,
        inst: &'i Value,
        ann: &mut Ann<'i>,
        draft: Draft,
    ) -> bool {
        match k {
            "$ref" => self.reference(s, inst, ann),
            "$dynamicRef" | "$recursiveRef" => self.dynamic_reference(s, inst, ann),
            "allOf" | "anyOf" | "oneOf" | "not" | "if" => self.logic(k, v, obj, inst, ann),
            "properties"
            | "patternProperties"
            | "additionalProperties"
            | "propertyNames"
            | "dependencies"
            | "dependentSchemas"
            | "dependentRequired"
            | "required"
            | "unevaluatedProperties"
            | "minProperties"
            | "maxProperties" => self.object(k, v, obj, inst, ann),
            "items" | "prefixItems" | "additionalItems" | "contains" | "unevaluatedItems"
            | "minItems" | "maxItems" | "uniqueItems" => self.array(k, v, obj, inst, ann, draft),
            _ => self.assertion(k, v, obj, inst, draft),
        }
    }

    fn reference(&mut self, s: &'v Value, inst: &'i Value, ann: &mut Ann<'i>) -> bool {
        let Some(t) = self.ix.refs.get(&addr(s)) else {
            return true;
        };
        self.enter(t.resource, &t.loc, inst, ann)
    }

    /// Evaluate the schema at `loc` with resource `res` entered.
    fn enter(
        &mut self,
        res: usize,
        loc: &super::index::Loc,
        inst: &'i Value,
        ann: &mut Ann<'i>,
    ) -> bool {
        let Some(target) = self.ix.get(loc) else {
            return true;
        };
        // A reference cycle that consumes nothing of the instance adds no
        // constraint (as the `jsonschema` crate has it): it holds.
        let key = (addr(target), addr(inst));
        if let Some(at) = self.active.iter().position(|k| *k == key) {
            self.low = self.low.min(at);
            return true;
        }
        let pushed = self.scope.last() != Some(&res);
        if pushed {
            self.scope.push(res);
        }
        let memo_key = (key.0, key.1, self.collect, self.scope_key());
        let ok = match self.memo.get(&memo_key) {
            Some(m) => {
                let cost = 1 + m.ann.steps() + EVAL_STEPS * m.errors.len() as u64;
                let (ok, local, errors) = (m.ok, m.ann.clone(), m.errors.clone());
                if self.charge(cost) {
                    self.errors.extend(errors);
                    if ok {
                        ann.merge(local);
                    }
                }
                ok
            }
            None => self.follow(key, memo_key, target, inst, ann),
        };
        if pushed {
            self.scope.pop();
        }
        ok
    }

    /// Evaluate a reference's target for the first time, and memoise the
    /// outcome unless it assumed a cycle through an enclosing reference.
    fn follow(
        &mut self,
        key: (usize, usize),
        memo_key: MemoKey,
        target: &'v Value,
        inst: &'i Value,
        ann: &mut Ann<'i>,
    ) -> bool {
        let level = self.active.len();
        let outer_low = std::mem::replace(&mut self.low, usize::MAX);
        let first_error = self.errors.len();
        self.active.push(key);
        let mut local = Ann::default();
        let ok = self.eval(target, inst, &mut local);
        self.active.pop();
        if self.low >= level && !self.spent() && self.charge(1 + local.steps()) {
            let errors = self.errors.get(first_error..).unwrap_or_default().to_vec();
            let ann = local.clone();
            self.memo.insert(memo_key, Memo { ok, ann, errors });
        }
        self.low = outer_low.min(self.low);
        if ok {
            ann.merge(local);
        }
        ok
    }

    /// What of the dynamic scope a result may depend on: the innermost
    /// resource, and the whole scope when the schema has dynamic references.
    fn scope_key(&self) -> u64 {
        let top = self.scope.last().copied().unwrap_or(0) as u64;
        if self.ix.dyn_refs.is_empty() {
            return top;
        }
        let mut h = std::collections::hash_map::DefaultHasher::new();
        std::hash::Hash::hash(&self.scope, &mut h);
        std::hash::Hasher::finish(&h)
    }

    fn dynamic_reference(&mut self, s: &'v Value, inst: &'i Value, ann: &mut Ann<'i>) -> bool {
        let Some(t) = self.ix.dyn_refs.get(&addr(s)) else {
            return true;
        };
        let (mut res, mut loc) = (t.resource, t.loc.clone());
        let resources = &self.ix.resources;
        if let Some(name) = &t.dynamic {
            // 2020-12: the outermost resource in scope with that dynamic anchor.
            if let Some(&r) = self
                .scope
                .iter()
                .find(|&&r| resources[r].dynamic.contains(name))
            {
                if let Some(p) = resources[r].anchors.get(name) {
                    res = r;
                    loc = super::index::Loc {
                        doc: resources[r].loc.doc,
                        ptr: p.clone(),
                    };
                }
            }
        } else if self.draft() == Draft::Draft201909 && resources[res].recursive {
            // 2019-09: the outermost of the innermost run of recursive anchors.
            for &r in self.scope.iter().rev() {
                if !resources[r].recursive {
                    break;
                }
                res = r;
                loc = resources[r].loc.clone();
            }
        }
        self.enter(res, &loc, inst, ann)
    }

    fn logic(
        &mut self,
        k: &'v str,
        v: &'v Value,
        obj: &'v Map<String, Value>,
        inst: &'i Value,
        ann: &mut Ann<'i>,
    ) -> bool {
        let subs = v.as_array().map(Vec::as_slice).unwrap_or_default();
        match k {
            "allOf" => {
                let mut ok = true;
                for sub in subs {
                    ok &= self.eval(sub, inst, ann);
                    if !ok && !self.collect {
                        return false;
                    }
                }
                ok
            }
            "anyOf" => {
                let mut any = false;
                for sub in subs {
                    any |= self.quietly(sub, inst, ann);
                }
                any || self.fail(ErrorKind::Other, || {
                    format!("{inst} is not valid under any of the schemas listed in the 'anyOf' keyword")
                })
            }
            "oneOf" => {
                let mut valid = 0;
                let mut first = Ann::default();
                for sub in subs {
                    let mut a = Ann::default();
                    if self.quietly(sub, inst, &mut a) {
                        valid += 1;
                        first.merge(a);
                    }
                }
                match valid {
                    1 => {
                        ann.merge(first);
                        true
                    }
                    0 => self.fail(ErrorKind::Other, || {
                        format!("{inst} is not valid under any of the schemas listed in the 'oneOf' keyword")
                    }),
                    _ => self.fail(ErrorKind::Other, || {
                        format!("{inst} is valid under more than one of the schemas listed in the 'oneOf' keyword")
                    }),
                }
            }
            "not" => {
                !self.quietly(v, inst, &mut Ann::default())
                    || self.fail(ErrorKind::Other, || {
                        format!("{v} is not allowed for {inst}")
                    })
            }
            _ => {
                // `if`: `then` or `else` decides.
                let mut a = Ann::default();
                let branch = if self.quietly(v, inst, &mut a) {
                    ann.merge(a);
                    obj.get("then")
                } else {
                    obj.get("else")
                };
                branch.is_none_or(|b| self.eval(b, inst, ann))
            }
        }
    }
}
