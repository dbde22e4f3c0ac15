//! Exact TypeScript types of the boundary (no `any`). Contract tests in
//! `tests/node` round-trip real values against these shapes.

use wasm_bindgen::prelude::*;

#[wasm_bindgen(typescript_custom_section)]
const TS_TYPES: &'static str = r#"
/** The one code vocabulary (generated from crates/model/src/codes.rs). */
import type { OutcomeCode } from "../../js/codes.js";
export type JsonValue = null | boolean | number | string | JsonValue[] | { [key: string]: JsonValue };
/** A root schema (`inputSchema`, `outputSchema`) is always an object; boolean subschemas (`additionalProperties: false`) live inside it. */
export type JsonSchema = { [key: string]: JsonValue };
export type Source = "native" | "mcp" | "skill" | "slash_command" | "browser" | "extension" | "connected_app";
export type Trust = "builtin" | "trusted" | "untrusted";
export type Visibility = "model_visible" | "hidden";
export type Invokability = "callable" | "catalog_only";
export type ApprovalMode = "auto" | "ask" | "never";
export type ToolRole = "ordinary" | "bridge" | "legacy_script" | "code_mode";
export type ProviderStatus = "connected" | "disconnected" | "needs_auth";
export type AvailabilityState = "loaded" | "available" | "approval_required" | "denied" | "hidden" | "catalog_only" | "unavailable";
export type PolicyScope = "session_options" | "provider" | "profile" | "session" | "project";

export interface Provider { id: string; kind?: string; displayName?: string; version?: string; origin?: string; description?: string; }
export interface Annotations { readOnlyHint?: boolean; destructiveHint?: boolean; idempotentHint?: boolean; openWorldHint?: boolean; }

/** A tool as a host supplies it. */
export interface ToolSpec {
  name: string; title?: string; description?: string; aliases?: string[]; source: Source; provider: Provider;
  localName?: string; trust?: Trust; permissions?: string[]; inputSchema?: JsonSchema | null; outputSchema?: JsonSchema;
  annotations?: Annotations; visibility?: Visibility; invokability?: Invokability; approval?: ApprovalMode;
  timeoutMs?: number; role?: ToolRole; usage?: string;
}

/** A validated tool in the registry. */
export interface ToolDescriptor {
  name: string; localName: string; title: string; description: string; aliases: string[]; source: Source;
  provider: Required<Pick<Provider, "id" | "kind" | "displayName">> & Pick<Provider, "version" | "origin">;
  trust: Trust; permissions: string[]; inputSchema: JsonSchema; outputSchema?: JsonSchema; annotations: Annotations;
  visibility: Visibility; invokability: Invokability; approval: ApprovalMode; timeoutMs?: number; role: ToolRole;
  usage?: string; schemaHash: string; version: string;
  /** Set when the host gave no (or a `null`) `inputSchema`: the tool takes any object. */
  schemaMissing?: boolean;
  /** Set when the input schema has no `$schema`, is invalid as 2020-12 and is read in an older draft whose forms it uses. */
  dialect?: SchemaDialect;
}
/** The older draft a schema without `$schema` is read in (`draft-04`, `draft-06`, `draft-07`, `2019-09`), and why. */
export interface SchemaDialect { draft: string; reason: string; }

/**
 * Options of `new HolarynRuntime(options?)` and `HolarynRuntime.restore(bytes, options?)` (there,
 * `requireInputSchema` comes from the snapshot; giving the other value refuses it: register instead).
 */
export interface RuntimeOptions {
  /** How many activity records the ring keeps (default 1024, at least 1); the oldest are dropped first (`activity(since)`). */
  activityCapacity?: number;
  /** Refuse tools without an `inputSchema` (`descriptor.invalid_schema`) instead of letting them take any object. */
  requireInputSchema?: boolean;
}
export interface RegistryChange { oldVersion: string; newVersion: string; added: string[]; removed: string[]; changed: string[]; }
/**
 * How a catalog file becomes tools: `providerId` (default: the file's `server` field, else its name), names
 * `providerId/name` with `qualifyNames: true` (default: as written), and the `source` (default `mcp`) and
 * `trust` (default `untrusted`) every tool gets. `qualifyRefusedNames: true`: a tool whose name the registry
 * refuses (`tool_search`, a `toolh_` name, another provider's `p/x`) is kept as `providerId/localName` when
 * that is accepted (`parseCatalogWithNotes` lists them); a name that does not fix is left to be refused.
 */
