// dispatchModelCall through the built package (issues 17 and 20): model
// mistakes come back as each format's error tool result, never a throw, and
// an MCP server's content blocks reach the model once, in the format's blocks.
import { test } from "node:test";
import assert from "node:assert/strict";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { z } from "zod";
import { HolarynRuntime } from "holaryn";
import { connectMcpProvider, mcpExecute } from "holaryn/mcp";
import { native, secret } from "./helpers.mjs";

const PNG = "iVBORw0KGgo=";
const FORMATS = ["anthropic", "openai_chat", "openai_responses", "mcp"];

function callOf(format, id, name, args) {
  const text = typeof args === "string" ? args : JSON.stringify(args);
  switch (format) {
    case "anthropic":
      return { type: "tool_use", id, name, input: typeof args === "string" ? {} : args };
    case "openai_chat":
      return { id, type: "function", function: { name, arguments: text } };
    case "openai_responses":
      return { type: "function_call", call_id: id, name, arguments: text };
    default:
      return { name, arguments: typeof args === "string" ? {} : args };
  }
}

/** Connect `server` in memory as provider `id` of a new runtime, run `body`, then disconnect. */
async function withProvider(server, id, body) {
  const [a, b] = InMemoryTransport.createLinkedPair();
  await server.connect(a);
  const client = new Client({ name: "holaryn-test", version: "0" });
  await client.connect(b);
  try {
    const rt = new HolarynRuntime();
    await body(rt, await connectMcpProvider(rt, client, { providerId: id }));
  } finally {
    await client.close();
  }
}

function errorOf(format, r) {
  const text = { anthropic: r.content, openai_chat: r.content, openai_responses: r.output, mcp: r.content?.[0]?.text }[
    format
  ];
  return JSON.parse(text).error;
}

test("model mistakes are each format's error tool result; host mistakes throw", async () => {
  const rt = new HolarynRuntime();
  rt.registerTools([native("read_file", "Read a file")]);
  const s = rt.createSession({ dynamicDiscovery: true }, secret(3));
  s.inspect({ name: "read_file" });
  let ran = 0;
  const host = { execute: () => (ran++, "contents") };
  for (const format of FORMATS) {
    const cases = [
      [callOf(format, "c1", "no_such_tool", {}), "tool.unknown"],
      [callOf(format, "c2", "read_file", [1, 2]), "args.invalid"],
    ];
    if (format === "openai_chat" || format === "openai_responses")
      cases.push([callOf(format, "c3", "read_file", "{not json"), "input.invalid"]);
    for (const [call, code] of cases) {
      const r = await s.dispatchModelCall(format, call, host);
      const err = errorOf(format, r);
      assert.equal(err.code, code, `${format} ${JSON.stringify(call)}`);
      assert.equal(typeof err.nextAction, "string");
      if (format === "anthropic") assert.deepEqual([r.type, r.tool_use_id, r.is_error], ["tool_result", call.id, true]);
      if (format === "openai_chat") assert.deepEqual([r.role, r.tool_call_id], ["tool", call.id]);
      if (format === "openai_responses") assert.deepEqual([r.type, r.call_id], ["function_call_output", call.call_id]);
      if (format === "mcp") assert.equal(r.isError, true);
    }
  }
  assert.equal(ran, 0, "nothing ran");
  const ok = await s.dispatchModelCall("openai_chat", callOf("openai_chat", "c4", "read_file", { path: "a" }), host);
  assert.deepEqual(ok, { role: "tool", tool_call_id: "c4", content: "contents" });
  await assert.rejects(
    async () => s.dispatchModelCall("anthropic", { type: "tool_use", name: "read_file", input: {} }, host),
    (e) => e.code === "input.invalid",
    "no call id to answer: a host error",
  );
  s.close();
  await assert.rejects(
    async () => s.dispatchModelCall("anthropic", callOf("anthropic", "c5", "read_file", {}), host),
    (e) => e.code === "session.unknown",
  );
});

test("an OpenAI Chat `custom` tool call is an error tool message, not a throw (issue 31)", async () => {
  const rt = new HolarynRuntime();
  rt.registerTools([native("read_file", "Read a file")]);
  const s = rt.createSession({ dynamicDiscovery: true }, secret(3));
  s.inspect({ name: "read_file" });
  let ran = 0;
  const call = { id: "call_custom1", type: "custom", custom: { name: "read_file", input: "a.txt" } };
  const r = await s.dispatchModelCall("openai_chat", call, { execute: () => (ran++, "contents") });
  assert.deepEqual([r.role, r.tool_call_id], ["tool", "call_custom1"]);
  const err = errorOf("openai_chat", r);
  assert.equal(err.code, "input.invalid");
  assert.match(err.message, /custom/);
  assert.equal(typeof err.nextAction, "string");
  assert.equal(ran, 0, "nothing ran");
  s.close();
});

