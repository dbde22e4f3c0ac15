// The one catalog loader for files (CLI, HolarynBench, `npm start`): a file
// (MCP tools/list result, bare tool array, or {tools} with
// inputSchema/input_schema) or a directory of such files, one provider per
// file named after it, names qualified as provider/name; `*.tools.json` files
// are ToolSpec arrays, registered after the catalogs (they may add tools to a
// provider a catalog re-lists). Parsing is the core's (`parseCatalog`).
import { readFileSync, readdirSync, statSync } from "node:fs";
import { basename, join } from "node:path";
import { CliError } from "./args.mjs";

export { CliError };

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
function registerFile(runtime, file, text, opts) {
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
function registerSpecFile(runtime, file, text) {
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

const isSpecFile = (f) => f.endsWith(".tools.json");

/** Register a catalog file or directory into `runtime`; returns {files, tools, skipped, notes}. */
export function loadCatalog(runtime, path) {
  let st;
  try {
    st = statSync(path);
  } catch {
    throw new CliError(`catalog not found: ${path}`);
  }
  const names = st.isDirectory() ? readdirSync(path).filter((f) => f.endsWith(".json")).sort() : [path];
  // ToolSpec files last: a catalog file replaces every tool of its provider.
  const files = [...names.filter((f) => !isSpecFile(f)), ...names.filter(isSpecFile)].map((f) => (st.isDirectory() ? join(path, f) : f));
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
    if (isSpecFile(file)) {
      registerSpecFile(runtime, file, text);
      loaded += 1;
      continue;
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
    const stem = basename(file).replace(/\.json$/, "");
    let parsed;
    try {
      parsed = registerFile(
        runtime,
        file,
        text,
        st.isDirectory() ? { providerId: stem, qualifyNames: true } : undefined,
      );
    } catch (e) {
      throw e instanceof CliError ? e : new CliError(describe(e, file));
    }
    notes.push(...parsed);
    loaded += 1;
  }
  return { files: loaded, tools: runtime.size, skipped, notes };
}
