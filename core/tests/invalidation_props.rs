//! Property (issue 20): random interleavings of registering, changing and
//! removing tools on two providers, policy changes, provider disconnects,
//! inspects, exports and calls (by name, handle and each format's wire name)
//! never run a descriptor other than the one the session's last inspect
//! showed; every tool that did not change since its inspect stays callable by
//! every name form while its provider is up (a provider that goes down and
//! comes back unchanged is no change: issue 31); a tool shown and since
//! changed asks to be inspected again (`schema.not_loaded`), never
//! `tool.unknown`; and a dynamic session's export only grows, byte-identical
//! prefix first, until a tool in it changes or its provider goes down (a tool
//! whose provider comes back is appended, not put back in its old place).

mod common;

use common::drive::{drive, Script};
use common::secret;
use holaryn_core::CallStatus;
use holaryn_core::SessionOptions;
use holaryn_core::Update;
use holaryn_core::{ErrorCode, Runtime};
use holaryn_model::Format;
use holaryn_model::ProviderStatus;
use proptest::prelude::*;
use serde_json::{json, Value};
use std::collections::{BTreeMap, BTreeSet};

/// (name, provider): two tools of `p1`, one of `p2`.
const TOOLS: [(&str, &str); 3] = [("a_one", "p1"), ("a_two", "p1"), ("b_one", "p2")];
const PROVIDERS: [&str; 2] = ["p1", "p2"];

#[derive(Debug, Clone)]
enum Op {
    Register(usize, u8),
    Remove(usize),
    Deny(usize),
    AllowAll,
    Disconnect(usize),
    Connect(usize),
    Inspect(usize),
    Export(usize),
    CallName(usize),
    CallHandle(usize),
    CallWire(usize, usize),
}

fn op() -> impl Strategy<Value = Op> {
    prop_oneof![
        3 => (0..3usize, 0..3u8).prop_map(|(t, v)| Op::Register(t, v)),
        1 => (0..3usize).prop_map(Op::Remove),
        1 => (0..3usize).prop_map(Op::Deny),
        1 => Just(Op::AllowAll),
        1 => (0..2usize).prop_map(Op::Disconnect),
        1 => (0..2usize).prop_map(Op::Connect),
        4 => (0..3usize).prop_map(Op::Inspect),
        2 => (0..4usize).prop_map(Op::Export),
        3 => (0..3usize).prop_map(Op::CallName),
        2 => (0..3usize).prop_map(Op::CallHandle),
        3 => (0..3usize, 0..4usize).prop_map(|(t, f)| Op::CallWire(t, f)),
    ]
}

fn spec(t: usize, variant: u8) -> Value {
    let (name, provider) = TOOLS[t];
    json!({
        "name": name, "description": format!("{name}, variant {variant}"),
        "source": "mcp", "provider": {"id": provider, "kind": "mcp"}, "trust": "trusted",
        "inputSchema": {"type": "object", "properties": {"path": {"type": "string"}}, "required": ["path"]}
    })
}

/// What the test knows, as the model would.
#[derive(Default)]
struct Model {
    /// Registered variant per tool.
    variant: BTreeMap<usize, u8>,
    denied: Option<usize>,
    down: BTreeSet<usize>,
    /// Descriptor version the last successful inspect showed.
    shown: BTreeMap<usize, String>,
    handles: BTreeMap<usize, String>,
    /// Tools inspected and unchanged since (descriptor, policy, provider).
    valid: BTreeSet<usize>,
    /// Per format, the last export's tools (JSON text of each).
    exports: BTreeMap<usize, Vec<String>>,
    /// Tools invalidated since any export (cleared per format on export).
    dirty: BTreeMap<usize, BTreeSet<usize>>,
}

impl Model {
    /// `t`'s provider went down or came back: it leaves or rejoins the export.
    fn flap(&mut self, t: usize) {
        if self.valid.contains(&t) {
            for f in 0..4 {
                self.dirty.entry(f).or_default().insert(t);
            }
        }
    }

    /// Valid and its provider up: listed and callable.
    fn callable(&self, t: usize) -> bool {
        self.valid.contains(&t) && !self.down.contains(&provider_of(t))
    }

    /// `t` changed since its inspect: it is no longer valid.
    fn invalidate(&mut self, t: usize) {
        if self.valid.remove(&t) {
            for f in 0..4 {
                self.dirty.entry(f).or_default().insert(t);
            }
        }
    }
}

fn provider_of(t: usize) -> usize {
    usize::from(TOOLS[t].1 == "p2")
}

fn call(rt: &mut Runtime, sid: &str, target: &str, m: &Model, t: usize) -> (bool, CallStatus) {
    let mut now = 100;
    let step = rt.start_call(sid, target, json!({"path": "x"}), now);
    let d = drive(rt, step, &Script::default(), &mut now);
    for v in &d.versions {
        assert_eq!(
            Some(v),
            m.shown.get(&t),
            "{target} ran a descriptor its last inspect did not show"
        );
    }
    (!d.executed.is_empty(), d.outcome.status)
}

