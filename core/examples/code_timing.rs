//! Bounded-code benchmark: parse+check time of a 16 KiB program and the gate's
//! per-call overhead (native; informal, printed, never asserted):
//! `cargo run --release -p holaryn-core --example code_timing`
use holaryn_code::{compile, CodeLimits};
use holaryn_core::Runtime;
use holaryn_core::SessionOptions;
use holaryn_core::{ApprovalAnswer, ExecAnswer, GateStep, HookAnswer, ScreenAnswer};
use serde_json::json;
use std::time::Instant;

fn drive(rt: &mut Runtime, mut step: GateStep) -> bool {
    loop {
        step = match step {
            GateStep::Done(o) => return o.code == holaryn_core::Code::Ok,
            GateStep::HookBefore(r) | GateStep::HookAfter(r) => {
                r.resume(rt, HookAnswer::Continue, 1)
            }
            GateStep::Approval(r) => r.resume(rt, ApprovalAnswer::Approve, 1),
            GateStep::Execute(r) => r.resume(
                rt,
                ExecAnswer::Ok {
                    output: json!({"ok": true}),
                },
                1,
            ),
            GateStep::Screen(r) => r.resume(rt, ScreenAnswer::Pass, 1),
        };
    }
}

fn main() {
    // 16 KiB of source within 256 nodes: eight calls with long string arguments.
    let filler = "x".repeat(1900);
    let mut src = String::new();
    for i in 0..8 {
        src.push_str(&format!(
            "r{i} = call(\"toolh_{:040}\", {{\"path\": \"{filler}\"}})\n",
            i
        ));
    }
    while src.len() < 16_384 {
        src.push('#');
    }
    src.truncate(16_384);
    let limits = CodeLimits::defaults();
    let n = 200;
    let t = Instant::now();
    for _ in 0..n {
        let _ = compile(&src, &limits);
    }
    println!(
        "parse+check of a {}-byte program: {:.1} µs (ok: {})",
        src.len(),
        t.elapsed().as_secs_f64() * 1e6 / n as f64,
        compile(&src, &limits).is_ok()
    );

    let mut rt = Runtime::new();
    let tool = json!({"name": "read_file", "description": "Read", "source": "native", "provider": {"id": "host"},
        "inputSchema": {"type": "object", "properties": {"path": {"type": "string"}}, "required": ["path"]}});
    rt.register_values(&[tool], 0).ok();
    let sid = rt
        .create_session(
            SessionOptions {
                dynamic_discovery: true,
                ..Default::default()
            },
            &[3; 32],
            0,
        )
        .unwrap_or_default();
    let _ = rt.tool_inspect(&sid, &json!({"name": "read_file"}), 0);
    let calls = 10_000;
    let t = Instant::now();
    let mut ok = 0;
    for _ in 0..calls {
        let step = rt.start_call(&sid, "read_file", json!({"path": "a.txt"}), 1);
        ok += usize::from(drive(&mut rt, step));
    }
    println!(
        "gate per-call overhead (resolve → record, all nine steps): {:.2} µs ({ok}/{calls} ok)",
        t.elapsed().as_secs_f64() * 1e6 / calls as f64
    );
}
