// holaryn/ai: a Vercel AI SDK adapter. `holarynTools(session)` gives a
// ToolSet that follows the session (the discovery tools, then every tool the
// model inspected, named with provider-safe wire names) and a `prepareStep`
// that refreshes it and sets `activeTools` before every step. Every call
// goes through `session.dispatch`: discovery tools run at once, anything else
// is re-resolved and gated. A refused or failed call becomes the AI SDK's
// tool error (the model sees the code, message and next action).

import { ConfigError } from "./core.mjs";

let ai;
try {
  ai = await import("ai");
} catch (e) {
  const err = new ConfigError(
    `holaryn/ai needs the Vercel AI SDK: npm install ai (${e.code ?? e.message})`,
    "config.invalid",
  );
  err.nextAction = "npm install ai";
  err.cause = e;
  throw err;
}
const { dynamicTool, jsonSchema } = ai;

/** The wire-name format: its names are safe for every provider the AI SDK speaks to. */
const WIRE_FORMAT = "openai_chat";
const SIGNATURE = Symbol("holaryn.signature");

/** A tool result the gate refused or the tool failed; `message` is the JSON the model sees. */
export class HolarynToolError extends Error {
  constructor(content) {
    const error = content && typeof content === "object" && "error" in content ? content.error : content;
    super(JSON.stringify(error));
    this.name = "HolarynToolError";
    this.code = error?.code;
    this.nextAction = error?.nextAction ?? undefined;
  }
}

/**
 * A ToolSet following `session`, and the `prepareStep` that keeps it current.
 * @param {import("./index.d.ts").HolarynSession} session
 * @param {{host?: import("./index.d.ts").Host}} [options] host callbacks (`execute`, `approve`, ...) for gated calls
 */
export function holarynTools(session, { host = {} } = {}) {
  /** The ToolSet handed to generateText/streamText: one object, updated in place. */
  const tools = {};
  let names = {};

  async function run(wire, input, { abortSignal } = {}) {
    const target = names[wire] ?? wire;
    const signal =
      abortSignal && host.signal ? AbortSignal.any([abortSignal, host.signal]) : (abortSignal ?? host.signal);
    const result = await session.dispatch(target, input ?? {}, { ...host, ...(signal ? { signal } : {}) });
    if (result.isError) throw new HolarynToolError(result.content);
    return result.content;
  }

  /** Bring the ToolSet in line with the session's export; returns the active tool names. */
  function refresh() {
    const exported = session.exportTools(WIRE_FORMAT);
    names = exported.names;
    const seen = new Set();
    for (const t of exported.tools) {
      const fn = t.function;
      seen.add(fn.name);
      const signature = JSON.stringify(fn);
      if (tools[fn.name]?.[SIGNATURE] === signature) continue;
      tools[fn.name] = Object.assign(
        dynamicTool({
          description: fn.description,
          inputSchema: jsonSchema(fn.parameters),
          execute: (input, options) => run(fn.name, input, options),
        }),
        { [SIGNATURE]: signature },
      );
    }
    for (const name of Object.keys(tools)) if (!seen.has(name)) delete tools[name];
    return [...seen];
  }

  const activeTools = refresh();
  return {
    tools,
    /** The names to start with (`activeTools` of the first step). */
    activeTools,
    /** Pass as `prepareStep` (or call from yours): refreshes the ToolSet and sets `activeTools`. */
    prepareStep: () => ({ activeTools: refresh() }),
    refresh,
  };
}
