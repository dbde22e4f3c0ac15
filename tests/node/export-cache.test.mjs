// Cache-stable exports (issue 20) over the built package: in the default mode
// the tools array only grows with a byte-identical prefix until an exported
// tool changes; in Anthropic's deferred mode it is byte-identical across the
// whole scripted session (inspects and registry changes), inspects answer with
// a tool_reference, and calls still pass the gate.
import test from "node:test";
import assert from "node:assert/strict";
import { HolarynRuntime } from "holaryn";
import { changes, scriptedSession } from "../../benchmarks/export-cache.mjs";

test("deferred mode: the Anthropic tools array is byte-identical across the whole scripted session", () => {
  const reqs = scriptedSession("anthropic", "deferred");
  const first = JSON.stringify(reqs[0].tools);
  for (const r of reqs) assert.equal(JSON.stringify(r.tools), first, r.step);
  assert.deepEqual(changes(reqs), { changed: 0, prefixChanged: 0 });
  const tools = reqs[0].tools.map((t) => JSON.parse(t));
  assert.deepEqual(
    tools.slice(0, 3).map((t) => [t.name, t.defer_loading]),
    [
      ["tool_search", undefined],
      ["tool_list", undefined],
      ["tool_inspect", undefined],
    ],
  );
  assert.ok(tools.length > 300 && tools.slice(3).every((t) => t.defer_loading === true));
});

test("default mode: exports grow in inspect order with a byte-identical prefix; only a changed tool reshapes them", () => {
  for (const format of ["anthropic", "openai_chat", "openai_responses", "mcp"]) {
    const reqs = scriptedSession(format, "loaded");
    const at = (step) => reqs.findIndex((r) => r.step === step);
    const changed = at("change to an inspected tool");
    for (let i = 1; i < reqs.length; i++) {
      if (i === changed || i === changed + 1) continue;
      const [a, b] = [reqs[i - 1].tools, reqs[i].tools];
      assert.deepEqual(b.slice(0, a.length), a, `${format}: ${reqs[i].step} keeps the prefix`);
    }
    assert.equal(reqs[at("change to an unrelated provider")].tools.length, 8, `${format}: 3 discovery + 5 inspected`);
    assert.equal(reqs[changed].tools.length, 7, `${format}: the changed tool drops out`);
    const before = reqs[at("change to an unrelated provider")].tools;
    const last = reqs.at(-1).tools;
    assert.deepEqual(last.slice(0, 7), before.slice(0, 7), `${format}: re-inspected, the tool comes back at the end`);
    assert.equal(last.length, 8);
    assert.notEqual(last[7], before[7], `${format}: with its new descriptor`);
  }
});

test("deferred mode: tool_inspect answers with a tool_reference, a changed tool inline, and every call passes the gate", async () => {
  const rt = new HolarynRuntime();
  const tool = (description) => ({
    name: "kb/lookup",
    description,
    source: "mcp",
    provider: { id: "kb", kind: "mcp" },
    trust: "trusted",
    inputSchema: { type: "object", properties: { query: { type: "string" } }, required: ["query"] },
  });
  rt.registerTools([tool("Look up a note")]);
  const s = rt.createSession({ dynamicDiscovery: true });
  let ran = 0;
  s.setHost({ execute: async () => ({ text: `hit ${++ran}` }) });
  const tools = s.exportTools("anthropic", { mode: "deferred" }).tools;
  assert.deepEqual(tools.at(-1).defer_loading, true);
  const use = (name, input, id) => s.dispatchModelCall("anthropic", { type: "tool_use", id, name, input });
  const early = await use("kb__lookup", { query: "x" }, "t0");
  assert.equal(early.is_error, true, "not inspected yet: the gate refuses");
  assert.match(early.content, /schema\.not_loaded/);
  const inspected = await use("tool_inspect", { name: "kb/lookup" }, "t1");
  assert.equal(inspected.is_error, false);
  assert.deepEqual(inspected.content[1], { type: "tool_reference", tool_name: "kb__lookup" });
  assert.equal((await use("kb__lookup", { query: "x" }, "t2")).is_error, false);
  assert.equal(ran, 1);
  rt.registerTools([tool("Look up a note by title")]);
  assert.deepEqual(s.exportTools("anthropic", { mode: "deferred" }).tools, tools, "pinned: unchanged");
  const stale = await use("kb__lookup", { query: "x" }, "t3");
  assert.equal(stale.is_error, true);
  assert.match(stale.content, /schema\.not_loaded/);
  assert.match(stale.content, /inspect/);
  const again = await use("tool_inspect", { name: "kb/lookup" }, "t4");
  assert.equal(typeof again.content, "string", "the pinned definition is stale: the schema comes inline");
  assert.match(again.content, /by title/);
  assert.equal((await use("kb__lookup", { query: "y" }, "t5")).is_error, false);
  assert.equal(ran, 2);
  assert.throws(
    () => s.exportTools("openai_responses", { mode: "deferred" }),
    (e) => e.code === "input.invalid",
  );
});
