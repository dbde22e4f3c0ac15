// holaryn/mcp from the installed tarball, against real stdio servers: the
// README's factory example with @modelcontextprotocol/server-memory, a
// crash -> reconnect -> tools back cycle with tests/fixtures/servers/crashy.mjs
// on real timers (a short backoff) whose malformed tool is skipped into the
// Capability Center and activity, and the README's `holaryn gateway` configs
// as written (`--check`, then an MCP client started by the client config).
import { test } from "node:test";
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { writeFileSync } from "node:fs";
import { createServer } from "node:http";
import { transformSync } from "esbuild";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { codeFences } from "../../scripts/readme-examples.mjs";
import { packedProject, root } from "./project.mjs";

const p = packedProject({
  links: [
    "@modelcontextprotocol/sdk",
    "@modelcontextprotocol/server-memory",
    "@modelcontextprotocol/server-filesystem",
    "zod",
    "@anthropic-ai/sdk",
  ],
});

test("README: a server connected through a factory (server-memory over npx, offline)", () => {
  const [f] = codeFences(["js"]).filter((x) => x.code.includes("connectMcpProvider(rt, async () =>"));
  writeFileSync(join(p.dir, "factory.mjs"), f.code);
  const r = p.run(process.execPath, ["factory.mjs"]);
  assert.equal(r.status, 0, r.stderr);
  assert.match(r.stdout, /memory\/create_entities/);
});

test("a crashed server is restarted: tools unavailable meanwhile, then back, and the same execute works", () => {
  writeFileSync(
    join(p.dir, "crash.mjs"),
    `import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { HolarynRuntime } from "holaryn";
import { connectMcpProvider, mcpExecute } from "holaryn/mcp";

const out = {};
const rt = new HolarynRuntime();
let back;
const reconnected = new Promise((resolve) => (back = resolve));
const crashy = await connectMcpProvider(rt, async () => {
  const client = new Client({ name: "t", version: "0" });
  await client.connect(new StdioClientTransport({ command: process.execPath, args: [${JSON.stringify(join(root, "tests/fixtures/servers/crashy.mjs"))}], stderr: "ignore" }));
  return client;
}, { providerId: "crashy", reconnect: { initialDelayMs: 50 }, onReconnect: back });
out.skipped = crashy.warnings.map((w) => w.tool + " " + w.code);
const s = rt.createSession({ dynamicDiscovery: true });
out.skippedRow = s.capabilityTable().find((r) => r.name === "crashy/bad name")?.availability.code;
out.skippedRecords = rt.activity().filter((r) => r.kind === "tool_skipped").map((r) => r.tool + " " + r.outcome);
s.setHost({ execute: mcpExecute([crashy]), approve: async () => true });
const state = () => s.capabilityTable().find((r) => r.name === "crashy/echo").availability;
s.inspect({ name: "crashy/crash" });
await s.call("crashy/crash", {});
while (crashy.connected) await new Promise((r) => setTimeout(r, 5));
out.during = state().code;
await reconnected;
out.after = state().state;
s.inspect({ name: "crashy/echo" });
out.echo = (await s.call("crashy/echo", { text: "back" })).output?.content?.[0]?.text;
await crashy.close();
console.log(JSON.stringify(out));
`,
  );
  const r = p.run(process.execPath, ["crash.mjs"], { timeout: 60_000 });
  assert.equal(r.status, 0, r.stderr);
  assert.deepEqual(JSON.parse(r.stdout), {
    skipped: ["crashy/bad name descriptor.invalid_name"],
    skippedRow: "unavailable.skipped",
    skippedRecords: ["crashy/bad name descriptor.invalid_name"],
    during: "unavailable.disconnected",
    after: "available",
    echo: "back",
  });
});

