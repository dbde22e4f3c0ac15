//! The gate matrix: 5 call paths × every refusal and outcome. Each refusal
//! must happen at the right step, and before the host's execute callback
//! wherever the gate can know.

mod common;

use common::drive::{drive, Driven, Exec, Script};
use common::secret;
use holaryn_core::Runtime;
use holaryn_core::{CallStatus, HookAnswer, Stage};
use holaryn_core::{PolicyFile, SessionOptions};
use serde_json::{json, Value};

#[derive(Clone, Copy, Debug, PartialEq)]
enum Path {
    Direct,
    Alias,
    Handle,
    Legacy,
    Code,
}

const PATHS: [Path; 5] = [
    Path::Direct,
    Path::Alias,
    Path::Handle,
    Path::Legacy,
    Path::Code,
];

#[derive(Clone, Copy, Debug, PartialEq)]
enum Case {
    Allowed,
    DeniedProvider,
    DeniedProfile,
    DeniedSession,
    DeniedProject,
    Unknown,
    Forged,
    StaleAfterChange,
    Removed,
    NotLoaded,
    InvalidArgs,
    HookVeto,
    ApprovalDenied,
    Timeout,
    HostCancel,
    OutputTooLarge,
}

impl Case {
    /// The fixture's name for a case.
    fn named(name: &str) -> Case {
        match name {
            "allowed" => Case::Allowed,
            "deniedProvider" => Case::DeniedProvider,
            "deniedProfile" => Case::DeniedProfile,
            "deniedSession" => Case::DeniedSession,
            "deniedProject" => Case::DeniedProject,
            "unknown" => Case::Unknown,
            "forged" => Case::Forged,
            "stale" => Case::StaleAfterChange,
            "removed" => Case::Removed,
            "notLoaded" => Case::NotLoaded,
            "invalidArgs" => Case::InvalidArgs,
            "hookVeto" => Case::HookVeto,
            "approvalDenied" => Case::ApprovalDenied,
            "timeout" => Case::Timeout,
            "hostCancel" => Case::HostCancel,
            "outputTooLarge" => Case::OutputTooLarge,
            other => panic!("the gate-matrix fixture has a case this test cannot set up: {other}"),
        }
    }
}

/// What the tool call of a case ends with (one cell of the shared fixture).
#[derive(serde::Deserialize, Clone, Copy, Debug, PartialEq)]
struct Expect {
    status: CallStatus,
    code: holaryn_core::Code,
    stage: Stage,
    executes: bool,
}

#[derive(serde::Deserialize)]
#[serde(rename_all = "camelCase")]
struct FixtureCase {
    case: String,
    hosts: Vec<String>,
    by_name: Expect,
    by_handle: Option<Expect>,
}

/// `tests/fixtures/gate-matrix.json`, shared with `tests/shared/gate-matrix.mjs`.
fn fixture() -> Vec<(Case, Expect, Expect)> {
    let path = common::fixtures().join("gate-matrix.json");
    let text = std::fs::read_to_string(&path).expect("gate-matrix fixture");
    let v: Value = serde_json::from_str(&text).expect("fixture JSON");
    let cases: Vec<FixtureCase> =
        serde_json::from_value(v["cases"].clone()).expect("fixture cases");
    cases
        .into_iter()
        .filter(|c| c.hosts.iter().any(|h| h == "native"))
        .map(|c| {
            let case = Case::named(&c.case);
            (case, c.by_name, c.by_handle.unwrap_or(c.by_name))
        })
        .collect()
}

fn tools(destructive: bool) -> Vec<Value> {
    vec![
        json!({
            "name": "read_file", "aliases": ["cat"], "description": "Read a text file",
            "source": "native", "provider": {"id": "host", "kind": "native"}, "trust": "builtin",
            "annotations": {"destructiveHint": destructive},
            "inputSchema": {"type": "object", "properties": {"path": {"type": "string"}}, "required": ["path"], "additionalProperties": false}
        }),
        json!({
            "name": "run_tool_script", "aliases": ["sh"], "description": "Run a shell command",
            "source": "native", "provider": {"id": "host", "kind": "native"}, "trust": "builtin",
            "inputSchema": {"type": "object", "properties": {"command": {"type": "string"}}, "required": ["command"]}
        }),
    ]
}

