//! Tool results as the model receives them, once, in each format's own
//! blocks.
//!
//! A tool's output is either an MCP `CallToolResult` (`{content: [blocks],
//! structuredContent?, isError?, _meta?}`, what `holaryn/mcp` hands back) or
//! plain JSON (a native tool). Per format ([`result_shape`]):
//!
//! - `mcp`: a `CallToolResult`; MCP content passes through unchanged, plain
//!   JSON becomes one text block of JSON (plus `structuredContent` for an
//!   object, as MCP asks of tools with an `outputSchema`).
//! - `anthropic` (`ToolResultBlockParam`), `openai_chat`
//!   (`ChatCompletionToolMessageParam`), `openai_responses`
//!   (`function_call_output`): text blocks as text; images as the format's
//!   image block where it has one (Anthropic: JPEG, PNG, GIF, WebP base64;
//!   Responses: `input_image` data URL), else a short text note; resource
//!   links and embedded resources as text naming the URI; `structuredContent`
//!   as one more JSON text block unless a text block already holds the same
//!   JSON. One text part is sent as a plain string.
//!
//! [`model_bytes`] is what the output cap counts: the text, image data and
//! JSON the model is sent, not the wrapper around it.

use crate::gate::CallOutcome;
use holaryn_model::Format;
use serde_json::{json, Map, Value};

/// What a call produced, before it is put in a format's shape.
#[derive(Debug, Clone, PartialEq)]
pub struct ToolResult {
    /// True when the call did not produce the tool's output.
    pub is_error: bool,
    /// The output, or `{"error": {...}}`.
    pub content: Value,
    /// The gate's outcome, for gated calls.
    pub outcome: Option<CallOutcome>,
}

impl ToolResult {
    /// A successful result.
    pub fn ok(content: Value) -> ToolResult {
        ToolResult {
            is_error: false,
            content,
            outcome: None,
        }
    }

    /// An error result carrying `{"error": error}`.
    pub fn error(error: Value) -> ToolResult {
        ToolResult {
            is_error: true,
            content: json!({ "error": error }),
            outcome: None,
        }
    }

    /// A gate outcome: its output when ok, else its code and message with the
    /// next action, argument errors and output that are present (no empty fields).
    pub fn from_outcome(o: CallOutcome) -> ToolResult {
        let mut r = if o.status == crate::gate::CallStatus::Ok {
            ToolResult::ok(o.output.clone().unwrap_or(Value::Null))
        } else {
            let mut e = json!({"code": o.code, "message": o.message});
            if let Some(next) = &o.next_action {
                e["nextAction"] = json!(next);
            }
            if !o.errors.is_empty() {
                e["errors"] = json!(o.errors);
            }
            if let Some(out) = &o.output {
                e["output"] = out.clone();
            }
            ToolResult::error(e)
        };
        r.outcome = Some(o);
        r
    }

    /// The format-free shape `{isError, content, outcome?}`.
    pub fn plain(&self) -> Value {
        let mut v = json!({"isError": self.is_error, "content": self.content});
        if let Some(o) = &self.outcome {
            v["outcome"] = json!(o);
        }
        v
    }
}

/// The output as an MCP `CallToolResult`, when it is one: an object whose
/// `content` is an array of typed blocks and whose other keys are MCP's.
pub fn as_call_tool_result(output: &Value) -> Option<&Map<String, Value>> {
    let obj = output.as_object()?;
    let blocks = obj.get("content")?.as_array()?;
    let typed = blocks
        .iter()
        .all(|b| b.get("type").and_then(Value::as_str).is_some());
    let known = obj.keys().all(|k| {
        matches!(
            k.as_str(),
            "content" | "structuredContent" | "isError" | "_meta"
        )
    });
    (typed && known).then_some(obj)
}

/// One piece of what the model is sent.
#[derive(Debug, Clone, PartialEq)]
enum Part {
    Text(String),
    Image {
        mime: String,
        data: String,
    },
    /// Media no text-only format can carry: `(kind, mime, base64 data)`.
    Media(&'static str, String, String),
}

fn str_of<'a>(v: &'a Value, key: &str) -> &'a str {
    v.get(key).and_then(Value::as_str).unwrap_or("")
}

fn compact(v: &Value) -> String {
    v.to_string()
}

/// The parts of an output, in order.
fn parts(output: &Value) -> Vec<Part> {
    let Some(r) = as_call_tool_result(output) else {
        return vec![Part::Text(match output {
            Value::String(s) => s.clone(),
            other => compact(other),
        })];
    };
    let mut out = Vec::new();
    for b in r
        .get("content")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
    {
        out.push(match str_of(b, "type") {
            "text" => Part::Text(str_of(b, "text").to_string()),
            "image" => Part::Image {
                mime: str_of(b, "mimeType").to_string(),
                data: str_of(b, "data").to_string(),
            },
            "audio" => Part::Media(
                "audio",
                str_of(b, "mimeType").into(),
                str_of(b, "data").into(),
            ),
            "resource_link" => Part::Text(link(b)),
            "resource" => embedded(b.get("resource").unwrap_or(&Value::Null)),
            _ => Part::Text(compact(b)),
        });
    }
    if let Some(sc) = r.get("structuredContent") {
        let said = out.iter().any(|p| match p {
            Part::Text(t) => serde_json::from_str::<Value>(t).ok().as_ref() == Some(sc),
            _ => false,
        });
        if !said {
            out.push(Part::Text(compact(sc)));
        }
    }
    out
}

