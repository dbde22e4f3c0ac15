// Prompt-cache stability of exported tool lists (issue 20): one scripted
// session over the 300-tool bench catalog — a search, 5 inspects, a change to
// a tool of an unrelated provider, a change to an inspected tool and its
// re-inspect — exporting the tools array before every model request, per
// format and mode. Reports bytes per request and how often the tools array
// changed, and how often its prefix (the cacheable part) did.
// Run: npm run bench:export   (a benchmark: it measures, it never fails)
import { mkdirSync, writeFileSync } from "node:fs";
import { join, dirname } from "node:path";
import { fileURLToPath } from "node:url";
import { HolarynRuntime } from "holaryn";
import { loadBenchCatalog } from "./tool-discovery/suite.mjs";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
export const RUNS = [
  ["anthropic", "loaded"],
  ["anthropic", "deferred"],
  ["openai_chat", "loaded"],
  ["openai_responses", "loaded"],
  ["mcp", "loaded"],
];
const INSPECT = ["read_file", "glob_files", "github/create_issue", "slack/slack_post_message", "kb/lookup"];

const kbTool = (name, description) => ({
  name,
  description,
  source: "mcp",
  provider: { id: name.split("/")[0], kind: "mcp" },
  trust: "trusted",
  inputSchema: { type: "object", properties: { query: { type: "string" } }, required: ["query"] },
});

/** Run the scripted session; returns one `{step, bytes, tools}` per model request (tools as JSON texts). */
export function scriptedSession(format, mode) {
  const rt = new HolarynRuntime();
  loadBenchCatalog(rt);
  rt.registerTools([
    kbTool("kb/lookup", "Look up a note in the knowledge base"),
    kbTool("weather/today", "Today's weather for a city"),
  ]);
  const s = rt.createSession({ dynamicDiscovery: true });
  const requests = [];
  const request = (step) => {
    const e = mode === "loaded" ? s.exportTools(format) : s.exportTools(format, { mode });
    requests.push({ step, bytes: e.bytes, tools: e.tools.map((t) => JSON.stringify(t)) });
  };
  request("start");
  s.search({ query: "read a file and open a github issue" });
  request("search");
  for (const name of INSPECT) {
    s.inspect({ name });
    request(`inspect ${name}`);
  }
  rt.registerTools([kbTool("weather/today", "Today's weather and a 3-day forecast for a city")]);
  request("change to an unrelated provider");
  rt.registerTools([kbTool("kb/lookup", "Look up a note in the knowledge base by title or text")]);
  request("change to an inspected tool");
  s.inspect({ name: "kb/lookup" });
  request("re-inspect the changed tool");
  s.close();
  return requests;
}

/** Requests whose tools array differs from the previous one, and those whose previous array is no prefix of it. */
export function changes(requests) {
  let changed = 0;
  let prefixChanged = 0;
  for (let i = 1; i < requests.length; i++) {
    const [a, b] = [requests[i - 1].tools, requests[i].tools];
    if (a.length !== b.length || a.some((t, j) => t !== b[j])) changed++;
    if (a.length > b.length || a.some((t, j) => t !== b[j])) prefixChanged++;
  }
  return { changed, prefixChanged };
}

function main() {
  const rows = [];
  for (const [format, mode] of RUNS) {
    const reqs = scriptedSession(format, mode);
    const bytes = reqs.map((r) => r.bytes);
    const total = bytes.reduce((a, b) => a + b, 0);
    rows.push({
      format,
      mode,
      requests: reqs.length,
      meanBytes: Math.round(total / reqs.length),
      firstBytes: bytes[0],
      lastBytes: bytes.at(-1),
      ...changes(reqs),
    });
  }
  console.log(
    `${rows[0]?.requests ?? 0} model requests per session (start, search, 5 inspects, 2 registry changes, 1 re-inspect)`,
  );
  console.log("format            mode      mean B/req  first B   last B  array changed  prefix changed");
  for (const r of rows) {
    console.log(
      `${r.format.padEnd(17)} ${r.mode.padEnd(9)} ${String(r.meanBytes).padStart(10)} ${String(r.firstBytes).padStart(8)} ${String(r.lastBytes).padStart(8)} ${String(r.changed).padStart(14)} ${String(r.prefixChanged).padStart(15)}`,
    );
  }
  const out = join(root, "benchmark-results");
  mkdirSync(out, { recursive: true });
  writeFileSync(
    join(out, "export-cache.json"),
    `${JSON.stringify({ date: new Date().toISOString(), rows }, null, 2)}\n`,
  );
  console.log(`wrote ${join(out, "export-cache.json")}`);
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) main();
