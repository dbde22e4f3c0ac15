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
/** A server registered as a provider (`connectMcpProvider`). */
export interface McpProvider {
  providerId: string;
  provider: Provider;
  /** The registry change of the first `tools/list` (null: nothing changed). */
  initial: RegistryChange | null;
  /** Re-list now (also runs on `notifications/tools/list_changed`). */
  sync(): Promise<RegistryChange | null>;
  /** Mark the provider connected again and re-list. */
  reconnected(): Promise<RegistryChange | null>;
  /** Whether this adapter runs the call (its provider id). */
  owns(req: ExecuteRequest): boolean;
  /** Run a gated call via `tools/call` with the gate's `AbortSignal`. */
  execute(req: ExecuteRequest): Promise<JsonValue>;
}
/** Options of `connectMcpProvider`: `providerId` must be stable across restarts; names are `providerId/name` unless `qualifyNames: false`. */
export interface McpProviderOptions {
  providerId: string;
  qualifyNames?: boolean;
  origin?: string;
}
/** Every tool of a server, following `nextCursor`. */
export function listAllTools(client: McpClientLike): Promise<McpTool[]>;
/** Register a connected MCP client as a provider of `runtime` and keep it in sync. */
export function connectMcpProvider(
  runtime: HolarynRuntime,
  client: McpClientLike,
  options: McpProviderOptions,
): Promise<McpProvider>;
/** A host `execute` routing each call to the adapter owning its provider, else to `fallback`. */
export function mcpExecute(
  adapters: McpProvider[],
  fallback?: (req: ExecuteRequest) => JsonValue | Promise<JsonValue>,
): (req: ExecuteRequest) => JsonValue | Promise<JsonValue>;
