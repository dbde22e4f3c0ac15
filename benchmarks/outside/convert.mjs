// Converts the Berkeley Function Calling Leaderboard (BFCL v4) data into an
// outside yardstick for tool_search: one union catalog of every function the
// chosen categories offer (`bfcl/catalog.json`, an MCP tools/list result) and
// one request per BFCL entry with the gold tool(s) its ground truth calls
// (`bfcl/requests.jsonl`, the shape of benchmarks/quality/requests.jsonl).
//
//   node benchmarks/outside/convert.mjs [--git DIR] [--commit SHA] [--data DIR] [--raw FILE]
//
// --raw FILE also writes the catalog with BFCL's parameters as they are
// (`type: dict`, `float`, …), to see what registration refuses of them.
// --data DIR reads BFCL_v4_*.json and possible_answer/ from a local checkout
// of berkeley-function-call-leaderboard/bfcl_eval/data; otherwise the files
// are read with `git show COMMIT:path` from a git snapshot of
// ShishirPatil/gorilla (default /work/.mirror/ShishirPatil+gorilla/repo at
// the commit named in README.md). The output is deterministic.
import { execFileSync } from "node:child_process";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { splitOf } from "../quality/devset.mjs";

const here = dirname(fileURLToPath(import.meta.url));
export const COMMIT = "6ea57973c7a6097fd7c5915698c54c17c5b1b6c8";
const DATA = "berkeley-function-call-leaderboard/bfcl_eval/data";
/** The categories used: every live category (user-contributed requests) and the two Python non-live ones with one call. */
export const CATEGORIES = [
  "live_simple",
  "live_multiple",
  "live_parallel",
  "live_parallel_multiple",
  "simple_python",
  "multiple",
];
/** tool_search refuses queries over this many characters. */
const MAX_QUERY = 512;

function args() {
  const a = process.argv.slice(2);
  const opt = (k, d) => (a.includes(k) ? a[a.indexOf(k) + 1] : d);
  return {
    git: opt("--git", "/work/.mirror/ShishirPatil+gorilla/repo"),
    commit: opt("--commit", COMMIT),
    data: opt("--data", null),
    out: opt("--out", join(here, "bfcl")),
    raw: opt("--raw", null),
  };
}

function reader({ git, commit, data }) {
  if (data) return (rel) => readFileSync(join(data, rel), "utf8");
  return (rel) =>
    execFileSync("git", ["--git-dir", git, "show", `${commit}:${DATA}/${rel}`], { maxBuffer: 1 << 28 }).toString();
}

const lines = (text) =>
  text
    .split("\n")
    .filter((l) => l.trim())
    .map((l) => JSON.parse(l));

// BFCL writes parameter types in its own dialect (`dict`, `float`, `tuple`,
// `any`, Java/JS type names); a host registering these functions as tools
// would write them as JSON Schema, so they are mapped to the nearest type.
const TYPES = {
  dict: "object",
  float: "number",
  double: "number",
  long: "integer",
  tuple: "array",
  String: "string",
  char: "string",
  Boolean: "boolean",
  Array: "array",
  ArrayList: "array",
  HashMap: "object",
};
const JSON_TYPES = new Set(["string", "number", "integer", "boolean", "array", "object", "null"]);

/** A BFCL parameter schema as JSON Schema; counts each mapped type in `mapped`. */
export function toJsonSchema(s, mapped) {
  if (Array.isArray(s)) return s.map((x) => toJsonSchema(x, mapped));
  if (!s || typeof s !== "object") return s;
  const out = {};
  for (const [k, v] of Object.entries(s)) {
    if (k === "type" && typeof v === "string" && !JSON_TYPES.has(v)) {
      mapped[v] = (mapped[v] ?? 0) + 1;
      if (TYPES[v]) out.type = TYPES[v];
      continue; // `any` and unknown names: no type constraint
    }
    // `properties` maps names to schemas; its keys are not keywords.
    if (k === "properties" && v && typeof v === "object" && !Array.isArray(v)) {
      out[k] = Object.fromEntries(Object.entries(v).map(([p, ps]) => [p, toJsonSchema(ps, mapped)]));
    } else out[k] = typeof v === "object" ? toJsonSchema(v, mapped) : v;
  }
  return out;
}

const words = (s) => new Set((s ?? "").toLowerCase().match(/[a-z0-9]+/g) ?? []);
const params = (f) => new Set(Object.keys(f.parameters?.properties ?? {}));
function jaccard(a, b) {
  let both = 0;
  for (const x of a) if (b.has(x)) both += 1;
  const any = a.size + b.size - both;
  return any ? both / any : 1;
}
/** Two same-named definitions are one function unless both their words and their parameters differ. */
const sameFunction = (a, b) =>
  jaccard(words(a.description), words(b.description)) >= 0.2 || jaccard(params(a), params(b)) >= 0.5;

