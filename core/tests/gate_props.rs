//! Property: random interleavings of registry changes, policy changes,
//! approvals, hooks, cancellations, clock ticks and calls (direct and bounded
//! code) — a scripted host with a virtual clock driving the sans-IO gate —
//! never execute a tool the policy denies at that moment, never execute an
//! ask-first tool without an approval for that very call, never start
//! anything of a bounded-code run at or after its deadline (and never let a
//! tool run past it), never say `ok` for a call that did not execute, and
//! never record an argument in activity.

mod common;

use common::secret;
use holaryn_core::Runtime;
use holaryn_core::SessionOptions;
use holaryn_core::Update;
use holaryn_core::{ApprovalAnswer, CallStatus, ExecAnswer, GateStep, HookAnswer, ScreenAnswer};
use proptest::prelude::*;
use serde_json::{json, Value};
use std::collections::BTreeSet;

const TOOLS: [&str; 3] = ["read_a", "read_b", "wipe"];
const CANARY: &str = "CANARY-ARG-5f1e";

#[derive(Debug, Clone)]
enum Op {
    Tick(u64),
    Register(usize, u8),
    Remove(usize),
    Deny(usize),
    AllowAll,
    Call(usize),
    Code(usize, usize),
    Answer(usize, u8),
    Cancel(usize),
}

fn op() -> impl Strategy<Value = Op> {
    prop_oneof![
        3 => (0u64..120).prop_map(Op::Tick),
        1 => (0usize..3, 0u8..3).prop_map(|(t, v)| Op::Register(t, v)),
        1 => (0usize..3).prop_map(Op::Remove),
        1 => (0usize..3).prop_map(Op::Deny),
        1 => Just(Op::AllowAll),
        2 => (0usize..3).prop_map(Op::Call),
        2 => (0usize..3, 0usize..3).prop_map(|(a, b)| Op::Code(a, b)),
        10 => (0usize..8, 0u8..6).prop_map(|(i, k)| Op::Answer(i, k)),
        1 => (0usize..8).prop_map(Op::Cancel),
    ]
}

fn tool(i: usize, variant: u8) -> Value {
    json!({
        "name": TOOLS[i], "description": format!("Tool {i}, variant {variant}"),
        "source": "native", "provider": {"id": "host", "kind": "native"}, "trust": "builtin",
        "annotations": {"destructiveHint": TOOLS[i] == "wipe"},
        "inputSchema": {"type": "object", "properties": {"path": {"type": "string"}}}
    })
}

/// The scripted host and its oracle: what the policy denies now, what was approved.
struct World {
    rt: Runtime,
    sid: String,
    now: u64,
    denied: BTreeSet<&'static str>,
    approved: BTreeSet<String>,
    executed: BTreeSet<String>,
    pending: Vec<GateStep>,
}

impl World {
    fn new() -> World {
        let mut rt = Runtime::new();
        let tools: Vec<Value> = (0..3).map(|i| tool(i, 0)).collect();
        rt.register_values(&tools, 0).expect("tools");
        let opts: SessionOptions = serde_json::from_value(json!({
            "dynamicDiscovery": true, "boundedCodeMode": true, "defaultTimeoutMs": 80,
            "callbackTimeoutMs": 150, "codeLimits": {"timeoutMs": 100}
        }))
        .expect("options");
        let sid = rt.create_session(opts, &secret(21), 0).expect("session");
        World {
            rt,
            sid,
            now: 1,
            denied: BTreeSet::new(),
            approved: BTreeSet::new(),
            executed: BTreeSet::new(),
            pending: Vec::new(),
        }
    }

    fn inspect(&mut self, name: &str) -> String {
        self.rt
            .tool_inspect(&self.sid, &json!({ "name": name }), self.now)
            .ok()
            .and_then(|o| o.handle)
            .unwrap_or_else(|| "toolh_0000000000000000000000000000000000000000".into())
    }

    fn set_rules(&mut self) {
        let deny: Vec<&str> = self.denied.iter().copied().collect();
        self.rt
            .edit_session(&self.sid, self.now, |s| {
                s.set_rules(&json!({ "deny": deny }))
            })
            .expect("rules apply");
    }

    /// Check a step as it is handed to the host, then keep it (or its outcome).
    fn observe(&mut self, step: GateStep) {
        let now = self.now;
        let call = match &step {
            GateStep::Done(o) => {
                if o.status == CallStatus::Ok {
                    assert!(o.executed, "ok without executing: {o:?}");
                }
                if o.executed && o.tool.as_deref() != Some("run_tool_code") {
                    assert!(self.executed.contains(&o.call_id), "{o:?}");
                }
                return;
            }
            GateStep::HookBefore(r) | GateStep::HookAfter(r) => r.call(),
            GateStep::Approval(r) => r.call(),
            GateStep::Execute(r) => r.call(),
            GateStep::Screen(r) => r.call(),
        };
        if let Some(deadline) = call.deadline_ms() {
            assert!(
                now < deadline,
                "a step started at {now}, deadline {deadline}"
            );
            assert!(
                now + call.wait_ms(now) <= deadline,
                "a wait runs past the deadline"
            );
        }
        if let GateStep::Execute(r) = &step {
            let c = r.call();
            let name = c.tool_name().unwrap_or_default().to_string();
            assert!(
                !self.denied.contains(name.as_str()),
                "executed `{name}` while the policy denies it"
            );
            assert!(
                self.rt.registry().get(&name).is_some(),
                "executed a removed tool"
            );
            if name == "wipe" {
                assert!(self.approved.contains(c.call_id()), "wipe ran unapproved");
            }
            self.executed.insert(c.call_id().to_string());
        }
        if let GateStep::Approval(r) = &step {
            self.approved.remove(r.call().call_id());
        }
        self.pending.push(step);
    }