test("README: holaryn gateway — the config as written, --check, and the client's config serving the discovery tools", async () => {
  const fences = codeFences(["json", "sh"]).filter((f) => f.heading.startsWith("Use it from your MCP client"));
  const [config, clientConfig] = fences.filter((f) => f.lang === "json").map((f) => JSON.parse(f.code));
  writeFileSync(join(p.dir, "holaryn-mcp.json"), JSON.stringify(config, null, 2));
  const check = fences.find((f) => f.lang === "sh" && f.code.includes("--check"));
  const r = p.run("bash", ["-euo", "pipefail", "-c", check.code]);
  assert.equal(r.status, 0, r.stderr);
  assert.match(r.stdout, /memory +stdio connected +\d+ tools/);
  assert.match(r.stdout, /files +stdio connected +\d+ tools/);
  assert.match(r.stdout, /with the gateway: +3 tools/);

  // The client's config as written, with the config's real path for /path/to/holaryn-mcp.json.
  const { command, args } = clientConfig.mcpServers.holaryn;
  const client = new Client({ name: "readme-client", version: "0" });
  await client.connect(
    new StdioClientTransport({
      command,
      args: args.map((a) => (a === "/path/to/holaryn-mcp.json" ? join(p.dir, "holaryn-mcp.json") : a)),
      cwd: p.dir,
      env: { ...process.env, npm_config_offline: "true" },
      stderr: "ignore",
    }),
  );
  try {
    const { tools } = await client.listTools();
    assert.deepEqual(
      tools.map((t) => t.name),
      ["tool_search", "tool_list", "tool_inspect"],
    );
    const found = await client.callTool({ name: "tool_search", arguments: { query: "create an entity in memory" } });
    assert.match(JSON.stringify(found.content), /memory\//);
  } finally {
    await client.close();
  }
});

/** A loopback stand-in for the Anthropic Messages API: a tool_search call, then a final answer. */
async function fakeAnthropic() {
  const requests = [];
  const server = createServer((req, res) => {
    let body = "";
    req.on("data", (d) => (body += d));
    req.on("end", () => {
      const request = JSON.parse(body);
      requests.push(request);
      const first = requests.length === 1;
      const content = first
        ? [{ type: "tool_use", id: "toolu_1", name: "tool_search", input: { query: "remember a user preference" } }]
        : [{ type: "text", text: "Noted: tabs." }];
      res.writeHead(200, { "content-type": "application/json" });
      res.end(
        JSON.stringify({
          id: `msg_${requests.length}`,
          type: "message",
          role: "assistant",
          model: request.model,
          content,
          stop_reason: first ? "tool_use" : "end_turn",
          stop_sequence: null,
          usage: { input_tokens: 1, output_tokens: 1 },
        }),
      );
    });
  });
  await new Promise((r) => server.listen(0, "127.0.0.1", r));
  return {
    requests,
    url: `http://127.0.0.1:${server.address().port}`,
    close: () => new Promise((r) => server.close(r)),
  };
}

test("README: the Node agent in 20 lines runs as written (server-memory, Anthropic SDK against a loopback stand-in)", async () => {
  const [f] = codeFences(["js", "ts"]).filter((x) => x.code.includes("new Anthropic()"));
  // Node 20 runs no TypeScript: esbuild strips the types and nothing else.
  const code = f.lang === "ts" ? transformSync(f.code, { loader: "ts", format: "esm" }).code : f.code;
  // Free names: the approval prompt; the example leaves the MCP client open, so close it after.
  writeFileSync(
    join(p.dir, "agent.mjs"),
    `const askTheUser = async () => true;\nconst confirm = askTheUser;\n${code}await mcp.close();\n`,
  );
  const api = await fakeAnthropic();
  try {
    const child = spawn(process.execPath, ["agent.mjs"], {
      cwd: p.dir,
      env: { ...process.env, npm_config_offline: "true", ANTHROPIC_API_KEY: "test-key", ANTHROPIC_BASE_URL: api.url },
    });
    let stderr = "";
    child.stderr.on("data", (d) => (stderr += d));
    const code = await new Promise((resolve) => child.on("close", resolve));
    assert.equal(code, 0, stderr);
    assert.equal(api.requests.length, 2);
    assert.deepEqual(
      api.requests[0].tools.map((t) => t.name),
      ["tool_search", "tool_list", "tool_inspect"],
    );
    const [result] = api.requests[1].messages.at(-1).content;
    assert.equal(result.type, "tool_result");
    assert.equal(result.tool_use_id, "toolu_1");
    assert.match(JSON.stringify(result.content), /memory\//, "tool_search found the memory server's tools");
  } finally {
    await api.close();
  }
});
