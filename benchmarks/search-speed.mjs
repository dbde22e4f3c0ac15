// tool_search speed through the npm package, side by side with MiniSearch
// indexing the same fields, on 300 / 3,000 / 30,000 real fixture tools.
// Run: npm run bench:search   (a benchmark: it measures, it never fails on speed)
import { mkdirSync, writeFileSync } from "node:fs";
import { join, dirname } from "node:path";
import { fileURLToPath } from "node:url";
import MiniSearch from "minisearch";
import { HolarynRuntime } from "holaryn";
import { baseSpecs, catalog, MINISEARCH_OPTIONS, miniDoc } from "./fixture-catalog.mjs";
import { QUERIES } from "./search-queries.mjs";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const SIZES = (process.env.BENCH_SIZES ?? "300,3000,30000").split(",").map(Number);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);

function pct(xs, p) {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(p * s.length))];
}

function time(fn) {
  const t0 = process.hrtime.bigint();
  const r = fn();
  return [Number(process.hrtime.bigint() - t0) / 1000, r];
}

function measure(search) {
  for (const q of QUERIES) search(q); // warm-up
  const us = [];
  for (let r = 0; r < ROUNDS; r++) for (const q of QUERIES) us.push(time(() => search(q))[0]);
  return { p50: pct(us, 0.5), p95: pct(us, 0.95) };
}

const base = baseSpecs(HolarynRuntime);
const results = [];
for (const n of SIZES) {
  const tools = catalog(base, n);
  global.gc?.();
  const mem0 = process.memoryUsage();
  const rt = new HolarynRuntime();
  const [buildUs, session] = time(() => {
    for (let i = 0; i < tools.length; i += 1000) rt.registerTools(tools.slice(i, i + 1000));
    const s = rt.createSession({ dynamicDiscovery: true });
    s.search({ query: "warm the index" }); // the index is built on first search
    return s;
  });
  const mem1 = process.memoryUsage();
  const h = measure((q) => session.search({ query: q }));

  const [msBuildUs, mini] = time(() => {
    const m = new MiniSearch(MINISEARCH_OPTIONS);
    m.addAll(tools.map(miniDoc));
    return m;
  });
  const mem2 = process.memoryUsage();
  const m = measure((q) => mini.search(q).slice(0, 8));
  const row = {
    tools: n,
    holaryn: { p50Us: h.p50, p95Us: h.p95, buildMs: buildUs / 1000, memoryMb: (mem1.rss - mem0.rss) / 1e6 },
    minisearch: { p50Us: m.p50, p95Us: m.p95, buildMs: msBuildUs / 1000, memoryMb: (mem2.rss - mem1.rss) / 1e6 },
    speedupP50: m.p50 / h.p50,
  };
  results.push(row);
  console.log(
    `${String(n).padStart(6)} tools | holaryn p50 ${h.p50.toFixed(1)} µs p95 ${h.p95.toFixed(1)} µs build ${row.holaryn.buildMs.toFixed(0)} ms` +
      ` | minisearch p50 ${m.p50.toFixed(1)} µs p95 ${m.p95.toFixed(1)} µs build ${row.minisearch.buildMs.toFixed(0)} ms` +
      ` | ratio ${row.speedupP50.toFixed(2)}x`,
  );
}
const targets = { p50At300Us: 20, p50At30000Us: 1000 };
mkdirSync(join(root, "benchmarks/results"), { recursive: true });
writeFileSync(
  join(root, "benchmarks/results/search-speed.json"),
  JSON.stringify({ queries: QUERIES.length, rounds: ROUNDS, targets, results }, null, 2),
);
for (const r of results) {
  if (r.speedupP50 < 1) console.log(`NOTE: slower than MiniSearch at ${r.tools} tools`);
}