struct World {
    rt: Runtime,
    sid: String,
    now: u64,
}

fn tool_of(path: Path) -> &'static str {
    if path == Path::Legacy {
        "run_tool_script"
    } else {
        "read_file"
    }
}

fn good_args(path: Path) -> Value {
    if path == Path::Legacy {
        json!({"command": "ls"})
    } else {
        json!({"path": "notes.txt"})
    }
}

fn world(path: Path, case: Case) -> World {
    let mut rt = Runtime::new();
    rt.register_values(&tools(case == Case::ApprovalDenied), 0)
        .expect("tools register");
    let tool = tool_of(path);
    let mut opts = SessionOptions {
        dynamic_discovery: true,
        bounded_code_mode: true,
        max_output_bytes: Some(64),
        ..SessionOptions::default()
    };
    match case {
        Case::DeniedProvider => opts.hidden_providers = vec!["host".into()],
        Case::DeniedProfile => {
            opts.profile_allowed_tools = Some(vec!["something_else".into(), "run_tool_code".into()])
        }
        _ => {}
    }
    let sid = rt.create_session(opts, &secret(9), 0).expect("session");
    let mut w = World { rt, sid, now: 10 };
    if case != Case::NotLoaded {
        for name in [tool, "run_tool_code"] {
            let _ = w.rt.tool_inspect(&w.sid, &json!({ "name": name }), w.now);
        }
    }
    w
}

fn handle(w: &mut World, tool: &str) -> String {
    w.rt.tool_inspect(&w.sid, &json!({ "name": tool }), w.now)
        .ok()
        .and_then(|o| o.handle)
        .unwrap_or_else(|| "toolh_0000000000000000000000000000000000000000".into())
}

fn python(v: &Value) -> String {
    v.to_string()
        .replace("true", "True")
        .replace("false", "False")
        .replace("null", "None")
}

/// Run one (path, case) and return what happened.
fn run(path: Path, case: Case) -> Driven {
    let mut w = world(path, case);
    let tool = tool_of(path);
    let mut args = good_args(path);
    let mut script = Script::default();
    // Handles are taken after inspect (dynamic sessions), before any change.
    let mut target = match path {
        Path::Direct | Path::Legacy => tool.to_string(),
        Path::Alias => {
            if path == Path::Legacy {
                "sh".into()
            } else {
                "cat".into()
            }
        }
        Path::Handle | Path::Code if case == Case::NotLoaded => {
            "toolh_0000000000000000000000000000000000000000".into()
        }
        Path::Handle | Path::Code => handle(&mut w, tool),
    };
    match case {
        Case::Allowed | Case::DeniedProvider | Case::DeniedProfile | Case::NotLoaded => {}
        Case::DeniedSession => {
            w.rt.edit_session(&w.sid, w.now, |s| s.set_rules(&json!({"deny": [tool]})))
                .expect("rules")
        }
        Case::DeniedProject => {
            w.rt.edit_session(&w.sid, w.now, |s| {
                s.set_project_policy(Some(PolicyFile {
                    path: "/repo/.holaryn/tool-policy.json".into(),
                    text: format!("{{\"deny\": [\"{tool}\"]}}"),
                }))
            })
            .expect("project policy")
        }
        Case::Unknown => {
            if matches!(path, Path::Handle | Path::Code) {
                target = "toolh_ffffffffffffffffffffffffffffffffffffffff".into();
            } else {
                target = "no_such_tool".into();
            }
        }
        Case::Forged => {
            let mut other = Runtime::new();
            other.register_values(&tools(false), 0).expect("tools");
            let opts = SessionOptions {
                dynamic_discovery: true,
                ..SessionOptions::default()
            };
            let osid = other.create_session(opts, &secret(77), 0).expect("session");
            let forged = other
                .tool_inspect(&osid, &json!({ "name": tool }), 0)
                .ok()
                .and_then(|o| o.handle)
                .expect("handle in the other session");
            target = match path {
                Path::Handle | Path::Code => forged,
                _ => target,
            };
        }
        Case::StaleAfterChange => {
            // A change to an unrelated tool leaves the tool loaded (issue 20);
            // a change to the tool itself makes it stale.
            w.rt.register_values(&[common::native("glob_files", "Find files")], w.now)
                .expect("unrelated change");
            let mut changed: Vec<Value> = tools(false)
                .into_iter()
                .filter(|t| t["name"] == tool)
                .collect();
            changed[0]["description"] = json!("Changed since the inspect");
            w.rt.register_values(&changed, w.now).expect("change");
        }
        Case::Removed => {
            w.rt.update(
                holaryn_core::Update {
                    remove: vec![tool.into()],
                    ..Default::default()
                },
                w.now,
            )
            .expect("removed");
        }
        Case::InvalidArgs => {
            args = if path == Path::Legacy {
                json!({"command": 5})
            } else {
                json!({"path": 5})
            }
        }
        Case::HookVeto => {
            script.before = HookAnswer::Veto {
                reason: "not now".into(),
            }
        }
        Case::ApprovalDenied => script.approve = false,
        Case::Timeout => script.exec = Exec::TimedOut,
        Case::HostCancel => script.cancel_at = Some("execute"),
        Case::OutputTooLarge => script.exec = Exec::Ok(json!({"text": "x".repeat(200)}), 1),
    }
    if path == Path::Code {
        // A registry or policy change clears every loaded schema, run_tool_code's
        // too: the model re-inspects it; the program's old handle stays stale.
        let _ =
            w.rt.tool_inspect(&w.sid, &json!({"name": "run_tool_code"}), w.now);
    }
    let (target, args) = if path == Path::Code {
        let code = format!("r = call(\"{target}\", {})\n", python(&args));
        ("run_tool_code".to_string(), json!({ "code": code }))
    } else {
        (target, args)
    };
    let step = w.rt.start_call(&w.sid, &target, args, w.now);
    let mut now = w.now;
    drive(&mut w.rt, step, &script, &mut now)
}

