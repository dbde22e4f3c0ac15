// tool_search quality on the labelled request set (benchmarks/quality/), through
// the built package the way a host uses it: register the catalogs, create a
// dynamic-discovery session, session.search({query}). Prints per kind x split:
// n, top-1, any-gold@8, MRR@8, plus nothing-fits precision/recall, side by side
// with a plain BM25 baseline; writes a dated JSON to benchmarks/results/.
// Run: npm run bench:quality [-- --embeddings FILE | --no-embeddings] [--out DIR]
// Embedder mode: precomputed vectors (tests/fixtures/embeddings/minilm-l6-v2.json
// by default, when present) add a third column, holaryn+embedder.
// (a benchmark: it measures, it never fails on a figure)
import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { execFileSync } from "node:child_process";
import { HolarynRuntime } from "holaryn";
import { KINDS, catalogFiles, loadRequests, root } from "./quality/devset.mjs";
import { bm25Baseline } from "./quality/bm25.mjs";
import { score, table } from "./quality/metrics.mjs";
import { loadEmbedder } from "./quality/embedder.mjs";

const TOP = 8;
const DEFAULT_EMBEDDINGS = join(root, "tests/fixtures/embeddings/minilm-l6-v2.json");

function args(argv) {
  const opts = { out: join(root, "benchmarks/results"), embeddings: DEFAULT_EMBEDDINGS, explicitEmbeddings: false };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === "--embeddings" || a === "--out") {
      if (!argv[i + 1]) throw new Error(`${a} needs a value`);
      opts[a.slice(2)] = resolve(argv[++i]);
      if (a === "--embeddings") opts.explicitEmbeddings = true;
    } else if (a === "--no-embeddings") {
      opts.embeddings = null;
    } else if (a === "--help" || a === "-h") {
      opts.help = true;
    } else {
      throw new Error(`unknown argument ${a}`);
    }
  }
  return opts;
}

/**
 * A host-like runtime over the labelled catalog. With an embedder, the host
 * restores its vectors (`configure`) and searches with `searchAsync`.
 */
function holarynSearch(embedder) {
  const rt = new HolarynRuntime();
  const { mcp, native } = catalogFiles();
  for (const f of mcp) rt.registerCatalog(f.file, f.text, { providerId: f.provider, qualifyNames: true });
  rt.registerTools(JSON.parse(native));
  embedder?.configure(rt);
  const session = rt.createSession({ dynamicDiscovery: true });
  // "Nothing fits" is whatever the result says when it judges no tool fits:
  // an explicit flag when the runtime has one, or no results at all.
  const read = (out) => {
    const ranked = out.results.map((r) => r.name);
    return { ranked, nothingFits: out.nothingFits === true || ranked.length === 0 };
  };
  return {
    tools: rt.size,
    search: embedder
      ? async (query) => read(await session.searchAsync({ query, limit: TOP }))
      : (query) => read(session.search({ query, limit: TOP })),
  };
}

async function run(name, engine, requests) {
  const rows = [];
  for (const r of requests) {
    try {
      rows.push({ ...r, ...(await engine.search(r.query)) });
    } catch (e) {
      rows.push({ ...r, ranked: [], nothingFits: false, error: `${e.code ?? "error"}: ${e.message}` });
    }
  }
  return { name, rows, ...score(rows, TOP) };
}

async function main() {
  const opts = args(process.argv.slice(2));
  if (opts.help) {
    console.log("usage: node benchmarks/search-quality.mjs [--embeddings FILE | --no-embeddings] [--out DIR]");
    return;
  }
  const requests = loadRequests();
  const systems = [];
  const holaryn = holarynSearch();
  systems.push(await run("holaryn", holaryn, requests));
  systems.push(await run("bm25", bm25Baseline(catalogFiles()), requests));
  let embedNote = null;
  if (!opts.embeddings) {
    embedNote = "not run (--no-embeddings)";
  } else if (!opts.explicitEmbeddings && !existsSync(opts.embeddings)) {
    embedNote = `not run: no vectors at ${opts.embeddings}; pass --embeddings FILE`;
  } else {
    const emb = loadEmbedder(opts.embeddings, HolarynRuntime);
    if (emb.ok) {
      systems.push(await run("holaryn+embedder", holarynSearch(emb), requests));
      if (emb.misses())
        embedNote = `${emb.misses()} text(s) had no vector in ${opts.embeddings}: those searches were lexical only`;
    } else embedNote = `not run: ${emb.reason}`;
  }

  console.log(`tool_search quality: ${requests.length} requests over ${holaryn.tools} tools (top ${TOP})`);
  console.log(
    "bm25 = MiniSearch 7.2 (BM25+, OR of terms, fields name [split at _-/. and camelCase] + description, no boosts, no prefix/fuzzy)\n",
  );
  console.log(table(systems, KINDS));
  if (embedNote) console.log(`\nembedder mode: ${embedNote}`);
  for (const s of systems) {
    const errors = s.rows.filter((r) => r.error);
    if (errors.length)
      console.log(
        `${s.name}: ${errors.length} request(s) failed, counted as misses (first: ${errors[0].id}: ${errors[0].error})`,
      );
  }

  let commit = null;
  try {
    commit = execFileSync("git", ["rev-parse", "HEAD"], {
      cwd: root,
      encoding: "utf8",
      stdio: ["ignore", "pipe", "ignore"],
    }).trim();
  } catch {
    commit = null;
  }
  const date = new Date().toISOString();
  const report = {
    date,
    commit,
    top: TOP,
    requests: requests.length,
    tools: holaryn.tools,
    embeddings: systems.some((x) => x.name === "holaryn+embedder") ? opts.embeddings : null,
    embeddingsNote: embedNote,
    systems: systems.map((s) => ({
      name: s.name,
      byKind: s.byKind,
      overall: s.overall,
      nothingFits: s.nothingFits,
      errors: s.rows.filter((r) => r.error).map((r) => ({ id: r.id, error: r.error })),
      // Per-request rankings for the dev half only: tune on dev, only report test.
      dev: s.rows
        .filter((r) => r.split === "dev")
        .map((r) => ({ id: r.id, ranked: r.ranked, nothingFits: r.nothingFits })),
    })),
  };
  mkdirSync(opts.out, { recursive: true });
  const file = join(opts.out, `search-quality-${date.slice(0, 10)}.json`);
  writeFileSync(file, `${JSON.stringify(report, null, 2)}\n`);
  console.log(`\nwrote ${file}`);
}

main().catch((e) => {
  console.error(`bench:quality: ${e.message}`);
  process.exit(existsSync(join(root, "dist")) ? 2 : 3);
});
