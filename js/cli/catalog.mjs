// Catalog loading for the CLI: a file (MCP tools/list result, bare tool array,
// or {tools} with inputSchema/input_schema) or a directory of such files, one
// provider per file, names qualified as provider/name.
import { readFileSync, readdirSync, statSync } from "node:fs";
import { basename, join } from "node:path";

export class CliError extends Error {
  constructor(message, exitCode = 2) {
    super(message);
    this.name = "CliError";
    this.exitCode = exitCode;
  }
}

function describe(err) {
  const where = [err.file, err.pointer ? `at ${err.pointer}` : "", err.line ? `line ${err.line}:${err.column}` : ""]
    .filter(Boolean)
    .join(" ");
  return `${where ? where + ": " : ""}${err.detail ?? err.message} (${err.code ?? "error"})`;
}

/** Register a catalog file or directory into `runtime`; returns {files, tools, skipped}. */
export function loadCatalog(runtime, path) {
  let st;
  try {
    st = statSync(path);
  } catch {
    throw new CliError(`catalog not found: ${path}`);
  }
  const files = st.isDirectory()
    ? readdirSync(path).filter((f) => f.endsWith(".json")).sort().map((f) => join(path, f))
    : [path];
  const skipped = [];
  let loaded = 0;
  for (const file of files) {
    let text;
    try {
      text = readFileSync(file, "utf8");
    } catch (e) {
      throw new CliError(`${file}: cannot read: ${e.message}`);
    }
    if (st.isDirectory()) {
      // In a directory, JSON files that are not catalogs at all (an index, a
      // manifest) are skipped with a note; malformed catalogs are errors.
      let value;
      try {
        value = JSON.parse(text);
      } catch {
        value = undefined;
      }
      if (value !== undefined && !Array.isArray(value) && !(value && typeof value === "object" && "tools" in value)) {
        skipped.push(`${basename(file)}: not a catalog (no tools array)`);
        continue;
      }
    }
    const provider = basename(file).replace(/\.json$/, "");
    try {
      runtime.registerCatalog(file, text, st.isDirectory() ? { providerId: provider, qualifyNames: true } : undefined);
    } catch (e) {
      throw new CliError(describe(e));
    }
    loaded += 1;
  }
  return { files: loaded, tools: runtime.size, skipped };
}
