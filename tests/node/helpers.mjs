// Shared helpers for the Node tests of the built package.
import { createHash } from "node:crypto";
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

/** Precomputed all-MiniLM-L6-v2 vectors (scripts/embed-fixtures.py). */
export const FILE = join(fixtures, "embeddings/minilm-l6-v2.json");
export const VECTORS = JSON.parse(readFileSync(FILE, "utf8"));
export const MODEL = VECTORS.model;
export const DIMS = VECTORS.dimensions;

/** The core's text key: the first 16 bytes of SHA-256, in hex. */
const key = (text) => createHash("sha256").update(text, "utf8").digest("hex").slice(0, 32);

/** A fixture vector (i8: f32 scale + one signed byte per component). */
export function vector(text) {
  const b64 = VECTORS.vectors[key(text)];
  if (!b64) return undefined;
  const buf = Buffer.from(b64, "base64");
  const scale = buf.readFloatLE(0);
  return Float32Array.from({ length: DIMS }, (_, i) => buf.readInt8(4 + i) * scale);
}

/** An embedder that answers from the fixture file, as a real model would. */
export const fixtureEmbedder = (calls = []) => ({
  model: MODEL,
  dimensions: DIMS,
  embed: async (texts) => {
    calls.push(texts.length);
    return texts.map((t) => {
      const v = vector(t);
      if (!v) throw new Error(`no fixture vector for ${JSON.stringify(t.slice(0, 40))}`);
      return v;
    });
  },
});
