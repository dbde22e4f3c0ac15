// The pattern engine's fixtures (tests/fixtures/patterns/) against JavaScript:
// every verdict that crates/pattern/tests/patterns.rs holds the Rust engine to must be
// what `new RegExp(p, "u")` says, so the engine is held to ECMA-262 as JS runs it.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { test } from "node:test";
import { jsVerdict } from "../fixtures/patterns/js-verdict.mjs";

const dir = new URL("../fixtures/patterns/", import.meta.url);

for (const file of ["table.json", "mcp.json", "differential.json"]) {
  test(`${file}: every recorded verdict is JavaScript's`, () => {
    const rows = JSON.parse(readFileSync(new URL(file, dir), "utf8"));
    const wrong = rows
      .filter((row) => !row.redos)
      .map((row) => ({ row, js: jsVerdict(row.pattern, row.strings) }))
      .filter(({ row, js }) => JSON.stringify(js) !== JSON.stringify(row.expect))
      .map(
        ({ row, js }) =>
          `${JSON.stringify(row.pattern)}: recorded ${JSON.stringify(row.expect)}, JS ${JSON.stringify(js)}`,
      );
    assert.deepEqual(wrong, []);
    assert.ok(rows.length >= 28);
  });
}
