// The one catalog loader for files (CLI, HolarynBench, `npm start`): a file
// (MCP tools/list result, bare tool array, or {tools} with
// inputSchema/input_schema) or a directory of such files by the convention in
// catalog-rule.mjs. Parsing is the core's (`parseCatalog`).
import { readFileSync, readdirSync, statSync } from "node:fs";
import { join } from "node:path";
import { CliError } from "./error.mjs";
import { describe, directoryOrder, registerDirectoryFile, registerSingleFile } from "./catalog-rule.mjs";

export { CliError, describe };

/**
 * Register a catalog file or directory into `runtime`; returns {files, tools, skipped, notes}. One bad tool
 * never costs the others: a tool the core refuses is skipped (a line in `skipped`: file, tool, code,
 * pointer), and in a directory a file that cannot be read or parsed is skipped too; the rest register. With
 * `strict`, the first of those refuses the whole catalog (CliError). When tools were skipped and none
 * registered, that is a CliError too. Tools whose input schema is read in an older draft are noted.
 */
export function loadCatalog(runtime, path, { strict = false } = {}) {
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
    let r;
    try {
      const text = readFileSync(file, "utf8");
      r = dir ? registerDirectoryFile(runtime, file, text, strict) : registerSingleFile(runtime, file, text, strict);
    } catch (e) {
      const err = e instanceof CliError ? e : new CliError(`${file}: cannot read: ${e.code ?? e.message}`);
      if (strict || !dir) throw err;
      skipped.push(err.message);
      continue;
    }
    if (r.ignored) skipped.push(r.ignored);
    else loaded += 1;
    skipped.push(...r.skipped);
    notes.push(...r.notes);
  }
  if (runtime.size === 0 && skipped.length && !skipped.every((s) => s.endsWith("(no tools array)"))) {
    throw new CliError(`no tool registered from ${path}: ${skipped[0]}`);
  }
  for (const t of runtime.tools()) {
    if (t.dialect) notes.push(`tool \`${t.name}\`: input schema read as ${t.dialect.draft} (${t.dialect.reason})`);
  }
  return { files: loaded, tools: runtime.size, skipped, notes };
}
