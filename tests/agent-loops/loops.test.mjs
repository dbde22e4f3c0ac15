// The three SDK agent loops (tests/agent-loops/*.ts, compiled by `tsc -p tests/agent-loops` into
// target/agent-loops/) run end to end: the real SDK client talks to a scripted model on loopback
// (scripted-model.mjs), holaryn sits between it and real MCP servers over stdio (server-memory,
// server-filesystem, server-everything and tests/fixtures/servers/dynamic-server.mjs). Each
// scenario asserts what the model was sent: the tools array and each tool result, in the SDK's own
// shape.

import assert from "node:assert/strict";
import { existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import { fileURLToPath } from "node:url";
import Anthropic from "@anthropic-ai/sdk";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { HolarynRuntime } from "holaryn";
import { connectMcpProvider, mcpExecute } from "holaryn/mcp";
import OpenAI from "openai";
import { startScriptedModel } from "./scripted-model.mjs";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));
const MCP = join(ROOT, "node_modules/@modelcontextprotocol");
const BUILT = join(ROOT, "target/agent-loops");
if (!existsSync(join(BUILT, "anthropic.js"))) {
  throw new Error("target/agent-loops/ is missing: run `npx tsc -p tests/agent-loops` first");
}

/** Per SDK: the compiled loop, a real client pointed at the stand-in, and how to read its answer. */
const SDKS = {
  anthropic: {
    loop: (await import(join(BUILT, "anthropic.js"))).loop,
    client: (baseURL) => new Anthropic({ apiKey: "test-key", baseURL, maxRetries: 0 }),
    answer: (message) => message.content.map((b) => (b.type === "text" ? b.text : "")).join(""),
  },
  openai_chat: {
    loop: (await import(join(BUILT, "openai-chat.js"))).loop,
    client: (baseURL) => new OpenAI({ apiKey: "test-key", baseURL: `${baseURL}/v1`, maxRetries: 0 }),
    answer: (text) => text,
  },
  openai_responses: {
    loop: (await import(join(BUILT, "openai-responses.js"))).loop,
    client: (baseURL) => new OpenAI({ apiKey: "test-key", baseURL: `${baseURL}/v1`, maxRetries: 0 }),
    answer: (text) => text,
  },
};

const DISCOVERY = ["tool_search", "tool_list", "tool_inspect"];
/** One person per SDK: the loops share one server-memory, which keeps only the first entity of a name. */
const PERSON = { anthropic: "Ada Lovelace", openai_chat: "Grace Hopper", openai_responses: "Alan Turing" };
/** The wire name a provider-qualified tool is exported under (`memory/x` → `memory__x`). */
const wire = (name) => name.replace("/", "__");
const texts = (r) => r.parts.filter((p) => p.type === "text").map((p) => p.text);
/** The JSON a result's text holds (discovery results, error results), or undefined. */
function json(r) {
  try {
    return JSON.parse(texts(r).join(""));
  } catch {
    return undefined;
  }
}
/** The `{code, message, nextAction}` of an error result, or undefined. */
const errorOf = (r) => json(r)?.error;
const count = (haystack, needle) => haystack.split(needle).length - 1;

const servers = {};
/** What each MCP server answered to tools/call, as it sent it: `[server, tool, CallToolResult]`. */
const sent = [];
let rt;
let adapters;
let dir;

async function connect(id, command, args, env = {}) {
  const client = new Client({ name: "agent-loops-test", version: "1.0.0" });
  await client.connect(new StdioClientTransport({ command, args, env: { ...process.env, ...env }, stderr: "ignore" }));
  const callTool = client.callTool.bind(client);
  client.callTool = async (params, ...rest) => {
    const result = await callTool(params, ...rest);
    sent.push([id, params.name, result]);
    return result;
  };
  servers[id] = client;
  return connectMcpProvider(rt, client, { providerId: id });
}

before(async () => {
  dir = mkdtempSync(join(tmpdir(), "holaryn-loops-"));
  writeFileSync(join(dir, "notes.txt"), "hello from the filesystem server\n");
  rt = new HolarynRuntime();
  const node = process.execPath;
  adapters = await Promise.all([
    connect("memory", node, [join(MCP, "server-memory/dist/index.js")], {
      MEMORY_FILE_PATH: join(dir, "memory.jsonl"),
    }),
    connect("filesystem", node, [join(MCP, "server-filesystem/dist/index.js"), dir]),
    connect("everything", node, [join(MCP, "server-everything/dist/index.js"), "stdio"]),
    connect("dyn", node, [join(ROOT, "tests/fixtures/servers/dynamic-server.mjs")]),
  ]);
});

