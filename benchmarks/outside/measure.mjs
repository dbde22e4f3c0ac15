// The outside yardstick, side by side in one run: holaryn lexical (tool_search),
// plain BM25 (benchmarks/quality/bm25.mjs), all-MiniLM-L6-v2 alone (cosine over
// the precomputed vectors) and holaryn fused with MiniLM (searchAsync's native
// path), on the BFCL-derived catalog and requests of benchmarks/outside/bfcl/.
//
//   cargo build --release -p holaryn-core --example outside_rank
//   node benchmarks/outside/measure.mjs [--split dev|test|both] [--misses N] [--data DIR]
//     [--catalog FILE|DIR --requests FILE --vectors FILE [--wide]]
//
// Prints top-1 / any-gold@8 / MRR@8 per BFCL category and split, and the time
// per query of each system. `--misses N` lists up to N holaryn-lexical dev
// misses with the first results' `why` (never test ones). A benchmark: it
// measures, it never fails on a figure.
import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, mkdtempSync, readFileSync, readdirSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { gunzipSync } from "node:zlib";
import { bm25Baseline } from "../quality/bm25.mjs";
import { score, table } from "../quality/metrics.mjs";

const here = dirname(fileURLToPath(import.meta.url));
const root = join(here, "../..");
const argv = process.argv.slice(2);
const opt = (k, d) => (argv.includes(k) ? argv[argv.indexOf(k) + 1] : d);
const data = opt("--data", join(here, "bfcl"));
const split = opt("--split", "dev");
const missesWanted = Number(opt("--misses", 0));
const K = 8;
// --catalog FILE|DIR, --requests FILE, --vectors FILE override the data directory's files
// (e.g. the MCPToolBench++ requests over tests/fixtures/mcp); --wide scores `goldWide`.
const CATALOG = opt("--catalog", join(data, "catalog.json"));
const REQUESTS = opt("--requests", join(data, "requests.jsonl"));
// The vectors are kept gzipped in the repository; the ranker reads plain JSON.
let VECTORS = opt("--vectors", join(data, "minilm-l6-v2.json"));
if (!existsSync(VECTORS) && existsSync(`${VECTORS}.gz`)) {
  const tmp = mkdtempSync(join(tmpdir(), "outside-"));
  writeFileSync(join(tmp, "minilm-l6-v2.json"), gunzipSync(readFileSync(`${VECTORS}.gz`)));
  VECTORS = join(tmp, "minilm-l6-v2.json");
}
const exe = join(root, "target/release/examples/outside_rank");
if (!existsSync(exe)) {
  console.error(`build the ranker first: cargo build --release -p holaryn-core --example outside_rank`);
  process.exit(2);
}
const run = (...a) => execFileSync(exe, [CATALOG, REQUESTS, ...a], { maxBuffer: 1 << 28 }).toString();
const jsonl = (t) =>
  t
    .split("\n")
    .filter((l) => l.trim())
    .map((l) => JSON.parse(l));

const requests = jsonl(readFileSync(REQUESTS, "utf8")).filter((r) => split === "both" || r.split === split);
// Registration as the CLI does it: refused names namespaced `bfcl/name`; gold follows the rename.
const reg = JSON.parse(run("--skipped"));
const rename = (n) => reg.renamed[n] ?? n;
const wide = argv.includes("--wide");
for (const r of requests) r.gold = ((wide && r.goldWide) || r.gold).map(rename);

const vectors = existsSync(VECTORS);
const ranked = new Map(jsonl(run(...(vectors ? ["--vectors", VECTORS] : []))).map((l) => [l.id, l]));

// BM25 over the same tools, names as registered.
let bm25;
if (statSync(CATALOG).isDirectory()) {
  const mcp = readdirSync(CATALOG)
    .filter((f) => f.endsWith(".json"))
    .sort()
    .map((f) => ({ provider: f.replace(/\.json$/, ""), text: readFileSync(join(CATALOG, f), "utf8") }));
  bm25 = bm25Baseline({ mcp, native: "[]" });
} else {
  const tools = JSON.parse(readFileSync(CATALOG, "utf8")).tools.map((t) => ({ ...t, name: rename(t.name) }));
  bm25 = bm25Baseline({ mcp: [], native: JSON.stringify(tools) });
}

