// holaryn/otel: activity records as OpenTelemetry spans, following the
// GenAI semantic conventions for tool execution. A call (invocation or
// denial) becomes an `execute_tool {name}` span timed by the record; search,
// list, inspect, registry changes and code-run summaries become short
// `holaryn.{kind}` spans. Spans carry what the activity record carries —
// tool name, call ids (`gen_ai.tool.call.id` is the model's tool-call id
// when a model made the call, else the gate's; `holaryn.call.id` is always
// the gate's), provider, outcome code, timings, sizes — and never
// arguments, outputs, prompts or secrets, because the records never hold them.

import { ConfigError } from "./core.mjs";

let api;
try {
  api = await import("@opentelemetry/api");
} catch (e) {
  const err = new ConfigError(
    `holaryn/otel needs the OpenTelemetry API: npm install @opentelemetry/api (${e.code ?? e.message})`,
    "config.invalid",
  );
  err.nextAction = "npm install @opentelemetry/api";
  err.cause = e;
  throw err;
}
const { SpanKind, SpanStatusCode, trace } = api;

/** Record kinds that are tool executions (GenAI `execute_tool`). */
const CALLS = new Set(["invocation", "denial", "code_summary"]);

/** The GenAI tool type of a record: MCP and connected-app tools run elsewhere (`extension`). */
function toolType(record) {
  const kind = record.provenance?.providerKind;
  return kind === "mcp" || kind === "connected_app" ? "extension" : "function";
}

/** Span attributes for one record (never arguments or outputs: records do not hold them). */
export function spanAttributes(record) {
  const a = {
    "holaryn.activity.kind": record.kind,
    "holaryn.activity.seq": record.seq,
    "holaryn.outcome": record.outcome,
    "holaryn.registry.version": record.registryVersion,
  };
  if (CALLS.has(record.kind)) {
    a["gen_ai.operation.name"] = "execute_tool";
    if (record.tool) a["gen_ai.tool.name"] = record.tool;
    a["gen_ai.tool.type"] = toolType(record);
  }
  // The model's tool-call id when the call came from a model (dispatchModelCall), else the gate's.
  if (record.toolCallId ?? record.callId) a["gen_ai.tool.call.id"] = record.toolCallId ?? record.callId;
  if (record.callId) a["holaryn.call.id"] = record.callId;
  if (record.session) a["holaryn.session.id"] = record.session;
  if (record.tool && !CALLS.has(record.kind)) a["holaryn.tool.name"] = record.tool;
  if (record.path) a["holaryn.call.path"] = record.path;
  if (record.provenance) {
    a["holaryn.provider.id"] = record.provenance.providerId;
    a["holaryn.provider.kind"] = record.provenance.providerKind;
    if (record.provenance.toolVersion) a["holaryn.tool.version"] = record.provenance.toolVersion;
    if (record.provenance.providerVersion) a["holaryn.provider.version"] = record.provenance.providerVersion;
  }
  if (record.bytes !== undefined) a["holaryn.bytes"] = record.bytes;
  if (record.count !== undefined) a["holaryn.count"] = record.count;
  if (record.scope) a["holaryn.policy.scope"] = record.scope;
  if (failed(record)) a["error.type"] = record.outcome;
  return a;
}

/** A tool execution that did not complete (refused, denied, failed, timed out …). */
const failed = (record) => CALLS.has(record.kind) && record.outcome !== "ok" && record.outcome !== "code.ok";

/** The span name: `execute_tool {tool}` for calls (GenAI convention), else `holaryn.{kind}`. */
export function spanName(record) {
  if (CALLS.has(record.kind)) return record.tool ? `execute_tool ${record.tool}` : "execute_tool";
  return `holaryn.${record.kind}`;
}

/**
 * Turn every activity record of `runtime` into a span of `tracer` (default:
 * the global tracer provider's `holaryn` tracer). Returns `stop()`.
 * @param {import("./index.d.ts").HolarynRuntime} runtime
 * @param {{tracer?: import("@opentelemetry/api").Tracer}} [options]
 */
export function instrumentActivity(runtime, { tracer = trace.getTracer("holaryn") } = {}) {
  const listener = (event) => {
    if (event.type !== "activity") return;
    const { type: _type, ...record } = event;
    const end = record.timeMs;
    const start = end - (record.durationMs ?? 0);
    const span = tracer.startSpan(spanName(record), {
      kind: SpanKind.INTERNAL,
      startTime: start,
      attributes: spanAttributes(record),
    });
    span.addEvent("holaryn.activity", { "holaryn.reason": record.reason }, end);
    if (failed(record)) span.setStatus({ code: SpanStatusCode.ERROR, message: record.reason });
    span.end(end);
  };
  runtime.addEventListener(listener);
  return { stop: () => runtime.removeEventListener(listener) };
}
