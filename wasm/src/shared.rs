//! State shared by a runtime and its sessions, and event delivery.
//!
//! Re-entrancy rules (a host callback may call back into the runtime):
//! - core state is borrowed only inside one synchronous core step, and no
//!   JavaScript runs while it is borrowed ([`Shared::core`] never panics: a
//!   borrow that is not free is a typed `runtime.busy` error);
//! - events are queued by the core and delivered by [`Shared::flush`] after
//!   the borrow ends; delivery never nests: a listener that calls the runtime
//!   gets its answer, and the events that call causes are delivered by the
//!   delivery loop already running, after the current event, so a listener
//!   that reacts to every event cannot recurse;
//! - what the host's own call caused is delivered in full; what listeners
//!   cause while it is delivered (feedback) is delivered in later rounds, at
//!   most [`MAX_ROUNDS`] rounds and [`MAX_FEEDBACK`] events per flush. A
//!   listener feedback loop (one that changes the registry on every event
//!   grows exponentially) is cut there: the rest is not delivered (activity
//!   records stay readable in the activity ring).

use crate::embedder::Embedder;
use holaryn_core::{Error, ErrorCode, Runtime};
use js_sys::Function;
use std::cell::{Cell, Ref, RefCell, RefMut};
use std::rc::Rc;
use wasm_bindgen::JsValue;

/// Rounds of listener-caused events one flush delivers.
pub const MAX_ROUNDS: u32 = 16;
/// Listener-caused events one flush delivers.
pub const MAX_FEEDBACK: usize = 1024;

/// The core runtime plus the host's event listeners.
pub struct Shared {
    /// The core runtime (borrowed only inside synchronous steps).
    rt: RefCell<Runtime>,
    /// Event listeners.
    listeners: RefCell<Vec<Function>>,
    /// True while a flush is delivering (a nested flush leaves the work to it).
    delivering: Cell<bool>,
    /// The host embedder, when one is set.
    embedder: RefCell<Option<Rc<Embedder>>>,
}

fn busy() -> JsValue {
    crate::errors::to_js(&Error::new(
        ErrorCode::RuntimeBusy,
        "the runtime's state is in use by another step (a host callback re-entered it mid-step); nothing was changed, call again after that step returns",
    ))
}

impl Shared {
    /// Wrap a core runtime.
    pub fn new(rt: Runtime) -> Self {
        Shared {
            rt: RefCell::new(rt),
            listeners: RefCell::new(Vec::new()),
            delivering: Cell::new(false),
            embedder: RefCell::new(None),
        }
    }

    /// Set or clear the host embedder.
    pub fn set_embedder(&self, embedder: Option<Embedder>) -> Result<(), JsValue> {
        let mut slot = self.embedder.try_borrow_mut().map_err(|_| busy())?;
        *slot = embedder.map(Rc::new);
        Ok(())
    }

    /// The host embedder, when one is set.
    pub fn embedder(&self) -> Option<Rc<Embedder>> {
        self.embedder.try_borrow().ok().and_then(|e| e.clone())
    }

    /// The core for one synchronous step (never across a call into JavaScript).
    pub fn core(&self) -> Result<RefMut<'_, Runtime>, JsValue> {
        self.rt.try_borrow_mut().map_err(|_| busy())
    }

    /// The core, read-only, for one synchronous step.
    pub fn core_ref(&self) -> Result<Ref<'_, Runtime>, JsValue> {
        self.rt.try_borrow().map_err(|_| busy())
    }

    /// Add an event listener.
    pub fn listen(&self, listener: Function) -> Result<(), JsValue> {
        let mut all = self.listeners.try_borrow_mut().map_err(|_| busy())?;
        all.push(listener);
        Ok(())
    }

    /// Remove an event listener (by identity).
    pub fn unlisten(&self, listener: &Function) -> Result<(), JsValue> {
        let mut all = self.listeners.try_borrow_mut().map_err(|_| busy())?;
        all.retain(|l| !js_sys::Object::is(l, listener));
        Ok(())
    }

    /// Deliver queued events to every listener (no borrow is held meanwhile).
    pub fn flush(&self) {
        if self.delivering.get() {
            return;
        }
        self.delivering.set(true);
        // Round 0 is what the caller caused; later rounds are feedback.
        let mut feedback = 0usize;
        for round in 0..=MAX_ROUNDS {
            // Nobody listens: the events are dropped unconverted (no JSON
            // round trip per call, and the queue keeps its buffer), and no
            // listener can cause feedback.
            if self.listeners.try_borrow().is_ok_and(|l| l.is_empty()) {
                if let Ok(mut rt) = self.rt.try_borrow_mut() {
                    rt.discard_events();
                }
                break;
            }
            let events = match self.rt.try_borrow_mut() {
                Ok(mut rt) => rt.drain_events(),
                Err(_) => break,
            };
            if events.is_empty() || round == MAX_ROUNDS {
                break;
            }
            // Not empty: checked above, and draining calls no listener.
            let listeners: Vec<Function> = match self.listeners.try_borrow() {
                Ok(l) => l.clone(),
                Err(_) => break,
            };
            for ev in events {
                if round > 0 {
                    if feedback >= MAX_FEEDBACK {
                        break;
                    }
                    feedback += 1;
                }
                let Ok(v) = crate::convert::to_js(&ev) else {
                    continue;
                };
                for l in &listeners {
                    // A throwing listener must not break the runtime.
                    let _ = l.call1(&JsValue::UNDEFINED, &v);
                }
            }
        }
        self.delivering.set(false);
    }
}
