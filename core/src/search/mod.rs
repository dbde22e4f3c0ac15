//! The ranking engine behind `tool_search`: a BM25F inverted index over every
//! field a user searches by, kept in step with each registry change.
//!
//! Fields and weights: name tokens (canonical, local, aliases, `provider/name`)
//! 3.0, title 2.0, description 1.0, permissions 1.2, provider 1.0, schema
//! property names and descriptions 0.6, source 0.5. Exact canonical names,
//! aliases and provider-qualified names rank first; a name written inside a
//! request ranks its tool first too (`search/mention.rs`), and a provider it
//! names ranks its tools higher (`search/provider.rs`). Query words are
//! normalised like documents (see [`text`]); verb-family synonyms count 0.6
//! of a literal match; in multi-step requests later action verbs count less
//! than the first, so "find and read the notes" ranks a finder first.
//! Ties break by canonical name: deterministic.
//! With a host embedder, [`blend`] fuses this ranking with sentence-embedding
//! similarity ([`embed`] has the text embedded and the meaning ranking).
//!
//! The index is incremental (`search/postings.rs`): the runtime keeps one for the
//! registry and applies each change tool by tool; any sequence of changes
//! ranks exactly as a fresh build of the same tools.

pub mod blend;
pub mod embed;
pub mod entities;
pub mod fit;
mod fuse;
mod index;
pub mod lexicon;
mod mention;
mod nfkd;
mod nfkd_tables;
pub mod nothing;
mod postings;
mod provider;
pub mod query;
pub mod text;
mod values;

pub use index::{Ranking, SearchHit, SearchIndex};