    fn apply(&mut self, op: Op) {
        match op {
            Op::Tick(ms) => self.now += ms,
            Op::Register(i, v) => {
                let _ = self.rt.register_values(&[tool(i, v)], self.now);
            }
            Op::Remove(i) => {
                let update = Update {
                    remove: vec![TOOLS[i].to_string()],
                    ..Update::default()
                };
                let _ = self.rt.update(update, self.now);
            }
            Op::Deny(i) => {
                self.denied.insert(TOOLS[i]);
                self.set_rules();
            }
            Op::AllowAll => {
                self.denied.clear();
                self.set_rules();
            }
            Op::Call(i) => {
                self.inspect(TOOLS[i]);
                let step =
                    self.rt
                        .start_call(&self.sid, TOOLS[i], json!({ "path": CANARY }), self.now);
                self.observe(step);
            }
            Op::Code(a, b) => {
                self.inspect("run_tool_code");
                let (ha, hb) = (self.inspect(TOOLS[a]), self.inspect(TOOLS[b]));
                let code = format!(
                    "x = call(\"{ha}\", {{\"path\": \"{CANARY}\"}})\ncall(\"{hb}\", {{\"path\": x}})"
                );
                let step = self.rt.start_call(
                    &self.sid,
                    "run_tool_code",
                    json!({ "code": code }),
                    self.now,
                );
                self.observe(step);
            }
            Op::Answer(i, k) => self.answer(i, k),
            Op::Cancel(i) => {
                if self.pending.is_empty() {
                    return;
                }
                let step = self.pending.remove(i % self.pending.len());
                let (rt, now) = (&mut self.rt, self.now);
                let outcome = match step {
                    GateStep::Done(o) => o,
                    GateStep::HookBefore(r) | GateStep::HookAfter(r) => r.cancel(rt, now),
                    GateStep::Approval(r) => r.cancel(rt, now),
                    GateStep::Execute(r) => r.cancel(rt, now),
                    GateStep::Screen(r) => r.cancel(rt, now),
                };
                self.observe(GateStep::Done(outcome));
            }
        }
    }

    fn answer(&mut self, i: usize, k: u8) {
        if self.pending.is_empty() {
            return;
        }
        let step = self.pending.remove(i % self.pending.len());
        let (rt, now) = (&mut self.rt, self.now);
        let next = match step {
            GateStep::Done(o) => GateStep::Done(o),
            GateStep::HookBefore(r) | GateStep::HookAfter(r) => {
                let a = match k % 4 {
                    0 | 1 => HookAnswer::Continue,
                    2 => HookAnswer::Veto {
                        reason: CANARY.into(),
                    },
                    _ => HookAnswer::TimedOut,
                };
                r.resume(rt, a, now)
            }
            GateStep::Approval(r) => {
                let a = match k % 4 {
                    0 | 1 => ApprovalAnswer::Approve,
                    2 => ApprovalAnswer::Deny {
                        reason: CANARY.into(),
                    },
                    _ => ApprovalAnswer::TimedOut,
                };
                if a == ApprovalAnswer::Approve {
                    self.approved.insert(r.call().call_id().to_string());
                }
                r.resume(rt, a, now)
            }
            GateStep::Execute(r) => {
                let a = match k % 4 {
                    0 | 1 => ExecAnswer::Ok {
                        output: json!({ "echo": CANARY }),
                    },
                    2 => ExecAnswer::Error {
                        message: CANARY.into(),
                    },
                    _ => ExecAnswer::TimedOut,
                };
                r.resume(rt, a, now)
            }
            GateStep::Screen(r) => {
                let a = match k % 4 {
                    0 | 1 => ScreenAnswer::Pass,
                    2 => ScreenAnswer::Block {
                        reason: CANARY.into(),
                    },
                    _ => ScreenAnswer::TimedOut,
                };
                r.resume(rt, a, now)
            }
        };
        self.observe(next);
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 256, ..ProptestConfig::default() })]

    #[test]
    fn interleavings_never_execute_denied_late_or_unapproved(ops in prop::collection::vec(op(), 1..80)) {
        let mut w = World::new();
        for op in ops {
            w.apply(op);
        }
        // Finish everything still waiting: the host's timers fire.
        while !w.pending.is_empty() {
            w.now += 1_000;
            w.answer(0, 3);
        }
        let records = serde_json::to_string(&w.rt.activity_since(0)).expect("json");
        prop_assert!(!records.contains(CANARY), "an argument reached activity");
        let events = serde_json::to_string(&w.rt.drain_events()).expect("json");
        prop_assert!(!events.contains(CANARY), "an argument reached an event");
    }
}
