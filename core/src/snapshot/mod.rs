//! Snapshot and restore: a runtime's registry, search index and embeddings
//! as bytes, and back, without redoing what registration did.
//!
//! A snapshot keeps the registry (descriptors as validated, each distinct
//! schema once with its digest and dialect, versions and the hash tree
//! behind the registry version, provider statuses, skipped tools), the
//! search index as indexing left it (postings, terms, length sums, exact
//! keys, fit kinds, spaced names, provider words: `holaryn_search::IndexImage`),
//! the embedding model and tool vectors, and the runtime option that shaped
//! what registered (`requireInputSchema`). It keeps no session, session
//! policy, secret, handle, activity or working set. A restore reads each
//! distinct schema once (packed values, no JSON text) and rebuilds look-up
//! maps; it runs no meta-check, digest or tokenisation, and the version
//! tree is built only at the first change.
//!
//! The bytes are framed ([`frame`]): magic, format version, the writing
//! build's id (the host's: package version and wasm digest), the payload
//! (every part packed field by field, `holaryn_model::Pack`, in the order
//! its `packed!` list gives) and an XXH64 checksum. Anything else (another format or build,
//! any changed byte, a payload that does not decode or fit) is refused with
//! `snapshot.refused`, and the host registers its tools instead.
//!
//! Handles: sessions of a restored runtime start at a handle epoch above
//! every epoch of the runtime the snapshot was taken of, so a handle issued
//! before the snapshot is `handle.stale` in a session with the same secret
//! (and `handle.forged`, as any foreign handle, in one with another).

mod frame;

pub use frame::{FORMAT, MAGIC};

use crate::builtin::code_tool_entry;
use crate::embeddings::{EmbeddingStore, EmbeddingsImage};
use crate::registry::image::RegistryImage;
use crate::registry::Registry;
use crate::runtime::Runtime;
use holaryn_model::Result;
use holaryn_model::{Blob, Pack, Reader, Unpack};
use holaryn_search::{IndexImage, SearchIndex};
use std::sync::Arc;

/// An index slot's tool: the code tool (a built-in, not in the registry).
const BUILTIN: u32 = u32::MAX;
/// An index slot left free by a removed tool.
const FREE: u32 = u32::MAX - 1;

/// The payload.
struct Image {
    require_input_schema: bool,
    handle_epoch: u32,
    registry: RegistryImage,
    index: IndexImage,
    /// Per index slot: the tool's position in `registry.tools`, [`BUILTIN`] or [`FREE`].
    slots: Vec<u32>,
    embeddings: EmbeddingsImage,
}

holaryn_model::packed!(Image {
    require_input_schema,
    handle_epoch,
    registry,
    index,
    slots,
    embeddings,
});

impl Runtime {
    /// The runtime's registry, index and embeddings as bytes (see the
    /// module header), stamped with `build`, the host's build id.
    pub fn snapshot(&self, build: &str) -> Vec<u8> {
        // Written in the order of `Image`'s `packed!` list, which reads it back.
        let mut out = Blob::default();
        self.require_input_schema.pack(&mut out);
        let epochs = self.sessions.values().map(|s| s.handles.epoch());
        epochs
            .fold(self.handle_epoch, u32::max)
            .saturating_add(1)
            .pack(&mut out);
        let registry = self.registry.image();
        registry.pack(&mut out);
        let tools = self.index.pack_image(&mut out);
        // Registry tools are kept in name order: a slot's tool is found by its name's position.
        let at = |name: &str| {
            registry
                .tools
                .binary_search_by(|t| t.name.as_str().cmp(name))
        };
        let builtin = &self.code_tool.descriptor.name;
        let slots: Vec<u32> = (tools.iter())
            .map(|t| match t {
                None => FREE,
                Some(t) if t.name == *builtin => BUILTIN,
                Some(t) => at(&t.name).map_or(FREE, |i| i as u32),
            })
            .collect();
        slots.pack(&mut out);
        self.embeddings.image().pack(&mut out);
        frame::frame(build, &out.0)
    }

