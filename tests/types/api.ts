// Every export of "holaryn" used as a user would, under --strict: optional arguments omitted,
// every public type named. Compiled by scripts/typecheck.sh (bundler and node16), never run.
import {
  CatalogError,
  CodeError,
  ConfigError,
  DescriptorError,
  HandleError,
  HolarynError,
  HolarynRuntime,
  HolarynSession,
  InputError,
  PolicyError,
  SessionError,
  SnapshotError,
  ToolError,
  expose,
  init,
  typed,
} from "holaryn";
import type * as H from "holaryn";
import type * as M from "holaryn/mcp";
import type {
  ActivityKind,
  ActivityRecord,
  Annotations,
  ApprovalDecision,
  ApprovalMode,
  ApprovalRequest,
  ArgError,
  Availability,
  AvailabilityState,
  CallInfo,
  CallOutcome,
  CallPath,
  CallStatus,
  CapabilityRow,
  CatalogChange,
  CatalogOptions,
  CodeLimits,
  EmbeddingEncoding,
  EmbeddingStats,
  EmbeddingsExport,
  ExecuteRequest,
  Footprint,
  GateStage,
  HolarynBindings,
  HolarynEvent,
  HookDecision,
  HookRequest,
  Host,
  HostEmbedder,
  InspectInput,
  InspectOutput,
  Invokability,
  JsonSchema,
  JsonValue,
  ListInput,
  ListOutput,
  ModelFormat,
  ModelFormats,
  ModelTool,
  PolicyFile,
  PolicyRules,
  PolicyScope,
  PolicyWarning,
  Provenance,
  Provider,
  ProviderStatus,
  ProviderSync,
  RegistryChange,
  RegistryChangedEvent,
  RuntimeOptions,
  ScreenDecision,
  ScreenRequest,
  SearchInput,
  SearchOutput,
  SessionOptions,
  SkippedTool,
  Source,
  ToolDescriptor,
  ToolExport,
  ToolResult,
  ToolRole,
  ToolSpec,
  ToolSummary,
  Trust,
  Visibility,
} from "holaryn";

const provider: Provider = { id: "host", kind: "native", displayName: "Host" };
const annotations: Annotations = { readOnlyHint: true };
const schema: JsonSchema = { type: "object", properties: { path: { type: "string" } }, required: ["path"] };
const source: Source = "native";
const trust: Trust = "trusted";
const visibility: Visibility = "model_visible";
const invokability: Invokability = "callable";
const approval: ApprovalMode = "auto";
const role: ToolRole = "ordinary";
const spec: ToolSpec = {
  name: "read_file",
  source,
  provider,
  inputSchema: schema,
  annotations,
  trust,
  visibility,
  invokability,
  approval,
  role,
};

