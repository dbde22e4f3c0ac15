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
      if (!spec) throw new CliError(describe(e));
      if (refused.has(spec.name)) throw new CliError(describe(refused.get(spec.name)));
      const namespaced = `${spec.provider.id}/${spec.localName ?? spec.name}`;
      if (namespaced === spec.name) throw new CliError(describe(e));
      refused.set(namespaced, e);
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
    ? readdirSync(path)
        .filter((f) => f.endsWith(".json"))
        .sort()
        .map((f) => join(path, f))
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
      parsed = registerFile(
        runtime,
        file,
        text,
        st.isDirectory() ? { providerId: stem, qualifyNames: true } : undefined,
      );
    } catch (e) {
      throw e instanceof CliError ? e : new CliError(describe(e));
    }
    notes.push(...parsed);
    loaded += 1;
  }
  return { files: loaded, tools: runtime.size, skipped, notes };
}
