// The gateway benchmark: 20 real catalogs (benchmarks/catalogs/*.json, real
// tools/list results) each served by a stub MCP server over stdio, measured
// directly and through `holaryn gateway` in the same run:
//  - the tools/list bytes a client loads at start (every server's every
//    tool, vs the gateway's discovery tools);
//  - the latency of one call (p50/p95 over N calls): straight to the server
//    vs through the gateway (re-resolved, gated, activity recorded).
// Run: npm run bench:gateway   (a benchmark: it measures, it never fails on speed)

import { mkdirSync, mkdtempSync, readdirSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";

const root = join(dirname(fileURLToPath(import.meta.url)), "../..");
const N = Number(process.env.BENCH_CALLS ?? 300);
const WARMUP = 20;
const catalogs = join(root, "benchmarks/catalogs");
const stub = join(root, "benchmarks/gateway/stub-server.mjs");
const files = readdirSync(catalogs)
  .filter((f) => f.endsWith(".json") && !f.endsWith(".tools.json"))
  .sort();

async function connect(command, args) {
  const client = new Client({ name: "bench", version: "1.0.0" });
  await client.connect(new StdioClientTransport({ command, args, stderr: "ignore" }));
  return client;
}

/** Every page of tools/list, and the bytes of the JSON-RPC results a client receives. */
async function listAll(client) {
  const tools = [];
  let bytes = 0;
  let cursor;
  do {
    const page = await client.listTools(cursor ? { cursor } : {});
    bytes += Buffer.byteLength(JSON.stringify(page));
    tools.push(...page.tools);
    cursor = page.nextCursor;
  } while (cursor);
  return { tools, bytes };
}

async function timeCalls(client, name, args) {
  for (let i = 0; i < WARMUP; i++) await client.callTool({ name, arguments: args });
  const times = [];
  for (let i = 0; i < N; i++) {
    const t = performance.now();
    const r = await client.callTool({ name, arguments: args });
    times.push(performance.now() - t);
    if (r.isError) throw new Error(`${name} failed: ${JSON.stringify(r.content)}`);
  }
  times.sort((a, b) => a - b);
  const q = (p) => times[Math.min(times.length - 1, Math.floor(p * times.length))];
  return { p50: q(0.5), p95: q(0.95) };
}

const dir = mkdtempSync(join(tmpdir(), "holaryn-gw-bench-"));
const config = join(dir, "config.json");
const servers = Object.fromEntries(
  files.map((f) => [f.replace(/\.json$/, ""), { command: process.execPath, args: [stub, join(catalogs, f)] }]),
);
writeFileSync(config, JSON.stringify({ mcpServers: servers }));

// Directly: a client connected to every server loads every tool.
let direct = 0;
let directTools = 0;
const clients = [];
for (const [name, s] of Object.entries(servers)) {
  const c = await connect(s.command, s.args);
  const { tools, bytes } = await listAll(c);
  direct += bytes;
  directTools += tools.length;
  clients.push([name, c]);
}
// A read-only tool with no arguments and no outputSchema (the stub returns text only).
const TOOL = ["everything", "get-env"];
const target = clients.find(([n]) => n === TOOL[0])[1];

// Through the gateway.
const gw = await connect(process.execPath, [join(root, "bin/holaryn.mjs"), "gateway", "--config", config, "--quiet"]);
const viaGateway = await listAll(gw);
const inspected = JSON.parse(
  (await gw.callTool({ name: "tool_inspect", arguments: { name: TOOL.join("/") } })).content[0].text,
);
// The name the gateway lists it under (`everything__get-env`: model APIs refuse `/`).
const listed = inspected.callName ?? inspected.name;
const args = {};
// Interleave the two sides in rounds so machine load hits both alike.
const rounds = 3;
const d = [];
const g = [];
for (let r = 0; r < rounds; r++) {
  d.push(await timeCalls(target, TOOL[1], args));
  g.push(await timeCalls(gw, listed, args));
}
const med = (xs, k) => xs.map((x) => x[k]).sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const result = {
  servers: files.length,
  tools: directTools,
  listBytes: {
    direct,
    gateway: viaGateway.bytes,
    gatewayTools: viaGateway.tools.length,
    ratio: direct / viaGateway.bytes,
  },
  callMs: {
    calls: N * rounds,
    direct: { p50: med(d, "p50"), p95: med(d, "p95") },
    gateway: { p50: med(g, "p50"), p95: med(g, "p95") },
  },
};
await gw.close();
await Promise.all(clients.map(([, c]) => c.close()));

const f = (x) => x.toFixed(3);
const c = result.callMs;
console.log(
  `gateway benchmark: ${result.servers} stub servers over stdio serving ${result.tools} real tools (benchmarks/catalogs)`,
);
console.log(
  `initial tools/list: direct ${direct} bytes (${directTools} tools) vs gateway ${viaGateway.bytes} bytes (${viaGateway.tools.length} tools): ${result.listBytes.ratio.toFixed(1)}x less`,
);
console.log(`one call, ${c.calls} per side in ${rounds} interleaved rounds (ms, median of rounds):`);
console.log(`  direct   p50 ${f(c.direct.p50)}  p95 ${f(c.direct.p95)}`);
console.log(
  `  gateway  p50 ${f(c.gateway.p50)}  p95 ${f(c.gateway.p95)}  (added p50 ${f(c.gateway.p50 - c.direct.p50)}, ${(c.gateway.p50 / c.direct.p50).toFixed(2)}x)`,
);
mkdirSync(join(root, "benchmark-results"), { recursive: true });
writeFileSync(join(root, "benchmark-results/gateway.json"), `${JSON.stringify(result, null, 2)}\n`);
