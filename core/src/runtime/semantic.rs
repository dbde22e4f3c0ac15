//! `tool_search` with the host's embedder, as an effect protocol.
//!
//! The core never runs a model: [`Runtime::search_step`] returns
//! [`SearchStep::NeedEmbeddings`] with at most [`EMBED_BATCH`] texts (the
//! query first, when its vector is not cached, then tools whose text has no
//! cached vector); the host embeds them and calls [`EmbedRequest::resume`].
//! When every vector is there, the lexical ranking is fused with cosine
//! similarity (see `holaryn_search`: its `embed` and `blend` modules).
//!
//! Tool vectors are requested lazily by the first search that lacks them;
//! hosts that would rather pay that once up front run
//! [`Runtime::prepare_embeddings`] after registering tools. A failing,
//! slow (the host times it out) or malformed answer ends the search with
//! what is there: lexical alone when the query has no vector, else fusion
//! over the tools that have vectors. Either way each result's `why` ends
//! with `embedder unavailable: …`. Vectors already received stay cached.

use super::api::{search_input, SearchInput, SearchOutput};
use super::{unknown_session, Runtime};
use crate::embeddings::{EmbeddingModel, Encoding};
use holaryn_model::ToolDescriptor;
use holaryn_model::{Error, ErrorCode, Result};
use holaryn_search::{fuse, Fusion};
use holaryn_search::{
    meaning_ranking, nothing_fits_with_meaning as nothing_fits, similarities, text_key, tool_text,
    unit_vector as normalized, FUSION_POOL as POOL,
};
use serde::Serialize;
use serde_json::Value;
use std::collections::HashSet;
use std::fmt;
use std::sync::Arc;

/// Most texts one [`EmbedRequest`] asks for.
pub const EMBED_BATCH: usize = 64;

/// Why the host could not embed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum EmbedFailure {
    /// The embedder threw or rejected.
    Error(String),
    /// The host gave up waiting.
    TimedOut {
        /// How long it waited.
        ms: u64,
    },
    /// The host has vectors (imported) but no function to make more.
    NoEmbedder,
}

impl fmt::Display for EmbedFailure {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            EmbedFailure::Error(m) => write!(f, "the embedder failed: {m}"),
            EmbedFailure::TimedOut { ms } => write!(f, "the embedder took longer than {ms} ms"),
            EmbedFailure::NoEmbedder => f.write_str("no embed function is set"),
        }
    }
}

/// Where the cache stands for the current catalog.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct EmbeddingStats {
    /// Model id.
    pub model: String,
    /// Vector length.
    pub dimensions: usize,
    /// Distinct tool texts in the catalog.
    pub tools: usize,
    /// Of those, how many have a vector.
    pub cached: usize,
    /// Texts embedded by this run.
    pub embedded: usize,
    /// Why the run stopped early, when it did.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
}

/// What a search or preparation needs next.
#[derive(Debug)]
pub enum SearchStep {
    /// The search result ([`Runtime::search_step`] only).
    Done(SearchOutput),
    /// Preparation finished ([`Runtime::prepare_embeddings`] only).
    Prepared(EmbeddingStats),
    /// Embed these texts and resume.
    NeedEmbeddings(EmbedRequest),
}

#[derive(Debug)]
enum Goal {
    Search {
        sid: String,
        input: SearchInput,
        limit: usize,
    },
    Prepare,
}

/// A suspension: the host embeds [`EmbedRequest::texts`] and resumes.
#[derive(Debug)]
pub struct EmbedRequest {
    goal: Goal,
    texts: Vec<String>,
    keys: Vec<String>,
    /// Index of the query among `texts`.
    query_at: Option<usize>,
    model: EmbeddingModel,
    embedded: usize,
}

/// Per index slot: the tool, its embedded text and key (empty for a slot a
/// removed tool left), kept in step with the index tool by tool; and a dense
/// matrix of the cached vectors (rebuilt when the cache or a tool changes).
#[derive(Debug, Default)]
pub(crate) struct EmbedDocs {
    version: String,
    tools: Vec<Option<Arc<ToolDescriptor>>>,
    texts: Vec<String>,
    keys: Vec<String>,
    generation: Option<u64>,
    matrix: Vec<f32>,
    present: Vec<bool>,
}

impl EmbedRequest {
    /// The texts to embed, in order (at most [`EMBED_BATCH`]).
    pub fn texts(&self) -> &[String] {
        &self.texts
    }

    /// The model whose vectors are expected.
    pub fn model(&self) -> &EmbeddingModel {
        &self.model
    }

    /// Resume with one vector per text, or why there are none.
    pub fn resume(
        self,
        rt: &mut Runtime,
        answer: std::result::Result<Vec<Vec<f32>>, EmbedFailure>,
        now_ms: u64,
    ) -> Result<SearchStep> {
        let failure = if rt.embeddings.model() != Some(&self.model) {
            Some("the embedder changed while it was embedding".to_string())
        } else {
            match answer {
                Err(f) => Some(f.to_string()),
                Ok(vectors) => self.store(rt, &vectors).err(),
            }
        };
        let embedded = self.embedded
            + if failure.is_none() {
                self.texts.len()
            } else {
                0
            };
        rt.plan(self.goal, embedded, failure, now_ms)
    }

