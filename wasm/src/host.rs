//! Host callbacks: reading the host object, time, cancellation and racing
//! Promises against timers and AbortSignals without leaking closures.
//!
//! Host objects are untrusted: every read goes through `Reflect` (a throwing
//! getter reads as absent), a returned value is adopted by a fresh Promise
//! (a hostile thenable can only reject it), and nothing here lets a
//! JavaScript exception cross Rust frames.

use std::cell::Cell;
use std::rc::Rc;

use js_sys::{Function, Object, Promise, Reflect};
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use wasm_bindgen_futures::{future_to_promise, JsFuture};
use web_sys::AbortSignal;

/// The keys a host object may carry.
const HOST_KEYS: [&str; 6] = ["execute", "approve", "hook", "screen", "signal", "now"];

/// The host object given to a call (`execute`, `approve`, `hook`, `screen`, `signal`, `now`).
/// Clones share one clock floor ([`Host::now`]); [`Host::or`] starts a fresh one per call.
#[derive(Clone)]
pub struct Host {
    obj: JsValue,
    /// The last time returned and the local monotonic clock when it was read.
    clock: Rc<Cell<Option<(f64, f64)>>>,
}

impl Host {
    /// Wrap a host object (undefined/null allowed: every callback absent).
    pub fn new(obj: JsValue) -> Self {
        Host {
            obj,
            clock: Rc::default(),
        }
    }

    /// Merge: fields of `self` win over `fallback` (only the host keys are read).
    pub fn or(self, fallback: &Host) -> Host {
        if self.obj.is_undefined() || self.obj.is_null() {
            return Host::new(fallback.obj.clone());
        }
        if fallback.obj.is_undefined() || fallback.obj.is_null() {
            return Host::new(self.obj);
        }
        let merged = Object::new();
        for key in HOST_KEYS {
            let mut v = self.get(key);
            if v.is_undefined() {
                v = fallback.get(key);
            }
            if !v.is_undefined() {
                let _ = Reflect::set(&merged, &JsValue::from_str(key), &v);
            }
        }
        Host::new(merged.into())
    }

    fn get(&self, key: &str) -> JsValue {
        if self.obj.is_undefined() || self.obj.is_null() {
            return JsValue::UNDEFINED;
        }
        Reflect::get(&self.obj, &JsValue::from_str(key)).unwrap_or(JsValue::UNDEFINED)
    }

    /// A callback by name, when it is a function.
    pub fn callback(&self, key: &str) -> Option<Function> {
        self.get(key).dyn_into::<Function>().ok()
    }

    /// The host's cancellation signal.
    pub fn signal(&self) -> Option<AbortSignal> {
        self.get("signal").dyn_into::<AbortSignal>().ok()
    }

    /// True when the host has cancelled.
    pub fn cancelled(&self) -> bool {
        self.signal().is_some_and(|s| aborted(&s))
    }

    /// Host time in ms (`host.now()` or `Date.now()`), never slower than a
    /// monotonic clock since the last read: a host clock that stands still or
    /// goes back (a fake, or the wall clock set back) cannot stretch a deadline.
    pub fn now(&self) -> u64 {
        let t = self
            .callback("now")
            .and_then(|f| f.call0(&self.obj).ok())
            .and_then(|v| v.as_f64())
            .unwrap_or_else(js_sys::Date::now);
        let t = if t.is_finite() && t > 0.0 { t } else { 0.0 };
        let local = monotonic_ms();
        let t = match self.clock.get() {
            Some((last, at)) => t.max(last + (local - at).max(0.0)),
            None => t,
        };
        self.clock.set(Some((t, local)));
        t as u64
    }
}

thread_local! {
    /// `performance` and its `now`, looked up once (a call reads the clock several times).
    static PERFORMANCE: Option<(JsValue, Function)> = Reflect::get(&js_sys::global(), &"performance".into())
        .ok()
        .filter(|p| p.is_object())
        .and_then(|p| {
            let f = Reflect::get(&p, &"now".into()).ok()?.dyn_into::<Function>().ok()?;
            Some((p, f))
        });
}

/// `performance.now()` (monotonic), or `Date.now()` where there is no `performance`.
fn monotonic_ms() -> f64 {
    PERFORMANCE
        .with(|p| p.as_ref().and_then(|(p, f)| f.call0(p).ok()?.as_f64()))
        .filter(|t| t.is_finite())
        .unwrap_or_else(js_sys::Date::now)
}

/// `signal.aborted`, read so that a fake signal cannot throw through Rust.
fn aborted(sig: &AbortSignal) -> bool {
    Reflect::get(sig, &"aborted".into())
        .ok()
        .and_then(|v| v.as_bool())
        .unwrap_or(false)
}

