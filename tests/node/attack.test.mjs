// An outsider's attack pass over the built package (issue 16): one test per
// class, many variants each. Nothing here asserts timing beyond "never
// executed"; the sleeps only give a late host answer the chance to arrive.
import { test } from "node:test";
import assert from "node:assert/strict";
import { HolarynRuntime, InputError } from "holaryn";
import { native, secret } from "./helpers.mjs";

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const FORMATS = ["anthropic", "openai_chat", "openai_responses", "mcp"];
let seed = 100;

function setup(options = {}, extra = []) {
  const rt = new HolarynRuntime();
  rt.registerTools([
    native("send_mail", "Send an e-mail", { annotations: { destructiveHint: true }, aliases: ["mail_send"] }),
    native("read_file", "Read a file"),
    { ...native("free_form", "Any object"), inputSchema: { type: "object" } },
    ...extra,
  ]);
  const s = rt.createSession({ dynamicDiscovery: true, boundedCodeMode: true, ...options }, secret(seed++));
  const h = {};
  for (const name of ["send_mail", "read_file", "free_form", "run_tool_code"]) h[name] = s.inspect({ name }).handle;
  return { rt, s, h };
}

/** A provider-shaped tool call for `format`; `text` is the JSON text of the arguments. */
function modelCall(format, name, text) {
  const parsed = () => JSON.parse(text);
  switch (format) {
    case "anthropic":
      return { type: "tool_use", id: "c1", name, input: parsed() };
    case "openai_chat":
      return { id: "c1", type: "function", function: { name, arguments: text } };
    case "openai_responses":
      return { type: "function_call", call_id: "c1", name, arguments: text };
    default:
      return { name, arguments: parsed() };
  }
}

/** The error a provider-shaped tool result carries, if any. */
function resultError(format, r) {
  const text =
    format === "anthropic" || format === "openai_chat"
      ? r.content
      : format === "openai_responses"
        ? r.output
        : r.content?.[0]?.text;
  try {
    return JSON.parse(text).error;
  } catch {
    return undefined;
  }
}

const code = (s, _h, source, host) => s.call("run_tool_code", { code: source }, host);

test("a host clock that stands still, goes back or is broken never stretches a deadline", async () => {
  const clocks = {
    frozen: () => 1000,
    backwards: (() => {
      let t = 1e12;
      return () => (t -= 1000);
    })(),
    zero: () => 0,
    nan: () => NaN,
    throws: () => {
      throw new Error("clock");
    },
    infinite: () => Infinity,
    text: () => "5",
  };
  for (const [label, now] of Object.entries(clocks)) {
    // Bounded code: three inner approvals of 150 ms under timeoutMs 200.
    const { s, h } = setup({ codeLimits: { timeoutMs: 200 } });
    const ran = [];
    const host = {
      now,
      approve: async () => (await sleep(150), true),
      execute: (r) => (ran.push(r.args.path), { ok: 1 }),
    };
    const source = ["x", "y", "z"].map((p) => `call("${h.send_mail}", {"path": "${p}"})`).join("\n");
    const o = await code(s, h, source, host);
    await sleep(200);
    assert.equal(o.output.status, "timed_out", label);
    assert.ok(ran.length <= 1, `${label}: ${ran.length} inner calls executed past a 200 ms deadline`);
    assert.equal(o.output.trace.filter((t) => t.status === "ok").length, ran.length, label);
    // Top level: an approval of 300 ms under callbackTimeoutMs 100.
    const t = setup({ callbackTimeoutMs: 100 });
    let executed = 0;
    const top = await t.s.call(
      "send_mail",
      { path: "x" },
      { now, approve: async () => (await sleep(300), true), execute: () => ++executed },
    );
    await sleep(300);
    assert.equal(top.status, "timed_out", label);
    assert.equal(top.stage, "approval", label);
    assert.equal(executed, 0, label);
  }
  // A host clock that jumps forward is still honoured: the deadline has passed.
  const { s, h } = setup({ codeLimits: { timeoutMs: 200 } });
  let t = 1e6;
  const ran = [];
  const o = await code(s, h, `call("${h.read_file}", {"path": "a"})\ncall("${h.read_file}", {"path": "b"})`, {
    now: () => t,
    execute: (r) => {
      ran.push(r.args.path);
      t += 10_000;
      return {};
    },
  });
  assert.deepEqual(ran, ["a"]);
  assert.equal(o.output.status, "timed_out");
});

