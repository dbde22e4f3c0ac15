// The tool-discovery suite: passes its gate, writes its outputs, and
// --fail-on-regression catches a worse ranking or a larger initial tool list.
import { test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, writeFileSync, chmodSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { root } from "./helpers.mjs";

const bin = join(root, "bin/holaryn.mjs");
const baseline = join(root, "benchmarks/baselines/tool-discovery-v1.json");
const run = (...args) => spawnSync(process.execPath, [bin, "bench", "run", ...args], { encoding: "utf8" });

test("the suite passes its gate against the reviewed baseline and writes its outputs", () => {
  const out = mkdtempSync(join(tmpdir(), "bench-"));
  const r = run("--suite", "tool-discovery", "--baseline", baseline, "--fail-on-regression", "--output-dir", out);
  assert.equal(r.status, 0, r.stderr);
  const results = JSON.parse(readFileSync(join(out, "results.json"), "utf8"));
  assert.ok(results.gates.every((g) => g.pass));
  assert.ok(results.footprint.reductionPct.anthropic >= 90);
  const traj = readFileSync(join(out, "trajectory.jsonl"), "utf8")
    .trim()
    .split("\n")
    .map((l) => JSON.parse(l));
  for (const kind of ["search", "schema_load", "invocation", "registry_changed", "footprint"]) {
    assert.ok(
      traj.some((e) => e.type === kind),
      `trajectory has ${kind}`,
    );
  }
  assert.match(readFileSync(join(out, "report.html"), "utf8"), /HolarynBench/);
  assert.match(r.stderr, /\[bench\] gate PASS/);
});

test("results.json carries every field its shipped JSON Schema requires", async () => {
  const out = mkdtempSync(join(tmpdir(), "bench-"));
  assert.equal(run("--suite", "tool-discovery", "--output-dir", out).status, 0);
  const schema = JSON.parse(readFileSync(join(root, "schemas/bench-results.schema.json"), "utf8"));
  const results = JSON.parse(readFileSync(join(out, "results.json"), "utf8"));
  for (const key of schema.required) assert.ok(key in results, key);
  assert.equal(results.suite, schema.properties.suite.const);
});

for (const inject of ["worse-ranking", "larger-initial"]) {
  test(`--fail-on-regression fails on a ${inject}`, () => {
    const out = mkdtempSync(join(tmpdir(), "bench-"));
    const r = run(
      "--suite",
      "tool-discovery",
      "--baseline",
      baseline,
      "--fail-on-regression",
      "--output-dir",
      out,
      "--inject",
      inject,
    );
    assert.equal(r.status, 1);
    assert.match(r.stderr, /REGRESSION: /);
  });
}

test("clear errors with exit code 2: unknown suite, missing or malformed baseline, unwritable dir", () => {
  const dir = mkdtempSync(join(tmpdir(), "bench-"));
  assert.equal(run("--suite", "nope").status, 2);
  assert.match(run("--suite", "nope").stderr, /unknown suite/);
  const missing = run("--suite", "tool-discovery", "--baseline", join(dir, "none.json"), "--output-dir", dir);
  assert.equal(missing.status, 2);
  assert.match(missing.stderr, /not found/);
  writeFileSync(join(dir, "bad.json"), "{ nope");
  const bad = run("--suite", "tool-discovery", "--baseline", join(dir, "bad.json"), "--output-dir", dir);
  assert.equal(bad.status, 2);
  assert.match(bad.stderr, /not JSON/);
  const ro = join(dir, "ro");
  writeFileSync(ro, "a file, not a directory");
  chmodSync(ro, 0o444);
  const unwritable = run("--suite", "tool-discovery", "--output-dir", join(ro, "sub"));
  assert.equal(unwritable.status, 2);
  assert.match(unwritable.stderr, /not writable/);
});
