// tool_search's packed wire form (wasm/src/wire.rs, js/wire.mjs): every
// answer equals serde's JSON of the same search, keys and their order
// included — over the whole labelled request set, lexical and with the
// embedder fixture, nothing-fits answers with their hint, loaded schemas,
// permissions, and strings holding the separators (which fall back to JSON);
// and every result of the labelled set says why it is there.
import { test } from "node:test";
import assert from "node:assert/strict";
import { HolarynRuntime } from "holaryn";
import { loadRequests } from "../../benchmarks/quality/devset.mjs";
import { fixtureEmbedder } from "./fixture-embedder.mjs";
import { catalogRuntime, native } from "./helpers.mjs";

const QUERIES = loadRequests().map((r) => r.query);

/** Same object and same key order as the JSON oracle. */
function same(got, want, what) {
  assert.equal(JSON.stringify(got), JSON.stringify(want), what);
}

test("packed search answers equal serde's JSON over the labelled request set", () => {
  const s = catalogRuntime().createSession({ dynamicDiscovery: true });
  let nothing = 0;
  for (const query of QUERIES) {
    const got = s.search({ query });
    nothing += got.nothingFits === true ? 1 : 0;
    same(got, s.__searchJson({ query }), query);
  }
  assert.ok(nothing > 0, "some answers say nothing fits (hint and flag covered)");
  for (const input of [
    { query: "read a file", limit: 3 },
    { query: "weather", alternatives: ["forecast for tomorrow"] },
  ]) {
    same(s.search(input), s.__searchJson(input), JSON.stringify(input));
  }
});

test("every result over the labelled request set names the signal that placed it (why)", () => {
  const s = catalogRuntime().createSession({ dynamicDiscovery: true });
  for (const query of QUERIES) {
    for (const r of s.search({ query }).results) {
      assert.ok(Array.isArray(r.why) && r.why.length > 0 && r.why.every((w) => w.length > 0), `${query}: ${r.name}`);
    }
  }
});

test("packed searchAsync answers equal serde's JSON with the embedder fixture", async () => {
  const rt = catalogRuntime();
  rt.setEmbedder(fixtureEmbedder());
  const s = rt.createSession({ dynamicDiscovery: true });
  for (const query of QUERIES.slice(0, 120))
    same(await s.searchAsync({ query }), await s.__searchAsyncJson({ query }), query);
});

test("loaded schemas, permissions, empty why and separators in strings keep their values", () => {
  const rt = new HolarynRuntime();
  rt.registerTools([
    native("read_file", "Read a file from disk", { permissions: ["fs.read", "fs.list"] }),
    native("sep_tool", "Read \u001f a \u001e file \u001d with \u001c separators"),
    native("quote_tool", 'Read "quoted" \\ back\\slashed\n\tfile é 東 🙂'),
  ]);
  const s = rt.createSession({ dynamicDiscovery: true });
  s.inspect({ name: "read_file" });
  for (const query of ["read file", "separators", "quoted backslashed", "zzzz qqqq", ""]) {
    let want;
    try {
      want = s.__searchJson({ query });
    } catch {
      assert.throws(() => s.search({ query }), /query/);
      continue;
    }
    same(s.search({ query }), want, query);
  }
  const out = s.search({ query: "read file" });
  const read = out.results.find((r) => r.name === "read_file");
  assert.deepEqual([read.schemaLoaded, read.permissions], [true, ["fs.list", "fs.read"]]);
  assert.ok(s.search({ query: "separators" }).results[0].summary.includes("\u001f a \u001e"));
});

test("errors stay typed through the packed path", () => {
  const s = new HolarynRuntime().createSession({ dynamicDiscovery: true });
  assert.throws(
    () => s.search({ query: "x".repeat(600) }),
    (e) => e.name === "InputError" && e.code === "input.invalid",
  );
});

test("a plain { query } input answers and refuses as its JSON text does", () => {
  const s = catalogRuntime().createSession({ dynamicDiscovery: true });
  /** The answer or the refusal (name, code, message) of one call. */
  const outcome = (f) => {
    try {
      return JSON.stringify(f());
    } catch (e) {
      return JSON.stringify([e.name, e.code, e.message]);
    }
  };
  const getter = Object.defineProperty({}, "query", { get: () => "read a file", enumerable: true });
  const inherited = Object.create({ query: "read a file" });
  for (const input of [
    { query: "create a github issue" },
    { query: "read \ud800 file" }, // a lone surrogate: the JSON text path's marker
    { query: "" },
    { query: "   " },
    { query: "x".repeat(600) },
    { query: "naïve 東京 🙂 \u0000 \u001f" },
    { query: 42 },
    { query: "read a file", limit: 2 },
    { query: "read a file", toJSON: () => ({ query: "send an email" }) },
    Object.assign(Object.create(null), { query: "read a file" }),
    getter,
    inherited,
  ]) {
    assert.equal(
      outcome(() => s.search(input)),
      outcome(() => s.__searchJson(input)),
      JSON.stringify(input),
    );
  }
});