/// Call a host callback and adopt what it returns into a fresh Promise: a
/// throw, a hostile thenable or a rejection all become a rejection.
pub fn invoke(f: &Function, arg: &JsValue) -> Promise {
    Promise::new(&mut |resolve, reject| {
        let r = match f.call1(&JsValue::UNDEFINED, arg) {
            Ok(v) => resolve.call1(&JsValue::UNDEFINED, &v),
            Err(e) => reject.call1(&JsValue::UNDEFINED, &e),
        };
        if let Err(e) = r {
            let _ = reject.call1(&JsValue::UNDEFINED, &e);
        }
    })
}

/// How a race ended.
pub enum Raced {
    /// The main promise fulfilled.
    Value(JsValue),
    /// The main promise rejected.
    Error(JsValue),
    /// The timer fired.
    Timeout,
    /// The host's signal aborted.
    Aborted,
}

fn tag(kind: u32, value: JsValue) -> JsValue {
    let o = Object::new();
    let _ = Reflect::set(&o, &"k".into(), &JsValue::from(kind));
    let _ = Reflect::set(&o, &"v".into(), &value);
    o.into()
}

fn tagged(p: Promise, ok: u32, err: u32) -> Promise {
    future_to_promise(async move {
        Ok(match JsFuture::from(p).await {
            Ok(v) => tag(ok, v),
            Err(e) => tag(err, e),
        })
    })
}

fn global_fn(name: &str) -> Option<Function> {
    Reflect::get(&js_sys::global(), &JsValue::from_str(name))
        .ok()
        .and_then(|f| f.dyn_into::<Function>().ok())
}

/// A timer armed by [`race`], cleared however the race ends (an early return,
/// the race's future dropped): no timer outlives its wait to keep the host alive.
struct Armed(Option<JsValue>);

impl Drop for Armed {
    fn drop(&mut self) {
        if let (Some(id), Some(clear)) = (self.0.take(), global_fn("clearTimeout")) {
            let _ = clear.call1(&JsValue::NULL, &id);
        }
    }
}

/// Race `main` against an optional timeout (ms) and an optional abort signal.
pub async fn race(main: Promise, timeout_ms: Option<u64>, signal: Option<&AbortSignal>) -> Raced {
    // Aborted already (a host that aborts inside its own callback): no timer is armed.
    if signal.is_some_and(aborted) {
        return Raced::Aborted;
    }
    let racers = js_sys::Array::new();
    racers.push(&tagged(main, 0, 1));
    let mut timer = Armed(None);
    if let (Some(ms), Some(set_timeout)) = (timeout_ms, global_fn("setTimeout")) {
        let mut id = JsValue::UNDEFINED;
        let p = Promise::new(&mut |resolve, _| {
            id = set_timeout
                .call3(
                    &JsValue::NULL,
                    &resolve,
                    &JsValue::from_f64(ms as f64),
                    &tag(2, JsValue::UNDEFINED),
                )
                .unwrap_or(JsValue::UNDEFINED);
        });
        timer.0 = Some(id);
        racers.push(&p);
    }
    if let Some(sig) = signal {
        let p = Promise::new(&mut |resolve, _| {
            let opts = Object::new();
            let _ = Reflect::set(&opts, &"once".into(), &JsValue::TRUE);
            let bound = resolve.bind1(&JsValue::NULL, &tag(3, JsValue::UNDEFINED));
            let add = Reflect::get(sig, &"addEventListener".into())
                .ok()
                .and_then(|f| f.dyn_into::<Function>().ok());
            if let Some(add) = add {
                let _ = add.call3(sig, &"abort".into(), &bound, &opts);
            }
        });
        racers.push(&p);
    }
    let winner = JsFuture::from(Promise::race(&racers))
        .await
        .unwrap_or(JsValue::UNDEFINED);
    drop(timer);
    let k = Reflect::get(&winner, &"k".into())
        .ok()
        .and_then(|v| v.as_f64())
        .unwrap_or(1.0) as u32;
    let v = Reflect::get(&winner, &"v".into()).unwrap_or(JsValue::UNDEFINED);
    match k {
        0 => Raced::Value(v),
        2 => Raced::Timeout,
        3 => Raced::Aborted,
        _ => Raced::Error(v),
    }
}

/// The message of a thrown JS value (for the model only; never recorded).
pub fn error_message(e: &JsValue) -> String {
    if e.is_instance_of::<js_sys::Error>() {
        // Read through Reflect: a hostile `message` getter must not throw through Rust.
        if let Some(m) = Reflect::get(e, &"message".into())
            .ok()
            .and_then(|m| m.as_string())
        {
            return m;
        }
    }
    e.as_string()
        .unwrap_or_else(|| "the host callback failed".into())
}
