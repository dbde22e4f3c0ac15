//! The keywords that look at an object's members, an array's items, or a
//! single value (type, numbers, strings, `enum`/`const`, `format`, content).

use super::draft::Draft;
use super::error::{enum_message, plural, quoted_list, unexpected_suffix, ErrorKind};
use super::eval::{Ann, Eval, Seg};
use super::value::{base64_decode, cmp_numbers, count, has_type, is_multiple_of};
use holaryn_pattern::PatternError;
use serde_json::{Map, Value};
use std::cmp::Ordering;
use std::collections::{HashMap, HashSet};

/// `enum` options compared one by one; longer lists are compared by hash first.
const DIRECT_OPTIONS: usize = 4;

impl<'v, 'i> Eval<'v, 'i> {
    /// Whether `pattern` matches `text` (the instance's value here); `None`
    /// when the search cannot decide, within its own budget or what is left
    /// of the validation's: the validation is then spent (refused undecided,
    /// never read as "no match", which `not` would turn into a pass).
    fn matches(&mut self, pattern: &str, text: &str) -> Option<bool> {
        let p = self.ix.patterns.get(pattern)?;
        match p.matches_within(text, &mut self.budget.left) {
            Ok(found) => Some(found),
            Err(PatternError::Exhausted) => {
                self.out_of_steps();
                None
            }
        }
    }

    /// [`Eval::matches`] for member name `key` of the instance (spent at the member's pointer).
    fn member_matches(&mut self, pattern: &str, key: &'i str) -> Option<bool> {
        self.path.push(Seg::Key(key));
        let found = self.matches(pattern, key);
        self.path.pop();
        found
    }

    /// Whether `inst` is one of `options` (`None`: the budget ran out): a
    /// few are compared directly, more by canonical hash first.
    fn one_of(&mut self, options: &'v [Value], inst: &'i Value) -> Option<bool> {
        if options.len() <= DIRECT_OPTIONS {
            for o in options {
                if self.equal(o, inst)? {
                    return Some(true);
                }
            }
            return Some(false);
        }
        let h = self.hash(inst)?;
        for o in options {
            if self.hash_once(o)? == h && self.equal(o, inst)? {
                return Some(true);
            }
        }
        Some(false)
    }

    /// Whether two items of `items` are equal: each hashed once, compared on a hash collision.
    fn has_duplicates(&mut self, items: &'i [Value]) -> Option<bool> {
        let mut hashes: Vec<u64> = Vec::with_capacity(items.len());
        let mut first: HashMap<u64, usize> = HashMap::with_capacity(items.len());
        for (i, item) in items.iter().enumerate() {
            let h = self.hash(item)?;
            hashes.push(h);
            let Some(&j) = first.get(&h) else {
                first.insert(h, i);
                continue;
            };
            // Almost always a duplicate; else every earlier item of that hash.
            for (k, other) in items[j..i].iter().enumerate() {
                if hashes[j + k] == h && self.equal(other, item)? {
                    return Some(true);
                }
            }
        }
        Some(false)
    }

