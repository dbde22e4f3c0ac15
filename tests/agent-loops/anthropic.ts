// The first loop an Anthropic SDK user writes, with no cast: exportTools("anthropic").tools goes
// into messages.create, each tool_use block into dispatchModelCall, each result back as content.
// tests/types/sdk-anthropic.ts type-checks it; tests/agent-loops/loops.test.mjs runs it (compiled)
// against a scripted model and real MCP servers.
import type Anthropic from "@anthropic-ai/sdk";
import type { HolarynSession } from "holaryn";

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
