// bench:quality's scoring counts what it says it counts, and the script runs
// over the built package, writing one dated JSON with every kind x split.
import { test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, readdirSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { root } from "./helpers.mjs";
import { score } from "../../benchmarks/quality/metrics.mjs";
import { KINDS } from "../../benchmarks/quality/devset.mjs";
import { loadEmbedder } from "../../benchmarks/quality/embedder.mjs";

const row = (kind, split, gold, ranked, nothingFits = false) => ({
  id: `${kind}-${ranked.join()}`,
  kind,
  split,
  gold,
  ranked,
  nothingFits,
});

test("top-1, any-gold@k and MRR@k count the first gold tool; nothing-fits requests stay out of them", () => {
  const rows = [
    row("paraphrase", "dev", ["a", "b"], ["b", "x"]), // rank 1
    row("paraphrase", "dev", ["a"], ["x", "y", "a"]), // rank 3
    row("paraphrase", "dev", ["a"], ["x", "y", "z", "a"]), // beyond k = 3
    row("nothing-fits", "dev", [], ["x"], true),
    row("paraphrase", "test", ["a"], [], true),
  ];
  const s = score(rows, 3);
  assert.deepEqual(s.byKind.paraphrase.dev, { n: 3, top1: 1 / 3, anyAtK: 2 / 3, mrrAtK: (1 + 1 / 3) / 3, requests: 3 });
  assert.equal(s.byKind["nothing-fits"].dev.n, 0);
  assert.equal(s.byKind["nothing-fits"].dev.requests, 1);
  assert.deepEqual(s.overall.dev, { n: 3, top1: 1 / 3, anyAtK: 2 / 3, mrrAtK: (1 + 1 / 3) / 3 });
  assert.deepEqual(s.overall.test, { n: 1, top1: 0, anyAtK: 0, mrrAtK: 0 });
  // dev: said nothing fits once, rightly; test: said it once, wrongly, and no request had empty gold.
  assert.deepEqual(s.nothingFits.dev, { said: 1, truth: 1, precision: 1, recall: 1 });
  assert.deepEqual(s.nothingFits.test, { said: 1, truth: 0, precision: 0, recall: null });
});

test("npm run bench:quality runs over the built package and writes every kind x split", () => {
  const out = mkdtempSync(join(tmpdir(), "quality-"));
  const r = spawnSync(process.execPath, [join(root, "benchmarks/search-quality.mjs"), "--out", out], {
    encoding: "utf8",
  });
  assert.equal(r.status, 0, r.stderr);
  for (const kind of KINDS) assert.match(r.stdout, new RegExp(`^${kind} +dev `, "m"));
  const files = readdirSync(out);
  assert.equal(files.length, 1);
  assert.match(files[0], /^search-quality-\d{4}-\d{2}-\d{2}\.json$/);
  const report = JSON.parse(readFileSync(join(out, files[0]), "utf8"));
  assert.deepEqual(report.systems.map((s) => s.name).slice(0, 2), ["holaryn", "bm25"]);
  for (const s of report.systems) {
    for (const kind of KINDS)
      for (const split of ["dev", "test"]) assert.ok(s.byKind[kind][split].requests > 0, `${s.name} ${kind} ${split}`);
    assert.ok(s.dev.length > 0 && s.dev.every((d) => Array.isArray(d.ranked)));
    assert.deepEqual(s.errors, []);
  }
});

test("embedder mode restores the fixture's vectors as a host would, and counts texts it lacks", async () => {
  const dir = mkdtempSync(join(tmpdir(), "emb-"));
  const file = join(dir, "vectors.json");
  const fixture = { format: "holaryn.embeddings/1", model: "m", dimensions: 2, encoding: "f32", vectors: {} };
  writeFileSync(file, JSON.stringify(fixture));
  assert.match(loadEmbedder(join(dir, "none.json"), class {}).reason, /does not exist/);
  assert.match(loadEmbedder(file, class {}).reason, /no host-embedder API/);
  const calls = [];
  class FakeRuntime {
    setEmbedder(e) {
      calls.push(["setEmbedder", e.model, e.dimensions]);
      this.embedder = e;
    }
    importEmbeddings(data) {
      calls.push(["importEmbeddings", data]);
    }
  }
  const emb = loadEmbedder(file, FakeRuntime);
  assert.equal(emb.ok, true);
  const rt = new FakeRuntime();
  emb.configure(rt);
  assert.deepEqual(calls, [
    ["setEmbedder", "m", 2],
    ["importEmbeddings", fixture],
  ]);
  assert.throws(() => rt.embedder.embed(["a", "b"]), /2 text\(s\) not in/);
  assert.equal(emb.misses(), 2);
});
