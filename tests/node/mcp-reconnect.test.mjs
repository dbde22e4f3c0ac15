// MCP providers that survive real life: a crashed stdio server is restarted
// through the client factory with backoff (timers injected: no waiting), its
// tools come back as a registry change, and the same mcpExecute keeps
// working; a malformed tool is skipped with a typed warning, the rest register.
import { test } from "node:test";
import assert from "node:assert/strict";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { HolarynRuntime } from "holaryn";
import { connectMcpProvider, mcpExecute } from "holaryn/mcp";
import { root } from "./helpers.mjs";

const crashy = join(root, "tests/fixtures/servers/crashy.mjs");

async function connectCrashy() {
  const client = new Client({ name: "holaryn-test", version: "0" });
  await client.connect(new StdioClientTransport({ command: process.execPath, args: [crashy], stderr: "ignore" }));
  return client;
}

/** setTimeout/clearTimeout that only record: the test fires them. */
function manualTimers() {
  const pending = [];
  return {
    pending,
    setTimeout: (fn, ms) => (pending.push({ fn, ms }), pending.length),
    clearTimeout: () => {},
    fire: async () => pending.shift().fn(),
  };
}

async function waitFor(cond, what) {
  for (let i = 0; i < 500; i++) {
    const v = cond();
    if (v) return v;
    await new Promise((r) => setTimeout(r, 10));
  }
  throw new Error(`timed out waiting for ${what}`);
}

test("a malformed tool is skipped with a typed warning; the rest register", async () => {
  const rt = new HolarynRuntime();
  const seen = [];
  const a = await connectMcpProvider(rt, await connectCrashy(), {
    providerId: "crashy",
    onWarning: (w) => seen.push(w),
  });
  try {
    assert.deepEqual(
      rt
        .tools()
        .map((t) => t.name)
        .sort(),
      ["crashy/crash", "crashy/echo"],
    );
    assert.equal(a.warnings.length, 1);
    assert.deepEqual(seen, a.warnings);
    const [w] = a.warnings;
    assert.equal(w.type, "mcp_tool_skipped");
    assert.equal(w.code, "descriptor.invalid_name");
    assert.equal(w.tool, "crashy/bad name");
    assert.equal(w.providerId, "crashy");
    assert.equal(rt.describe("crashy/echo").provider.displayName, "crashy");

    // The core kept it: a Capability Center row that says it cannot be used and why, with the fix.
    const s = rt.createSession({ dynamicDiscovery: true });
    const row = s.capabilityTable().find((r) => r.name === "crashy/bad name");
    assert.equal(row.provider, "crashy");
    assert.equal(row.availability.state, "unavailable");
    assert.equal(row.availability.code, "unavailable.skipped");
    assert.match(row.availability.reason, /descriptor\.invalid_name/);
    assert.match(row.availability.nextAction, /^fix the tool on the server: /);
    // The model never sees it.
    assert.ok(s.list({ limit: 50 }).tools.every((t) => !t.name.includes("bad")));

    // One activity record at registration: provider and name, the code and its fixed reason.
    const records = rt.activity().filter((r) => r.kind === "tool_skipped");
    assert.equal(records.length, 1);
    const [rec] = records;
    assert.equal(rec.tool, "crashy/bad name");
    assert.equal(rec.outcome, "descriptor.invalid_name");
    assert.equal(rec.provenance.providerId, "crashy");
    assert.equal(rec.provenance.source, "mcp");
    assert.equal(rec.provenance.toolVersion, undefined);
    // A re-list that skips it again records nothing new; the row stays.
    await a.sync();
    assert.equal(rt.activity().filter((r) => r.kind === "tool_skipped").length, 1);
    assert.ok(s.capabilityTable().some((r) => r.name === "crashy/bad name"));

    // The canary rule: no record or event copies the skipped tool's schema or description, or a call's arguments.
    const events = [];
    rt.addEventListener((e) => events.push(e));
    s.setHost({ execute: mcpExecute([a]) });
    s.inspect({ name: "crashy/echo" });
    await s.call("crashy/echo", { text: "CANARY-crashy-41d7" });
    const text = JSON.stringify([rt.activity(), events]);
    assert.doesNotMatch(text, /CANARY/);
  } finally {
    await a.close();
  }
});