export interface CatalogOptions {
  providerId?: string; qualifyNames?: boolean; source?: Source; trust?: Trust; qualifyRefusedNames?: boolean;
}
/** A tool `qualifyRefusedNames` renamed: `from` as the catalog named it, `to` as it is kept, and the refusal of `from`. */
export interface RenamedTool { from: string; to: string; code: OutcomeCode; message: string; }
/** What `parseCatalogWithNotes` returns: the tools, those renamed on the way, and the entries that are no tool (skipped). */
export interface ParsedCatalog { specs: ToolSpec[]; renamed: RenamedTool[]; skipped: SkippedTool[]; }

/**
 * A `holaryn gateway` server: stdio (`command`), Streamable HTTP (`url`), legacy HTTP+SSE (`"type": "sse"`), or `disabled`
 * (nothing else set). `name` is the key under `mcpServers` as written (the display name); `id` the provider id of its tools,
 * `name` by the one slug rule (`"My Weather Server"` → `"My-Weather-Server"`; a name that already is a slug is its own id).
 */
export type GatewayServer =
  | { name: string; id: string; kind: "stdio"; command: string; args: string[]; env: Record<string, string>; cwd?: string }
  | { name: string; id: string; kind: "http" | "sse"; url: string; headers: Record<string, string> }
  | { name: string; id: string; disabled: true };
/** The `"holaryn"` settings of a gateway config; paths as written (relative to the config file). */
export interface GatewaySettings {
  boundedCodeMode?: boolean; policyFile?: string; rules?: PolicyRules; profileAllowedTools?: string[];
  hiddenProviders?: string[]; approvalFallback: "deny" | "allow"; activityFile?: string; qualifyNames?: boolean;
  callTimeoutMs?: number; callbackTimeoutMs?: number;
  /** `--http`: browser origins served besides loopback ones; the variable holding the bearer token. */
  allowedOrigins?: string[]; httpTokenEnv?: string;
}
/**
 * A checked `holaryn gateway` config (`parseGatewayConfig`). `positions`: where the settings that name files
 * (`/holaryn/policyFile`, `/holaryn/activityFile`, `/holaryn/httpTokenEnv`) start, for errors about reading or writing them.
 */
export interface GatewayConfig {
  servers: GatewayServer[]; holaryn: GatewaySettings; positions: { [pointer: string]: { line: number; column: number } };
}

/**
 * A tool a provider listed that the core refused (skipped; its siblings registered). `name`: the name it would
 * have had (`#N`, its position, when it had no string name); `localName`: as the provider gave it; `code`: the
 * refusal (`descriptor.invalid_name`, `catalog.malformed`, …); `nextAction`: the fix on the provider's side.
 */
export interface SkippedTool {
  name: string; localName?: string; provider: Provider; source: string; trust?: Trust; code: OutcomeCode; field?: string;
  /** The JSON pointer of the refused value (in the field's schema, or in the catalog file), when known. */
  pointer?: string; message: string; nextAction: string;
}
/** What `syncCatalog` did: the registry change (null: no registered tool changed) and every tool it skipped. */
export interface ProviderSync { change: RegistryChange | null; skipped: SkippedTool[]; renamed?: RenamedTool[]; }
/**
 * What `registerCatalog` and `syncProvider` answer: the registry change, every tool the re-list skipped (refused by the
 * core; the rest registered) and the tools renamed on the way. `null` only when nothing changed and nothing was skipped;
 * when only what was skipped is news, `oldVersion` equals `newVersion` and `added`/`removed`/`changed` are empty.
 */
export interface CatalogChange extends RegistryChange { skipped: SkippedTool[]; renamed?: RenamedTool[]; }

