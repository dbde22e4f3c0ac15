// Shared helpers for the Node tests of the built package.
import { readFileSync, readdirSync } from "node:fs";
import { HolarynRuntime } from "holaryn";
import { join, dirname } from "node:path";
import { fileURLToPath } from "node:url";

export const root = join(dirname(fileURLToPath(import.meta.url)), "../..");
export const fixtures = join(root, "tests/fixtures");

export function native(name, description, extra = {}) {
  return {
    name,
    description,
    source: "native",
    provider: { id: "host", kind: "native", displayName: "Host" },
    trust: "builtin",
    inputSchema: { type: "object", properties: { path: { type: "string" } }, required: ["path"] },
    ...extra,
  };
}

export function secret(seed) {
  return Uint8Array.from({ length: 32 }, (_, i) => (i * 31 + seed) & 255);
}

export function mcpFiles() {
  const dir = join(fixtures, "mcp");
  return readdirSync(dir)
    .filter((f) => f.endsWith(".json"))
    .sort()
    .map((f) => ({ file: join(dir, f), provider: f.replace(/\.json$/, ""), text: readFileSync(join(dir, f), "utf8") }));
}

/** The shared catalog: every MCP fixture (qualified names) and, by default, the native search tools. */
export function catalogRuntime({ natives = true } = {}) {
  const rt = new HolarynRuntime();
  for (const f of mcpFiles()) rt.registerCatalog(f.file, f.text, { providerId: f.provider, qualifyNames: true });
  if (natives) rt.registerTools(JSON.parse(readFileSync(join(fixtures, "search/native_tools.json"), "utf8")));
  return rt;
}
