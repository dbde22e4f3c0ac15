// The gate through the built package: Promise-returning host callbacks,
// approvals, timeouts via AbortSignal, host cancellation, output caps.
import { test } from "node:test";
import assert from "node:assert/strict";
import { HolarynRuntime } from "holaryn";
import { native, secret } from "./helpers.mjs";

function setup(options = {}) {
  const rt = new HolarynRuntime();
  rt.registerTools([
    native("read_file", "Read a file", { aliases: ["cat"] }),
    native("delete_file", "Delete a file", { annotations: { destructiveHint: true } }),
    {
      ...native("run_tool_script", "Run a shell command"),
      inputSchema: { type: "object", properties: { command: { type: "string" } } },
    },
  ]);
  const s = rt.createSession({ dynamicDiscovery: true, ...options }, secret(7));
  return { rt, s };
}

test("a direct, alias and handle call all execute through the gate", async () => {
  const { s } = setup();
  const { handle } = s.inspect({ name: "read_file" });
  const execute = async (req) => ({ text: `contents of ${req.args.path}`, tool: req.tool });
  for (const [target, path] of [
    ["read_file", "direct"],
    ["cat", "alias"],
    [handle, "handle"],
  ]) {
    const o = await s.call(target, { path: "a.txt" }, { execute });
    assert.equal(o.status, "ok");
    assert.equal(o.path, path);
    assert.deepEqual(o.output, { text: "contents of a.txt", tool: "read_file" });
  }
});

test("a call before inspect is refused with the next safe action and never executes", async () => {
  const { s } = setup();
  let executed = 0;
  const o = await s.call("read_file", { path: "a" }, { execute: () => ++executed });
  assert.equal(o.code, "schema.not_loaded");
  assert.match(o.nextAction, /tool_inspect/);
  assert.equal(executed, 0);
});

test("invalid arguments list JSON pointers", async () => {
  const { s } = setup();
  s.inspect({ name: "read_file" });
  const o = await s.call("read_file", { path: 5 }, { execute: () => ({}) });
  assert.equal(o.code, "args.invalid");
  assert.equal(o.errors[0].pointer, "/path");
});

test("approval: destructive tools and run_tool_script ask first; a denial is final", async () => {
  const { s } = setup();
  s.inspect({ name: "delete_file" });
  s.inspect({ name: "run_tool_script" });
  const asked = [];
  let executed = 0;
  const host = {
    execute: () => (++executed, { ok: true }),
    approve: async (req) => (asked.push([req.tool, req.reason]), req.tool === "delete_file"),
  };
  assert.equal((await s.call("delete_file", { path: "x" }, host)).status, "ok");
  const o = await s.call("run_tool_script", { command: "ls" }, host);
  assert.equal(o.status, "approval_denied");
  assert.deepEqual(asked, [
    ["delete_file", "destructive"],
    ["run_tool_script", "ambient_process_access"],
  ]);
  assert.equal(executed, 1);
});

test("a timeout aborts the tool's AbortSignal and reports timed_out", async () => {
  const { s } = setup({ defaultTimeoutMs: 30 });
  s.inspect({ name: "read_file" });
  let signal;
  const o = await s.call(
    "read_file",
    { path: "x" },
    {
      execute: (req) => {
        signal = req.signal;
        return new Promise(() => {}); // never settles
      },
    },
  );
  assert.equal(o.status, "timed_out");
  assert.equal(signal.aborted, true);
});

test("host cancellation propagates to the active tool", async () => {
  const { s } = setup();
  s.inspect({ name: "read_file" });
  const ctl = new AbortController();
  let toolSignal;
  const pending = s.call(
    "read_file",
    { path: "x" },
    {
      signal: ctl.signal,
      execute: (req) => {
        toolSignal = req.signal;
        setTimeout(() => ctl.abort(), 5);
        return new Promise(() => {});
      },
    },
  );
  const o = await pending;
  assert.equal(o.status, "cancelled");
  assert.equal(toolSignal.aborted, true);
});

test("outputs over the cap are withheld; screening can block; hooks can veto", async () => {
  const { s } = setup({ maxOutputBytes: 32 });
  s.inspect({ name: "read_file" });
  const big = await s.call("read_file", { path: "x" }, { execute: () => ({ text: "x".repeat(100) }) });
  assert.equal(big.status, "output_too_large");
  assert.equal(big.output, undefined);
  const blocked = await s.call(
    "read_file",
    { path: "x" },
    { execute: () => ({ t: 1 }), screen: () => ({ decision: "block" }) },
  );
  assert.equal(blocked.status, "blocked");
  const vetoed = await s.call(
    "read_file",
    { path: "x" },
    { execute: () => ({}), hook: (r) => (r.phase === "before" ? { decision: "veto", reason: "no" } : undefined) },
  );
  assert.equal(vetoed.status, "vetoed");
});

test("activity records carry provenance and never arguments or output", async () => {
  const { rt, s } = setup();
  s.inspect({ name: "read_file" });
  await s.call("read_file", { path: "CANARY-arg" }, { execute: () => ({ text: "CANARY-out" }) });
  s.search({ query: "CANARY-query" });
  const records = rt.activity();
  const inv = records.find((r) => r.kind === "invocation");
  assert.equal(inv.provenance.providerId, "host");
  assert.equal(inv.outcome, "ok");
  assert.ok(!JSON.stringify(records).includes("CANARY"));
});
