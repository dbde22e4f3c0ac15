// The labelled search-quality set: its kinds, their minimum sizes, the fixed
// dev/test split rule, and loading it together with the catalog it is labelled
// against (the 54 shared MCP fixtures, names qualified as provider/name, plus
// the native tools). Shared by the validation test and `npm run bench:quality`.
import { createHash } from "node:crypto";
import { readFileSync, readdirSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

export const root = join(dirname(fileURLToPath(import.meta.url)), "../..");
export const REQUESTS = join(root, "benchmarks/quality/requests.jsonl");

/** The kinds of request, in report order. */
export const KINDS = [
  "paraphrase",
  "entity",
  "multi-step",
  "exact-name",
  "provider-scoped",
  "schema-field",
  "nothing-fits",
  "prerequisite",
  "verb-sense",
  "indirect-domain",
];

/** The least number of requests each kind must have. */
export const MIN_PER_KIND = {
  paraphrase: 50,
  entity: 50,
  "multi-step": 50,
  "exact-name": 30,
  "provider-scoped": 30,
  "schema-field": 30,
  "nothing-fits": 40,
  prerequisite: 45,
  "verb-sense": 45,
  "indirect-domain": 45,
};

/** The split of a request: the top bit of the first SHA-256 byte of its id. */
export function splitOf(id) {
  return createHash("sha256").update(id).digest()[0] < 128 ? "dev" : "test";
}

/** Every request of the set, parsed. */
export function loadRequests(path = REQUESTS) {
  return readFileSync(path, "utf8")
    .split("\n")
    .filter((l) => l.trim())
    .map((l) => JSON.parse(l));
}

/** The catalog as files to register: [{file, provider, text}] plus the native tools' JSON text. */
export function catalogFiles() {
  const dir = join(root, "tests/fixtures/mcp");
  const mcp = readdirSync(dir)
    .filter((f) => f.endsWith(".json"))
    .sort()
    .map((f) => ({ file: join(dir, f), provider: f.replace(/\.json$/, ""), text: readFileSync(join(dir, f), "utf8") }));
  const native = readFileSync(join(root, "tests/fixtures/search/native_tools.json"), "utf8");
  return { mcp, native };
}