export async function everything(): Promise<void> {
  await init();
  const options: RuntimeOptions = { activityCapacity: 64, requireInputSchema: true };
  const bare = new HolarynRuntime();
  const rt = new HolarynRuntime(options);
  const kept: Uint8Array = rt.snapshot();
  let back: HolarynRuntime;
  try {
    back = HolarynRuntime.restore(kept, { activityCapacity: 64 });
  } catch (e) {
    if (!(e instanceof SnapshotError)) throw e;
    const code: H.OutcomeCode = "snapshot.refused";
    void [code, e.code];
    back = new HolarynRuntime(options);
  }
  void back.version;
  const change: RegistryChange | null = rt.registerTools([spec]);
  const catalog: CatalogOptions = { providerId: "github", qualifyNames: true, source: "mcp", trust: "untrusted" };
  rt.registerCatalog("github.json", '{"tools": []}', catalog);
  const registered: CatalogChange | null = rt.registerCatalog("github.json", '{"tools": []}');
  const registeredSkipped: SkippedTool[] = registered?.skipped ?? [];
  const stillAChange: RegistryChange | null = registered;
  const specs: ToolSpec[] = HolarynRuntime.parseCatalog("github.json", '{"tools": []}');
  const relisted: CatalogChange | null = rt.syncProvider("github", specs);
  const relistedNames: string[] = (relisted?.skipped ?? []).map((x) => x.name);
  void [registeredSkipped, stillAChange, relistedNames];
  const synced: ProviderSync = rt.syncCatalog("github", '{"tools": []}', catalog);
  const skipped: SkippedTool[] = synced.skipped;
  const skippedCode: H.OutcomeCode[] = skipped.map((x) => x.code);
  const removed: RegistryChange | null = rt.removeProvider("github");
  rt.removeTools(["read_file"]);
  const status: ProviderStatus = "needs_auth";
  rt.setProviderStatus("github", status);
  const version: string = rt.version;
  const size: number = rt.size;
  const described: ToolDescriptor | undefined = rt.describe("read_file");
  const all: ToolDescriptor[] = rt.tools();
  const listener = (event: HolarynEvent) => {
    if (event.type === "tool_registry_changed") {
      const e: RegistryChangedEvent = event;
      void e.newVersion;
    } else {
      const record: ActivityRecord = event;
      const kind: ActivityKind = record.kind;
      const provenance: Provenance | undefined = record.provenance;
      void [kind, provenance];
    }
  };
  rt.addEventListener(listener);
  rt.removeEventListener(listener);
  const records: ActivityRecord[] = rt.activity();
  rt.activity(3);

  const embedder: HostEmbedder = { model: "m", dimensions: 2, embed: async (texts) => texts.map(() => [0, 1]) };
  rt.setEmbedder(embedder);
  const stats: EmbeddingStats = await rt.prepareEmbeddings();
  const encoding: EmbeddingEncoding = "i8";
  const exported: EmbeddingsExport = rt.exportEmbeddings();
  rt.exportEmbeddings({ encoding });
  const imported: number = rt.importEmbeddings(exported);
  rt.setEmbedder(null);

  const limits: Partial<CodeLimits> = { maxCalls: 4 };
  const rules: PolicyRules = { allow: ["*"], deny: ["github/*"] };
  const file: PolicyFile = { path: ".holaryn/tool-policy.json", text: "{}" };
  const sessionOptions: SessionOptions = {
    dynamicDiscovery: true,
    boundedCodeMode: true,
    codeLimits: limits,
    rules,
    projectPolicy: file,
    callbackTimeoutMs: 1000,
  };
  const plain: HolarynSession = rt.createSession();
  const session = rt.createSession(sessionOptions, new Uint8Array(32));
  const id: string = session.id;
  const flags: boolean[] = [session.dynamicDiscovery, session.boundedCodeMode];
  const inForce: CodeLimits = session.codeLimits;

  const state: AvailabilityState = "loaded";
  const searchInput: SearchInput = { query: "read a file", alternatives: ["open a file"], limit: 8, state };
  const found: SearchOutput = session.search(searchInput);
  const foundAsync: SearchOutput = await session.searchAsync({ query: "read" });
  const summary: ToolSummary | undefined = found.results[0];
  const listInput: ListInput = { state: "available", limit: 10 };
  const page: ListOutput = session.list(listInput);
  const firstPage: ListOutput = session.list();
  const inspectInput: InspectInput = { name: "read_file" };
  const inspected: InspectOutput = session.inspect(inspectInput);
  const availability: Availability = inspected.availability;
  const scope: PolicyScope | null | undefined = availability.scope;
  const tools: ModelTool[] = session.modelTools();
  const footprint: Footprint = session.footprint();
  const rows: CapabilityRow[] = session.capabilityTable();
  const warnings: PolicyWarning[] = session.policyWarnings();
  session.setRules(rules);
  session.setProjectPolicy(file);
  session.setProjectPolicy(null);

  const approve = async (req: ApprovalRequest): Promise<ApprovalDecision> => req.reason !== "destructive";
  const hook = (req: HookRequest): HookDecision => (req.phase === "before" ? { decision: "continue" } : undefined);
  const screen = (req: ScreenRequest): ScreenDecision =>
    req.output === null ? { decision: "block", reason: "empty" } : { decision: "pass" };
  const execute = async (req: ExecuteRequest): Promise<JsonValue> => {
    const info: CallInfo = req;
    return { tool: info.tool, args: req.args, aborted: req.signal.aborted };
  };
  const host: Host = { execute, approve, hook, screen, signal: new AbortController().signal, now: () => Date.now() };
  session.setHost(host);
  const outcome: CallOutcome = await session.call(inspected.handle ?? inspected.name, { path: "a" });
  await session.call("read_file", { path: "a" }, host);
  const callStatus: CallStatus = outcome.status;
  const stage: GateStage = outcome.stage;
  const path: CallPath = outcome.path;
  const errors: ArgError[] | undefined = outcome.errors;
  const result: ToolResult = await session.dispatch("tool_search", { query: "x" });
  await session.dispatch("read_file", { path: "a" }, host);

  const formats: ModelFormat[] = ["anthropic", "openai_chat", "openai_responses", "mcp"];
  for (const format of formats) {
    const any: ToolExport = session.exportTools(format);
    const names: string[] = Object.keys(any.names);
    void names;
  }
  const anthropic: ToolExport<"anthropic"> = session.exportTools("anthropic");
  const wire: ModelFormats["anthropic"]["tool"] | undefined = anthropic.tools[0];
  const answer = await session.dispatchModelCall("mcp", { name: "tool_search", arguments: { query: "x" } });
  const text: string | undefined = answer.content[0]?.type === "text" ? answer.content[0].text : undefined;
  session.close();

  const bindings: HolarynBindings = expose({ HolarynRuntime, HolarynSession });
  const again = new bindings.HolarynRuntime();

  try {
    rt.registerTools([{ ...spec, name: "" }]);
  } catch (e) {
    const err = typed(e);
    if (err instanceof HolarynError) {
      const fields: (string | number | string[] | undefined)[] = [
        err.code,
        err.name,
        err.detail,
        err.tool,
        err.field,
        err.file,
        err.pointer,
        err.line,
        err.column,
        err.suggestions,
        err.nextAction,
      ];
      void fields;
    }
    const families = [
      DescriptorError,
      CatalogError,
      ToolError,
      HandleError,
      SessionError,
      PolicyError,
      InputError,
      ConfigError,
      CodeError,
    ];
    void families.some((F) => err instanceof F);
  }
  void [synced, skippedCode, removed];
  void [bare, change, version, size, described, all, records, stats, imported, plain, id, flags, inCase()];
  void [inForce, foundAsync, summary, page, firstPage, scope, tools, footprint, rows, warnings, callStatus];
  void [stage, path, errors, result, wire, text, again];
}

function inCase(): HolarynError {
  return new PolicyError("bad", "policy.malformed");
}

/** Every per-format and MCP-adapter type, named once (the SDK tests use them against the SDKs). */
export type Inventory = [
  H.AnthropicImageBlock,
  H.AnthropicTextBlock,
  H.AnthropicTool,
  H.AnthropicToolResult,
  H.AnthropicToolUse,
  H.McpCallParams,
  H.McpContentBlock,
  H.McpToolDefinition,
  H.McpToolResult,
  H.OpenAIChatTool,
  H.OpenAIChatToolCall,
  H.OpenAIChatToolMessage,
  H.OpenAIResponsesFunctionCall,
  H.OpenAIResponsesFunctionCallOutput,
  H.OpenAIResponsesOutputPart,
  H.OpenAIResponsesTool,
  M.McpCallResult,
  M.McpClientLike,
  M.McpProvider,
  M.McpProviderOptions,
  M.McpTool,
];
