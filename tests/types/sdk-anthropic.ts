// The first loop an Anthropic SDK user writes lives in tests/agent-loops/anthropic.ts (run there
// against a scripted model and real MCP servers); importing it here type-checks it with the rest.
// Then the per-format shapes and the SDK's own types are assignable where values cross.
import type Anthropic from "@anthropic-ai/sdk";
import type { AnthropicTool, AnthropicToolResult, AnthropicToolUse, HolarynSession } from "holaryn";
import { loop } from "../agent-loops/anthropic.js";

// The loop as a user calls it.
export const firstLoop: (llm: Anthropic, session: HolarynSession, prompt: string) => Promise<Anthropic.Message> = loop;

// SDK values in, our values out, in both directions where the SDK allows it.
declare const sdkBlock: Anthropic.ToolUseBlock;
declare const tool: AnthropicTool;
declare const result: AnthropicToolResult;
export const call: AnthropicToolUse = sdkBlock;
export const asSdkTool: Anthropic.Tool = tool;
export const asSdkToolUnion: Anthropic.ToolUnion = tool;
export const asSdkResult: Anthropic.ToolResultBlockParam = result;
export const asSdkContent: Anthropic.ContentBlockParam = result;

// Deferred loading (issue 20): the same loop with every permitted tool deferred; results may carry a tool_reference.
export async function deferredRequest(llm: Anthropic, session: HolarynSession, messages: Anthropic.MessageParam[]) {
  const { tools } = session.exportTools("anthropic", { mode: "deferred" });
  return llm.messages.create({ model: "claude-sonnet-4-5", max_tokens: 1024, messages, tools });
}
declare const reference: AnthropicToolResult & {
  content: [{ type: "text"; text: string }, { type: "tool_reference"; tool_name: string }];
};
export const asSdkReference: Anthropic.ToolResultBlockParam = reference;
