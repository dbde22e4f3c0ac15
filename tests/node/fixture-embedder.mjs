// The all-MiniLM-L6-v2 fixture embedder for the Node tests: vectors
// precomputed by scripts/embed-fixtures.py, answered as a real model would
// (its own module: only the tests that embed read the 1.4 MB file).
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { fixtures } from "./helpers.mjs";

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
