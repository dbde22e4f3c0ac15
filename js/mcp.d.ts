import type { ExecuteRequest, HolarynRuntime, JsonValue, Provider, RegistryChange } from "./index.d.ts";

/**
 * The part of @modelcontextprotocol/sdk's `Client` the adapter uses; a connected `Client` is one
 * (proved in tests/types/sdk-mcp.ts). Values are `unknown` where the SDK's are.
 */
export interface McpClientLike {
  getServerVersion?(): { name?: string; title?: string; version?: string } | undefined;
  listTools(params?: { cursor?: string }): Promise<{ tools: McpTool[]; nextCursor?: string }>;
  callTool(
    params: { name: string; arguments?: { [key: string]: unknown } },
    resultSchema?: undefined,
    options?: { signal?: AbortSignal },
  ): Promise<McpCallResult>;
  setNotificationHandler(schema: unknown, handler: (notification: unknown) => void | Promise<void>): void;
  onclose?: () => void;
  close?(): Promise<void>;
}
/** One tool of a server's `tools/list`. */
export interface McpTool {
  name: string;
  title?: string;
  description?: string;
  inputSchema: { [key: string]: unknown };
  outputSchema?: { [key: string]: unknown };
  annotations?: { [key: string]: unknown };
}
/** A `tools/call` result as the client returns it (`toolResult`: the pre-2024-11-05 compatibility shape). */
export interface McpCallResult {
  content?: { type: string; text?: string }[];
  structuredContent?: { [key: string]: unknown };
  isError?: boolean;
  toolResult?: unknown;
}
/**
 * A tool the core refused (skipped; the rest registered — the core also keeps it as a Capability Center row
 * and a `tool_skipped` activity record, see `SkippedTool`), or a reconnect that failed.
 */
export interface McpWarning {
  type: "mcp_tool_skipped" | "mcp_reconnect_failed" | "mcp_reconnect_gave_up";
  providerId: string;
  /** The core's error code, e.g. `descriptor.invalid_name`; `provider.disconnected` for reconnects. */
  code: string;
  message: string;
  /** The skipped tool's name as it would have been registered (`mcp_tool_skipped`). */
  tool?: string;
  nextAction?: string;
  attempt?: number;
}
/** Reconnect backoff (with a client factory): delays initialDelayMs·2^n up to maxDelayMs. Timers are injectable for tests. */
export interface McpReconnectOptions {
  initialDelayMs?: number;
  maxDelayMs?: number;
  maxAttempts?: number;
  setTimeout?: (fn: () => void, ms: number) => unknown;
  clearTimeout?: (timer: unknown) => void;
}
/** A server registered as a provider (`connectMcpProvider`). */
export interface McpProvider {
  providerId: string;
  /** The provider as registered (from the server's initialize answer). */
  readonly provider: Provider;
  /** The registry change of the first `tools/list` (null: nothing changed). */
  initial: RegistryChange | null;
  /** Tools of the last sync the core refused (skipped). */
  readonly warnings: McpWarning[];
  /** True while the current client is connected. */
  readonly connected: boolean;
  /** Re-list now (also runs on `notifications/tools/list_changed`). */
  sync(): Promise<RegistryChange | null>;
  /** Use `newClient` (or the current client, reconnected by the caller), mark the provider connected and re-list. */
  reconnected(newClient?: McpClientLike): Promise<RegistryChange | null>;
  /** Stop reconnecting and close the current client. */
  close(): Promise<void>;
  /** Whether this adapter runs the call (its provider id). */
  owns(req: ExecuteRequest): boolean;
  /** Run a gated call via `tools/call` on the current client with the gate's `AbortSignal`. */
  execute(req: ExecuteRequest): Promise<JsonValue>;
}
/** Options of `connectMcpProvider`: `providerId` must be stable across restarts; names are `providerId/name` unless `qualifyNames: false`. */
export interface McpProviderOptions {
  providerId: string;
  qualifyNames?: boolean;
  origin?: string;
  /** Backoff of reconnects (with a client factory). */
  reconnect?: McpReconnectOptions;
  /** A skipped tool or a failed reconnect. */
  onWarning?: (warning: McpWarning) => void;
  /** After a reconnect re-listed the tools. */
  onReconnect?: (change: RegistryChange | null) => void;
}
/** Every tool of a server, following `nextCursor`. */
export function listAllTools(client: McpClientLike): Promise<McpTool[]>;
/**
 * Register an MCP server as a provider of `runtime` and keep it in sync. `client`: a connected client,
 * or a factory that connects a new one (then a closed connection is replaced with backoff).
 */
export function connectMcpProvider(
  runtime: HolarynRuntime,
  client: McpClientLike | (() => Promise<McpClientLike>),
  options: McpProviderOptions,
): Promise<McpProvider>;
/** A host `execute` routing each call to the adapter owning its provider, else to `fallback`. */
export function mcpExecute(
  adapters: McpProvider[],
  fallback?: (req: ExecuteRequest) => JsonValue | Promise<JsonValue>,
): (req: ExecuteRequest) => JsonValue | Promise<JsonValue>;
