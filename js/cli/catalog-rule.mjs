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

// Codes under which the core refuses a tool's name. A refused name that the
// provider-qualified form `<provider>/<name>` makes acceptable (a name the
// runtime reserves for its own tools, like `tool_search`) is kept under that
// namespace, with a note, instead of refusing the whole catalog. Which names
// are refused is the core's rule: the CLI only retries what the core refused,
// and a name the namespace does not fix still refuses the catalog.
const NAME_REFUSALS = new Set(["descriptor.invalid_name", "descriptor.reserved_name"]);

/** Register one catalog file's tools as one provider; returns notes on the tools it namespaced. */
export function registerFile(runtime, file, text, opts) {
  const specs = runtime.constructor.parseCatalog(file, text, opts ?? {});
  const refused = new Map(); // namespaced name -> the core's refusal of the original
  for (;;) {
    try {
      runtime.syncProvider(specs[0]?.provider?.id ?? basename(file), specs);
      return [...refused].map(([to, e]) => `${basename(file)}: ${e.detail ?? e.message}; ranked as \`${to}\``);
    } catch (e) {
      const spec = NAME_REFUSALS.has(e.code) && e.field === "name" ? specs.find((s) => s.name === e.tool) : undefined;
      if (!spec) throw new CliError(describe(e, file));
      if (refused.has(spec.name)) throw new CliError(describe(refused.get(spec.name), file));
      const namespaced = `${spec.provider.id}/${spec.localName ?? spec.name}`;
      if (namespaced === spec.name) throw new CliError(describe(e, file));
      refused.set(namespaced, e);
      spec.name = namespaced;
    }
  }
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
