// The size budgets hold for the built package: the default browser download
// ≤ 600 KiB gz, with bounded code mode ≤ 900 KiB gz, the npm tarball
// ≤ 1,000,000 B packed. Sizes are counted bytes, not timings, so a test
// asserts them; `npm run bench:size` prints them and what makes them up.
import { test } from "node:test";
import assert from "node:assert/strict";
import { BUDGET, CODE_FILES, DEFAULT_FILES, gzipSize, tarball } from "../../benchmarks/sizes.mjs";

const kib = (n) => `${(n / 1024).toFixed(1)} KiB`;

test("the default browser download and the one with bounded code stay within their gz budgets", () => {
  const gz = (files) => files.reduce((n, f) => n + gzipSize(f), 0);
  const base = gz(DEFAULT_FILES);
  const withCode = base + gz(CODE_FILES);
  assert.ok(base <= BUDGET.default, `default download ${kib(base)} gz > ${kib(BUDGET.default)}`);
  assert.ok(withCode <= BUDGET.withCode, `with code mode ${kib(withCode)} gz > ${kib(BUDGET.withCode)}`);
});

test("the npm tarball stays within 1,000,000 bytes packed", () => {
  const { packed } = tarball();
  assert.ok(packed <= BUDGET.packed, `tarball ${packed} B packed > ${BUDGET.packed} B`);
});
