// The gateway config: every problem names the file, the JSON pointer, the
// line:column and what is wrong, and a bad config starts nothing.

import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, it } from "node:test";
import { GatewayConfigError, parseGatewayConfig } from "../../js/gateway/config.mjs";
import { BIN, connectGateway, makeConfig } from "./helpers.mjs";

const bad = (text) => {
  try {
    parseGatewayConfig(text, "/x/mcp.json");
  } catch (e) {
    assert.ok(e instanceof GatewayConfigError, e.message);
    assert.equal(e.code, "config.invalid");
    return e;
  }
  assert.fail(`accepted: ${text}`);
};

describe("gateway config", () => {
  it("accepts the mcpServers shape MCP clients use, with holaryn settings beside it", () => {
    const c = parseGatewayConfig(
      JSON.stringify({
        mcpServers: {
          fs: { command: "npx", args: ["-y", "x"], env: { A: "1" } },
          web: { url: "http://127.0.0.1:9/mcp", headers: { Authorization: "Bearer t" } },
        },
        holaryn: { boundedCodeMode: true, approvalFallback: "allow", activityFile: "a.jsonl" },
      }),
      "/x/mcp.json",
    );
    assert.deepEqual(
      c.servers.map((s) => [s.name, s.kind]),
      [
        ["fs", "stdio"],
        ["web", "http"],
      ],
    );
    assert.equal(c.holaryn.activityFile, "/x/a.jsonl");
    assert.equal(c.holaryn.approvalFallback, "allow");
  });

  it("names file, pointer, line:column and the problem", () => {
    const text = '{\n  "mcpServers": {\n    "fs": {"command": "npx", "args": ["-y", 7]}\n  }\n}';
    const e = bad(text);
    assert.equal(e.file, "/x/mcp.json");
    assert.equal(e.pointer, "/mcpServers/fs/args");
    assert.deepEqual([e.line, e.column], [3, 38]);
    assert.match(e.message, /^\/x\/mcp\.json:3:38: \/mcpServers\/fs\/args: must be an array of strings/);
  });

  it("reports invalid JSON with its position", () => {
    const e = bad('{\n  "mcpServers": {,}\n}');
    assert.equal(e.pointer, "");
    assert.equal(e.line, 2);
    assert.match(e.message, /not valid JSON/);
  });

  for (const [what, config, pointer] of [
    ["no mcpServers", {}, "/mcpServers"],
    ["an unknown top-level key", { mcpServers: {}, extra: 1 }, "/extra"],
    ["a server with neither command nor url", { mcpServers: { a: {} } }, "/mcpServers/a"],
    ["a server with both", { mcpServers: { a: { command: "x", url: "http://h/" } } }, "/mcpServers/a"],
    ["a non-http url", { mcpServers: { a: { url: "file:///etc/passwd" } } }, "/mcpServers/a/url"],
    ["an empty server name", { mcpServers: { " ": { command: "x" } } }, "/mcpServers/ "],
    [
      "two server names with one provider id",
      { mcpServers: { "a b": { command: "x" }, "a/b": { command: "y" } } },
      "/mcpServers/a~1b",
    ],
    ["the reserved name", { mcpServers: { holaryn: { command: "x" } } }, "/mcpServers/holaryn"],
    ["env values that are not strings", { mcpServers: { a: { command: "x", env: { N: 1 } } } }, "/mcpServers/a/env"],
    ["an unknown holaryn setting", { mcpServers: {}, holaryn: { bogus: true } }, "/holaryn/bogus"],
    ["a bad approval fallback", { mcpServers: {}, holaryn: { approvalFallback: "ask" } }, "/holaryn/approvalFallback"],
    ["a bad timeout", { mcpServers: {}, holaryn: { callTimeoutMs: -1 } }, "/holaryn/callTimeoutMs"],
  ]) {
    it(`refuses ${what}`, () => {
      assert.equal(bad(JSON.stringify(config)).pointer, pointer);
    });
  }

  it("a server name as people write it becomes a provider id by the one slug rule, the name kept as written", () => {
    const c = parseGatewayConfig(
      JSON.stringify({ mcpServers: { "My Weather Server": { command: "x" }, "Acme.Tools": { url: "http://h/" } } }),
      "/x/mcp.json",
    );
    assert.deepEqual(
      c.servers.map((s) => [s.name, s.id]),
      [
        ["My Weather Server", "My-Weather-Server"],
        ["Acme.Tools", "Acme.Tools"],
      ],
    );
  });

  it("serves the tools of a server named with spaces under its slugged id, which policy names", async () => {
    const setup = makeConfig({ servers: ["dyn"] });
    const config = JSON.parse(readFileSync(setup.file, "utf8"));
    config.mcpServers = { "My Dyn (beta)": config.mcpServers.dyn };
    config.holaryn = { rules: { deny: ["My-Dyn-beta/fail"] } };
    writeFileSync(setup.file, JSON.stringify(config));
    const gw = await connectGateway(setup.file);
    try {
      const r = await gw.call("My-Dyn-beta/echo_text", { text: "hello" });
      assert.notEqual(r.isError, true, r.text);
      assert.match(r.text, /hello/);
      const denied = await gw.call("My-Dyn-beta/fail", {});
      assert.equal(denied.isError, true);
      assert.match(denied.text, /denied|policy/i);
    } finally {
      await gw.client.close();
    }
    const check = spawnSync(process.execPath, [BIN, "gateway", "--config", setup.file, "--check"], {
      encoding: "utf8",
      timeout: 60_000,
    });
    assert.equal(check.status, 0, check.stderr);
    assert.match(check.stdout, /My Dyn \(beta\)\s+stdio connected\s+[1-9]\d* tools/);
  });

  it("the CLI exits 2 with the message and starts nothing", () => {
    const setup = makeConfig({ servers: ["dyn"] });
    const config = JSON.parse(readFileSync(setup.file, "utf8"));
    config.holaryn = { approvalFallback: "maybe" };
    writeFileSync(setup.file, JSON.stringify(config, null, 2));
    const r = spawnSync(process.execPath, [BIN, "gateway", "--config", setup.file], {
      encoding: "utf8",
      timeout: 30_000,
    });
    assert.equal(r.status, 2, r.stderr);
    assert.match(r.stderr, /config\.json:\d+:\d+: \/holaryn\/approvalFallback: must be one of "deny", "allow"/);
    assert.doesNotMatch(r.stderr, /\n\s+at /, "no stack trace");
    assert.equal(readFileSync(setup.files.pids, "utf8"), "", "no server was started");
  });

  it("a malformed project policy file fails at start with the file and starts nothing", () => {
    const setup = makeConfig({ servers: ["dyn"] });
    const policy = join(setup.dir, "tool-policy.json");
    writeFileSync(policy, '{"deny": [1]}');
    const config = JSON.parse(readFileSync(setup.file, "utf8"));
    config.holaryn = { policyFile: "tool-policy.json" };
    writeFileSync(setup.file, JSON.stringify(config));
    const r = spawnSync(process.execPath, [BIN, "gateway", "--config", setup.file], {
      encoding: "utf8",
      timeout: 30_000,
    });
    assert.equal(r.status, 2, r.stderr);
    assert.match(r.stderr, /tool-policy\.json/);
    assert.equal(readFileSync(setup.files.pids, "utf8"), "");
  });

  it("without elicitation, what asks first is denied with a result that says what the user can change", async () => {
    const setup = makeConfig({ servers: ["dyn"] });
    const gw = await connectGateway(setup.file);
    try {
      await gw.call("tool_inspect", { name: "dyn/wipe_everything" });
      const r = await gw.call("dyn/wipe_everything", {});
      assert.equal(r.isError, true);
      assert.match(r.text, /approvalFallback/);
      assert.doesNotMatch(readFileSync(setup.files.log, "utf8"), /call wipe_everything/);
    } finally {
      await gw.client.close();
    }
  });
});

