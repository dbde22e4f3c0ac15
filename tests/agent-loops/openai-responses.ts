// The first OpenAI Responses loop, with no cast: function tools (with `strict`) in, each
// function_call item into dispatchModelCall, each function_call_output back as input.
// tests/types/sdk-openai-responses.ts type-checks it; tests/agent-loops/loops.test.mjs runs it
// (compiled) against a scripted model.
import type OpenAI from "openai";
import type { HolarynSession } from "holaryn";

export async function loop(client: OpenAI, session: HolarynSession, prompt: string): Promise<string> {
  const input: OpenAI.Responses.ResponseInput = [{ role: "user", content: prompt }];
  for (;;) {
    const res = await client.responses.create({
      model: "gpt-5",
      input,
      tools: session.exportTools("openai_responses").tools,
    });
    const calls = res.output.filter((item) => item.type === "function_call");
    if (calls.length === 0) return res.output_text;
    for (const call of calls) input.push(call, await session.dispatchModelCall("openai_responses", call));
  }
}
