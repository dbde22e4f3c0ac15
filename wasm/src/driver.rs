//! The async driver: runs the core's gate machine, awaiting the host's
//! Promise-returning callbacks between steps. The runtime is borrowed only
//! inside each synchronous step, never across an `await`.

use crate::convert;
use crate::host::{error_message, invoke, race, Host, Raced};
use crate::shared::Shared;
use holaryn_core::ApprovalReason;
use holaryn_core::{
    ApprovalAnswer, CallOutcome, CallState, ExecAnswer, GateStep, HookAnswer, HookPhase,
    ScreenAnswer,
};
use js_sys::Reflect;
use serde_json::{json, Value};
use std::rc::Rc;
use wasm_bindgen::JsValue;
use web_sys::AbortController;

fn describe(call: &CallState) -> Value {
    let d = call.descriptor();
    json!({
        "callId": call.call_id(),
        "sessionId": call.session(),
        "tool": d.map(|d| d.name.clone()),
        "localName": d.map(|d| d.local_name.clone()),
        "providerId": d.map(|d| d.provider.id.clone()),
        "source": d.map(|d| d.source),
        "title": d.map(|d| d.title.clone()),
        "path": call.path(),
        "timeoutMs": call.timeout_ms(),
        "fromCode": call.is_code_call(),
    })
}

/// The callback's argument: the call's description plus `extra` fields,
/// serialised by reference (a call's arguments are never copied for it).
fn request(call: &CallState, extra: &[(&str, &Value)]) -> JsValue {
    let mut text = describe(call).to_string();
    text.pop(); // the closing `}` of the description object
    for (k, x) in extra {
        text.push(',');
        text.push_str(&Value::from(*k).to_string());
        text.push(':');
        text.push_str(&x.to_string());
    }
    text.push('}');
    js_sys::JSON::parse(&text).unwrap_or(JsValue::UNDEFINED)
}

fn field(v: &JsValue, key: &str) -> JsValue {
    Reflect::get(v, &JsValue::from_str(key)).unwrap_or(JsValue::UNDEFINED)
}

fn text(v: &JsValue, key: &str) -> String {
    field(v, key).as_string().unwrap_or_default()
}

fn hook_answer(v: Result<JsValue, JsValue>) -> HookAnswer {
    match v {
        Ok(v) if text(&v, "decision") == "veto" => HookAnswer::Veto {
            reason: text(&v, "reason"),
        },
        Ok(v) if v.as_bool() == Some(false) => HookAnswer::Veto {
            reason: String::new(),
        },
        Ok(_) => HookAnswer::Continue,
        Err(e) => HookAnswer::Veto {
            reason: format!("the hook failed: {}", error_message(&e)),
        },
    }
}

fn approval_answer(v: Result<JsValue, JsValue>) -> ApprovalAnswer {
    match v {
        Ok(v) if v.as_bool() == Some(true) || text(&v, "decision") == "approve" => {
            ApprovalAnswer::Approve
        }
        Ok(v) => ApprovalAnswer::Deny {
            reason: text(&v, "reason"),
        },
        Err(e) => ApprovalAnswer::Deny {
            reason: format!("the approval callback failed: {}", error_message(&e)),
        },
    }
}

fn screen_answer(v: Result<JsValue, JsValue>) -> ScreenAnswer {
    match v {
        Ok(v) => match text(&v, "decision").as_str() {
            "block" => ScreenAnswer::Block {
                reason: text(&v, "reason"),
            },
            "replace" => match convert::json(field(&v, "output"), "screened output") {
                Ok(output) => ScreenAnswer::Replace { output },
                Err(_) => ScreenAnswer::Block {
                    reason: "the screened output is not JSON".into(),
                },
            },
            _ => ScreenAnswer::Pass,
        },
        Err(e) => ScreenAnswer::Block {
            reason: format!("output screening failed: {}", error_message(&e)),
        },
    }
}

/// How a wait for a host callback ended.
enum Asked {
    /// No such callback: the step's default applies.
    Missing,
    /// The callback fulfilled or rejected (or threw).
    Answer(Result<JsValue, JsValue>),
    /// The step's wait ran out ([`CallState::wait_ms`]).
    TimedOut,
    /// The host's signal aborted.
    Cancelled,
}

/// Call a host callback and race it against the step's due time and the host's signal.
async fn ask(host: &Host, key: &str, arg: &JsValue, call: &CallState) -> Asked {
    let Some(f) = host.callback(key) else {
        return Asked::Missing;
    };
    let wait = call.wait_ms(host.now());
    match race(invoke(&f, arg), Some(wait), host.signal().as_ref()).await {
        Raced::Value(v) => Asked::Answer(Ok(v)),
        Raced::Error(e) => Asked::Answer(Err(e)),
        Raced::Timeout => Asked::TimedOut,
        Raced::Aborted => Asked::Cancelled,
    }
}

