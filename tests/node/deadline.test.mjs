// Every wait is bounded (issue 16, hole 2): a bounded-code run's deadline
// covers approval, hooks, execution and screening of its inner calls; nothing
// starts after it; a call cut off is recorded as cut off and never executes
// late. Top-level hooks, approvals and screens end at callbackTimeoutMs.
import { test } from "node:test";
import assert from "node:assert/strict";
import { HolarynRuntime } from "holaryn";
import { native, secret } from "./helpers.mjs";

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

function setup(options = {}) {
  const rt = new HolarynRuntime();
  rt.registerTools([
    native("send_mail", "Send an e-mail", { annotations: { destructiveHint: true } }),
    native("read_file", "Read a file"),
  ]);
  const s = rt.createSession(
    { dynamicDiscovery: true, boundedCodeMode: true, codeLimits: { timeoutMs: 200 }, ...options },
    secret(5),
  );
  const handles = {};
  for (const name of ["send_mail", "read_file", "run_tool_code"]) handles[name] = s.inspect({ name }).handle;
  return { rt, s, handles };
}

/** A host that records every execute and answers each step after `slow[step]` ms. */
function slowHost(slow) {
  const executed = [];
  return {
    executed,
    host: {
      execute: async (req) => {
        executed.push({ tool: req.tool, at: Date.now() });
        await sleep(slow.execute ?? 0);
        return { sent: true };
      },
      approve: async () => {
        await sleep(slow.approval ?? 0);
        return true;
      },
      hook: async (req) => {
        if (!req.fromCode) return { decision: "continue" };
        await sleep(slow[req.phase] ?? 0);
        return { decision: "continue" };
      },
      screen: async (req) => {
        if (req.fromCode) await sleep(slow.screen ?? 0);
        return { decision: "pass" };
      },
    },
  };
}

async function runCode(slow, tool = "send_mail") {
  const { s, handles, rt } = setup();
  const { host, executed } = slowHost(slow);
  const h = handles[tool];
  const code = `a = call("${h}", {"path": "x"})\ncall("${h}", {"path": "y"})`;
  const started = Date.now();
  const o = await s.call("run_tool_code", { code }, host);
  // Give any late host answer time to arrive: nothing may execute because of it.
  await sleep(Math.max(slow.approval ?? 0, slow.before ?? 0) + 100);
  return { o, result: o.output, executed, started, rt, s, handles };
}

test("an approval slower than timeoutMs: execute is never called, the row says cut off, the run timed_out", async () => {
  const { result, executed } = await runCode({ approval: 400 });
  assert.equal(executed.length, 0, "the tool executed after the deadline");
  assert.equal(result.status, "timed_out");
  assert.equal(result.trace.length, 1);
  assert.equal(result.trace[0].status, "timed_out");
  assert.equal(result.trace[0].errorCode, "call.timed_out");
  assert.equal(result.trace[0].durationMs, 0);
  assert.equal(result.error.code, "call.timed_out");
  assert.match(result.error.message, /never ran/);
});

test("a before hook slower than timeoutMs: no approval is asked, nothing executes", async () => {
  const { result, executed } = await runCode({ before: 400 });
  assert.equal(executed.length, 0);
  assert.equal(result.status, "timed_out");
  assert.equal(result.trace[0].status, "timed_out");
  assert.equal(result.trace[0].durationMs, 0);
});

test("an after hook or screen past the deadline drops the output and the row says timed_out", async () => {
  for (const slow of [{ after: 400 }, { screen: 400 }]) {
    const { result, executed } = await runCode(slow, "read_file");
    assert.equal(executed.length, 1, JSON.stringify(slow));
    assert.equal(result.status, "timed_out");
    assert.equal(result.trace.length, 1);
    assert.equal(result.trace[0].status, "timed_out");
    assert.equal(result.value, null);
  }
});

test("the tool gets only what is left of the run", async () => {
  const { s, handles } = setup();
  let seen;
  const host = {
    approve: async () => (await sleep(120), true),
    execute: async (req) => {
      seen = req.timeoutMs;
      return { sent: true };
    },
  };
  const code = `call("${handles.send_mail}", {"path": "x"})`;
  const o = await s.call("run_tool_code", { code }, host);
  assert.equal(o.output.status, "completed");
  assert.ok(seen <= 200 - 120 + 5, `timeoutMs ${seen} exceeds what is left of the run`);
});

test("activity records never say ok for a call that was cut off", async () => {
  const { rt } = await runCode({ approval: 400 });
  const inner = rt.activity().filter((r) => r.path === "code" && r.kind !== "code_summary");
  assert.ok(inner.length >= 1);
  for (const r of inner) assert.notEqual(r.outcome, "ok");
  assert.ok(inner.some((r) => r.outcome === "call.timed_out" && r.kind === "denial"));
});

test("a top-level approval that never resolves ends at callbackTimeoutMs; later calls work", async () => {
  const { s } = setup({ callbackTimeoutMs: 80 });
  let executed = 0;
  const o = await s.call(
    "send_mail",
    { path: "x" },
    {
      approve: () => new Promise(() => {}),
      execute: () => ++executed,
    },
  );
  assert.equal(o.status, "timed_out");
  assert.equal(o.stage, "approval");
  assert.equal(o.executed, false);
  assert.equal(executed, 0);
  const ok = await s.call("send_mail", { path: "x" }, { approve: () => true, execute: () => ({ n: ++executed }) });
  assert.equal(ok.status, "ok");
  assert.equal(executed, 1);
});

test("top-level hooks, execute and screen that never resolve settle (callbackTimeoutMs, the call's timeout)", async () => {
  const { s } = setup({ defaultTimeoutMs: 60, callbackTimeoutMs: 60 });
  const never = () => new Promise(() => {});
  const cases = [
    [{ hook: never, execute: () => ({}) }, "hook_before"],
    [{ execute: never }, "execute"],
    [{ execute: () => ({ a: 1 }), screen: never }, "screen"],
  ];
  for (const [host, stage] of cases) {
    const o = await s.call("read_file", { path: "x" }, host);
    assert.equal(o.status, "timed_out", stage);
    assert.equal(o.stage, stage);
    assert.equal(o.output, undefined);
  }
});

test("callbackTimeoutMs is a typed session option (a bad value is refused)", () => {
  const rt = new HolarynRuntime();
  assert.throws(() => rt.createSession({ callbackTimeoutMs: "soon" }, secret(1)), { code: "session.invalid_options" });
});
