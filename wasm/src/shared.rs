//! State shared by a runtime and its sessions, and event delivery.

use holaryn_core::Runtime;
use js_sys::Function;
use std::cell::RefCell;
use wasm_bindgen::JsValue;

/// The core runtime plus the host's event listeners.
pub struct Shared {
    /// The core runtime (borrowed only inside synchronous steps).
    pub rt: RefCell<Runtime>,
    /// Event listeners.
    pub listeners: RefCell<Vec<Function>>,
}

impl Shared {
    /// Deliver queued events to every listener (after the borrow is released).
    pub fn flush(&self) {
        let events = match self.rt.try_borrow_mut() {
            Ok(mut rt) => rt.drain_events(),
            Err(_) => return,
        };
        let listeners: Vec<Function> = self.listeners.borrow().clone();
        if events.is_empty() || listeners.is_empty() {
            return;
        }
        for ev in events {
            let Ok(v) = crate::convert::to_js(&ev) else {
                continue;
            };
            for l in &listeners {
                // A throwing listener must not break the runtime.
                let _ = l.call1(&JsValue::UNDEFINED, &v);
            }
        }
    }
}
