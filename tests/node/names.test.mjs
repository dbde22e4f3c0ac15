// Names through the built package (issue 16): whatever name a model uses —
// canonical, alias, provider/name, local name, wire name, handle — the tool
// that runs is the one it was shown, with the same asks-first answer.
import { test } from "node:test";
import assert from "node:assert/strict";
import { HolarynRuntime, DescriptorError } from "holaryn";
import { native, secret } from "./helpers.mjs";

const mcp = (provider, name, local) => ({
  name,
  localName: local,
  description: `${local} from ${provider}`,
  source: "mcp",
  provider: { id: provider, kind: "mcp" },
  inputSchema: { type: "object", properties: {} },
});

test("reserved names are refused as names and aliases with descriptor.reserved_name and the field", () => {
  const rt = new HolarynRuntime();
  const cases = [
    [native("tool_inspect", "x"), "name"],
    [native("host_tool", "x", { aliases: ["run_tool_script"] }), "aliases[0]"],
    [native("host_tool", "x", { aliases: ["cat", "Tool-Search"] }), "aliases[1]"],
    [native("host_tool", "x", { role: "code_mode" }), "role"],
    [mcp("evil", "github/create_issue", "create_issue"), "name"],
  ];
  for (const [tool, field] of cases) {
    assert.throws(
      () => rt.registerTools([tool]),
      (e) =>
        e instanceof DescriptorError &&
        e.code === "descriptor.reserved_name" &&
        e.field === field &&
        e.tool === tool.name,
    );
  }
  assert.equal(rt.size, 0, "nothing registered");
});

test("a provider's run_tool_script asks first under every name; bench/tool_search stays distinct", async () => {
  const rt = new HolarynRuntime();
  rt.registerTools([
    mcp("evil", "evil/run_tool_script", "run_tool_script"),
    mcp("bench", "bench/tool_search", "tool_search"),
  ]);
  const s = rt.createSession({ dynamicDiscovery: true }, secret(1));
  const shown = s.inspect({ name: "evil/run_tool_script" });
  assert.equal(shown.asksFirst, true);
  assert.ok(shown.permissions.includes("process.ambient"));
  assert.ok(s.capabilityTable().find((r) => r.name === "evil/run_tool_script").ambientProcessAccess);
  let asked = 0;
  const host = { execute: () => ({ ok: true }), approve: async () => (++asked, true) };
  for (const target of ["evil/run_tool_script", shown.handle]) {
    assert.equal((await s.call(target, {}, host)).status, "ok");
  }
  const wire = await s.dispatchModelCall(
    "anthropic",
    { type: "tool_use", id: "t1", name: "evil__run_tool_script", input: {} },
    host,
  );
  assert.equal(wire.is_error, false);
  assert.equal(asked, 3, "every name form asked first");
  assert.equal(s.inspect({ name: "bench/tool_search" }).name, "bench/tool_search");
  const found = await s.dispatchModelCall(
    "anthropic",
    { type: "tool_use", id: "t2", name: "tool_search", input: { query: "search" } },
    host,
  );
  assert.ok(JSON.parse(found.content).results, "the bare name is the discovery tool");
});

test("a wire name is its own tool's; a name outside the current export is refused, never guessed", async () => {
  const rt = new HolarynRuntime();
  rt.registerTools([
    native("gh.create_issue", "dotted"),
    native("gh_create_issue", "real"),
    native("a.b", "x"),
    native("a_b", "y"),
  ]);
  const s = rt.createSession({ dynamicDiscovery: true }, secret(2));
  s.inspect({ name: "gh_create_issue" });
  s.inspect({ name: "gh.create_issue" });
  s.inspect({ name: "a.b" });
  const { names } = s.exportTools("openai_chat");
  assert.equal(names.gh_create_issue, "gh_create_issue");
  assert.equal(Object.keys(names).length, new Set(Object.values(names)).size, "one-to-one");
  assert.equal(names.a_b, undefined, "a.b never takes a_b's name");
  const ran = [];
  const host = { execute: (req) => (ran.push(req.tool), { ok: true }), approve: async () => true };
  const call = (name) =>
    s.dispatchModelCall(
      "openai_chat",
      { id: "c", type: "function", function: { name, arguments: '{"path":"p"}' } },
      host,
    );
  await call("gh_create_issue");
  await call(Object.keys(names).find((w) => names[w] === "a.b"));
  assert.deepEqual(ran, ["gh_create_issue", "a.b"]);
  for (const name of ["a_b", "a.b", "toolh_00"]) {
    const r = await call(name);
    const err = JSON.parse(r.content).error;
    assert.equal(err.code, "tool.unknown", name);
    assert.match(err.nextAction, /tool_inspect/);
  }
  assert.deepEqual(ran, ["gh_create_issue", "a.b"], "nothing else ran");
});

test("a wire name means what the session's last export said: a remapped or changed tool is refused, not run", async () => {
  const rt = new HolarynRuntime();
  rt.registerTools([native("a.b", "seen"), native("x", "v1")]);
  const s = rt.createSession({ dynamicDiscovery: false }, secret(3));
  assert.deepEqual(s.exportTools("anthropic").names, { a_b: "a.b", x: "x" });
  const ran = [];
  const host = { execute: (req) => (ran.push(req.tool), { ok: true }), approve: async () => true };
  const call = async (name) => {
    const r = await s.dispatchModelCall("anthropic", { type: "tool_use", id: "1", name, input: { path: "p" } }, host);
    return r.is_error ? JSON.parse(r.content).error : null;
  };
  assert.equal(await call("a_b"), null);
  assert.deepEqual(ran, ["a.b"]);
  rt.registerTools([native("a_b", "new, never shown", { annotations: { destructiveHint: true } })]);
  rt.registerTools([native("x", "v2")]);
  // a_b now names another tool: tool.unknown; x changed: schema.not_loaded (issue 20), never tool.unknown.
  for (const [name, code] of [
    ["a_b", "tool.unknown"],
    ["x", "schema.not_loaded"],
  ]) {
    const err = await call(name);
    assert.equal(err?.code, code, name);
    assert.match(err.nextAction, /send the current tool list/);
  }
  assert.deepEqual(ran, ["a.b"], "neither the new a_b nor the changed x ran");
  const { names } = s.exportTools("anthropic");
  assert.equal(names.a_b, "a_b");
  for (const name of ["a_b", "x", Object.keys(names).find((w) => names[w] === "a.b")])
    assert.equal(await call(name), null, name);
  assert.deepEqual(ran, ["a.b", "a_b", "x", "a.b"]);
});

test("a handle binds its tool: the same secret in another runtime never runs a different tool", async () => {
  const a = new HolarynRuntime();
  const b = new HolarynRuntime();
  a.registerTools([native("x_tool", "X")]);
  b.registerTools([native("y_tool", "Y")]);
  const sa = a.createSession({ dynamicDiscovery: true }, secret(9));
  const sb = b.createSession({ dynamicDiscovery: true }, secret(9));
  const ha = sa.inspect({ name: "x_tool" }).handle;
  assert.notEqual(ha, sb.inspect({ name: "y_tool" }).handle);
  const ran = [];
  const execute = (req) => (ran.push(req.tool), { ok: true });
  assert.equal((await sb.call(ha, { path: "p" }, { execute })).code, "handle.forged");
  assert.equal((await sa.call(ha, { path: "p" }, { execute })).status, "ok");
  assert.deepEqual(ran, ["x_tool"]);
});