after(async () => {
  await Promise.all(Object.values(servers).map((c) => c.close()));
  rmSync(dir, { recursive: true, force: true });
});

/** The server's own answer to its last call of `tool`. */
const lastSent = (server, tool) => sent.findLast(([s, t]) => s === server && t === tool)?.[2];

/** Run `sdk`'s loop on a fresh session against `script`; resolves to `{answer, requests}`. */
async function run(sdk, script, prompt) {
  const session = rt.createSession({ dynamicDiscovery: true });
  // The user approves whatever asks first (grow and shrink are not read-only).
  session.setHost({ execute: mcpExecute(adapters), approve: async () => true });
  const model = await startScriptedModel(sdk, script);
  try {
    const { loop, client, answer } = SDKS[sdk];
    const out = await loop(client(model.baseURL), session, prompt);
    return { answer: answer(out), requests: model.requests };
  } finally {
    session.close();
    await model.close();
  }
}

async function waitFor(check, what) {
  for (let i = 0; i < 200; i++) {
    try {
      if (check()) return;
    } catch {
      // not yet
    }
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error(`timed out waiting for ${what}`);
}

for (const sdk of Object.keys(SDKS)) {
  describe(`${sdk} loop`, () => {
    test("server-memory: remember a fact about a person (search → inspect → create_entities → answer)", async (t) => {
      const create = "memory/create_entities";
      const { answer, requests } = await run(
        sdk,
        [
          (req) => {
            assert.deepEqual(
              req.toolNames.filter((n) => !DISCOVERY.includes(n)),
              [],
              "a session starts with the discovery tools only",
            );
            return { calls: [{ name: "tool_search", input: { query: "remember a fact about a person" } }] };
          },
          (req) => {
            const found = json(req.result("call_0_0")).results.map((r) => r.name);
            assert.ok(found.includes(create), found.join(", "));
            return { calls: [{ name: "tool_inspect", input: { name: create } }] };
          },
          (req) => {
            assert.ok(req.toolNames.includes(wire(create)), req.toolNames.join(", "));
            const entity = { name: PERSON[sdk], entityType: "person", observations: ["wrote a famous program"] };
            return { calls: [{ name: wire(create), input: { entities: [entity] } }] };
          },
          () => ({ text: `I will remember that ${PERSON[sdk]} wrote a famous program.` }),
        ],
        `Remember that ${PERSON[sdk]} wrote a famous program.`,
      );
      assert.equal(answer, `I will remember that ${PERSON[sdk]} wrote a famous program.`);
      assert.equal(requests.length, 4);
      const result = requests[3].result("call_2_0");
      await t.test("the tool result is the SDK's own shape and no error", () => {
        assert.ok(result, "the model was sent a result for the create_entities call");
        if (sdk === "anthropic") assert.equal(result.raw.type, "tool_result");
        if (sdk === "openai_chat") assert.equal(result.raw.role, "tool");
        if (sdk === "openai_responses") assert.equal(result.raw.type, "function_call_output");
        assert.notEqual(result.isError, true);
        assert.equal(errorOf(result), undefined);
        assert.ok(texts(result).join("\n").includes(PERSON[sdk]), texts(result).join("\n"));
      });
      if (sdk === "openai_responses") {
        await t.test("every Responses tool sent says `strict`, as the API requires", () => {
          for (const tool of requests[2].tools) assert.equal(typeof tool.strict, "boolean", tool.name);
        });
      }
      // holaryn/mcp hands on the CallToolResult as sent: its text reaches the model once.
      await t.test("the server's text reaches the model once, as text", () => {
        const serverText = lastSent("memory", "create_entities").content[0].text;
        assert.equal(texts(result).filter((x) => x === serverText).length, 1, texts(result).join("\n---\n"));
        assert.equal(count(texts(result).join("\n"), serverText), 1);
      });
    });

    test("server-filesystem: read a file in a temp dir", async (t) => {
      const read = "filesystem/read_text_file";
      const { answer, requests } = await run(
        sdk,
        [
          () => ({ calls: [{ name: "tool_search", input: { query: "read the contents of a text file" } }] }),
          (req) => {
            const found = json(req.result("call_0_0")).results.map((r) => r.name);
            assert.ok(found.includes(read), found.join(", "));
            return { calls: [{ name: "tool_inspect", input: { name: read } }] };
          },
          () => ({ calls: [{ name: wire(read), input: { path: join(dir, "notes.txt") } }] }),
          () => ({ text: "The file says hello." }),
        ],
        "What does notes.txt say?",
      );
      assert.equal(answer, "The file says hello.");
      const result = requests[3].result("call_2_0");
      assert.notEqual(result.isError, true);
      assert.equal(errorOf(result), undefined);
      assert.match(texts(result).join("\n"), /hello from the filesystem server/);
      // The file's text block reaches the model as text, not inside JSON.
      await t.test("the file's text is the first text part, unwrapped", () => {
        assert.equal(texts(result)[0], "hello from the filesystem server\n");
      });
    });

    test("server-everything: echo", async (t) => {
      const echo = "everything/echo";
      const { answer, requests } = await run(
        sdk,
        [
          () => ({ calls: [{ name: "tool_inspect", input: { name: echo } }] }),
          (req) => {
            assert.ok(req.toolNames.includes(wire(echo)), req.toolNames.join(", "));
            return { calls: [{ name: wire(echo), input: { message: `hi from ${sdk}` } }] };
          },
          () => ({ text: "It echoed." }),
        ],
        "Echo something.",
      );
      assert.equal(answer, "It echoed.");
      const result = requests[2].result("call_1_0");
      assert.notEqual(result.isError, true);
      assert.match(texts(result).join("\n"), new RegExp(`Echo: hi from ${sdk}`));
      // One text block reaches the model once, as itself.
      await t.test("the echo is the whole result, once", () => {
        assert.deepEqual(texts(result), [`Echo: hi from ${sdk}`]);
      });
    });

    test("dynamic server: isError, image, structured content, an unknown tool, a tool added and removed mid-session", async (t) => {
      const tools = ["dyn/fail", "dyn/picture", "dyn/measure", "dyn/echo_text", "dyn/grow"];
      const grown = `extra_${sdk}`;
      const { answer, requests } = await run(
        sdk,
        [
          () => ({ calls: [{ name: "tool_search", input: { query: "measure the length of a text" } }] }),
          () => ({ calls: tools.map((name) => ({ name: "tool_inspect", input: { name } })) }),
          (req) => {
            for (const name of tools) assert.ok(req.toolNames.includes(wire(name)), `${name} in ${req.toolNames}`);
            return {
              calls: [
                { name: wire("dyn/fail"), input: {} },
                { name: wire("dyn/picture"), input: {} },
                { name: wire("dyn/measure"), input: { text: "hello" } },
                { name: "no_such_tool", input: {} },
              ],
            };
          },
          () => ({ calls: [{ name: wire("dyn/grow"), input: { name: grown } }] }),
          async () => {
            await waitFor(() => rt.describe(`dyn/${grown}`), `dyn/${grown} to be registered`);
            return { calls: [{ name: wire("dyn/echo_text"), input: { text: "still here" } }] };
          },
          // The new tool is inspected, then removed on the server while the model still holds it.
          () => ({
            calls: [
              { name: "tool_inspect", input: { name: `dyn/${grown}` } },
              { name: "tool_inspect", input: { name: "dyn/shrink" } },
            ],
          }),
          (req) => {
            assert.ok(req.toolNames.includes(wire(`dyn/${grown}`)), req.toolNames.join(", "));
            return { calls: [{ name: wire("dyn/shrink"), input: { name: grown } }] };
          },
          async () => {
            await waitFor(() => !rt.describe(`dyn/${grown}`), `dyn/${grown} to be removed`);
            return { calls: [{ name: wire(`dyn/${grown}`), input: {} }] };
          },
          () => ({ text: "done" }),
        ],
        "Try the dynamic server's tools.",
      );
      assert.equal(answer, "done");
      const at = requests[3];

      await t.test("a tool's isError reaches the model as an error result", () => {
        const r = at.result("call_2_0");
        if (sdk === "anthropic") assert.equal(r.isError, true);
        assert.match(texts(r).join("\n"), /it failed on purpose/);
        assert.ok(errorOf(r) ?? r.isError, texts(r).join("\n"));
      });
      // An image is the format's image block (Anthropic, Responses) or a short text note (Chat).
      await t.test("an image reaches the model as an image (or a short note)", () => {
        const r = at.result("call_2_1");
        const images = r.parts.filter((p) => p.type === "image");
        if (sdk === "openai_chat") {
          assert.equal(images.length, 0);
          assert.match(texts(r).join("\n"), /^\[image\/png, \d+ bytes, not shown/);
          assert.ok(!texts(r).join("").includes("iVBORw0KGgo"), "no base64 in the note");
        } else {
          assert.equal(images.length, 1);
          assert.equal(images[0].mime, "image/png");
          assert.equal(images[0].data, lastSent("dyn", "picture").content[0].data);
        }
      });
      // structuredContent alongside the content, not instead of it.
      await t.test("structured content reaches the model beside the text", () => {
        const r = at.result("call_2_2");
        assert.notEqual(r.isError, true);
        assert.equal(texts(r)[0], "5");
        assert.ok(
          texts(r).some((x) => JSON.stringify(JSON.parse(x)) === JSON.stringify({ length: 5 })),
          texts(r).join("\n"),
        );
      });
      await t.test("an unknown tool name is an error result naming what to do, never a throw", () => {
        const r = at.result("call_2_3");
        if (sdk === "anthropic") assert.equal(r.isError, true);
        const error = errorOf(r);
        assert.equal(error?.code, "tool.unknown", texts(r).join("\n"));
        assert.ok(error.nextAction || /tool_search|tool_inspect/.test(error.message), JSON.stringify(error));
      });
      await t.test("grow adds a tool at runtime: list_changed re-lists the server and the tool is registered", () => {
        assert.ok(requests[6].toolNames.includes(wire(`dyn/${grown}`)), "inspected and exported");
        assert.notEqual(requests[4].result("call_3_0").isError, true);
        assert.match(texts(requests[4].result("call_3_0")).join(""), new RegExp(`added ${grown}`));
      });
      await t.test("a call to a tool removed since the model saw it is an error result, never a throw", () => {
        assert.match(texts(requests[7].result("call_6_0")).join(""), new RegExp(`removed ${grown}`));
        const r = requests[8].result("call_7_0");
        if (sdk === "anthropic") assert.equal(r.isError, true);
        assert.equal(errorOf(r)?.code, "tool.unknown", texts(r).join("\n"));
      });
      // needs h20-invalidate: a registry change on the server leaves the other loaded tools exported and callable.
      await t.test("after grow, another loaded tool stays exported and callable", () => {
        assert.ok(requests[5].toolNames.includes(wire("dyn/echo_text")), requests[5].toolNames.join(", "));
        const r = requests[5].result("call_4_0");
        assert.notEqual(r.isError, true);
        assert.equal(errorOf(r), undefined, texts(r).join("\n"));
        assert.match(texts(r).join(""), /still here/);
      });
    });

    // Malformed JSON arguments exist only where arguments are a JSON string (the OpenAI formats;
    // Anthropic's `input` arrives parsed).
    if (sdk !== "anthropic") {
      test("malformed JSON arguments give an error tool result, never a throw", async () => {
        const echo = "dyn/echo_text";
        const { answer, requests } = await run(
          sdk,
          [
            () => ({ calls: [{ name: "tool_inspect", input: { name: echo } }] }),
            () => ({ calls: [{ name: wire(echo), arguments: '{"text": "unfinished' }] }),
            () => ({ calls: [{ name: wire(echo), input: { text: "fixed" } }] }),
            () => ({ text: "ok" }),
          ],
          "Echo something, clumsily.",
        );
        assert.equal(answer, "ok");
        const bad = requests[2].result("call_1_0");
        assert.equal(errorOf(bad)?.code, "input.invalid", texts(bad).join("\n"));
        assert.match(errorOf(bad).message, /not JSON/);
        assert.match(texts(requests[3].result("call_2_0")).join(""), /fixed/);
      });
    }
  });
}
