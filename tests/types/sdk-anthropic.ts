// The first loop an Anthropic SDK user writes, with no cast: exportTools("anthropic").tools goes
// into messages.create, each tool_use block into dispatchModelCall, each result back as content.
// Then the per-format shapes and the SDK's own types are assignable where values cross.
import type Anthropic from "@anthropic-ai/sdk";
import type { AnthropicTool, AnthropicToolResult, AnthropicToolUse, HolarynSession } from "holaryn";

export async function loop(llm: Anthropic, session: HolarynSession, prompt: string): Promise<Anthropic.Message> {
  const messages: Anthropic.MessageParam[] = [{ role: "user", content: prompt }];
  for (;;) {
    const res = await llm.messages.create({
      model: "claude-sonnet-4-5",
      max_tokens: 1024,
      messages,
      tools: session.exportTools("anthropic").tools,
    });
    messages.push({ role: "assistant", content: res.content });
    const results: Anthropic.ToolResultBlockParam[] = [];
    for (const block of res.content) {
      if (block.type === "tool_use") results.push(await session.dispatchModelCall("anthropic", block));
    }
    if (results.length === 0) return res;
    messages.push({ role: "user", content: results });
  }
}

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