    pub(super) fn object(
        &mut self,
        k: &'v str,
        v: &'v Value,
        obj: &'v Map<String, Value>,
        inst: &'i Value,
        ann: &mut Ann<'i>,
    ) -> bool {
        let Value::Object(map) = inst else {
            return true;
        };
        let mut ok = true;
        match (k, v) {
            ("properties", Value::Object(props)) => {
                // The crate's order: the instance's, unless a small `properties`
                // meets an object with many more members.
                let schema_order = props.len() < 15 && map.len() > props.len() * 4;
                let pairs: Vec<(&'i String, &'i Value, &'v Value)> = if schema_order {
                    props
                        .iter()
                        .filter_map(|(n, sub)| map.get_key_value(n).map(|(k, v)| (k, v, sub)))
                        .collect()
                } else {
                    map.iter()
                        .filter_map(|(k, v)| props.get(k).map(|sub| (k, v, sub)))
                        .collect()
                };
                for (key, val, sub) in pairs {
                    ok &= self.child(Seg::Key(key), sub, val, &mut Ann::default());
                    ann.props.push(key);
                    if !ok && !self.collect {
                        return false;
                    }
                }
            }
            ("patternProperties", Value::Object(pats)) => {
                for (key, val) in map {
                    for (p, sub) in pats {
                        let Some(hit) = self.member_matches(p, key) else {
                            return false;
                        };
                        if hit {
                            ok &= self.child(Seg::Key(key), sub, val, &mut Ann::default());
                            ann.props.push(key);
                            if !ok && !self.collect {
                                return false;
                            }
                        }
                    }
                }
            }
            ("additionalProperties", sub) => {
                let props = obj.get("properties").and_then(Value::as_object);
                let pats = obj.get("patternProperties").and_then(Value::as_object);
                let mut extra: Vec<(&'i String, &'i Value)> = Vec::new();
                for (key, val) in map {
                    if props.is_some_and(|p| p.contains_key(key)) {
                        continue;
                    }
                    // Undecided keys are refused by `patternProperties`.
                    let patterned = pats.is_some_and(|p| {
                        p.keys().any(|p| self.member_matches(p, key) != Some(false))
                    });
                    if self.spent() {
                        return false;
                    }
                    if !patterned {
                        extra.push((key, val));
                    }
                }
                if *sub == Value::Bool(false) && !extra.is_empty() {
                    let names: Vec<String> = extra.iter().map(|(k, _)| (*k).clone()).collect();
                    return self.fail(
                        ErrorKind::AdditionalProperties {
                            unexpected: names.clone(),
                        },
                        || {
                            format!(
                                "Additional properties are not allowed ({}{}",
                                quoted_list(&names),
                                unexpected_suffix(names.len())
                            )
                        },
                    );
                }
                for (key, val) in extra {
                    ok &= self.child(Seg::Key(key), sub, val, &mut Ann::default());
                    if !ok && !self.collect {
                        return false;
                    }
                }
                ann.all_props = true;
            }
            ("unevaluatedProperties", sub) => {
                let seen: HashSet<&str> = ann.props.iter().copied().collect();
                let extra: Vec<(&'i String, &'i Value)> = map
                    .iter()
                    .filter(|(key, _)| !ann.all_props && !seen.contains(key.as_str()))
                    .collect();
                let mut refused = Vec::new();
                for (key, val) in extra {
                    if !self.quietly_child(Seg::Key(key), sub, val) {
                        refused.push(key.clone());
                    }
                }
                if !self.unevaluated("properties", &refused) {
                    return false;
                }
                ann.all_props = true;
            }
            ("propertyNames", sub) => {
                for key in map.keys() {
                    let name = Value::String(key.clone());
                    let mut inner = Eval::new(self.ix, self.collect, self.budget.left);
                    inner.scope = self.scope.clone();
                    let valid = inner.eval(sub, &name, &mut Ann::default());
                    self.budget.left = inner.budget.left;
                    if inner.spent() {
                        self.path.push(Seg::Key(key));
                        self.out_of_steps();
                        self.path.pop();
                        return false;
                    }
                    if !valid {
                        let why = inner.errors.into_iter().next().map(|e| e.message);
                        ok = self.fail(ErrorKind::Other, || why.unwrap_or_default());
                        if !self.collect {
                            return false;
                        }
                    }
                }
            }
            ("required", Value::Array(names)) => {
                for n in names.iter().filter_map(Value::as_str) {
                    if !map.contains_key(n) {
                        ok = self.fail(ErrorKind::Required, || {
                            format!("{} is a required property", Value::from(n))
                        });
                        if !self.collect {
                            return false;
                        }
                    }
                }
            }
            ("dependencies" | "dependentRequired" | "dependentSchemas", Value::Object(deps)) => {
                for (name, dep) in deps {
                    if !map.contains_key(name) {
                        continue;
                    }
                    ok &= match dep {
                        Value::Array(_) if k != "dependentSchemas" => {
                            self.object("required", dep, obj, inst, ann)
                        }
                        Value::Object(_) | Value::Bool(_) if k != "dependentRequired" => {
                            self.eval(dep, inst, ann)
                        }
                        _ => true,
                    };
                    if !ok && !self.collect {
                        return false;
                    }
                }
            }
            ("minProperties" | "maxProperties", limit) => {
                let words = ["has less than", "has more than"];
                let min = k == "minProperties";
                return self.bound(
                    inst,
                    min,
                    map.len(),
                    limit,
                    words,
                    ("property", "properties"),
                );
            }
            _ => {}
        }
        ok
    }

    /// `unevaluated{Properties,Items}` refused these (none: it holds).
    fn unevaluated(&mut self, what: &str, refused: &[String]) -> bool {
        refused.is_empty()
            || self.fail(ErrorKind::Other, || {
                format!(
                    "Unevaluated {what} are not allowed ({}{}",
                    quoted_list(refused),
                    unexpected_suffix(refused.len())
                )
            })
    }

    /// `min*`/`max*`: `len` against the keyword's `limit`, worded `{inst} {word} {n} {unit}`.
    fn bound(
        &mut self,
        inst: &Value,
        min: bool,
        len: usize,
        limit: &Value,
        words: [&str; 2],
        unit: (&'static str, &'static str),
    ) -> bool {
        let Some(n) = count(limit) else { return true };
        let len = len as u64;
        let (bad, word) = if min {
            (len < n, words[0])
        } else {
            (len > n, words[1])
        };
        !bad || self.fail(ErrorKind::Other, || {
            format!("{inst} {word} {n} {}", plural(n, unit.0, unit.1))
        })
    }

