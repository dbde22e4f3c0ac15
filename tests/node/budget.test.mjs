// Issue 30 through the built package: costly validations are refused as
// `args.budget_exceeded` at their pointer (or answered), never left running;
// over-deep arguments are each format's error result; a host that aborts
// inside its own callback leaves no timer behind. Behaviour only:
// `npm run bench:validation` reports the milliseconds.
import { test } from "node:test";
import assert from "node:assert/strict";
import { HolarynRuntime } from "holaryn";
import { refChain } from "../fixtures/costly-schemas.mjs";
import { native, secret } from "./helpers.mjs";

/** A `refChain` of `kw` behind property `v`. */
const chain = (kw, depth) => ({
  type: "object",
  $defs: refChain(kw, depth),
  properties: { v: { $ref: "#/$defs/d0" } },
});

function session(schema, extra = {}) {
  const rt = new HolarynRuntime();
  rt.registerTools([native("costly", "A tool with a costly schema", { inputSchema: schema, ...extra })]);
  const s = rt.createSession({}, secret(30));
  return s;
}

const execute = () => "ran";

test("fan-out through $refs is answered; every error on 2^40 paths is refused at its pointer", async () => {
  for (const kw of ["allOf", "anyOf", "oneOf"]) {
    const s = session(chain(kw, 40));
    const ok = await s.call("costly", { v: 1 }, { execute });
    assert.equal(ok.code, kw === "oneOf" ? "args.invalid" : "ok", kw);
    const bad = await s.call("costly", { v: "x" }, { execute });
    const code = kw === "allOf" ? "args.budget_exceeded" : "args.invalid";
    assert.equal(bad.code, code, kw);
    assert.equal(bad.errors[0].pointer, "/v", kw);
  }
});

test("a runaway pattern over many keys is refused at the key where the budget ran out", async () => {
  const key = `${"a".repeat(30)}b`;
  const s = session({ type: "object", patternProperties: { "^(a+)+$": { type: "integer" } } });
  const args = Object.fromEntries(Array.from({ length: 1000 }, (_, i) => [`${key}${i}`, 1]));
  const o = await s.call("costly", args, { execute });
  assert.equal(o.code, "args.budget_exceeded");
  assert.match(o.errors[0].pointer, new RegExp(`^/${key}\\d+$`));
  assert.equal(typeof o.nextAction, "string");
});

test("uniqueItems over 20k items and a const are answered; 100k items are refused", async () => {
  const s = session({
    type: "object",
    properties: {
      u: { type: "array", uniqueItems: true },
      c: { const: { k: Array.from({ length: 5000 }, (_, i) => i) } },
    },
  });
  const u = Array.from({ length: 20_000 }, (_, i) => `s${i}`);
  const c = { k: Array.from({ length: 5000 }, (_, i) => i) };
  assert.equal((await s.call("costly", { u, c }, { execute })).code, "ok");
  const dup = await s.call("costly", { u: [...u, "s7"], c }, { execute });
  assert.equal(dup.code, "args.invalid");
  assert.equal(dup.errors[0].pointer, "/u");
  const many = Array.from({ length: 100_000 }, (_, i) => `s${i}`);
  const refused = await s.call("costly", { u: many, c }, { execute });
  assert.equal(refused.code, "args.budget_exceeded");
  assert.equal(refused.errors[0].pointer, "/u");
});

test("arguments nested 130+ levels are every format's error result, never a throw", async () => {
  const rt = new HolarynRuntime();
  rt.registerTools([native("read_file", "Read a file")]);
  const s = rt.createSession({}, secret(31));
  let deep = 1;
  for (let i = 0; i < 200; i++) deep = { a: deep };
  const text = JSON.stringify({ path: deep });
  const calls = {
    anthropic: { type: "tool_use", id: "t1", name: "read_file", input: { path: deep } },
    openai_chat: { id: "c1", type: "function", function: { name: "read_file", arguments: text } },
    openai_responses: { type: "function_call", call_id: "c1", name: "read_file", arguments: text },
    mcp: { name: "read_file", arguments: { path: deep } },
  };
  let ran = 0;
  for (const [format, call] of Object.entries(calls)) {
    const r = await s.dispatchModelCall(format, call, { execute: () => (ran++, "x") });
    const body = {
      anthropic: r.content,
      openai_chat: r.content,
      openai_responses: r.output,
      mcp: r.content?.[0]?.text,
    }[format];
    assert.equal(JSON.parse(body).error.code, "input.invalid", format);
    if (format === "anthropic") assert.deepEqual([r.tool_use_id, r.is_error], ["t1", true]);
    if (format === "mcp") assert.equal(r.isError, true);
  }
  assert.equal(ran, 0);
});

const timers = () => process.getActiveResourcesInfo().filter((r) => r === "Timeout").length;

test("a host that aborts synchronously inside any callback leaves no timer armed", async () => {
  for (const where of ["hook", "approve", "execute", "screen"]) {
    const s = session({ type: "object" }, { approval: where === "approve" ? "ask" : "auto" });
    const ctl = new AbortController();
    const abort = (value) => () => {
      ctl.abort();
      return value;
    };
    const host = {
      signal: ctl.signal,
      hook: where === "hook" ? abort(undefined) : () => undefined,
      approve: where === "approve" ? abort(true) : () => true,
      execute: where === "execute" ? abort("x") : () => "x",
      screen: where === "screen" ? abort(undefined) : () => undefined,
    };
    const before = timers();
    const o = await s.call("costly", {}, host);
    assert.equal(o.status, "cancelled", where);
    assert.equal(timers(), before, `${where}: a timer outlived the call`);
  }
});

test("arguments over maxArgumentBytes are refused args.too_large on every path, unparsed, and nothing runs", async () => {
  const rt = new HolarynRuntime();
  rt.registerTools([native("echo", "Echo", { inputSchema: { type: "object" } })]);
  const s = rt.createSession({ maxArgumentBytes: 1000 }, secret(31));
  let ran = 0;
  const host = { execute: () => (ran++, "ran") };
  const big = { v: "x".repeat(2000) };
  const o = await s.call("echo", big, host);
  assert.equal(o.code, "args.too_large");
  assert.match(o.message, /over this session's cap of 1000 \(maxArgumentBytes\)/);
  assert.equal(typeof o.nextAction, "string");
  assert.equal((await s.call("echo", { v: "small" }, host)).code, "ok");
  const d = await s.dispatch("echo", big, host);
  assert.equal(d.isError, true);
  assert.equal(d.outcome.code, "args.too_large");
  const text = JSON.stringify(big);
  const calls = {
    anthropic: { type: "tool_use", id: "t1", name: "echo", input: big },
    openai_chat: { id: "c1", type: "function", function: { name: "echo", arguments: text } },
    openai_responses: { type: "function_call", call_id: "c2", name: "echo", arguments: text },
    mcp: { name: "echo", arguments: big },
  };
  for (const [format, call] of Object.entries(calls)) {
    const r = await s.dispatchModelCall(format, call, host);
    assert.match(JSON.stringify(r), /args\.too_large/, format);
  }
  assert.equal(ran, 1, "only the small call ran");
  // The default cap (1 MiB) holds for a session that sets none; 0 is not a cap.
  const d2 = rt.createSession({}, secret(32));
  assert.equal((await d2.call("echo", { v: "x".repeat(1_100_000) }, host)).code, "args.too_large");
  assert.equal((await d2.call("echo", { v: "x".repeat(1_000_000) }, host)).code, "ok");
  assert.throws(() => rt.createSession({ maxArgumentBytes: 0 }, secret(33)), { code: "session.invalid_options" });
});
