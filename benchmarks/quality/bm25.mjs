// The plain BM25 baseline printed beside tool_search: MiniSearch (BM25+
// scoring) over name + description only, terms OR-ed, no boosts, no prefix or
// fuzzy matching. Names are split at _ - / . and camelCase so that
// `linear/linear_createIssue` is the words "linear linear create issue".
import MiniSearch from "minisearch";

const words = (name) => name.replace(/([a-z0-9])([A-Z])/g, "$1 $2").replace(/[_\-/.]+/g, " ");

/** A search engine over the same catalog; answers "nothing fits" only when no term matches. */
export function bm25Baseline({ mcp, native }) {
  const docs = [];
  for (const f of mcp) {
    for (const t of JSON.parse(f.text).tools)
      docs.push({ name: `${f.provider}/${t.name}`, description: t.description ?? "" });
  }
  for (const t of JSON.parse(native)) docs.push({ name: t.name, description: t.description ?? "" });
  const mini = new MiniSearch({ fields: ["words", "description"], storeFields: ["name"], idField: "id" });
  mini.addAll(docs.map((d, id) => ({ id, name: d.name, words: words(d.name), description: d.description })));
  return {
    tools: docs.length,
    search(query) {
      const ranked = mini
        .search(query, { combineWith: "OR" })
        .slice(0, 8)
        .map((r) => r.name);
      return { ranked, nothingFits: ranked.length === 0 };
    },
  };
}
