// The optional host embedder through the built package, with real
// all-MiniLM-L6-v2 vectors precomputed by scripts/embed-fixtures.py (no model
// runs here): import/export, an embedder that throws or never answers, model
// tool calls, the CLI, and paraphrases the fused ranking finds.
import { test } from "node:test";
import assert from "node:assert/strict";
import { writeFileSync, mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { spawnSync } from "node:child_process";
import { InputError } from "holaryn";
import { DIMS, FILE, fixtureEmbedder, MODEL, VECTORS, vector } from "./fixture-embedder.mjs";
import { catalogRuntime, fixtures, root, secret } from "./helpers.mjs";

const names = (out) => out.results.map((r) => r.name);

test("fixture vectors cover every fixture tool: import, then nothing is left to embed", async () => {
  const rt = catalogRuntime();
  const imported = rt.importEmbeddings(VECTORS);
  assert.equal(imported, Object.keys(VECTORS.vectors).length);
  const calls = [];
  rt.setEmbedder(fixtureEmbedder(calls));
  const stats = await rt.prepareEmbeddings();
  assert.equal(stats.model, MODEL);
  assert.equal(stats.dimensions, DIMS);
  assert.equal(stats.cached, stats.tools);
  assert.equal(stats.embedded, 0);
  assert.deepEqual(calls, []);
  const out = rt.exportEmbeddings({ encoding: "i8" });
  assert.equal(Object.keys(out.vectors).length, stats.tools);
});

test("the embedder is asked in batches of at most 64, then vectors are cached", async () => {
  const rt = catalogRuntime();
  const calls = [];
  rt.setEmbedder(fixtureEmbedder(calls));
  const s = rt.createSession({ dynamicDiscovery: true }, secret(1));
  const query = "can you put a thumbs-up on that message in slack";
  const out = await s.searchAsync({ query });
  assert.ok(calls.length > 1 && calls.every((n) => n <= 64), `${calls}`);
  assert.equal(
    calls.reduce((a, b) => a + b, 0),
    Object.keys(rt.exportEmbeddings().vectors).length + 1,
  );
  assert.ok(out.results.some((r) => r.why.some((w) => w.startsWith("meaning: "))));
  calls.length = 0;
  await s.searchAsync({ query });
  assert.deepEqual(calls, []);
  // A registry change embeds only the new tool's text (the query is cached).
  rt.registerTools([
    { name: "rename_thing", description: "Give a file a new name", source: "native", provider: { id: "host" } },
  ]);
  calls.length = 0;
  const changed = await (async () => {
    rt.setEmbedder({
      ...fixtureEmbedder(calls),
      embed: async (texts) => {
        calls.push(texts.length);
        return texts.map((t) => vector(t) ?? Array(DIMS).fill(0.5));
      },
    });
    return s.searchAsync({ query });
  })();
  assert.deepEqual(calls, [1]);
  assert.ok(changed.results.length > 0);
  await assert.rejects(s.searchAsync({ query: "" }), (e) => e instanceof InputError && e.code === "input.invalid");
  await assert.rejects(
    s.searchAsync({ query: "a\ud800" }),
    (e) => e.code === "input.invalid" && e.pointer === "/query",
  );
});

test("an embedder that throws gives the lexical ranking, and why says so", async () => {
  const rt = catalogRuntime();
  rt.importEmbeddings(VECTORS);
  rt.setEmbedder({
    model: MODEL,
    dimensions: DIMS,
    embed: () => {
      throw new Error("model not loaded");
    },
  });
  const s = rt.createSession({ dynamicDiscovery: true }, secret(2));
  const query = "a request no fixture has a vector for";
  const out = await s.searchAsync({ query });
  assert.deepEqual(names(out), names(s.search({ query })));
  assert.ok(out.results.length > 0);
  for (const r of out.results)
    assert.equal(r.why.at(-1), "embedder unavailable: the embedder failed: model not loaded");
});

test("an embedder that never answers times out to the lexical ranking", async () => {
  const rt = catalogRuntime();
  rt.importEmbeddings(VECTORS);
  rt.setEmbedder({ model: MODEL, dimensions: DIMS, embed: () => new Promise(() => {}), timeoutMs: 30 });
  const s = rt.createSession({ dynamicDiscovery: true }, secret(3));
  const query = "another request without a vector";
  const out = await s.searchAsync({ query });
  assert.deepEqual(names(out), names(s.search({ query })));
  for (const r of out.results) assert.equal(r.why.at(-1), "embedder unavailable: the embedder took longer than 30 ms");
});

test("export/import round-trips; another dimension or a bad embedder is refused", async () => {
  const rt = catalogRuntime();
  rt.importEmbeddings(VECTORS);
  const data = rt.exportEmbeddings();
  assert.equal(data.format, "holaryn.embeddings/1");
  assert.equal(data.encoding, "f32");
  const rt2 = catalogRuntime();
  assert.equal(rt2.importEmbeddings(data), Object.keys(data.vectors).length);
  assert.deepEqual(rt2.exportEmbeddings(), data);
  const other = catalogRuntime();
  other.setEmbedder({ model: MODEL, dimensions: 768, embed: async () => [] });
  assert.throws(
    () => other.importEmbeddings(data),
    (e) => e instanceof InputError && e.code === "input.embeddings_mismatch",
  );
  assert.throws(() => other.setEmbedder({ model: MODEL, dimensions: 0, embed: async () => [] }), InputError);
  assert.throws(() => other.setEmbedder({ model: MODEL, dimensions: 3 }), InputError);
  assert.throws(() => other.exportEmbeddings({ encoding: "f16" }), InputError);
  other.setEmbedder(null);
  assert.throws(() => other.exportEmbeddings(), InputError);
});

// Paraphrases from the labelled set (benchmarks/quality/requests.jsonl) whose
// gold tool was not in the lexical top 8 when these vectors were made; the
// fused ranking must have it (the lexical ranking may improve meanwhile).
const PARAPHRASES = [
  { query: "can you put a thumbs-up on that message in slack", gold: ["slack/slack_add_reaction"] },
  { query: "what time is it right now over in Singapore", gold: ["time/get_current_time"] },
  { query: "I need a link people can click to pay for the workshop ticket", gold: ["stripe/create_payment_link"] },
  { query: "how far up is Denver above sea level", gold: ["google-maps/maps_elevation"] },
  { query: "pass this email along to finance", gold: ["ms-365/forward-mail-message", "ms-365/create-forward-draft"] },
];

test("fused ranking finds paraphrased requests the words miss; exact names stay first", async () => {
  const rt = catalogRuntime();
  rt.importEmbeddings(VECTORS);
  const s = rt.createSession({ dynamicDiscovery: true }, secret(4));
  for (const { query, gold } of PARAPHRASES) {
    const fused = await s.searchAsync({ query });
    const hit = fused.results.find((r) => gold.includes(r.name));
    assert.ok(hit, `${query}: fused misses ${gold}: ${names(fused)}`);
    assert.ok(
      hit.why.some((w) => w.startsWith("meaning: ")),
      `${query}: ${hit.why}`,
    );
    assert.ok(fused.results.every((r) => !r.why.some((w) => w.startsWith("embedder unavailable"))));
  }
  const exact = await s.searchAsync({ query: "slack/slack_add_reaction" });
  assert.equal(exact.results[0].name, "slack/slack_add_reaction");
  assert.equal(exact.results[0].why[0], "exact name");
});

test("a model's tool_search call uses the embedder", async () => {
  const rt = catalogRuntime();
  rt.importEmbeddings(VECTORS);
  rt.setEmbedder(fixtureEmbedder());
  const s = rt.createSession({ dynamicDiscovery: true }, secret(5));
  const res = await s.dispatchModelCall("anthropic", {
    type: "tool_use",
    id: "tu_1",
    name: "tool_search",
    input: { query: "can you put a thumbs-up on that message in slack" },
  });
  const body = JSON.parse(res.content);
  assert.ok(
    body.results.some((r) => r.why.some((w) => w.startsWith("meaning: "))),
    JSON.stringify(body),
  );
});

test("holaryn rank --embeddings ranks with precomputed vectors", () => {
  const dir = mkdtempSync(join(tmpdir(), "holaryn-rank-"));
  const queries = join(dir, "q.jsonl");
  writeFileSync(
    queries,
    [
      { id: 1, query: "can you put a thumbs-up on that message in slack" },
      { id: 2, query: "no vector for this one" },
    ]
      .map((q) => JSON.stringify(q))
      .join("\n"),
  );
  const bin = join(root, "bin/holaryn.mjs");
  const run = (...extra) =>
    spawnSync(process.execPath, [bin, "rank", "--catalog", join(fixtures, "mcp"), "--queries", queries, ...extra], {
      encoding: "utf8",
    });
  const r = run("--embeddings", FILE);
  assert.equal(r.status, 0, r.stderr);
  const lines = r.stdout
    .trim()
    .split("\n")
    .map((l) => JSON.parse(l));
  assert.equal(lines.length, 2);
  assert.match(r.stderr, /vectors imported, 1 queries lacked a query or tool vector/);
  const bad = join(dir, "bad.json");
  writeFileSync(bad, JSON.stringify({ ...VECTORS, dimensions: 3 }));
  const refused = run("--embeddings", bad);
  assert.equal(refused.status, 2);
  assert.match(refused.stderr, /input.invalid/);
});
