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

/**
 * Register one catalog file's tools as one provider; returns notes on the tools it namespaced. A tool whose
 * name the core refuses but would accept as `<provider>/<name>` (a name the runtime reserves for its own tools,
 * like `tool_search`) is kept under that namespace instead of refusing the whole catalog: the core's catalog
 * rule (`qualifyRefusedNames`), which also says what it renamed. A name the namespace does not fix still
 * refuses the catalog.
 */
export function registerFile(runtime, file, text, opts) {
  const { specs, renamed } = runtime.constructor.parseCatalogWithNotes(file, text, {
    ...opts,
    qualifyRefusedNames: true,
  });
  try {
    runtime.syncProvider(specs[0]?.provider?.id ?? basename(file), specs);
  } catch (e) {
    throw new CliError(describe(e, file));
  }
  return renamed.map((r) => `${basename(file)}: ${r.message}; ranked as \`${r.to}\``);
}

/** Register a ToolSpec array file (`*.tools.json`). */
export function registerSpecFile(runtime, file, text) {
  let specs;
  try {
    specs = JSON.parse(text);
  } catch (e) {
    throw new CliError(`${file}: not JSON: ${e.message}`);
  }
  try {
    runtime.registerTools(specs);
  } catch (e) {
    throw new CliError(describe(e, file));
  }
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
export function registerSingleFile(runtime, file, text) {
  if (isSpecFile(file)) return (registerSpecFile(runtime, file, text), { notes: [] });
  try {
    return { notes: registerFile(runtime, file, text) };
  } catch (e) {
    throw wrap(e, file);
  }
}

/**
 * Register one file of a catalog directory by the convention; returns {notes} (tools it
 * namespaced), or {skipped} for JSON that is not a catalog at all (an index, a manifest).
 */
export function registerDirectoryFile(runtime, file, text) {
  if (isSpecFile(file)) return (registerSpecFile(runtime, file, text), { notes: [] });
  let value;
  try {
    value = JSON.parse(text);
  } catch {
    value = undefined; // malformed: the core's parse error names the position
  }
  if (value !== undefined && !Array.isArray(value) && !(value && typeof value === "object" && "tools" in value)) {
    return { notes: [], skipped: `${basename(file)}: not a catalog (no tools array)` };
  }
  try {
    return {
      notes: registerFile(runtime, file, text, {
        providerId: basename(file).replace(/\.json$/, ""),
        qualifyNames: true,
      }),
    };
  } catch (e) {
    throw wrap(e, file);
  }
}