fn run(ops: Vec<Op>) {
    let mut rt = Runtime::new();
    let mut m = Model::default();
    for t in 0..3 {
        rt.register_values(&[spec(t, 0)], 0).expect("register");
        m.variant.insert(t, 0);
    }
    let opts = SessionOptions {
        dynamic_discovery: true,
        ..SessionOptions::default()
    };
    let sid = rt.create_session(opts, &secret(3), 0).expect("session");
    for op in ops {
        match op {
            Op::Register(t, v) => {
                rt.register_values(&[spec(t, v)], 1).expect("register");
                if m.variant.insert(t, v) != Some(v) {
                    m.invalidate(t);
                }
            }
            Op::Remove(t) => {
                if m.variant.remove(&t).is_some() {
                    let update = Update {
                        remove: vec![TOOLS[t].0.into()],
                        ..Update::default()
                    };
                    rt.update(update, 1).expect("remove");
                    m.invalidate(t);
                }
            }
            Op::Deny(_) | Op::AllowAll => {
                let deny = if let Op::Deny(t) = op { Some(t) } else { None };
                let rules = json!({"deny": deny.map(|t| vec![TOOLS[t].0]).unwrap_or_default()});
                rt.edit_session(&sid, 1, |s| s.set_rules(&rules))
                    .expect("rules");
                if let Some(t) = deny.filter(|t| m.denied != Some(*t)) {
                    m.invalidate(t);
                }
                m.denied = deny;
            }
            Op::Disconnect(p) | Op::Connect(p) => {
                let up = matches!(op, Op::Connect(_));
                let status = if up {
                    ProviderStatus::Connected
                } else {
                    ProviderStatus::Disconnected
                };
                rt.set_provider_status(PROVIDERS[p], status, 1)
                    .expect("status");
                let moved = if up {
                    m.down.remove(&p)
                } else {
                    m.down.insert(p)
                };
                if moved {
                    for t in (0..3).filter(|t| provider_of(*t) == p) {
                        m.flap(t);
                    }
                }
            }
            Op::Inspect(t) => {
                if let Ok(out) = rt.tool_inspect(&sid, &json!({"name": TOOLS[t].0}), 1) {
                    if out.loaded {
                        m.shown.insert(t, out.version.clone());
                        m.handles.insert(t, out.handle.clone().expect("handle"));
                        m.valid.insert(t);
                    }
                }
            }
            Op::Export(f) => {
                let e = rt.export_tools(&sid, Format::ALL[f]).expect("export");
                let exported: BTreeSet<usize> = (0..3)
                    .filter(|t| e.names.values().any(|c| c == TOOLS[*t].0))
                    .collect();
                let listed: BTreeSet<usize> = (0..3).filter(|t| m.callable(*t)).collect();
                assert_eq!(
                    exported, listed,
                    "the export is exactly the valid tools whose provider is up"
                );
                let now: Vec<String> = e.tools.iter().map(Value::to_string).collect();
                if let Some(prev) = m.exports.get(&f) {
                    if prev.len() <= now.len() && prev[..] == now[..prev.len()] {
                        // grew with a byte-identical prefix
                    } else {
                        // Only a change to a tool in the previous export may reshape it.
                        let dirty = m.dirty.get(&f).cloned().unwrap_or_default();
                        assert!(
                            (0..3).any(|t| dirty.contains(&t) && prev.iter().any(|s| s.contains(TOOLS[t].0))),
                            "export changed although every tool in it is unchanged:\n{prev:?}\n{now:?}"
                        );
                    }
                }
                m.dirty.remove(&f);
                m.exports.insert(f, now);
            }
            Op::CallName(t) => {
                let (ran, status) = call(&mut rt, &sid, TOOLS[t].0, &m, t);
                if m.callable(t) {
                    assert!(
                        ran && status == CallStatus::Ok,
                        "{} stays callable",
                        TOOLS[t].0
                    );
                }
            }
            Op::CallHandle(t) => {
                if let Some(h) = m.handles.get(&t).cloned() {
                    let (ran, status) = call(&mut rt, &sid, &h, &m, t);
                    if m.callable(t) {
                        assert!(ran && status == CallStatus::Ok, "its handle stays valid");
                    }
                }
            }
            Op::CallWire(t, f) => match rt.model_call_target(&sid, Format::ALL[f], TOOLS[t].0) {
                Ok(c) => {
                    assert_eq!(c, TOOLS[t].0);
                    let (ran, status) = call(&mut rt, &sid, &c, &m, t);
                    if m.callable(t) {
                        assert!(ran && status == CallStatus::Ok, "wire call runs");
                    }
                }
                Err(e) => {
                    assert!(!m.callable(t), "{} refused: {e:?}", TOOLS[t].0);
                    let registered = m.variant.contains_key(&t);
                    if registered && m.shown.contains_key(&t) {
                        assert_eq!(e.code, ErrorCode::SchemaNotLoaded, "changed: inspect again");
                    } else {
                        assert_eq!(e.code, ErrorCode::ToolUnknown);
                    }
                }
            },
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 192, ..ProptestConfig::default() })]

    #[test]
    fn every_call_runs_what_its_session_last_inspected(ops in prop::collection::vec(op(), 1..40)) {
        run(ops);
    }
}

#[test]
fn a_change_to_another_provider_leaves_everything_loaded() {
    run(vec![
        Op::Inspect(0),
        Op::Inspect(1),
        Op::Export(0),
        Op::Register(2, 1),
        Op::Disconnect(1),
        Op::Deny(2),
        Op::Export(0),
        Op::CallName(0),
        Op::CallHandle(1),
        Op::CallWire(1, 0),
        Op::Register(0, 2),
        Op::CallWire(0, 0),
        Op::Inspect(0),
        Op::CallWire(0, 0),
        Op::Export(0),
    ]);
}

#[test]
fn a_tool_that_rejoins_extends_the_export_sent_without_it() {
    // Found by the property above: the export sent while p2 was down is the
    // prefix of the one after it came back.
    run(vec![
        Op::Inspect(2),
        Op::Inspect(0),
        Op::Disconnect(1),
        Op::Export(0),
        Op::Connect(1),
        Op::Export(0),
        Op::CallWire(2, 0),
        Op::Inspect(1),
        Op::Disconnect(1),
        Op::Export(1),
        Op::Connect(1),
        Op::Export(1),
        Op::Export(0),
    ]);
}