    /// The runtime a snapshot written by `build` keeps, with no session;
    /// refused with `snapshot.refused` (see the module header), also when
    /// the host asks for a `require_input_schema` other than the one the
    /// snapshot's tools were registered under.
    pub fn restore(
        bytes: &[u8],
        build: &str,
        require_input_schema: Option<bool>,
    ) -> Result<Runtime> {
        let payload = frame::unframe(bytes, build)?;
        let bad = |why: String| {
            frame::refused(
                "payload",
                format!("the snapshot's payload does not fit this build: {why}"),
            )
        };
        let mut r = Reader::new(payload);
        let image = Image::unpack(&mut r)
            .filter(|_| r.done())
            .ok_or_else(|| bad("it does not read back whole".into()))?;
        if require_input_schema.is_some_and(|r| r != image.require_input_schema) {
            return Err(frame::refused(
                "requireInputSchema",
                format!(
                    "the snapshot's tools were registered with requireInputSchema {}",
                    image.require_input_schema
                ),
            ));
        }
        let registry = Registry::from_image(image.registry).map_err(bad)?;
        let code_tool = code_tool_entry();
        let entries: Vec<_> = registry.entries().map(|e| e.descriptor.clone()).collect();
        let mut tools = Vec::with_capacity(image.slots.len());
        let mut seen = vec![false; entries.len()];
        for s in &image.slots {
            tools.push(match *s {
                FREE => None,
                BUILTIN => Some(code_tool.descriptor.clone()),
                i => {
                    let i = i as usize;
                    match (entries.get(i), seen.get_mut(i)) {
                        (Some(d), Some(seen)) if !*seen => {
                            *seen = true;
                            Some(Arc::clone(d))
                        }
                        _ => return Err(bad("an index slot names no tool, or one twice".into())),
                    }
                }
            });
        }
        if seen.contains(&false) {
            return Err(bad("a registered tool is not in the index".into()));
        }
        let index = SearchIndex::from_image(image.index, &tools).map_err(|e| bad(e.into()))?;
        let embeddings = EmbeddingStore::from_image(image.embeddings).map_err(|e| bad(e.into()))?;
        let mut rt = Runtime::new();
        rt.registry = registry;
        rt.code_tool = code_tool;
        rt.index = index;
        rt.require_input_schema = image.require_input_schema;
        rt.embeddings = embeddings;
        rt.handle_epoch = image.handle_epoch;
        Ok(rt)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Bytes with a valid frame around a payload this build did not write
    /// (what only a forger or a bug makes) are refused, never a panic.
    #[test]
    fn a_payload_that_does_not_fit_is_refused() {
        let mut rt = Runtime::new();
        let tool = serde_json::json!({"name": "t", "source": "native", "provider": {"id": "p"}});
        assert!(rt.register_values(&[tool], 0).is_ok());
        let good = rt.snapshot("b");
        let head = MAGIC.len() + 8 + 1;
        let payload = &good[head..good.len() - 8];
        let cuts = [
            0,
            1,
            payload.len() / 3,
            payload.len() / 2,
            payload.len() - 1,
        ];
        let mut bad: Vec<Vec<u8>> = cuts.iter().map(|n| payload[..*n].to_vec()).collect();
        bad.push([payload, &[0]].concat());
        for at in (0..payload.len()).step_by(7) {
            let mut p = payload.to_vec();
            p[at] = p[at].wrapping_add(0x41);
            bad.push(p);
        }
        for p in bad {
            // Some changes still read back (a changed letter); none may panic,
            // and a refusal names the payload.
            if let Err(e) = Runtime::restore(&frame::frame("b", &p), "b", None) {
                assert_eq!(e.field.as_deref(), Some("payload"));
            }
        }
    }
}
