// Converts MCPToolBench++ (github mcp-tool-bench/MCPToolBenchPP) requests into
// requests over OUR 54 fixture catalogs (tests/fixtures/mcp), for an outside
// check of everyday MCP requests. The repository has no licence file, so its
// data is not committed: this reads a git snapshot and writes to a directory
// git ignores (benchmarks/outside/mcptoolbench/).
//
//   node benchmarks/outside/convert-mcptoolbench.mjs [--git DIR] [--commit SHA]
//
// Used: the browser, file-system and search sets (single calls), the servers
// of which we hold the same catalog: MCPToolBench++'s `playwright` is the
// executeautomation server (our `playwright-executeautomation`), `puppeteer`,
// `filesystem`, `tavily-mcp` (our `tavily`, tools spelled with `_`). Left
// out: finance and Google search (no such catalog here), map and pay (absent
// from the snapshot). Gold is the labelled call plus its `similar_tools`,
// mapped to our names (`gold`); `goldWide` adds every tool that shares a gold
// list with one of them in our labelled set (benchmarks/quality/requests.jsonl:
// the groups of interchangeable tools, e.g. every server's click), since in
// our union catalog other servers' equivalents compete.
import { execFileSync } from "node:child_process";
import { mkdirSync, readFileSync, readdirSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { loadRequests, splitOf } from "../quality/devset.mjs";

const here = dirname(fileURLToPath(import.meta.url));
const root = join(here, "../..");
export const COMMIT = "323725c417b43a02bea5a1421662e299dbadeb77";
const FILES = [
  "data/browser/browser_0724_single_v3.json",
  "data/file_system/filesystem_0723_single.json",
  "data/search/search_0725_single_v2.json",
];
const SERVERS = {
  playwright: "playwright-executeautomation",
  puppeteer: "puppeteer",
  filesystem: "filesystem",
  "tavily-mcp": "tavily",
};

const a = process.argv.slice(2);
const opt = (k, d) => (a.includes(k) ? a[a.indexOf(k) + 1] : d);
const git = opt("--git", "/work/.mirror/mcp-tool-bench+MCPToolBenchPP/repo");
const commit = opt("--commit", COMMIT);
const out = join(here, "mcptoolbench");

const ours = new Set();
const dir = join(root, "tests/fixtures/mcp");
for (const f of readdirSync(dir).filter((f) => f.endsWith(".json"))) {
  for (const t of JSON.parse(readFileSync(join(dir, f), "utf8")).tools)
    ours.add(`${f.replace(/\.json$/, "")}/${t.name}`);
}
const mapped = (server, name) => {
  const s = SERVERS[server];
  if (!s) return null;
  const n = `${s}/${s === "tavily" ? name.replace(/-/g, "_") : name}`;
  return ours.has(n) ? n : null;
};
// One hop of our labelled set's interchangeable groups.
const partners = new Map();
for (const r of loadRequests()) {
  for (const g of r.gold) {
    const p = partners.get(g) ?? new Set();
    for (const h of r.gold) p.add(h);
    partners.set(g, p);
  }
}

const requests = [];
const dropped = {};
for (const file of FILES) {
  const data = JSON.parse(execFileSync("git", ["--git-dir", git, "show", `${commit}:${file}`], { maxBuffer: 1 << 28 }));
  for (const e of data) {
    const labels = e.function_call_label.flatMap((l) => [l, ...(l.similar_tools ?? [])]);
    const gold = [...new Set(labels.map((l) => mapped(l.mcp_server, l.name)).filter(Boolean))];
    if (!gold.length) {
      dropped[e.category] = (dropped[e.category] ?? 0) + 1;
      continue;
    }
    const wide = [...new Set(gold.flatMap((g) => [g, ...(partners.get(g) ?? [])]))];
    const id = `mtb-${e.category}-${e.uuid}`;
    requests.push({ id, kind: e.category, query: e.query.slice(0, 512), gold, goldWide: wide, split: splitOf(id) });
  }
}
mkdirSync(out, { recursive: true });
writeFileSync(join(out, ".gitignore"), "*\n");
writeFileSync(join(out, "requests.jsonl"), `${requests.map((r) => JSON.stringify(r)).join("\n")}\n`);
const dev = requests.filter((r) => r.split === "dev").length;
console.error(
  `MCPToolBench++ at ${commit}: ${requests.length} requests (${dev} dev) over tests/fixtures/mcp; dropped for want of a catalog here: ${JSON.stringify(dropped)}`,
);
