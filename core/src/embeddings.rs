//! The runtime's embedding cache: the host embedder's model id and
//! dimension, tool vectors by text key, a small query cache, and the
//! export/import shape a host uses to persist vectors.
//!
//! **Export shape** (JSON, `holaryn.embeddings/1`):
//! `{"format": "holaryn.embeddings/1", "model": "…", "dimensions": 384,
//! "encoding": "f32" | "i8", "vectors": {"<text key>": "<base64>"}}`.
//! `f32` is the vector's little-endian floats; `i8` is a little-endian f32
//! scale followed by `dimensions` signed bytes (component = byte × scale).
//! Keys are [`text_key`](holaryn_search::text_key) of the embedded
//! text (tool text or query). Export writes the vectors of the current
//! catalog's tools (never queries); import takes any keys, adopts the model
//! when none is set and refuses a different model or dimension
//! (`input.embeddings_mismatch`), leaving the cache unchanged.

use holaryn_model::{Error, ErrorCode, Result};
use holaryn_search::unit_vector;
use serde::{Deserialize, Serialize};
use serde_json::{json, Map, Value};
use std::collections::{HashMap, VecDeque};
use std::sync::Arc;

/// The export/import format tag.
pub const FORMAT: &str = "holaryn.embeddings/1";
/// Largest accepted dimension.
pub const MAX_DIMENSIONS: usize = 8192;
/// Query vectors kept (oldest dropped first).
pub const QUERY_CACHE: usize = 256;

/// The host embedder's identity: vectors of different models never mix.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct EmbeddingModel {
    /// Model id, e.g. `sentence-transformers/all-MiniLM-L6-v2`.
    pub model: String,
    /// Vector length.
    pub dimensions: usize,
}

/// How export writes vectors.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(rename_all = "lowercase")]
pub enum Encoding {
    /// Little-endian f32 (lossless).
    #[default]
    F32,
    /// A f32 scale and one signed byte per component (4× smaller).
    I8,
}

/// Cached unit vectors.
#[derive(Debug, Default)]
pub struct EmbeddingStore {
    model: Option<EmbeddingModel>,
    tools: HashMap<String, Arc<[f32]>>,
    queries: HashMap<String, Arc<[f32]>>,
    query_order: VecDeque<String>,
    /// Bumped whenever tool vectors change (derived matrices rebuild).
    pub(crate) generation: u64,
}

/// The store as a snapshot keeps it (`core/src/snapshot`): the model and
/// the tool vectors (imported or embedded); the query cache is not kept.
#[derive(Debug)]
pub(crate) struct EmbeddingsImage {
    model: Option<(String, usize)>,
    tools: Vec<(String, Vec<f32>)>,
}

holaryn_model::packed!(EmbeddingsImage { model, tools });

impl EmbeddingStore {
    /// The store as a snapshot keeps it.
    pub(crate) fn image(&self) -> EmbeddingsImage {
        EmbeddingsImage {
            model: self.model.as_ref().map(|m| (m.model.clone(), m.dimensions)),
            tools: (self.tools.iter())
                .map(|(k, v)| (k.clone(), v.to_vec()))
                .collect(),
        }
    }

    /// The store an image keeps (vectors of another length are refused).
    pub(crate) fn from_image(image: EmbeddingsImage) -> std::result::Result<Self, &'static str> {
        let model = image
            .model
            .map(|(model, dimensions)| EmbeddingModel { model, dimensions });
        let dims = model.as_ref().map_or(0, |m| m.dimensions);
        let mut tools = HashMap::with_capacity(image.tools.len());
        for (k, v) in image.tools {
            if v.len() != dims {
                return Err("a kept vector does not have the model's dimensions");
            }
            tools.insert(k, Arc::from(v));
        }
        Ok(EmbeddingStore {
            model,
            tools,
            ..EmbeddingStore::default()
        })
    }
}

fn mismatch(msg: String) -> Error {
    Error::new(ErrorCode::EmbeddingsMismatch, msg)
}

fn malformed(msg: impl Into<String>, field: &str) -> Error {
    Error::new(ErrorCode::InputInvalid, msg).with_field(field)
}

impl EmbeddingStore {
    /// The model in force (`None`: no embedder, searches are lexical).
    pub fn model(&self) -> Option<&EmbeddingModel> {
        self.model.as_ref()
    }

