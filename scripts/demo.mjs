// `npm start`: a short end-to-end run on the real fixture catalog (1,335 tools
// from 54 published MCP servers) plus a few native tools.
import { readFileSync, readdirSync } from "node:fs";
import { join, dirname } from "node:path";
import { fileURLToPath } from "node:url";
import { HolarynRuntime } from "holaryn";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const dir = join(root, "tests/fixtures/mcp");
const out = (s = "") => process.stdout.write(s + "\n");
const kb = (n) => `${(n / 1024).toFixed(1)} KiB`;

const rt = new HolarynRuntime();
const events = [];
rt.addEventListener((e) => e.type === "tool_registry_changed" && events.push(e));

let t0 = performance.now();
for (const f of readdirSync(dir).filter((f) => f.endsWith(".json")).sort()) {
  rt.registerCatalog(f, readFileSync(join(dir, f), "utf8"), { providerId: f.replace(/\.json$/, ""), qualifyNames: true });
}
const files = { read_file: "notes", "docs/CHANGES.md": "" };
rt.registerTools([
  {
    name: "read_file", aliases: ["cat"], title: "Read file", description: "Read a text file from the project.",
    source: "native", provider: { id: "host", kind: "native", displayName: "Host" }, trust: "builtin", permissions: ["fs.read"],
    inputSchema: { type: "object", properties: { path: { type: "string", description: "Project-relative path" } }, required: ["path"] },
  },
  {
    name: "glob_files", title: "Find files", description: "Find files by name pattern (glob), e.g. **/CHANGES*.md.",
    source: "native", provider: { id: "host", kind: "native", displayName: "Host" }, trust: "builtin", permissions: ["fs.read"],
    inputSchema: { type: "object", properties: { pattern: { type: "string", description: "Glob pattern" } }, required: ["pattern"] },
  },
]);
out(`Registered ${rt.size} tools from 54 MCP servers + host in ${(performance.now() - t0).toFixed(0)} ms`);
out(`Registry version ${rt.version}`);
out(`Lookup by alias "cat" → ${rt.describe("cat").name} (${rt.describe("cat").provider.id})`);
out();

const s = rt.createSession({ dynamicDiscovery: true, boundedCodeMode: true });
const fp = s.footprint();
out(`Dynamic session ${s.id}: the model starts with ${s.modelTools().map((t) => t.name).join(", ")}`);
out(`  ${kb(fp.atCreation)} of tool definitions instead of ${kb(fp.staticEquivalent)} static (${(100 - (100 * fp.atCreation) / fp.staticEquivalent).toFixed(2)}% smaller)`);
out();
const query = "find the project release notes and summarize them";
t0 = performance.now();
const found = s.search({ query });
out(`tool_search "${query}" (${((performance.now() - t0) * 1000).toFixed(0)} µs):`);
found.results.slice(0, 5).forEach((r, i) => out(`  ${i + 1}. ${r.name} — ${r.summary}${r.why?.length ? `  [why: ${r.why.join("; ")}]` : ""}`));
const pick = found.results.find((r) => r.name === "glob_files") ?? found.results[0];
const inspected = s.inspect({ name: pick.name });
out(`tool_inspect ${pick.name} → state ${inspected.availability.state}, handle ${inspected.handle.slice(0, 18)}…`);
out(`  inspect by handle → ${s.inspect({ name: inspected.handle }).name} (same tool)`);
const host = {
  execute: async (req) => (req.tool === "glob_files" ? { matches: ["docs/CHANGES.md"] } : { text: `contents of ${req.args.path}` }),
  approve: async () => true,
};
const r = await s.call(inspected.handle, { pattern: "**/CHANGES*.md" }, host);
out(`call via handle → ${r.status}: ${r.status === "ok" ? JSON.stringify(r.output) : `${r.code} (${r.message})`}`);
out();
rt.registerTools([{ name: "write_file", description: "Write a file", source: "native", provider: { id: "host" } }]);
const ev = events.at(-1);
out(`Registry change: ${ev.oldVersion.slice(0, 19)}… → ${ev.newVersion.slice(0, 19)}… (added ${ev.added.join(", ")})`);
try {
  s.inspect({ name: inspected.handle });
} catch (e) {
  out(`  the old handle is now refused: ${e.name} ${e.code}`);
}
out();
out("Activity log (no arguments, outputs or queries are ever recorded):");
for (const a of rt.activity().slice(-6)) out(`  #${a.seq} ${a.kind} ${a.tool ?? ""} → ${a.outcome}`);
