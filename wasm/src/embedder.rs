//! The host embedder: `rt.setEmbedder({model, dimensions, embed, timeoutMs})`
//! and the async driver that answers the core's embedding requests with it.
//! Each request (at most 64 texts) races `timeoutMs`; a throw, a rejection,
//! a timeout or a malformed answer goes back to the core as a failure, which
//! answers lexically and says so in `why`.

use crate::errors;
use crate::host::{error_message, race, Raced};
use crate::shared::Shared;
use holaryn_core::EmbeddingModel;
use holaryn_core::SearchOutput;
use holaryn_core::{EmbedFailure, EmbedRequest, SearchStep};
use js_sys::{Array, Float32Array, Function, Promise, Reflect};
use std::rc::Rc;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;

/// Default wait for one embedding request.
pub const DEFAULT_TIMEOUT_MS: u64 = 10_000;

/// The host's embed function and how long to wait for it.
pub struct Embedder {
    embed: Function,
    timeout_ms: u64,
}

fn get(obj: &JsValue, key: &str) -> JsValue {
    Reflect::get(obj, &JsValue::from_str(key)).unwrap_or(JsValue::UNDEFINED)
}

/// Read `{model, dimensions, embed, timeoutMs?}`.
pub fn parse(obj: &JsValue) -> Result<(EmbeddingModel, Embedder), JsValue> {
    let model = get(obj, "model")
        .as_string()
        .ok_or_else(|| errors::input("embedder.model must be a string"))?;
    let dimensions = get(obj, "dimensions")
        .as_f64()
        .filter(|d| d.fract() == 0.0 && *d >= 1.0)
        .ok_or_else(|| errors::input("embedder.dimensions must be a positive integer"))?;
    let embed: Function = get(obj, "embed")
        .dyn_into()
        .map_err(|_| errors::input("embedder.embed must be a function (texts) => vectors"))?;
    let timeout = get(obj, "timeoutMs");
    let timeout_ms = if timeout.is_undefined() {
        DEFAULT_TIMEOUT_MS
    } else {
        timeout
            .as_f64()
            .filter(|t| t.fract() == 0.0 && *t >= 1.0)
            .ok_or_else(|| errors::input("embedder.timeoutMs must be a positive integer"))?
            as u64
    };
    Ok((
        EmbeddingModel {
            model,
            dimensions: dimensions as usize,
        },
        Embedder { embed, timeout_ms },
    ))
}

/// `Float32Array[]` or `number[][]` → vectors; `None` when it is neither.
fn vectors(v: &JsValue) -> Option<Vec<Vec<f32>>> {
    if !Array::is_array(v) {
        return None;
    }
    Array::from(v)
        .iter()
        .map(|row| {
            if let Some(f) = row.dyn_ref::<Float32Array>() {
                Some(f.to_vec())
            } else if Array::is_array(&row) {
                Array::from(&row)
                    .iter()
                    .map(|x| x.as_f64().map(|x| x as f32))
                    .collect()
            } else {
                None
            }
        })
        .collect()
}

/// Ask the host embedder for one request's vectors.
pub(crate) async fn answer(
    shared: &Shared,
    req: &EmbedRequest,
) -> Result<Vec<Vec<f32>>, EmbedFailure> {
    let Some(e) = shared.embedder() else {
        return Err(EmbedFailure::NoEmbedder);
    };
    let texts: Array = req.texts().iter().map(|t| JsValue::from_str(t)).collect();
    let ret = match e.embed.call1(&JsValue::UNDEFINED, &texts) {
        Ok(v) => Promise::resolve(&v),
        Err(err) => return Err(EmbedFailure::Error(error_message(&err))),
    };
    match race(ret, Some(e.timeout_ms), None).await {
        Raced::Value(v) => vectors(&v).ok_or_else(|| {
            EmbedFailure::Error("it did not return an array of Float32Array or number[]".into())
        }),
        Raced::Error(err) => Err(EmbedFailure::Error(error_message(&err))),
        Raced::Timeout | Raced::Aborted => Err(EmbedFailure::TimedOut { ms: e.timeout_ms }),
    }
}

/// Drive a search or preparation to its end, embedding as the core asks.
/// The outer error is a busy runtime (`runtime.busy`), the inner the core's.
pub async fn drive(
    shared: Rc<Shared>,
    first: SearchStep,
) -> Result<holaryn_core::Result<SearchStep>, JsValue> {
    let mut step = first;
    loop {
        shared.flush();
        match step {
            SearchStep::NeedEmbeddings(req) => {
                let a = answer(&shared, &req).await;
                let now = js_sys::Date::now() as u64;
                let next = req.resume(&mut *shared.core()?, a, now);
                match next {
                    Ok(s) => step = s,
                    Err(e) => return Ok(Err(e)),
                }
            }
            done => return Ok(Ok(done)),
        }
    }
}

/// `tool_search` with the embedder (lexical at once when none is set).
pub async fn search(
    shared: Rc<Shared>,
    id: &str,
    input: &serde_json::Value,
) -> Result<holaryn_core::Result<SearchOutput>, JsValue> {
    let now = js_sys::Date::now() as u64;
    let first = shared.core()?.search_step(id, input, now);
    let done = match first {
        Ok(step) => drive(shared.clone(), step).await?,
        Err(e) => Err(e),
    };
    shared.flush();
    Ok(done.and_then(|step| match step {
        SearchStep::Done(out) => Ok(out),
        _ => Err(holaryn_core::Error::new(
            holaryn_core::ErrorCode::ProtocolInvalidResume,
            "a search ended without a result",
        )),
    }))
}
