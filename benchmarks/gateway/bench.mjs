// The gateway benchmark: 20 real catalogs (benchmarks/catalogs/*.json, real
// tools/list results) each served by a stub MCP server over stdio, measured
// directly and through `holaryn gateway` in the same run:
//  - the tools/list bytes a client loads at start (every server's every
//    tool, vs the gateway's discovery tools);
//  - the latency of one call (p50/p95 over N calls): straight to the server
//    vs through the gateway (re-resolved, gated, activity recorded);
//  - load: C concurrent callers × M calls of `echo`, straight to the server on
//    one stdio connection vs through the gateway on one stdio connection and
//    as C clients (one session each) over Streamable HTTP, in rotating rounds:
//    throughput, p50/p99, errors, answers lost or crossed (each caller checks
//    that every answer echoes its own message), and the gateways' RSS.
// Run: npm run bench:gateway   (a benchmark: it measures, it never fails on speed)
// BENCH_CALLS (latency calls per round), BENCH_CLIENTS, BENCH_LOAD_CALLS, BENCH_ROUNDS,
// BENCH_HTTP=0 (skip the HTTP side).

import { spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";

const root = join(dirname(fileURLToPath(import.meta.url)), "../..");
const N = Number(process.env.BENCH_CALLS ?? 300);
const CLIENTS = Number(process.env.BENCH_CLIENTS ?? 20);
const LOAD_CALLS = Number(process.env.BENCH_LOAD_CALLS ?? 50);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
const HTTP = process.env.BENCH_HTTP !== "0";
const WARMUP = 20;
const catalogs = join(root, "benchmarks/catalogs");
const stub = join(root, "benchmarks/gateway/stub-server.mjs");
const files = readdirSync(catalogs)
  .filter((f) => f.endsWith(".json") && !f.endsWith(".tools.json"))
  .sort();

async function connect(command, args) {
  const client = new Client({ name: "bench", version: "1.0.0" });
  const transport = new StdioClientTransport({ command, args, stderr: "ignore" });
  await client.connect(transport);
  client.pid = transport.pid;
  return client;
}

/** `holaryn gateway --http 0` on `config`: its pid, a client factory, close(). */
async function httpGateway(config) {
  const child = spawn(
    process.execPath,
    [join(root, "bin/holaryn.mjs"), "gateway", "--config", config, "--http", "0", "--quiet"],
    {
      stdio: ["ignore", "ignore", "pipe"],
    },
  );
  const url = await new Promise((resolve, reject) => {
    let err = "";
    child.stderr.on("data", (d) => {
      err += d;
      const m = /serving Streamable HTTP on (\S+)/.exec(err);
      if (m) resolve(m[1]);
    });
    child.once("exit", (code) => reject(new Error(`gateway --http exited ${code}: ${err}`)));
  });
  return {
    pid: child.pid,
    async client() {
      const c = new Client({ name: "bench", version: "1.0.0" });
      await c.connect(new StreamableHTTPClientTransport(new URL(url)));
      return c;
    },
    close: () =>
      new Promise((resolve) => {
        child.once("exit", resolve);
        child.kill("SIGTERM");
      }),
  };
}

/** Resident set size of a process in MB (Linux /proc; null elsewhere). */
function rssMb(pid) {
  try {
    const kb = Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, "utf8"))[1]);
    return kb / 1024;
  } catch {
    return null;
  }
}

const quantile = (sorted, p) => sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))];

/**
 * One caller per entry of `callers` (clients; the same one repeated = callers sharing one
 * connection), all at once, LOAD_CALLS calls each of `name` with a message unique to the
 * call; an answer that does not echo its own message counts as lost.
 */
