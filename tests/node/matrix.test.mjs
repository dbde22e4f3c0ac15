// The gate matrix through the npm package in Node (the browser runs the same module).
import { test } from "node:test";
import assert from "node:assert/strict";
import * as pkg from "holaryn";
import { readFileSync } from "node:fs";
import { runGateMatrix } from "../shared/gate-matrix.mjs";

const matrix = JSON.parse(readFileSync(new URL("../fixtures/gate-matrix.json", import.meta.url), "utf8"));

test("5 call paths × every async case stop at the right step", async () => {
  const failures = await runGateMatrix(pkg, matrix);
  assert.deepEqual(failures, []);
});
