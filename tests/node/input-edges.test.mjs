// Input edges (issue 16) through the built package: uncompilable and missing
// schemas, non-object and unrepresentable arguments (never a throw), and
// bounded code's exact error positions, surrogate escapes, size and integers.
import { test } from "node:test";
import assert from "node:assert/strict";
import { HolarynRuntime, DescriptorError } from "holaryn";
import { secret } from "./helpers.mjs";

const tool = (name, inputSchema) => ({
  name,
  source: "native",
  provider: { id: "host" },
  ...(inputSchema === undefined ? {} : { inputSchema }),
});

function session(tools, options = {}, rtOptions) {
  const rt = new HolarynRuntime(rtOptions);
  rt.registerTools(tools);
  return { rt, s: rt.createSession({ boundedCodeMode: true, ...options }, secret(16)) };
}

test("uncompilable schemas are refused at registration as descriptor.invalid_schema with the pointer", () => {
  const cases = [
    [{ type: "object", properties: { a: { $ref: "#/$defs/missing" } } }, "/properties/a/$ref"],
    [{ type: "object", properties: { a: { $ref: "https://example.com/remote.json" } } }, "/properties/a/$ref"],
    [
      {
        $schema: "https://json-schema.org/draft/2020-12/schema",
        type: "object",
        properties: { a: { $dynamicRef: "#nowhere" } },
      },
      "/properties/a/$dynamicRef",
    ],
    [
      {
        $schema: "https://json-schema.org/draft/2020-12/schema",
        type: "object",
        properties: { a: { pattern: "(unclosed" } },
      },
      "/properties/a/pattern",
    ],
    [{ type: "object", patternProperties: { "[": {} } }, "/patternProperties/["],
    [{ type: "string" }, "/type"],
  ];
  for (const [schema, pointer] of cases) {
    const rt = new HolarynRuntime();
    assert.throws(
      () => rt.registerTools([tool("t", schema)]),
      (e) =>
        e instanceof DescriptorError &&
        e.code === "descriptor.invalid_schema" &&
        e.pointer === pointer &&
        e.field === "inputSchema",
      JSON.stringify(schema),
    );
    assert.equal(rt.size, 0);
  }
  // Boolean subschemas and local references that resolve still register.
  const rt = new HolarynRuntime();
  rt.registerTools([
    tool("ok", {
      type: "object",
      $defs: { s: { type: "string" } },
      properties: { a: { $ref: "#/$defs/s" }, b: true },
      additionalProperties: false,
    }),
  ]);
  assert.equal(rt.size, 1);
});

test("a missing or null inputSchema is flagged, shown in the table, and refusable", () => {
  const { rt, s } = session([tool("none"), tool("nul", null), tool("some", { type: "object" })]);
  assert.equal(rt.describe("none").schemaMissing, true);
  assert.equal(rt.describe("nul").schemaMissing, true);
  assert.equal(rt.describe("some").schemaMissing, undefined);
  const rows = Object.fromEntries(s.capabilityTable().map((r) => [r.name, r.schemaMissing]));
  assert.deepEqual([rows.none, rows.nul, rows.some], [true, true, false]);
  const strict = new HolarynRuntime({ requireInputSchema: true });
  assert.throws(
    () => strict.registerTools([tool("some", { type: "object" }), tool("none")]),
    (e) => e.code === "descriptor.invalid_schema" && e.tool === "none",
  );
  assert.equal(strict.size, 0);
});

test("arguments are always a JSON object, even under a root schema of {}", async () => {
  const { s } = session([tool("any", {})]);
  let executed = 0;
  const execute = () => ++executed;
  for (const args of ["a string", 3, [1], null]) {
    const o = await s.call("any", args, { execute });
    assert.equal(o.code, "args.invalid", JSON.stringify(args));
    assert.deepEqual(
      o.errors.map((e) => e.pointer),
      [""],
    );
  }
  assert.equal((await s.call("any", {}, { execute })).status, "ok");
  assert.equal(executed, 1);
});

