// Discovery through the built package: three starting tools, bounds, formats,
// env switches for new sessions only.
import { test } from "node:test";
import assert from "node:assert/strict";
import { HolarynRuntime, InputError, ConfigError } from "holaryn";
import { catalogRuntime as sharedCatalog, native, secret } from "./helpers.mjs";

const catalogRuntime = () => sharedCatalog({ natives: false });

test("a dynamic session starts with exactly the three discovery tools", () => {
  const rt = catalogRuntime();
  const s = rt.createSession({ dynamicDiscovery: true }, secret(1));
  assert.deepEqual(
    s.modelTools().map((t) => t.name),
    ["tool_search", "tool_list", "tool_inspect"],
  );
  const fp = s.footprint();
  assert.ok(fp.atCreation < fp.staticEquivalent / 10, "at least 90% smaller than static");
});

test("search returns at most 8 schema-free results; 512-char queries are exact", () => {
  const rt = catalogRuntime();
  const s = rt.createSession({ dynamicDiscovery: true }, secret(2));
  const out = s.search({ query: "create an issue" });
  assert.ok(out.results.length <= 8);
  assert.ok(!JSON.stringify(out).includes("inputSchema"));
  assert.ok(s.search({ query: "a".repeat(512) }));
  assert.throws(
    () => s.search({ query: "a".repeat(513) }),
    (e) => e instanceof InputError && e.field === "query",
  );
  assert.throws(() => s.search({ query: "x", limit: 9 }), InputError);
});

test("every model format exports with a byte size", () => {
  const rt = catalogRuntime();
  const s = rt.createSession({ dynamicDiscovery: true }, secret(3));
  for (const format of ["anthropic", "openai_chat", "openai_responses", "mcp"]) {
    const e = s.exportTools(format);
    assert.equal(e.tools.length, 3);
    assert.ok(e.bytes > 0);
  }
});

test("environment switches apply to new sessions only and bad values name the variable", () => {
  const rt = new HolarynRuntime();
  rt.registerTools([native("read_file", "Read a file")]);
  const prev = { ...process.env };
  try {
    process.env.HOLARYN_DYNAMIC_TOOL_DISCOVERY = "true";
    const a = rt.createSession(undefined, secret(4));
    assert.equal(a.dynamicDiscovery, true);
    process.env.HOLARYN_DYNAMIC_TOOL_DISCOVERY = "false";
    assert.equal(a.dynamicDiscovery, true, "snapshotted at creation");
    assert.equal(rt.createSession(undefined, secret(5)).dynamicDiscovery, false);
    assert.equal(rt.createSession({ dynamicDiscovery: true }, secret(6)).dynamicDiscovery, true, "explicit wins");
    process.env.HOLARYN_BOUNDED_CODE_MODE = "yes";
    assert.throws(
      () => rt.createSession(undefined, secret(7)),
      (e) => e instanceof ConfigError && /HOLARYN_BOUNDED_CODE_MODE/.test(e.message),
    );
  } finally {
    delete process.env.HOLARYN_DYNAMIC_TOOL_DISCOVERY;
    delete process.env.HOLARYN_BOUNDED_CODE_MODE;
    Object.assign(process.env, prev);
  }
});