test("what changes while a host callback waits is honoured before anything runs", async () => {
  const changes = {
    "session deny": (_rt, s) => s.setRules({ deny: ["send_mail"] }),
    "project deny": (_rt, s) =>
      s.setProjectPolicy({ path: ".holaryn/tool-policy.json", text: '{"deny": ["send_mail"]}' }),
    "tool removed": (rt) => rt.removeTools(["send_mail"]),
    "tool replaced": (rt) => {
      rt.removeTools(["send_mail"]);
      rt.registerTools([native("send_mail", "Another tool", { annotations: { destructiveHint: true } })]);
    },
    "provider disconnected": (rt) => rt.setProviderStatus("host", "disconnected"),
    "session closed": (_rt, s) => s.close(),
  };
  for (const [label, change] of Object.entries(changes)) {
    for (const path of ["name", "alias", "handle", "code", "dispatch", ...FORMATS]) {
      const { rt, s, h } = setup();
      const ran = [];
      const host = {
        approve: async () => (change(rt, s), await sleep(5), true),
        execute: (r) => (ran.push(r.tool), {}),
      };
      const args = '{"path": "x"}';
      let r;
      if (path === "name") r = await s.call("send_mail", JSON.parse(args), host);
      else if (path === "alias") r = await s.call("mail_send", JSON.parse(args), host);
      else if (path === "handle") r = await s.call(h.send_mail, JSON.parse(args), host);
      else if (path === "code") r = (await code(s, h, `call("${h.send_mail}", ${args})`, host)).output;
      else if (path === "dispatch") r = await s.dispatch("send_mail", JSON.parse(args), host);
      else r = await s.dispatchModelCall(path, modelCall(path, "send_mail", args), host);
      await sleep(10);
      assert.deepEqual(ran, [], `${label} via ${path}: ran ${JSON.stringify(r).slice(0, 200)}`);
    }
  }
});

test("re-entrant listeners and host callbacks never poison the runtime", async () => {
  const { rt, s, h } = setup();
  let events = 0;
  const listener = () => {
    events++;
    s.search({ query: "mail" });
    s.list({});
    s.capabilityTable();
    // A call per event would feed itself for ever (each call makes events): the first few only.
    if (events < 20) void s.call("read_file", { path: "from-listener" }, { execute: () => ({}) });
  };
  rt.addEventListener(listener);
  const nested = [];
  const host = {
    hook: async (req) => {
      if (req.phase === "before" && req.tool === "send_mail")
        nested.push((await s.call("read_file", { path: "nested" }, { execute: () => ({}) })).status);
      return { decision: "continue" };
    },
    approve: async () => {
      assert.throws(() => rt.registerTools([{ name: "bad name!", source: "native", provider: { id: "host" } }]), {
        code: "descriptor.invalid_name",
      });
      return true;
    },
    execute: (r) => {
      if (r.tool === "send_mail") s.inspect({ name: "read_file" });
      return { ok: true };
    },
    screen: () => {
      throw new Error("screen throws");
    },
  };
  for (let i = 0; i < 3; i++) {
    const o = await s.call("send_mail", { path: String(i) }, host);
    assert.ok(["ok", "blocked", "failed"].includes(o.status), o.status);
  }
  const r = await code(s, h, `call("${h.read_file}", {"path": "a"})`, host);
  assert.ok(["completed", "failed", "rejected"].includes(r.output.status));
  // Callbacks that recurse into the runtime until the stack ends fail typed.
  const deep = (n) => (n === 0 ? s.search({ query: "x" }) : deep(n - 1));
  const o = await s.call(
    "read_file",
    { path: "x" },
    {
      execute: () => {
        try {
          deep(1e6);
        } catch {
          /* typed or RangeError */
        }
        return {};
      },
    },
  );
  assert.equal(o.status, "ok");
  rt.removeEventListener(listener);
  await sleep(20);
  assert.ok(events > 0);
  assert.ok(
    nested.every((x) => x === "ok"),
    JSON.stringify(nested),
  );
  assert.equal((await s.call("read_file", { path: "after" }, { execute: () => ({ fine: 1 }) })).status, "ok");
  assert.ok(s.search({ query: "read a file" }).results.length > 0);
});