export interface PolicyRules { allow?: string[]; deny?: string[]; }
export interface PolicyFile { path: string; text: string; }
export interface CodeLimits { maxCalls: number; timeoutMs: number; maxOutputBytes: number; maxSourceBytes: number; maxNodes: number; }
/** Options of `createSession(options?, secret?)`; each is snapshotted at creation. */
export interface SessionOptions {
  /** Three discovery tools (`tool_search`, `tool_list`, `tool_inspect`) instead of the static list; unset: `HOLARYN_DYNAMIC_TOOL_DISCOVERY` in Node, else off. */
  dynamicDiscovery?: boolean;
  /** Offer `run_tool_code`; unset: `HOLARYN_BOUNDED_CODE_MODE` in Node, else off. */
  boundedCodeMode?: boolean;
  /** The agent profile's `allowed_tools` ceiling (omitted: all; empty: only the discovery tools). */
  profileAllowedTools?: string[];
  /** Providers the host hides from this session. */
  hiddenProviders?: string[];
  /** The host's session rules. */
  rules?: PolicyRules;
  /** The project policy file (`.holaryn/tool-policy.json`). */
  projectPolicy?: PolicyFile;
  /** Lowered bounded-code limits (each at most its maximum). */
  codeLimits?: Partial<CodeLimits>;
  /** Per-call timeout in ms for tools that set none (default 60000). */
  defaultTimeoutMs?: number;
  /** Output cap of one call, in bytes of JSON (default 262144). */
  maxOutputBytes?: number;
  /** Arguments cap of one call, in bytes of JSON text (default 1048576, more than a model writes in one reply); bigger arguments are not parsed and the call is refused `args.too_large`. */
  maxArgumentBytes?: number;
  /** How long a hook, approval or screening may wait for the host, in ms (default 600000); then the call is cut off `timed_out`. */
  callbackTimeoutMs?: number;
  /** A call by the exact name `tool_search`/`tool_inspect` show (`callName ?? name`), of a tool this session never listed, loads its current descriptor and goes through the gate (dynamic sessions; the gateway sets it for clients that open a session per command). */
  exactNameCalls?: boolean;
  /** Start with the runtime's working set listed (recently loaded tools, at most 32; listing grants nothing) and add every tool this session loads to it. */
  sharedWorkingSet?: boolean;
}

export interface Availability { state: AvailabilityState; code: OutcomeCode; reason: string; nextAction: string; scope?: PolicyScope | null; rule?: string | null; }
/** `alternatives`: up to 2 other phrasings of the same request, fused with `query` into one ranking. */
export interface SearchInput { query: string; alternatives?: string[]; limit?: number; source?: Source; provider?: string; state?: AvailabilityState; }
export interface ListInput { state?: AvailabilityState; source?: Source; provider?: string; limit?: number; cursor?: string; }
export interface InspectInput { name: string; }
/** `callName`: the name a client calls the tool by (`^[a-zA-Z0-9_-]{1,64}$`, every format), when it is not `name`. */
export interface ToolSummary {
  name: string; title: string; summary: string; source: Source; provider: string; state: AvailabilityState;
  permissions: string[]; trust: Trust; schemaLoaded: boolean; why?: string[]; callName?: string;
}
/**
 * `why` names the signal that placed each result: fields matched (`name: …`), verb synonyms (`x (≈ y)`),
 * lexicon phrases (`x (lexicon: phrase)`), argument fit (`takes a URL`), `exact name`, `phrasing N`.
 * `nothingFits: true` (absent otherwise) when no tool clears the calibrated bar: then at most 3 weak
 * results and a `hint` naming the `tool_list` filters and providers to look at.
 */
export interface SearchOutput { results: ToolSummary[]; nothingFits?: boolean; hint?: string; registryVersion: string; }
export interface ListOutput { tools: ToolSummary[]; nextCursor?: string; total: number; registryVersion: string; }
export interface InspectOutput {
  name: string; callName?: string; title: string; description: string; source: Source; provider: string; trust: Trust; permissions: string[];
  annotations: Annotations; aliases: string[]; availability: Availability; asksFirst: boolean; loaded: boolean;
  schema?: JsonSchema; outputSchema?: JsonSchema; schemaHash?: string; version: string; handle?: string; usage?: string;
  dialect?: SchemaDialect;
}
export interface ModelTool { name: string; description: string; inputSchema: JsonSchema; }
export interface Footprint { now: number; atCreation: number; staticEquivalent: number; }
/** A policy entry worth a second look; `pointer` is `/deny/2` for rules, `/3` for `allowed_tools`, `""` for a hidden provider. */
export interface PolicyWarning { scope: PolicyScope; entry: string; pointer: string; message: string; }
export interface CapabilityRow {
  name: string; title: string; source: Source; provider: string; providerName: string; availability: Availability;
  permissions: string[]; trust: Trust; provenance: string; asksFirst: boolean; ambientProcessAccess: boolean;
  schemaMissing: boolean; dialect?: SchemaDialect;
}

