//! Tools registered from their JSON texts (the package's `registerTools` and
//! `syncProvider` elements): an element whose exact text a registered tool
//! came from is that tool unchanged ([`crate::Registry::listed`],
//! `core/src/registry/listings.rs`) and is not read, checked, hashed or
//! re-indexed again; every other element is read and registered as a spec
//! value is, with the same refusals.

use super::providers::ProviderSync;
use super::Runtime;
use crate::catalog::ProviderList;
use crate::registry::{Entry, Listing, Print, RegistryChange, Update};
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
        let listed = rt.registry.listed(text);
        self.unchanged_as(rt, listed)
    }

    /// [`Read::unchanged`] with the text's print and the tool that has it.
    pub(crate) fn unchanged_as(
        &mut self,
        rt: &Runtime,
        (print, entry): (Print, Option<&Entry>),
    ) -> bool {
        // A name listed already, or a schema-less tool the runtime now refuses, is read again.
        let refused = |e: &Entry| {
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

    /// The last text that was not unchanged is no spec.
    pub(crate) fn skip(&mut self) {
        self.pending = None;
    }

    /// The spec read from the last text that was not unchanged.
    pub(crate) fn push(&mut self, spec: &ToolSpec) {
        self.seen.insert(spec.name.clone());
        self.prints.push(self.pending.take());
    }
}

/// The elements' texts of a JSON array's text, each exactly as written,
/// found by one pass over the bytes without reading any value (each is read
/// only if it changed); `None` when the text is no array.
pub fn list_elements(text: &str) -> Option<Vec<&str>> {
    match top_level(text)? {
        TopLevel::Array(items) => Some(items),
        TopLevel::Object(_) => None,
    }
}

/// A JSON text's top-level array elements or object members (raw key with
/// its quotes, raw value), as written; the values are not read.
pub(crate) enum TopLevel<'a> {
    Array(Vec<&'a str>),
    Object(Vec<(&'a str, &'a str)>),
}

/// Split a JSON text's top level (see [`TopLevel`]); `None` when it is
/// neither an array nor an object, or is not well-formed at this level (the
/// caller then reads it whole, for the error a JSON reader gives).
pub(crate) fn top_level(text: &str) -> Option<TopLevel<'_>> {
    let b = text.as_bytes();
    let ws = |mut i: usize| {
        while matches!(b.get(i), Some(b' ' | b'\t' | b'\n' | b'\r')) {
            i += 1;
        }
        i
    };
    let open = ws(0);
    let (object, close) = match b.get(open)? {
        b'[' => (false, b']'),
        b'{' => (true, b'}'),
        _ => return None,
    };
    let (mut items, mut members) = (Vec::new(), Vec::new());
    let mut i = ws(open + 1);
    if b.get(i) == Some(&close) {
        i += 1;
    } else {
        loop {
            let key = if object {
                let k = skip_value(b, i).filter(|_| b[i] == b'"')?;
                let colon = ws(k);
                if b.get(colon) != Some(&b':') {
                    return None;
                }
                let key = text.get(i..k)?;
                i = ws(colon + 1);
                Some(key)
            } else {
                None
            };
            let end = skip_value(b, i)?;
            let value = text.get(i..end)?;
            match key {
                Some(k) => members.push((k, value)),
                None => items.push(value),
            }
            i = ws(end);
            match b.get(i)? {
                b',' => i = ws(i + 1),
                c if *c == close => {
                    i += 1;
                    break;
                }
                _ => return None,
            }
        }
    }
    if ws(i) != b.len() {
        return None;
    }
    Some(if object {
        TopLevel::Object(members)
    } else {
        TopLevel::Array(items)
    })
}

/// Nesting past which a text is read whole: a JSON reader's recursion limit
/// (128) counts the levels around an element too, so a deep element must
/// meet it there, as before, not on its own.
const MAX_SPLIT_DEPTH: usize = 100;

