// The first OpenAI Chat Completions loop, with no cast: function tools in, each function tool call
// into dispatchModelCall, each `role: "tool"` message back.
import type OpenAI from "openai";
import type { HolarynSession, OpenAIChatTool, OpenAIChatToolCall, OpenAIChatToolMessage } from "holaryn";

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

declare const sdkCall: OpenAI.ChatCompletionMessageFunctionToolCall;
declare const tool: OpenAIChatTool;
declare const result: OpenAIChatToolMessage;
export const call: OpenAIChatToolCall = sdkCall;
export const asSdkTool: OpenAI.ChatCompletionTool = tool;
export const asSdkFunctionTool: OpenAI.ChatCompletionFunctionTool = tool;
export const asSdkResult: OpenAI.ChatCompletionToolMessageParam = result;
export const asSdkMessage: OpenAI.ChatCompletionMessageParam = result;