export type CallPath = "direct" | "alias" | "handle" | "legacy_script" | "code";
export type CallStatus = "ok" | "refused" | "vetoed" | "approval_denied" | "timed_out" | "cancelled" | "failed" | "output_too_large" | "blocked";
export type GateStage = "resolve" | "governance" | "schema" | "validation" | "hook_before" | "approval" | "execute" | "hook_after" | "screen" | "done";
export interface ArgError { pointer: string; message: string; }
export interface CallOutcome {
  callId: string; status: CallStatus; code: OutcomeCode; message: string; stage: GateStage; tool?: string; path: CallPath;
  output?: JsonValue; durationMs: number; outputBytes: number; errors?: ArgError[]; nextAction?: string;
  scope?: string; rule?: string; executed: boolean;
}
export interface ToolResult { isError: boolean; content: JsonValue; outcome?: CallOutcome; }

export interface CallInfo {
  callId: string; sessionId: string; tool: string; localName: string; providerId: string; source: Source; title: string;
  path: CallPath; timeoutMs: number; fromCode: boolean;
}
export interface ExecuteRequest extends CallInfo { args: JsonValue; signal: AbortSignal; }
/** `reason` as a code, `why` the same in words ("it may make destructive changes") for a prompt to the user. */
export interface ApprovalRequest extends CallInfo { args: JsonValue; reason: "destructive" | "ask_first" | "ambient_process_access"; why: string; description: string; }
export interface HookRequest extends CallInfo { phase: "before" | "after"; }
export interface ScreenRequest extends CallInfo { output: JsonValue; }
export type HookDecision = void | boolean | { decision: "continue" } | { decision: "veto"; reason?: string };
export type ApprovalDecision = boolean | { decision: "approve" } | { decision: "deny"; reason?: string };
export type ScreenDecision = void | { decision: "pass" } | { decision: "replace"; output: JsonValue } | { decision: "block"; reason?: string };
/** Host callbacks for calls. Only `execute` is needed for tools that run. */
export interface Host {
  execute?: (req: ExecuteRequest) => JsonValue | Promise<JsonValue>;
  approve?: (req: ApprovalRequest) => ApprovalDecision | Promise<ApprovalDecision>;
  hook?: (req: HookRequest) => HookDecision | Promise<HookDecision>;
  screen?: (req: ScreenRequest) => ScreenDecision | Promise<ScreenDecision>;
  signal?: AbortSignal;
  now?: () => number;
}

/** `toolVersion`: absent only on `tool_skipped` records (a skipped tool has no descriptor). */
export interface Provenance { providerId: string; providerKind: string; providerVersion?: string; origin?: string; source: string; toolVersion?: string; }
export type ActivityKind = "registry_changed" | "session_created" | "search" | "list" | "schema_load" | "denial" | "invocation" | "code_summary" | "tool_skipped";
export interface ActivityRecord {
  seq: number; timeMs: number; kind: ActivityKind; session?: string; tool?: string; provenance?: Provenance;
  registryVersion: string; outcome: OutcomeCode; reason: string; path?: string; durationMs?: number; bytes?: number;
  count?: number; scope?: string; rule?: string;
  /** For calls (invocation, denial, code_summary): the gate's call id, as in `CallOutcome.callId`. */
  callId?: string;
  /** For calls a model made (`dispatchModelCall`): its tool-call id (`tool_use.id`, `tool_calls[i].id`, `call_id`). */
  toolCallId?: string;
}
export interface RegistryChangedEvent {
  type: "tool_registry_changed"; sessionId?: string; oldVersion: string; newVersion: string; cause: "registry" | "policy";
  /** The first 50 names of each list; the counts are exact. */
  added: string[]; removed: string[]; changed: string[];
  addedCount: number; removedCount: number; changedCount: number;
  /** Session events: loaded tools this change invalidated (inspect them again); the rest stay loaded. */
  invalidated: string[]; invalidatedCount: number;
}
/** A host sentence-embedding model: `embed` gets at most 64 texts and returns one vector each. */
export interface HostEmbedder {
  model: string; dimensions: number;
  embed: (texts: string[]) => Promise<Float32Array[] | number[][]> | Float32Array[] | number[][];
  /** Wait per request before answering lexically (default 10000). */
  timeoutMs?: number;
}
export type EmbeddingEncoding = "f32" | "i8";
/** Cached tool vectors keyed by text key (see core/src/embeddings.rs for the byte layout). */
export interface EmbeddingsExport {
  format: "holaryn.embeddings/1"; model: string; dimensions: number; encoding: EmbeddingEncoding;
  vectors: { [textKey: string]: string };
}
export interface EmbeddingStats { model: string; dimensions: number; tools: number; cached: number; embedded: number; error?: string; }
export type HolarynEvent = RegistryChangedEvent | ({ type: "activity" } & ActivityRecord);
"#;

