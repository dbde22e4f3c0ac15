// holaryn/mcp from the installed tarball, against real stdio servers: the
// README's factory example with @modelcontextprotocol/server-memory, and a
// crash -> reconnect -> tools back cycle with tests/fixtures/servers/crashy.mjs
// on real timers (a short backoff).
import { test } from "node:test";
import assert from "node:assert/strict";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { codeFences } from "../../scripts/readme-examples.mjs";
import { packedProject, root } from "./project.mjs";

const p = packedProject({ links: ["@modelcontextprotocol/sdk", "@modelcontextprotocol/server-memory", "zod"] });

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
s.setHost({ execute: mcpExecute([crashy]), approve: async () => true });
const state = () => s.capabilityTable().find((r) => r.name === "crashy/echo").availability;
s.inspect({ name: "crashy/crash" });
await s.call("crashy/crash", {});
while (crashy.connected) await new Promise((r) => setTimeout(r, 5));
out.during = state().code;
await reconnected;
out.after = state().state;
s.inspect({ name: "crashy/echo" });
out.echo = (await s.call("crashy/echo", { text: "back" })).output?.text;
await crashy.close();
console.log(JSON.stringify(out));
`,
  );
  const r = p.run(process.execPath, ["crash.mjs"], { timeout: 60_000 });
  assert.equal(r.status, 0, r.stderr);
  assert.deepEqual(JSON.parse(r.stdout), {
    skipped: ["crashy/bad name descriptor.invalid_name"],
    during: "unavailable.disconnected",
    after: "available",
    echo: "back",
  });
});
