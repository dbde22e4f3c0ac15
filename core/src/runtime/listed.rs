//! Tools registered from their JSON texts (the package's `registerTools` and
//! `syncProvider` elements): an element whose exact text a registered tool
//! came from is that tool unchanged ([`crate::Registry::listed`],
//! `core/src/registry/listings.rs`) and is not read, checked, hashed or
//! re-indexed again; every other element is read and registered as a spec
//! value is, with the same refusals.

use super::providers::ProviderSync;
use super::Runtime;
use crate::catalog::ProviderList;
use crate::registry::{Listing, Print, RegistryChange, Update};
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
        let (print, entry) = rt.registry.listed(text);
        // A name listed already, or a schema-less tool the runtime now refuses, is read again.
        let refused = |e: &crate::registry::Entry| {
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

    /// The spec read from the last text that was not unchanged.
    fn push(&mut self, spec: &ToolSpec) {
        self.seen.insert(spec.name.clone());
        self.prints.push(self.pending.take());
    }
}

/// The elements' texts of a JSON array's text (as `JSON.stringify` writes
/// it: `[` first, `]` last), each exactly as written, found in one pass over
/// the bytes without reading any value (each is read only if it changed);
/// `None` when the text is no such array.
pub fn list_elements(text: &str) -> Option<Vec<&str>> {
    let b = text.as_bytes();
    let last = b.len().checked_sub(1)?;
    if last == 0 || b[0] != b'[' || b[last] != b']' {
        return None;
    }
    let mut out = Vec::new();
    let (mut depth, mut start, mut i) = (0usize, 1usize, 1usize);
    while i < last {
        match b[i] {
            b'"' => {
                // A string: to its closing quote, stepping over escapes.
                i += 1;
                loop {
                    match b.get(i)? {
                        b'"' => break,
                        b'\\' => i += 2,
                        _ => i += 1,
                    }
                }
                if i >= last {
                    return None;
                }
            }
            b'[' | b'{' => depth += 1,
            b']' | b'}' => depth = depth.checked_sub(1)?,
            b',' if depth == 0 => {
                out.push(text.get(start..i)?);
                start = i + 1;
            }
            _ => {}
        }
        i += 1;
    }
    if depth != 0 {
        return None;
    }
    let tail = text.get(start..last)?;
    if !(tail.is_empty() && out.is_empty()) {
        out.push(tail);
    }
    Some(out)
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
            provider: Provider {
                id: provider_id.to_string(),
                kind: String::new(),
                display_name: provider_id.to_string(),
                version: None,
                origin: None,
            },
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
                    read.pending = None;
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
        for text in ["", "[", "]", "null", r#""[1]""#, r#"[1,"]"#, "[1]]", "[{]"] {
            assert_eq!(list_elements(text), None, "{text}");
        }
    }
}
