// MCP servers as providers, with no network: a published server over stdio
// and an in-process McpServer that adds and removes tools.
import { test } from "node:test";
import assert from "node:assert/strict";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { z } from "zod";
import { HolarynRuntime } from "holaryn";
import { connectMcpProvider, mcpExecute } from "holaryn/mcp";
import { root } from "./helpers.mjs";

test("server-memory over stdio registers with provenance and executes through the gate", async () => {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [join(root, "node_modules/@modelcontextprotocol/server-memory/dist/index.js")],
    env: { ...process.env, MEMORY_FILE_PATH: join(root, "target/mcp-memory-test.jsonl") },
    stderr: "ignore",
  });
  const client = new Client({ name: "holaryn-test", version: "0" });
  await client.connect(transport);
  try {
    const rt = new HolarynRuntime();
    const memory = await connectMcpProvider(rt, client, { providerId: "memory" });
    assert.ok(rt.size >= 9);
    const d = rt.describe("memory/create_entities");
    assert.equal(d.provider.kind, "mcp");
    assert.ok(d.provider.version, "server version from initialize");
    const s = rt.createSession({ dynamicDiscovery: true });
    const hit = s.search({ query: "create entities in the knowledge graph" }).results.map((r) => r.name);
    assert.ok(hit.includes("memory/create_entities"), hit.join(","));
    s.inspect({ name: "memory/create_entities" });
    const o = await s.call(
      "memory/create_entities",
      { entities: [{ name: "holaryn", entityType: "project", observations: ["sans-IO core"] }] },
      { execute: mcpExecute([memory]), approve: async () => true },
    );
    assert.equal(o.status, "ok", o.message);
  } finally {
    await client.close();
  }
});

test("list_changed re-lists, changes the registry version and invalidates handles; disconnect marks tools unavailable", async () => {
  const server = new McpServer(
    { name: "dynamic", version: "1.2.3" },
    { capabilities: { tools: { listChanged: true } } },
  );
  server.registerTool(
    "echo",
    { description: "Echo text back", inputSchema: { text: z.string() } },
    async ({ text }) => ({
      content: [{ type: "text", text }],
    }),
  );
  const [a, b] = InMemoryTransport.createLinkedPair();
  await server.connect(a);
  const client = new Client({ name: "holaryn-test", version: "0" });
  await client.connect(b);
  const rt = new HolarynRuntime();
  const events = [];
  rt.addEventListener((e) => e.type === "tool_registry_changed" && events.push(e));
  const adapter = await connectMcpProvider(rt, client, { providerId: "dyn" });
  const s = rt.createSession({ dynamicDiscovery: true });
  const { handle } = s.inspect({ name: "dyn/echo" });
  const echo = await s.call(handle, { text: "hi" }, { execute: mcpExecute([adapter]) });
  assert.equal(echo.status, "ok");
  assert.deepEqual(
    echo.output,
    { content: [{ type: "text", text: "hi" }] },
    "the CallToolResult as sent, its text once",
  );

  const before = rt.version;
  const added = server.registerTool(
    "shout",
    { description: "Upper-case text", inputSchema: { text: z.string() } },
    async ({ text }) => ({
      content: [{ type: "text", text: text.toUpperCase() }],
    }),
  );
  await waitFor(() => rt.describe("dyn/shout"));
  assert.notEqual(rt.version, before);
  const change = events.find((e) => !e.sessionId && e.added.includes("dyn/shout"));
  assert.ok(change && change.oldVersion === before);
  // echo did not change: its handle stays valid (issue 20); the removed tool's handle is stale.
  assert.equal((await s.call(handle, { text: "x" }, { execute: mcpExecute([adapter]) })).status, "ok");
  const shout = s.inspect({ name: "dyn/shout" }).handle;
  added.remove();
  await waitFor(() => !rt.describe("dyn/shout"));
  assert.equal((await s.call(shout, { text: "x" }, { execute: mcpExecute([adapter]) })).code, "handle.stale");

  await client.close();
  await waitFor(() => s.capabilityTable().find((r) => r.name === "dyn/echo")?.availability.state === "unavailable");
  const row = s.capabilityTable().find((r) => r.name === "dyn/echo");
  assert.equal(row.availability.code, "unavailable.disconnected");
});

async function waitFor(pred, ms = 3000) {
  const end = Date.now() + ms;
  while (!pred()) {
    if (Date.now() > end) throw new Error("timed out waiting");
    await new Promise((r) => setTimeout(r, 10));
  }
}
