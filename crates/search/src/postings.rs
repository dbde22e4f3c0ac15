//! The index's storage, kept incrementally: document slots, the vocabulary,
//! posting lists (raw per-field term counts, sorted by slot), the exact-name
//! keys and the length statistics BM25F normalises by.
//!
//! Adding, removing or replacing a tool touches only that tool's postings and
//! the sums it moves; nothing stored depends on the other documents, so any
//! sequence of changes leaves exactly the state a fresh build of the same
//! tools leaves (up to slot numbers and term ids, which ranking never reads).
//! The per-document length norms depend on the average lengths and are
//! re-derived by [`Store::refresh`] (one multiply-add per document and field).

use super::map::Map;
use super::text::{each_term, exact_key};
use holaryn_model::{Blob, Pack, Reader, SummarySpan, ToolDescriptor, Unpack};
use std::collections::BTreeMap;
use std::sync::Arc;

/// Number of indexed fields.
pub(super) const FIELDS: usize = 7;
/// One value per field.
type PerField<T> = [T; FIELDS];
/// Per-field weights.
pub(super) const WEIGHTS: [f32; FIELDS] = [3.0, 2.0, 1.0, 0.6, 1.2, 1.0, 0.5];
/// Per-field length normalisation.
pub(super) const B: [f32; FIELDS] = [0.3, 0.5, 0.75, 0.75, 0.3, 0.3, 0.0];
/// An exact-match key: (normalised key, boost, why).
pub(super) type ExactKey = (String, f32, &'static str);
/// A term count this large or larger lives in [`Store::big_tf`].
const TF_OVERFLOW: u8 = u8::MAX;

/// One document's occurrences of one term.
#[derive(Debug, Clone, Copy)]
pub(super) struct Posting {
    /// Slot of the document.
    pub doc: u32,
    /// Bit `f` set when field `f` holds the term.
    pub fields: u8,
    /// Count per field; [`TF_OVERFLOW`] means "see `big_tf`".
    tf: PerField<u8>,
}

/// One indexed tool.
#[derive(Debug, Clone)]
pub(super) struct Doc {
    /// The tool.
    pub tool: Arc<ToolDescriptor>,
    /// Terms per field.
    lens: [u32; FIELDS],
    /// Score multiplier (catalog-only entries rank a little lower).
    pub weight: f32,
    /// Where the tool's summary lies in its description.
    pub summary: SummarySpan,
}

/// The `why` texts of exact-name keys, by their index in a [`StoreImage`].
const WHYS: [&str; 3] = ["exact name", "exact provider/name", "alias"];

/// One exact-name key's documents, each `why` kept as its index in
/// [`WHYS`] and read straight back into the index's form.
#[derive(Debug, Clone)]
pub(crate) struct Hits(Vec<(u32, f32, &'static str)>);

/// Write one key's hits as [`Hits`] reads them.
fn pack_hits(hits: &[(u32, f32, &'static str)], out: &mut Blob) {
    out.varint(hits.len() as u64);
    for (doc, boost, why) in hits {
        doc.pack(out);
        boost.pack(out);
        out.0
            .push(WHYS.iter().position(|w| w == why).unwrap_or(0) as u8);
    }
}

impl Pack for Hits {
    fn pack(&self, out: &mut Blob) {
        pack_hits(&self.0, out);
    }
}

impl Unpack for Hits {
    fn unpack(r: &mut Reader<'_>) -> Option<Self> {
        let n = r.count()?;
        let mut out = Vec::with_capacity(n);
        for _ in 0..n {
            let (doc, boost) = (u32::unpack(r)?, f32::unpack(r)?);
            out.push((doc, boost, *WHYS.get(r.byte()? as usize)?));
        }
        Some(Hits(out))
    }
}

/// A [`Doc`] as a snapshot keeps it: all but the tool, which the snapshot
/// keeps once (the registry's copy) and hands back by slot.
#[derive(Debug, Clone)]
pub(crate) struct DocImage {
    lens: PerField<u32>,
    weight: f32,
    summary: SummarySpan,
}

/// A [`Store`] as a snapshot keeps it (`crate::image`): what indexing
/// computed, field by field; the look-up maps (`vocab`, `ids`, `by_name`)
/// are rebuilt from `terms` and the tools, the norms by one refresh.
#[derive(Debug, Clone)]
pub(crate) struct StoreImage {
    docs: Vec<Option<DocImage>>,
    free_docs: Vec<u32>,
    terms: Vec<String>,
    /// Every term's postings, packed ([`pack_postings`]).
    postings: Blob,
    free_terms: Vec<u32>,
    big_tf: Vec<((u32, u32), PerField<u16>)>,
    /// Exact-name key → (doc, boost, why).
    exact: Vec<(String, Hits)>,
    len_sum: PerField<u64>,
    live: usize,
}

holaryn_model::packed!(DocImage {
    lens,
    weight,
    summary
});
holaryn_model::packed!(StoreImage {
    docs,
    free_docs,
    terms,
    postings,
    free_terms,
    big_tf,
    exact,
    len_sum,
    live,
});

/// Slots, vocabulary, postings and statistics.
#[derive(Debug, Default, Clone)]
pub(super) struct Store {
    docs: Vec<Option<Doc>>,
    free_docs: Vec<u32>,
    by_name: Map<String, u32>,
    /// Term → id, in term order (prefix expansion walks it).
    pub vocab: BTreeMap<String, u32>,
    /// Term → id, for exact look-ups.
    ids: Map<String, u32>,
    /// Id → term (empty for a free id).
    terms: Vec<String>,
    postings: Vec<Vec<Posting>>,
    free_terms: Vec<u32>,
    /// Exact counts that do not fit a byte: (term, doc) → counts.
    big_tf: Map<(u32, u32), PerField<u16>>,
    /// Exact-name key → (doc, boost, why).
    pub exact: Map<String, Vec<(u32, f32, &'static str)>>,
    len_sum: PerField<u64>,
    live: usize,
    /// Per slot and field: `WEIGHTS[f] / norm` at the current average lengths.
    norms: Vec<[f32; FIELDS]>,
    stale: bool,
}

/// Every term's posting list in one byte string: per term its length, then
/// per posting the slot's distance from the previous one, the field mask and
/// one count byte per field in the mask (varints where numbers grow).
fn pack_postings(lists: &[Vec<Posting>]) -> Blob {
    let mut out = Blob(Vec::with_capacity(
        lists.iter().map(|l| 4 * l.len() + 1).sum(),
    ));
    for list in lists {
        out.varint(list.len() as u64);
        let mut last = 0u32;
        for p in list {
            out.varint(u64::from(p.doc - last));
            last = p.doc;
            out.0.push(p.fields);
            let mut mask = p.fields;
            while mask != 0 {
                out.0.push(p.tf[mask.trailing_zeros() as usize]);
                mask &= mask - 1;
            }
        }
    }
    out
}

/// The posting lists [`pack_postings`] packed, when they are `terms` lists
/// of ascending slots below `slots` and nothing is left over.
fn unpack_postings(blob: &Blob, terms: usize, slots: usize) -> Option<Vec<Vec<Posting>>> {
    let mut r = blob.reader();
    let mut lists = Vec::with_capacity(terms);
    for _ in 0..terms {
        let n = usize::try_from(r.varint()?).ok()?;
        let mut list = Vec::with_capacity(n.min(slots));
        let mut doc = 0u32;
        for i in 0..n {
            let step = u32::try_from(r.varint()?).ok()?;
            if i > 0 && step == 0 {
                return None;
            }
            doc = doc.checked_add(step)?;
            let fields = r.byte()?;
            if fields >> FIELDS != 0 || doc as usize >= slots {
                return None;
            }
            let mut tf = [0u8; FIELDS];
            let mut mask = fields;
            while mask != 0 {
                tf[mask.trailing_zeros() as usize] = r.byte()?;
                mask &= mask - 1;
            }
            list.push(Posting { doc, fields, tf });
        }
        lists.push(list);
    }
    r.done().then_some(lists)
}

impl Store {
    /// The store as a snapshot keeps it.
    /// Write the store as [`StoreImage`] reads it back (field by field in
    /// its `packed!` order, from the store itself: nothing is copied first).
    pub(crate) fn pack_image(&self, out: &mut Blob) {
        out.varint(self.docs.len() as u64);
        for d in &self.docs {
            match d {
                None => out.0.push(0),
                Some(d) => {
                    out.0.push(1);
                    d.lens.pack(out);
                    d.weight.pack(out);
                    d.summary.pack(out);
                }
            }
        }
        self.free_docs.pack(out);
        self.terms.pack(out);
        pack_postings(&self.postings).pack(out);
        self.free_terms.pack(out);
        out.varint(self.big_tf.len() as u64);
        for (key, tf) in &self.big_tf {
            key.pack(out);
            tf.pack(out);
        }
        out.varint(self.exact.len() as u64);
        for (key, hits) in &self.exact {
            key.pack(out);
            pack_hits(hits, out);
        }
        self.len_sum.pack(out);
        self.live.pack(out);
    }

    /// The store a snapshot kept, with the tool of each slot (`tools[slot]`);
    /// an image that does not fit its tools (a slot, term or doc out of
    /// range) is refused with what does not fit.
    pub(crate) fn from_image(
        image: StoreImage,
        tools: &[Option<Arc<ToolDescriptor>>],
    ) -> Result<Store, &'static str> {
        let slots = image.docs.len();
        let postings = unpack_postings(&image.postings, image.terms.len(), slots)
            .ok_or("the index's postings do not fit its terms and slots")?;
        if tools.len() != slots {
            return Err("the index's slots do not match its tools");
        }
        let mut docs = Vec::with_capacity(slots);
        let mut by_name = Map::with_capacity_and_hasher(slots, Default::default());
        for (slot, (d, tool)) in image.docs.into_iter().zip(tools).enumerate() {
            docs.push(match (d, tool) {
                (Some(d), Some(tool)) => {
                    by_name.insert(tool.name.clone(), slot as u32);
                    Some(Doc {
                        tool: tool.clone(),
                        lens: d.lens,
                        weight: d.weight,
                        summary: d.summary,
                    })
                }
                (None, None) => None,
                _ => return Err("an index slot and its tool do not match"),
            });
        }
        let in_range = |doc: u32| (doc as usize) < slots;
        if !image.free_docs.iter().all(|d| in_range(*d))
            || !(image.exact.iter()).all(|(_, e)| e.0.iter().all(|(d, _, _)| in_range(*d)))
        {
            return Err("an index posting names a slot out of range");
        }
        let mut ids = Map::with_capacity_and_hasher(image.terms.len(), Default::default());
        let mut vocab = BTreeMap::new();
        for (id, term) in image.terms.iter().enumerate() {
            if !term.is_empty() {
                ids.insert(term.clone(), id as u32);
                vocab.insert(term.clone(), id as u32);
            }
        }
        let exact = image.exact.into_iter().map(|(k, v)| (k, v.0)).collect();
        let mut store = Store {
            docs,
            free_docs: image.free_docs,
            by_name,
            vocab,
            ids,
            terms: image.terms,
            postings,
            free_terms: image.free_terms,
            big_tf: image.big_tf.into_iter().collect(),
            exact,
            len_sum: image.len_sum,
            live: image.live,
            norms: vec![[0.0; FIELDS]; slots],
            stale: true,
        };
        store.refresh();
        Ok(store)
    }

    /// Live documents.
    pub(crate) fn len(&self) -> usize {
        self.live
    }

    /// Slots (live or free); scratch arrays are this long.
    pub(crate) fn slots(&self) -> usize {
        self.docs.len()
    }

    /// The document in `slot`, when live.
    pub(crate) fn doc(&self, slot: u32) -> Option<&Doc> {
        self.docs.get(slot as usize).and_then(Option::as_ref)
    }

    /// Live documents with their slots.
    pub(crate) fn docs(&self) -> impl Iterator<Item = (u32, &Doc)> {
        self.docs
            .iter()
            .enumerate()
            .filter_map(|(i, d)| d.as_ref().map(|d| (i as u32, d)))
    }

    /// The slot of a tool by canonical name.
    pub(crate) fn slot_of(&self, name: &str) -> Option<u32> {
        self.by_name.get(name).copied()
    }

    /// The posting list of a term id.
    pub(crate) fn postings(&self, id: u32) -> &[Posting] {
        self.postings.get(id as usize).map_or(&[], Vec::as_slice)
    }

    /// The fields term `id` occurs in within `doc` (`None`: not in `doc`).
    pub(crate) fn fields_in(&self, id: u32, doc: u32) -> Option<u8> {
        let plist = self.postings(id);
        let i = plist.binary_search_by_key(&doc, |p| p.doc).ok()?;
        Some(plist[i].fields)
    }

    /// BM25 idf of a term id over the live documents.
    pub(crate) fn idf(&self, id: u32) -> f32 {
        let n = self.live.max(1) as f32;
        let df = self.postings(id).len() as f32;
        (1.0 + (n - df + 0.5) / (df + 0.5)).ln()
    }

    /// The saturated BM25F impact of one posting of term `id`.
    #[inline]
    pub(crate) fn impact(&self, id: u32, p: &Posting, k1: f32) -> f32 {
        let norm = &self.norms[p.doc as usize];
        let mut weighted = 0f32;
        let mut mask = p.fields;
        while mask != 0 {
            let f = mask.trailing_zeros() as usize;
            let tf = match p.tf[f] {
                TF_OVERFLOW => self.big_tf.get(&(id, p.doc)).map_or(0, |c| c[f]) as f32,
                n => n as f32,
            };
            weighted += tf * norm[f];
            mask &= mask - 1;
        }
        weighted * (k1 + 1.0) / (weighted + k1)
    }

    /// Add a tool (absent by name) from its field texts and exact keys.
    pub(crate) fn insert(
        &mut self,
        tool: Arc<ToolDescriptor>,
        fields: &[String; FIELDS],
        keys: Vec<ExactKey>,
        weight: f32,
    ) {
        let slot = match self.free_docs.pop() {
            Some(s) => s,
            None => {
                self.docs.push(None);
                self.norms.push([0.0; FIELDS]);
                (self.docs.len() - 1) as u32
            }
        };
        let (counts, lens) = self.count_terms(fields, true);
        self.put_postings(slot, counts);
        self.put_keys(slot, keys);
        self.live += 1;
        self.by_name.insert(tool.name.clone(), slot);
        self.set_doc(slot, tool, lens, weight);
    }

    /// Replace the document in `slot` by a new version of the same tool:
    /// postings of terms in both versions are rewritten in place, so a
    /// description edit moves no posting list.
    pub(crate) fn replace(
        &mut self,
        slot: u32,
        old: (&[String; FIELDS], &[ExactKey]),
        new: (Arc<ToolDescriptor>, &[String; FIELDS], Vec<ExactKey>),
        weight: f32,
    ) {
        let (tool, fields, keys) = new;
        let (old_counts, _) = self.count_terms(old.0, false);
        let (counts, lens) = self.count_terms(fields, true);
        let gone = old_counts
            .into_iter()
            .map(|(id, _)| id)
            .filter(|id| counts.binary_search_by_key(id, |c| c.0).is_err());
        self.drop_postings(slot, gone.collect());
        self.put_postings(slot, counts);
        self.drop_keys(slot, old.1);
        self.put_keys(slot, keys);
        self.set_doc(slot, tool, lens, weight);
    }

    /// Remove the document in `slot`, given the field texts and exact keys
    /// it was inserted with (re-derived from the tool, never stored).
    pub(crate) fn remove(&mut self, slot: u32, fields: &[String; FIELDS], keys: &[ExactKey]) {
        let Some(doc) = self.docs.get_mut(slot as usize).and_then(Option::take) else {
            return;
        };
        for (sum, len) in self.len_sum.iter_mut().zip(doc.lens) {
            *sum -= u64::from(len);
        }
        let (counts, _) = self.count_terms(fields, false);
        self.drop_postings(slot, counts.into_iter().map(|(id, _)| id).collect());
        self.drop_keys(slot, keys);
        self.live -= 1;
        self.by_name.remove(&doc.tool.name);
        self.free_docs.push(slot);
        self.stale = true;
    }

    /// Put a document into `slot` (its summary's place found once, here),
    /// moving the length sums from what was there.
    fn set_doc(&mut self, slot: u32, tool: Arc<ToolDescriptor>, lens: [u32; FIELDS], weight: f32) {
        let summary = SummarySpan::of(&tool.description);
        let doc = Doc {
            tool,
            lens,
            weight,
            summary,
        };
        if let Some(old) = self.docs[slot as usize].take() {
            for (sum, len) in self.len_sum.iter_mut().zip(old.lens) {
                *sum -= u64::from(len);
            }
        }
        for (sum, len) in self.len_sum.iter_mut().zip(doc.lens) {
            *sum += u64::from(len);
        }
        self.docs[slot as usize] = Some(doc);
        self.stale = true;
    }

    /// Write (or overwrite) the postings of `slot` for these term counts.
    fn put_postings(&mut self, slot: u32, counts: Vec<(u32, [u16; FIELDS])>) {
        for (id, tf) in counts {
            let mut small = [0u8; FIELDS];
            let mut mask = 0u8;
            for f in 0..FIELDS {
                if tf[f] > 0 {
                    mask |= 1 << f;
                }
                small[f] = u8::try_from(tf[f]).unwrap_or(TF_OVERFLOW);
            }
            if small.contains(&TF_OVERFLOW) {
                self.big_tf.insert((id, slot), tf);
            } else {
                self.big_tf.remove(&(id, slot));
            }
            let posting = Posting {
                doc: slot,
                fields: mask,
                tf: small,
            };
            let list = &mut self.postings[id as usize];
            match list.binary_search_by_key(&slot, |p| p.doc) {
                Ok(at) => list[at] = posting,
                Err(at) => list.insert(at, posting),
            }
        }
    }

    /// Remove the postings of `slot` for these term ids; a term left with none leaves the vocabulary.
    fn drop_postings(&mut self, slot: u32, ids: Vec<u32>) {
        for id in ids {
            let Some(list) = self.postings.get_mut(id as usize) else {
                continue;
            };
            if let Ok(at) = list.binary_search_by_key(&slot, |p| p.doc) {
                list.remove(at);
            }
            self.big_tf.remove(&(id, slot));
            if list.is_empty() {
                let term = std::mem::take(&mut self.terms[id as usize]);
                self.vocab.remove(&term);
                self.ids.remove(&term);
                self.free_terms.push(id);
            }
        }
    }

    fn put_keys(&mut self, slot: u32, keys: Vec<ExactKey>) {
        for (k, boost, why) in keys {
            let e = self.exact.entry(k).or_default();
            if !e.iter().any(|(d, _, _)| *d == slot) {
                e.push((slot, boost, why));
            }
        }
    }

    fn drop_keys(&mut self, slot: u32, keys: &[ExactKey]) {
        for (k, _, _) in keys {
            if let Some(e) = self.exact.get_mut(k) {
                e.retain(|(d, _, _)| *d != slot);
                if e.is_empty() {
                    self.exact.remove(k);
                }
            }
        }
    }

    /// The id of an indexed term.
    pub(crate) fn id(&self, term: &str) -> Option<u32> {
        self.ids.get(term).copied()
    }

    /// The id of a term, added to the vocabulary (with no postings yet) when new.
    fn term_id(&mut self, term: &str) -> u32 {
        if let Some(id) = self.ids.get(term) {
            return *id;
        }
        let id = match self.free_terms.pop() {
            Some(id) => id,
            None => {
                self.postings.push(Vec::new());
                self.terms.push(String::new());
                (self.postings.len() - 1) as u32
            }
        };
        self.terms[id as usize] = term.to_string();
        self.ids.insert(term.to_string(), id);
        self.vocab.insert(term.to_string(), id);
        id
    }

    /// Per-term counts per field (sorted by term id), and terms per field.
    /// New terms join the vocabulary when `add` is set, else they are skipped
    /// (a tool being removed has every term indexed already).
    fn count_terms(
        &mut self,
        fields: &[String; FIELDS],
        add: bool,
    ) -> (Vec<(u32, [u16; FIELDS])>, [u32; FIELDS]) {
        let mut seen: Vec<(u32, u8)> = Vec::new();
        let mut lens = [0u32; FIELDS];
        for (f, text) in fields.iter().enumerate() {
            each_term(text, |term| {
                lens[f] += 1;
                let id = if add {
                    Some(self.term_id(term))
                } else {
                    self.id(term)
                };
                if let Some(id) = id {
                    seen.push((id, f as u8));
                }
            });
        }
        seen.sort_unstable();
        let mut counts: Vec<(u32, [u16; FIELDS])> = Vec::new();
        for (id, f) in seen {
            match counts.last_mut() {
                Some((last, c)) if *last == id => c[f as usize] = c[f as usize].saturating_add(1),
                _ => {
                    let mut c = [0u16; FIELDS];
                    c[f as usize] = 1;
                    counts.push((id, c));
                }
            }
        }
        (counts, lens)
    }

    /// Re-derive every document's length norms from the current averages
    /// (a no-op when nothing changed since the last refresh).
    pub(crate) fn refresh(&mut self) {
        if !self.stale {
            return;
        }
        let n = self.live.max(1) as f32;
        let avg: [f32; FIELDS] = std::array::from_fn(|f| (self.len_sum[f] as f32 / n).max(1.0));
        for (slot, doc) in self.docs.iter().enumerate() {
            if let Some(d) = doc {
                self.norms[slot] = std::array::from_fn(|f| {
                    WEIGHTS[f] / (1.0 - B[f] + B[f] * d.lens[f] as f32 / avg[f])
                });
            }
        }
        self.stale = false;
    }
}

/// The exact-match keys of a tool: name, local name, `provider/name`, aliases.
pub(super) fn exact_keys(t: &ToolDescriptor) -> Vec<ExactKey> {
    let mut keys: Vec<ExactKey> = vec![(exact_key(&t.name), 1000.0, "exact name")];
    keys.push((exact_key(&t.local_name), 800.0, "exact name"));
    keys.push((exact_key(&t.qualified_name()), 800.0, "exact provider/name"));
    keys.extend(t.aliases.iter().map(|a| (exact_key(a), 900.0, "alias")));
    keys
}

/// Add `slot` to (or remove it from) the sorted slot list of `key`, dropping
/// a list left empty; true when the list changed.
pub(super) fn toggle_slot(
    map: &mut Map<String, Vec<u32>>,
    key: String,
    slot: u32,
    add: bool,
) -> bool {
    if add {
        let docs = map.entry(key).or_default();
        return docs
            .binary_search(&slot)
            .map_err(|i| docs.insert(i, slot))
            .is_err();
    }
    let Some(docs) = map.get_mut(&key) else {
        return false;
    };
    let changed = docs.binary_search(&slot).map(|i| docs.remove(i)).is_ok();
    if docs.is_empty() {
        map.remove(&key);
    }
    changed
}
