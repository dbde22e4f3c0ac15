// `npm start`: the example model flow, step by step, on the HolarynBench
// catalog (300 real MCP tools + native tools, skills and slash commands).
// The "model" is scripted; every call goes through the real package.
import { fileURLToPath } from "node:url";
import { HolarynRuntime } from "holaryn";
import { loadCatalog } from "../js/cli/catalog.mjs";
import { executor, virtualProject } from "../js-demo/virtual-project.mjs";

const out = (s = "") => process.stdout.write(`${s}\n`);
const h = (s) => out(`\n── ${s} ${"─".repeat(Math.max(0, 70 - s.length))}`);
const kib = (n) => `${(n / 1024).toFixed(1)} KiB`;
const short = (v) => `${v.slice(0, 15)}…`;

const rt = new HolarynRuntime();
const events = [];
rt.addEventListener((e) => e.type === "tool_registry_changed" && !e.sessionId && events.push(e));
// The HolarynBench catalog is data: read with the one catalog loader, no benchmark code.
loadCatalog(rt, fileURLToPath(new URL("../benchmarks/catalogs", import.meta.url)));
out(`Holaryn capability runtime — ${rt.size} tools registered, registry ${short(rt.version)}`);

const files = virtualProject();
const host = {
  execute: executor(files, []),
  approve: async (req) => {
    out(`   ? approval requested: ${req.tool} (${req.reason}) args ${JSON.stringify(req.args)}`);
    out(`   > the script answers: approve`);
    return true;
  },
};
const session = rt.createSession({ dynamicDiscovery: true, boundedCodeMode: true });
session.setHost(host);

h("1. The model starts with three small tools");
const start = session.exportTools("anthropic");
for (const t of session.modelTools()) out(`   ${t.name.padEnd(13)} ${t.description.slice(0, 70)}…`);
out(
  `   ${kib(start.bytes)} of tool definitions (a static session would send ${kib(session.footprint().staticEquivalent)})`,
);

h('2. tool_search "find the project release notes and summarize them"');
const query = "find the project release notes and summarize them";
const found = session.search({ query });
for (const [i, r] of found.results.slice(0, 5).entries()) {
  out(`   ${i + 1}. ${r.name.padEnd(32)} ${r.state.padEnd(10)} why: ${(r.why ?? []).slice(0, 2).join("; ")}`);
}
const pick = found.results.find((r) => r.name === "glob_files") ?? found.results[0];
out(
  `   the scripted model picks ${pick.name} (#${found.results.indexOf(pick) + 1}): finding the file is the first step`,
);

h(`3. tool_inspect ${pick.name}`);
const glob = session.inspect({ name: pick.name });
out(`   loaded its exact schema (${glob.schemaHash.slice(0, 19)}…), handle ${glob.handle.slice(0, 16)}…`);
const read = session.inspect({ name: "read_file" });
out(
  `   also inspected read_file → handle ${read.handle.slice(0, 16)}…; model tools now: ${session
    .modelTools()
    .map((t) => t.name)
    .join(", ")}`,
);

h("4. Calls through the gate");
const g = await session.call(glob.handle, { pattern: "**/CHANGES*.md" });
out(`   ${pick.name} via handle → ${g.status}: ${JSON.stringify(g.output)}`);
const r = await session.call("cat", { path: g.output.matches[0] });
out(`   read_file via alias "cat" → ${r.status}: ${JSON.stringify(r.output.content.split("\n")[0])}…`);
const bad = await session.call("read_file", { path: 42 });
out(`   read_file with a bad argument → ${bad.status} ${bad.code} at ${bad.errors[0].pointer}`);
session.inspect({ name: "delete_file" });
const del = await session.call("delete_file", { path: "src/main.rs" });
out(`   delete_file → ${del.status} after approval`);

h("5. A bounded-code run (run_tool_code)");
session.search({ query: "run several tool calls in one program" });
session.inspect({ name: "run_tool_code" });
const code = `found = call("${glob.handle}", {"pattern": "**/CHANGES*.md"})\nnotes = call("${read.handle}", {"path": "docs/CHANGES.md"})\n`;
out(
  code
    .trimEnd()
    .split("\n")
    .map((l) => `   │ ${l.replace(/toolh_[0-9a-f]+/g, (m) => `${m.slice(0, 14)}…`)}`)
    .join("\n"),
);
const run = await session.call("run_tool_code", { code });
const res = run.output;
out(
  `   → ${res.status}: ${res.trace.length} calls, ${res.outputBytes} bytes retained, limits ${res.limits.maxCalls} calls / ${res.limits.timeoutMs} ms / ${res.limits.maxOutputBytes} B`,
);
for (const row of res.trace) out(`     #${row.index} line ${row.line} ${row.tool} ${row.status} ${row.outputBytes} B`);

h("6. The registry changes mid-session");
const summarizeText = (description) => ({
  name: "summarize_text",
  description,
  source: "native",
  provider: { id: "host", kind: "native" },
  inputSchema: { type: "object", properties: { text: { type: "string" } }, required: ["text"] },
});
rt.registerTools([summarizeText("Summarize a text into bullet points")]);
const ev = events.at(-1);
out(`   tool_registry_changed ${short(ev.oldVersion)} → ${short(ev.newVersion)} (added ${ev.added.join(", ")})`);
const kept = await session.call(read.handle, { path: "docs/CHANGES.md" });
out(
  `   read_file did not change: its handle still works → ${kept.status} (invalidated: ${ev.invalidatedCount ?? 0} tools)`,
);
const summarize = session.inspect({ name: "summarize_text" });
rt.registerTools([summarizeText("Summarize a text into three sentences")]);
const stale = await session.call(summarize.handle, { text: "x" });
out(`   summarize_text changed: its old handle → ${stale.status} ${stale.code}: ${stale.nextAction}`);

h("7. Activity log (no queries, arguments or outputs are ever recorded)");
for (const a of rt.activity().slice(-10))
  out(
    `   #${String(a.seq).padStart(3)} ${a.kind.padEnd(16)} ${(a.tool ?? "").padEnd(20)} ${a.outcome}${a.path ? ` via ${a.path}` : ""}`,
  );

h("8. Bytes saved");
const fp = session.footprint();
out(
  `   now ${kib(fp.now)} of tool definitions; at start ${kib(fp.atCreation)}; static would be ${kib(fp.staticEquivalent)}`,
);
out(
  `   initial saving: ${(100 * (1 - fp.atCreation / fp.staticEquivalent)).toFixed(2)}% (${kib(fp.staticEquivalent - fp.atCreation)} less per request)`,
);
