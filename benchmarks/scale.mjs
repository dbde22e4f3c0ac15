// Registry and search at catalog scale through the npm package, side by side
// with MiniSearch in the same process in two configurations (name + description,
// and the 7 fields tool_search reads): registration, first search, one-tool
// change + search, one-tool removal + search, a provider re-list with one
// changed tool (syncProvider of a 100-tool provider, then syncCatalog of the
// same list as MCP text) + search, restore from a
// snapshot, search p50, and resident memory, at 300 / 3,000 / 10,000 / 30,000
// real fixture tools (multiplied to size). Each size runs in its own child
// process so memory figures do not mix.
// Run: npm run bench:scale   (a benchmark: it measures, it never fails on speed)
import { mkdirSync, writeFileSync } from "node:fs";
import { join, dirname } from "node:path";
import { fileURLToPath } from "node:url";
import { execFileSync } from "node:child_process";
import { baseSpecs, catalog, MINISEARCH_OPTIONS, miniDoc } from "./fixture-catalog.mjs";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const SIZES = (process.env.BENCH_SIZES ?? "300,3000,10000,30000").split(",").map(Number);
const CHANGES = Number(process.env.BENCH_CHANGES ?? 15);
/** Tools of the provider that is re-listed (part of the `n`). */
const RELIST = 100;
const RELIST_ID = "relisted";
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
/** MiniSearch indexing name and description only (the registration bar). */
const MINI_ND_OPTIONS = { fields: ["name", "description"], storeFields: ["name"], searchOptions: { prefix: true } };
const miniNdDoc = (t, id) => ({ id, name: t.name.replace(/[_\-/.]/g, " "), description: t.description ?? "" });