    fn quietly_child(&mut self, seg: Seg<'i>, s: &'v Value, inst: &'i Value) -> bool {
        let was = std::mem::replace(&mut self.collect, false);
        let ok = self.child(seg, s, inst, &mut Ann::default());
        self.collect = was;
        ok
    }

    pub(super) fn array(
        &mut self,
        k: &'v str,
        v: &'v Value,
        obj: &'v Map<String, Value>,
        inst: &'i Value,
        ann: &mut Ann<'i>,
        draft: Draft,
    ) -> bool {
        let Value::Array(items) = inst else {
            return true;
        };
        let mut ok = true;
        let each = |me: &mut Self, from: usize, sub: &'v Value| -> bool {
            let mut ok = true;
            for (i, item) in items.iter().enumerate().skip(from) {
                ok &= me.child(Seg::Index(i), sub, item, &mut Ann::default());
                if !ok && !me.collect {
                    return false;
                }
            }
            ok
        };
        match (k, v) {
            ("items" | "prefixItems", Value::Array(tuple))
                if k == "prefixItems" || draft < Draft::Draft202012 =>
            {
                for (i, (item, sub)) in items.iter().zip(tuple).enumerate() {
                    ok &= self.child(Seg::Index(i), sub, item, &mut Ann::default());
                    if !ok && !self.collect {
                        return false;
                    }
                }
                ann.items = ann.items.max(tuple.len().min(items.len()));
            }
            ("items", sub) if !sub.is_array() => {
                let from = if draft == Draft::Draft202012 {
                    obj.get("prefixItems")
                        .and_then(Value::as_array)
                        .map_or(0, Vec::len)
                } else {
                    0
                };
                ok = each(self, from, sub);
                ann.all_items = true;
            }
            ("additionalItems", sub) => {
                let Some(Value::Array(tuple)) = obj.get("items") else {
                    return true;
                };
                if *sub == Value::Bool(false) && items.len() > tuple.len() {
                    let rest: Vec<String> =
                        items[tuple.len()..].iter().map(Value::to_string).collect();
                    return self.fail(ErrorKind::Other, || {
                        format!(
                            "Additional items are not allowed ({}{}",
                            rest.join(", "),
                            unexpected_suffix(rest.len())
                        )
                    });
                }
                ok = each(self, tuple.len(), sub);
                ann.all_items = true;
            }
            ("unevaluatedItems", sub) => {
                let mut refused = Vec::new();
                let set: HashSet<usize> = ann.item_set.iter().copied().collect();
                let evaluated = |i: usize| ann.all_items || i < ann.items || set.contains(&i);
                for (i, item) in items.iter().enumerate() {
                    if !evaluated(i) && !self.quietly_child(Seg::Index(i), sub, item) {
                        refused.push(item.to_string());
                    }
                }
                if !self.unevaluated("items", &refused) {
                    return false;
                }
                ann.all_items = true;
            }
            ("contains", sub) => {
                let mut matched = Vec::new();
                for (i, item) in items.iter().enumerate() {
                    if self.quietly_child(Seg::Index(i), sub, item) {
                        matched.push(i);
                    }
                }
                let modern = draft >= Draft::Draft201909;
                let min = obj
                    .get("minContains")
                    .filter(|_| modern)
                    .and_then(count)
                    .unwrap_or(1);
                let max = obj.get("maxContains").filter(|_| modern).and_then(count);
                let n = matched.len() as u64;
                if n < min {
                    return self.fail(ErrorKind::Other, || {
                        if n == 0 {
                            format!("None of {inst} are valid under the given schema")
                        } else {
                            format!("{inst} contains fewer than {min} matching items")
                        }
                    });
                }
                if max.is_some_and(|m| n > m) {
                    return self.fail(ErrorKind::Other, || {
                        format!(
                            "{inst} contains more than {} matching items",
                            max.unwrap_or(0)
                        )
                    });
                }
                if draft == Draft::Draft202012 {
                    ann.item_set.extend(matched);
                }
            }
            ("minItems" | "maxItems", limit) => {
                let words = ["has less than", "has more than"];
                let min = k == "minItems";
                return self.bound(inst, min, items.len(), limit, words, ("item", "items"));
            }
            ("uniqueItems", Value::Bool(true)) => {
                let Some(dup) = self.has_duplicates(items) else {
                    return false;
                };
                if dup {
                    return self.fail(ErrorKind::Other, || {
                        format!("{inst} has non-unique elements")
                    });
                }
            }
            _ => {}
        }
        ok
    }

    pub(super) fn assertion(
        &mut self,
        k: &'v str,
        v: &'v Value,
        obj: &'v Map<String, Value>,
        inst: &'i Value,
        draft: Draft,
    ) -> bool {
        match (k, v, inst) {
            ("type", Value::String(t), _) => {
                has_type(inst, t, draft)
                    || self.fail(ErrorKind::Type, || format!("{inst} is not of type \"{t}\""))
            }
            ("type", Value::Array(ts), _) => {
                ts.iter()
                    .any(|t| t.as_str().is_some_and(|t| has_type(inst, t, draft)))
                    || self.fail(ErrorKind::Type, || type_message(inst, ts))
            }
            ("enum", Value::Array(options), _) => match self.one_of(options, inst) {
                None => false,
                Some(found) => found || self.fail(ErrorKind::Other, || enum_message(inst, options)),
            },
            ("const", c, _) => match self.one_of(std::slice::from_ref(c), inst) {
                None => false,
                Some(found) => found || self.fail(ErrorKind::Other, || format!("{c} was expected")),
            },
            (
                "minimum" | "maximum" | "exclusiveMinimum" | "exclusiveMaximum",
                Value::Number(limit),
                Value::Number(n),
            ) => {
                let ord = cmp_numbers(n, limit);
                let legacy_exclusive =
                    |key: &str| draft == Draft::Draft4 && obj.get(key) == Some(&Value::Bool(true));
                let (bad, what) = match k {
                    "minimum" if legacy_exclusive("exclusiveMinimum") => (
                        ord != Ordering::Greater,
                        "less than or equal to the minimum",
                    ),
                    "maximum" if legacy_exclusive("exclusiveMaximum") => (
                        ord != Ordering::Less,
                        "greater than or equal to the maximum",
                    ),
                    "minimum" => (ord == Ordering::Less, "less than the minimum"),
                    "maximum" => (ord == Ordering::Greater, "greater than the maximum"),
                    "exclusiveMinimum" => (
                        ord != Ordering::Greater,
                        "less than or equal to the minimum",
                    ),
                    _ => (
                        ord != Ordering::Less,
                        "greater than or equal to the maximum",
                    ),
                };
                !bad || self.fail(ErrorKind::Other, || format!("{inst} is {what} of {limit}"))
            }
            ("multipleOf", Value::Number(m), Value::Number(n)) => {
                is_multiple_of(n, m)
                    || self.fail(ErrorKind::Other, || {
                        format!("{inst} is not a multiple of {m}")
                    })
            }
            ("minLength" | "maxLength", limit, Value::String(s)) => {
                let words = ["is shorter than", "is longer than"];
                let min = k == "minLength";
                let len = s.chars().count();
                self.bound(inst, min, len, limit, words, ("character", "characters"))
            }
            ("pattern", Value::String(p), Value::String(s)) => {
                match self.matches(p, s) {
                    None => return !self.ix.patterns.contains_key(p.as_str()),
                    Some(true) => return true,
                    Some(false) => {}
                }
                self.fail(ErrorKind::Other, || {
                    format!("{inst} does not match \"{p}\"")
                })
            }
            ("format", Value::String(f), _) => {
                let d = draft.number();
                let asserted = super::format::asserted_by_default(d);
                !asserted
                    || super::format::check(d, f, inst) != Some(false)
                    || self.fail(ErrorKind::Other, || format!("{inst} is not a \"{f}\""))
            }
            ("contentEncoding", Value::String(e), Value::String(s)) if e == "base64" => {
                base64_decode(s).is_some()
                    || self.fail(ErrorKind::Other, || {
                        format!("{inst} is not compliant with \"{e}\" content encoding")
                    })
            }
            ("contentMediaType", Value::String(m), Value::String(s)) if m == "application/json" => {
                let decoded = match obj.get("contentEncoding").and_then(Value::as_str) {
                    Some("base64") => {
                        match base64_decode(s).and_then(|b| String::from_utf8(b).ok()) {
                            Some(text) => text,
                            None => return true,
                        }
                    }
                    _ => s.clone(),
                };
                serde_json::from_str::<Value>(&decoded).is_ok()
                    || self.fail(ErrorKind::Other, || {
                        format!("{inst} is not compliant with \"{m}\" media type")
                    })
            }
            _ => true,
        }
    }
}

/// `x is not of type "t"`, or `x is not of types "a", "b"` in the crate's canonical type order.
fn type_message(inst: &Value, types: &[Value]) -> String {
    const ORDER: [&str; 7] = [
        "null", "boolean", "integer", "number", "string", "array", "object",
    ];
    let names: Vec<&str> = types.iter().filter_map(Value::as_str).collect();
    if let [one] = names.as_slice() {
        return format!("{inst} is not of type \"{one}\"");
    }
    let sorted: Vec<String> = ORDER
        .iter()
        .filter(|t| names.contains(t))
        .map(|t| format!("\"{t}\""))
        .collect();
    format!("{inst} is not of types {}", sorted.join(", "))
}
