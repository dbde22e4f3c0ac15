// Registry and search at catalog scale through the npm package, side by side
// with MiniSearch in the same process: registration, first search, one-tool
// change + search, one-tool removal + search, search p50, and resident memory,
// at 300 / 3,000 / 10,000 / 30,000 real fixture tools (multiplied to size).
// Each size runs in its own child process so memory figures do not mix.
// Run: npm run bench:scale   (a benchmark: it measures, it never fails on speed)
import { mkdirSync, writeFileSync } from "node:fs";
import { join, dirname } from "node:path";
import { fileURLToPath } from "node:url";
import { execFileSync } from "node:child_process";
import { baseSpecs, catalog, MINISEARCH_OPTIONS, miniDoc } from "./fixture-catalog.mjs";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const SIZES = (process.env.BENCH_SIZES ?? "300,3000,10000,30000").split(",").map(Number);
const CHANGES = Number(process.env.BENCH_CHANGES ?? 15);
const QUERIES = [
  "create a github issue",
  "read a file",
  "take a screenshot of the page",
  "send a slack message",
  "find and read the release notes",
  "list kubernetes pods",
  "query the database",
  "search the web",
];

function print(r) {
  const h = r.holaryn,
    m = r.minisearch;
  const ratio = (a, b) => `${(a / b).toFixed(2)}×`;
  console.log(`${String(r.tools).padStart(6)} tools (holaryn | minisearch | holaryn/minisearch)`);
  const line = (what, a, b, unit) =>
    console.log(
      `  ${what.padEnd(30)} ${a.toFixed(unit === "MB" ? 1 : 2).padStart(10)} ${unit} | ${b.toFixed(unit === "MB" ? 1 : 2).padStart(10)} ${unit} | ${ratio(a, b)}`,
    );
  line("register (addAll)", h.registerMs, m.addAllMs, "ms");
  line("first search", h.firstSearchMs, m.firstSearchMs, "ms");
  line("register + first search", h.registerMs + h.firstSearchMs, m.addAllMs + m.firstSearchMs, "ms");
  line("change one tool + search (p50)", h.changeSearchMs, m.replaceSearchMs, "ms");
  line("remove one tool + search (p50)", h.removeSearchMs, m.discardSearchMs, "ms");
  line("search p50", h.searchP50Us / 1000, m.searchP50Us / 1000, "ms");
  line("resident memory (RSS delta)", h.rssMb, m.rssMb, "MB");
}

// ---- Snapshot and restore (issue 32 item 3): its own section, printed after each size's table.

/** Snapshot `rt`, then restore it: median of 5 restores, one restore + first search, the size. */
function restoreRow(HolarynRuntime, rt) {
  let t0 = process.hrtime.bigint();
  const bytes = rt.snapshot();
  const snapshotMs = ms(t0);
  const restores = [];
  for (let i = 0; i < 5; i++) {
    t0 = process.hrtime.bigint();
    const back = HolarynRuntime.restore(bytes);
    restores.push(ms(t0));
    back.free?.();
  }
  t0 = process.hrtime.bigint();
  const back = HolarynRuntime.restore(bytes);
  back.createSession({ dynamicDiscovery: true }).search({ query: "create a github issue" });
  const restoreSearchMs = ms(t0);
  back.free?.();
  return {
    snapshotMs,
    restoreMs: median(restores),
    restoreSearchMs,
    bytes: bytes.length,
    perTool: bytes.length / rt.size,
  };
}

function printRestore(r) {
  const x = r.restore;
  if (!x) return;
  const mb = (x.bytes / 1e6).toFixed(2);
  console.log(
    `  ${"snapshot (rt.snapshot())".padEnd(30)} ${x.snapshotMs.toFixed(2).padStart(10)} ms | ${mb} MB, ${Math.round(x.perTool)} B per tool`,
  );
  console.log(
    `  ${"restore (median of 5)".padEnd(30)} ${x.restoreMs.toFixed(2).padStart(10)} ms | register: ${r.holaryn.registerMs.toFixed(2)} ms`,
  );
  console.log(
    `  ${"restore + first search".padEnd(30)} ${x.restoreSearchMs.toFixed(2).padStart(10)} ms | register + first search: ${(r.holaryn.registerMs + r.holaryn.firstSearchMs).toFixed(2)} ms`,
  );
}

const ms = (t0) => Number(process.hrtime.bigint() - t0) / 1e6;
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const rss = () => {
  global.gc?.();
  global.gc?.();
  return process.memoryUsage().rss / 1e6;
};