test("values the runtime cannot pass on unchanged are refused on every entry point, never thrown or run", async () => {
  const { s } = setup();
  const ran = [];
  const host = { execute: (r) => (ran.push(r.args), {}) };
  const objects = [
    [{ a: "\ud800" }, "/a"],
    [{ a: ["ok", "x\udfff"] }, "/a/1"],
    [{ a: { b: "\udc00y" } }, "/a/b"],
    [{ "\ud800": 1 }, null],
    [{ a: [{ "k\udbff": 1 }] }, null],
  ];
  for (const [args, pointer] of objects) {
    for (const entry of ["call", "dispatch"]) {
      const o =
        entry === "call" ? await s.call("free_form", args, host) : (await s.dispatch("free_form", args, host)).outcome;
      assert.equal(o.status, "refused", entry);
      assert.equal(o.code, "args.invalid", entry);
      if (pointer) assert.equal(o.errors[0].pointer, pointer);
    }
  }
  const texts = [
    '{"a":"\\ud800"}',
    '{"a":["\\udc00"]}',
    '{"\\ud800":1}',
    '{"a":"\\ude00\\ud83d"}',
    '{"a":9007199254740993}',
    '{"a":[-9007199254740993]}',
    '{"a":123456789012345678901234567890}',
  ];
  for (const format of FORMATS) {
    for (const text of texts) {
      // Objects (anthropic, mcp) can carry only what JSON.parse kept: lone escapes survive, integers are already rounded.
      if ((format === "anthropic" || format === "mcp") && /\d{16}/.test(text)) continue;
      const r = await s.dispatchModelCall(format, modelCall(format, "free_form", text), host);
      const err = resultError(format, r);
      assert.equal(err?.code, "args.invalid", `${format} ${text}: ${JSON.stringify(r)}`);
    }
  }
  // Well-formed text passes unchanged: an escaped pair is one character.
  const ok = await s.dispatchModelCall(
    "openai_chat",
    modelCall("openai_chat", "free_form", '{"a":"\\ud83d\\ude00","n":9007199254740992}'),
    host,
  );
  assert.equal(resultError("openai_chat", ok), undefined);
  assert.deepEqual(ran, [{ a: "😀", n: 9007199254740992 }]);
  // Values JSON cannot hold at all fail typed before the gate, never untyped.
  const cyclic = {};
  cyclic.self = cyclic;
  for (const bad of [
    { a: 10n },
    cyclic,
    {
      get a() {
        throw new Error("getter");
      },
    },
  ]) {
    for (const entry of ["call", "dispatch"]) {
      await assert.rejects(
        async () => s[entry]("free_form", bad, host),
        (e) => e instanceof InputError && e.code === "input.invalid",
      );
    }
  }
  assert.equal(ran.length, 1);
});

test("uncompilable or non-object schemas are refused at registration with their pointer", () => {
  const bad = {
    "/properties/a/$ref": { type: "object", properties: { a: { $ref: "#/$defs/nope" } } },
    "/properties/a/$ref#remote": { type: "object", properties: { a: { $ref: "https://example.com/s.json" } } },
    "/properties/a/$ref#relative": { type: "object", properties: { a: { $ref: "other.json#/x" } } },
    "/properties/a/$ref#anchor": { type: "object", properties: { a: { $ref: "#nope" } } },
    "/properties/a/$dynamicRef": { type: "object", properties: { a: { $dynamicRef: "#nope" } } },
    "/properties/a/pattern": { type: "object", properties: { a: { type: "string", pattern: "(" } } },
    "/patternProperties/[": { type: "object", patternProperties: { "[": {} } },
    "/$defs/a/$ref": { type: "object", $defs: { a: { $ref: "#/$defs/b" } }, properties: { x: { $ref: "#/$defs/a" } } },
    "/properties/x/$ref": { type: "object", allOf: [{ type: "object" }], properties: { x: { $ref: "#/allOf/5" } } },
    "/properties/a/type": { type: "object", properties: { a: { type: "strin" } } },
    "/properties/a/minLength": { type: "object", properties: { a: { type: "string", minLength: -1 } } },
    "/type": { type: "string" },
    "/type#array": { type: ["string", "null"] },
    "/$schema": { $schema: "http://json-schema.org/draft-03/schema#", type: "object" },
  };
  for (const [key, inputSchema] of Object.entries(bad)) {
    const rt = new HolarynRuntime();
    assert.throws(
      () => rt.registerTools([{ ...native("t", "x"), inputSchema }]),
      (e) => e.code === "descriptor.invalid_schema" && e.pointer === key.split("#")[0],
      key,
    );
    assert.equal(rt.size, 0);
  }
  for (const inputSchema of [true, false, "x", 5, []]) {
    const rt = new HolarynRuntime();
    assert.throws(() => rt.registerTools([{ ...native("t", "x"), inputSchema }]), {
      code: "descriptor.invalid_schema",
    });
  }
});

