// The packed wire form of tool_search output (see wasm/src/wire.rs): one
// string from the wasm, turned here into the object JSON.parse would give
// for serde's JSON: same keys, same order, optional fields absent.

const RS = "\u001e";
const US = "\u001f";
const LS = "\u001d";
const NONE = "\u001c";

const list = (text) => (text === "" ? [] : text.split(LS));

/** `SearchOutput` from the packed form, or from JSON (which starts with `{`). */
export function unpackSearch(text) {
  if (!text.startsWith(RS)) return JSON.parse(text);
  const f = text.split(US);
  const out = { results: [] };
  for (let i = 3; i + 9 < f.length; i += 10) {
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
    out.results.push(t);
  }
  if (f[1] === "1") out.nothingFits = true;
  if (f[2] !== NONE) out.hint = f[2];
  out.registryVersion = f[0].slice(RS.length);
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
