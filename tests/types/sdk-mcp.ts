// MCP both ways, with no cast: holaryn behind an MCP server (exportTools("mcp").tools answers
// tools/list, dispatchModelCall("mcp", params) answers tools/call), and a real MCP Client as a
// provider (connectMcpProvider takes the SDK's Client).
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import {
  type CallToolRequest,
  CallToolRequestSchema,
  type CallToolResult,
  ListToolsRequestSchema,
  type Tool,
} from "@modelcontextprotocol/sdk/types.js";
import type { HolarynRuntime, HolarynSession, McpCallParams, McpToolDefinition, McpToolResult } from "holaryn";
import { type McpClientLike, connectMcpProvider, listAllTools, mcpExecute } from "holaryn/mcp";

export function serve(session: HolarynSession): Server {
  const server = new Server({ name: "holaryn", version: "1" }, { capabilities: { tools: { listChanged: true } } });
  server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: session.exportTools("mcp").tools }));
  server.setRequestHandler(CallToolRequestSchema, async (request) => session.dispatchModelCall("mcp", request.params));
  return server;
}

export async function provide(rt: HolarynRuntime, session: HolarynSession, client: Client): Promise<void> {
  const memory = await connectMcpProvider(rt, client, { providerId: "memory" });
  session.setHost({ execute: mcpExecute([memory], async () => ({ ok: true })) });
  const tools = await listAllTools(client);
  rt.registerTools(tools.map((t) => ({ name: t.name, source: "mcp", provider: { id: "memory" }, inputSchema: null })));
  await memory.sync();
}

declare const params: CallToolRequest["params"];
declare const tool: McpToolDefinition;
declare const result: McpToolResult;
declare const client: Client;
export const call: McpCallParams = params;
export const asSdkTool: Tool = tool;
export const asSdkResult: CallToolResult = result;
export const clientLike: McpClientLike = client;