test("a lone surrogate in arguments is a refused call with its pointer, never a throw", async () => {
  const { s } = session([tool("t", { type: "object" })]);
  let executed = 0;
  const host = { execute: () => ++executed };
  const o = await s.call("t", { a: ["ok", "x\ud800"] }, host);
  assert.equal(o.code, "args.invalid");
  assert.deepEqual(
    o.errors.map((e) => e.pointer),
    ["/a/1"],
  );
  assert.match(o.errors[0].message, /lone UTF-16 surrogate/);
  const d = await s.dispatch("t", { q: "\udc00" }, host);
  assert.equal(d.isError, true);
  assert.deepEqual(
    d.content.error.errors.map((e) => e.pointer),
    ["/q"],
  );
  const anthropic = await s.dispatchModelCall(
    "anthropic",
    { type: "tool_use", id: "tu1", name: "t", input: { q: "a\ud83d" } },
    host,
  );
  assert.equal(anthropic.is_error, true);
  for (const args of ['{"q":"\ud800"}', '{"q":"\\ud800"}']) {
    const r = await s.dispatchModelCall(
      "openai_chat",
      { id: "c1", type: "function", function: { name: "t", arguments: args } },
      host,
    );
    assert.match(JSON.stringify(r), /args\.invalid/, args);
    assert.match(JSON.stringify(r), /\\"\/q\\"|"\/q"/, args);
  }
  const { s: dynamic } = session([tool("t", { type: "object" })], { dynamicDiscovery: true });
  const search = await dynamic.dispatch("tool_search", { query: "files \ud800" });
  assert.deepEqual(
    [search.isError, search.content.error.code, search.content.error.pointer],
    [true, "input.invalid", "/query"],
  );
  for (const [method, input, pointer] of [
    ["search", { query: "a\ud800" }, "/query"],
    ["inspect", { name: "\udc00" }, "/name"],
    ["list", { provider: "\ud800" }, "/provider"],
  ]) {
    assert.throws(
      () => dynamic[method](input),
      (e) => e.code === "input.invalid" && e.pointer === pointer,
      method,
    );
  }
  // A well-formed pair passes.
  assert.equal((await s.call("t", { q: "\ud83d\ude00" }, host)).status, "ok");
  assert.equal(executed, 1);
});

test("integers a JavaScript number would round are refused, exact ones pass unchanged", async () => {
  const { s } = session([tool("t", { type: "object" })]);
  const seen = [];
  const host = { execute: (r) => (seen.push(r.args), "ok") };
  const call = (args) =>
    s.dispatchModelCall("openai_responses", { type: "function_call", call_id: "c", name: "t", arguments: args }, host);
  for (const [text, pointer] of [
    ['{"n": 9007199254740993}', "/n"],
    ['{"a": [-123456789012345678901234567890]}', "/a/0"],
  ]) {
    const r = await call(text);
    assert.match(r.output, /args\.invalid/, text);
    assert.ok(r.output.includes(`"pointer":"${pointer}"`), r.output);
  }
  await call('{"n": 9007199254740992, "m": 1152921504606846976}');
  assert.deepEqual(seen, [{ n: 9007199254740992, m: 2 ** 60 }]);
});

async function runCode(code, limits) {
  const { s } = session([tool("t", { type: "object" })], limits ? { codeLimits: limits } : {});
  s.inspect({ name: "run_tool_code" });
  const o = await s.call("run_tool_code", { code }, { execute: (r) => r.args });
  return o.output;
}

test("bounded code: lexical errors and bad escapes point exactly at the culprit", async () => {
  const cases = [
    ["?", 1, 1],
    ['a = call("toolh_a1") $', 1, 22],
    ['é = call("toolh_a1")?', 1, 21],
    ['call("toolh_a1", {"k": "😀"}) ?', 1, 31],
    ['call("toolh_a1"))', 1, 17],
    ['a = call("toolh_a1") \\ x', 1, 22],
    ['call("toolh_a1", {"k": "ab\\x4"})', 1, 27],
    ['call("toolh_a1", {"k": "😀\\U0001F60"})', 1, 27],
    ['call("toolh_a1", {"n": 007})', 1, 24],
  ];
  for (const [code, line, column] of cases) {
    const out = await runCode(code);
    assert.equal(out.error.code, "code.syntax", code);
    assert.deepEqual([out.error.line, out.error.column], [line, column], code);
  }
});

test("bounded code: lone surrogate escapes are refused at the backslash, pairs are joined", async () => {
  const lone = await runCode('call("toolh_a1", {"k": "a\\ud800b"})');
  assert.deepEqual([lone.error.code, lone.error.line, lone.error.column], ["code.forbidden", 1, 26]);
  const big = await runCode('call("toolh_a1", {"n": 9007199254740993})');
  assert.deepEqual([big.error.code, big.error.column], ["code.forbidden", 24]);
  const { rt, s } = session([tool("t", { type: "object" })]);
  const { handle } = s.inspect({ name: "t" });
  s.inspect({ name: "run_tool_code" });
  const seen = [];
  const o = await s.call(
    "run_tool_code",
    { code: `call("${handle}", {"k": "\\ud83d\\ude00"})` },
    { execute: (r) => (seen.push(r.args), "ok") },
  );
  assert.equal(o.status, "ok", JSON.stringify(o.output));
  assert.deepEqual(seen, [{ k: "😀" }]);
  assert.ok(rt);
});

test("bounded code: every way of being too long is code.limit", async () => {
  for (const code of ["#".repeat(16385), `#${"é".repeat(8192)}`, `#${"😀".repeat(4096)}`, "#".repeat(20000)]) {
    const out = await runCode(code);
    assert.equal(out.error.code, "code.limit", `${code.length} UTF-16 units`);
  }
  const shorter = await runCode(`#${"é".repeat(100)}`, { maxSourceBytes: 64 });
  assert.equal(shorter.error.code, "code.limit");
});
