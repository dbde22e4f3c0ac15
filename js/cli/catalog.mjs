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

// Codes under which the core refuses a tool name; a refused name that the
// provider-qualified form `<file-stem>/<name>` makes acceptable (a name
// reserved for the runtime's own tools, like `tool_search`) is kept under that
// namespace instead of refusing the whole catalog. Which names are reserved is
// the core's rule: the CLI only retries what the core refused.
const NAME_REFUSALS = new Set(["descriptor.invalid_name", "descriptor.reserved_name"]);

/** Register one catalog file's tools as one provider; returns notes on renamed tools. */
function registerFile(runtime, file, text, opts, stem) {
  const specs = runtime.constructor.parseCatalog(file, text, opts ?? {});
  const provider = specs[0]?.provider?.id ?? stem;
  const renamed = new Map();
  for (;;) {
    try {
      runtime.syncProvider(provider, specs);
      return [...renamed].map(([from, to]) => `${basename(file)}: \`${from}\` is reserved; ranked as \`${to}\``);
    } catch (e) {
      const spec = NAME_REFUSALS.has(e.code) && e.field === "name" ? specs.find((s) => s.name === e.tool) : undefined;
      const namespaced = spec && `${stem}/${spec.localName ?? spec.name}`;
      if (!spec || namespaced === spec.name || renamed.has(spec.name)) throw new CliError(describe(e));
      renamed.set(spec.name, namespaced);
      spec.name = namespaced;
    }
  }
}

/** Register a catalog file or directory into `runtime`; returns {files, tools, skipped, notes}. */
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
  const notes = [];
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
    const stem = basename(file).replace(/\.json$/, "");
    let parsed;
    try {
      parsed = registerFile(runtime, file, text, st.isDirectory() ? { providerId: stem, qualifyNames: true } : undefined, stem);
    } catch (e) {
      throw e instanceof CliError ? e : new CliError(describe(e));
    }
    notes.push(...parsed);
    loaded += 1;
  }
  return { files: loaded, tools: runtime.size, skipped, notes };
}
