// The built entries export exactly the names tests/types/exports.mjs lists
// (tests/types/exports.ts checks the .d.ts declares the same).
import assert from "node:assert/strict";
import test from "node:test";
import { HOLARYN, HOLARYN_AI, HOLARYN_ESBUILD, HOLARYN_MCP, HOLARYN_OTEL } from "../types/exports.mjs";

test("holaryn, holaryn/mcp, holaryn/ai, holaryn/otel and holaryn/esbuild export exactly the typed names", async () => {
  assert.deepEqual(Object.keys(await import("holaryn")).sort(), [...HOLARYN].sort());
  assert.deepEqual(Object.keys(await import("holaryn/mcp")).sort(), [...HOLARYN_MCP].sort());
  assert.deepEqual(Object.keys(await import("holaryn/ai")).sort(), [...HOLARYN_AI].sort());
  assert.deepEqual(Object.keys(await import("holaryn/otel")).sort(), [...HOLARYN_OTEL].sort());
  assert.deepEqual(Object.keys(await import("holaryn/esbuild")).sort(), [...HOLARYN_ESBUILD].sort());
});

test("typed() re-parents a runtime error onto the exported class its name says, each a HolarynError", async () => {
  const holaryn = await import("holaryn");
  const classes = HOLARYN.filter((name) => name.endsWith("Error"));
  assert.ok(classes.length > 1);
  for (const name of classes) {
    const e = holaryn.typed(Object.assign(new Error("x"), { name, code: "x.y" }));
    assert.ok(e instanceof holaryn[name] && e instanceof holaryn.HolarynError, name);
  }
  const unknown = holaryn.typed(Object.assign(new Error("x"), { name: "OtherError", code: "x.y" }));
  assert.ok(!(unknown instanceof holaryn.HolarynError), "no class, no re-parenting");
});
