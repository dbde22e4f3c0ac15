// The packed wire form of tool_search output (see wasm/src/wire.rs): one
// string from the wasm, turned here into the object JSON.parse would give
// for serde's JSON: same keys, same order, optional fields absent. The
// separators and the field readers are generated from wasm/src/wire.rs
// (wire-fields.mjs).
import { answer, HEAD_FIELDS, RESULT_FIELDS, result, RS, US } from "./wire-fields.mjs";

/** `SearchOutput` from the packed form, or from JSON (which starts with `{`). */
export function unpackSearch(text) {
  if (!text.startsWith(RS)) return JSON.parse(text);
  const f = text.slice(RS.length).split(US);
  const results = [];
  for (let i = HEAD_FIELDS; i + RESULT_FIELDS <= f.length; i += RESULT_FIELDS) results.push(result(f, i));
  return answer(f, results);
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
  const byQuery = proto.__searchQueryPacked;
  if (typeof packed !== "function" || typeof packedAsync !== "function") return;
  Object.defineProperty(proto, "__searchJson", { value: proto.search, configurable: true });
  Object.defineProperty(proto, "__searchAsyncJson", { value: proto.searchAsync, configurable: true });
  proto.search = function search(input) {
    // The common input, a plain `{ query }` with well-formed text, goes as the
    // text alone (the wasm reads the same value; no JSON text round trip).
    if (typeof byQuery === "function" && onlyQuery(input)) return unpackSearch(byQuery.call(this, input.query));
    return unpackSearch(packed.call(this, input));
  };
  proto.searchAsync = function searchAsync(input) {
    return packedAsync.call(this, input).then(unpackSearch);
  };
}

/**
 * True for a plain object whose one enumerable own key is `query`, a string
 * without lone surrogates: `JSON.stringify` of it is `{"query": …}` of that
 * text exactly (anything else goes as JSON text, as before).
 */
function onlyQuery(input) {
  if (input === null || typeof input !== "object" || Object.getPrototypeOf(input) !== Object.prototype) return false;
  const query = input.query;
  if (typeof query !== "string" || typeof query.isWellFormed !== "function" || !query.isWellFormed()) return false;
  let keys = 0;
  for (const key in input) {
    if (key !== "query" || ++keys > 1) return false;
  }
  return keys === 1;
}
