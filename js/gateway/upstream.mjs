// The MCP server an MCP client talks to: one holaryn session per client
// connection. tools/list is the session's export in the `mcp` format (the
// discovery tools, `run_tool_code` when enabled, the shared working set, then
// every tool the model has inspected), under names every model API accepts
// (`server__tool`: the core's wire names); tools/call goes through
// dispatchModelCall, so every call is re-resolved and gated, and a call by the
// exact name search or inspect showed works in a fresh session too
// (`exactNameCalls`). When the export changes (an inspect, a registry
// change) the client gets notifications/tools/list_changed. Approvals ask the
// user through elicitation when the client can, else the operator in the
// Capability Center (`--ui`), else the configured fallback.

import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { CallToolRequestSchema, ListToolsRequestSchema } from "@modelcontextprotocol/sdk/types.js";

/** What the model is told when a tool asks first and nobody can be asked. */
export const NO_ELICITATION =
  'this MCP client cannot ask the user (it did not declare the elicitation capability), so tools that ask first are denied; the user can allow them by setting "approvalFallback": "allow" under "holaryn" in the gateway config, or use a client that supports elicitation';

/**
 * One upstream MCP server bound to a new session of `runtime`.
 * @param {object} ctx `{runtime, sessionOptions, execute, approvalFallback, operator, version, log}`
 *   (`operator`: the `--ui` desk that answers approvals when the client cannot elicit)
 */
export function createUpstream({
  runtime,
  sessionOptions,
  execute,
  approvalFallback = "deny",
  operator = null,
  version = "0.0.0",
  log = () => {},
  afterCall = () => {},
}) {
  const session = runtime.createSession({
    ...sessionOptions,
    dynamicDiscovery: true,
    exactNameCalls: true,
    sharedWorkingSet: true,
  });
  const sessionId = session.id;
  /** Approvals waiting on the user or operator: call id → {tool, withdraw}. */
  const waiting = new Map();
  // With bounded code mode on, the client sees run_tool_code from the start.
  if (sessionOptions.boundedCodeMode) session.inspect({ name: "run_tool_code" });
  const server = new Server(
    { name: "holaryn-gateway", title: "Holaryn gateway", version },
    {
      capabilities: { tools: { listChanged: true } },
      instructions:
        "Tools are found on demand: call tool_search with what you want to do, tool_inspect on a result to load its exact schema, then call it by the name the result gives (callName when present, else name). Inspected tools are added to the tool list.",
    },
  );
  // What the client was last shown, and the session's list revision then: the core moves the
  // revision whenever the list may have changed, so a call that changed nothing costs no export.
  let sent = "";
  let sentRevision = -1;
  remember(session.exportTools("mcp").tools);

  function remember(tools) {
    sent = JSON.stringify(tools);
    sentRevision = session.listRevision;
  }

  /** Tell the client when the tools it sees have changed. */
  async function notifyIfChanged() {
    let tools;
    try {
      if (session.listRevision === sentRevision) return;
      tools = session.exportTools("mcp").tools;
    } catch {
      return; // the session is closed
    }
    const before = sent;
    remember(tools);
    if (sent === before) return;
    await server.sendToolListChanged().catch((e) => log(`list_changed not sent: ${e.message}`));
  }

  /**
   * Ask for approval; the question is withdrawn when the core says the call's own tool
   * changed or was denied meanwhile (then the core ends the call with that, not with this answer).
   */
  function approve(req, signal) {
    const ctl = new AbortController();
    const stop = () => ctl.abort();
    signal?.addEventListener("abort", stop, { once: true });
    let withdraw;
    const withdrawn = new Promise((resolve) => {
      withdraw = () => {
        ctl.abort();
        resolve({ decision: "deny", reason: "withdrawn: the tool changed or was denied while waiting" });
      };
    });
    waiting.set(req.callId, { tool: req.tool, withdraw });
    return Promise.race([ask(req, ctl.signal), withdrawn]).finally(() => {
      waiting.delete(req.callId);
      signal?.removeEventListener("abort", stop);
    });
  }

  async function ask(req, signal) {
    if (server.getClientCapabilities()?.elicitation) {
      // `why` is the core's words for the reason ("it may make destructive changes").
      let r;
      try {
        r = await server.elicitInput(
          {
            message: `Allow the tool "${req.tool}" (${req.title}) to run? Asked because ${req.why}.${req.description ? ` ${req.description}` : ""}`,
            requestedSchema: { type: "object", properties: {} },
          },
          { signal },
        );
      } catch (e) {
        if (signal.aborted) return { decision: "deny", reason: "the question was withdrawn" };
        throw e;
      }
      if (r.action === "accept") return true;
      return {
        decision: "deny",
        reason: r.action === "decline" ? "the user declined" : "the user dismissed the request",
      };
    }
    if (operator) return operator.ask(req, signal);
    return approvalFallback === "allow" ? true : { decision: "deny", reason: NO_ELICITATION };
  }

  server.setRequestHandler(ListToolsRequestSchema, async () => {
    const tools = session.exportTools("mcp").tools;
    remember(tools);
    return { tools };
  });

  server.setRequestHandler(CallToolRequestSchema, async (request, extra) => {
    // `execute` also gets the client's request (progress token, request id: proxy.mjs relays on them).
    const call = { u: upstream, request, extra };
    const host = {
      execute: (req) => execute(req, call),
      approve: (req) => approve(req, extra.signal),
      signal: extra.signal,
    };
    const result = await session.dispatchModelCall("mcp", request.params, host);
    afterCall();
    await notifyIfChanged();
    return result;
  });

  const onEvent = (ev) => {
    if (ev.type !== "tool_registry_changed") return;
    // The core lists the loaded tools a change invalidated: only those end a pending approval.
    if (ev.sessionId === sessionId && waiting.size) {
      const hit = new Set(ev.invalidated ?? []);
      for (const w of waiting.values()) if (hit.has(w.tool)) w.withdraw();
    }
    // After the runtime call that raised the event has returned.
    setImmediate(notifyIfChanged);
  };
  runtime.addEventListener(onEvent);

  const upstream = {
    server,
    session,
    notifyIfChanged,
    async close() {
      runtime.removeEventListener(onEvent);
      await server.close().catch(() => {});
      try {
        session.close();
      } catch {
        // already closed
      }
    },
  };
  return upstream;
}
