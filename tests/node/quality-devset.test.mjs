// The labelled search-quality set (benchmarks/quality/requests.jsonl) stays
// well-formed: every gold name is a registered tool of the shared catalog,
// ids are unique, kinds come from the fixed list, the split is the fixed hash
// of the id, and every kind has at least its minimum number of requests.
import { test } from "node:test";
import assert from "node:assert/strict";
import { KINDS, MIN_PER_KIND, catalogFiles, loadRequests, splitOf } from "../../benchmarks/quality/devset.mjs";

const requests = loadRequests();

function catalogNames() {
  const { mcp, native } = catalogFiles();
  const names = new Set();
  for (const { provider, text } of mcp) for (const t of JSON.parse(text).tools) names.add(`${provider}/${t.name}`);
  for (const t of JSON.parse(native)) names.add(t.name);
  return names;
}

test("every request has the documented shape", () => {
  for (const r of requests) {
    assert.deepEqual(Object.keys(r).sort(), ["gold", "id", "kind", "query", "split"], r.id);
    assert.equal(typeof r.id, "string");
    assert.ok(typeof r.query === "string" && r.query.trim().length > 0, r.id);
    assert.ok(Array.isArray(r.gold) && r.gold.every((g) => typeof g === "string"), r.id);
    assert.equal(new Set(r.gold).size, r.gold.length, `${r.id}: duplicate gold`);
  }
});

test("ids and queries are unique", () => {
  assert.equal(new Set(requests.map((r) => r.id)).size, requests.length);
  assert.equal(new Set(requests.map((r) => r.query.trim().toLowerCase())).size, requests.length);
});

test("kinds are from the fixed list and meet their minimums", () => {
  const counts = Object.fromEntries(KINDS.map((k) => [k, 0]));
  for (const r of requests) {
    assert.ok(KINDS.includes(r.kind), `${r.id}: unknown kind ${r.kind}`);
    counts[r.kind] += 1;
  }
  for (const k of KINDS) assert.ok(counts[k] >= MIN_PER_KIND[k], `${k}: ${counts[k]} < ${MIN_PER_KIND[k]}`);
  assert.ok(requests.length >= 400, `${requests.length} requests`);
});

test("every gold name is a tool of the catalog; only nothing-fits has empty gold", () => {
  const names = catalogNames();
  assert.equal(names.size, 1335 + 14, "54 MCP fixtures plus the native tools");
  for (const r of requests) {
    for (const g of r.gold) assert.ok(names.has(g), `${r.id}: ${g} is not in the catalog`);
    if (r.kind === "nothing-fits") assert.deepEqual(r.gold, [], r.id);
    else assert.ok(r.gold.length > 0, `${r.id}: no gold`);
  }
});

test("the dev/test split is the fixed hash of the id and roughly even", () => {
  for (const r of requests) assert.equal(r.split, splitOf(r.id), r.id);
  const dev = requests.filter((r) => r.split === "dev").length;
  assert.ok(dev > requests.length * 0.4 && dev < requests.length * 0.6, `${dev} of ${requests.length} in dev`);
});
