// tool_search speed of several builds of the package side by side in one
// process: the same catalog (benchmarks/fixture-catalog.mjs) and queries as
// `npm run bench:search`, each query run on every build in turn, the order of
// builds reversed every round (order-balanced), so machine noise hits all alike.
// Run: node benchmarks/search-ab.mjs NAME=DIR [NAME=DIR...]
//   (DIR: a checkout with a built package: js/node.mjs and dist/)
// Env: BENCH_SIZES (300), BENCH_ROUNDS (40); REG_SIZES (none, e.g. 10000) and
// REG_ROUNDS (4) also time registration (`registerTools` in batches of 1,000,
// a session and its first search) the same way. A benchmark: it measures, never fails.
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { baseSpecs, catalog } from "./fixture-catalog.mjs";
import { QUERIES } from "./search-queries.mjs";

const SIZES = (process.env.BENCH_SIZES ?? "300").split(",").map(Number);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 40);
const builds = [];
for (const arg of process.argv.slice(2)) {
  const [name, dir] = arg.includes("=") ? arg.split("=") : [arg, arg];
  const mod = await import(pathToFileURL(join(dir, "js/node.mjs")).href);
  builds.push({ name, HolarynRuntime: mod.HolarynRuntime });
}
if (builds.length === 0) throw new Error("usage: node benchmarks/search-ab.mjs NAME=DIR [NAME=DIR...]");

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)];
};
const now = () => process.hrtime.bigint();

for (const n of SIZES) {
  const sessions = builds.map((b) => {
    const rt = new b.HolarynRuntime();
    const tools = catalog(baseSpecs(b.HolarynRuntime), n);
    for (let i = 0; i < tools.length; i += 1000) rt.registerTools(tools.slice(i, i + 1000));
    const s = rt.createSession({ dynamicDiscovery: true });
    s.search({ query: "warm the index" });
    return { rt, s, us: [] };
  });
  // Same answers from every build (names in order), or the comparison is moot.
  const differ = new Set();
  for (const q of QUERIES) {
    const names = sessions.map((x) =>
      x.s
        .search({ query: q })
        .results.map((r) => r.name)
        .join(","),
    );
    names.forEach((v, i) => {
      if (v !== names[0]) differ.add(builds[i].name);
    });
  }
  for (let r = 0; r < ROUNDS; r++) {
    const order = r % 2 === 0 ? sessions : [...sessions].reverse();
    for (const q of QUERIES) {
      for (const x of order) {
        const t0 = now();
        x.s.search({ query: q });
        x.us.push(Number(now() - t0) / 1000);
      }
    }
  }
  const p50 = sessions.map((x) => median(x.us));
  console.log(`${n} tools, ${ROUNDS} rounds x ${QUERIES.length} queries, interleaved:`);
  builds.forEach((b, i) => {
    // Per (round, query) pair: this build's time over the first build's.
    const ratios = sessions[i].us.map((u, k) => u / sessions[0].us[k]);
    console.log(
      `  ${b.name.padEnd(12)} p50 ${p50[i].toFixed(1).padStart(6)} µs  p50 ratio to ${builds[0].name} ${(p50[i] / p50[0]).toFixed(3)}` +
        `  median paired ratio ${median(ratios).toFixed(3)}${differ.has(b.name) ? "  (different results!)" : ""}`,
    );
  });
}

for (const n of (process.env.REG_SIZES ?? "").split(",").filter(Boolean).map(Number)) {
  const rounds = Number(process.env.REG_ROUNDS ?? 4);
  const tools = builds.map((b) => catalog(baseSpecs(b.HolarynRuntime), n));
  const ms = builds.map(() => []);
  for (let r = 0; r < rounds; r++) {
    const order = r % 2 === 0 ? builds.map((_, i) => i) : builds.map((_, i) => builds.length - 1 - i);
    for (const i of order) {
      const t0 = now();
      const rt = new builds[i].HolarynRuntime();
      for (let k = 0; k < n; k += 1000) rt.registerTools(tools[i].slice(k, k + 1000));
      rt.createSession({ dynamicDiscovery: true }).search({ query: "warm the index" });
      ms[i].push(Number(now() - t0) / 1e6);
      rt.free?.();
    }
  }
  console.log(`registration of ${n} tools, ${rounds} rounds, interleaved:`);
  builds.forEach((b, i) => {
    const m = median(ms[i]);
    console.log(
      `  ${b.name.padEnd(12)} median ${m.toFixed(0).padStart(6)} ms  ratio to ${builds[0].name} ${(m / median(ms[0])).toFixed(3)}`,
    );
  });
}
