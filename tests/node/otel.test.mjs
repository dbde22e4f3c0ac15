// holaryn/otel with the OpenTelemetry SDK's in-memory exporter: calls become
// GenAI `execute_tool` spans (name, call id, provider, outcome code), denials
// are errors, and no argument or output ever reaches a span.

import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } from "@opentelemetry/sdk-trace-base";
import { HolarynRuntime } from "../../js/node.mjs";
import { instrumentActivity } from "../../js/otel.mjs";

const CANARY = "canary-7f3e-never-in-a-span";

describe("holaryn/otel", () => {
  it("exports activity records as GenAI tool-execution spans without payloads", async () => {
    const exporter = new InMemorySpanExporter();
    const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
    const rt = new HolarynRuntime({});
    const { stop } = instrumentActivity(rt, { tracer: provider.getTracer("holaryn-test") });
    rt.registerTools([
      {
        name: "notes/add",
        description: "Add a note",
        source: "mcp",
        provider: { id: "notes", kind: "mcp", version: "1.2.3" },
        inputSchema: { type: "object", properties: { text: { type: "string" } } },
        annotations: { destructiveHint: true },
      },
    ]);
    const s = rt.createSession({ dynamicDiscovery: true });
    s.search({ query: `add a note ${CANARY}` });
    s.inspect({ name: "notes/add" });
    const host = { execute: () => ({ echoed: CANARY }), approve: () => true };
    const ok = await s.call("notes/add", { text: CANARY }, host);
    await s.call("notes/add", { text: 1 }, host);
    await s.call("notes/add", { text: CANARY }, { ...host, approve: () => false });
    stop();
    await s.call("notes/add", { text: "after stop" }, host);

    const spans = exporter.getFinishedSpans();
    const calls = spans.filter((x) => x.name === "execute_tool notes/add");
    assert.equal(calls.length, 3, spans.map((x) => x.name).join(", "));
    const [done, invalid, denied] = calls;
    assert.equal(done.attributes["gen_ai.operation.name"], "execute_tool");
    assert.equal(done.attributes["gen_ai.tool.name"], "notes/add");
    assert.equal(done.attributes["gen_ai.tool.type"], "extension");
    assert.equal(done.attributes["holaryn.provider.id"], "notes");
    assert.equal(done.attributes["holaryn.provider.version"], "1.2.3");
    assert.equal(done.attributes["holaryn.outcome"], "ok");
    assert.equal(done.attributes["gen_ai.tool.call.id"], ok.callId);
    assert.match(invalid.attributes["gen_ai.tool.call.id"], /^call/);
    assert.equal(done.status.code, 0);
    assert.equal(invalid.attributes["error.type"], "args.invalid");
    assert.equal(invalid.status.code, 2);
    assert.equal(denied.attributes["error.type"], "approval.denied");
    assert.ok(spans.some((x) => x.name === "holaryn.search"));
    assert.ok(spans.some((x) => x.name === "holaryn.schema_load"));
    const everything = JSON.stringify(spans.map((x) => ({ n: x.name, a: x.attributes, e: x.events })));
    assert.doesNotMatch(everything, new RegExp(CANARY));
    await provider.shutdown();
  });

  it("a model's call carries the model's tool-call id into its activity record and span (issue 31)", async () => {
    const exporter = new InMemorySpanExporter();
    const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
    const rt = new HolarynRuntime({});
    const records = [];
    rt.addEventListener((ev) => ev.type === "activity" && records.push(ev));
    const { stop } = instrumentActivity(rt, { tracer: provider.getTracer("holaryn-test") });
    rt.registerTools([
      {
        name: "notes_add",
        description: "Add a note",
        source: "native",
        provider: { id: "notes" },
        inputSchema: { type: "object", properties: { text: { type: "string" } } },
      },
    ]);
    const s = rt.createSession({ dynamicDiscovery: true });
    s.inspect({ name: "notes_add" });
    const host = { execute: () => ({ ok: true }) };
    const calls = [
      ["anthropic", { type: "tool_use", id: "toolu_01A", name: "notes_add", input: { text: "a" } }],
      [
        "openai_chat",
        { id: "call_chat1", type: "function", function: { name: "notes_add", arguments: '{"text":"b"}' } },
      ],
      [
        "openai_responses",
        { type: "function_call", call_id: "call_resp1", name: "notes_add", arguments: '{"text":"c"}', id: "fc_1" },
      ],
      ["openai_chat", { id: "call_bad", type: "function", function: { name: "no_such_tool", arguments: "{}" } }],
    ];
    for (const [format, call] of calls) await s.dispatchModelCall(format, call, host);
    stop();
    const ids = ["toolu_01A", "call_chat1", "call_resp1", "call_bad"];
    const callRecords = records.filter((r) => r.kind === "invocation" || r.kind === "denial");
    assert.deepEqual(
      callRecords.map((r) => r.toolCallId),
      ids,
    );
    assert.ok(
      callRecords.every((r) => /^call/.test(r.callId)),
      "the gate's own id stays in callId",
    );
    const spans = exporter.getFinishedSpans().filter((x) => x.attributes["gen_ai.operation.name"] === "execute_tool");
    assert.deepEqual(
      spans.map((x) => x.attributes["gen_ai.tool.call.id"]),
      ids,
    );
    assert.deepEqual(
      spans.map((x) => x.attributes["holaryn.call.id"]),
      callRecords.map((r) => r.callId),
    );
    await provider.shutdown();
  });
});
