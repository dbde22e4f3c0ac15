import type { HolarynRuntime, RegistryChange, ExecuteRequest, JsonValue, Provider } from "./index.d.ts";

/** The subset of @modelcontextprotocol/sdk's Client the adapter uses. */
export interface McpClientLike {
  getServerVersion?(): { name?: string; title?: string; version?: string } | undefined;
  listTools(params?: { cursor?: string }): Promise<{ tools: McpTool[]; nextCursor?: string }>;
  callTool(
    params: { name: string; arguments?: JsonValue },
    resultSchema?: unknown,
    options?: { signal?: AbortSignal },
  ): Promise<McpCallResult>;
  setNotificationHandler(schema: unknown, handler: (notification: unknown) => void | Promise<void>): void;
  onclose?: () => void;
}
export interface McpTool {
  name: string;
  title?: string;
  description?: string;
  inputSchema: { [key: string]: JsonValue };
  outputSchema?: { [key: string]: JsonValue };
  annotations?: { [key: string]: JsonValue };
}
export interface McpCallResult {
  content?: { type: string; text?: string }[];
  structuredContent?: { [key: string]: JsonValue };
  isError?: boolean;
}
export interface McpProvider {
  providerId: string;
  provider: Provider;
  initial: RegistryChange | null;
  sync(): Promise<RegistryChange | null>;
  reconnected(): Promise<RegistryChange | null>;
  owns(req: ExecuteRequest): boolean;
  execute(req: ExecuteRequest): Promise<JsonValue>;
}
export function listAllTools(client: McpClientLike): Promise<McpTool[]>;
export function connectMcpProvider(
  runtime: HolarynRuntime,
  client: McpClientLike,
  options: { providerId: string; qualifyNames?: boolean; origin?: string },
): Promise<McpProvider>;
export function mcpExecute(
  adapters: McpProvider[],
  fallback?: (req: ExecuteRequest) => JsonValue | Promise<JsonValue>,
): (req: ExecuteRequest) => JsonValue | Promise<JsonValue>;