function print(r) {
  const h = r.holaryn,
    a = r.miniNameDescription,
    b = r.mini7Fields;
  const num = (x, unit) => (x == null ? "—" : x.toFixed(unit === "MB" ? 1 : 2)).padStart(10);
  const ratio = (x, y) => (x == null || y == null ? "—" : `${(x / y).toFixed(2)}×`).padStart(7);
  console.log(
    `${String(r.tools).padStart(6)} tools: holaryn | MiniSearch name+description | MiniSearch 7 fields | holaryn/n+d | holaryn/7f`,
  );
  const line = (what, x, y, z, unit) =>
    console.log(
      `  ${what.padEnd(34)} ${num(x, unit)} | ${num(y, unit)} | ${num(z, unit)} ${unit} | ${ratio(x, y)} | ${ratio(x, z)}`,
    );
  line("register (addAll)", h.registerMs, a.addAllMs, b.addAllMs, "ms");
  line(
    "register per tool",
    (h.registerMs * 1000) / r.tools,
    (a.addAllMs * 1000) / r.tools,
    (b.addAllMs * 1000) / r.tools,
    "µs",
  );
  line("first search", h.firstSearchMs, a.firstSearchMs, b.firstSearchMs, "ms");
  line(
    "register + first search",
    h.registerMs + h.firstSearchMs,
    a.addAllMs + a.firstSearchMs,
    b.addAllMs + b.firstSearchMs,
    "ms",
  );
  line("change one tool + search (p50)", h.changeSearchMs, a.replaceSearchMs, b.replaceSearchMs, "ms");
  line("remove one tool + search (p50)", h.removeSearchMs, a.discardSearchMs, b.discardSearchMs, "ms");
  line("re-list, 1 of 100 changed (p50)", h.relistMs, a.relistMs, b.relistMs, "ms");
  line("re-list, first", h.relistFirstMs, a.relistFirstMs, b.relistFirstMs, "ms");
  line("  + its search (p50)", h.relistSearchMs, a.relistSearchMs, b.relistSearchMs, "ms");
  line("re-list as MCP text (syncCatalog)", h.catalogRelistMs, a.relistMs, b.relistMs, "ms");
  line("search p50", h.searchP50Us / 1000, a.searchP50Us / 1000, b.searchP50Us / 1000, "ms");
  line("resident memory (RSS delta)", h.rssMb, a.rssMb, b.rssMb, "MB");
  console.log("  (MiniSearch re-list: the host diffs the list itself and replaces the one changed document)");
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

/** `n` fixture tools, the last `RELIST` of them one provider's (`RELIST_ID`), re-listed below. */
function benchTools(base, n) {
  const r = Math.min(RELIST, Math.floor(n / 3));
  const head = catalog(base, n - r);
  const relisted = catalog(base, r).map((t, i) => ({
    ...t,
    name: `${RELIST_ID}/${t.name.replace(/\//g, "_")}_${i}`,
    provider: { ...t.provider, id: RELIST_ID },
  }));
  return { tools: [...head, ...relisted], relistFrom: n - r };
}

/** Re-list `k` (1-based): tools `relistFrom..` with the first `k` revised, so each re-list changes one more tool. */
const relistOf = (tools, relistFrom, k) =>
  tools.slice(relistFrom).map((t, i) => (i < k ? { ...t, description: `${t.description} (re-listed)` } : t));

/** One MiniSearch configuration, the same steps as holaryn's. */
function miniRun(MiniSearch, options, doc, tools, picks, relistFrom, changedSpec) {
  const m0 = rss();
  const mini = new MiniSearch(options);
  let t0 = process.hrtime.bigint();
  mini.addAll(tools.map(doc));
  const addAllMs = ms(t0);
  global.gc?.();
  t0 = process.hrtime.bigint();
  mini.search("create a github issue").slice(0, 8);
  const firstSearchMs = ms(t0);
  const rssMb = rss() - m0;
  const replace = picks.map((i, k) => {
    const t = process.hrtime.bigint();
    mini.replace(doc(changedSpec(tools[i], k), i));
    mini.search("create a github issue").slice(0, 8);
    return ms(t);
  });
  const relist = [];
  const relistSearch = [];
  for (let k = 1; k <= CHANGES; k++) {
    const i = relistFrom + k - 1;
    let t = process.hrtime.bigint();
    mini.replace(doc(relistOf(tools, relistFrom, k)[k - 1], i));
    relist.push(ms(t));
    t = process.hrtime.bigint();
    mini.search("create a github issue").slice(0, 8);
    relistSearch.push(ms(t));
  }
  const discard = picks.map((i) => {
    const t = process.hrtime.bigint();
    mini.discard(i);
    mini.search("create a github issue").slice(0, 8);
    return ms(t);
  });
  const searchP50Us = searchP50((q) => mini.search(q).slice(0, 8));
  return {
    addAllMs,
    firstSearchMs,
    replaceSearchMs: median(replace),
    discardSearchMs: median(discard),
    relistMs: median(relist),
    relistFirstMs: relist[0],
    relistSearchMs: median(relistSearch),
    searchP50Us,
    rssMb,
  };
}

async function one(n) {
  const MiniSearch = (await import("minisearch")).default;
  const { HolarynRuntime } = await import("holaryn");
  const { tools, relistFrom } = benchTools(baseSpecs(HolarynRuntime), n);
  const picks = Array.from({ length: CHANGES }, (_, i) => Math.floor(((i + 0.5) * relistFrom) / CHANGES));
  const changedSpec = (t, k) => ({ ...t, description: `${t.description} (revised ${k})` });

  // Warm both libraries' code on a tiny catalog first, so "first search"
  // measures the index, not the engine compiling the code on its first run.
  const warmRt = new HolarynRuntime();
  warmRt.registerTools(tools.slice(0, 20));
  warmRt.syncProvider(tools[0].provider.id, tools.slice(0, 20));
  warmRt.createSession({ dynamicDiscovery: true }).search({ query: "warm up" });
  warmRt.free?.();
  for (const [options, doc] of [
    [MINI_ND_OPTIONS, miniNdDoc],
    [MINISEARCH_OPTIONS, miniDoc],
  ]) {
    const warmMini = new MiniSearch(options);
    warmMini.addAll(tools.slice(0, 20).map(doc));
    warmMini.search("warm up");
  }

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
  const relist = [];
  const relistSearch = [];
  for (let k = 1; k <= CHANGES; k++) {
    const list = relistOf(tools, relistFrom, k);
    let t = process.hrtime.bigint();
    const c = rt.syncProvider(RELIST_ID, list);
    relist.push(ms(t));
    if (c?.changed?.length !== 1) throw new Error(`re-list ${k} changed ${JSON.stringify(c?.changed)}`);
    t = process.hrtime.bigint();
    session.search({ query: "create a github issue" });
    relistSearch.push(ms(t));
  }
  // The same provider as an MCP server's `tools/list` text through syncCatalog
  // (what the MCP adapter and the gateway do on list_changed), the host's
  // JSON.stringify of the list included.
  rt.removeProvider(RELIST_ID);
  const mcpTools = (k) =>
    relistOf(tools, relistFrom, k).map((t) => ({
      name: t.name.slice(RELIST_ID.length + 1),
      description: t.description,
      inputSchema: t.inputSchema,
    }));
  const catalogOptions = { providerId: RELIST_ID, qualifyNames: true, trust: "untrusted" };
  rt.syncCatalog(RELIST_ID, JSON.stringify({ tools: mcpTools(0) }), catalogOptions);
  const catalogRelist = [];
  for (let k = 1; k <= CHANGES; k++) {
    const list = mcpTools(k);
    const t = process.hrtime.bigint();
    const c = rt.syncCatalog(RELIST_ID, JSON.stringify({ tools: list }), catalogOptions);
    catalogRelist.push(ms(t));
    if (c.change?.changed?.length !== 1) throw new Error(`catalog re-list ${k} changed ${JSON.stringify(c.change)}`);
  }
  const remove = picks.map((i) => {
    const t = process.hrtime.bigint();
    rt.removeTools([tools[i].name]);
    session.search({ query: "create a github issue" });
    return ms(t);
  });
  const hP50 = searchP50((q) => session.search({ query: q }));
  rt.registerTools(picks.map((i) => tools[i])); // back to the n tools
  const restore = restoreRow(HolarynRuntime, rt);

  const miniNameDescription = miniRun(MiniSearch, MINI_ND_OPTIONS, miniNdDoc, tools, picks, relistFrom, changedSpec);
  const mini7Fields = miniRun(MiniSearch, MINISEARCH_OPTIONS, miniDoc, tools, picks, relistFrom, changedSpec);
  return {
    restore,
    tools: n,
    holaryn: {
      registerMs,
      firstSearchMs,
      changeSearchMs: median(change),
      removeSearchMs: median(remove),
      relistMs: median(relist),
      relistFirstMs: relist[0],
      relistSearchMs: median(relistSearch),
      catalogRelistMs: median(catalogRelist),
      searchP50Us: hP50,
      rssMb: holarynRss,
    },
    miniNameDescription,
    mini7Fields,
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