test("removing the provider drops its skipped tools from the Capability Center", async () => {
  const rt = new HolarynRuntime();
  const a = await connectMcpProvider(rt, await connectCrashy(), { providerId: "crashy" });
  try {
    const s = rt.createSession({ dynamicDiscovery: true });
    assert.ok(s.capabilityTable().some((r) => r.name === "crashy/bad name"));
    const change = rt.removeProvider("crashy");
    assert.deepEqual(change.removed, ["crashy/crash", "crashy/echo"]);
    assert.deepEqual(
      s.capabilityTable().filter((r) => r.provider === "crashy"),
      [],
    );
  } finally {
    await a.close();
  }
});

test("a duplicate name across servers is skipped, and the warning suggests qualifyNames", async () => {
  const rt = new HolarynRuntime();
  rt.registerTools([{ name: "echo", description: "host echo", source: "native", provider: { id: "host" } }]);
  const a = await connectMcpProvider(rt, await connectCrashy(), { providerId: "crashy", qualifyNames: false });
  try {
    assert.equal(rt.describe("echo").provider.id, "host");
    assert.ok(rt.describe("crash"));
    const dup = a.warnings.find((w) => w.code === "descriptor.duplicate_name");
    assert.equal(dup.tool, "echo");
    assert.match(dup.nextAction, /qualifyNames: true/);
  } finally {
    await a.close();
  }
});

test("a crashed server is restarted through the factory; tools come back and the same execute works", async () => {
  const rt = new HolarynRuntime();
  const timers = manualTimers();
  const events = [];
  rt.addEventListener((e) => e.type === "tool_registry_changed" && !e.sessionId && events.push(e));
  let reconnects = 0;
  const a = await connectMcpProvider(rt, connectCrashy, {
    providerId: "crashy",
    reconnect: { initialDelayMs: 100, setTimeout: timers.setTimeout, clearTimeout: timers.clearTimeout },
    onReconnect: () => reconnects++,
  });
  try {
    const s = rt.createSession({ dynamicDiscovery: true });
    s.setHost({ execute: mcpExecute([a]), approve: async () => true });
    s.inspect({ name: "crashy/echo" });
    assert.equal((await s.call("crashy/echo", { text: "before" })).output.content[0].text, "before");

    s.inspect({ name: "crashy/crash" });
    await s.call("crashy/crash", {});
    await waitFor(() => !a.connected, "the crash to close the client");
    const row = s.capabilityTable().find((r) => r.name === "crashy/echo");
    assert.equal(row.availability.code, "unavailable.disconnected");
    assert.equal(timers.pending.length, 1);
    assert.equal(timers.pending[0].ms, 100);
    const before = rt.version;
    await timers.fire();
    assert.equal(reconnects, 1);
    assert.ok(a.connected);
    assert.notEqual(rt.version, before, "the reconnect is a registry change");
    assert.ok(events.length >= 2);
    // The same tools came back: still loaded as inspected, callable without a new inspect (issue 31).
    assert.equal(s.capabilityTable().find((r) => r.name === "crashy/echo").availability.state, "loaded");
    const after = await s.call("crashy/echo", { text: "after" });
    assert.equal(after.status, "ok", after.message);
    assert.equal(after.output.content[0].text, "after");
  } finally {
    await a.close();
  }
});

test("reconnect attempts back off exponentially up to maxDelayMs and stop after maxAttempts", async () => {
  const rt = new HolarynRuntime();
  const timers = manualTimers();
  const warnings = [];
  let calls = 0;
  const factory = async () => {
    calls += 1;
    if (calls === 1) return connectCrashy();
    throw new Error("server binary missing");
  };
  const a = await connectMcpProvider(rt, factory, {
    providerId: "crashy",
    reconnect: { initialDelayMs: 10, maxDelayMs: 25, maxAttempts: 3, ...timers },
    onWarning: (w) => warnings.push(w),
  });
  warnings.length = 0;
  const s = rt.createSession({ dynamicDiscovery: true });
  s.inspect({ name: "crashy/crash" });
  await s.call("crashy/crash", {}, { execute: mcpExecute([a]), approve: async () => true });
  await waitFor(() => timers.pending.length, "a scheduled reconnect");
  const delays = [];
  while (timers.pending.length) {
    delays.push(timers.pending[0].ms);
    await timers.fire();
  }
  assert.deepEqual(delays, [10, 20, 25]);
  assert.deepEqual(
    warnings.map((w) => w.type),
    ["mcp_reconnect_failed", "mcp_reconnect_failed", "mcp_reconnect_failed", "mcp_reconnect_gave_up"],
  );
  assert.equal(s.capabilityTable().find((r) => r.name === "crashy/echo").availability.code, "unavailable.disconnected");
  await a.close();
});