describe("gateway config hygiene (issue 31)", () => {
  /** Run the CLI on `config` (an object or text); returns the spawn result and the setup. */
  const cli = (config, { args = [], env = {} } = {}) => {
    const setup = makeConfig({ servers: ["dyn"] });
    const base = JSON.parse(readFileSync(setup.file, "utf8"));
    const text = typeof config === "function" ? config(base) : JSON.stringify({ ...base, ...config });
    writeFileSync(setup.file, text);
    const r = spawnSync(process.execPath, [BIN, "gateway", "--config", setup.file, ...args], {
      encoding: "utf8",
      timeout: 30_000,
      env: { ...process.env, ...env },
    });
    return { r, setup };
  };
  const oneLine = (r) => {
    assert.equal(r.status, 2, r.stderr);
    assert.equal(r.stderr.trim().split("\n").length, 1, `one line: ${r.stderr}`);
    assert.doesNotMatch(r.stderr, /\n\s+at |RangeError|Maximum call stack/, "no stack trace");
  };

  it("args nested 20,000 deep: one located line, no stack trace, nothing started", () => {
    const { r, setup } = cli((base) => {
      const text = JSON.stringify(base);
      return text.replace('"args":[', `"args":[${"[".repeat(20_000)}${"]".repeat(20_000)},`);
    });
    oneLine(r);
    assert.match(r.stderr, /config\.json:\d+:\d+: \(root\): not valid JSON \(recursion limit exceeded\)/);
    assert.equal(readFileSync(setup.files.pids, "utf8"), "", "no server was started");
  });

  it("rules nested 200 deep: one line with the file, no stack trace, nothing started", () => {
    const { r, setup } = cli((base) =>
      JSON.stringify(base).replace(/\}$/, `,"holaryn":{"rules":${'{"deny":'.repeat(200)}1${"}".repeat(200)}}}`),
    );
    oneLine(r);
    assert.match(r.stderr, /config\.json:\d+:\d+: /);
    assert.equal(readFileSync(setup.files.pids, "utf8"), "");
  });

  it("a rule error names the file and the pointer under /holaryn/rules", () => {
    const e = bad('{"mcpServers": {}, "holaryn": {"rules": {"deny": ["ok/*", 7]}}}');
    assert.equal(e.pointer, "/holaryn/rules/deny/1");
    assert.match(e.message, /^\/x\/mcp\.json:1:\d+: \/holaryn\/rules\/deny\/1: /);
  });

  for (const key of ["constructor", "__proto__", "toString"]) {
    it(`refuses the prototype key ${key} under "holaryn"`, () => {
      const e = bad(`{"mcpServers": {}, "holaryn": {"${key}": {"x": 1}}}`);
      assert.equal(e.pointer, `/holaryn/${key}`);
      assert.match(e.message, /unknown setting/);
    });
  }

  it('"type": "sse" is the legacy HTTP+SSE transport; an unknown type is refused by name', () => {
    const c = parseGatewayConfig(
      JSON.stringify({ mcpServers: { old: { type: "sse", url: "http://127.0.0.1:9/sse" } } }),
      "/x/mcp.json",
    );
    assert.equal(c.servers[0].kind, "sse");
    const e = bad(JSON.stringify({ mcpServers: { ws: { type: "websocket", url: "http://127.0.0.1:9/" } } }));
    assert.equal(e.pointer, "/mcpServers/ws/type");
    assert.match(e.message, /unknown server type \(known: "stdio", "http", "streamable-http", "sse"\)/);
  });

  it("httpTokenEnv naming an unset variable: --http exits 2 at its place, nothing started", () => {
    const { r, setup } = cli({ holaryn: { httpTokenEnv: "HOLARYN_TEST_UNSET_TOKEN" } }, { args: ["--http", "0"] });
    oneLine(r);
    assert.match(
      r.stderr,
      /config\.json:\d+:\d+: \/holaryn\/httpTokenEnv: the environment variable HOLARYN_TEST_UNSET_TOKEN is not set/,
    );
    assert.equal(readFileSync(setup.files.pids, "utf8"), "");
  });
});
