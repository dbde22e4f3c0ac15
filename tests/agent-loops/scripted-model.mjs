// A loopback stand-in for a model API that plays a script: the real SDK client is pointed at it
// (`baseURL`), each request is answered by the next step of the script, and every request body is
// recorded so a test can assert what the model was sent (the tools array, the tool results).
//
// A step is `async (request) => turn`, where `request` is the parsed body with helpers
// (`toolNames`, `result(callId)`) and `turn` is `{ text }` (the final answer) or
// `{ calls: [{ name, input } | { name, arguments }] }` (`arguments` is the raw JSON string, for a
// model that writes malformed JSON). Call ids are `call_<step>_<i>`. A step that throws, or a
// request past the end of the script, is answered with HTTP 400 and its message, so the SDK
// throws it in the loop (clients are made with `maxRetries: 0`).

import { createServer } from "node:http";

/** The three dialects: where each posts, how tools and results look, and how a turn is answered. */
export const DIALECTS = {
  anthropic: {
    format: "anthropic",
    path: "/v1/messages",
    toolNames: (body) => (body.tools ?? []).map((t) => t.name),
    results(body) {
      const out = new Map();
      for (const m of body.messages ?? []) {
        if (m.role !== "user" || !Array.isArray(m.content)) continue;
        for (const b of m.content) {
          if (b.type === "tool_result")
            out.set(b.tool_use_id, { raw: b, isError: b.is_error, parts: parts(b.content) });
        }
      }
      return out;
    },
    answer(step, turn) {
      const content = turn.calls
        ? turn.calls.map((c, i) => ({
            type: "tool_use",
            id: `call_${step}_${i}`,
            name: c.name,
            input: c.input ?? JSON.parse(c.arguments),
          }))
        : [{ type: "text", text: turn.text, citations: null }];
      return {
        id: `msg_${step}`,
        type: "message",
        role: "assistant",
        model: "claude-sonnet-4-5",
        content,
        stop_reason: turn.calls ? "tool_use" : "end_turn",
        stop_sequence: null,
        usage: { input_tokens: 1, output_tokens: 1 },
      };
    },
  },
  openai_chat: {
    format: "openai_chat",
    path: "/v1/chat/completions",
    toolNames: (body) => (body.tools ?? []).map((t) => t.function.name),
    results(body) {
      const out = new Map();
      for (const m of body.messages ?? []) {
        if (m.role === "tool") out.set(m.tool_call_id, { raw: m, isError: undefined, parts: parts(m.content) });
      }
      return out;
    },
    answer(step, turn) {
      const message = turn.calls
        ? {
            role: "assistant",
            content: null,
            refusal: null,
            tool_calls: turn.calls.map((c, i) => ({
              id: `call_${step}_${i}`,
              type: "function",
              function: { name: c.name, arguments: c.arguments ?? JSON.stringify(c.input) },
            })),
          }
        : { role: "assistant", content: turn.text, refusal: null };
      return {
        id: `chatcmpl_${step}`,
        object: "chat.completion",
        created: 0,
        model: "gpt-5",
        choices: [{ index: 0, message, finish_reason: turn.calls ? "tool_calls" : "stop", logprobs: null }],
        usage: { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 },
      };
    },
  },
  openai_responses: {
    format: "openai_responses",
    path: "/v1/responses",
    toolNames: (body) => (body.tools ?? []).map((t) => t.name),
    results(body) {
      const out = new Map();
      for (const item of Array.isArray(body.input) ? body.input : []) {
        if (item.type === "function_call_output") {
          out.set(item.call_id, { raw: item, isError: undefined, parts: parts(item.output) });
        }
      }
      return out;
    },
    answer(step, turn) {
      const output = turn.calls
        ? turn.calls.map((c, i) => ({
            type: "function_call",
            id: `fc_${step}_${i}`,
            call_id: `call_${step}_${i}`,
            name: c.name,
            arguments: c.arguments ?? JSON.stringify(c.input),
            status: "completed",
          }))
        : [
            {
              type: "message",
              id: `msg_${step}`,
              role: "assistant",
              status: "completed",
              content: [{ type: "output_text", text: turn.text, annotations: [] }],
            },
          ];
      return {
        id: `resp_${step}`,
        object: "response",
        created_at: 0,
        model: "gpt-5",
        status: "completed",
        output,
        parallel_tool_calls: true,
        tool_choice: "auto",
        tools: [],
        usage: { input_tokens: 1, output_tokens: 1, total_tokens: 2 },
      };
    },
  },
};

/**
 * A tool result's content as the model sees it, one shape for every format: a list of
 * `{type: "text", text}` and `{type: "image", mime, data}` parts (other blocks kept as they are).
 */
export function parts(content) {
  if (typeof content === "string") return [{ type: "text", text: content }];
  return (content ?? []).map((b) => {
    if (b.type === "text" || b.type === "input_text") return { type: "text", text: b.text };
    if (b.type === "image" && b.source?.type === "base64") {
      return { type: "image", mime: b.source.media_type, data: b.source.data };
    }
    if (b.type === "input_image") {
      const m = /^data:([^;]+);base64,(.*)$/.exec(b.image_url ?? "");
      return m ? { type: "image", mime: m[1], data: m[2] } : b;
    }
    return b;
  });
}

/** Start the stand-in for `dialect` playing `script`; resolves to `{ baseURL, requests, close }`. */
export async function startScriptedModel(dialect, script) {
  const d = DIALECTS[dialect];
  const requests = [];
  const server = createServer(async (req, res) => {
    let raw = "";
    for await (const chunk of req) raw += chunk;
    const reply = (status, body) => {
      res.writeHead(status, { "content-type": "application/json" });
      res.end(JSON.stringify(body));
    };
    try {
      if (req.method !== "POST" || req.url !== d.path) throw new Error(`unexpected ${req.method} ${req.url}`);
      const body = JSON.parse(raw);
      const step = requests.length;
      const results = d.results(body);
      const request = Object.assign(body, {
        toolNames: d.toolNames(body),
        /** The result the model was sent for `callId`, normalised (`raw`, `isError`, `parts`). */
        result: (callId) => results.get(callId),
      });
      requests.push(request);
      const next = script[step];
      if (!next) throw new Error(`the script has no step ${step}`);
      reply(200, d.answer(step, await next(request)));
    } catch (e) {
      reply(400, { type: "error", error: { type: "invalid_request_error", message: String(e?.stack ?? e) } });
    }
  });
  await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address();
  return {
    baseURL: `http://127.0.0.1:${port}`,
    requests,
    close: () => new Promise((resolve) => server.close(resolve)),
  };
}
