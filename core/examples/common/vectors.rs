//! Loading the MiniLM fixture vectors for the calibration examples
//! (fusion_sweep, nothing_sweep): the vectors by text key and the tool matrix
//! of a runtime's search index; and how both report a nothing-fits flag.

use holaryn_core::base64_decode;
use holaryn_search::SearchIndex;
use holaryn_search::{text_key, tool_text, unit_vector as normalized};
use serde_json::Value;
use std::collections::HashMap;

/// The vectors of one export file and the index's tool
/// matrix (row per document slot) with which rows are present.
pub struct Loaded {
    pub vecs: HashMap<String, Vec<f32>>,
    pub matrix: Vec<f32>,
    pub present: Vec<bool>,
}

/// The vectors of an `i8` or `f32` export, unit length, by key.
pub fn vectors(data: &Value) -> HashMap<String, Vec<f32>> {
    let dims = data["dimensions"].as_u64().unwrap_or(0) as usize;
    let i8 = data["encoding"].as_str() == Some("i8");
    let mut out = HashMap::new();
    for (k, v) in data["vectors"].as_object().into_iter().flatten() {
        let Some(b) = v.as_str().and_then(base64_decode) else {
            continue;
        };
        let raw: Vec<f32> = if i8 {
            let scale = f32::from_le_bytes([b[0], b[1], b[2], b[3]]);
            b[4..].iter().map(|x| *x as i8 as f32 * scale).collect()
        } else {
            b.chunks_exact(4)
                .map(|c| f32::from_le_bytes([c[0], c[1], c[2], c[3]]))
                .collect()
        };
        if let Some(u) = normalized(&raw, dims) {
            out.insert(k.clone(), u);
        }
    }
    out
}

/// Reads `vec_file` and lays out the vectors of `index`'s tools.
pub fn load(vec_file: &std::path::Path, index: &SearchIndex) -> Loaded {
    let data: Value =
        serde_json::from_str(&std::fs::read_to_string(vec_file).expect("vectors")).expect("json");
    let vecs = vectors(&data);
    let dims = data["dimensions"].as_u64().unwrap_or(0) as usize;
    let slots = (0..index.len() * 2 + 64)
        .take_while(|d| *d < index.len() || index.tool(*d).is_some())
        .count();
    let mut matrix = vec![0f32; slots * dims];
    let mut present = vec![false; slots];
    for d in 0..slots {
        if let Some(v) = index
            .tool(d)
            .and_then(|t| vecs.get(&text_key(&tool_text(t))))
        {
            matrix[d * dims..(d + 1) * dims].copy_from_slice(v);
            present[d] = true;
        }
    }
    Loaded {
        vecs,
        matrix,
        present,
    }
}

/// Precision of a flag raised `right + wrong` times, or "—" when never raised.
pub fn precision(right: usize, wrong: usize) -> String {
    if right + wrong == 0 {
        "—".to_string()
    } else {
        format!("{:.2}", right as f64 / (right + wrong) as f64)
    }
}
