// The packed wire form of tool_search output (see wasm/src/wire.rs): one
// string from the wasm, turned here into the object JSON.parse would give
// for serde's JSON: same keys, same order, optional fields absent.

const RS = "\u001e";
const US = "\u001f";
const LS = "\u001d";
const NONE = "\u001c";

const list = (text) => (text === "" ? [] : text.split(LS));

/** One result (`ToolSummary`) from its fields. */
function summary(text) {
  const f = text.split(US);
  const t = {
    name: f[0],
    title: f[1],
    summary: f[2],
    source: f[3],
    provider: f[4],
    state: f[5],
    permissions: list(f[6]),
    trust: f[7],
    schemaLoaded: f[8] === "1",
  };
  if (f[9] !== "") t.why = f[9].split(LS);
  return t;
}

/** `SearchOutput` from the packed form, or from JSON (which starts with `{`). */
export function unpackSearch(text) {
  if (!text.startsWith(RS)) return JSON.parse(text);
  const records = text.split(RS);
  const head = records[1].split(US);
  const out = { results: [] };
  for (let i = 2; i < records.length; i++) out.results.push(summary(records[i]));
  if (head[1] === "1") out.nothingFits = true;
  if (head[2] !== NONE) out.hint = head[2];
  out.registryVersion = head[0];
  return out;
}

/**
 * Route a bindings module's `search` / `searchAsync` through the packed
 * methods. The wasm-bindgen ones (serde's JSON, parsed) stay reachable as
 * `__searchJson` / `__searchAsyncJson`: the tests' oracle for the packed form.
 */
export function packSearches(bindings) {
  const proto = bindings.HolarynSession.prototype;
  const packed = proto.__searchPacked;
  const packedAsync = proto.__searchAsyncPacked;
  if (typeof packed !== "function" || typeof packedAsync !== "function") return;
  Object.defineProperty(proto, "__searchJson", { value: proto.search, configurable: true });
  Object.defineProperty(proto, "__searchAsyncJson", { value: proto.searchAsync, configurable: true });
  proto.search = function search(input) {
    return unpackSearch(packed.call(this, input));
  };
  proto.searchAsync = function searchAsync(input) {
    return packedAsync.call(this, input).then(unpackSearch);
  };
}
