// The first OpenAI Chat Completions loop, with no cast: function tools in, each function tool call
// into dispatchModelCall, each `role: "tool"` message back. tests/types/sdk-openai-chat.ts
// type-checks it; tests/agent-loops/loops.test.mjs runs it (compiled) against a scripted model.
import type OpenAI from "openai";
import type { HolarynSession } from "holaryn";

export async function loop(client: OpenAI, session: HolarynSession, prompt: string): Promise<string | null> {
  const messages: OpenAI.ChatCompletionMessageParam[] = [{ role: "user", content: prompt }];
  for (;;) {
    const res = await client.chat.completions.create({
      model: "gpt-5",
      messages,
      tools: session.exportTools("openai_chat").tools,
    });
    const message = res.choices[0]?.message;
    if (!message) return null;
    messages.push(message);
    const calls = (message.tool_calls ?? []).filter((c) => c.type === "function");
    if (calls.length === 0) return message.content;
    for (const call of calls) messages.push(await session.dispatchModelCall("openai_chat", call));
  }
}
