// The catalog-directory convention, once, without IO (the CLI's file loader
// and the browser demo's fetch loader both use it): one provider per file named
// after it, names qualified as provider/name; `*.tools.json` files are
// ToolSpec arrays, registered after the catalogs (they may add tools to a
// provider a catalog re-lists). Parsing is the core's (`parseCatalog`).
import { CliError } from "./error.mjs";

const basename = (file) => file.slice(file.replace(/\\/g, "/").lastIndexOf("/") + 1);

/** One line for a core error, naming the file and, when known, the tool and field. */
export function describe(err, file) {
  const f = err.file ?? file;
  const where = [
    f,
    err.tool ? `tool \`${err.tool}\`${err.field ? ` (${err.field})` : ""}` : "",
    err.pointer ? `at ${err.pointer}` : "",
    err.line ? `line ${err.line}:${err.column}` : "",
  ]
    .filter(Boolean)
    .join(" ");
  return `${where ? `${where}: ` : ""}${err.detail ?? err.message} (${err.code ?? "error"})`;
}

/** One line for a tool the core skipped: file, tool, code, pointer (or field) and why. */
export function describeSkipped(t, file) {
  const at = t.pointer ? ` at ${t.pointer}` : "";
  const field = t.field ? ` (${t.field}${at})` : at;
  return `${basename(file)}: tool \`${t.name}\`${field}: ${t.message} (${t.code})`;
}

/**
 * Register one catalog file's tools as one provider's re-list (`syncCatalog`): each tool the core refuses is
 * skipped (a line in `skipped`) while the rest register. A tool whose name the core refuses but would accept
 * as `<provider>/<name>` (a name the runtime reserves for its own tools, like `tool_search`) is kept under
 * that namespace (the core's catalog rule, `qualifyRefusedNames`), noted in `notes`. With `strict`, the
 * first skipped tool refuses the file (CliError). Returns {notes, skipped: string[]}.
 */
export function registerFile(runtime, file, text, opts, strict = false) {
  let sync;
  try {
    sync = runtime.syncCatalog(file, text, { ...opts, qualifyRefusedNames: true });
  } catch (e) {
    throw new CliError(describe(e, file));
  }
  const skipped = sync.skipped.map((t) => describeSkipped(t, file));
  if (strict && skipped.length) throw new CliError(`${skipped[0]} (--strict: every tool must register)`);
  const notes = (sync.renamed ?? []).map((r) => `${basename(file)}: ${r.message}; ranked as \`${r.to}\``);
  return { notes, skipped };
}

/**
 * Register a ToolSpec array file (`*.tools.json`): all at once (`registerTools`, all-or-nothing); when that is
 * refused and not `strict`, one tool at a time, each refused one a line in `skipped`. Returns {notes, skipped}.
 */
export function registerSpecFile(runtime, file, text, strict = false) {
  let specs;
  try {
    specs = JSON.parse(text);
  } catch (e) {
    throw new CliError(`${file}: not JSON: ${e.message}`);
  }
  try {
    runtime.registerTools(specs);
    return { notes: [], skipped: [] };
  } catch (e) {
    if (strict || !Array.isArray(specs)) throw new CliError(describe(e, file));
  }
  const skipped = [];
  for (const spec of specs) {
    try {
      runtime.registerTools([spec]);
    } catch (e) {
      skipped.push(describe(e, basename(file)));
    }
  }
  return { notes: [], skipped };
}

/** A ToolSpec array file (`*.tools.json`) rather than an MCP catalog. */
export const isSpecFile = (f) => f.endsWith(".tools.json");

/** Registration order of a directory's `*.json` names: catalogs sorted, then ToolSpec files sorted. */
export function directoryOrder(names) {
  const json = names.filter((f) => f.endsWith(".json")).sort();
  return [...json.filter((f) => !isSpecFile(f)), ...json.filter(isSpecFile)];
}

const wrap = (e, file) => (e instanceof CliError ? e : new CliError(describe(e, file)));

/** Register a single catalog file (not in a directory): its provider is its `server` field or its name. */
export function registerSingleFile(runtime, file, text, strict = false) {
  if (isSpecFile(file)) return registerSpecFile(runtime, file, text, strict);
  try {
    return registerFile(runtime, file, text, {}, strict);
  } catch (e) {
    throw wrap(e, file);
  }
}

/**
 * Register one file of a catalog directory by the convention; returns {notes} (tools it namespaced) and
 * {skipped} (lines: the tools it skipped), or {ignored} for JSON that is not a catalog at all (an index, a
 * manifest). A file that is no JSON or no catalog shape refuses only itself (CliError; the caller decides).
 */
export function registerDirectoryFile(runtime, file, text, strict = false) {
  if (isSpecFile(file)) return registerSpecFile(runtime, file, text, strict);
  let value;
  try {
    value = JSON.parse(text);
  } catch {
    value = undefined; // malformed: the core's parse error names the position
  }
  if (value !== undefined && !Array.isArray(value) && !(value && typeof value === "object" && "tools" in value)) {
    return { notes: [], skipped: [], ignored: `${basename(file)}: not a catalog (no tools array)` };
  }
  try {
    const opts = { providerId: basename(file).replace(/\.json$/, ""), qualifyNames: true };
    return registerFile(runtime, file, text, opts, strict);
  } catch (e) {
    throw wrap(e, file);
  }
}
