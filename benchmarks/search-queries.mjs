// The requests the tool_search speed benchmarks time (search-speed.mjs, search-ab.mjs),
// read from search-queries.json, the one list the native examples
// (core/examples/search_profile.rs, search_dump.rs) read too.
import { readFileSync } from "node:fs";

export const QUERIES = JSON.parse(readFileSync(new URL("./search-queries.json", import.meta.url), "utf8"));
