// The registry through the built npm package, in Node.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import {
  HolarynRuntime,
  HolarynSession,
  HolarynError,
  DescriptorError,
  HandleError,
  CatalogError,
  SessionError,
  PolicyError,
  InputError,
  ConfigError,
  ToolError,
} from "holaryn";
import { expose } from "../../js/core.mjs";
import { fixtures, mcpFiles, native, secret } from "./helpers.mjs";

test("bad descriptors are refused with typed errors and nothing changes", () => {
  const rt = new HolarynRuntime();
  rt.registerTools([native("read_file", "Read a file")]);
  const before = rt.version;
  const cases = [
    [[native("", "x")], "descriptor.invalid_name", "name"],
    [[{ ...native("x", "x"), source: "plugin" }], "descriptor.unknown_source", "source"],
    [[{ ...native("y", "x"), aliases: ["read_file"] }], "descriptor.alias_collision", "aliases[0]"],
    [
      [{ ...native("z", "x"), inputSchema: { type: "object", properties: { n: { type: 7 } } } }],
      "descriptor.invalid_schema",
      "inputSchema",
    ],
    [[native("a", "x"), native("a", "y")], "descriptor.duplicate_name", "name"],
  ];
  for (const [tools, code, field] of cases) {
    assert.throws(
      () => rt.registerTools(tools),
      (e) => e instanceof DescriptorError && e instanceof HolarynError && e.code === code && e.field === field,
      code,
    );
  }
  assert.equal(rt.version, before);
  assert.equal(rt.size, 1);
});

test("the real fixture catalog loads without a refusal and matches the golden", () => {
  const rt = new HolarynRuntime();
  for (const f of mcpFiles()) rt.registerCatalog(f.file, f.text, { providerId: f.provider, qualifyNames: true });
  const golden = JSON.parse(readFileSync(join(fixtures, "registry/mcp-catalog.golden.json"), "utf8"));
  assert.equal(rt.size, golden.tools);
  assert.equal(rt.version, golden.registryVersion, "same version as the native core computes");
});

test("version is independent of registration order", () => {
  const files = mcpFiles();
  const a = new HolarynRuntime();
  const b = new HolarynRuntime();
  for (const f of files) a.registerCatalog(f.file, f.text, { providerId: f.provider, qualifyNames: true });
  for (const f of [...files].reverse())
    b.registerCatalog(f.file, f.text, { providerId: f.provider, qualifyNames: true });
  assert.equal(a.version, b.version);
});

test("a malformed catalog names the file and the pointer; an entry that is no tool is skipped with its pointer", () => {
  const rt = new HolarynRuntime();
  const change = rt.registerCatalog("broken.json", '{"tools": [{"description": "no name"}]}');
  assert.deepEqual(
    change.skipped.map((s) => [s.name, s.code, s.pointer]),
    [["#0", "catalog.malformed", "/tools/0"]],
  );
  assert.equal(change.oldVersion, change.newVersion, "nothing registered");
  assert.throws(
    () => HolarynRuntime.parseCatalog("broken.json", '{"tools": [{"description": "no name"}]}'),
    (e) => e instanceof CatalogError && e.file === "broken.json" && e.pointer === "/tools/0",
    "parseCatalog stays strict (parseCatalogWithNotes skips and says)",
  );
  assert.throws(
    () => rt.registerCatalog("bad.json", '{"tools": [\n  {,}]}'),
    (e) => e.code === "catalog.malformed" && e.line === 2 && typeof e.column === "number",
  );
});

test("one bad tool never costs the others: registerCatalog and syncProvider skip it and say so", () => {
  const good = (name) => ({ name, description: `${name} things`, inputSchema: { type: "object" } });
  const tools = [
    good("echo"),
    { name: "bad name", inputSchema: { type: "object" } },
    { name: "bad_schema", inputSchema: { type: "nonsense" } },
    good("ping"),
  ];
  const rt = new HolarynRuntime();
  const change = rt.registerCatalog("srv.json", JSON.stringify({ tools }), { providerId: "srv" });
  assert.deepEqual([...change.added].sort(), ["echo", "ping"]);
  assert.deepEqual(
    change.skipped.map((s) => [s.name, s.code]),
    [
      ["bad name", "descriptor.invalid_name"],
      ["bad_schema", "descriptor.invalid_schema"],
    ],
  );
  assert.ok(change.skipped.every((s) => s.provider.id === "srv" && s.nextAction));
  // The same list again: nothing registered changes, the answer still lists what is skipped.
  const again = rt.registerCatalog("srv.json", JSON.stringify({ tools }), { providerId: "srv" });
  assert.equal(again.oldVersion, again.newVersion);
  assert.equal(again.skipped.length, 2);
  // syncProvider: spec values, a value that is no spec included.
  const specs = tools.map((t) => ({ ...t, source: "mcp", provider: { id: "srv" } }));
  const relist = rt.syncProvider("srv", [...specs.slice(0, 3), { description: "no name" }]);
  assert.deepEqual(relist.removed, ["ping"]);
  assert.deepEqual(relist.skipped.map((s) => `${s.name} ${s.code}`).sort(), [
    "#3 descriptor.invalid",
    "bad name descriptor.invalid_name",
    "bad_schema descriptor.invalid_schema",
  ]);
  assert.deepEqual(
    rt.tools().map((t) => t.name),
    ["echo"],
  );
  // registerTools stays all-or-nothing.
  const before = rt.version;
  assert.throws(
    () => rt.registerTools(specs),
    (e) => e instanceof DescriptorError,
  );
  assert.equal(rt.version, before);
});

