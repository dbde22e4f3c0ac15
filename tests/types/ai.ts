// holaryn/ai and holaryn/otel against the installed AI SDK and OpenTelemetry
// types: the loop a user writes first compiles with no cast.
import { generateText, type LanguageModel, stepCountIs } from "ai";
import type { HolarynRuntime } from "holaryn";
import { HolarynToolError, holarynTools } from "holaryn/ai";
import { instrumentActivity } from "holaryn/otel";
import { trace } from "@opentelemetry/api";

declare const model: LanguageModel;

export async function agent(rt: HolarynRuntime): Promise<string> {
  const session = rt.createSession({ dynamicDiscovery: true });
  const { stop } = instrumentActivity(rt, { tracer: trace.getTracer("my-agent") });
  const holaryn = holarynTools(session, {
    host: { execute: async (req) => ({ ran: req.tool }), approve: async () => true },
  });
  try {
    const result = await generateText({
      model,
      tools: holaryn.tools,
      activeTools: holaryn.activeTools,
      prepareStep: holaryn.prepareStep,
      stopWhen: stepCountIs(8),
      prompt: "Remember that Ada wrote the first program.",
    });
    return result.text;
  } catch (e) {
    if (e instanceof HolarynToolError) return `${e.code}: ${e.nextAction ?? ""}`;
    throw e;
  } finally {
    stop();
  }
}