    /// Check every vector, then cache them all (nothing is cached on error).
    fn store(&self, rt: &mut Runtime, vectors: &[Vec<f32>]) -> std::result::Result<(), String> {
        if vectors.len() != self.texts.len() {
            return Err(format!(
                "it returned {} vectors for {} texts",
                vectors.len(),
                self.texts.len()
            ));
        }
        let dims = self.model.dimensions;
        let mut units = Vec::with_capacity(vectors.len());
        for (i, v) in vectors.iter().enumerate() {
            let unit = normalized(v, dims).ok_or_else(|| {
                format!(
                    "vector {i} has {} components (expected {dims}, finite, not all zero)",
                    v.len()
                )
            })?;
            units.push(Arc::<[f32]>::from(unit));
        }
        for (i, (key, unit)) in self.keys.iter().zip(units).enumerate() {
            if Some(i) == self.query_at {
                rt.embeddings.put_query(key.clone(), unit);
            } else {
                rt.embeddings.put_tool(key.clone(), unit);
            }
        }
        Ok(())
    }
}

impl Runtime {
    /// Set the host embedder's model and dimension (`None`: searches are
    /// lexical only). A different model or dimension empties the cache.
    pub fn set_embedding_model(&mut self, model: Option<EmbeddingModel>) -> Result<()> {
        self.embeddings.set_model(model)
    }

    /// The embedding model in force.
    pub fn embedding_model(&self) -> Option<&EmbeddingModel> {
        self.embeddings.model()
    }

    /// Each distinct tool text of the current catalog with its cache key.
    pub fn embedding_texts(&mut self) -> Vec<(String, String)> {
        let docs = self.refresh_docs();
        let mut seen = HashSet::new();
        docs.keys
            .iter()
            .zip(&docs.texts)
            .filter(|(k, _)| !k.is_empty() && seen.insert(*k))
            .map(|(k, t)| (k.clone(), t.clone()))
            .collect()
    }

    /// Export the current catalog's cached tool vectors (see `embeddings.rs`).
    pub fn export_embeddings(&mut self, encoding: Encoding) -> Result<Value> {
        self.refresh_docs();
        let keys = self
            .embed_docs
            .as_ref()
            .map(|d| d.keys.as_slice())
            .unwrap_or(&[]);
        self.embeddings
            .export(keys.iter().filter(|k| !k.is_empty()), encoding)
    }

    /// Import vectors; returns how many were added (refused whole on error).
    pub fn import_embeddings(&mut self, data: &Value) -> Result<usize> {
        self.embeddings.import(data)
    }

    /// `tool_search` using the embedder when a model is set (else lexical at once).
    pub fn search_step(&mut self, sid: &str, input: &Value, now_ms: u64) -> Result<SearchStep> {
        let (input, limit) = search_input(input)?;
        self.session(sid)?;
        let goal = Goal::Search {
            sid: sid.to_string(),
            input,
            limit,
        };
        self.plan(goal, 0, None, now_ms)
    }

    /// Embed every tool text that has no vector yet, in batches.
    pub fn prepare_embeddings(&mut self, now_ms: u64) -> Result<SearchStep> {
        if self.embeddings.model().is_none() {
            return Err(Error::new(
                ErrorCode::InputInvalid,
                "no embedding model is set: set an embedder first",
            ));
        }
        self.plan(Goal::Prepare, 0, None, now_ms)
    }

    /// Ask for what is missing, or finish.
    fn plan(
        &mut self,
        goal: Goal,
        embedded: usize,
        failure: Option<String>,
        now_ms: u64,
    ) -> Result<SearchStep> {
        let Some(model) = self.embeddings.model().cloned() else {
            return match goal {
                Goal::Search { sid, input, limit } => {
                    self.fused_search(&sid, &input, limit, failure, now_ms)
                }
                Goal::Prepare => Err(Error::new(
                    ErrorCode::InputInvalid,
                    "the embedding model was cleared during preparation",
                )),
            };
        };
        self.refresh_docs();
        self.refresh_matrix();
        if failure.is_none() {
            let mut texts = Vec::new();
            let mut keys = Vec::new();
            let mut query_at = None;
            if let Goal::Search { input, .. } = &goal {
                let key = text_key(&input.query);
                if self.embeddings.query(&key).is_none() {
                    query_at = Some(0);
                    texts.push(input.query.clone());
                    keys.push(key);
                }
            }
            if let Some(docs) = &self.embed_docs {
                let missing = (docs.present.iter().enumerate())
                    .filter(|(i, p)| !**p && !docs.keys[*i].is_empty());
                for (k, t) in missing.map(|(i, _)| (&docs.keys[i], &docs.texts[i])) {
                    if texts.len() == EMBED_BATCH {
                        break;
                    }
                    if !keys.contains(k) {
                        keys.push(k.clone());
                        texts.push(t.clone());
                    }
                }
            }
            if !texts.is_empty() {
                return Ok(SearchStep::NeedEmbeddings(EmbedRequest {
                    goal,
                    texts,
                    keys,
                    query_at,
                    model,
                    embedded,
                }));
            }
        }
        match goal {
            Goal::Search { sid, input, limit } => {
                self.fused_search(&sid, &input, limit, failure, now_ms)
            }
            Goal::Prepare => Ok(SearchStep::Prepared(self.stats(model, embedded, failure))),
        }
    }