function searchP50(search) {
  for (const q of QUERIES) search(q);
  const us = [];
  for (let r = 0; r < 5; r++)
    for (const q of QUERIES) {
      const t0 = process.hrtime.bigint();
      search(q);
      us.push(Number(process.hrtime.bigint() - t0) / 1000);
    }
  return median(us);
}

async function one(n) {
  const MiniSearch = (await import("minisearch")).default;
  const { HolarynRuntime } = await import("holaryn");
  const tools = catalog(baseSpecs(HolarynRuntime), n);
  const picks = Array.from({ length: CHANGES }, (_, i) => Math.floor(((i + 0.5) * n) / CHANGES));
  const changedSpec = (t, k) => ({ ...t, description: `${t.description} (revised ${k})` });

  // Warm both libraries' code on a tiny catalog first, so "first search"
  // measures the index, not the engine compiling the code on its first run.
  const warmRt = new HolarynRuntime();
  warmRt.registerTools(tools.slice(0, 20));
  warmRt.createSession({ dynamicDiscovery: true }).search({ query: "warm up" });
  warmRt.free?.();
  const warmMini = new MiniSearch({ fields: ["name", "description"], searchOptions: { prefix: true } });
  warmMini.addAll(tools.slice(0, 20).map((t, id) => ({ id, name: t.name, description: t.description ?? "" })));
  warmMini.search("warm up");

  // Holaryn
  const r0 = rss();
  const rt = new HolarynRuntime();
  let t0 = process.hrtime.bigint();
  for (let i = 0; i < tools.length; i += 1000) rt.registerTools(tools.slice(i, i + 1000));
  const registerMs = ms(t0);
  const session = rt.createSession({ dynamicDiscovery: true });
  global.gc?.(); // the benchmark's own garbage from registering is not the index's cost
  t0 = process.hrtime.bigint();
  session.search({ query: "create a github issue" });
  const firstSearchMs = ms(t0);
  const holarynRss = rss() - r0;
  const change = picks.map((i, k) => {
    const t = process.hrtime.bigint();
    rt.registerTools([changedSpec(tools[i], k)]);
    session.search({ query: "create a github issue" });
    return ms(t);
  });
  const remove = picks.map((i) => {
    const t = process.hrtime.bigint();
    rt.removeTools([tools[i].name]);
    session.search({ query: "create a github issue" });
    return ms(t);
  });
  const hP50 = searchP50((q) => session.search({ query: q }));

  // MiniSearch, same fields
  const m0 = rss();
  const mini = new MiniSearch(MINISEARCH_OPTIONS);
  t0 = process.hrtime.bigint();
  mini.addAll(tools.map(miniDoc));
  const addAllMs = ms(t0);
  global.gc?.();
  t0 = process.hrtime.bigint();
  mini.search("create a github issue").slice(0, 8);
  const mFirstMs = ms(t0);
  const miniRss = rss() - m0;
  const replace = picks.map((i, k) => {
    const t = process.hrtime.bigint();
    mini.replace(miniDoc(changedSpec(tools[i], k), i));
    mini.search("create a github issue").slice(0, 8);
    return ms(t);
  });
  const discard = picks.map((i) => {
    const t = process.hrtime.bigint();
    mini.discard(i);
    mini.search("create a github issue").slice(0, 8);
    return ms(t);
  });
  const mP50 = searchP50((q) => mini.search(q).slice(0, 8));
  rt.registerTools(picks.map((i) => tools[i])); // back to the n tools
  const restore = restoreRow(HolarynRuntime, rt);
  return {
    restore,
    tools: n,
    holaryn: {
      registerMs,
      firstSearchMs,
      changeSearchMs: median(change),
      removeSearchMs: median(remove),
      searchP50Us: hP50,
      rssMb: holarynRss,
    },
    minisearch: {
      addAllMs,
      firstSearchMs: mFirstMs,
      replaceSearchMs: median(replace),
      discardSearchMs: median(discard),
      searchP50Us: mP50,
      rssMb: miniRss,
    },
  };
}

if (process.argv[2] === "--one") {
  console.log(JSON.stringify(await one(Number(process.argv[3]))));
} else {
  const rows = [];
  for (const n of SIZES) {
    const out = execFileSync(process.execPath, ["--expose-gc", fileURLToPath(import.meta.url), "--one", String(n)], {
      encoding: "utf8",
      maxBuffer: 1 << 24,
      stdio: ["ignore", "pipe", "inherit"],
    });
    const row = JSON.parse(out.trim().split("\n").pop());
    rows.push(row);
    print(row);
    printRestore(row);
  }
  mkdirSync(join(root, "benchmarks/results"), { recursive: true });
  writeFileSync(join(root, "benchmarks/results/scale.json"), JSON.stringify({ changes: CHANGES, rows }, null, 2));
}