#[test]
fn every_path_and_case_stops_at_the_right_step() {
    let mut failures = Vec::new();
    let cases = fixture();
    assert_eq!(cases.len(), 16, "every native case is in the fixture");
    for path in PATHS {
        for &(case, by_name, by_handle) in &cases {
            let d = run(path, case);
            let e = if matches!(path, Path::Handle | Path::Code) {
                by_handle
            } else {
                by_name
            };
            let (status, code, stage, executes) = (e.status, e.code.as_str(), e.stage, e.executes);
            if path == Path::Code {
                check_code(path, case, &d, status, code, executes, &mut failures);
                continue;
            }
            let o = &d.outcome;
            let got = (o.status, o.code.as_str(), o.stage, !d.executed.is_empty());
            if got != (status, code, stage, executes) || o.executed != executes {
                failures.push(format!(
                    "{path:?} × {case:?}: expected {:?}, got {got:?} ({})",
                    (status, code, stage, executes),
                    o.message
                ));
            }
            if path == Path::Legacy && case == Case::Allowed && d.approvals != 1 {
                failures.push("run_tool_script must always ask for approval".into());
            }
        }
    }
    assert!(
        failures.is_empty(),
        "{} mismatches:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

fn check_code(
    path: Path,
    case: Case,
    d: &Driven,
    status: CallStatus,
    code: &str,
    executes: bool,
    failures: &mut Vec<String>,
) {
    // The outer run_tool_code call reports the run; its trace row holds the inner call.
    let out = d.outcome.output.clone().unwrap_or(Value::Null);
    let row = out.pointer("/trace/0").cloned().unwrap_or(Value::Null);
    let row_status = row
        .get("status")
        .and_then(Value::as_str)
        .unwrap_or("none")
        .to_string();
    let row_code = row
        .get("errorCode")
        .and_then(Value::as_str)
        .map(str::to_string);
    let ok = if status == CallStatus::Ok {
        d.outcome.status == CallStatus::Ok && row_status == "ok"
    } else {
        d.outcome.status != CallStatus::Ok && row_code.as_deref() == Some(code)
    };
    if !ok || d.executed.is_empty() == executes {
        failures.push(format!(
            "{path:?} × {case:?}: expected row code {code}, got outer {:?}/{} row {row_status}/{row_code:?}, executed {:?}",
            d.outcome.status, d.outcome.code, d.executed
        ));
    }
}

#[test]
fn a_deny_added_after_inspect_applies_to_the_next_direct_call() {
    let mut w = world(Path::Direct, Case::Allowed);
    w.rt.edit_session(&w.sid, w.now, |s| s.set_rules(&json!({"deny": ["cat"]})))
        .expect("rules");
    let step =
        w.rt.start_call(&w.sid, "read_file", json!({"path": "a"}), w.now);
    let mut now = w.now;
    let d = drive(&mut w.rt, step, &Script::default(), &mut now);
    assert_eq!(
        d.outcome.code.as_str(),
        "policy.denied",
        "denying an alias denies the tool"
    );
    assert!(d.executed.is_empty());
}

/// A legacy-script call waiting for approval, and what happens to it after `change`.
fn approve_after(
    change: impl FnOnce(&mut World),
    answer: holaryn_core::ApprovalAnswer,
) -> holaryn_core::CallOutcome {
    let mut w = world(Path::Legacy, Case::Allowed);
    let step =
        w.rt.start_call(&w.sid, "run_tool_script", json!({"command": "ls"}), w.now);
    let holaryn_core::GateStep::HookBefore(h) = step else {
        panic!("expected the before hook")
    };
    let step = h.resume(&mut w.rt, HookAnswer::Continue, w.now);
    let holaryn_core::GateStep::Approval(a) = step else {
        panic!("expected approval")
    };
    change(&mut w);
    match a.resume(&mut w.rt, answer, w.now) {
        holaryn_core::GateStep::Done(o) => o,
        holaryn_core::GateStep::Execute(r) => {
            let now = w.now;
            let ok = holaryn_core::ExecAnswer::Ok {
                output: json!("ran"),
            };
            match r.resume(&mut w.rt, ok, now) {
                holaryn_core::GateStep::HookAfter(h) => {
                    match h.resume(&mut w.rt, HookAnswer::Continue, now) {
                        holaryn_core::GateStep::Screen(s) => {
                            match s.resume(&mut w.rt, holaryn_core::ScreenAnswer::Pass, now) {
                                holaryn_core::GateStep::Done(o) => o,
                                other => panic!("unexpected step {other:?}"),
                            }
                        }
                        holaryn_core::GateStep::Done(o) => o,
                        other => panic!("unexpected step {other:?}"),
                    }
                }
                other => panic!("unexpected step {other:?}"),
            }
        }
        other => panic!("unexpected step {other:?}"),
    }
}

#[test]
fn a_change_elsewhere_during_approval_leaves_the_call_alone() {
    // Issue 31: only a change to the call's own tool (or a deny) ends a pending approval.
    let approve = || holaryn_core::ApprovalAnswer::Approve;
    let o = approve_after(
        |w| {
            w.rt.register_values(&[common::native("glob_files", "Find files")], w.now)
                .expect("change");
        },
        approve(),
    );
    assert_eq!((o.code.as_str(), o.executed), ("ok", true));
}

#[test]
fn a_change_to_the_tool_during_approval_is_refused_before_execute() {
    let o = approve_after(
        |w| {
            let changed = json!({
                "name": "run_tool_script", "aliases": ["sh"], "description": "Run a shell command, v2",
                "source": "native", "provider": {"id": "host", "kind": "native"}, "trust": "builtin",
                "inputSchema": {"type": "object", "properties": {"command": {"type": "string"}}, "required": ["command"]}
            });
            w.rt.register_values(&[changed], w.now).expect("change");
        },
        holaryn_core::ApprovalAnswer::Approve,
    );
    assert_eq!(
        (o.code.as_str(), o.stage, o.executed),
        ("tool.changed", Stage::Execute, false)
    );
}

#[test]
fn a_deny_during_approval_ends_the_call_as_denied_with_its_rule() {
    for answer in [
        holaryn_core::ApprovalAnswer::Approve,
        holaryn_core::ApprovalAnswer::Deny {
            reason: "withdrawn".into(),
        },
    ] {
        let o = approve_after(
            |w| {
                let rules = json!({"deny": ["run_tool_script"]});
                w.rt.edit_session(&w.sid, w.now, |s| s.set_rules(&rules))
                    .expect("deny");
            },
            answer,
        );
        assert_eq!(
            (o.code.as_str(), o.stage, o.executed),
            ("policy.denied", Stage::Governance, false)
        );
        assert_eq!(o.rule.as_deref(), Some("deny: run_tool_script"));
        assert_eq!(o.scope.as_deref(), Some("session"));
    }
}