    /// Set (or clear) the model; a different model or dimension drops every vector.
    pub fn set_model(&mut self, model: Option<EmbeddingModel>) -> Result<()> {
        if let Some(m) = &model {
            if m.model.trim().is_empty() {
                return Err(malformed(
                    "the embedding model id must not be empty",
                    "model",
                ));
            }
            if m.dimensions == 0 || m.dimensions > MAX_DIMENSIONS {
                return Err(malformed(
                    format!(
                        "`dimensions` must be 1–{MAX_DIMENSIONS}, got {}",
                        m.dimensions
                    ),
                    "dimensions",
                ));
            }
        }
        if self.model != model {
            *self = EmbeddingStore {
                model,
                generation: self.generation + 1,
                ..EmbeddingStore::default()
            };
        }
        Ok(())
    }

    /// A cached tool vector.
    pub(crate) fn tool(&self, key: &str) -> Option<&Arc<[f32]>> {
        self.tools.get(key)
    }

    /// A cached vector for a query (query cache first, then imported texts).
    pub(crate) fn query(&self, key: &str) -> Option<Arc<[f32]>> {
        self.queries
            .get(key)
            .or_else(|| self.tools.get(key))
            .cloned()
    }

    /// Keep a unit tool vector.
    pub(crate) fn put_tool(&mut self, key: String, v: Arc<[f32]>) {
        self.tools.insert(key, v);
        self.generation += 1;
    }

    /// Keep a unit query vector (bounded, oldest first out).
    pub(crate) fn put_query(&mut self, key: String, v: Arc<[f32]>) {
        if self.queries.insert(key.clone(), v).is_none() {
            self.query_order.push_back(key);
        }
        while self.query_order.len() > QUERY_CACHE {
            if let Some(old) = self.query_order.pop_front() {
                self.queries.remove(&old);
            }
        }
    }

    /// Export the vectors under `keys` (those cached) in the documented shape.
    pub fn export<'a>(
        &self,
        keys: impl Iterator<Item = &'a String>,
        encoding: Encoding,
    ) -> Result<Value> {
        let model = self.model.as_ref().ok_or_else(|| {
            Error::new(
                ErrorCode::InputInvalid,
                "no embedding model is set: set an embedder or import vectors first",
            )
        })?;
        let mut vectors = Map::new();
        for k in keys {
            if let Some(v) = self.tools.get(k) {
                vectors.insert(
                    k.clone(),
                    Value::String(base64_encode(&encode(v, encoding))),
                );
            }
        }
        Ok(json!({
            "format": FORMAT,
            "model": model.model,
            "dimensions": model.dimensions,
            "encoding": encoding,
            "vectors": vectors,
        }))
    }

    /// Import an export; returns how many vectors were added. Atomic: on
    /// any error the cache is unchanged.
    pub fn import(&mut self, data: &Value) -> Result<usize> {
        #[derive(Deserialize)]
        #[serde(deny_unknown_fields)]
        struct File {
            format: String,
            model: String,
            dimensions: usize,
            encoding: Encoding,
            vectors: Map<String, Value>,
        }
        let f: File = serde_json::from_value(data.clone())
            .map_err(|e| malformed(format!("not a {FORMAT} export: {e}"), "embeddings"))?;
        if f.format != FORMAT {
            return Err(malformed(
                format!("unknown format `{}`; expected `{FORMAT}`", f.format),
                "format",
            ));
        }
        let incoming = EmbeddingModel {
            model: f.model,
            dimensions: f.dimensions,
        };
        if let Some(m) = &self.model {
            if m.dimensions != incoming.dimensions {
                return Err(mismatch(format!(
                    "the vectors have {} dimensions; the embedder in use has {}",
                    incoming.dimensions, m.dimensions
                ))
                .with_field("dimensions"));
            }
            if m.model != incoming.model {
                return Err(mismatch(format!(
                    "the vectors are from `{}`; the embedder in use is `{}`",
                    incoming.model, m.model
                ))
                .with_field("model"));
            }
        }
        let mut staged = Vec::with_capacity(f.vectors.len());
        for (key, text) in &f.vectors {
            let field = format!("vectors.{key}");
            let bytes = text
                .as_str()
                .and_then(base64_decode)
                .ok_or_else(|| malformed("a vector is not base64 text", &field))?;
            let raw = decode(&bytes, f.encoding, incoming.dimensions)
                .ok_or_else(|| malformed("a vector has the wrong byte length", &field))?;
            let unit = unit_vector(&raw, incoming.dimensions)
                .ok_or_else(|| malformed("a vector is zero or not finite", &field))?;
            staged.push((key.clone(), Arc::<[f32]>::from(unit)));
        }
        if self.model.is_none() {
            self.set_model(Some(incoming))?;
        }
        let n = staged.len();
        for (k, v) in staged {
            self.put_tool(k, v);
        }
        Ok(n)
    }
}

