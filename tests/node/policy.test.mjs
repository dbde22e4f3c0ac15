// Policy through the built package: scopes, malformed files, states.
import { test } from "node:test";
import assert from "node:assert/strict";
import { HolarynRuntime, PolicyError } from "holaryn";
import { native, secret } from "./helpers.mjs";

function rt() {
  const r = new HolarynRuntime();
  r.registerTools([
    native("read_file", "Read a file", { aliases: ["cat"] }),
    native("write_file", "Write a file"),
    { name: "deploy", description: "Deploy", source: "slash_command", provider: { id: "host" }, usage: "/deploy" },
  ]);
  return r;
}

test("each malformed project-policy class fails session creation with file and location", () => {
  const r = rt();
  const path = "/repo/.holaryn/tool-policy.json";
  const cases = [
    ['{"deny": ["read_file",]}', (e) => e.line === 1 && typeof e.column === "number"],
    ['{"deny": "read_file"}', (e) => e.pointer === "/deny"],
    ['{"denny": []}', (e) => e.pointer === "/denny"],
    ['{"deny": ["a*b"]}', (e) => e.pointer === "/deny/0"],
  ];
  for (const [text, where] of cases) {
    assert.throws(
      () => r.createSession({ dynamicDiscovery: true, projectPolicy: { path, text } }, secret(1)),
      (e) =>
        e instanceof PolicyError &&
        e.code === "policy.malformed" &&
        e.file === path &&
        where(e) &&
        e.message.length > 0,
      text,
    );
  }
});

test("deny wins, empty allow leaves only the discovery tools, aliases cannot dodge", async () => {
  const r = rt();
  const empty = r.createSession({ dynamicDiscovery: true, rules: { allow: [] } }, secret(2));
  assert.deepEqual(
    empty.modelTools().map((t) => t.name),
    ["tool_search", "tool_list", "tool_inspect"],
  );
  const s = r.createSession({ dynamicDiscovery: true, rules: { deny: ["cat"] } }, secret(3));
  const denied = s.inspect({ name: "read_file" });
  assert.equal(denied.availability.state, "denied");
  assert.equal(denied.loaded, false);
  const o = await s.call("cat", { path: "x" }, { execute: () => ({}) });
  assert.equal(o.code, "policy.denied");
  const open = r.createSession({ dynamicDiscovery: true }, secret(4));
  assert.equal(open.inspect({ name: "read_file" }).loaded, true, "omitted allow permits");
});

test("the Capability Center table has a state, reason and next action for every row, in both modes", () => {
  const r = rt();
  for (const dynamicDiscovery of [true, false]) {
    const s = r.createSession({ dynamicDiscovery, rules: { deny: ["write_file"] } }, secret(dynamicDiscovery ? 5 : 6));
    const rows = Object.fromEntries(s.capabilityTable().map((row) => [row.name, row.availability]));
    assert.equal(rows.write_file.state, "denied");
    assert.equal(rows.write_file.scope, "session");
    assert.equal(rows.deploy.state, "catalog_only");
    assert.equal(rows.read_file.state, dynamicDiscovery ? "available" : "loaded");
    for (const a of Object.values(rows)) assert.ok(a.code && a.reason && a.nextAction);
  }
});

test("policyWarnings names entries that match nothing, follows edits and registry changes", () => {
  const r = rt();
  const path = "/repo/.holaryn/tool-policy.json";
  const s = r.createSession(
    {
      dynamicDiscovery: true,
      projectPolicy: { path, text: '{"deny": ["write_file", "no_such_tool", "tool_search"]}' },
    },
    secret(7),
  );
  const w = s.policyWarnings();
  assert.deepEqual(
    w.map(({ scope, entry, pointer }) => ({ scope, entry, pointer })),
    [
      { scope: "project", entry: "no_such_tool", pointer: "/deny/1" },
      { scope: "project", entry: "tool_search", pointer: "/deny/2" },
    ],
  );
  assert.ok(w[0].message.startsWith(`${path}: `) && w[0].message.includes("not an error"), w[0].message);
  assert.ok(w[1].message.includes("discovery tool"), w[1].message);
  // Registering the named tool resolves its warning; a session edit adds its own.
  r.registerTools([native("no_such_tool", "Now it exists")]);
  s.setRules({ allow: ["read_file", "read_file"] });
  assert.deepEqual(
    s.policyWarnings().map(({ scope, pointer }) => `${scope}${pointer}`),
    ["session/allow/1", "project/deny/2"],
  );
});
