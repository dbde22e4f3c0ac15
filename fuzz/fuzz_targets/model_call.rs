//! `dispatchModelCall` argument decoding for every format, and the wire names.
//!
//! First byte: the format (or all four); the rest is a JSON value (text or
//! generated) taken as a provider-shaped tool call. Asserted: decoding is Ok
//! or `input.invalid` on `toolCall`; an Ok call carries the id, name and
//! arguments the format puts where it says; the tool-result shape echoes the
//! call id; and exporting tools named by the input's strings gives
//! provider-safe, unique wire names that map back to each canonical name.
#![no_main]

use holaryn_core;
use holaryn_core::ErrorCode;
use holaryn_core::{parse_call, result_shape};
use holaryn_fuzz::{json_input, strings_in};
use holaryn_model::{is_provider_safe, wire_name, Format};
use libfuzzer_sys::fuzz_target;
use serde_json::{json, Value};

fuzz_target!(|data: &[u8]| {
    let Some((&sel, rest)) = data.split_first() else {
        return;
    };
    let Some(call) = json_input(rest) else {
        return;
    };
    let formats = match sel % 5 {
        4 => Format::ALL.to_vec(),
        i => vec![Format::ALL[usize::from(i)]],
    };
    for format in formats {
        decode(format, &call);
    }
    if sel & 0x80 != 0 {
        wire_names(&call);
    }
});

fn decode(format: Format, call: &Value) {
    let parsed = match parse_call(format, call, u64::MAX) {
        Ok(p) => p,
        Err(e) => {
            assert_eq!(e.code, ErrorCode::InputInvalid);
            assert_eq!(e.field.as_deref(), Some("toolCall"));
            return;
        }
    };
    let s = |v: Option<&Value>| v.and_then(Value::as_str).map(str::to_string);
    let text_args = |v: Option<&Value>| match v.and_then(Value::as_str) {
        Some(t) if !t.trim().is_empty() => serde_json::from_str(t).ok(),
        _ => Some(json!({})),
    };
    let (id, name, args) = match format {
        Format::Anthropic => (
            s(call.get("id")),
            s(call.get("name")),
            Some(call.get("input").cloned().unwrap_or(json!({}))),
        ),
        Format::OpenaiChat => {
            let f = call.get("function");
            (
                s(call.get("id")),
                s(f.and_then(|f| f.get("name"))),
                text_args(f.and_then(|f| f.get("arguments"))),
            )
        }
        Format::OpenaiResponses => (
            s(call.get("call_id")),
            s(call.get("name")),
            text_args(call.get("arguments")),
        ),
        Format::Mcp => (
            Some(String::new()),
            s(call.get("name")),
            Some(call.get("arguments").cloned().unwrap_or(json!({}))),
        ),
    };
    assert_eq!(Some(&parsed.call_id), id.as_ref());
    assert_eq!(Some(&parsed.name), name.as_ref());
    assert_eq!(Some(&parsed.arguments), args.as_ref());
    let shape = result_shape(format, &parsed.call_id, false, &parsed.arguments);
    let echoed = ["tool_use_id", "tool_call_id", "call_id"]
        .iter()
        .find_map(|k| shape.get(*k))
        .and_then(Value::as_str);
    if format != Format::Mcp {
        assert_eq!(echoed, Some(parsed.call_id.as_str()));
    }
}

fn wire_names(v: &Value) {
    let mut names = Vec::new();
    strings_in(v, &mut names);
    names.truncate(32);
    names.sort();
    names.dedup();
    for n in &names {
        let w = wire_name(n);
        assert!(!w.is_empty() && w.len() <= 64, "{w:?}");
        assert!(w
            .bytes()
            .all(|c| c.is_ascii_alphanumeric() || c == b'_' || c == b'-'));
    }
    // The registry-wide assignment `export` uses: every name gets one
    // provider-safe wire name, no two names share one, a safe name keeps its
    // own, and no other name takes a registered name.
    let registered = |w: &str| names.iter().any(|n| n == w);
    let tagged = holaryn_model::wire_names(names.iter().map(String::as_str), &registered);
    let mut seen = std::collections::BTreeSet::new();
    for n in &names {
        let wire = if is_provider_safe(n) {
            n.clone()
        } else {
            tagged.get(n).cloned().unwrap_or_else(|| wire_name(n))
        };
        assert!(wire.len() <= 64, "{wire:?}");
        assert!(is_provider_safe(&wire), "{wire:?}");
        if &wire != n {
            assert!(
                !registered(&wire),
                "{n:?} took the registered name {wire:?}"
            );
        }
        assert!(seen.insert(wire.clone()), "{wire:?} given out twice");
    }
}
