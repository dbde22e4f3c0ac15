// holaryn/ai and holaryn/otel from the installed tarball: the README's Vercel
// AI SDK + OpenTelemetry example as written (types stripped by esbuild), with
// the free `model` an AI SDK mock model that calls tool_search and answers,
// and a global tracer provider that keeps the spans the example's
// instrumentActivity(rt) makes. The optional peers (ai, @opentelemetry/api)
// are linked from the repo's devDependencies, as a user would install them.
import { test } from "node:test";
import assert from "node:assert/strict";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { transformSync } from "esbuild";
import { codeFences } from "../../scripts/readme-examples.mjs";
import { packedProject } from "./project.mjs";

const p = packedProject({ links: ["ai", "@opentelemetry/api", "@opentelemetry/sdk-trace-base"] });

// The free name the example declares (`model`), and where its spans go.
const PRELUDE = `import { MockLanguageModelV3 } from "ai/test";
import { trace } from "@opentelemetry/api";
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } from "@opentelemetry/sdk-trace-base";
const spans = new InMemorySpanExporter();
trace.setGlobalTracerProvider(new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(spans)] }));
const usage = { inputTokens: { total: 1, noCache: 1, cacheRead: 0, cacheWrite: 0 }, outputTokens: { total: 1, text: 1, reasoning: 0 } };
const steps = [
  { content: [{ type: "tool-call", toolCallId: "c1", toolName: "tool_search", input: JSON.stringify({ query: "remember a preference" }) }],
    finishReason: { unified: "tool-calls", raw: "tool_use" }, usage, warnings: [] },
  { content: [{ type: "text", text: "Noted: tabs." }], finishReason: { unified: "stop", raw: "end_turn" }, usage, warnings: [] },
];
let step = 0;
const model = new MockLanguageModelV3({ doGenerate: async () => steps[step++] });
`;
const CHECK = `console.log(JSON.stringify({ text, steps: step, spans: spans.getFinishedSpans().map((s) => s.name) }));
`;

test("README: the Vercel AI SDK + OpenTelemetry example runs as written from the installed package", () => {
  const [f] = codeFences(["ts"]).filter((x) => x.heading.startsWith("Vercel AI SDK and OpenTelemetry"));
  const code = transformSync(f.code, { loader: "ts", format: "esm" }).code;
  assert.doesNotMatch(code, /\bdeclare\b/, "esbuild dropped the declaration of the free name");
  writeFileSync(join(p.dir, "ai-otel.mjs"), PRELUDE + code + CHECK);
  const r = p.run(process.execPath, ["ai-otel.mjs"]);
  assert.equal(r.status, 0, r.stderr);
  const out = JSON.parse(r.stdout);
  assert.equal(out.text, "Noted: tabs.");
  assert.equal(out.steps, 2);
  assert.ok(out.spans.includes("holaryn.session_created"), JSON.stringify(out.spans));
  assert.ok(out.spans.includes("holaryn.search"), JSON.stringify(out.spans));
});
