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
    ["a bad server name", { mcpServers: { "a b": { command: "x" } } }, "/mcpServers/a b"],
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