/// The end of the JSON value starting at `i` (a string, an array or object
/// by bracket depth, else a scalar up to a delimiter), not read.
fn skip_value(b: &[u8], mut i: usize) -> Option<usize> {
    let string_end = |mut i: usize| -> Option<usize> {
        // `i` is just past the opening quote.
        loop {
            match b.get(i)? {
                b'"' => return Some(i + 1),
                b'\\' => i += 2,
                _ => i += 1,
            }
        }
    };
    match b.get(i)? {
        b'"' => string_end(i + 1),
        b'[' | b'{' => {
            let mut depth = 0usize;
            loop {
                match b.get(i)? {
                    b'"' => {
                        i = string_end(i + 1)?;
                        continue;
                    }
                    b'[' | b'{' => {
                        depth += 1;
                        if depth > MAX_SPLIT_DEPTH {
                            return None;
                        }
                    }
                    b']' | b'}' => {
                        depth -= 1;
                        if depth == 0 {
                            return Some(i + 1);
                        }
                    }
                    _ => {}
                }
                i += 1;
            }
        }
        _ => {
            let start = i;
            while !matches!(
                b.get(i),
                None | Some(b',' | b']' | b'}' | b' ' | b'\t' | b'\n' | b'\r')
            ) {
                i += 1;
            }
            (i > start).then_some(i)
        }
    }
}

/// One element's JSON text as a spec: read straight into the spec, and only
/// when that fails through a value ([`parse_spec_owned`]), so that errors
/// (and the skipped row's listing) are the value path's, word for word.
fn read_spec(text: &str) -> Option<ToolSpec> {
    serde_json::from_str::<ToolSpec>(text)
        .ok()
        .filter(|spec| holaryn_model::Source::parse(&spec.source).is_some())
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
                let spec = match read_spec(text) {
                    Some(spec) => spec,
                    None => parse_spec_owned(read_value(text)?)?,
                };
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
            provider: Provider::bare(provider_id),
            specs: Vec::new(),
            skipped: Vec::new(),
            renamed: Vec::new(),
        };
        let mut read = Read::default();
        for (i, text) in texts.iter().enumerate() {
            if read.unchanged(self, text) {
                continue;
            }
            let spec = match read_spec(text) {
                Some(spec) => Ok(spec),
                None => {
                    let value = read_value(text)?;
                    let listing = Listing::of_value(i, &value, &list.provider);
                    parse_spec_owned(value).map_err(|e| listing.skip(&e))
                }
            };
            match spec {
                Ok(spec) => {
                    read.push(&spec);
                    list.specs.push(spec);
                }
                Err(skipped) => {
                    read.skip();
                    list.skipped.push(skipped);
                }
            }
        }
        self.sync_listed(list, read, now_ms)
    }
}

#[cfg(test)]
mod tests {
    use super::list_elements;
    use serde_json::Value;

    #[test]
    fn list_elements_are_the_arrays_elements_as_written() {
        let values = [
            r#"[]"#,
            r#"[1]"#,
            r#"[{"a":"],[{\"}","b":[1,{"c":"\\"}]},null,"x,y",[[]],{}]"#,
            r#"[{"name":"é ✓ 𝄞","d":"\u005d\"]"}]"#,
            " [ 1 ,\n {\"a\" : [ ] } , \"s\" , true,null ] \n",
        ];
        for text in values {
            let whole: Vec<Value> = serde_json::from_str(text).expect("JSON");
            let parts = list_elements(text).expect("an array");
            let each: Vec<Value> = parts
                .iter()
                .map(|p| serde_json::from_str(p).expect("element"))
                .collect();
            assert_eq!(each, whole, "{text}");
        }
        for text in [
            "", "[", "]", "null", r#""[1]""#, r#"[1,"]"#, "[1]]", "[{]", "[1 2]", "[1,]", "[,1]",
            "{}",
        ] {
            assert_eq!(list_elements(text), None, "{text}");
        }
    }
}