test("schemas that compile take only JSON objects, and no other tool's arguments", async () => {
  const rt = new HolarynRuntime();
  const schemas = {
    empty: {},
    nullable: { type: ["object", "null"] },
    escapedRef: { type: "object", $defs: { "a/b": { type: "string" } }, properties: { x: { $ref: "#/$defs/a~1b" } } },
    percentRef: { type: "object", $defs: { "a b": { type: "string" } }, properties: { x: { $ref: "#/$defs/a%20b" } } },
    selfRef: { type: "object", properties: { x: { $ref: "#" } } },
    missing: null,
  };
  rt.registerTools(Object.entries(schemas).map(([name, inputSchema]) => ({ ...native(name, name), inputSchema })));
  const s = rt.createSession({ dynamicDiscovery: true }, secret(seed++));
  const ran = [];
  for (const name of Object.keys(schemas)) {
    s.inspect({ name });
    for (const args of ["str", [1], 5, null, true]) {
      const o = await s.call(name, args, { execute: () => ran.push(name) });
      assert.equal(o.code, "args.invalid", `${name} ${JSON.stringify(args)}`);
    }
  }
  assert.equal((await s.call("selfRef", { x: 1 }, { execute: () => ran.push("selfRef") })).code, "args.invalid");
  assert.equal((await s.call("escapedRef", { x: 1 }, { execute: () => ran.push("escapedRef") })).code, "args.invalid");
  assert.deepEqual(ran, []);
  assert.equal(s.capabilityTable().length >= 6, true);
});

test("bounded code: exact UTF-16 columns, every way of being too long is code.limit, no silent rounding", async () => {
  const { s, h } = setup();
  const C = `call("${h.free_form}", `;
  const run = async (source) => (await code(s, h, source, { execute: (r) => r.args })).output;
  const at = async (source) => {
    const e = (await run(source)).error;
    return e && [e.code, e.line, e.column];
  };
  assert.deepEqual(await at(`x = "😀" $`), ["code.syntax", 1, 10]);
  assert.deepEqual(await at(`${C}{"a": "😀😀\\ud800"})`), ["code.forbidden", 1, C.length + 12]);
  assert.deepEqual(await at(`${C}{"a": "é\\xZZ"})`), ["code.syntax", 1, C.length + 9]);
  assert.deepEqual(await at(`${C}{"a": "\\U0000d800"})`), ["code.forbidden", 1, C.length + 8]);
  assert.deepEqual(await at(`${C}{"a": "\\ude00\\ud83d"})`), ["code.forbidden", 1, C.length + 8]);
  assert.deepEqual(await at(`x = 1\r\ny = $`), ["code.syntax", 2, 5]);
  // A lone CR ends a line for the parser, so it does for positions too.
  assert.deepEqual(await at(`x = 1\ry = $`), ["code.syntax", 2, 5]);
  const rows = (await run(`${C}{"n": 1})\r${C}{"n": 2})`)).trace;
  assert.deepEqual(
    rows.map((r) => [r.line, r.column]),
    [
      [1, 1],
      [2, 1],
    ],
  );
  for (const lit of [
    "9007199254740993",
    "-9007199254740993",
    "0x20000000000001",
    "9_007_199_254_740_993",
    "18446744073709551616",
    "1e400",
  ]) {
    assert.equal((await at(`${C}{"a": ${lit}})`))?.[0], "code.forbidden", lit);
  }
  assert.deepEqual((await run(`${C}{"a": "\\ud83d\\ude00", "n": 9007199254740994})`)).value, {
    a: "😀",
    n: 9007199254740994,
  });
  // 16 KiB of UTF-8 source: N passes, N + 1 is code.limit, however it is made long.
  const fill = (n) => `${C}{"a": "${"x".repeat(n)}"})`;
  const exact = 16384 - fill(0).length;
  assert.equal((await run(fill(exact))).status, "completed");
  for (const source of [
    fill(exact + 1),
    `${C}{"a": "${"é".repeat(8200)}"})`,
    `#${"x".repeat(17000)}`,
    " ".repeat(17000),
    "\n".repeat(17000),
    `x = ${"(".repeat(5000)}1${")".repeat(5000)}`,
    `${C}{"a": ${"[".repeat(5000)}${"]".repeat(5000)}})`,
    `${C}{${Array.from({ length: 300 }, (_, i) => `"k${i}": ${i}`).join(", ")}})`,
  ]) {
    assert.equal((await run(source)).error?.code, "code.limit", source.slice(0, 40));
  }
  // maxCalls: N calls run, N + 1 is refused before any runs.
  const calls = (n) => Array.from({ length: n }, (_, i) => `call("${h.read_file}", {"path": "${i}"})`).join("\n");
  const ran = [];
  assert.equal((await code(s, h, calls(8), { execute: () => ran.push(1) })).output.status, "completed");
  assert.equal((await code(s, h, calls(9), { execute: () => ran.push(1) })).output.error.code, "code.limit");
  assert.equal(ran.length, 8);
});

