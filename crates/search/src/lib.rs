//! The ranking engine behind `tool_search`: a BM25F inverted index over every
//! field a user searches by, kept in step with each registry change.
//!
//! Fields and weights: name tokens (canonical, local, aliases, `provider/name`)
//! 3.0, title 2.0, description 1.0, permissions 1.2, provider 1.0, schema
//! property names and descriptions 0.6, source 0.5. Exact canonical names,
//! aliases and provider-qualified names rank first; a name written inside a
//! request ranks its tool first too (`mention.rs`), and a provider it
//! names ranks its tools higher (`provider.rs`). Query words are
//! normalised like documents (see [`words`]); verb-family synonyms count 0.6
//! of a literal match; in multi-step requests later action verbs count less
//! than the first, so "find and read the notes" ranks a finder first.
//! Ties break by canonical name: deterministic.
//! With a host embedder, [`fuse`] fuses this ranking with sentence-embedding
//! similarity ([`tool_text`] is the text embedded, [`meaning_ranking`] the
//! meaning ranking).
//!
//! The index is incremental (`postings.rs`): the runtime keeps one for the
//! registry and applies each change tool by tool; any sequence of changes
//! ranks exactly as a fresh build of the same tools.
//!
//! This crate depends on `holaryn-model` only; the core builds on it. Modules
//! are private: the API is the `pub use` list below.

#![forbid(unsafe_code)]
#![warn(missing_docs)]
#![warn(unreachable_pub)]

mod blend;
mod embed;
mod entities;
mod fit;
mod fuse;
mod image;
mod index;
mod lexicon;
mod map;
mod mention;
mod nfkd;
mod nfkd_tables;
mod nothing;
mod postings;
mod prereq;
mod provider;
mod query;
mod related;
mod sense;
mod text;
mod values;

// The index and its rankings.
pub use image::IndexImage;
pub use index::{Ranking, SearchHit, SearchIndex};
pub use nothing::Evidence;
// Host embeddings: the text embedded per tool, its cache key, the meaning
// ranking, and its fusion with the lexical ranking.
pub use blend::{fuse, lexical_lead, Fusion};
pub use embed::{
    meaning_ranking, normalized as unit_vector, nothing_fits as nothing_fits_with_meaning,
    similarities, text_key, tool_text, Tie, POOL as FUSION_POOL,
};
// How search reads a text into words (normalised, folded, stemmed).
pub use text::words;
