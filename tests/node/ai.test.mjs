// holaryn/ai with the Vercel AI SDK's mock model: search → inspect → call →
// answer against the real server-memory MCP server, every call gated; a
// refused call reaches the model as a tool error with its code and next
// action; the ToolSet follows the session between steps.

import assert from "node:assert/strict";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, it } from "node:test";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { generateText, stepCountIs } from "ai";
import { MockLanguageModelV3 } from "ai/test";
import { holarynTools } from "../../js/ai.mjs";
import { connectMcpProvider, mcpExecute } from "../../js/mcp.mjs";
import { HolarynRuntime } from "../../js/node.mjs";

const usage = {
  inputTokens: { total: 10, noCache: 10, cacheRead: 0, cacheWrite: 0 },
  outputTokens: { total: 5, text: 5, reasoning: 0 },
};
const call = (id, toolName, input) => ({
  content: [{ type: "tool-call", toolCallId: id, toolName, input: JSON.stringify(input) }],
  finishReason: { unified: "tool-calls", raw: "tool_use" },
  usage,
  warnings: [],
});
const answer = (text) => ({
  content: [{ type: "text", text }],
  finishReason: { unified: "stop", raw: "end_turn" },
  usage,
  warnings: [],
});

/** A mock model that plays `script` in order and records the tools each step offered. */
function scripted(script) {
  const offered = [];
  const prompts = [];
  const model = new MockLanguageModelV3({
    doGenerate: async (options) => {
      offered.push((options.tools ?? []).map((t) => t.name));
      prompts.push(options.prompt);
      const next = script[offered.length - 1];
      if (!next) throw new Error("the script ran out");
      return next;
    },
  });
  return { model, offered, prompts };
}

/** Tool results and errors the model received, in order. */
const toolOutputs = (prompt) =>
  prompt
    .filter((m) => m.role === "tool")
    .flatMap((m) => m.content.map((p) => ({ name: p.toolName, output: p.output })));

async function withMemory(fn) {
  const dir = mkdtempSync(join(tmpdir(), "holaryn-ai-"));
  const client = new Client({ name: "ai-test", version: "1.0.0" });
  await client.connect(
    new StdioClientTransport({
      command: process.execPath,
      args: [join(import.meta.dirname, "../../node_modules/@modelcontextprotocol/server-memory/dist/index.js")],
      env: { ...process.env, MEMORY_FILE_PATH: join(dir, "memory.jsonl") },
      stderr: "ignore",
    }),
  );
  try {
    const rt = new HolarynRuntime({});
    const memory = await connectMcpProvider(rt, client, { providerId: "memory" });
    return await fn(rt, mcpExecute([memory]));
  } finally {
    await client.close();
  }
}

describe("holaryn/ai (Vercel AI SDK adapter)", () => {
  it("runs search → inspect → call → answer with a mock model, the ToolSet growing by the inspected tool", async () => {
    await withMemory(async (rt, execute) => {
      const session = rt.createSession({ dynamicDiscovery: true });
      const holaryn = holarynTools(session, { host: { execute } });
      const { model, offered, prompts } = scripted([
        call("c1", "tool_search", { query: "remember a fact about a person" }),
        call("c2", "tool_inspect", { name: "memory/create_entities" }),
        call("c3", "memory__create_entities", {
          entities: [{ name: "Ada", entityType: "person", observations: ["wrote the first program"] }],
        }),
        answer("Saved."),
      ]);
      const result = await generateText({
        model,
        tools: holaryn.tools,
        activeTools: holaryn.activeTools,
        prepareStep: holaryn.prepareStep,
        stopWhen: stepCountIs(6),
        prompt: "Remember that Ada wrote the first program.",
      });
      assert.equal(result.text, "Saved.");
      assert.deepEqual(offered[0].sort(), ["tool_inspect", "tool_list", "tool_search"]);
      assert.ok(!offered[1].includes("memory__create_entities"), "not offered before its inspect");
      assert.ok(offered[2].includes("memory__create_entities"), "offered after its inspect");
      const outputs = toolOutputs(prompts[3]);
      assert.equal(outputs.length, 3);
      assert.match(JSON.stringify(outputs[0].output), /memory\/create_entities/);
      assert.equal(outputs[2].output.type, "json", JSON.stringify(outputs[2].output));
      assert.match(JSON.stringify(outputs[2].output), /Ada/);
      const graph = await session.dispatch("memory/read_graph", {}, { execute });
      assert.equal(graph.isError, true, "read_graph was never inspected: the gate refuses it");
    });
  });

  it("gives a refused call back to the model as a tool error with code and next action", async () => {
    await withMemory(async (rt, execute) => {
      const session = rt.createSession({ dynamicDiscovery: true, rules: { deny: ["memory/delete_entities"] } });
      const holaryn = holarynTools(session, { host: { execute } });
      const { model, prompts } = scripted([
        call("c1", "tool_inspect", { name: "memory/create_entities" }),
        call("c2", "memory__create_entities", { entities: "not an array" }),
        call("c3", "tool_inspect", { name: "memory/delete_entities" }),
        answer("done"),
      ]);
      await generateText({
        model,
        tools: holaryn.tools,
        prepareStep: holaryn.prepareStep,
        stopWhen: stepCountIs(6),
        prompt: "x",
      });
      const outputs = toolOutputs(prompts[3]);
      const invalid = outputs[1].output;
      assert.equal(invalid.type, "error-text", JSON.stringify(invalid));
      assert.match(invalid.value, /args\.invalid/);
      assert.match(invalid.value, /nextAction/);
      assert.match(JSON.stringify(outputs[2].output), /denied/);
    });
  });

  it("follows registry changes between steps: a removed tool leaves the ToolSet", async () => {
    const rt = new HolarynRuntime({});
    rt.registerTools([
      {
        name: "notes/add",
        description: "Add a note",
        source: "native",
        provider: { id: "notes" },
        inputSchema: { type: "object", properties: { text: { type: "string" } } },
      },
    ]);
    const session = rt.createSession({ dynamicDiscovery: true });
    const holaryn = holarynTools(session, { host: { execute: () => ({ ok: true }) } });
    session.inspect({ name: "notes/add" });
    assert.ok(holaryn.prepareStep().activeTools.includes("notes__add"));
    assert.ok("notes__add" in holaryn.tools);
    rt.removeTools(["notes/add"]);
    assert.ok(!holaryn.prepareStep().activeTools.includes("notes__add"));
    assert.ok(!("notes__add" in holaryn.tools));
  });
});
