#!/usr/bin/env node
// A stub MCP server (stdio) for the gateway benchmark: serves the tools of one
// catalog file (a real tools/list result) 50 per page, and answers every call
// at once with a short text (echoing a `message` argument, so the load mode can
// check that every answer reached its caller), so the benchmark measures the
// gateway, not tools.

import { readFileSync } from "node:fs";
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { CallToolRequestSchema, ListToolsRequestSchema } from "@modelcontextprotocol/sdk/types.js";

const PAGE = 50;
const file = process.argv[2];
const catalog = JSON.parse(readFileSync(file, "utf8"));
const tools = catalog.tools;
const server = new Server(
  { name: catalog.serverInfo?.name ?? catalog.server ?? "stub", version: "1.0.0" },
  { capabilities: { tools: {} } },
);
server.setRequestHandler(ListToolsRequestSchema, async ({ params }) => {
  const start = Number(params?.cursor ?? 0);
  const page = tools.slice(start, start + PAGE);
  return { tools: page, ...(start + PAGE < tools.length ? { nextCursor: String(start + PAGE) } : {}) };
});
server.setRequestHandler(CallToolRequestSchema, async ({ params }) => ({
  content: [
    {
      type: "text",
      text:
        typeof params.arguments?.message === "string"
          ? `ok ${params.name} ${params.arguments.message}`
          : `ok ${params.name}`,
    },
  ],
}));
await server.connect(new StdioServerTransport());
