// The one catalog loader for files (CLI, HolarynBench, `npm start`): a file
// (MCP tools/list result, bare tool array, or {tools} with
// inputSchema/input_schema) or a directory of such files by the convention in
// catalog-rule.mjs. Parsing is the core's (`parseCatalog`).
import { readFileSync, readdirSync, statSync } from "node:fs";
import { join } from "node:path";
import { CliError } from "./error.mjs";
import { describe, directoryOrder, registerDirectoryFile, registerSingleFile } from "./catalog-rule.mjs";

export { CliError, describe };

/** Register a catalog file or directory into `runtime`; returns {files, tools, skipped, notes}. */
export function loadCatalog(runtime, path) {
  let st;
  try {
    st = statSync(path);
  } catch {
    throw new CliError(`catalog not found: ${path}`);
  }
  const dir = st.isDirectory();
  const files = dir ? directoryOrder(readdirSync(path)).map((f) => join(path, f)) : [path];
  const skipped = [];
  const notes = [];
  let loaded = 0;
  for (const file of files) {
    let text;
    try {
      text = readFileSync(file, "utf8");
    } catch (e) {
      throw new CliError(`${file}: cannot read: ${e.code ?? e.message}`);
    }
    const r = dir ? registerDirectoryFile(runtime, file, text) : registerSingleFile(runtime, file, text);
    if (r.skipped) skipped.push(r.skipped);
    notes.push(...r.notes);
    if (!r.skipped) loaded += 1;
  }
  return { files: loaded, tools: runtime.size, skipped, notes };
}
