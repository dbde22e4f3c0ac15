// The registry through the built npm package, in Node.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { HolarynRuntime, DescriptorError, HandleError, HolarynError, CatalogError } from "holaryn";
import { fixtures, mcpFiles, native, secret } from "./helpers.mjs";

test("bad descriptors are refused with typed errors and nothing changes", () => {
  const rt = new HolarynRuntime();
  rt.registerTools([native("read_file", "Read a file")]);
  const before = rt.version;
  const cases = [
    [[native("", "x")], "descriptor.invalid_name", "name"],
    [[{ ...native("x", "x"), source: "plugin" }], "descriptor.unknown_source", "source"],
    [[{ ...native("y", "x"), aliases: ["read_file"] }], "descriptor.alias_collision", "aliases[0]"],
    [[{ ...native("z", "x"), inputSchema: { type: "object", properties: { n: { type: 7 } } } }], "descriptor.invalid_schema", "inputSchema"],
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
  for (const f of [...files].reverse()) b.registerCatalog(f.file, f.text, { providerId: f.provider, qualifyNames: true });
  assert.equal(a.version, b.version);
});

test("a malformed catalog names the file and the pointer", () => {
  const rt = new HolarynRuntime();
  assert.throws(
    () => rt.registerCatalog("broken.json", '{"tools": [{"description": "no name"}]}'),
    (e) => e instanceof CatalogError && e.file === "broken.json" && e.pointer === "/tools/0",
  );
  assert.throws(
    () => rt.registerCatalog("bad.json", '{"tools": [\n  {,}]}'),
    (e) => e.code === "catalog.malformed" && e.line === 2 && typeof e.column === "number",
  );
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
  assert.throws(() => s2.inspect({ name: handle }), (e) => e instanceof HandleError && e.code === "handle.forged");
  rt.registerTools([native("grep_files", "Search file contents")]);
  assert.throws(() => s1.inspect({ name: handle }), (e) => e instanceof HandleError && e.code === "handle.stale");
});