/// The per-format model shapes (`exportTools`, `dispatchModelCall`): each is
/// structurally the provider SDK's own type, so SDK values pass in and ours
/// pass out with no cast (proved against the pinned SDKs in `tests/types/`).
/// Type aliases, not interfaces, so they fit the SDKs' index-signature types.
#[wasm_bindgen(typescript_custom_section)]
const TS_MODEL_FORMATS: &'static str = r#"
export type ModelFormat = "anthropic" | "openai_chat" | "openai_responses" | "mcp";

/** Anthropic Messages `Tool` (`Anthropic.Messages.Tool`): the root schema always says `type: "object"`. */
export type AnthropicTool = {
  name: string; description: string;
  input_schema: { type: "object"; properties?: unknown; required?: string[] | null; [key: string]: unknown };
  defer_loading?: boolean;
};
/** A `tool_use` content block (`Anthropic.Messages.ToolUseBlock` is one). */
export type AnthropicToolUse = { type: "tool_use"; id: string; name: string; input: unknown };
export type AnthropicTextBlock = { type: "text"; text: string };
/** Deferred mode: a `tool_inspect` result references the inspected tool (`Anthropic.Messages.ToolReferenceBlockParam`). */
export type AnthropicToolReference = { type: "tool_reference"; tool_name: string };
export type AnthropicImageBlock = {
  type: "image";
  source: { type: "base64"; media_type: "image/jpeg" | "image/png" | "image/gif" | "image/webp"; data: string } | { type: "url"; url: string };
};
/** A `tool_result` block (`Anthropic.Messages.ToolResultBlockParam`). */
export type AnthropicToolResult = {
  type: "tool_result"; tool_use_id: string; content: string | (AnthropicTextBlock | AnthropicImageBlock | AnthropicToolReference)[]; is_error?: boolean;
};

/** OpenAI Chat Completions function tool (`ChatCompletionFunctionTool`). */
export type OpenAIChatTool = { type: "function"; function: { name: string; description: string; parameters: JsonSchema } };
/** One `message.tool_calls[i]` of function kind (`ChatCompletionMessageFunctionToolCall`). */
export type OpenAIChatFunctionToolCall = { id: string; type: "function"; function: { name: string; arguments: string } };
/** One `message.tool_calls[i]` of custom kind (`ChatCompletionMessageCustomToolCall`): answered with an error message (holaryn exports function tools only). */
export type OpenAIChatCustomToolCall = { id: string; type: "custom"; custom: { name: string; input: string } };
/** Any `message.tool_calls[i]` (`ChatCompletionMessageToolCall`), so `for (const c of msg.tool_calls ?? [])` passes each as is. */
export type OpenAIChatToolCall = OpenAIChatFunctionToolCall | OpenAIChatCustomToolCall;
/** A `role: "tool"` message (`ChatCompletionToolMessageParam`). */
export type OpenAIChatToolMessage = { role: "tool"; tool_call_id: string; content: string | { type: "text"; text: string }[] };