test("change events for add, update, remove, disconnect; none for a no-op", () => {
  const rt = new HolarynRuntime();
  const events = [];
  rt.addEventListener((ev) => ev.type === "tool_registry_changed" && !ev.sessionId && events.push(ev));
  const add = rt.registerTools([native("a", "first")]);
  assert.deepEqual(add.added, ["a"]);
  assert.equal(rt.registerTools([native("a", "first")]), null, "identical content is a no-op");
  const upd = rt.registerTools([native("a", "second")]);
  assert.deepEqual(upd.changed, ["a"]);
  rt.setProviderStatus("host", "disconnected");
  const rm = rt.removeTools(["a"]);
  assert.deepEqual(rm.removed, ["a"]);
  assert.equal(events.length, 4);
  assert.equal(events[1].oldVersion, add.newVersion);
  assert.equal(events[3].newVersion, rm.newVersion);
});

test("alias, name and handle resolve to the same tool; forged and stale handles are refused", () => {
  const rt = new HolarynRuntime();
  rt.registerTools([native("read_file", "Read a file", { aliases: ["cat"] }), native("write_file", "Write a file")]);
  assert.equal(rt.describe("cat").name, "read_file");
  const s1 = rt.createSession({ dynamicDiscovery: true }, secret(1));
  const s2 = rt.createSession({ dynamicDiscovery: true }, secret(2));
  const { handle } = s1.inspect({ name: "cat" });
  assert.match(handle, /^toolh_[0-9a-f]+$/);
  assert.equal(s1.inspect({ name: handle }).name, "read_file");
  assert.throws(
    () => s2.inspect({ name: handle }),
    (e) => e instanceof HandleError && e.code === "handle.forged",
  );
  rt.registerTools([native("grep_files", "Search file contents")]);
  assert.equal(s1.inspect({ name: handle }).name, "read_file", "another tool changed: the handle stays valid");
  rt.registerTools([native("read_file", "Read a text file", { aliases: ["cat"] })]);
  assert.throws(
    () => s1.inspect({ name: handle }),
    (e) => e instanceof HandleError && e.code === "handle.stale",
  );
});

test("errors from constructors, accessors and methods all arrive typed", () => {
  assert.throws(
    () => new HolarynRuntime({ bogus: 1 }),
    (e) => e instanceof InputError && e.code === "input.invalid",
  );
  const rt = new HolarynRuntime();
  assert.ok(rt instanceof HolarynRuntime && rt.constructor === HolarynRuntime);
  const s = rt.createSession({ dynamicDiscovery: true }, secret(3));
  assert.ok(s instanceof HolarynSession);
  s.close();
  assert.throws(
    () => s.version,
    (e) => e instanceof SessionError && e.code === "session.unknown",
    "getter",
  );
  assert.throws(() => s.search({ query: "x" }), SessionError, "method");
  assert.equal(new PolicyError("m", "policy.malformed").name, "PolicyError");
});

test("the one generic wrapper types sync throws, Promise rejections, accessors and constructors", async () => {
  const fail = (code, name) => Object.assign(new Error(code), { code, name });
  class Fake {
    constructor(bad) {
      if (bad) throw fail("config.invalid", "ConfigError");
    }
    sync() {
      throw fail("handle.stale", "HandleError");
    }
    async later() {
      throw fail("policy.malformed", "PolicyError");
    }
    ok() {
      return Promise.resolve(42);
    }
    get broken() {
      throw fail("tool.unknown", "ToolError");
    }
    static make() {
      throw fail("catalog.malformed", "CatalogError");
    }
    userError() {
      throw new TypeError("not ours");
    }
  }
  const { HolarynRuntime: Wrapped } = expose({ HolarynRuntime: Fake, HolarynSession: class {} });
  assert.throws(() => new Wrapped(true), ConfigError);
  const f = new Wrapped(false);
  assert.ok(f instanceof Wrapped && f instanceof Fake);
  assert.throws(
    () => f.sync(),
    (e) => e instanceof HandleError && e instanceof HolarynError && e.code === "handle.stale",
  );
  await assert.rejects(f.later(), (e) => e instanceof PolicyError && e.message === "policy.malformed");
  assert.equal(await f.ok(), 42);
  assert.throws(() => f.broken, ToolError);
  assert.throws(() => Wrapped.make(), CatalogError);
  assert.throws(
    () => f.userError(),
    (e) => e instanceof TypeError && !(e instanceof HolarynError),
    "foreign errors untouched",
  );
  assert.equal(expose({ HolarynRuntime: Fake, HolarynSession: class {} }).HolarynRuntime, Wrapped, "idempotent");
});

test("a gated call awaits a Promise-returning execute callback", async () => {
  const rt = new HolarynRuntime();
  rt.registerTools([native("read_file", "Read a file", { aliases: ["cat"] })]);
  const s = rt.createSession({ dynamicDiscovery: true }, secret(4));
  const { handle } = s.inspect({ name: "cat" });
  const seen = [];
  const outcome = await s.call(
    handle,
    { path: "notes.md" },
    {
      execute: async (req) => {
        seen.push(req.tool);
        await new Promise((r) => setTimeout(r, 20));
        return { text: `contents of ${req.args.path}` };
      },
    },
  );
  assert.equal(outcome.status, "ok");
  assert.equal(outcome.path, "handle");
  assert.deepEqual(outcome.output, { text: "contents of notes.md" });
  assert.deepEqual(seen, ["read_file"]);
  const refused = await s.call("read_file", { path: 5 }, { execute: async () => assert.fail("must not run") });
  assert.equal(refused.code, "args.invalid");
});