/// A resource link as text: its title or name, URI, and media type.
fn link(b: &Value) -> String {
    let name = [str_of(b, "title"), str_of(b, "name")]
        .into_iter()
        .find(|s| !s.is_empty())
        .unwrap_or("resource");
    let mime = match str_of(b, "mimeType") {
        "" => String::new(),
        m => format!(", {m}"),
    };
    let about = match str_of(b, "description") {
        "" => String::new(),
        d => format!(": {d}"),
    };
    format!(
        "[resource link: {name} <{}>{mime}{about}]",
        str_of(b, "uri")
    )
}

/// An embedded resource: its text under a line naming the URI, an image, or a note.
fn embedded(r: &Value) -> Part {
    let (uri, mime) = (str_of(r, "uri"), str_of(r, "mimeType"));
    if let Some(text) = r.get("text").and_then(Value::as_str) {
        return Part::Text(format!("[resource <{uri}>]\n{text}"));
    }
    let blob = str_of(r, "blob");
    if mime.starts_with("image/") {
        return Part::Image {
            mime: mime.into(),
            data: blob.into(),
        };
    }
    Part::Media("resource", mime.to_string(), blob.to_string())
}

/// `12 KB` for the decoded size of base64 `data`.
fn size(data: &str) -> String {
    let pad = data.bytes().rev().take_while(|b| *b == b'=').count();
    let bytes = (data.len() / 4 * 3).saturating_sub(pad);
    if bytes < 1024 {
        format!("{bytes} bytes")
    } else {
        format!("{} KB", bytes.div_ceil(1024))
    }
}

fn note(mime: &str, data: &str, why: &str) -> String {
    let mime = if mime.is_empty() { "binary" } else { mime };
    format!("[{mime}, {}, not shown: {why}]", size(data))
}

const TEXT_ONLY: &str = "this format's tool results carry text only";

/// Anthropic's base64 image media types.
const ANTHROPIC_IMAGES: [&str; 4] = ["image/jpeg", "image/png", "image/gif", "image/webp"];

/// The parts as one format's content blocks (a lone text part as a string).
fn blocks(format: Format, parts: Vec<Part>) -> Value {
    let text_type = match format {
        Format::OpenaiResponses => "input_text",
        _ => "text",
    };
    let text = |t: String| json!({"type": text_type, "text": t});
    let out: Vec<Value> = parts
        .into_iter()
        .map(|p| match (p, format) {
            (Part::Text(t), _) => text(t),
            (Part::Image { mime, data }, Format::Anthropic)
                if ANTHROPIC_IMAGES.contains(&mime.as_str()) =>
            {
                json!({"type": "image", "source": {"type": "base64", "media_type": mime, "data": data}})
            }
            (Part::Image { mime, data }, Format::Anthropic) => text(note(
                &mime,
                &data,
                "this format takes JPEG, PNG, GIF and WebP images only",
            )),
            (Part::Image { mime, data }, Format::OpenaiResponses) => {
                json!({"type": "input_image", "image_url": format!("data:{mime};base64,{data}")})
            }
            (Part::Image { mime, data }, _) => text(note(&mime, &data, TEXT_ONLY)),
            (Part::Media(kind, mime, data), _) => text(note(
                &mime,
                &data,
                &format!("this format's tool results carry no {kind} data"),
            )),
        })
        .collect();
    match out.as_slice() {
        [] => json!(""),
        [one] if one["type"] == text_type => one["text"].clone(),
        _ => Value::Array(out),
    }
}

/// The MCP `CallToolResult` for a result.
fn mcp_result(r: &ToolResult) -> Value {
    let mut out = match as_call_tool_result(&r.content) {
        Some(obj) if !r.is_error => {
            let mut o = obj.clone();
            o.remove("isError");
            Value::Object(o)
        }
        _ => {
            let text = match &r.content {
                Value::String(s) => s.clone(),
                other => compact(other),
            };
            let mut v = json!({"content": [{"type": "text", "text": text}]});
            if r.content.is_object() && !r.is_error {
                v["structuredContent"] = r.content.clone();
            }
            v
        }
    };
    out["isError"] = json!(r.is_error);
    out
}

/// A result in a format's tool-result shape, addressed to `call_id`.
pub fn result_shape(format: Format, call_id: &str, r: &ToolResult) -> Value {
    if format == Format::Mcp {
        return mcp_result(r);
    }
    let content = blocks(format, parts(&r.content));
    match format {
        Format::Anthropic => {
            json!({"type": "tool_result", "tool_use_id": call_id, "content": content, "is_error": r.is_error})
        }
        Format::OpenaiChat => {
            json!({"role": "tool", "tool_call_id": call_id, "content": content})
        }
        _ => json!({"type": "function_call_output", "call_id": call_id, "output": content}),
    }
}

/// Bytes of what the model is sent for an output: text (UTF-8), image and
/// media data (base64) and JSON, without the format's wrapper. The output
/// cap counts these.
pub fn model_bytes(output: &Value) -> u64 {
    if as_call_tool_result(output).is_none() && !output.is_string() {
        return holaryn_model::json_len(output); // one text block of JSON
    }
    parts(output)
        .iter()
        .map(|p| match p {
            Part::Text(t) => t.len(),
            Part::Image { mime, data } => mime.len() + data.len(),
            Part::Media(_, mime, data) => mime.len() + data.len(),
        } as u64)
        .sum()
}