/** OpenAI Responses function tool (`FunctionTool`): `strict` is true only where the schema meets strict mode's rules unchanged. */
export type OpenAIResponsesTool = {
  type: "function"; name: string; description: string; parameters: JsonSchema; strict: boolean; defer_loading?: boolean;
};
/** A `function_call` output item (`ResponseFunctionToolCall`). */
export type OpenAIResponsesFunctionCall = { type: "function_call"; call_id: string; name: string; arguments: string; id?: string };
export type OpenAIResponsesOutputPart = { type: "input_text"; text: string } | { type: "input_image"; image_url: string; detail?: "low" | "high" | "auto" };
/** A `function_call_output` input item (`ResponseInputItem.FunctionCallOutput`). */
export type OpenAIResponsesFunctionCallOutput = { type: "function_call_output"; call_id: string; output: string | OpenAIResponsesOutputPart[] };

/** An MCP `Tool` (`@modelcontextprotocol/sdk/types.js`). */
export type McpToolDefinition = {
  name: string; title?: string; description: string;
  inputSchema: { type: "object"; properties?: { [key: string]: object }; required?: string[]; [key: string]: unknown };
  outputSchema?: { type: "object"; properties?: { [key: string]: object }; required?: string[]; [key: string]: unknown };
  annotations?: Annotations & { title?: string };
};
/** MCP `tools/call` params (`CallToolRequest["params"]`). */
export type McpCallParams = { name: string; arguments?: { [key: string]: unknown } };
export type McpContentBlock =
  | { type: "text"; text: string }
  | { type: "image"; data: string; mimeType: string }
  | { type: "audio"; data: string; mimeType: string }
  | { type: "resource_link"; uri: string; name: string; title?: string; description?: string; mimeType?: string }
  | { type: "resource"; resource: { uri: string; mimeType?: string; text: string } | { uri: string; mimeType?: string; blob: string } };
/** An MCP `CallToolResult`. */
export type McpToolResult = { content: McpContentBlock[]; structuredContent?: { [key: string]: unknown }; isError?: boolean };

/** What each format exports, accepts and answers. */
export interface ModelFormats {
  anthropic: { tool: AnthropicTool; call: AnthropicToolUse; result: AnthropicToolResult };
  openai_chat: { tool: OpenAIChatTool; call: OpenAIChatToolCall; result: OpenAIChatToolMessage };
  openai_responses: { tool: OpenAIResponsesTool; call: OpenAIResponsesFunctionCall; result: OpenAIResponsesFunctionCallOutput };
  mcp: { tool: McpToolDefinition; call: McpCallParams; result: McpToolResult };
}
/** `exportTools(format)`: the tools as that format's request takes them, their JSON size, and wire name → canonical name. */
export interface ToolExport<F extends ModelFormat = ModelFormat> {
  format: F; tools: ModelFormats[F]["tool"][]; bytes: number; names: { [wireName: string]: string };
}

/** `exportTools` options: `deferred` (Anthropic) sends every permitted tool with `defer_loading: true`, pinned so the array stays byte-identical. */
export interface ExportOptions { mode?: "loaded" | "deferred"; }

export interface HolarynSession {
  /** The model-visible tools in a provider format, with their bytes and wire names: `tools` is exactly what that SDK's request takes. */
  exportTools(format: "anthropic", options?: ExportOptions): ToolExport<"anthropic">;
  exportTools(format: "openai_chat"): ToolExport<"openai_chat">;
  exportTools(format: "openai_responses"): ToolExport<"openai_responses">;
  exportTools(format: "mcp"): ToolExport<"mcp">;
  exportTools(format: ModelFormat): ToolExport;
  /**
   * Dispatch one tool call as the SDK gives it (`tool_use` block, chat `tool_calls[i]`, Responses `function_call`,
   * MCP `tools/call` params); resolves to that format's tool result, ready to send back.
   */
  dispatchModelCall(format: "anthropic", call: AnthropicToolUse, host?: Host): Promise<AnthropicToolResult>;
  dispatchModelCall(format: "openai_chat", call: OpenAIChatToolCall, host?: Host): Promise<OpenAIChatToolMessage>;
  dispatchModelCall(format: "openai_responses", call: OpenAIResponsesFunctionCall, host?: Host): Promise<OpenAIResponsesFunctionCallOutput>;
  dispatchModelCall(format: "mcp", call: McpCallParams, host?: Host): Promise<McpToolResult>;
  dispatchModelCall<F extends ModelFormat>(format: F, call: ModelFormats[F]["call"], host?: Host): Promise<ModelFormats[F]["result"]>;
}
"#;
