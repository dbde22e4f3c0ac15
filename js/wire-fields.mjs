// Generated from wasm/src/wire.rs (the separators, HEAD and RESULT): how js/wire.mjs
// reads tool_search's packed form. Do not edit: after changing them there, run
// `HOLARYN_BLESS=1 cargo test -p holaryn-wasm wire` (a test fails while this file drifts).

/** The packed form's mark: its first character. */
export const RS = "\u001e";
/** Between two fields. */
export const US = "\u001f";
/** Between a list's items. */
export const LS = "\u001d";
/** An absent optional string. */
export const NONE = "\u001c";
/** Fields of the answer before its results. */
export const HEAD_FIELDS = 3;
/** Fields of one result. */
export const RESULT_FIELDS = 11;

const list = (text) => (text === "" ? [] : text.split(LS));

/** The answer: its `results` and the head fields `f[0]`..`f[2]`, keys in serde's order. */
export function answer(f, results) {
  const out = { results };
  if (f[0] === "1") out.nothingFits = true;
  if (f[1] !== NONE) out.hint = f[1];
  out.registryVersion = f[2];
  return out;
}

/** The result whose fields start at `f[i]`, keys in serde's order. */
export function result(f, i) {
  const t = {
    name: f[i],
    title: f[i + 1],
    summary: f[i + 2],
    source: f[i + 3],
    provider: f[i + 4],
    state: f[i + 5],
    permissions: list(f[i + 6]),
    trust: f[i + 7],
    schemaLoaded: f[i + 8] === "1",
  };
  if (f[i + 9] !== "") t.why = f[i + 9].split(LS);
  if (f[i + 10] !== NONE) t.callName = f[i + 10];
  return t;
}