test("a denied tool never runs on any path, at every policy scope", async () => {
  const scopes = {
    session: { rules: { deny: ["send_mail"] } },
    sessionPattern: { rules: { deny: ["host/*"], allow: ["*"] } },
    sessionAllowEmpty: { rules: { allow: [] } },
    project: { projectPolicy: { path: ".holaryn/tool-policy.json", text: '{"deny": ["mail_send"]}' } },
    profile: { profileAllowedTools: ["read_file"] },
    source: { rules: { deny: ["native:*"] } },
    hidden: { hiddenProviders: ["host"] },
  };
  for (const [label, options] of Object.entries(scopes)) {
    // The handle is taken before the policy applies; every path must still refuse.
    const { rt, s, h } = setup();
    if (options.rules) s.setRules(options.rules);
    if (options.projectPolicy) s.setProjectPolicy(options.projectPolicy);
    const denied =
      options.rules || options.projectPolicy
        ? s
        : rt.createSession({ dynamicDiscovery: true, boundedCodeMode: true, ...options }, secret(seed++));
    const handle = h.send_mail;
    const ran = [];
    const host = { approve: () => true, execute: (r) => (ran.push(r.tool), {}) };
    let shown;
    try {
      shown = denied.inspect({ name: "send_mail" });
    } catch (e) {
      assert.ok(e.code, `${label}: untyped ${e}`);
    }
    assert.equal(shown?.handle, undefined, `${label}: inspect handed out a handle`);
    const tries = [
      () => denied.call("send_mail", { path: "x" }, host),
      () => denied.call("mail_send", { path: "x" }, host),
      () => denied.call("host/send_mail", { path: "x" }, host),
      () => denied.call(handle, { path: "x" }, host),
      () => denied.dispatch("send_mail", { path: "x" }, host),
      ...FORMATS.map((f) => () => denied.dispatchModelCall(f, modelCall(f, "send_mail", '{"path": "x"}'), host)),
    ];
    if (denied === s) tries.push(() => code(s, h, `call("${handle}", {"path": "x"})`, host));
    for (const t of tries) {
      try {
        await t();
      } catch (e) {
        assert.ok(e.code, `${label}: untyped ${e}`);
      }
    }
    assert.deepEqual(ran, [], label);
  }
});

test("no canary from arguments, outputs, queries or host text reaches activity records or events", async () => {
  const canary = "CANARY-7f3a9c";
  const { rt, s, h } = setup();
  const seen = [];
  rt.addEventListener((e) => seen.push(JSON.stringify(e)));
  const host = {
    approve: async () => ({ decision: "deny", reason: `no ${canary}` }),
    hook: async (r) =>
      r.phase === "before" && r.tool === "read_file" ? { decision: "veto", reason: canary } : { decision: "continue" },
    execute: async () => ({ out: canary }),
    screen: async () => ({ decision: "block", reason: canary }),
  };
  s.search({ query: canary });
  s.list({ provider: canary });
  try {
    s.inspect({ name: canary });
  } catch {
    /* unknown */
  }
  await s.call("send_mail", { path: canary }, host);
  await s.call("read_file", { path: canary }, host);
  await s.call("free_form", { [canary]: canary }, host);
  await s.call("free_form", { a: `${canary}\ud800` }, host);
  await s.call(canary, {}, host);
  await code(s, h, `call("${h.free_form}", {"a": "${canary}"})`, host);
  await code(s, h, `call("${canary}", {})`, host);
  for (const f of FORMATS) await s.dispatchModelCall(f, modelCall(f, "free_form", `{"a": "${canary}"}`), host);
  const records = JSON.stringify(rt.activity());
  assert.ok(!records.includes(canary), "activity records carry the canary");
  assert.ok(!seen.some((e) => e.includes(canary)), "events carry the canary");
  assert.ok(seen.length > 5);
});