fn encode(v: &[f32], encoding: Encoding) -> Vec<u8> {
    match encoding {
        Encoding::F32 => v.iter().flat_map(|x| x.to_le_bytes()).collect(),
        Encoding::I8 => {
            let max = v.iter().fold(0f32, |m, x| m.max(x.abs()));
            let scale = if max > 0.0 { max / 127.0 } else { 1.0 };
            let mut out = scale.to_le_bytes().to_vec();
            out.extend(
                v.iter()
                    .map(|x| (x / scale).round().clamp(-127.0, 127.0) as i8 as u8),
            );
            out
        }
    }
}

fn decode(bytes: &[u8], encoding: Encoding, dims: usize) -> Option<Vec<f32>> {
    match encoding {
        Encoding::F32 if bytes.len() == dims * 4 => Some(
            bytes
                .chunks_exact(4)
                .map(|c| f32::from_le_bytes([c[0], c[1], c[2], c[3]]))
                .collect(),
        ),
        Encoding::I8 if bytes.len() == dims + 4 => {
            let scale = f32::from_le_bytes([bytes[0], bytes[1], bytes[2], bytes[3]]);
            Some(bytes[4..].iter().map(|b| *b as i8 as f32 * scale).collect())
        }
        _ => None,
    }
}

const B64: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

/// Standard base64 with padding.
pub fn base64_encode(bytes: &[u8]) -> String {
    let mut out = String::with_capacity(bytes.len().div_ceil(3) * 4);
    for c in bytes.chunks(3) {
        let n = (c[0] as u32) << 16
            | (*c.get(1).unwrap_or(&0) as u32) << 8
            | *c.get(2).unwrap_or(&0) as u32;
        for i in 0..4 {
            if i <= c.len() {
                out.push(B64[(n >> (18 - 6 * i) & 63) as usize] as char);
            } else {
                out.push('=');
            }
        }
    }
    out
}

/// Decode standard base64 (padding required); `None` when malformed.
pub fn base64_decode(text: &str) -> Option<Vec<u8>> {
    let t = text.as_bytes();
    if t.len() % 4 != 0 {
        return None;
    }
    let val = |b: u8| B64.iter().position(|x| *x == b).map(|p| p as u32);
    let mut out = Vec::with_capacity(t.len() / 4 * 3);
    for (i, c) in t.chunks(4).enumerate() {
        let last = i + 1 == t.len() / 4;
        let pad = c.iter().rev().take_while(|b| **b == b'=').count();
        if pad > 2 || (pad > 0 && !last) {
            return None;
        }
        let mut n = 0u32;
        for &b in &c[..4 - pad] {
            n = n << 6 | val(b)?;
        }
        n <<= 6 * pad as u32;
        let bytes = [(n >> 16) as u8, (n >> 8) as u8, n as u8];
        out.extend_from_slice(&bytes[..3 - pad]);
    }
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn base64_round_trips() {
        for len in 0..8 {
            let bytes: Vec<u8> = (0..len).map(|i| (i * 77 + 3) as u8).collect();
            assert_eq!(base64_decode(&base64_encode(&bytes)), Some(bytes));
        }
        assert_eq!(base64_encode(b"hi!"), "aGkh");
        assert_eq!(base64_decode("a=Gk"), None);
        assert_eq!(base64_decode("abc"), None);
    }

    #[test]
    fn i8_keeps_direction() {
        let v = [0.6f32, -0.8, 0.0];
        let back = decode(&encode(&v, Encoding::I8), Encoding::I8, 3).expect("decodes");
        let unit = unit_vector(&back, 3).expect("unit");
        assert!((unit[0] - 0.6).abs() < 0.01 && (unit[1] + 0.8).abs() < 0.01);
    }
}
