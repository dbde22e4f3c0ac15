// `holaryn search --catalog FILE "query" [--embeddings FILE]` and
// `holaryn rank --catalog FILE --queries QUERIES.jsonl [--top 8] [--out FILE] [--embeddings FILE]`.
// --embeddings imports precomputed vectors (`holaryn.embeddings/1`, e.g. from
// scripts/embed-fixtures.py) and ranks with searchAsync: lexical and meaning
// fused. No model runs: a query or tool without a vector is ranked by what
// is there, and its results' `why` says "embedder unavailable".
import { accessSync, constants, existsSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { CliError, describe, loadCatalog } from "./catalog.mjs";

/** Read an --embeddings file (before the catalog load, so a bad path fails at once). */
function readEmbeddings(file) {
  try {
    return JSON.parse(readFileSync(file, "utf8"));
  } catch (e) {
    throw new CliError(`--embeddings ${file}: cannot read: ${e.code ?? e.message}`);
  }
}

function importEmbeddings(runtime, file, data) {
  try {
    return runtime.importEmbeddings(data);
  } catch (e) {
    throw new CliError(describe(e, `--embeddings ${file}`));
  }
}

/**
 * Check the filter flags before anything is loaded: the core's search, on an empty runtime, refuses
 * a malformed --source or --provider exactly as it would after the load.
 */
function checkFilters(HolarynRuntime, opts) {
  if (!opts.provider && !opts.source) return;
  const s = new HolarynRuntime().createSession({ dynamicDiscovery: true, boundedCodeMode: false });
  try {
    s.search(searchInput(opts, "x", 1));
  } catch (e) {
    const flag = e.field === "source" || (opts.source && !opts.provider) ? "source" : "provider";
    throw new CliError(`--${flag} ${JSON.stringify(opts[flag])}: ${e.detail ?? e.message}`);
  } finally {
    s.close();
  }
}

/** After the load: a --provider the catalog does not have is a usage error naming the ones it has. */
function checkProvider(opts, info) {
  if (!opts.provider || info.providers.includes(opts.provider)) return;
  const shown = `${info.providers.slice(0, 20).join(", ")}${info.providers.length > 20 ? ", …" : ""}`;
  throw new CliError(`--provider ${JSON.stringify(opts.provider)}: no such provider in this catalog (known: ${shown})`);
}

function session(HolarynRuntime, catalog, embeddings, strict) {
  const runtime = new HolarynRuntime();
  const l0 = process.hrtime.bigint();
  const info = loadCatalog(runtime, catalog, { strict });
  info.loadMs = Number(process.hrtime.bigint() - l0) / 1e6;
  for (const s of info.skipped) process.stderr.write(`holaryn: skipping ${s}\n`);
  for (const n of info.notes) process.stderr.write(`holaryn: ${n}\n`);
  if (embeddings) info.vectors = importEmbeddings(runtime, embeddings.file, embeddings.data);
  const s = runtime.createSession({ dynamicDiscovery: true, boundedCodeMode: false });
  // The index is built once per registry version, on the first search:
  // build it here so query timings measure searching only.
  const t0 = process.hrtime.bigint();
  s.search({ query: "index" });
  info.indexMs = Number(process.hrtime.bigint() - t0) / 1e6;
  return { runtime, session: s, info };
}

/** Run one search: fused over imported vectors with --embeddings, else lexical. */
function searchWith(s, opts, input) {
  return opts.embeddings ? s.searchAsync(input) : s.search(input);
}

const lexicalOnly = (out) => out.results.some((r) => r.why?.some((w) => w.startsWith("embedder unavailable")));

/** The search input: the query, the limit and the tool_list-style filters given as flags. */
function searchInput(opts, query, limit) {
  return {
    query,
    limit,
    ...(opts.provider ? { provider: opts.provider } : {}),
    ...(opts.source ? { source: opts.source } : {}),
  };
}

/** What to say when a search finds nothing (or only weak guesses): the core's hint, and the filters. */
function emptyNote(out, opts, info) {
  const head = out.results.length ? "Nothing fits well: these are weak guesses." : "No tool matches.";
  const shown = `${info.providers.slice(0, 6).join(", ")}${info.providers.length > 6 ? ", …" : ""}`;
  const drop = opts.provider || opts.source ? " Drop --provider/--source to search everything." : "";
  // The hint is said once: on the "nothing fits:" line when there is one.
  const hint = out.hint && !out.nothingFits ? ` ${out.hint}` : "";
  return `${head}${hint}${drop} Here, --provider ID (${shown}) or --source SOURCE narrow the search as tool_list's filters do.`;
}

/** --out must be writable before the run starts (the file itself is written at the end). */
function checkWritable(file) {
  try {
    accessSync(existsSync(file) ? file : dirname(resolve(file)), constants.W_OK);
  } catch (e) {
    throw new CliError(`--out ${file}: cannot write: ${e.code ?? e.message}`);
  }
}

const providersOf = (runtime) => [...new Set(runtime.tools().map((t) => t.provider.id))].sort();

export async function searchCommand({ HolarynRuntime }, opts) {
  if (!opts.catalog) throw new CliError("search needs --catalog FILE|DIR");
  const query = opts._.join(" ");
  if (!query) throw new CliError('search needs a query: holaryn search --catalog FILE "query"');
  checkFilters(HolarynRuntime, opts);
  const embeddings = opts.embeddings ? { file: opts.embeddings, data: readEmbeddings(opts.embeddings) } : undefined;
  const { runtime, session: s, info } = session(HolarynRuntime, opts.catalog, embeddings, opts.strict);
  info.providers = providersOf(runtime);
  checkProvider(opts, info);
  const t0 = process.hrtime.bigint();
  let out;
  try {
    out = await searchWith(s, opts, searchInput(opts, query, opts.top ?? 8));
  } catch (e) {
    throw new CliError(describe(e));
  }
  const us = Number(process.hrtime.bigint() - t0) / 1000;
  const lines = [
    `${info.tools} tools from ${info.files} file(s) loaded and registered in ${info.loadMs.toFixed(0)} ms, index built in ${info.indexMs.toFixed(1)} ms; "${query}" in ${us.toFixed(1)} µs`,
  ];
  // When no tool clears the bar, say so first, with the hint on where to browse.
  if (out.nothingFits) lines.push(`nothing fits: ${out.hint ?? "no tool clears the bar"}`);
  out.results.forEach((r, i) => {
    lines.push(`${String(i + 1).padStart(2)}. ${r.name}  [${r.source} · ${r.provider} · ${r.state}]`);
    if (r.summary) lines.push(`    ${r.summary}`);
    if (r.why?.length) lines.push(`    why: ${r.why.join("; ")}`);
  });
  if (!out.results.length || out.nothingFits) lines.push(emptyNote(out, opts, info));
  return `${lines.join("\n")}\n`;
}

export async function rankCommand({ HolarynRuntime }, opts) {
  if (!opts.catalog) throw new CliError("rank needs --catalog FILE|DIR");
  if (!opts.queries) throw new CliError('rank needs --queries FILE.jsonl (one {"id", "query"} per line)');
  if (opts._.length)
    throw new CliError(
      `rank takes no query arguments (got ${JSON.stringify(opts._[0])}): put queries in --queries FILE.jsonl`,
    );
  const top = opts.top ?? 8;
  checkFilters(HolarynRuntime, opts);
  const embeddings = opts.embeddings ? { file: opts.embeddings, data: readEmbeddings(opts.embeddings) } : undefined;
  if (opts.out) checkWritable(opts.out);
  let text;
  try {
    text = readFileSync(opts.queries, "utf8");
  } catch (e) {
    throw new CliError(`--queries ${opts.queries}: cannot read: ${e.code ?? e.message}`);
  }
  const queries = [];
  text.split("\n").forEach((line, i) => {
    if (!line.trim()) return;
    let q;
    try {
      q = JSON.parse(line);
    } catch (e) {
      throw new CliError(`${opts.queries}:${i + 1}: not JSON: ${e.message}`);
    }
    if (!q || typeof q.query !== "string" || !("id" in q)) {
      throw new CliError(`${opts.queries}:${i + 1}: each line needs "id" and a string "query"`);
    }
    queries.push(q);
  });
  const { runtime, session: s, info } = session(HolarynRuntime, opts.catalog, embeddings, opts.strict);
  info.providers = providersOf(runtime);
  checkProvider(opts, info);
  const out = [];
  const times = [];
  let failed = 0;
  let partial = 0;
  for (const q of queries) {
    const t0 = process.hrtime.bigint();
    let ranked;
    let res;
    try {
      res = await searchWith(s, opts, searchInput(opts, q.query, top));
      if (opts.embeddings && lexicalOnly(res)) partial += 1;
      ranked = res.results.map((r) => r.name);
    } catch (e) {
      // One query the search refuses (too long, empty) is one error line; the run goes on.
      failed += 1;
      out.push(JSON.stringify({ id: q.id, error: { code: e.code ?? "error", message: e.detail ?? e.message } }));
      continue;
    }
    const us = Number(process.hrtime.bigint() - t0) / 1000;
    times.push(us);
    // The nothing-fits flag (and its hint when set) is scored like the ranking.
    const line = { id: q.id, ranked, nothingFits: res.nothingFits === true };
    if (res.nothingFits && res.hint) line.hint = res.hint;
    out.push(JSON.stringify({ ...line, us: Math.round(us * 10) / 10 }));
  }
  const body = out.join("\n") + (out.length ? "\n" : "");
  times.sort((a, b) => a - b);
  const pct = (p) => (times.length ? times[Math.min(times.length - 1, Math.floor(p * times.length))] : 0);
  const failures = failed ? `, ${failed} refused (error lines in the output)` : "";
  const vectors = opts.embeddings
    ? `; ${info.vectors} vectors imported, ${partial} queries lacked a query or tool vector (why says "embedder unavailable")`
    : "";
  const summary = `holaryn rank: ${queries.length} queries${failures} over ${info.tools} tools (${info.files} files loaded and registered in ${info.loadMs.toFixed(0)} ms, index built in ${info.indexMs.toFixed(1)} ms): p50 ${pct(0.5).toFixed(1)} µs, p95 ${pct(0.95).toFixed(1)} µs${vectors}\n`;
  if (opts.out) {
    try {
      writeFileSync(opts.out, body);
    } catch (e) {
      throw new CliError(`--out ${opts.out}: cannot write: ${e.code ?? e.message}`);
    }
    return { stdout: "", stderr: summary };
  }
  return { stdout: body, stderr: summary };
}