test("an MCP server's text, image, link and structured content reach each format once", async () => {
  const server = new McpServer({ name: "media", version: "1" });
  server.registerTool(
    "snap",
    { description: "Take a snapshot", inputSchema: { label: z.string() } },
    async ({ label }) => ({
      content: [
        { type: "text", text: label },
        { type: "image", data: PNG, mimeType: "image/png" },
        { type: "resource_link", uri: "file:///snap.png", name: "snap.png", mimeType: "image/png" },
      ],
    }),
  );
  server.registerTool(
    "count",
    { description: "Count files", inputSchema: {}, outputSchema: { n: z.number() } },
    async () => ({
      content: [{ type: "text", text: "3 files" }],
      structuredContent: { n: 3 },
    }),
  );
  await withProvider(server, "media", async (rt, adapter) => {
    const s = rt.createSession({ dynamicDiscovery: true }, secret(4));
    s.inspect({ name: "media/snap" });
    s.inspect({ name: "media/count" });
    const host = { execute: mcpExecute([adapter]) };
    const results = {};
    for (const format of FORMATS) {
      const names = s.exportTools(format).names;
      const wire = (c) => Object.keys(names).find((w) => names[w] === c);
      results[format] = {
        snap: await s.dispatchModelCall(
          format,
          callOf(format, "s1", wire("media/snap"), { label: "a very long label" }),
          host,
        ),
        count: await s.dispatchModelCall(format, callOf(format, "n1", wire("media/count"), {}), host),
      };
    }
    const link = "[resource link: snap.png <file:///snap.png>, image/png]";
    assert.deepEqual(results.anthropic.snap, {
      type: "tool_result",
      tool_use_id: "s1",
      is_error: false,
      content: [
        { type: "text", text: "a very long label" },
        { type: "image", source: { type: "base64", media_type: "image/png", data: PNG } },
        { type: "text", text: link },
      ],
    });
    assert.deepEqual(results.openai_chat.snap.content, [
      { type: "text", text: "a very long label" },
      { type: "text", text: "[image/png, 8 bytes, not shown: this format's tool results carry text only]" },
      { type: "text", text: link },
    ]);
    assert.deepEqual(results.openai_responses.snap.output, [
      { type: "input_text", text: "a very long label" },
      { type: "input_image", image_url: `data:image/png;base64,${PNG}` },
      { type: "input_text", text: link },
    ]);
    assert.equal(results.mcp.snap.isError, false);
    assert.deepEqual(results.mcp.snap.content[1], { type: "image", data: PNG, mimeType: "image/png" });
    for (const format of FORMATS) {
      assert.equal(
        JSON.stringify(results[format].snap).split("a very long label").length,
        2,
        `${format}: the text once`,
      );
    }
    assert.deepEqual(results.anthropic.count.content, [
      { type: "text", text: "3 files" },
      { type: "text", text: '{"n":3}' },
    ]);
    assert.deepEqual(results.mcp.count.structuredContent, { n: 3 });
  });
});

test("100 KiB of MCP text is sent once and fits a cap of its own size", async () => {
  const big = "x".repeat(100 * 1024);
  const server = new McpServer({ name: "big", version: "1" });
  server.registerTool("dump", { description: "Dump text", inputSchema: {} }, async () => ({
    content: [{ type: "text", text: big }],
  }));
  await withProvider(server, "big", async (rt, adapter) => {
    const s = rt.createSession({ dynamicDiscovery: true, maxOutputBytes: big.length }, secret(5));
    s.inspect({ name: "big/dump" });
    const wire = Object.keys(s.exportTools("anthropic").names).find((w) => w !== "tool_search" && w.includes("dump"));
    const r = await s.dispatchModelCall(
      "anthropic",
      { type: "tool_use", id: "d", name: wire, input: {} },
      { execute: mcpExecute([adapter]) },
    );
    assert.equal(r.is_error, false);
    assert.equal(r.content, big);
    assert.ok(JSON.stringify(r).length < big.length + 100, "sent once");
  });
});
