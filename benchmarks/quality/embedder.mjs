// Embedder mode of bench:quality: precomputed vectors from a fixture file (the
// core's `holaryn.embeddings/1` export: the catalog's tool texts and the set's
// queries, made by h18-embed's scripts/embed-fixtures.py), restored the way a
// host restores persisted vectors: `setEmbedder` with the fixture's model, then
// `importEmbeddings`; searches go through `session.searchAsync`. The embedder
// itself never runs a model: a text missing from the fixture is counted and
// answered with an error, so the figures never silently fall back to lexical.
import { existsSync, readFileSync } from "node:fs";

/**
 * {ok: true, configure(runtime), misses()} when the file and the runtime API
 * exist, else {ok: false, reason}.
 */
export function loadEmbedder(file, HolarynRuntime) {
  if (!existsSync(file)) return { ok: false, reason: `${file} does not exist` };
  const proto = HolarynRuntime.prototype;
  if (typeof proto.setEmbedder !== "function" || typeof proto.importEmbeddings !== "function") {
    return {
      ok: false,
      reason: `the built package has no host-embedder API (setEmbedder, importEmbeddings); ${file} was not used`,
    };
  }
  let data;
  try {
    data = JSON.parse(readFileSync(file, "utf8"));
  } catch (e) {
    return { ok: false, reason: `${file}: not JSON: ${e.message}` };
  }
  let missing = 0;
  return {
    ok: true,
    model: data.model,
    misses: () => missing,
    configure(rt) {
      rt.setEmbedder({
        model: data.model,
        dimensions: data.dimensions,
        embed: (texts) => {
          missing += texts.length;
          throw new Error(`${texts.length} text(s) not in ${file}`);
        },
      });
      rt.importEmbeddings(data);
    },
  };
}
