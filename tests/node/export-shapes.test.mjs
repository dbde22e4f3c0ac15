// What exportTools promises its types (wasm/src/types.rs): every root schema says
// `type: "object"`, and Responses tools carry `strict`, true only where the schema
// already meets strict mode's rules (core/src/formats/strict.rs).
import assert from "node:assert/strict";
import test from "node:test";
import { HolarynRuntime } from "holaryn";
import { native, secret } from "./helpers.mjs";

const closed = {
  type: "object",
  properties: { path: { type: "string" } },
  required: ["path"],
  additionalProperties: false,
};

test("every format's schema root says type object; Responses strict only for strict-ready schemas", () => {
  const rt = new HolarynRuntime();
  rt.registerTools([
    native("closed_tool", "Closed", { inputSchema: closed }),
    native("open_tool", "Open", { inputSchema: { properties: { path: { type: "string" } } } }),
    native("nullable_tool", "Nullable", { inputSchema: { type: ["object", "null"] } }),
  ]);
  const s = rt.createSession({ dynamicDiscovery: false }, secret(1));
  const schemaOf = {
    anthropic: (t) => t.input_schema,
    openai_chat: (t) => t.function.parameters,
    openai_responses: (t) => t.parameters,
    mcp: (t) => t.inputSchema,
  };
  for (const [format, get] of Object.entries(schemaOf)) {
    const tools = s.exportTools(format).tools;
    assert.ok(tools.length >= 3, format);
    for (const t of tools) assert.equal(get(t).type, "object", `${format}: ${JSON.stringify(t)}`);
  }
  const strict = Object.fromEntries(s.exportTools("openai_responses").tools.map((t) => [t.name, t.strict]));
  assert.equal(strict.closed_tool, true);
  assert.equal(strict.open_tool, false);
  assert.equal(strict.nullable_tool, false);
  // The exported schema is the registered one (only the root type added): nothing else rewritten.
  const open = s.exportTools("anthropic").tools.find((t) => t.name === "open_tool");
  assert.deepEqual(open.input_schema, { properties: { path: { type: "string" } }, type: "object" });
});

test("a call to a tool whose schema had no root type still validates against the registered schema", async () => {
  const rt = new HolarynRuntime();
  rt.registerTools([native("open_tool", "Open", { inputSchema: { properties: { path: { type: "string" } } } })]);
  const s = rt.createSession({ dynamicDiscovery: false }, secret(2));
  s.exportTools("anthropic");
  const host = { execute: async (req) => ({ got: req.args }) };
  const bad = await s.dispatchModelCall(
    "anthropic",
    { type: "tool_use", id: "t1", name: "open_tool", input: { path: 3 } },
    host,
  );
  assert.equal(bad.is_error, true);
  const good = await s.dispatchModelCall(
    "anthropic",
    { type: "tool_use", id: "t2", name: "open_tool", input: { path: "a" } },
    host,
  );
  assert.equal(good.is_error, false);
});