    fn stats(
        &self,
        model: EmbeddingModel,
        embedded: usize,
        error: Option<String>,
    ) -> EmbeddingStats {
        let keys: HashSet<&String> = (self.embed_docs.iter())
            .flat_map(|d| d.keys.iter())
            .filter(|k| !k.is_empty())
            .collect();
        EmbeddingStats {
            model: model.model,
            dimensions: model.dimensions,
            tools: keys.len(),
            cached: keys
                .iter()
                .filter(|k| self.embeddings.tool(k).is_some())
                .count(),
            embedded,
            error,
        }
    }

    /// Texts and keys per index slot for the registry's version: only slots
    /// whose tool changed get a new text and key (the matrix is then redone).
    fn refresh_docs(&mut self) -> &EmbedDocs {
        let docs = self.embed_docs.get_or_insert_with(EmbedDocs::default);
        let version = self.registry.version();
        if docs.version != version {
            let slots = self.index.slots();
            docs.tools.resize(slots, None);
            docs.texts.resize(slots, String::new());
            docs.keys.resize(slots, String::new());
            for slot in 0..slots {
                let tool = self.index.tool(slot);
                let same = match (tool, &docs.tools[slot]) {
                    (Some(a), Some(b)) => Arc::ptr_eq(a, b),
                    (None, None) => true,
                    _ => false,
                };
                if same {
                    continue;
                }
                docs.texts[slot] = tool.map(|t| tool_text(t)).unwrap_or_default();
                docs.keys[slot] = tool
                    .map(|_| text_key(&docs.texts[slot]))
                    .unwrap_or_default();
                docs.tools[slot] = tool.cloned();
                docs.generation = None;
            }
            docs.version = version.to_string();
        }
        docs
    }

    fn refresh_matrix(&mut self) {
        let generation = self.embeddings.generation;
        let dims = self.embeddings.model().map_or(0, |m| m.dimensions);
        let Some(docs) = self.embed_docs.as_mut() else {
            return;
        };
        if docs.generation == Some(generation) {
            return;
        }
        docs.matrix = vec![0.0; docs.keys.len() * dims];
        docs.present = vec![false; docs.keys.len()];
        for (i, k) in docs.keys.iter().enumerate() {
            if let Some(v) = self.embeddings.tool(k).filter(|_| !k.is_empty()) {
                docs.matrix[i * dims..(i + 1) * dims].copy_from_slice(v);
                docs.present[i] = true;
            }
        }
        docs.generation = Some(generation);
    }

    /// Rank with what is cached; note a failure in every result's `why`.
    fn fused_search(
        &mut self,
        sid: &str,
        input: &SearchInput,
        limit: usize,
        failure: Option<String>,
        now_ms: u64,
    ) -> Result<SearchStep> {
        if self.embeddings.model().is_some() {
            self.refresh_docs();
            self.refresh_matrix();
        }
        // With the embedder's meaning ranking, nothing fits when neither
        // ranking finds a real match (see `embed::nothing_fits`).
        let (mut hits, nothing_fits) = {
            let session = self.sessions.get(sid).ok_or_else(|| unknown_session(sid))?;
            let accept = self.search_filter(session, input);
            let query = self.embeddings.query(&text_key(&input.query));
            match (query, self.embed_docs.as_ref()) {
                (Some(q), Some(docs)) if self.embeddings.model().is_some() => {
                    let sims = similarities(&q, &docs.matrix, &docs.present);
                    let name = |d: usize| self.index.tool(d).map_or("", |t| t.name.as_str());
                    let tie = |a: usize, b: usize| name(a).cmp(name(b));
                    let meaning = meaning_ranking(&sims, &accept, &tie);
                    let lexical = self.index.search_all(&input.phrasings(), POOL, &accept);
                    let exact = self.index.exact_docs(&input.query);
                    let none = nothing_fits(&meaning, &lexical);
                    let f = Fusion::default();
                    let hits = fuse(lexical, &meaning, &exact, limit, &tie, &f);
                    (hits, none)
                }
                _ => {
                    let r = self.index.search_all(&input.phrasings(), limit, &accept);
                    (r.hits, r.nothing_fits)
                }
            }
        };
        if let Some(reason) = failure {
            let note = format!("embedder unavailable: {reason}");
            for h in &mut hits {
                h.why.push(note.clone());
            }
        }
        super::search_view::with_answer(
            || unknown_session(sid),
            super::search_view::owned,
            |w| self.finish_search(sid, hits, nothing_fits, now_ms, &[], w),
        )
        .map(SearchStep::Done)
    }
}