async function load(callers, name, tag) {
  const times = [];
  let errors = 0;
  let lost = 0;
  const caller = async (client, c) => {
    for (let k = 0; k < LOAD_CALLS; k++) {
      const message = `${tag}-${c}-${k}`;
      const t = performance.now();
      try {
        const r = await client.callTool({ name, arguments: { message } });
        times.push(performance.now() - t);
        if (r.isError) errors++;
        else if (r.content?.[0]?.text !== `ok echo ${message}`) lost++;
      } catch {
        errors++;
      }
    }
  };
  const t0 = performance.now();
  await Promise.all(callers.map((client, c) => caller(client, c)));
  const seconds = (performance.now() - t0) / 1000;
  times.sort((a, b) => a - b);
  return {
    calls: callers.length * LOAD_CALLS,
    answered: times.length,
    errors,
    lost,
    callsPerSecond: (callers.length * LOAD_CALLS) / seconds,
    p50: quantile(times, 0.5),
    p99: quantile(times, 0.99),
  };
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
  return { p50: quantile(times, 0.5), p95: quantile(times, 0.95) };
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
/** Inspect a tool through the gateway; the name to call it by (as a client would: the one listed). */
const inspect = async (canonical) => {
  const r = await gw.callTool({ name: "tool_inspect", arguments: { name: canonical } });
  const { callName = canonical } = JSON.parse(r.content[0].text);
  const { tools } = await listAll(gw);
  if (!tools.some((t) => t.name === callName)) throw new Error(`${callName} is not listed after tool_inspect`);
  return callName;
};
const gwTool = await inspect(TOOL.join("/"));
const args = {};
// Interleave the two sides in rounds so machine load hits both alike.
const rounds = ROUNDS;
const d = [];
const g = [];
for (let r = 0; r < rounds; r++) {
  if (r % 2 === 0) {
    d.push(await timeCalls(target, TOOL[1], args));
    g.push(await timeCalls(gw, gwTool, args));
  } else {
    g.push(await timeCalls(gw, gwTool, args));
    d.push(await timeCalls(target, TOOL[1], args));
  }
}
const med = (xs, k) => xs.map((x) => x[k]).sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const sum = (xs, k) => xs.reduce((a, x) => a + x[k], 0);

// Load: CLIENTS callers straight to the server on one stdio connection; through the gateway
// on one stdio connection (stdio serves one client per process); and through one gateway
// over Streamable HTTP as CLIENTS clients, one session each, calling by the exact name
// (they never listed it). Rounds alternate which side goes first.
const LOAD = ["everything", "echo"];
const loadTarget = clients.find(([n]) => n === LOAD[0])[1];
const gwName = await inspect(LOAD.join("/"));
const http = HTTP ? await httpGateway(config) : null;
const httpClients = http ? await Promise.all(Array.from({ length: CLIENTS }, () => http.client())) : [];
const sides = {
  direct: { callers: Array(CLIENTS).fill(loadTarget), name: LOAD[1], runs: [] },
  gateway: { callers: Array(CLIENTS).fill(gw), name: gwName, runs: [], pid: gw.pid },
  ...(http ? { gatewayHttp: { callers: httpClients, name: gwName, runs: [], pid: http.pid } } : {}),
};
const order = Object.keys(sides);
const rss = Object.fromEntries(order.filter((k) => sides[k].pid).map((k) => [k, { before: rssMb(sides[k].pid) }]));
for (const k of order) await load(sides[k].callers, sides[k].name, `warm-${k}`);
for (let r = 0; r < ROUNDS; r++) {
  for (let i = 0; i < order.length; i++) {
    const k = order[(i + r) % order.length];
    sides[k].runs.push(await load(sides[k].callers, sides[k].name, `${k}-${r}`));
  }
}
for (const k of Object.keys(rss)) rss[k].after = rssMb(sides[k].pid);
const side = (xs) => ({
  calls: sum(xs, "calls"),
  answered: sum(xs, "answered"),
  errors: sum(xs, "errors"),
  lost: sum(xs, "lost"),
  callsPerSecond: med(xs, "callsPerSecond"),
  p50: med(xs, "p50"),
  p99: med(xs, "p99"),
});
// Per-round throughput ratios against the direct side (the round's runs ran back to back), then their median.
const ratio = (k) =>
  med(
    sides[k].runs.map((x, i) => ({ x: x.callsPerSecond / sides.direct.runs[i].callsPerSecond })),
    "x",
  );
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
    addedP50: med(
      g.map((x, i) => ({ added: x.p50 - d[i].p50 })),
      "added",
    ),
  },
  load: {
    clients: CLIENTS,
    callsEach: LOAD_CALLS,
    rounds: ROUNDS,
    ...Object.fromEntries(order.map((k) => [k, side(sides[k].runs)])),
    throughputRatio: Object.fromEntries(order.filter((k) => k !== "direct").map((k) => [k, ratio(k)])),
    rssMb: rss,
  },
};
await gw.close();
await Promise.all(httpClients.map((c) => c.close()));
await http?.close();
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
  `  gateway  p50 ${f(c.gateway.p50)}  p95 ${f(c.gateway.p95)}  (added p50 ${f(c.gateway.p50 - c.direct.p50)}, ${(c.gateway.p50 / c.direct.p50).toFixed(2)}x; median of per-round added p50 ${f(c.addedP50)})`,
);
const L = result.load;
const label = { direct: "direct           ", gateway: "gateway stdio    ", gatewayHttp: "gateway HTTP     " };
console.log(
  `load: ${L.clients} concurrent callers x ${L.callsEach} echo calls; direct and gateway stdio share one connection, gateway HTTP is ${L.clients} clients; ${L.rounds} rotating rounds (medians of rounds):`,
);
for (const k of order) {
  const x = L[k];
  console.log(
    `  ${label[k]} ${x.callsPerSecond.toFixed(0).padStart(6)} calls/s  p50 ${f(x.p50)}  p99 ${f(x.p99)}  answered ${x.answered}/${x.calls}, errors ${x.errors}, lost ${x.lost}`,
  );
}
const mb = (x) => (x === null ? "n/a" : `${x.toFixed(1)} MB`);
for (const [k, x] of Object.entries(L.throughputRatio)) {
  const m = L.rssMb[k];
  console.log(
    `  ${label[k].trim()} / direct throughput ${x.toFixed(2)}x (median of per-round ratios); RSS ${mb(m.before)} -> ${mb(m.after)}`,
  );
}
mkdirSync(join(root, "benchmark-results"), { recursive: true });
writeFileSync(join(root, "benchmark-results/gateway.json"), `${JSON.stringify(result, null, 2)}\n`);