/// Run a gate machine to its outcome. The core decides every deadline; this
/// only races the host's callbacks against the due time the core gives.
pub async fn drive(
    shared: Rc<Shared>,
    host: Host,
    first: GateStep,
) -> Result<CallOutcome, JsValue> {
    let mut step = first;
    loop {
        shared.flush();
        if host.cancelled() {
            let now = host.now();
            let mut rt = shared.core()?;
            let out = match step {
                GateStep::Done(o) => o,
                GateStep::HookBefore(r) | GateStep::HookAfter(r) => r.cancel(&mut rt, now),
                GateStep::Approval(r) => r.cancel(&mut rt, now),
                GateStep::Execute(r) => r.cancel(&mut rt, now),
                GateStep::Screen(r) => r.cancel(&mut rt, now),
            };
            drop(rt);
            shared.flush();
            return Ok(out);
        }
        step = match step {
            GateStep::Done(outcome) => return Ok(outcome),
            GateStep::HookBefore(r) | GateStep::HookAfter(r) => {
                let phase = match r.phase {
                    HookPhase::Before => "before",
                    HookPhase::After => "after",
                };
                let arg = request(r.call(), &[("phase", &json!(phase))]);
                let answer = match ask(&host, "hook", &arg, r.call()).await {
                    Asked::Cancelled => None,
                    Asked::Missing => Some(HookAnswer::Continue),
                    Asked::TimedOut => Some(HookAnswer::TimedOut),
                    Asked::Answer(v) => Some(hook_answer(v)),
                };
                let now = host.now();
                let mut rt = shared.core()?;
                match answer {
                    Some(a) => r.resume(&mut rt, a, now),
                    None => GateStep::Done(r.cancel(&mut rt, now)),
                }
            }
            GateStep::Approval(r) => {
                let d = r.call().descriptor();
                let reason = d.map(|d| ApprovalReason::of(d).as_str());
                let arg = request(
                    r.call(),
                    &[
                        ("args", r.call().args()),
                        ("reason", &json!(reason)),
                        ("why", &json!(d.map(|d| ApprovalReason::of(d).text()))),
                        ("description", &json!(d.map(|d| d.description.as_str()))),
                    ],
                );
                let answer = match ask(&host, "approve", &arg, r.call()).await {
                    Asked::Cancelled => None,
                    Asked::Missing => Some(ApprovalAnswer::Deny {
                        reason: "no approval callback is configured".into(),
                    }),
                    Asked::TimedOut => Some(ApprovalAnswer::TimedOut),
                    Asked::Answer(v) => Some(approval_answer(v)),
                };
                let now = host.now();
                let mut rt = shared.core()?;
                match answer {
                    Some(a) => r.resume(&mut rt, a, now),
                    None => GateStep::Done(r.cancel(&mut rt, now)),
                }
            }
            GateStep::Execute(r) => {
                let ctl = AbortController::new().ok();
                let arg = request(r.call(), &[("args", r.call().args())]);
                if let Some(c) = &ctl {
                    let _ = Reflect::set(&arg, &"signal".into(), &c.signal());
                }
                let raced = match host.callback("execute") {
                    None => Raced::Error(JsValue::from_str("no execute callback is configured")),
                    Some(f) => {
                        let wait = r.call().wait_ms(host.now());
                        race(invoke(&f, &arg), Some(wait), host.signal().as_ref()).await
                    }
                };
                if !matches!(raced, Raced::Value(_) | Raced::Error(_)) {
                    if let Some(c) = &ctl {
                        c.abort();
                    }
                }
                let now = host.now();
                let answer = match raced {
                    Raced::Value(v) => match convert::json(v, "tool output") {
                        Ok(output) => Some(ExecAnswer::Ok { output }),
                        Err(_) => Some(ExecAnswer::Error {
                            message: "the tool output is not JSON-serialisable".into(),
                        }),
                    },
                    Raced::Error(e) => Some(ExecAnswer::Error {
                        message: error_message(&e),
                    }),
                    Raced::Timeout => Some(ExecAnswer::TimedOut),
                    Raced::Aborted => None,
                };
                let mut rt = shared.core()?;
                match answer {
                    Some(a) => r.resume(&mut rt, a, now),
                    None => GateStep::Done(r.cancel(&mut rt, now)),
                }
            }
            GateStep::Screen(r) => {
                let output = r.output().cloned().unwrap_or(Value::Null);
                let arg = request(r.call(), &[("output", &output)]);
                let answer = match ask(&host, "screen", &arg, r.call()).await {
                    Asked::Cancelled => None,
                    Asked::Missing => Some(ScreenAnswer::Pass),
                    Asked::TimedOut => Some(ScreenAnswer::TimedOut),
                    Asked::Answer(v) => Some(screen_answer(v)),
                };
                let now = host.now();
                let mut rt = shared.core()?;
                match answer {
                    Some(a) => r.resume(&mut rt, a, now),
                    None => GateStep::Done(r.cancel(&mut rt, now)),
                }
            }
        };
    }
}
