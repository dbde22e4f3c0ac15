// Real values from the built package (dist/), written as TypeScript that must
// `satisfies` the declared types: tests/types/generated/samples.ts. tsc then
// fails when a serde shape and its .d.ts type drift apart (a missing required
// field, a field the type does not declare, a string outside its union). Run by
// scripts/typecheck.sh after `npm run build`; the samples are regenerated every
// run, so there is nothing to keep in sync by hand.
import { mkdirSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { HolarynError, HolarynRuntime } from "holaryn";
import { checkGatewayConfig } from "../js/gateway/config.mjs";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const samples = [];
/** Record `value` as a sample of the TypeScript type `type`. */
const sample = (type, value) => samples.push({ type, value });
const errorOf = (fn) => {
  try {
    fn();
  } catch (e) {
    if (!(e instanceof HolarynError)) throw e;
    return Object.fromEntries(["name", "code", "message", ...Object.keys(e)].map((k) => [k, e[k]]));
  }
  throw new Error("expected a HolarynError");
};

const provider = { id: "host", kind: "native", displayName: "Host", version: "1.0", origin: "local" };
const tool = (name, extra = {}) => ({
  name,
  title: `Tool ${name}`,
  description: `The ${name} tool`,
  aliases: [`${name}_alias`],
  source: "native",
  provider,
  localName: name,
  trust: "trusted",
  permissions: ["fs.read"],
  inputSchema: {
    type: "object",
    properties: { path: { type: "string" } },
    required: ["path"],
    additionalProperties: false,
  },
  outputSchema: { type: "object", properties: { text: { type: "string" } } },
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  visibility: "model_visible",
  invokability: "callable",
  approval: "auto",
  timeoutMs: 5000,
  role: "ordinary",
  usage: "Call with a path.",
  ...extra,
});
const secret = Uint8Array.from({ length: 32 }, (_, i) => i);

const rt = new HolarynRuntime({ activityCapacity: 256 });
const events = [];
rt.addEventListener((e) => events.push(e));
sample("T.RegistryChange | null", rt.registerTools([tool("read_file"), tool("delete_file", { approval: "ask" })]));
rt.registerTools([{ name: "loose", source: "mcp", provider: { id: "gh" }, inputSchema: null }]);
sample(
  "T.ToolSpec[]",
  HolarynRuntime.parseCatalog("gh.json", JSON.stringify({ tools: [{ name: "x", inputSchema: { type: "object" } }] }), {
    providerId: "gh",
  }),
);
sample(
  "T.ParsedCatalog",
  HolarynRuntime.parseCatalogWithNotes(
    "bench.json",
    JSON.stringify({ tools: [{ name: "tool_search" }, { name: "x", inputSchema: { type: "object" } }] }),
    { qualifyRefusedNames: true },
  ),
);
sample(
  "T.GatewayConfig",
  checkGatewayConfig(
    JSON.stringify({
      mcpServers: {
        fs: { command: "npx", args: ["-y", "x"], env: { A: "1" }, cwd: "sub" },
        web: { url: "http://127.0.0.1:9/mcp", headers: { Authorization: "Bearer t" } },
        off: { disabled: true },
      },
      holaryn: {
        boundedCodeMode: true,
        policyFile: "p.json",
        rules: { deny: ["fs/*"] },
        profileAllowedTools: ["*"],
        hiddenProviders: ["web"],
        approvalFallback: "allow",
        activityFile: "a.jsonl",
        qualifyNames: true,
        callTimeoutMs: 1000,
        callbackTimeoutMs: 2000,
      },
    }),
    "mcp.json",
  ),
);
sample("T.ToolDescriptor[]", rt.tools());
// A re-list that skips a malformed tool and an entry that is no tool (rows and records below show them too).
sample(
  "T.ProviderSync",
  rt.syncCatalog(
    "srv",
    JSON.stringify({
      serverInfo: { name: "srv", version: "2" },
      tools: [{ name: "ok_tool" }, { name: "bad name" }, 7],
    }),
    { providerId: "srv", qualifyNames: true },
  ),
);

const s = rt.createSession(
  {
    dynamicDiscovery: true,
    boundedCodeMode: true,
    rules: { deny: ["nothing_by_this_name", "tool_search"] },
    profileAllowedTools: ["*"],
    hiddenProviders: ["ghost"],
  },
  secret,
);
sample("T.CodeLimits", s.codeLimits);
sample("T.SearchOutput", s.search({ query: "read a file" }));
sample("T.SearchOutput", s.search({ query: "zzqx unrelated words" }));
sample("T.ListOutput", s.list({ limit: 1 }));
sample("T.InspectOutput", s.inspect({ name: "read_file" }));
sample("T.InspectOutput", s.inspect({ name: "delete_file" }));
sample("T.ModelTool[]", s.modelTools());
sample("T.Footprint", s.footprint());
sample("T.CapabilityRow[]", s.capabilityTable());
sample("T.PolicyWarning[]", s.policyWarnings());

const host = {
  execute: async (req) => (req.tool === "delete_file" ? { deleted: req.args } : { text: "hello" }),
  approve: async (req) => req.tool !== "delete_file",
};
const handle = s.inspect({ name: "read_file" }).handle;
sample("T.CallOutcome", await s.call(handle, { path: "a" }, host));
sample("T.CallOutcome", await s.call("read_file", { path: 3 }, host));
sample("T.CallOutcome", await s.call("delete_file", { path: "a" }, host));
sample("T.CallOutcome", await s.call("run_tool_code", { code: `call("${handle}", {"path": "a"})` }, host));
sample("T.ToolResult", await s.dispatch("tool_search", { query: "read" }, host));
sample("T.ToolResult", await s.dispatch(handle, { path: "a" }, host));

const calls = {
  anthropic: { type: "tool_use", id: "tu_1", name: "tool_search", input: { query: "read" } },
  openai_chat: { id: "call_1", type: "function", function: { name: "tool_search", arguments: '{"query":"read"}' } },
  openai_responses: { type: "function_call", call_id: "call_1", name: "tool_search", arguments: '{"query":"read"}' },
  mcp: { name: "tool_search", arguments: { query: "read" } },
};
for (const [format, call] of Object.entries(calls)) {
  sample(`T.ToolExport<"${format}">`, s.exportTools(format));
  sample(`T.ModelFormats["${format}"]["result"]`, await s.dispatchModelCall(format, call, host));
}

rt.setEmbedder({ model: "m", dimensions: 2, embed: async (texts) => texts.map((_, i) => [1, i]) });
sample("T.EmbeddingStats", await rt.prepareEmbeddings());
sample("T.EmbeddingsExport", rt.exportEmbeddings({ encoding: "i8" }));
sample("T.ActivityRecord[]", rt.activity());
rt.setProviderStatus("host", "disconnected");
sample("T.HolarynEvent[]", events);

sample(
  "Partial<T.HolarynError>",
  errorOf(() => s.setProjectPolicy({ path: ".holaryn/tool-policy.json", text: "{ bad" })),
);
sample(
  "Partial<T.HolarynError>",
  errorOf(() => rt.registerTools([tool("bad", { inputSchema: { pattern: "(" } })])),
);
sample(
  "Partial<T.HolarynError>",
  errorOf(() => s.inspect({ name: "no_such_tool" })),
);

const body = samples.map(
  ({ type, value }, i) => `export const sample${i} = ${JSON.stringify(value, null, 1)} satisfies ${type};`,
);
const out = join(root, "tests/types/generated/samples.ts");
mkdirSync(dirname(out), { recursive: true });
writeFileSync(
  out,
  `// Generated by scripts/type-samples.mjs from the built package; do not edit.\nimport type * as T from "holaryn";\n${body.join("\n")}\n`,
);
console.log(`type-samples: ${samples.length} values -> ${out}`);