// MiniLM alone: cosine of the query's vector with each tool's, over the core's texts.
function decode(b64) {
  const buf = Buffer.from(b64, "base64");
  const v = Float32Array.from(new Int8Array(buf.buffer, buf.byteOffset + 4, buf.length - 4));
  const n = Math.hypot(...v) || 1;
  return v.map((x) => x / n);
}
function dot(a, b) {
  let s = 0;
  for (let i = 0; i < a.length; i++) s += a[i] * b[i];
  return s;
}
let minilm = null;
let toolVec = new Map();
if (vectors) {
  const vec = JSON.parse(readFileSync(VECTORS, "utf8")).vectors;
  const toolVecs = jsonl(run("--texts"))
    .filter((t) => t.kind === "tool" && vec[t.key])
    .map((t) => ({ name: t.name, v: decode(vec[t.key]) }));
  toolVec = new Map(toolVecs.map((t) => [t.name, t.v]));
  minilm = (q) => {
    const key = createHash("sha256").update(q).digest().subarray(0, 16).toString("hex");
    if (!vec[key]) return [];
    const qv = decode(vec[key]);
    return toolVecs
      .map((t) => ({ name: t.name, s: dot(t.v, qv) }))
      .sort((a, b) => b.s - a.s)
      .slice(0, K)
      .map((t) => t.name);
  };
}

const systems = { "holaryn lexical": [], BM25: [] };
if (vectors) Object.assign(systems, { "MiniLM alone": [], "holaryn+MiniLM": [] });
const us = { "holaryn lexical": [], BM25: [], "MiniLM alone": [], "holaryn+MiniLM": [] };
const time = (name, f) => {
  const t0 = process.hrtime.bigint();
  const v = f();
  us[name].push(Number(process.hrtime.bigint() - t0) / 1000);
  return v;
};
for (const r of requests) {
  const base = { id: r.id, kind: r.kind, split: r.split, gold: r.gold };
  const h = ranked.get(r.id);
  systems["holaryn lexical"].push({ ...base, ranked: h.lexical });
  us["holaryn lexical"].push(h.lexicalUs);
  systems.BM25.push({ ...base, ranked: time("BM25", () => bm25.search(r.query).ranked) });
  if (vectors) {
    systems["MiniLM alone"].push({ ...base, ranked: time("MiniLM alone", () => minilm(r.query)) });
    systems["holaryn+MiniLM"].push({ ...base, ranked: h.fused });
    us["holaryn+MiniLM"].push(h.fusedUs);
  }
}

const scored = Object.entries(systems).map(([name, rows]) => ({ name, ...score(rows, K) }));
const kinds = [...new Set(requests.map((r) => r.kind))];
const errors = [...ranked.values()].filter((l) => l.error).length;
console.log(
  `${CATALOG}${wide ? " (goldWide)" : ""}: ${reg.registered} tools registered (${Object.keys(reg.renamed).length} renamed: ` +
    `${JSON.stringify(reg.renamed)}; ${reg.skipped.length} skipped), ${requests.length} requests (${split}), ` +
    `${errors} refused by tool_search${vectors ? "" : "; no vectors file, MiniLM columns left out"}`,
);
// Rows of a split not measured (n = 0) are left out.
console.log(
  table(scored, kinds)
    .split("\n")
    .filter((l) => !/ 0 \| {3,}— /.test(l))
    .join("\n"),
);
const p50 = (v) => [...v].sort((a, b) => a - b)[Math.floor(v.length / 2)];
console.log(
  `per query p50: ${Object.keys(systems)
    .map((n) => `${n} ${p50(us[n]).toFixed(0)} µs`)
    .join(", ")} (MiniLM alone excludes encoding the query; holaryn+MiniLM with cached vectors)`,
);

// How many top-1 misses put first a tool that reads like the gold one: the
// union catalog holds functions of other entries that do the same job, and
// BFCL's gold is the one its entry offered. A diagnostic, not a score.
const SAME = 0.8;
const near = (a, b) => (toolVec.has(a) && toolVec.has(b) ? dot(toolVec.get(a), toolVec.get(b)) : 0);
const lexMisses = requests.filter((r) => !r.gold.includes(ranked.get(r.id).lexical[0]));
if (vectors) {
  for (const split of ["dev", "test"]) {
    const m = lexMisses.filter((r) => r.split === split);
    if (!m.length) continue;
    const eq = m.filter((r) => r.gold.some((g) => near(ranked.get(r.id).lexical[0], g) >= SAME)).length;
    console.log(
      `${split}: ${m.length} holaryn-lexical top-1 misses; ${eq} of them put first a tool whose text has MiniLM cosine >= ${SAME} with a gold tool's`,
    );
  }
}

if (missesWanted) {
  const misses = lexMisses.filter((r) => r.split === "dev");
  console.log(`\n${misses.length} holaryn-lexical dev misses (top-1); first ${missesWanted}:`);
  for (const r of misses.slice(0, missesWanted)) {
    const h = ranked.get(r.id);
    const at = h.lexical.findIndex((n) => r.gold.includes(n));
    const cos = Math.max(0, ...r.gold.map((g) => near(h.lexical[0], g)));
    console.log(
      `MISS ${r.id} ${JSON.stringify(r.query)} gold=${r.gold} rank=${at < 0 ? "-" : at + 1} top1~gold=${cos.toFixed(2)}`,
    );
    for (const [n, why] of h.why ?? []) console.log(`    ${n} ${JSON.stringify(why)}`);
  }
}
