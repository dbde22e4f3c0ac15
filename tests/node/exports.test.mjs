// The built entries export exactly the names tests/types/exports.mjs lists
// (tests/types/exports.ts checks the .d.ts declares the same).
import assert from "node:assert/strict";
import test from "node:test";
import { HOLARYN, HOLARYN_AI, HOLARYN_MCP, HOLARYN_OTEL } from "../types/exports.mjs";

test("holaryn, holaryn/mcp, holaryn/ai and holaryn/otel export exactly the typed names", async () => {
  assert.deepEqual(Object.keys(await import("holaryn")).sort(), [...HOLARYN].sort());
  assert.deepEqual(Object.keys(await import("holaryn/mcp")).sort(), [...HOLARYN_MCP].sort());
  assert.deepEqual(Object.keys(await import("holaryn/ai")).sort(), [...HOLARYN_AI].sort());
  assert.deepEqual(Object.keys(await import("holaryn/otel")).sort(), [...HOLARYN_OTEL].sort());
});
