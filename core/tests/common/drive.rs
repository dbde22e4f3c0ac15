//! A scripted native host for driving the gate in tests.

use holaryn_core::Runtime;
use holaryn_core::{
    ApprovalAnswer, CallOutcome, ExecAnswer, GateStep, HookAnswer, HookPhase, ScreenAnswer,
};
use serde_json::{json, Value};

/// What the scripted host does at each step.
#[derive(Clone, Debug)]
pub struct Script {
    pub before: HookAnswer,
    pub after: HookAnswer,
    pub approve: bool,
    pub exec: Exec,
    pub screen: ScreenAnswer,
    /// Cancel when this step is reached ("before", "approval", "execute", "after", "screen").
    pub cancel_at: Option<&'static str>,
}

/// What execution does.
#[derive(Clone, Debug)]
pub enum Exec {
    /// Return this output after `ms` of host time.
    Ok(Value, u64),
    /// Fail with a message.
    Error(String),
    /// The host's timer fired.
    TimedOut,
}

impl Default for Script {
    fn default() -> Self {
        Script {
            before: HookAnswer::Continue,
            after: HookAnswer::Continue,
            approve: true,
            exec: Exec::Ok(json!({"text": "done"}), 5),
            screen: ScreenAnswer::Pass,
            cancel_at: None,
        }
    }
}

/// The result of driving: the outcome and every tool the host executed.
pub struct Driven {
    pub outcome: CallOutcome,
    pub executed: Vec<String>,
    /// The descriptor version of each execution, in order.
    pub versions: Vec<String>,
    pub approvals: usize,
}

/// Drive a step to completion; `now` is the fake clock (ms), advanced by execution.
pub fn drive(rt: &mut Runtime, mut step: GateStep, script: &Script, now: &mut u64) -> Driven {
    let mut executed = Vec::new();
    let mut versions = Vec::new();
    let mut approvals = 0;
    loop {
        step = match step {
            GateStep::Done(outcome) => {
                return Driven {
                    outcome,
                    executed,
                    versions,
                    approvals,
                }
            }
            GateStep::HookBefore(r) => {
                let outer = r
                    .call()
                    .descriptor()
                    .is_some_and(|d| d.name == "run_tool_code");
                if script.cancel_at == Some("before") {
                    GateStep::Done(r.cancel(rt, *now))
                } else if outer {
                    // Scripted vetoes target the tool, not the bounded-code run around it.
                    r.resume(rt, HookAnswer::Continue, *now)
                } else {
                    r.resume(rt, script.before.clone(), *now)
                }
            }
            GateStep::HookAfter(r) => {
                assert_eq!(r.phase, HookPhase::After);
                if script.cancel_at == Some("after") {
                    GateStep::Done(r.cancel(rt, *now))
                } else {
                    r.resume(rt, script.after.clone(), *now)
                }
            }
            GateStep::Approval(r) => {
                approvals += 1;
                if script.cancel_at == Some("approval") {
                    GateStep::Done(r.cancel(rt, *now))
                } else if script.approve {
                    r.resume(rt, ApprovalAnswer::Approve, *now)
                } else {
                    r.resume(
                        rt,
                        ApprovalAnswer::Deny {
                            reason: "operator said no".into(),
                        },
                        *now,
                    )
                }
            }
            GateStep::Execute(r) => {
                if let Some(d) = r.call().descriptor() {
                    versions.push(d.version.clone());
                }
                executed.push(
                    r.call()
                        .descriptor()
                        .map(|d| d.name.clone())
                        .unwrap_or_default(),
                );
                if script.cancel_at == Some("execute") {
                    *now += 1;
                    GateStep::Done(r.cancel(rt, *now))
                } else {
                    match &script.exec {
                        Exec::Ok(v, ms) => {
                            *now += ms;
                            r.resume(rt, ExecAnswer::Ok { output: v.clone() }, *now)
                        }
                        Exec::Error(m) => {
                            r.resume(rt, ExecAnswer::Error { message: m.clone() }, *now)
                        }
                        Exec::TimedOut => {
                            *now += r.call().timeout_ms() + 1;
                            r.resume(rt, ExecAnswer::TimedOut, *now)
                        }
                    }
                }
            }
            GateStep::Screen(r) => {
                if script.cancel_at == Some("screen") {
                    GateStep::Done(r.cancel(rt, *now))
                } else {
                    r.resume(rt, script.screen.clone(), *now)
                }
            }
        };
    }
}
