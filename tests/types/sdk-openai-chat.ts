// The first OpenAI Chat Completions loop lives in tests/agent-loops/openai-chat.ts (run there
// against a scripted model); importing it here type-checks it with the rest. Then the per-format
// shapes and the SDK's own types are assignable where values cross.
import type OpenAI from "openai";
import type { HolarynSession, OpenAIChatTool, OpenAIChatToolCall, OpenAIChatToolMessage } from "holaryn";
import { loop } from "../agent-loops/openai-chat.js";

// The loop as a user calls it.
export const firstLoop: (client: OpenAI, session: HolarynSession, prompt: string) => Promise<string | null> = loop;

declare const sdkCall: OpenAI.ChatCompletionMessageFunctionToolCall;
declare const tool: OpenAIChatTool;
declare const result: OpenAIChatToolMessage;
export const call: OpenAIChatToolCall = sdkCall;
export const asSdkTool: OpenAI.ChatCompletionTool = tool;
export const asSdkFunctionTool: OpenAI.ChatCompletionFunctionTool = tool;
export const asSdkResult: OpenAI.ChatCompletionToolMessageParam = result;
export const asSdkMessage: OpenAI.ChatCompletionMessageParam = result;

// The natural loop (issue 31): every `tool_calls[i]` as the SDK types it, function or custom, passed
// as is; a custom call resolves to an error `role: "tool"` message (holaryn exports function tools only).
declare const message: OpenAI.ChatCompletionMessage;
declare const session: HolarynSession;
export async function naturalLoop(): Promise<OpenAI.ChatCompletionMessageParam[]> {
  const replies: OpenAI.ChatCompletionMessageParam[] = [];
  for (const c of message.tool_calls ?? []) replies.push(await session.dispatchModelCall("openai_chat", c));
  return replies;
}
declare const anySdkCall: OpenAI.ChatCompletionMessageToolCall;
export const anyCall: OpenAIChatToolCall = anySdkCall;
