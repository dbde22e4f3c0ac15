// Embedder mode of bench:quality: precomputed vectors from a fixture file (the
// core's `holaryn.embeddings/1` export shape, tool texts and the set's queries),
// imported into the runtime the way a host restores persisted vectors. The
// host-embedder API is h18-embed's; until the built package has it, this says
// so instead of pretending to measure.
import { existsSync, readFileSync } from "node:fs";

/** {ok: true, configure(runtime)} when the file and the runtime API exist, else {ok: false, reason}. */
export function loadEmbedder(file, HolarynRuntime) {
  if (!existsSync(file)) return { ok: false, reason: `${file} does not exist` };
  if (typeof HolarynRuntime.prototype.importEmbeddings !== "function") {
    return { ok: false, reason: `the built package has no host-embedder API (HolarynRuntime#importEmbeddings); ${file} was not used` };
  }
  let vectors;
  try {
    vectors = JSON.parse(readFileSync(file, "utf8"));
  } catch (e) {
    return { ok: false, reason: `${file}: not JSON: ${e.message}` };
  }
  return { ok: true, configure: (rt) => rt.importEmbeddings(vectors) };
}