/** The user's request: the user turns of the entry, joined; cut at a word before 512 characters. */
function queryOf(entry) {
  const text = entry.question
    .flat()
    .filter((t) => t.role === "user")
    .map((t) => t.content.trim())
    .join("\n")
    .trim();
  if (text.length <= MAX_QUERY) return { query: text, truncated: false };
  const cut = text.slice(0, MAX_QUERY);
  const at = cut.search(/\s\S*$/);
  return { query: (at > MAX_QUERY / 2 ? cut.slice(0, at) : cut).trim(), truncated: true };
}

export function convert(read) {
  const entries = [];
  for (const cat of CATEGORIES) {
    const answers = new Map(lines(read(`possible_answer/BFCL_v4_${cat}.json`)).map((a) => [a.id, a.ground_truth]));
    for (const e of lines(read(`BFCL_v4_${cat}.json`))) entries.push({ cat, e, truth: answers.get(e.id) });
  }
  // name -> clusters [{defs: Map(json -> {f, n}), rep}]; identical definitions count once.
  const byName = new Map();
  const clusterOf = new Map(); // definition JSON -> cluster
  for (const { e } of entries) {
    for (const f of e.function) {
      const key = JSON.stringify(f);
      if (clusterOf.has(key)) {
        clusterOf.get(key).defs.get(key).n += 1;
        continue;
      }
      const clusters = byName.get(f.name) ?? [];
      byName.set(f.name, clusters);
      let c = clusters.find((c) => sameFunction(c.first, f));
      if (!c) {
        c = { first: f, defs: new Map() };
        clusters.push(c);
      }
      c.defs.set(key, { f, n: 1 });
      clusterOf.set(key, c);
    }
  }
  // One tool per cluster: its most frequent definition (first seen on ties); a
  // name's second and later functions are namespaced `v2.name`, `v3.name`, …
  // (BFCL's own dotted namespaces, like `uber.ride`: a `/` would read as
  // another provider in a one-provider catalog, which the runtime refuses).
  const tools = [];
  const raw = []; // the same tools with BFCL's own parameter dialect, for the registration check
  const mapped = {};
  let definitions = 0;
  for (const [name, clusters] of byName) {
    clusters.forEach((c, i) => {
      definitions += c.defs.size;
      const rep = [...c.defs.values()].reduce((a, b) => (b.n > a.n ? b : a)).f;
      c.name = i === 0 ? name : `v${i + 1}.${name}`;
      const tool = { name: c.name, description: rep.description ?? "" };
      tools.push({ ...tool, inputSchema: toJsonSchema(rep.parameters ?? { type: "object" }, mapped) });
      raw.push({ ...tool, inputSchema: rep.parameters ?? {} });
    });
  }
  const requests = [];
  let truncated = 0;
  const unmatched = [];
  for (const { cat, e, truth } of entries) {
    const called = [...new Set((truth ?? []).flatMap((call) => Object.keys(call)))];
    const gold = [];
    for (const fn of called) {
      const f = e.function.find((f) => f.name === fn);
      if (!f) {
        unmatched.push(`${e.id}: ${fn}`);
        continue;
      }
      gold.push(clusterOf.get(JSON.stringify(f)).name);
    }
    const q = queryOf(e);
    truncated += q.truncated;
    if (!gold.length) continue;
    requests.push({
      id: e.id,
      kind: cat,
      query: q.query,
      gold: [...new Set(gold)],
      split: splitOf(e.id),
      ...(q.truncated ? { truncated: true } : {}),
    });
  }
  return {
    tools,
    raw,
    requests,
    stats: {
      entries: entries.length,
      definitions,
      names: byName.size,
      tools: tools.length,
      truncated,
      unmatched,
      mapped,
    },
  };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const a = args();
  const { tools, raw, requests, stats } = convert(reader(a));
  if (a.raw) writeFileSync(a.raw, `${JSON.stringify({ server: "bfcl", tools: raw })}\n`);
  mkdirSync(a.out, { recursive: true });
  writeFileSync(join(a.out, "catalog.json"), `${JSON.stringify({ server: "bfcl", tools })}\n`);
  writeFileSync(join(a.out, "requests.jsonl"), `${requests.map((r) => JSON.stringify(r)).join("\n")}\n`);
  const dev = requests.filter((r) => r.split === "dev").length;
  console.error(
    `${stats.entries} BFCL entries (${CATEGORIES.join(", ")}) at ${a.data ?? a.commit}: ` +
      `${stats.definitions} distinct function definitions under ${stats.names} names -> ${stats.tools} tools; ` +
      `${requests.length} requests (${dev} dev, ${requests.length - dev} test), ${stats.truncated} cut to ${MAX_QUERY} chars; ` +
      `types mapped ${JSON.stringify(stats.mapped)}; gold not among the entry's functions: ${stats.unmatched.length ? stats.unmatched.join(", ") : "none"}`,
  );
}