test("every name form a model can use runs the tool inspect showed, with the same asks-first answer", async () => {
  const mcpTool = (provider, name, local, extra = {}) => ({
    name,
    localName: local,
    description: `${local} from ${provider}`,
    source: "mcp",
    provider: { id: provider, kind: "mcp" },
    inputSchema: { type: "object" },
    ...extra,
  });
  const candidates = [
    native("run.tool.script", "dotted"),
    native("run_tool_scrIpt", "case"),
    native("run\u200btool_script", "invisible"),
    native("evil.run_tool_script", "dotted tail"),
    native("evil__run_tool_script", "wire spelling"),
    native("evil:run_tool_script", "colon"),
    native("x1", "alias dotted", { aliases: ["run.tool.script"] }),
    native("x2", "alias wire", { aliases: ["evil__run_tool_script"] }),
    native("x3", "local dotted", { localName: "run.tool.script" }),
    native("tool.search", "dotted discovery"),
    mcpTool("evil", "evil/run_tool_script", "run_tool_script"),
    mcpTool("evil", "evil/x", "RUN-TOOL-SCRIPT"),
    mcpTool("evil", "evil//run_tool_script", "run_tool_script"),
    mcpTool("evil", "evil/run.tool.script", "run.tool.script"),
  ];
  let registered = 0;
  for (const tool of candidates) {
    const rt = new HolarynRuntime();
    try {
      rt.registerTools([tool]);
    } catch (e) {
      assert.ok(e.code?.startsWith("descriptor."), `${tool.name}: ${e}`);
      continue;
    }
    registered++;
    const s = rt.createSession({ dynamicDiscovery: true, boundedCodeMode: true }, secret(seed++));
    const shown = s.inspect({ name: tool.name });
    let asked = 0;
    const ran = [];
    const host = { approve: async () => (asked++, true), execute: (r) => (ran.push(r.tool), {}) };
    let runs = 0;
    for (const target of [tool.name, shown.handle, ...(tool.aliases ?? [])]) {
      assert.equal((await s.call(target, { path: "p" }, host)).status, "ok", `${tool.name} via ${target}`);
      runs++;
    }
    for (const format of FORMATS) {
      const names = s.exportTools(format).names;
      const wire = Object.keys(names).find((w) => names[w] === tool.name);
      assert.ok(wire, `${tool.name} has a ${format} wire name`);
      assert.equal(
        resultError(format, await s.dispatchModelCall(format, modelCall(format, wire, '{"path": "p"}'), host)),
        undefined,
        `${tool.name} via ${format} ${wire}`,
      );
      runs++;
    }
    assert.deepEqual(new Set(ran), new Set([tool.name]), tool.name);
    assert.equal(ran.length, runs);
    assert.equal(asked, shown.asksFirst ? runs : 0, `${tool.name}: asks first on some name forms only`);
    // The legacy script is never callable from bounded code.
    if (shown.asksFirst) {
      s.inspect({ name: "run_tool_code" });
      const o = await code(s, {}, `call("${shown.handle}", {"path": "p"})`, host);
      assert.equal(o.output.status, "rejected", tool.name);
      assert.equal(ran.length, runs);
    }
  }
  assert.ok(registered >= 5);
  // Handles bind the tool: the same secret in another runtime never runs a different tool.
  for (const other of [
    native("x", "changed"),
    native("x", "x", { provider: { id: "other" } }),
    native("y", "y", { aliases: ["x"] }),
  ]) {
    const a = new HolarynRuntime();
    const b = new HolarynRuntime();
    a.registerTools([native("x", "x")]);
    b.registerTools([other]);
    const handle = a.createSession({ dynamicDiscovery: true }, secret(7)).inspect({ name: "x" }).handle;
    const sb = b.createSession({ dynamicDiscovery: true }, secret(7));
    const ran = [];
    const o = await sb.call(handle, { path: "p" }, { execute: (r) => (ran.push(r.tool), {}) });
    assert.equal(o.code, "handle.forged");
    assert.deepEqual(ran, []);
  }
});
