//! The index as a snapshot keeps it: everything indexing computed (postings,
//! term list, length sums, exact-name keys, argument-fit kinds, schema field
//! names, spaced names, provider words), so a restore re-tokenises nothing.
//!
//! The tools are not in the image: the snapshot keeps each once (the
//! registry's descriptors) and hands them back by slot to
//! [`SearchIndex::from_image`]. Look-up maps derived from what is kept (term
//! → id, name → slot, schema → kinds) and the length norms are rebuilt there,
//! in one pass each. An image that does not fit its tools is refused.

use super::fit::Fit;
use super::index::SearchIndex;
use super::map::Map;
use super::mention::Mentions;
use super::postings::{Store, StoreImage};
use super::provider::Providers;
use holaryn_model::{Blob, Pack, ToolDescriptor};
use std::sync::Arc;

/// A [`SearchIndex`] without its tools (see the module header).
#[derive(Debug, Clone)]
pub struct IndexImage {
    store: StoreImage,
    kinds: Vec<Fit>,
    kind_docs: Vec<Vec<u32>>,
    field_docs: Map<String, Vec<u32>>,
    mentions: Mentions,
    providers: Providers,
}

holaryn_model::packed!(IndexImage {
    store,
    kinds,
    kind_docs,
    field_docs,
    mentions,
    providers,
});

impl SearchIndex {
    /// Write the index as [`IndexImage`] reads it back (its `packed!`
    /// order, straight from the index), and return the tool of each slot
    /// (`None`: a free slot), to be handed back to [`SearchIndex::from_image`].
    pub fn pack_image(&self, out: &mut Blob) -> Vec<Option<&Arc<ToolDescriptor>>> {
        self.store.pack_image(out);
        self.kinds.pack(out);
        self.kind_docs.pack(out);
        self.field_docs.pack(out);
        self.mentions.pack(out);
        self.providers.pack(out);
        (0..self.slots()).map(|s| self.tool(s)).collect()
    }

    /// The index an [`IndexImage`] keeps, with the tool of each slot as
    /// [`SearchIndex::pack_image`] listed them; it ranks exactly as the index
    /// the image was taken of. Refused (with what does not fit) when the
    /// image names a slot its tools do not have.
    pub fn from_image(
        image: IndexImage,
        tools: &[Option<Arc<ToolDescriptor>>],
    ) -> Result<SearchIndex, &'static str> {
        let slots = tools.len();
        let within = |docs: &[u32]| docs.iter().all(|d| (*d as usize) < slots);
        if image.kinds.len() > slots
            || image.kind_docs.len() > super::entities::KINDS.len()
            || !image.kind_docs.iter().all(|d| within(d))
            || !image.field_docs.values().all(|d| within(d))
            || !image.mentions.within(slots)
        {
            return Err("an index list names a slot out of range");
        }
        let mut index = SearchIndex::default();
        index.store = Store::from_image(image.store, tools)?;
        for (tool, fit) in tools.iter().zip(&image.kinds) {
            if let Some(tool) = tool {
                index.kinds_memo.remember(tool, *fit);
            }
        }
        index.kinds = image.kinds;
        index.kind_docs = image.kind_docs;
        index.field_docs = image.field_docs;
        index.mentions = image.mentions;
        index.providers = image.providers;
        Ok(index)
    }
}
