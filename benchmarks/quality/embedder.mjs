// Embedder mode of bench:quality: precomputed vectors from a fixture file,
// handed to the runtime the way a host would hand over its own embedder.
// The host-embedder API is h18-embed's; until the built package has it, this
// says so instead of pretending to measure.
import { existsSync } from "node:fs";

/** {ok: true, configure(runtime)} when the file and the runtime API exist, else {ok: false, reason}. */
export function loadEmbedder(file, HolarynRuntime) {
  if (!existsSync(file)) return { ok: false, reason: `${file} does not exist` };
  return {
    ok: false,
    reason: `the built package has no host-embedder API yet (HolarynRuntime ${typeof HolarynRuntime}); ${file} was not used`,
  };
}
