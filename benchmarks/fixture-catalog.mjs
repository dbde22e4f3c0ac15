// The benchmarks' catalog: the MCP fixture tools, multiplied to size.
import { readFileSync, readdirSync } from "node:fs";
import { join, dirname } from "node:path";
import { fileURLToPath } from "node:url";

const fixtures = join(dirname(fileURLToPath(import.meta.url)), "../tests/fixtures/mcp");

/** Every fixture tool, names qualified by provider (parsed by the package's own parser). */
export function baseSpecs(HolarynRuntime) {
  const specs = [];
  for (const f of readdirSync(fixtures)
    .filter((f) => f.endsWith(".json"))
    .sort()) {
    const provider = f.replace(/\.json$/, "");
    specs.push(
      ...HolarynRuntime.parseCatalog(f, readFileSync(join(fixtures, f), "utf8"), {
        providerId: provider,
        qualifyNames: true,
      }),
    );
  }
  return specs;
}

/**
 * `n` tools: the base tools, then copies under provider `…_vK`, renamed
 * `provider_vK/name` (a qualified name must read as its own provider's).
 */
export function catalog(base, n) {
  const out = [];
  for (let i = 0; out.length < n; i++) {
    const t = base[i % base.length];
    const copy = Math.floor(i / base.length);
    if (copy === 0) {
      out.push(t);
      continue;
    }
    const id = `${t.provider.id}_v${copy}`;
    const prefix = `${t.provider.id}/`;
    const name = t.name.startsWith(prefix) ? `${id}/${t.name.slice(prefix.length)}` : `${t.name}_v${copy}`;
    out.push({ ...t, name, provider: { ...t.provider, id } });
  }
  return out;
}

/** Schema property names and descriptions as text (what MiniSearch indexes for the schema field). */
export function schemaText(schema, depth = 0) {
  if (!schema || typeof schema !== "object" || depth > 3) return "";
  return Object.entries(schema.properties ?? {})
    .map(([k, v]) => `${k} ${typeof v?.description === "string" ? v.description : ""} ${schemaText(v, depth + 1)}`)
    .join(" ");
}

/** The MiniSearch the benchmarks compare with: the fields tool_search reads, name and title boosted. */
export const MINISEARCH_OPTIONS = {
  fields: ["name", "title", "description", "schema", "permissions", "provider", "source"],
  storeFields: ["name"],
  searchOptions: { boost: { name: 3, title: 2 }, prefix: true },
};

/** One tool as a MiniSearch document with id `id` (the fields of MINISEARCH_OPTIONS). */
export function miniDoc(t, id) {
  return {
    id,
    name: t.name.replace(/[_\-/.]/g, " "),
    title: t.title ?? "",
    description: t.description ?? "",
    schema: schemaText(t.inputSchema),
    permissions: (t.permissions ?? []).join(" "),
    provider: t.provider.id,
    source: t.source,
  };
}
