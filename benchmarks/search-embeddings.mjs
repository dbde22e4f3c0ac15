// Added latency of the host embedder with every vector cached, through the npm
// package: the 1,349 fixture tools (54 MCP catalogs + native tools), the
// precomputed all-MiniLM-L6-v2 vectors, and the queries those vectors cover.
// Interleaves session.search (words), searchAsync without an embedder (the
// async path alone) and searchAsync fused. No model runs.
// Run: npm run bench:embeddings   (a benchmark: it measures, it never fails on speed)
import { readFileSync, readdirSync } from "node:fs";
import { join, dirname } from "node:path";
import { fileURLToPath } from "node:url";
import { HolarynRuntime } from "holaryn";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const fixtures = join(root, "tests/fixtures");
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
const vectors = JSON.parse(readFileSync(join(fixtures, "embeddings/minilm-l6-v2.json"), "utf8"));

function runtime() {
  const rt = new HolarynRuntime();
  for (const f of readdirSync(join(fixtures, "mcp"))
    .filter((f) => f.endsWith(".json"))
    .sort()) {
    rt.registerCatalog(f, readFileSync(join(fixtures, "mcp", f), "utf8"), {
      providerId: f.replace(/\.json$/, ""),
      qualifyNames: true,
    });
  }
  rt.registerTools(JSON.parse(readFileSync(join(fixtures, "search/native_tools.json"), "utf8")));
  return rt;
}

const queries = JSON.parse(readFileSync(join(fixtures, "search/queries.json"), "utf8")).map((q) => q.query);
const plain = runtime().createSession({ dynamicDiscovery: true });
const rt = runtime();
rt.importEmbeddings(vectors);
const fused = rt.createSession({ dynamicDiscovery: true });
// Warm both indexes and the vector matrix.
plain.search({ query: "warm up" });
await fused.searchAsync({ query: queries[0] });

const t = { words: [], async: [], fused: [] };
let partial = 0;
for (let r = 0; r < ROUNDS; r++) {
  for (const query of queries) {
    let t0 = process.hrtime.bigint();
    plain.search({ query });
    t.words.push(Number(process.hrtime.bigint() - t0) / 1000);
    t0 = process.hrtime.bigint();
    await plain.searchAsync({ query });
    t.async.push(Number(process.hrtime.bigint() - t0) / 1000);
    t0 = process.hrtime.bigint();
    const out = await fused.searchAsync({ query });
    t.fused.push(Number(process.hrtime.bigint() - t0) / 1000);
    if (r === 0 && out.results.some((x) => x.why?.some((w) => w.startsWith("embedder unavailable")))) partial += 1;
  }
}
const p = (v, q) => [...v].sort((a, b) => a - b)[Math.floor(q * (v.length - 1))];
console.log(`${rt.size} tools, ${queries.length} queries x ${ROUNDS} rounds (${partial} lacked a vector)`);
for (const [name, v] of Object.entries(t)) {
  console.log(
    `${name.padEnd(6)} p50 ${p(v, 0.5).toFixed(0).padStart(6)} µs  p95 ${p(v, 0.95).toFixed(0).padStart(6)} µs  x${(p(v, 0.5) / p(t.words, 0.5)).toFixed(2)} of words`,
  );
}
